"""Playing for the win inside a draw, measured: from drawn positions of a solved k men's game,
the top level (which plays from the solution and so never loses a drawn position) against an
opponent that errs, once choosing the drawing turn that sets the most traps
(:func:`~morris.engine.solution.play.drawing_traps`) and once any drawing turn at random.

    python benchmarks/bench_traps.py --dir DIR --men K [--positions N] [--opponents 3,5,6]
                                     [--nodes N] [--seed S] [--jobs J]
    python benchmarks/bench_traps.py --dir DIR --men K --opponents sanmill:1,sanmill:3 \
                                     --sanmill /path/to/sanmill

The positions are drawn (seeded) from the solution's drawn positions of every sector with the
side to move ours; each is played twice per opponent, traps on and off, with the same opponent
(a level of ours searching without the solution, or with ``--nodes`` a fixed node budget), under
the real draw rules (threefold repetition, 100 turns without a removal); or against Sanmill
searching to a fixed depth (``sanmill:DEPTH``, through benchmarks/sanmill_uci.py, from
moving-phase positions only: Sanmill plays nine men, and a position with no piece in hand is
one of its game too). It prints, per
opponent, the wins, draws and losses of each choice and the difference in wins with its 95%
margin (a paired comparison: the same positions, the same opponent). A loss of the top level
from a drawn position is a defect: the exit code is 1 if there is one.

A game of the measure starts from a position the solution says is drawn for the side to move
under the no-removal rule at a count of 0; the opponent never sees the solution.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
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
from morris.engine.client import UciEngine  # noqa: E402
from morris.engine.engine import Engine  # noqa: E402
from morris.engine.result import Value  # noqa: E402
from morris.engine.solution import Solution  # noqa: E402
from morris.engine.solution.analyse import board_class  # noqa: E402
from morris.solver.solution.perfection import duel, sample_positions  # noqa: E402

ADAPTER = Path(__file__).resolve().with_name("sanmill_uci.py")
#: The top level (it plays from the solution wherever it covers the position).
TOP = 9


def play(
    directory: str, men: int, position: str, opponent: str, nodes: int | None, traps: bool,
    seed: int, sanmill: str | None,
) -> str:  # fmt: skip
    """One game from ``position``, the top level to move: ``"win"``, ``"draw"`` or ``"loss"``.
    ``opponent`` is a level of ours (``"3"``) or Sanmill at a depth (``"sanmill:2"``)."""
    solution = loaded_solution(directory, men)
    board = board_class(men)(position, no_removal_limit=DEFAULT_NO_REMOVAL_LIMIT)
    top = Engine(TOP, seed=seed, solution=solution, traps=traps)
    with contextlib.ExitStack() as stack:
        if opponent.startswith("sanmill:"):
            if sanmill is None:
                raise SystemExit("an opponent sanmill:DEPTH needs --sanmill BINARY")
            depth = int(opponent.split(":", 1)[1])
            command = [sys.executable, str(ADAPTER), sanmill]
            other = stack.enter_context(UciEngine.spawn(command, timeout=30))
            theirs = lambda b: other.play(b, depth=depth).move  # noqa: E731
        else:
            level = Engine(int(opponent), seed=seed)
            theirs = lambda b: level.play(b, nodes=nodes).move  # noqa: E731
        result = duel(board, lambda b: top.play(b).move, theirs)
    return {"first": "win", "second": "loss"}.get(result, result)


@functools.cache
def loaded_solution(directory: str, men: int) -> Solution:
    """The solution, loaded once per process (also for bench_level_mistakes.py)."""
    return Solution.load(Path(directory), men)


def drawn_positions(
    directory: Path, men: int, count: int, seed: int, moving_only: bool = False
) -> list[str]:
    """``count`` drawn positions (for the side to move) of the k men's game, seeded, at least
    two drawing turns each (else there is no choice to make); with ``moving_only`` none with a
    piece in hand (a position Sanmill, which plays nine men, may start from)."""
    from morris.engine.solution.play import scored_turns

    solution = loaded_solution(str(directory), men)
    found = []
    for sample in sample_positions(solution, 40, np.random.default_rng(seed)):
        if sample.value is not Value.DRAW or sample.rule_drawn:
            continue
        board = board_class(men)(sample.position, no_removal_limit=DEFAULT_NO_REMOVAL_LIMIT)
        if moving_only and board.pieces_in_hand(True) + board.pieces_in_hand(False):
            continue
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
    parser.add_argument(
        "--opponents", default="3,5,6",
        help="the opponents: levels of ours, or sanmill:DEPTH (Sanmill searching DEPTH plies, "
        "from moving-phase positions only)",
    )  # fmt: skip
    parser.add_argument("--sanmill", default=None, help="the Sanmill binary (docs/SANMILL.md)")
    parser.add_argument("--nodes", type=int, default=None, help="the opponent's node budget")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    opponents = args.opponents.split(",")
    moving_only = any(o.startswith("sanmill:") for o in opponents)
    positions = drawn_positions(args.dir, args.men, args.positions, args.seed, moving_only)
    print(
        f"{len(positions)} drawn positions of {args.men} men's morris, seed {args.seed}"
        + (" (moving phase only)" if moving_only else "")
    )
    print("| opponent | games | traps W-D-L | random W-D-L | wins more (95%) | seconds |")
    print("|---|---:|---|---|---:|---:|")
    losses = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for level in opponents:
            start = time.monotonic()
            results: dict[bool, list[str]] = {}
            for traps in (True, False):
                results[traps] = list(
                    pool.map(
                        play,
                        *zip(
                            *[
                                (
                                    str(args.dir),
                                    args.men,
                                    p,
                                    level,
                                    args.nodes,
                                    traps,
                                    i,
                                    args.sanmill,
                                )
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
            if level.startswith("sanmill:"):
                name = f"Sanmill, depth {level.split(':', 1)[1]}"
            else:
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
