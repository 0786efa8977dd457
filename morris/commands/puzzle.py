"""``morris puzzle [--men K] [--wins-in N] [--seed S] [--count C]``: puzzles drawn from
the solved game, printed (``morris sim --puzzle N`` plays one on the simulated board).

Exit codes: 0 printed; 1 no solved game built (or none found for the seed); 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from typing import Any

from morris.commands.words import either, error
from morris.i18n import _, ngettext

logger = logging.getLogger(__name__)

#: Exit code of bad input (an option, a length no loaded sector holds).
BAD_INPUT = 2
#: Exit code when no solved game is there to draw puzzles from.
NO_SOLUTION = 1


def register(subparsers: Any) -> None:
    """Add ``morris puzzle``."""
    parser = subparsers.add_parser(
        "puzzle",
        help=_("training puzzles from the solved game"),
        description=_(
            "Print positions of nine men's morris (all pieces placed) that White, to "
            "move, wins in N turns against any defence, drawn from the solved game (build it "
            "with `morris tables build --men K`). Play one with `morris sim --puzzle N`."
        ),
    )
    parser.add_argument(
        "--wins-in",
        type=int,
        default=3,
        metavar="N",
        help=_("White's turns to the win (default 3)"),
    )
    parser.add_argument(
        "--men",
        type=int,
        default=None,
        metavar="K",
        help=_("at most K pieces a side (3..9; default: every sector built)"),
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="S",
        help=_("the seed: the same seed gives the same puzzles (default 0)"),
    )
    parser.add_argument(
        "--count", type=int, default=1, metavar="C", help=_("how many puzzles (default 1)")
    )
    parser.add_argument(
        "--answers", action="store_true", help=_("print the winning first turns too")
    )
    parser.add_argument(
        "--json", action="store_true", help=_("one JSON object a line (its fields in English)")
    )
    parser.add_argument(
        "--solution",
        "--dir",
        dest="dir",
        type=Path,
        default=None,
        metavar="DIR",
        help=_("solution directory (default: solution in the tables' data directory)"),
    )
    parser.set_defaults(run=run_puzzle)


def _problem(args: argparse.Namespace) -> str | None:
    from morris.engine.solution.sectors import MAX_MEN, MIN_MEN

    if args.wins_in < 1:
        return _("{option} must be 1 or more, not {value}").format(
            option="--wins-in", value=args.wins_in
        )
    if args.count < 1:
        return _("{option} must be 1 or more, not {value}").format(
            option="--count", value=args.count
        )
    if args.men is not None and not MIN_MEN <= args.men <= MAX_MEN:
        return _("--men must be {low}..{high}, not {value}").format(
            low=MIN_MEN, high=MAX_MEN, value=args.men
        )
    return None


def _build_hint() -> str:
    """:data:`morris.app.puzzle.BUILD_HINT` in the board's language (the same English)."""
    return _(
        "puzzles need the solved game: build it with `morris tables build --men K` (K = 3 .. 9), "
        "or give --solution DIR where `morris tables build --men K --dir DIR` built it (the "
        "configuration's [engine] solution)"
    )


def run_puzzle(args: argparse.Namespace) -> int:
    """Print the puzzles; see the module docstring for the exit codes."""
    from morris.commands.solution import solution_dir
    from morris.engine.solution import Solution, SolutionError
    from morris.engine.solution.puzzles import PuzzleError, generate_puzzles

    problem = _problem(args)
    if problem is not None:
        error(problem)
        return BAD_INPUT
    directory = solution_dir(args)
    if not any(directory.glob("sector-*.msol")):
        error(_("no solved game in {path}: {hint}").format(path=directory, hint=_build_hint()))
        return NO_SOLUTION
    try:
        solution = Solution.load(directory, check=False)
    except SolutionError as exc:
        error(str(exc.message))
        return NO_SOLUTION
    try:
        puzzles = generate_puzzles(
            solution, args.wins_in, seed=args.seed, count=args.count, men=args.men
        )
    except PuzzleError as exc:
        error(str(exc.message))
        return BAD_INPUT
    if not puzzles:
        n = args.wins_in
        error(
            ngettext(
                "no puzzle that wins in {n} turn found for seed {seed}: try another seed",
                "no puzzle that wins in {n} turns found for seed {seed}: try another seed",
                n,
            ).format(n=n, seed=args.seed)
        )
        return NO_SOLUTION
    for number, puzzle in enumerate(puzzles, start=1):
        if args.json:
            print(json.dumps(puzzle.to_json()))
            continue
        n = puzzle.wins_in
        # The same words as the simulator's puzzle (morris.app.puzzle).
        title = ngettext("white to move wins in {n}", "white to move wins in {n}", n).format(n=n)
        line = f"{puzzle.position}  {title}"
        if args.answers:
            answer = _("(answer: {turns})").format(turns=either(list(puzzle.solutions)))
            line += f"  {answer}"
        print(line if args.count == 1 else f"{number:>3}. {line}")
    if len(puzzles) < args.count:
        error(
            ngettext(
                "{found} of {n} puzzle found (try another seed for more)",
                "{found} of {n} puzzles found (try another seed for more)",
                args.count,
            ).format(found=len(puzzles), n=args.count)
        )
    return 0
