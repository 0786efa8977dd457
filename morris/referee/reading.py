"""Readings: what a settled sensor snapshot means against the accepted game.

A reading is the referee's interpretation of the board at one instant: the position itself, a
complete turn, a turn half done (a piece in the hand, a mill waiting for its removal), the Pi's
turn being carried out, an earlier position (a takeback), a cleared board, or nothing a legal turn
explains. The functions here are pure: the :class:`~morris.referee.Referee` decides, with its
timers, when a reading becomes an event.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from morris.core import Board, Move, Point

__all__ = ["Kind", "Reading", "footprint", "read_person_turn", "read_pi_turn"]


def _single(mask: int) -> bool:
    return mask != 0 and mask & (mask - 1) == 0


def _index(mask: int) -> Point:
    return mask.bit_length() - 1


def footprint(move: Move) -> tuple[int, int]:
    """The points a turn fills and the points it clears."""
    cleared = 0
    if move.from_point is not None:
        cleared |= 1 << move.from_point
    if move.remove is not None:
        cleared |= 1 << move.remove
    return 1 << move.to_point, cleared


class Kind(enum.Enum):
    """What kind of state the settled board shows."""

    IDLE = "idle"  # game over: nothing is read but an empty board
    SAME = "same"  # the board shows the accepted position
    TURN = "turn"  # a complete turn (or the Pi's turn and the person's reply)
    COMMIT = "commit"  # the Pi's turn carried out and the person's next turn begun
    MILL = "mill"  # a person's mill-closing action done, its removal pending
    ILLEGAL = "illegal"  # ... and an unremovable opponent piece lifted
    PARTIAL = "partial"  # a person's turn begun: a piece in the hand, or the removal first
    PI_PARTIAL = "pi-partial"  # the Pi's turn not (fully) carried out yet
    TAKEBACK = "takeback"  # an earlier position restored
    CLEAR = "clear"  # the board cleared
    GUIDE = "guide"  # the board must be set to the game first (takeback button, new game, resume)
    UNEXPLAINED = "unexplained"


@dataclass
class Reading:
    """One reading of the board, with what the referee needs to act on it (and its timer)."""

    kind: Kind
    moves: tuple[Move, ...] = ()  # TURN: turns to accept; COMMIT: the Pi's turn
    action: Move | None = None  # MILL, ILLEGAL: the mill-closing action
    removable: int = 0  # MILL, ILLEGAL: opponent pieces that may be removed
    illegal: int = 0  # ILLEGAL: unremovable opponent pieces lifted
    targets: int = 0  # PARTIAL, COMMIT: where a piece may go
    undo: int = 0  # TAKEBACK: turns to undo
    reason: str = ""  # UNEXPLAINED, PI_PARTIAL: for the Flagged event
    due: float | None = None
    fired: bool = False
    flaggable: bool = False


def read_person_turn(board: Board, sensed: int) -> Reading | None:
    """Read ``sensed`` (not the accepted occupancy) as a turn of the side to move, or ``None``."""
    occupied = board.occupied
    added = sensed & ~occupied
    removed = occupied & ~sensed
    turn = board.turn
    own_lifted = removed & board.occupied_co(turn)
    opp_lifted = removed & board.occupied_co(not turn)
    if added & (added - 1) or own_lifted & (own_lifted - 1):
        return None
    origin = _index(own_lifted) if own_lifted else None
    legal = list(board.generate_legal_moves())
    if own_lifted or added:  # the lifted piece moves, or (nothing lifted) a piece is placed
        legal = [m for m in legal if m.from_point == origin]
    if added:
        to = _index(added)
        actions = [m for m in legal if m.to_point == to]
        if not actions:
            return None
        if actions[0].remove is None:  # no mill (or nothing to remove): the action is the turn
            return None if opp_lifted else Reading(Kind.TURN, moves=(actions[0],))
        action = actions[0].without_removal()
        removable = 0
        for m in actions:
            assert m.remove is not None
            removable |= 1 << m.remove
        if not opp_lifted:
            return Reading(Kind.MILL, action=action, removable=removable)
        if _single(opp_lifted) and opp_lifted & removable:
            return Reading(Kind.TURN, moves=(Move(origin, to, _index(opp_lifted)),))
        if not opp_lifted & removable:
            return Reading(Kind.ILLEGAL, action=action, removable=removable, illegal=opp_lifted)
        return None
    if opp_lifted:  # the removal before the action ("removal first")
        if not _single(opp_lifted):
            return None
        targets = 0
        for m in legal:
            if m.remove == _index(opp_lifted):
                targets |= 1 << m.to_point
        return Reading(Kind.PARTIAL, targets=targets) if targets else None
    if own_lifted:
        targets = 0
        for m in legal:
            targets |= 1 << m.to_point
        return Reading(Kind.PARTIAL, targets=targets) if targets else None
    return None


def read_pi_turn(board: Board, move: Move, sensed: int) -> Reading | None:
    """Read ``sensed`` as the Pi's ``move`` being carried out (and maybe the person's reply)."""
    occupied = board.occupied
    added = sensed & ~occupied
    removed = occupied & ~sensed
    fills, clears = footprint(move)
    if added == fills and removed == clears:
        return Reading(Kind.TURN, moves=(move,))
    if not added & ~fills and not removed & ~clears:
        origin = move.from_point
        if added and origin is not None and not removed >> origin & 1:
            return None  # the target filled but the origin still there: an extra piece
        if not added and not removed:
            return Reading(Kind.PI_PARTIAL)
        return Reading(
            Kind.PI_PARTIAL,
            flaggable=True,
            reason=f"the Pi's turn {move} is only partly carried out",
        )
    after = board.copy()
    after.push(move)
    reply = read_person_turn(after, sensed)
    if reply is None:
        return None
    if reply.kind is Kind.TURN:
        return Reading(Kind.TURN, moves=(move, *reply.moves))
    return Reading(Kind.COMMIT, moves=(move,), targets=reply.targets)
