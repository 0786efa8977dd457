"""Playing for the win inside a draw, measured: from drawn positions of a solved k men's game,
the top level (which plays from the solution and so never loses a drawn position) against an
opponent that errs, once choosing the drawing turn that sets the most traps
(:func:`~morris.engine.solution.play.drawing_traps`) and once any drawing turn at random.

    python benchmarks/bench_traps.py --dir DIR --men K [--positions N] [--opponents 1,3,5]
                                     [--nodes N] [--seed S] [--jobs J]

The positions are drawn (seeded) from the solution's drawn positions of every sector with the
side to move ours; each is played twice per opponent, traps on and off, with the same opponent
(a level of ours searching without the solution, or with ``--nodes`` a fixed node budget), under
the real draw rules (threefold repetition, 100 turns without a removal). It prints, per
opponent, the wins, draws and losses of each choice and the difference in wins with its 95%
margin (a paired comparison: the same positions, the same opponent). A loss of the top level
from a drawn position is a defect: the exit code is 1 if there is one.

A game of the measure starts from a position the solution says is drawn for the side to move
under the no-removal rule at a count of 0; the opponent never sees the solution.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from morris.core.rules import DEFAULT_NO_REMOVAL_LIMIT  # noqa: E402
from morris.engine.search import Engine  # noqa: E402
from morris.engine.solution import Solution  # noqa: E402
from morris.engine.solution.analyse import board_class  # noqa: E402
from morris.engine.solution.perfection import duel, sample_positions  # noqa: E402
from morris.engine.tables.keys import Value  # noqa: E402

#: The top level (it plays from the solution wherever it covers the position).
TOP = 9


def play(
    directory: str, men: int, position: str, opponent: int, nodes: int | None, traps: bool,
    seed: int,
) -> str:  # fmt: skip
    """One game from ``position``, the top level to move: ``"win"``, ``"draw"`` or ``"loss"``."""
    solution = _solution(directory, men)
    board = board_class(men)(position, no_removal_limit=DEFAULT_NO_REMOVAL_LIMIT)
    top = Engine(TOP, seed=seed, solution=solution, traps=traps)
    other = Engine(opponent, seed=seed)
    result = duel(board, lambda b: top.play(b).move, lambda b: other.play(b, nodes=nodes).move)
    return {"first": "win", "second": "loss"}.get(result, result)


_LOADED: dict[tuple[str, int], Solution] = {}


def _solution(directory: str, men: int) -> Solution:
    """The solution, loaded once per process."""
    key = (directory, men)
    if key not in _LOADED:
        _LOADED[key] = Solution.load(Path(directory), men)
    return _LOADED[key]


def drawn_positions(directory: Path, men: int, count: int, seed: int) -> list[str]:
    """``count`` drawn positions (for the side to move) of the k men's game, seeded, at least
    two drawing turns each (else there is no choice to make)."""
    from morris.engine.solution.play import scored_turns

    solution = _solution(str(directory), men)
    found = []
    for sample in sample_positions(solution, 40, np.random.default_rng(seed)):
        if sample.value is not Value.DRAW or sample.rule_drawn:
            continue
        board = board_class(men)(sample.position, no_removal_limit=DEFAULT_NO_REMOVAL_LIMIT)
        turns = scored_turns(solution, board)
        if turns and sum(r.value is Value.DRAW for _, r in turns) >= 2:
            found.append(sample.position)
    random.Random(seed).shuffle(found)
    return found[:count]


def margin(diffs: list[int]) -> float:
    """The 95% margin of the mean of paired differences (normal approximation)."""
    n = len(diffs)
    if n < 2:
        return math.inf
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return 1.96 * math.sqrt(var / n)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, required=True, help="the solution's directory")
    parser.add_argument("--men", type=int, required=True, help="k of the solved k men's game")
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--opponents", default="1,3,5", help="levels of the opponent")
    parser.add_argument("--nodes", type=int, default=None, help="the opponent's node budget")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    positions = drawn_positions(args.dir, args.men, args.positions, args.seed)
    print(f"{len(positions)} drawn positions of {args.men} men's morris, seed {args.seed}")
    print("| opponent | games | traps W-D-L | random W-D-L | wins more (95%) | seconds |")
    print("|---|---:|---|---|---:|---:|")
    losses = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for level in (int(x) for x in args.opponents.split(",")):
            start = time.monotonic()
            results: dict[bool, list[str]] = {}
            for traps in (True, False):
                results[traps] = list(
                    pool.map(
                        play,
                        *zip(
                            *[
                                (str(args.dir), args.men, p, level, args.nodes, traps, i)
                                for i, p in enumerate(positions)
                            ],
                            strict=True,
                        ),
                    )
                )
            counts = {t: [r.count(x) for x in ("win", "draw", "loss")] for t, r in results.items()}
            losses += counts[True][2] + counts[False][2]
            diffs = [
                (a == "win") - (b == "win")
                for a, b in zip(results[True], results[False], strict=True)
            ]
            name = f"level {level}" + (f", {args.nodes} nodes" if args.nodes else "")
            print(
                f"| {name} | {len(positions)} | {'-'.join(map(str, counts[True]))} | "
                f"{'-'.join(map(str, counts[False]))} | {sum(diffs):+d} ± "
                f"{margin(diffs) * len(diffs):.1f} | {time.monotonic() - start:.0f} |",
                flush=True,
            )
    if losses:
        print(f"{losses} drawn positions lost by the top level: a defect")
    return 1 if losses else 0


if __name__ == "__main__":
    raise SystemExit(main())
