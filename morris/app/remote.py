"""The remote player's turns (mode ``remote``): which are taken, and why the others are refused.

The controller shows a taken turn on the board exactly like the Pi's (the referee's expect path)
and commits it once the person carries it out; this module only judges the text against the
game, so the web companion can answer 400 (no move, an illegal one) or 409 (not now).
"""

from __future__ import annotations

from morris.app.errors import InputError, NotNowError
from morris.core import WHITE, Board, Color, InvalidMoveError, Move
from morris.i18n import msg

__all__ = ["check_remote_move"]


def check_remote_move(
    text: object,
    *,
    mode: str,
    board: Board,
    remote: Color | None,
    waiting: Move | None,
    setting_up: bool = False,
) -> Move | None:
    """The remote turn ``text`` as a move to show, or ``None`` when it is the one ``waiting``
    already (sent again: taken once).

    Raises :class:`InputError` for text that is no move or an illegal one, and
    :class:`NotNowError` in another mode, after the game, out of turn, while a position is set up
    on the board, or while another remote turn waits to be carried out.

    >>> check_remote_move("d6", mode="remote", board=Board(), remote=True, waiting=None)
    Move.parse('d6')
    """
    if not isinstance(text, str):
        raise InputError(msg("a move must be text, not {kind}", kind=type(text).__name__))
    try:
        move = Move.parse(text.strip())
    except InvalidMoveError as exc:
        raise InputError(msg("not a move: {problem}", problem=exc.message)) from None
    if mode != "remote":
        raise NotNowError(
            msg("remote move {move}: the mode is {mode}, not remote", move=move, mode=mode)
        )
    outcome = board.outcome()
    if outcome is not None:
        raise NotNowError(
            msg(
                "remote move {move}: the game is over ({result})",
                move=move,
                result=outcome.result(),
            )
        )
    if setting_up:
        raise NotNowError(
            msg("remote move {move}: a position is being set up on the board", move=move)
        )
    if board.turn != remote:
        if board.turn == WHITE:
            turn = msg(
                "remote move {move}: it is white's turn at the board, not the remote player's",
                move=move,
            )
        else:
            turn = msg(
                "remote move {move}: it is black's turn at the board, not the remote player's",
                move=move,
            )
        raise NotNowError(turn)
    if waiting == move:
        return None
    if waiting is not None:
        raise NotNowError(
            msg(
                "remote move {move}: the remote turn {waiting} waits to be carried out",
                move=move,
                waiting=waiting,
            )
        )
    reason = board.illegal_message(move)
    if reason is not None:
        raise InputError(
            msg(
                "illegal remote move {move}: {reason}, in {position}",
                move=move,
                reason=reason,
                position=board.position(),
            )
        )
    return move
