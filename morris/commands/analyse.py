"""``morris analyse POSITION|startpos|RECORD [--men K]``: the solution's view of a position (every
legal turn with its value and distance) or of a game record (each turn's value before and after,
and the first turn that threw a result away)."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from morris.i18n import _, ngettext

if TYPE_CHECKING:
    from morris.core import Board, Move
    from morris.engine.result import Result
    from morris.engine.solution import Solution

logger = logging.getLogger(__name__)

#: Exit code of bad input (a position, a record, an option).
BAD_INPUT = 2


def register(subparsers: Any) -> None:
    """Add ``morris analyse``."""
    parser = subparsers.add_parser(
        "analyse",
        help=_("values of every turn from the solved game"),
        # TRANSLATORS: {command} is a command, typed as it is.
        description=_(
            "Analyse a position, the start position or a game record with the solved game of K "
            "men's morris (build it with {command})."
        ).format(command="`morris tables build --men K`"),
    )
    parser.add_argument(
        "target",
        metavar="POSITION|startpos|RECORD",
        # TRANSLATORS: startpos is typed as it is.
        help=_("a position string (7 fields, quoted), startpos, or a game record file"),
    )
    parser.add_argument(
        "--men",
        type=int,
        default=None,
        metavar="K",
        help=_("pieces a side (3..9; default: the most built in the directory)"),
    )
    parser.add_argument(
        "--solution",
        "--dir",
        dest="dir",
        type=Path,
        default=None,
        metavar="DIR",
        # TRANSLATORS: engine.solution is a configuration key, "solution" a directory's name.
        help=_(
            "solution directory (default: --config's engine.solution, else solution in the "
            "tables' data directory)"
        ),
    )
    from morris.commands.options import add_config_option

    add_config_option(parser)
    parser.set_defaults(run=run_analyse)


def _describe(result: Result | None) -> str:
    """A value for the side it is of: "win in 3", "loss in 2" (the winner's turns), "draw"."""
    from morris.app.values import winner_turns
    from morris.engine.result import Value

    if result is None:
        # TRANSLATORS: a value the solved game does not know (a position it does not cover).
        return _("unknown")
    if result.value is Value.DRAW:
        return _("draw")
    turns = winner_turns(result.distance or 0)
    if result.value is Value.WIN:
        # TRANSLATORS: the side to move wins in {n} of its own turns.
        return ngettext("win in {n}", "win in {n}", turns).format(n=turns)
    # TRANSLATORS: the side to move loses in {n} of the winner's turns.
    return ngettext("loss in {n}", "loss in {n}", turns).format(n=turns)


def units() -> str:
    """The last line of an analysis: what its numbers count."""
    return _(
        "win/loss in N: the winner's N turns to the end with perfect play (as puzzles count them)"
    )


def _removal(solution: Solution, board: Board, move: Move | None) -> str:
    """In the moving phase, where the removal distances are built: the turns to the next removal
    (for the side that plays ``move``, it counted; or from the position) and what the no-removal
    rule makes of the value from a count of 0; while placing, where the values under the rule
    are built, whether the rule draws a win or a loss of the solution."""
    from morris.engine.result import Value
    from morris.engine.solution.analyse import sector_of

    if move is not None and move.remove is not None and board.pieces_in_hand(board.turn) == 0:
        return "  " + removal_in(1)
    if move is not None:
        board.push(move)
    try:
        if board.outcome() is not None:
            return ""
        key, mover, other = sector_of(board)
        if key.placing:
            rule = solution.placing_rule_value(key, mover, other)
            solved = solution.probe_key(key, mover, other)
            limit = solution.removal_limit  # known where the values under the rule are
            drawn = rule is Value.DRAW and solved is not None and solved.value is not Value.DRAW
            if drawn and limit is not None:
                return "  " + rule_draws(limit)
            return ""
        found = solution.removal_result(key, mover, other)
    finally:
        if move is not None:
            board.pop()
    if found is None or found.value is Value.DRAW:
        return ""
    distance = (found.distance or 0) + (move is not None)
    limit = solution.removal_limit
    if limit is not None and (found.distance or 0) > limit:
        return f"  {removal_in(distance)}: {rule_draws(limit)}"
    return "  " + removal_in(distance)


def removal_in(plies: int) -> str:
    """How far the next removal is, in plies: "removal in 9 plies"."""
    # TRANSLATORS: the next removal (after a mill) comes {n} plies (single moves of either
    # side) from now.
    return ngettext("removal in {n} ply", "removal in {n} plies", plies).format(n=plies)


def rule_draws(limit: int) -> str:
    """The no-removal rule (``limit`` turns) draws the value: "the 100-turn rule draws it"."""
    # TRANSLATORS: the no-removal rule: {limit} turns without a removal draw the game.
    return _("the {limit}-turn rule draws it").format(limit=limit)


def built_men(directory: Path) -> int | None:
    """The most men whose sectors are all in ``directory`` (None: none)."""
    from morris.engine.solution.sectors import MAX_MEN, MIN_MEN, sector_keys

    for men in range(MAX_MEN, MIN_MEN - 1, -1):
        if all((directory / k.filename).exists() for k in sector_keys(men)):
            return men
    return None


def run_analyse(args: argparse.Namespace) -> int:
    """Print the analysis; 2 for bad input, 1 when the solution is missing or damaged."""
    from rich.console import Console

    from morris.commands.solution import men_range_text, missing_solution, solution_dir
    from morris.commands.tables import colour_word, say_error
    from morris.engine.result import first_threw_away
    from morris.engine.solution import Solution, SolutionError
    from morris.engine.solution.analyse import analyse_game, read_target, turn_values, value_of
    from morris.engine.solution.sectors import MAX_MEN, MIN_MEN

    console = Console(highlight=False, soft_wrap=True)
    directory = solution_dir(args)
    men = args.men
    if men is not None and not MIN_MEN <= men <= MAX_MEN:
        say_error(console, men_range_text(men))
        return BAD_INPUT
    fields = args.target.split()
    if len(fields) == 1 and fields[0] != "startpos" and not Path(fields[0]).exists():
        # TRANSLATORS: startpos is typed as it is.
        say_error(
            console,
            _("{path}: no such file (give a game record file, startpos or a position)").format(
                path=fields[0]
            ),
        )
        return BAD_INPUT
    missing = missing_solution(directory, men)
    if missing is not None:
        say_error(console, missing)
        return 1
    if men is None:
        men = built_men(directory)
        if men is None:
            say_error(
                console,
                _("no whole solved game in {path}: build one with {command}").format(
                    path=directory, command=f"`morris tables build --men K --dir {directory}`"
                ),
            )
            return 1
    try:
        board, moves = read_target(args.target, men)
    except SolutionError as exc:
        say_error(console, str(exc.message))
        return BAD_INPUT
    try:
        # No whole-file SHA-256 (gigabytes for 9 men's): every block read is checked by its
        # CRC-32, as when the engine plays; `morris tables verify` checks the files whole.
        solution = Solution.load(directory, men, check=False)
    except SolutionError as exc:
        say_error(console, str(exc.message))
        return 1
    try:
        if moves is None:
            console.print(
                _("{men} men's morris: {position}").format(men=men, position=board.position()),
                markup=False,
            )
            here = _removal(solution, board, None)
            value = _describe(value_of(solution, board)) + here
            to_move = _("white to move: {value}") if board.turn else _("black to move: {value}")
            console.print(to_move.format(value=value), markup=False)
            for move, result in turn_values(solution, board):
                after = _removal(solution, board, move)
                console.print(f"  {move!s:<10} {_describe(result):<12}{after}", markup=False)
            console.print(units(), markup=False)
            return 0
        turns = analyse_game(solution, board, moves)  # its turns are legal (read_game)
    except SolutionError as exc:  # a damaged block, refused by its CRC-32 as it was read
        say_error(console, str(exc.message))  # the file's path in one piece
        return 1
    width = max(len(colour_word("white")), len(colour_word("black")))
    for turn in turns:
        mark = ""
        if turn.threw_away:
            # TRANSLATORS: marks the turn of a game that threw its result away.
            mark = "  " + _("<- threw a result away")
        values = _("before {before} after {after}").format(
            before=f"{_describe(turn.before):<12}", after=_describe(turn.after)
        )
        console.print(
            f"{turn.ply:>4}. {colour_word(turn.colour):<{width}} {turn.move!s:<10} {values}{mark}",
            markup=False,
        )
    first = first_threw_away(turns)
    if first is None:
        console.print(_("No turn threw a result away."), markup=False)
    else:
        # TRANSLATORS: {ply} is the turn's number, {colour} its player ("white"), then the
        # value before and after the turn.
        text = _(
            "First turn that threw a result away: {ply}. {colour} {move} ({before} -> {after})"
        )
        console.print(
            text.format(
                ply=first.ply,
                colour=colour_word(first.colour),
                move=first.move,
                before=_describe(first.before),
                after=_describe(first.after),
            ),
            markup=False,
        )
    console.print(units(), markup=False)
    return 0
