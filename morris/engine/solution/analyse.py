"""Analysis with the solution: every legal turn of a position with its value, and a game record
turn by turn with the value before and after each turn and the first turn that threw a result
away. Turns are generated and played by the rules core (:class:`~morris.core.board.Board`), so
the analysis also cross-checks the solver's own array rules."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from morris.core.board import WHITE, Board
from morris.core.moves import Move
from morris.core.record import GameRecordError, read_game
from morris.core.rules import STANDARD
from morris.engine.errors import SolutionError, reason_of
from morris.engine.result import Result, Value, threw_away
from morris.engine.solution.probe import Solution
from morris.engine.solution.sectors import SectorKey, check_men
from morris.i18n import msg

#: The win of a turn that ends the game (the other side is left with two or is blocked).
_ENDS_GAME = Result(Value.WIN, 1)


@cache
def board_class(men: int) -> type[Board]:
    """The board of ``men`` men's morris: the standard board and rules with ``men`` pieces."""
    check_men(men)
    rules = dataclasses.replace(
        STANDARD, name=f"{men}-men", title=f"{men} men's morris", aliases=(), pieces_per_side=men
    )
    if men == STANDARD.pieces_per_side:
        return Board
    return type(f"Morris{men}", (Board,), {"variant": rules, "__module__": __name__})


def new_board(men: int, position: str | None = None) -> Board:
    """A board of ``men`` men without draw rules (the solution has none), from ``position``."""
    return board_class(men)(position, threefold_repetition=False, no_removal_limit=None)


def sector_of(board: Board) -> tuple[SectorKey, int, int]:
    """(sector key, mover's pieces, other side's pieces) of the position on ``board``."""
    mover, other = board.turn, not board.turn
    key = SectorKey(
        board.pieces_on_board(mover),
        board.pieces_on_board(other),
        board.pieces_in_hand(mover),
        board.pieces_in_hand(other),
    )
    return key, board.occupied_co(mover), board.occupied_co(other)


def position_text(key: SectorKey, mover: int, other: int) -> str:
    """The position text of the entry (``mover``, ``other``) of sector ``key`` (white to move in
    a moving-phase sector)."""
    white_to_move = key.white_to_move is not False
    white, black = (mover, other) if white_to_move else (other, mover)
    hands = (key.mover_hand, key.other_hand) if white_to_move else (key.other_hand, key.mover_hand)
    cells = []
    for p in range(24):
        cells.append("W" if white >> p & 1 else "B" if black >> p & 1 else ".")
        if p in (7, 15):
            cells.append("/")
    return f"{''.join(cells)} {'w' if white_to_move else 'b'} {hands[0]} {hands[1]} 0 1 -"


def value_of(solution: Solution, board: Board) -> Result | None:
    """The value of the position on ``board`` for the side to move (None: not covered)."""
    outcome = board.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return Result(Value.DRAW, 0)
        return Result(Value.WIN if outcome.winner == board.turn else Value.LOSS, 0)
    key, mover, other = sector_of(board)
    return solution.probe_key(key, mover, other)


def value_after(solution: Solution, board: Board) -> Result | None:
    """The value for the side that played the last turn on ``board`` (None: not covered)."""
    outcome = board.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return Result(Value.DRAW, 0)
        return _ENDS_GAME if outcome.winner != board.turn else Result(Value.LOSS, 0)
    key, mover, other = sector_of(board)
    result = solution.probe_key(key, mover, other)
    return None if result is None else result.for_last_mover()


def turn_values(solution: Solution, board: Board) -> list[tuple[Move, Result | None]]:
    """Every legal turn with its value for the side that plays it, best first."""
    out: list[tuple[Move, Result | None]] = []
    for move in list(board.legal_moves):
        board.push(move)
        try:
            out.append((move, value_after(solution, board)))
        finally:
            board.pop()
    out.sort(key=lambda t: (0, *t[1].rank()) if t[1] else (-1, 0, 0), reverse=True)
    return out


@dataclass(frozen=True)
class GameTurn:
    """One turn of an analysed game: the mover's value before and after it."""

    ply: int
    colour: str
    move: Move
    before: Result | None
    after: Result | None

    @property
    def threw_away(self) -> bool:
        """Whether the turn made the mover's value worse (a win or a draw given away:
        :func:`~morris.engine.result.threw_away`)."""
        return threw_away(self.before, self.after)


def analyse_game(solution: Solution, board: Board, moves: list[Move]) -> list[GameTurn]:
    """Each turn of ``moves`` played from ``board`` (which is left at the end of the game).

    Raises :class:`SolutionError` naming the turn if one is illegal.
    """
    out: list[GameTurn] = []
    for ply, move in enumerate(moves, start=1):
        reason = board.illegal_reason(move)
        if reason is not None:
            message = board.illegal_message(move)
            raise SolutionError(
                msg(
                    "turn {n} ({move}): {reason}",
                    n=ply,
                    move=str(move),
                    reason=reason if message is None else message,
                )
            )
        colour = "white" if board.turn == WHITE else "black"
        before = value_of(solution, board)
        board.push(move)
        out.append(GameTurn(ply, colour, move, before, value_after(solution, board)))
    return out


def read_target(text: str, men: int) -> tuple[Board, list[Move] | None]:
    """What ``morris analyse`` was given: ``startpos``, a position string, or a game record (a
    file, or its text). Returns the starting board and the record's turns (None for a position).

    Raises :class:`SolutionError` naming the problem for anything else.
    """
    if text.strip() == "startpos":
        return new_board(men), None
    fields = text.split()
    if len(fields) in (6, 7) and "/" in fields[0] and "[" not in text:
        try:
            return new_board(men, text.strip()), None
        except ValueError as exc:
            raise SolutionError(msg("position: {reason}", reason=reason_of(exc))) from None
    if "\n" not in text and "[" not in text:
        path = Path(text)
        if not path.is_file():
            raise SolutionError(
                msg(
                    "{text} is neither startpos, a position (7 fields) nor a game record file",
                    text=repr(text),
                )
            )
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SolutionError(
                msg("{path}: unreadable game record: {reason}", path=str(path), reason=str(exc))
            ) from None
    try:
        record = read_game(text)
    except GameRecordError as exc:
        raise SolutionError(msg("game record: {reason}", reason=reason_of(exc))) from None
    try:
        board = new_board(men, record.tags.get("Position"))
    except ValueError as exc:
        raise SolutionError(
            msg("game record: tag Position: {reason}", reason=reason_of(exc))
        ) from None
    return board, list(record.moves)


__all__ = [
    "GameTurn",
    "analyse_game",
    "board_class",
    "new_board",
    "position_text",
    "read_target",
    "sector_of",
    "turn_values",
    "value_of",
]
