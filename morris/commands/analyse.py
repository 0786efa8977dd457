"""``morris analyse POSITION|startpos|RECORD [--men K]``: the solution's view of a position (every
legal turn with its value and distance) or of a game record (each turn's value before and after,
and the first turn that threw a result away)."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

#: Exit code of bad input (a position, a record, an option).
BAD_INPUT = 2


def register(subparsers: Any) -> None:
    """Add ``morris analyse``."""
    parser = subparsers.add_parser(
        "analyse",
        help="values of every turn from the solved game",
        description="Analyse a position, the start position or a game record with the solved "
        "game of K men's morris (build it with `morris tables build --men K`).",
    )
    parser.add_argument(
        "target",
        metavar="POSITION|startpos|RECORD",
        help="a position string (7 fields, quoted), startpos, or a game record file",
    )
    parser.add_argument(
        "--men",
        type=int,
        default=None,
        metavar="K",
        help="pieces a side (3..9; default: the most built in the directory)",
    )
    parser.add_argument(
        "--solution",
        "--dir",
        dest="dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="solution directory (default: --config's engine.solution, else solution in the "
        "tables' data directory)",
    )
    from morris.commands.tables import add_config_option

    add_config_option(parser)
    parser.set_defaults(run=run_analyse)


def _describe(result: Any) -> str:
    """A value for the side it is of: "win in 3", "loss in 2" (the winner's turns), "draw"."""
    from morris.app.values import winner_turns

    if result is None:
        return "unknown"
    if result.value.value == "draw":
        return "draw"
    return f"{result.value.value} in {winner_turns(result.distance)}"


#: The last line of an analysis: what its numbers count.
UNITS = "win/loss in N: the winner's N turns to the end with perfect play (as puzzles count them)"


def _removal(solution: Any, board: Any, move: Any) -> str:
    """In the moving phase, where the removal distances are built: the turns to the next removal
    (for the side that plays ``move``, it counted; or from the position) and what the no-removal
    rule makes of the value from a count of 0; while placing, where the values under the rule
    are built, whether the rule draws a win or a loss of the solution."""
    from morris.engine.solution.analyse import sector_of

    if move is not None and move.remove is not None and board.pieces_in_hand(board.turn) == 0:
        return "  removal in 1 ply"
    if move is not None:
        board.push(move)
    try:
        if board.outcome() is not None:
            return ""
        key, mover, other = sector_of(board)
        if key.placing:
            rule = solution.placing_rule_value(key, mover, other)
            solved = solution.probe_key(key, mover, other)
            drawn = rule is not None and rule.value == "draw" and solved is not None
            if drawn and solved.value.value != "draw":
                return f"  the {solution.removal_limit}-turn rule draws it"
            return ""
        found = solution.removal_result(key, mover, other)
    finally:
        if move is not None:
            board.pop()
    if found is None or found.value.value == "draw":
        return ""
    distance = found.distance + (move is not None)
    limit = solution.removal_limit
    if found.distance > limit:
        return f"  removal in {distance} plies: the {limit}-turn rule draws it"
    return f"  removal in {distance} {'ply' if distance == 1 else 'plies'}"


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
    from rich.markup import escape

    from morris.commands.solution import missing_solution, solution_dir
    from morris.engine.solution import Solution, SolutionError
    from morris.engine.solution.analyse import analyse_game, read_target, turn_values, value_of
    from morris.engine.solution.sectors import MAX_MEN, MIN_MEN

    console = Console(highlight=False, soft_wrap=True)
    directory = solution_dir(args)
    men = args.men
    if men is not None and not MIN_MEN <= men <= MAX_MEN:
        console.print(f"[red]--men must be {MIN_MEN}..{MAX_MEN}, not {men}[/red]")
        return BAD_INPUT
    fields = args.target.split()
    if len(fields) == 1 and fields[0] != "startpos" and not Path(fields[0]).exists():
        console.print(
            f"[red]{fields[0]}: no such file (give a game record file, startpos or a position)"
            "[/red]"
        )
        return BAD_INPUT
    missing = missing_solution(directory, men)
    if missing is not None:
        console.print(f"[red]{escape(missing)}[/red]")
        return 1
    if men is None:
        men = built_men(directory)
        if men is None:
            console.print(
                f"[red]no whole solved game in {directory}: build one with "
                f"`morris tables build --men K --dir {directory}`[/red]"
            )
            return 1
    try:
        board, moves = read_target(args.target, men)
    except SolutionError as exc:
        console.print(f"[red]{exc}[/red]")
        return BAD_INPUT
    try:
        # No whole-file SHA-256 (gigabytes for 9 men's): every block read is checked by its
        # CRC-32, as when the engine plays; `morris tables verify` checks the files whole.
        solution = Solution.load(directory, men, check=False)
    except SolutionError as exc:
        console.print(f"[red]{exc}[/red]")
        return 1
    try:
        if moves is None:
            side = "white" if board.turn else "black"
            console.print(f"{men} men's morris: {board.position()}")
            here = _removal(solution, board, None)
            console.print(f"{side} to move: {_describe(value_of(solution, board))}{here}")
            for move, result in turn_values(solution, board):
                after = _removal(solution, board, move)
                console.print(f"  {move!s:<10} {_describe(result):<12}{after}", soft_wrap=True)
            console.print(UNITS)
            return 0
        turns = analyse_game(solution, board, moves)  # its turns are legal (read_game)
    except SolutionError as exc:  # a damaged block, refused by its CRC-32 as it was read
        console.print(f"[red]{exc}[/red]", soft_wrap=True)  # the file's path in one piece
        return 1
    first = None
    for turn in turns:
        mark = ""
        if turn.threw_away:
            mark = "  <- threw a result away"
            first = first or turn
        console.print(
            f"{turn.ply:>4}. {turn.colour:<5} {turn.move!s:<10} before {_describe(turn.before):<12}"
            f" after {_describe(turn.after)}{mark}",
            soft_wrap=True,
        )
    if first is None:
        console.print("No turn threw a result away.")
    else:
        console.print(
            f"First turn that threw a result away: {first.ply}. {first.colour} {first.move} "
            f"({_describe(first.before)} -> {_describe(first.after)})"
        )
    console.print(UNITS)
    return 0
