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

from morris.commands.options import SWITCH_HELP
from morris.commands.words import error, rules_text, variants_help
from morris.core import (
    BLACK,
    STANDARD,
    VARIANTS,
    WHITE,
    Board,
    Color,
    GameRecord,
    GameRecordError,
    InvalidMoveError,
    Move,
    Phase,
    Termination,
    find_variant,
    parse_point,
    read_game,
    write_game,
)
from morris.i18n import N_, _, ngettext

__all__ = ["play_game", "register", "run", "unwritable"]

# TRANSLATORS: the help of morris play; the commands (undo, moves, help, quit) and the notation
# (d6, a1-a4, x) are typed as they are: keep them.
HELP = N_("""\
Turns: a placement is the point (d6); a slide or fly is from-to (a1-a4); when the turn closes
a mill, add the piece to remove with x (d6xg7, a1-a4xg7) or name it when asked; where a
double mill removes two, both (d6xg7xa1).
Commands: undo (take back the last turn), moves (list the legal turns), help, quit.""")

#: Why the game ended; the loser's colour is in the text (a twin for each colour).
ENDINGS: dict[Termination, tuple[str, str]] = {
    Termination.BLOCKED: (N_("white cannot move"), N_("black cannot move")),
    Termination.TOO_FEW_PIECES: (
        N_("white is down to two pieces"),
        N_("black is down to two pieces"),
    ),
    Termination.THREEFOLD_REPETITION: (N_("the same position occurred three times"),) * 2,
    Termination.NO_REMOVAL: (N_("{limit} moving turns without a removal"),) * 2,
    Termination.FULL_BOARD: (N_("the board is full"),) * 2,
}


def register(subparsers: Any) -> None:
    """Add ``morris play`` to the ``morris`` parser."""
    parser = subparsers.add_parser(
        "play",
        help=_("play a game between two people at the terminal"),
        description=_("Two people play at the terminal; the rules core referees every turn."),
        epilog=_(HELP),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--flying",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=_(
            "a player with three pieces left may fly (default: the variant's rule: on, but off "
            "in six men's morris)"
        ),
    )
    for name, text in SWITCH_HELP.items():
        parser.add_argument(
            f"--{name}",
            action=_Switch,
            default=False,
            help=_("{what} (default: off)").format(what=_(text)),
        )
    parser.add_argument(
        "--variant",
        default=STANDARD.name,
        choices=sorted(VARIANTS),
        help=_("the game to play: {variants} (default: %(default)s)").format(
            variants=variants_help()
        ),
    )
    parser.add_argument("--save", type=Path, metavar="PATH", help=_("write the game record here"))
    parser.add_argument(
        "--load",
        type=Path,
        metavar="RECORD",
        help=_(
            "replay this game record and play on from its end (its tags set the variant and "
            "flying; the format is in docs/RULES.md, 'Game records')"
        ),
    )
    parser.add_argument("--white", default="White", help=_("white player's name for the record"))
    parser.add_argument("--black", default="Black", help=_("black player's name for the record"))
    parser.set_defaults(run=run)


class _Switch(argparse.BooleanOptionalAction):
    """``--NAME``/``--no-NAME`` whose help is given whole: argparse's own adds an English
    "(default: ...)" the catalogs cannot reach."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = kwargs.get("help")


def run(args: argparse.Namespace) -> int:
    """Play at the terminal with the options of ``args``; return the exit code."""
    if args.save is not None:
        problem = unwritable(args.save)
        if problem is not None:
            # Checked before the game: finding out after the last turn would lose the game.
            error(
                _("cannot save to {path}: {reason}").format(path=args.save, reason=problem),
                command="morris play",
            )
            return 2
    tags = {"White": args.white, "Black": args.black}
    if args.load is not None:
        try:
            record = read_game(args.load.read_text(encoding="utf-8"))
        except OSError as exc:
            error(
                _("cannot read {path}: {reason}").format(
                    path=args.load, reason=exc.strerror or exc
                ),
                command="morris play",
            )
            return 2
        except (UnicodeDecodeError, GameRecordError) as exc:
            error(f"{args.load}: {exc}", command="morris play")
            return 2
        board = record.board()
        tags = {name: record.tags[name] for name in ("White", "Black") if name in record.tags}
        print(_("Loaded {path}: {turns}").format(path=args.load, turns=_replay_text(record)))
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

    say(
        # TRANSLATORS: help and quit are typed as they are.
        _("{title}. Type 'help' for the notation, 'quit' to stop.").format(
            title=rules_text(board.rules)
        )
    )
    try:
        code = _referee(board, say, ask)
    except KeyboardInterrupt:
        say()
        say(_("Game interrupted."))
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
            say(_describe_ending(board))
            break
        if show:
            say()
            say(str(board))
            say(_status(board))
            show = False
        text = ask(f"{_colour(board.turn)}> ")
        if text is None:
            say()
            say(_("Input ended before the game did."))
            code = 1
            break
        command = text.lower()
        if not command:
            continue
        if command in ("quit", "exit"):
            say(_("Game stopped."))
            break
        if command in ("help", "?"):
            say(_(HELP))
            continue
        if command == "undo":
            if board.move_stack:
                say(_("Took back {move}.").format(move=board.pop()))
                show = True
            else:
                say(_("There is no turn to take back."))
            continue
        if command == "moves":
            turns = " ".join(str(m) for m in board.legal_moves)
            say(_("Legal turns: {turns}").format(turns=turns))
            continue
        move = _read_turn(board, text, ask, say)
        if move is not None:
            board.push(move)
            show = True
    return code


def unwritable(path: Path) -> str | None:
    """Why a game record cannot be written to ``path`` (in the board's language), or None when
    it can (as far as we know)."""
    if path.is_dir():
        return _("it is a directory")
    parent = path.parent
    if not parent.is_dir():
        return _("the directory {path} does not exist").format(path=parent)
    if path.exists() and not os.access(path, os.W_OK):
        return _("the file is not writable")
    if not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
        return _("the directory {path} is not writable").format(path=parent)
    return None


def _save(board: Board, save: Path, tags: dict[str, str], say: Any) -> bool:
    """Write the game record to ``save``; if that fails, print it, so the game is never lost."""
    record_tags = {"Event": "morris play", "Date": date.today().strftime("%Y.%m.%d")}
    record_tags.update(tags)
    text = write_game(GameRecord.from_board(board, **record_tags))
    try:
        save.write_text(text, encoding="utf-8")
    except OSError as exc:
        say(
            _("Could not save the game to {path}: {reason}. Its record follows:").format(
                path=save, reason=exc.strerror or exc
            )
        )
        say()
        say(text.rstrip("\n"))
        return False
    say(_("Saved the game to {path}.").format(path=save))
    return True


def _read_turn(board: Board, text: str, ask: Any, say: Any) -> Move | None:
    """The legal turn ``text`` names (asking for a removal if needed), or None after saying why."""
    try:
        move = Move.parse(text)
    except InvalidMoveError as exc:
        # TRANSLATORS: {reason} says what is wrong with the text; help is typed as it is.
        say(_("Not a turn: {reason}. Type 'help' for the notation.").format(reason=exc.message))
        return None
    reason = board.illegal_message(move)
    if reason is None:
        return move
    closes_mill = move.remove is None and any(
        m.from_point == move.from_point and m.to_point == move.to_point for m in board.legal_moves
    )
    if not closes_mill:
        say(_("Illegal: {reason}.").format(reason=reason))
        return None
    due = board.removals_due(move)
    if due == 2 and board.turn == BLACK:
        question = _("{move} closes two mills. Remove which two white pieces? ")
    elif due == 2:
        question = _("{move} closes two mills. Remove which two black pieces? ")
    elif board.turn == BLACK:
        question = _("{move} closes a mill. Remove which white piece? ")
    else:
        question = _("{move} closes a mill. Remove which black piece? ")
    while True:
        answer = ask(question.format(move=move))
        if answer is None or answer.lower() in ("", "cancel", "undo", "quit"):
            say(_("{move} not played.").format(move=move))
            return None
        names = [t.removeprefix("x") for t in answer.lower().split()]
        wrong = [name for name in names if not _is_point(name)]
        if wrong:
            say(
                _("'{name}' is not a point: points are a1 .. g7, as at the edges").format(
                    name=wrong[0]
                )
            )
            continue
        points = [parse_point(name) for name in names]
        if len(points) != due:
            named = len(points)
            say(
                (
                    _("Name two pieces, not {n}.") if due == 2 else _("Name one piece, not {n}.")
                ).format(n=named)
            )
            continue
        try:
            candidate = Move(move.from_point, move.to_point, *points)
        except InvalidMoveError as exc:
            say(f"{exc.message}.")
            continue
        reason = board.illegal_message(candidate)
        if reason is None:
            return candidate
        say(_("Cannot remove {points}: {reason}.").format(points=answer, reason=reason))


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
    if not tokens:
        return _("no turns ({result})").format(result=record.result)
    n = len(record.moves)
    return ngettext("{turns} ({result}, {n} turn)", "{turns} ({result}, {n} turns)", n).format(
        turns=" ".join(tokens), result=record.result, n=n
    )


def _colour(color: Color) -> str:
    from morris.app.narration import colour

    return colour(color).render()


#: What the side to move does, by colour: (placing, flying, moving).
_TO_DO: dict[Color, tuple[str, str, str]] = {
    WHITE: (
        N_("Turn {number}: white to place a piece."),
        N_("Turn {number}: white to fly a piece."),
        N_("Turn {number}: white to move a piece."),
    ),
    BLACK: (
        N_("Turn {number}: black to place a piece."),
        N_("Turn {number}: black to fly a piece."),
        N_("Turn {number}: black to move a piece."),
    ),
}


def _status(board: Board) -> str:
    placing, flying, moving = _TO_DO[board.turn]
    if board.phase is Phase.PLACING:
        doing = placing
    elif board.can_fly(board.turn):
        doing = flying
    else:
        doing = moving
    parts = [_("Last turn: {move}.").format(move=board.peek())] if board.move_stack else []
    parts += [
        _(doing).format(number=board.fullmove_number),
        _("In hand: white {white}, black {black}.").format(
            white=board.pieces_in_hand(True), black=board.pieces_in_hand(False)
        ),
        _("On the board: white {white}, black {black}.").format(
            white=board.pieces_on_board(True), black=board.pieces_on_board(False)
        ),
    ]
    return " ".join(parts)


def _describe_ending(board: Board) -> str:
    """``Game over: white wins, black cannot move. Result 1-0.``, in the board's language."""
    outcome = board.outcome()
    assert outcome is not None
    texts = ENDINGS[outcome.termination]
    # The loser's twin: the text names the side that lost (either, in a draw).
    loser = BLACK if outcome.winner == WHITE else WHITE
    why = _(texts[0] if loser == WHITE else texts[1]).format(limit=board.no_removal_limit)
    result = outcome.result()
    if outcome.winner is None:
        return _("Game over: a draw, {why}. Result {result}.").format(why=why, result=result)
    if outcome.winner == WHITE:
        return _("Game over: white wins, {why}. Result {result}.").format(why=why, result=result)
    return _("Game over: black wins, {why}. Result {result}.").format(why=why, result=result)


def _is_point(name: str) -> bool:
    """Whether ``name`` is a point of the board (``a1`` .. ``g7``)."""
    try:
        parse_point(name)
    except ValueError:
        return False
    return True
