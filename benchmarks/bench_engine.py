"""Engine figures: nodes per second and depth reached in a fixed time from fixed positions, and the
endgame tables' generation time and size.

    python benchmarks/bench_engine.py                 # 1 s per position, no tables
    python benchmarks/bench_engine.py --seconds 2 --tables   # also build the 3v3/4v3 tables

Positions come from the strong games in tests/data: a placing position, a middle game and a flying
endgame. Figures are single-threaded pure Python; a Raspberry Pi 4 is about 4-6x slower.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from morris import Board  # noqa: E402
from morris.engine import LEVELS, MAX_LEVEL, Engine  # noqa: E402

POSITIONS = {
    "placing": "......B./B..BWWWW/........ w 5 5 0 5 -",
    "middle game": "..B.B.WB/...BWBW./..WW.WWB w 0 0 3 16 d1-d2,e3-e4,d7-g7",
    "flying endgame": "B..B...B/..W..W../W..B.... w 0 0 4 40 -",
    "start": "......../......../........ w 9 9 0 1 -",
}


def bench_positions(seconds: float, cpu: bool) -> None:
    clock = time.process_time if cpu else time.monotonic
    kind = "CPU " if cpu else ""
    print(f"## Search, {seconds:g} {kind}s per position (level {MAX_LEVEL}, no tables)")
    print("| position | depth | nodes | nps | best | score |")
    print("|---|---:|---:|---:|---|---:|")
    for name, text in POSITIONS.items():
        board = Board(text)
        result = Engine(MAX_LEVEL, clock=clock).play(board, movetime=seconds)
        print(
            f"| {name} | {result.depth} | {result.nodes} | {result.nps} | {result.move} | "
            f"{result.score} |"
        )
        sys.stdout.flush()


def bench_levels() -> None:
    print("\n## Levels from the start position and a middle game (time here)")
    print("| level | budget | start: s | middle: s |")
    print("|---:|---|---:|---:|")
    for number, level in LEVELS.items():
        if number > 8:
            break
        times = []
        for text in (POSITIONS["start"], POSITIONS["middle game"]):
            t0 = time.perf_counter()
            Engine(number).play(Board(text))
            times.append(time.perf_counter() - t0)
        budget = f"depth {level.depth}" if level.nodes is None else f"{level.nodes} nodes"
        print(f"| {number} | {budget} | {times[0]:.3f} | {times[1]:.3f} |")
        sys.stdout.flush()


def bench_tables() -> None:
    from morris.engine.tables import build_tables

    print("\n## Endgame tables (3v3, 4v3, 3v4; flying and not)")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        infos = build_tables(Path(tmp))
        elapsed = time.perf_counter() - t0
        total = sum(i.nbytes for i in infos)
        print(f"built {len(infos)} tables in {elapsed:.1f} s, {total / 1e6:.1f} MB")
        for info in infos:
            print(f"- {info.key.name}: {info.nbytes / 1e6:.2f} MB, longest win {info.longest_win}")


def main() -> int:
    parser = argparse.ArgumentParser(description="engine benchmarks")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--tables", action="store_true", help="also time the table generation")
    parser.add_argument("--no-levels", action="store_true")
    parser.add_argument(
        "--cpu", action="store_true", help="count CPU time, not wall time (for a loaded machine)"
    )
    args = parser.parse_args()
    bench_positions(args.seconds, args.cpu)
    if not args.no_levels:
        bench_levels()
    if args.tables:
        bench_tables()
    return 0


if __name__ == "__main__":
    sys.exit(main())
