"""``morris puzzle [--men K] [--wins-in N] [--seed S] [--count C]``: training puzzles drawn from
the solved game, printed (``morris sim --puzzle N`` plays one on the simulated board).

Exit codes: 0 printed; 1 no solved game built (or none found for the seed); 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

#: Exit code of bad input (an option, a length no loaded sector holds).
BAD_INPUT = 2
#: Exit code when no solved game is there to draw puzzles from.
NO_SOLUTION = 1


def register(subparsers: Any) -> None:
    """Add ``morris puzzle``."""
    parser = subparsers.add_parser(
        "puzzle",
        help="training puzzles from the solved game",
        description="Print positions of nine men's morris (all pieces placed) that White, to "
        "move, wins in N turns against any defence, drawn from the solved game (build it with "
        "`morris tables build --men K`). Play one with `morris sim --puzzle N`.",
    )
    parser.add_argument(
        "--wins-in", type=int, default=3, metavar="N", help="White's turns to the win (default 3)"
    )
    parser.add_argument(
        "--men",
        type=int,
        default=None,
        metavar="K",
        help="at most K pieces a side (3..9; default: every sector built)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="S",
        help="the seed: the same seed gives the same puzzles (default 0)",
    )
    parser.add_argument(
        "--count", type=int, default=1, metavar="C", help="how many puzzles (default 1)"
    )
    parser.add_argument("--answers", action="store_true", help="print the winning first turns too")
    parser.add_argument("--json", action="store_true", help="one JSON object a line")
    parser.add_argument(
        "--solution",
        "--dir",
        dest="dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="solution directory (default: solution in the tables' data directory)",
    )
    parser.set_defaults(run=run_puzzle)


def _problem(args: argparse.Namespace) -> str | None:
    from morris.engine.solution.sectors import MAX_MEN, MIN_MEN

    if args.wins_in < 1:
        return f"--wins-in must be 1 or more, not {args.wins_in}"
    if args.count < 1:
        return f"--count must be 1 or more, not {args.count}"
    if args.men is not None and not MIN_MEN <= args.men <= MAX_MEN:
        return f"--men must be {MIN_MEN}..{MAX_MEN}, not {args.men}"
    return None


def run_puzzle(args: argparse.Namespace) -> int:
    """Print the puzzles; see the module docstring for the exit codes."""
    from morris.app.training import BUILD_HINT
    from morris.commands.solution import solution_dir
    from morris.engine.solution import Solution, SolutionError
    from morris.engine.solution.puzzles import PuzzleError, generate_puzzles

    problem = _problem(args)
    if problem is not None:
        print(f"morris: {problem}", file=sys.stderr)
        return BAD_INPUT
    directory = solution_dir(args)
    if not any(directory.glob("sector-*.msol")):
        print(f"morris: no solved game in {directory}: {BUILD_HINT}", file=sys.stderr)
        return NO_SOLUTION
    try:
        solution = Solution.load(directory, check=False)
    except SolutionError as exc:
        print(f"morris: {exc}", file=sys.stderr)
        return NO_SOLUTION
    try:
        puzzles = generate_puzzles(
            solution, args.wins_in, seed=args.seed, count=args.count, men=args.men
        )
    except PuzzleError as exc:
        print(f"morris: {exc}", file=sys.stderr)
        return BAD_INPUT
    if not puzzles:
        print(
            f"morris: no puzzle wins in {args.wins_in} found for seed {args.seed}: "
            "try another seed",
            file=sys.stderr,
        )
        return NO_SOLUTION
    for number, puzzle in enumerate(puzzles, start=1):
        if args.json:
            print(json.dumps(puzzle.to_json()))
            continue
        line = f"{puzzle.position}  {puzzle.title}"
        if args.answers:
            line += f"  (answer: {' or '.join(puzzle.solutions)})"
        print(line if args.count == 1 else f"{number:>3}. {line}")
    if len(puzzles) < args.count:
        print(
            f"morris: {len(puzzles)} of {args.count} found (try another seed for more)",
            file=sys.stderr,
        )
    return 0
