"""Engine figures: nodes per second and depth reached in a fixed time from fixed positions, and the
endgame tables' generation time and size.

    python benchmarks/bench_engine.py                 # 1 s per position, no tables
    python benchmarks/bench_engine.py --seconds 2 --tables   # also build the 3v3/4v3 tables
    python benchmarks/bench_engine.py --order-depth 12       # only the move order's figure

Positions come from the strong games in tests/data: a placing position, a middle game and a flying
endgame; the levels are timed over 30 positions of those games, early placing to endgame. Figures
are single-threaded, with the C inner loop where it is built (``MORRIS_NATIVE=0`` for the Python
one, compiled or not: MORRIS_COMPILE=1 at install time); a Raspberry Pi 4 is about 4-6x slower.
The position searches are bound by time alone (no node budget), so they show the depth reached.
``--order-depth D`` counts instead the nodes the top level searches to depth D over the levels'
positions: a figure of the move order alone, the same on any machine and under any load (fewer
nodes for the same depth, the same result but for the reductions).
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
from morris.engine import search as _search  # noqa: E402

#: A node budget no search reaches: the position searches end by time.
UNBOUNDED = 1 << 50


def backend() -> str:
    """Which inner loop the engine runs here."""
    if Engine().native:
        return "C inner loop"
    return "Python, compiled" if _search.__file__.endswith(".so") else "pure Python"


POSITIONS = {
    "placing": "......B./B..BWWWW/........ w 5 5 0 5 -",
    "middle game": "..B.B.WB/...BWBW./..WW.WWB w 0 0 3 16 d1-d2,e3-e4,d7-g7",
    "flying endgame": "B..B...B/..W..W../W..B.... w 0 0 4 40 -",
    "start": "......../......../........ w 9 9 0 1 -",
}


def bench_positions(seconds: float, cpu: bool) -> None:
    clock = time.process_time if cpu else time.monotonic
    kind = "CPU " if cpu else ""
    print(f"## Search, {seconds:g} {kind}s per position ({backend()}, no tables)")
    print("| position | depth | nodes | nps | best | score |")
    print("|---|---:|---:|---:|---|---:|")
    for name, text in POSITIONS.items():
        board = Board(text)
        result = Engine(MAX_LEVEL, clock=clock).play(board, movetime=seconds, nodes=UNBOUNDED)
        print(
            f"| {name} | {result.depth} | {result.nodes} | {result.nps} | {result.move} | "
            f"{result.score} |"
        )
        sys.stdout.flush()


def level_positions(count: int) -> list[Board]:
    """``count`` positions from the strong games in tests/data: every game at several plies, from
    early placing to the endgame (the same positions on every run)."""
    from tests.core.games import position_after, strong_games

    candidates = [
        position_after(game, plies)
        for plies in (4, 12, 20, 30, 45, 60)
        for game in strong_games()
        if plies < len(game.turns)
    ]
    candidates = [board for board in candidates if board.outcome() is None]
    if len(candidates) <= count:
        return candidates
    return [candidates[i * (len(candidates) - 1) // (count - 1)] for i in range(count)]


def bench_levels(count: int, cpu: bool) -> None:
    clock = time.process_time if cpu else time.perf_counter
    boards = level_positions(count)
    kind = "CPU " if cpu else ""
    print(
        f"\n## Levels: {kind}seconds per move over {len(boards)} positions of the strong games "
        f"({backend()})"
    )
    print("| level | budget | mean | max | mean depth |")
    print("|---:|---|---:|---:|---:|")
    for number, level in LEVELS.items():
        times = []
        depths = []
        for board in boards:
            t0 = clock()
            result = Engine(number).play(board)
            times.append(clock() - t0)
            depths.append(result.depth)
        budget = f"depth {level.depth}" if level.depth < 64 else "-"
        if level.nodes is not None:
            budget += f", {level.nodes} nodes"
        print(
            f"| {number} | {budget} | {sum(times) / len(times):.3f} | {max(times):.3f} | "
            f"{sum(depths) / len(depths):.1f} |"
        )
        sys.stdout.flush()


def bench_order(depth: int, count: int) -> None:
    boards = level_positions(count)
    print(f"## Move order: nodes to depth {depth} over {len(boards)} positions ({backend()})")
    print("| phase | positions | nodes |")
    print("|---|---:|---:|")
    for phase, keep in (("placing", True), ("moving", False)):
        chosen = [
            b for b in boards if (b.pieces_in_hand(True) + b.pieces_in_hand(False) > 0) == keep
        ]
        nodes = 0
        for board in chosen:
            nodes += Engine(MAX_LEVEL).play(board, depth=depth, nodes=UNBOUNDED).nodes
        print(f"| {phase} | {len(chosen)} | {nodes} |")
        sys.stdout.flush()


def bench_tables() -> None:
    from morris.solver.tables import build_tables

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
    parser.add_argument("--positions", type=int, default=30, help="positions per level (30)")
    parser.add_argument(
        "--cpu", action="store_true", help="count CPU time, not wall time (for a loaded machine)"
    )
    parser.add_argument(
        "--order-depth", type=int, default=None, metavar="D",
        help="only count the nodes to depth D over the levels' positions (the move order)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.order_depth is not None:
        bench_order(args.order_depth, args.positions)
        return 0
    bench_positions(args.seconds, args.cpu)
    if not args.no_levels:
        bench_levels(args.positions, args.cpu)
    if args.tables:
        bench_tables()
    return 0


if __name__ == "__main__":
    sys.exit(main())
