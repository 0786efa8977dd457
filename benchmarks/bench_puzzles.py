"""How long a puzzle takes to make: ``python benchmarks/bench_puzzles.py --dir DIR``.

Opens the solved game in DIR (``morris tables build --men K --dir DIR``) and times
:func:`morris.engine.solution.puzzles.generate_puzzles` for each length, over a few seeds:
what a person waits after pressing Puzzle (the page), ``hint`` in the board setup, or
``morris sim --puzzle N``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from morris.engine.solution import Solution
from morris.engine.solution.puzzles import generate_puzzles, longest_puzzle


def main() -> None:
    """Print a line per length: median and longest time of one puzzle, unique answers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, required=True, help="the solution directory")
    parser.add_argument("--seeds", type=int, default=10, help="seeds per length (default 10)")
    args = parser.parse_args()
    started = time.perf_counter()
    solution = Solution.load(args.dir, check=False)
    print(f"{len(solution.keys)} sectors opened in {time.perf_counter() - started:.3f} s")
    longest = longest_puzzle(solution)
    print(f"longest puzzle: wins in {longest}")
    print(f"{'wins in':>7} {'median s':>9} {'max s':>7} {'unique':>7}")
    for wins_in in range(1, longest + 1):
        times, unique = [], 0
        for seed in range(args.seeds):
            started = time.perf_counter()
            found = generate_puzzles(solution, wins_in, seed=seed)
            times.append(time.perf_counter() - started)
            actions = {s.split("x")[0] for s in found[0].solutions} if found else set()
            unique += len(actions) == 1
        print(
            f"{wins_in:>7} {statistics.median(times):>9.3f} {max(times):>7.3f} "
            f"{unique:>4}/{args.seeds}"
        )


if __name__ == "__main__":
    main()
