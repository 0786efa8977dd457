"""Endgame tables: generation time and size per table, probe and best-turn time.

    python benchmarks/bench_tables.py [--max-pieces 7] [--dir DIR]

Builds every table up to ``--max-pieces`` pieces on the board (both flying rules) into a
temporary directory (or ``--dir``, reusing what is there), printing for each solved system the
wall-clock and CPU seconds, the positions and the bytes on disk; then times ``probe`` and
``best_turns`` on random positions of each table.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

from morris.engine.tables import EndgameTables, read_manifest
from morris.solver.tables import build_tables

PROBES = 20_000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-pieces", type=int, default=7)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.dir or Path(tmp)
        run(directory, args.max_pieces)
    return 0


def run(directory: Path, max_pieces: int) -> None:
    started: dict[str, tuple[float, float]] = {}
    finished: dict[str, tuple[float, float]] = {}

    def progress(label: str, done: int, total: int) -> None:
        now = (time.perf_counter(), time.process_time())
        started.setdefault(label, now)
        if done == total and label not in finished:
            finished[label] = now

    wall0, cpu0 = time.perf_counter(), time.process_time()
    build_tables(directory, max_pieces=max_pieces, progress=progress)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    print(f"{'system':<26} {'wall s':>8} {'cpu s':>8}")
    previous = (wall0, cpu0)
    for label, end in finished.items():
        # a system's time runs from the end of the one before (its set-up pass included)
        print(f"{label:<26} {end[0] - previous[0]:>8.1f} {end[1] - previous[1]:>8.1f}")
        previous = end
    print(f"{'all':<26} {wall:>8.1f} {cpu:>8.1f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MB")
    print()
    infos = read_manifest(directory)
    print(f"{'table':<18} {'positions':>12} {'bytes':>12} {'dtype':>7} {'longest win':>11}")
    for key, info in sorted(infos.items()):
        print(
            f"{key.name:<18} {key.size:>12,} {info.nbytes:>12,} {info.dtype:>7}"
            f" {info.longest_win:>11}"
        )
    print(f"{'all':<18} {'':>12} {sum(i.nbytes for i in infos.values()):>12,}")
    print()
    t = time.perf_counter()
    tables = EndgameTables.load(directory)
    print(f"load with checksums: {time.perf_counter() - t:.2f} s")
    rng = random.Random(1)
    for key in tables.keys:
        positions = []
        for _ in range(PROBES):
            points = rng.sample(range(24), key.mover + key.other)
            positions.append(
                (sum(1 << p for p in points[: key.mover]), sum(1 << p for p in points[key.mover :]))
            )
        t = time.perf_counter()
        for me, opp in positions:
            tables.probe(me, opp, True, key.flying)
        probe = (time.perf_counter() - t) / PROBES * 1e6
        t = time.perf_counter()
        for me, opp in positions[:200]:
            tables.best_turns(me, opp, True, key.flying)
        best = (time.perf_counter() - t) / 200 * 1e6
        print(f"{key.name:<18} probe {probe:6.1f} us   best_turns {best:8.1f} us")
    return None


if __name__ == "__main__":
    sys.exit(main())
