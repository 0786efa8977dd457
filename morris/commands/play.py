"""``morris play``: a game between two people at the terminal, refereed by the rules core.

Each turn shows the board, whose turn it is and the pieces in hand, then reads the turn in the
notation of docs/RULES.md (``d6``, ``a1-a4``, ``d6xg7``). A turn that closes a mill without naming a
removal is followed by a prompt for the piece (or, for a double mill that removes two, the two
pieces) to remove. ``undo`` takes back the last turn,
``moves`` lists the legal turns, ``help`` explains the notation and ``quit`` ends the game.
Illegal input is refused with the reason and the game goes on. With ``--save PATH`` the game is
written as a game record when it ends. ``--load RECORD`` replays a game record (a finished game
the daemon kept, say) through the rules, shows its turns and the position they lead to, and play
goes on from there (``undo`` steps back through the record).

This interim command will be superseded by the simulator (``morris sim``) as the main way to
play on a screen.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import date
from pathlib import Path
from typing import Any, TextIO

from morris.commands.run import SWITCH_HELP
from morris.core import (
    COLOR_NAMES,
    STANDARD,
    VARIANTS,
    WHITE,
    Board,
    GameRecord,
    GameRecordError,
    InvalidMoveError,
    Move,
    Phase,
    Termination,
    describe_rules,
    describe_variants,
    find_variant,
    parse_point,
    read_game,
    write_game,
)

__all__ = ["play_game", "register", "run", "unwritable"]

HELP = """\
Turns: a placement is the point (d6); a slide or fly is from-to (a1-a4); when the turn closes
a mill, add the piece to remove with x (d6xg7, a1-a4xg7) or name it when asked; where a
double mill removes two, both (d6xg7xa1).
Commands: undo (take back the last turn), moves (list the legal turns), help, quit."""

ENDINGS = {
    Termination.BLOCKED: "{loser} cannot move",
    Termination.TOO_FEW_PIECES: "{loser} is down to two pieces",
    Termination.THREEFOLD_REPETITION: "the same position occurred three times",
    Termination.NO_REMOVAL: "{limit} moving turns without a removal",
    Termination.FULL_BOARD: "the board is full",
}


def register(subparsers: Any) -> None:
    """Add ``morris play`` to the ``morris`` parser."""
    parser = subparsers.add_parser(
        "play",
        help="play a game between two people at the terminal",
        description="Two people play at the terminal; the rules core referees every turn.",
        epilog=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--flying",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a player with three pieces left may fly (default: the variant's rule: on, but off "
        "in six men's morris)",
    )
    for name, text in SWITCH_HELP.items():
        parser.add_argument(
            f"--{name}", action=argparse.BooleanOptionalAction, default=False, help=text
        )
    parser.add_argument(
        "--variant",
        default=STANDARD.name,
        choices=sorted(VARIANTS),
        help=f"the game to play: {describe_variants()} (default: %(default)s)",
    )
    parser.add_argument("--save", type=Path, metavar="PATH", help="write the game record here")
    parser.add_argument(
        "--load",
        type=Path,
        metavar="RECORD",
        help="replay this game record and play on from its end (its tags set the variant and "
        "flying; the format is in docs/RULES.md, 'Game records')",
    )
    parser.add_argument("--white", default="White", help="white player's name for the record")
    parser.add_argument("--black", default="Black", help="black player's name for the record")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play at the terminal with the options of ``args``; return the exit code."""
    if args.save is not None:
        problem = unwritable(args.save)
        if problem is not None:
            # Checked before the game: finding out after the last turn would lose the game.
            print(f"morris play: cannot save to {args.save}: {problem}", file=sys.stderr)
            return 2
    tags = {"White": args.white, "Black": args.black}
    if args.load is not None:
        try:
            record = read_game(args.load.read_text(encoding="utf-8"))
        except OSError as exc:
            print(f"morris play: cannot read {args.load}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        except (UnicodeDecodeError, GameRecordError) as exc:
            print(f"morris play: {args.load}: {exc}", file=sys.stderr)
            return 2
        board = record.board()
        tags = {name: record.tags[name] for name in ("White", "Black") if name in record.tags}
        print(f"Loaded {args.load}: {_replay_text(record)}")
    else:
        board = find_variant(args.variant)(
            flying=args.flying,
            remove_from_mills=args.remove_from_mills,
            double_mill_removes_two=args.double_mill_removes_two,
        )
    return play_game(
        board,
        sys.stdin,
        sys.stdout,
        save=args.save,
        tags=tags,
    )


def play_game(
    board: Board,
    input: TextIO,
    output: TextIO,
    *,
    save: Path | None = None,
    tags: dict[str, str] | None = None,
) -> int:
    """Referee a game on ``board``, reading turns from ``input`` and writing to ``output``.

    Returns 0 when the game ends or a player quits, 1 when the input ends first, 130 after
    Ctrl-C. With ``save``, the game (finished or not) is written there as a game record; if
    that fails, the record is printed instead and the code is 2, so the game is never lost
    (``morris play`` also refuses an unwritable path before the game starts).
    """

    def say(text: str = "") -> None:
        output.write(text + "\n")
        output.flush()

    def ask(prompt: str) -> str | None:
        output.write(prompt)
        output.flush()
        line = input.readline()
        if not line:
            return None
        return line.strip()

    say(f"{_title(board)}. Type 'help' for the notation, 'quit' to stop.")
    try:
        code = _referee(board, say, ask)
    except KeyboardInterrupt:
        say()
        say("Game interrupted.")
        code = 130
    if save is not None and not _save(board, save, tags or {}, say):
        code = 2
    return code


def _referee(board: Board, say: Any, ask: Any) -> int:
    """Play turns until the game ends (0), a player quits (0) or the input ends (1)."""
    code = 0
    show = True  # the board is shown again after a turn is played or taken back
    while True:
        outcome = board.outcome()
        if outcome is not None:
            say()
            say(str(board))
            say(f"Game over: {_describe_ending(board)}. Result {outcome.result()}.")
            break
        if show:
            say()
            say(str(board))
            say(_status(board))
            show = False
        side = COLOR_NAMES[board.turn]
        text = ask(f"{side}> ")
        if text is None:
            say()
            say("Input ended before the game did.")
            code = 1
            break
        command = text.lower()
        if not command:
            continue
        if command in ("quit", "exit"):
            say("Game stopped.")
            break
        if command in ("help", "?"):
            say(HELP)
            continue
        if command == "undo":
            if board.move_stack:
                say(f"Took back {board.pop()}.")
                show = True
            else:
                say("There is no turn to take back.")
            continue
        if command == "moves":
            say("Legal turns: " + " ".join(str(m) for m in board.legal_moves))
            continue
        move = _read_turn(board, text, ask, say)
        if move is not None:
            board.push(move)
            show = True
    return code


def unwritable(path: Path) -> str | None:
    """Why a game record cannot be written to ``path``, or None when it can (as far as we know)."""
    if path.is_dir():
        return "it is a directory"
    parent = path.parent
    if not parent.is_dir():
        return f"the directory {parent} does not exist"
    if path.exists() and not os.access(path, os.W_OK):
        return "the file is not writable"
    if not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
        return f"the directory {parent} is not writable"
    return None


def _save(board: Board, save: Path, tags: dict[str, str], say: Any) -> bool:
    """Write the game record to ``save``; if that fails, print it, so the game is never lost."""
    record_tags = {"Event": "morris play", "Date": date.today().strftime("%Y.%m.%d")}
    record_tags.update(tags)
    text = write_game(GameRecord.from_board(board, **record_tags))
    try:
        save.write_text(text, encoding="utf-8")
    except OSError as exc:
        say(f"Could not save the game to {save}: {exc.strerror or exc}. Its record follows:")
        say()
        say(text.rstrip("\n"))
        return False
    say(f"Saved the game to {save}.")
    return True


def _read_turn(board: Board, text: str, ask: Any, say: Any) -> Move | None:
    """The legal turn ``text`` names (asking for a removal if needed), or None after saying why."""
    try:
        move = Move.parse(text)
    except InvalidMoveError as exc:
        say(f"Not a turn: {exc}. Type 'help' for the notation.")
        return None
    reason = board.illegal_reason(move)
    if reason is None:
        return move
    closes_mill = move.remove is None and any(
        m.from_point == move.from_point and m.to_point == move.to_point for m in board.legal_moves
    )
    if not closes_mill:
        say(f"Illegal: {reason}.")
        return None
    opponent = COLOR_NAMES[not board.turn]
    due = board.removals_due(move)
    question = (
        f"{move} closes two mills. Remove which two {opponent} pieces? "
        if due == 2
        else f"{move} closes a mill. Remove which {opponent} piece? "
    )
    while True:
        answer = ask(question)
        if answer is None or answer.lower() in ("", "cancel", "undo", "quit"):
            say(f"{move} not played.")
            return None
        try:
            points = [parse_point(t.removeprefix("x")) for t in answer.lower().split()]
        except ValueError as exc:
            say(f"{exc}.")
            continue
        if len(points) != due:
            say(f"Name {'two pieces' if due == 2 else 'one piece'}, not {len(points)}.")
            continue
        try:
            candidate = Move(move.from_point, move.to_point, *points)
        except InvalidMoveError as exc:
            say(f"{exc}.")
            continue
        reason = board.illegal_reason(candidate)
        if reason is None:
            return candidate
        say(f"Cannot remove {answer}: {reason}.")


def _replay_text(record: GameRecord) -> str:
    """The record's turns, numbered from its start, and its result."""
    board = record.start_board()
    tokens = []
    for move in record.moves:
        number = board.fullmove_number
        if board.turn == WHITE:
            tokens.append(f"{number}. {move}")
        else:
            tokens.append(f"{number}... {move}" if not tokens else str(move))
        board.push(move)
    turns = " ".join(tokens) or "no turns"
    return f"{turns} ({record.result}, {len(record.moves)} turns)"


def _title(board: Board) -> str:
    return describe_rules(board.rules)


def _status(board: Board) -> str:
    side = COLOR_NAMES[board.turn]
    white_hand, black_hand = board.pieces_in_hand(True), board.pieces_in_hand(False)
    if board.phase is Phase.PLACING:
        doing = "place a piece"
    elif board.can_fly(board.turn):
        doing = "fly a piece"
    else:
        doing = "move a piece"
    last = f"Last turn: {board.peek()}. " if board.move_stack else ""
    return (
        f"{last}Turn {board.fullmove_number}: {side} to {doing}. "
        f"In hand: white {white_hand}, black {black_hand}. "
        f"On the board: white {board.pieces_on_board(True)}, black {board.pieces_on_board(False)}."
    )


def _describe_ending(board: Board) -> str:
    outcome = board.outcome()
    assert outcome is not None
    loser = COLOR_NAMES[not outcome.winner] if outcome.winner is not None else ""
    why = ENDINGS[outcome.termination].format(loser=loser, limit=board.no_removal_limit)
    if outcome.winner is None:
        return f"a draw, {why}"
    return f"{COLOR_NAMES[outcome.winner]} wins, {why}"
