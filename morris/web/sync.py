"""Keeping two paired boards' games one: what the paired daemon does next, decided from both games.

Two daemons in mode ``remote`` play one game on two boards: each board's accepted turns become
the other's remote turns. After any change on either side, and after a reconnect, the paired
daemon compares its game with the other's (:func:`plan_sync`) and takes one step:

- ``same``: nothing to do;
- ``send``: a turn of this board's person the other board has not got yet: post it to the
  other's ``/api/remote/move`` (it is then shown on that board and counts once carried out);
- ``receive``: a turn of the other board's person this board has not got: it becomes this
  board's remote turn (:meth:`~morris.app.controller.Controller.remote_move`);
- ``diverged``: the games differ in a way no replay mends (another start, other turns, the same
  colour on both boards): refused with a clear event line, never overwritten.

A dropped pairing loses at most one turn (the one made while it was down: the other side can only
answer a turn it has heard of), so a gap of one turn is replayed; anything more is a divergence.
Pure: no I/O, no clock; the pairing (:mod:`morris.web.pairing`) does the talking.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from morris.app.mode import Mode
from morris.core import COLOR_NAMES, Board, Color, InvalidMoveError, Move

__all__ = ["GameState", "Step", "plan_sync"]


@dataclass(frozen=True)
class GameState:
    """What the other board's ``/api/state`` says of its game."""

    position: str
    moves: tuple[str, ...]
    #: The other board's :class:`~morris.app.mode.Mode` value (a newer board's other word too).
    mode: str
    remote_color: str | None

    @classmethod
    def from_json(cls, data: object) -> GameState:
        """Read the fields of a state JSON object; raises ``ValueError`` naming a bad field."""
        if not isinstance(data, Mapping):
            raise ValueError(f"the state is not a JSON object: {data!r:.80}")
        position, moves = data.get("position"), data.get("moves")
        mode, remote = data.get("mode"), data.get("remote_color")
        if not isinstance(position, str):
            raise ValueError(f"the state's position is not text: {position!r:.80}")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise ValueError(f"the state's moves are not a list of turns: {moves!r:.80}")
        if not isinstance(mode, str):
            raise ValueError(f"the state's mode is not text: {mode!r:.80}")
        if remote is not None and remote not in ("white", "black"):
            raise ValueError(f"the state's remote_color is not a colour: {remote!r:.80}")
        return cls(position, tuple(moves), mode, remote)


@dataclass(frozen=True)
class Step:
    """What to do next: ``kind`` is ``same``, ``send``, ``receive`` or ``diverged``; ``move``
    the turn to send or receive; ``reason`` why the games diverged."""

    kind: str
    move: str | None = None
    reason: str = ""


def _start(board: Board) -> Board:
    root = board.copy()
    while root.move_stack:
        root.pop()
    return root


def plan_sync(board: Board, local: Color, theirs: GameState) -> Step:
    """The next step to make this board's game (``board``, whose person plays ``local``) and the
    other board's (``theirs``) one game."""
    local_name = COLOR_NAMES[local]
    if theirs.mode != Mode.REMOTE:
        return Step("diverged", reason=f"the other board is in mode {theirs.mode}, not remote")
    if theirs.remote_color != local_name:
        return Step(
            "diverged",
            reason=f"both boards play {local_name} at the board (--human {local_name} on both): "
            f"start one with --human {COLOR_NAMES[not local]}",
        )
    # Their turns played from this game's start must give their position: the same start.
    replay = _start(board)
    for index, text in enumerate(theirs.moves, start=1):
        try:
            move = Move.parse(text)
        except InvalidMoveError:
            return Step("diverged", reason=f"the other board's turn {index} {text!r} is no turn")
        reason = replay.illegal_reason(move)
        if reason is not None:
            return Step(
                "diverged",
                reason=f"the other board's game is another game (its turn {index}, {text}, "
                f"is illegal here: {reason})",
            )
        replay.push(move)
    if replay.position() != theirs.position:
        return Step(
            "diverged",
            reason=f"the other board plays from another position ({theirs.position})",
        )
    mine = [str(m) for m in board.move_stack]
    common = 0
    for a, b in zip(mine, theirs.moves, strict=False):
        if a != b:
            break
        common += 1
    if common < len(mine) and common < len(theirs.moves):
        return Step(
            "diverged",
            reason=f"the games part at turn {common + 1}: {mine[common]} here, "
            f"{theirs.moves[common]} there",
        )
    if len(mine) == len(theirs.moves):
        return Step("same")
    # A pairing loses at most one turn: the one made while it was down (the other side can only
    # answer a turn it has heard of). More, or a turn of the wrong colour, is another game.
    side = _start(board)
    for text in mine[:common]:
        side.push(Move.parse(text))
    ahead, behind = mine[common:], list(theirs.moves[common:])
    if ahead:
        if len(ahead) == 1 and side.turn == local:
            return Step("send", ahead[0])
        return Step(
            "diverged",
            reason=f"this board has {len(ahead)} turn(s) the other has not "
            f"({' '.join(ahead)}): press new game on both boards",
        )
    if len(behind) == 1 and side.turn != local:
        return Step("receive", behind[0])
    return Step(
        "diverged",
        reason=f"the other board has {len(behind)} turn(s) this one has not "
        f"({' '.join(behind)}): press new game on both boards",
    )
