"""The remote player, the opponent of mode ``remote``: its connection, and which of its turns
are taken and why the others are refused.

The controller shows a taken turn on the board exactly like the Pi's (the referee's expect path)
and commits it once the person carries it out; :func:`check_remote_move` only judges the text
against the game, so the web companion can answer 400 (no move, an illegal one) or 409 (not
now). :class:`RemoteConnection` is what the controller knows of the connection (a page or a paired
board, up or waiting, and why) and what the event line says when it changes.
"""

from __future__ import annotations

import logging

from morris.app.errors import InputError, NotNowError
from morris.app.mode import Mode
from morris.core import WHITE, Board, Color, InvalidMoveError, Move
from morris.i18n import Message, msg, plain

__all__ = ["RemoteConnection", "check_remote_move"]

logger = logging.getLogger(__name__)


class RemoteConnection:
    """The remote player's connection, as the page's or the paired board's companion reports it
    (:meth:`morris.app.controller.Controller.on_remote_connection`)."""

    def __init__(self) -> None:
        #: Whether the remote player is connected.
        self.is_up = False
        #: ``"page"`` or ``"board"``: what the remote player plays on.
        self.player = "page"
        #: Why the connection to the remote player is not up, in words ("connection refused to
        #: http://...", "both boards play white ..."), or ``None`` (up, or no word on why).
        self.reason: Message | None = None

    @property
    def state(self) -> str:
        """``"up"``, or ``"waiting"`` (also while a pairing is refused: :attr:`reason` says
        why)."""
        return "up" if self.is_up and self.reason is None else "waiting"

    def update(
        self,
        up: bool,
        *,
        player: str,
        note: Message | str | None,
        reason: Message | str | None,
        remote_mode: bool,
    ) -> Message | None:
        """Take the connection's news (the arguments of ``on_remote_connection``; ``remote_mode``:
        whether the game is in mode remote) and return the event line it makes, or ``None``.

        Once a board has reported, the remote player is that board: pages (the person's own
        phone) no longer count.
        """
        if player == "page" and self.player == "board":
            return None
        changed = up != self.is_up or player != self.player
        self.is_up = up
        self.player = player
        if isinstance(reason, str):
            reason = plain(reason)
        if reason != self.reason and reason is not None and note is None:
            note = reason
        self.reason = reason
        if note is not None:
            return note if isinstance(note, Message) else plain(note)
        if not (changed and remote_mode):
            return None
        if not up:
            return msg("waiting for the remote player")
        if player == "board":
            return msg("remote player connected (board)")
        return msg("remote player connected (page)")


def check_remote_move(
    text: object,
    *,
    mode: Mode,
    board: Board,
    remote: Color | None,
    waiting: Move | None,
    is_setting_up: bool = False,
) -> Move | None:
    """The remote turn ``text`` as a move to show, or ``None`` when it is the one ``waiting``
    already (sent again: taken once).

    Raises :class:`InputError` for text that is no move or an illegal one, and
    :class:`NotNowError` in another mode, after the game, out of turn, while a position is set up
    on the board, or while another remote turn waits to be carried out.

    >>> check_remote_move("d6", mode=Mode.REMOTE, board=Board(), remote=True, waiting=None)
    Move.parse('d6')
    """
    if not isinstance(text, str):
        raise InputError(msg("a move must be text, not {kind}", kind=type(text).__name__))
    try:
        move = Move.parse(text.strip())
    except InvalidMoveError as exc:
        raise InputError(msg("not a move: {problem}", problem=exc.message)) from None
    if mode is not Mode.REMOTE:
        raise NotNowError(
            msg("remote move {move}: the mode is {mode}, not remote", move=move, mode=mode.value)
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
    if is_setting_up:
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
