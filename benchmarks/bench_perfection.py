"""Perfection, measured: for every k built in a solution directory, the engine (level 7 and up)
plays sampled positions of every value against the solution's best defence under the real draw
rules (threefold repetition, 100 turns without a removal; from a lost position the defence
delays the next removal, which the rule rewards).

    python benchmarks/bench_perfection.py [--dir DIR] [--per-sector N] [--level L] [--seed S]

Each sector is measured once, with the smallest k it belongs to: up to ``--per-sector`` won and
as many drawn positions (for the side to move) drawn at random (seeded) from every sector. It
prints, per k and kind of sector (placing, moving, flying), the positions played, the won ones
not won and the drawn ones lost; both must be 0, and the exit code is 1 if either is not. In a
sector with a removal file (a moving-phase sector's removal distances, a placing sector's values
under the rule) a won position is one won within the no-removal rule from a count of 0; the
solution's wins that the rule draws are played as drawn positions (counted apart: the engine
must not lose them). Where a placing sector has no values under the rule, a won position the
engine does not win is searched to the moving phase (``placing_rule_value``, at most 2,000,000
positions): where that proves the rule draws it, it is counted as drawn by the rule, not as a
failure.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from morris.app.paths import solution_dir
from morris.engine.result import Value
from morris.engine.solution import Solution, new_sector_keys, sector_keys
from morris.engine.solution.analyse import board_class
from morris.engine.solution.play import placing_rule_value
from morris.engine.solution.sectors import MAX_MEN, MIN_MEN
from morris.solver.solution.perfection import play_out, sample_positions, sector_kind

KINDS = ("placing", "moving", "flying")
#: The positions a search may visit to prove that the rule draws a placing win not won.
PROOF_NODES = 2_000_000


def built(directory: Path) -> list[int]:
    """Every k whose sectors are all in ``directory``."""
    return [
        men
        for men in range(MIN_MEN, MAX_MEN + 1)
        if all((directory / k.filename).exists() for k in sector_keys(men))
    ]


def measure(directory: Path, men: int, per_sector: int, level: int, seed: int) -> int:
    """Play the sectors new in ``men``; print the table; return the failures."""
    solution = Solution.load(directory, men)
    new = set(new_sector_keys(men))
    counts: Counter[tuple[str, str]] = Counter()
    started = time.perf_counter()
    samples = sample_positions(solution, per_sector, np.random.default_rng(seed + men))
    for sample in samples:
        if sample.key not in new:
            continue
        kind = sector_kind(sample.key)
        result = play_out(solution, men, sample.position, level, seed + sample.entry)
        counts[kind, sample.value.value] += 1
        counts[kind, "rule drawn"] += sample.rule_drawn
        if sample.value is Value.WIN and result != "engine":
            board = board_class(men)(sample.position)
            if placing_rule_value(solution, board, PROOF_NODES) is Value.DRAW:
                # Not a failure: a search to the moving phase proves the rule draws it.
                counts[kind, "rule drawn"] += 1
                counts[kind, "win"] -= 1
                counts[kind, "draw"] += 1
                print(f"  won by the solution, drawn by the rule: {sample.key.name} "
                      f"{sample.position}")  # fmt: skip
            else:
                counts[kind, "won not won"] += 1
                print(f"  won, not won ({result}): {sample.key.name} {sample.position}")
        if sample.value is Value.DRAW and result == "defender":
            counts[kind, "drawn lost"] += 1
            print(f"  drawn, lost: {sample.key.name} {sample.position}")
    elapsed = time.perf_counter() - started
    print(f"\n{men} men's morris, {len(new)} new sectors, level {level} ({elapsed:.0f} s)")
    print(
        f"{'kind':<8} {'won':>6} {'not won':>8} {'drawn':>6} {'lost':>6}"
        f" {'of them drawn by the rule':>26}"
    )
    for kind in (*KINDS, "all"):
        kinds = KINDS if kind == "all" else (kind,)

        def total(what: str, kinds: tuple[str, ...] = kinds) -> int:
            return sum(counts[k, what] for k in kinds)

        print(
            f"{kind:<8} {total('win'):>6} {total('won not won'):>8} {total('draw'):>6} "
            f"{total('drawn lost'):>6} {total('rule drawn'):>26}"
        )
    return sum(counts[k, w] for k in KINDS for w in ("won not won", "drawn lost"))


def main(argv: list[str] | None = None) -> int:
    """Run the measure; 1 if a won position was not won or a drawn one lost, 2 for bad input."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--dir", type=Path, default=None, help="the solution directory (default: the data dir's)"
    )
    parser.add_argument(
        "--per-sector", type=int, default=40, metavar="N", help="won and drawn positions a sector"
    )
    parser.add_argument("--level", type=int, default=7, choices=(7, 8, 9))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--men", type=int, nargs="+", default=None, metavar="K", help="only these k (built)"
    )
    args = parser.parse_args(argv)
    directory = args.dir or solution_dir()
    men_built = built(directory)
    if args.men is not None:
        missing = sorted(set(args.men) - set(men_built))
        if missing:
            print(f"--men: {missing} not built in {directory}", file=sys.stderr)
            return 2
        men_built = sorted(args.men)
    if not men_built:
        print(f"no solved game in {directory} (morris tables build --men K)", file=sys.stderr)
        return 2
    failures = sum(measure(directory, m, args.per_sector, args.level, args.seed) for m in men_built)
    print(f"\nwon positions not won + drawn positions lost: {failures} (must be 0)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
