"""Readings: what a settled sensor snapshot means against the accepted game.

A reading is the referee's interpretation of the board at one instant: the position itself, a
complete turn, a turn half done (a piece in the hand, a mill waiting for its removal), the
opponent's turn being carried out, an earlier position (a takeback), a cleared board, or nothing a
legal turn explains. The functions here are pure: the :class:`~morris.referee.Referee` decides,
with its timers, when a reading becomes an event.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from morris.core import Board, Move, Point
from morris.i18n import Message, msg, plain

#: No reason (a reading that is not flagged).
NO_REASON = plain("")

__all__ = ["Kind", "Reading", "footprint", "read_opponent_turn", "read_person_turn"]


def _single(mask: int) -> bool:
    return mask != 0 and mask & (mask - 1) == 0


def _index(mask: int) -> Point:
    return mask.bit_length() - 1


def removal_mask(move: Move) -> int:
    """The points whose pieces a turn removes (none, one, or two for a double mill)."""
    mask = 0
    for point in move.removals:
        mask |= 1 << point
    return mask


def footprint(move: Move) -> tuple[int, int]:
    """The points a turn fills and the points it clears."""
    cleared = removal_mask(move)
    if move.from_point is not None:
        cleared |= 1 << move.from_point
    return 1 << move.to_point, cleared


class Kind(enum.Enum):
    """What kind of state the settled board shows."""

    IDLE = "idle"  # game over: nothing is read but an empty board
    SAME = "same"  # the board shows the accepted position
    TURN = "turn"  # a complete turn (or the opponent's turn and the person's reply)
    COMMIT = "commit"  # the opponent's turn carried out and the person's next turn begun
    MILL = "mill"  # a person's mill-closing action done, its removal pending
    ILLEGAL = "illegal"  # ... and an unremovable opponent piece lifted
    PARTIAL = "partial"  # a person's turn begun: a piece in the hand, or the removal first
    OPPONENT_PARTIAL = "opponent-partial"  # the opponent's turn not (fully) carried out yet
    TAKEBACK = "takeback"  # an earlier position restored
    CLEAR = "clear"  # the board cleared
    GUIDE = "guide"  # the board must be set to the game first (takeback button, new game, resume)
    UNEXPLAINED = "unexplained"


@dataclass
class Reading:
    """One reading of the board, with what the referee needs to act on it (and its timer)."""

    kind: Kind
    moves: tuple[Move, ...] = ()  # TURN: turns to accept; COMMIT: the opponent's turn
    action: Move | None = None  # MILL, ILLEGAL: the mill-closing action
    removable: int = 0  # MILL, ILLEGAL: opponent pieces that may be removed (next)
    removals: int = 0  # MILL, ILLEGAL: how many pieces the action removes in all (1, or 2)
    illegal: int = 0  # ILLEGAL: unremovable opponent pieces lifted
    targets: int = 0  # PARTIAL, COMMIT: where a piece may go
    undo: int = 0  # TAKEBACK: turns to undo
    reason: Message = NO_REASON  # UNEXPLAINED, OPPONENT_PARTIAL: for the Flagged event
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
        return _read_removals(actions, opp_lifted)
    if opp_lifted:  # the removals before the action ("removal first")
        targets = 0
        for m in legal:
            if not opp_lifted & ~removal_mask(m):
                targets |= 1 << m.to_point
        return Reading(Kind.PARTIAL, targets=targets) if targets else None
    if own_lifted:
        targets = 0
        for m in legal:
            targets |= 1 << m.to_point
        return Reading(Kind.PARTIAL, targets=targets) if targets else None
    return None


def _read_removals(actions: list[Move], lifted: int) -> Reading | None:
    """Read the opponent pieces ``lifted`` after a mill-closing action whose turns are ``actions``.

    A double mill (where it removes two) is read one piece at a time: after the first removal
    the reading is still a mill, whose removable pieces are those that may go with the first.
    """
    action = actions[0].without_removal()
    count = len(actions[0].removals)
    fitting = [m for m in actions if not lifted & ~removal_mask(m)]  # the lifted ones, and more
    done = [m for m in fitting if removal_mask(m) == lifted]
    if done:
        return Reading(Kind.TURN, moves=(done[0],))
    if lifted.bit_count() > count:
        return None
    if lifted.bit_count() < count and fitting:
        removable = 0
        for m in fitting:
            removable |= removal_mask(m)
        return Reading(Kind.MILL, action=action, removable=removable & ~lifted, removals=count)
    anywhere = 0  # every piece some turn of this action removes
    for m in actions:
        anywhere |= removal_mask(m)
    # The pieces no turn may take are wrong; two that may each go, but not together, both are.
    illegal = (lifted & ~anywhere) or lifted
    return Reading(
        Kind.ILLEGAL, action=action, removable=anywhere & ~lifted, illegal=illegal, removals=count
    )


def read_opponent_turn(
    board: Board, move: Move, sensed: int, *, carried_out: bool = False
) -> Reading | None:
    """Read ``sensed`` as the opponent's ``move`` being carried out (and maybe the person's
    reply).

    ``carried_out``: the board has already shown ``move`` done whole. A point it emptied that
    fills again is then the person's reply (a piece put where the opponent's piece was just
    taken, or just left), not the turn being undone.
    """
    occupied = board.occupied
    added = sensed & ~occupied
    removed = occupied & ~sensed
    fills, clears = footprint(move)
    if added == fills and removed == clears:
        return Reading(Kind.TURN, moves=(move,))
    if carried_out:
        reply = _with_reply(board, move, sensed)
        if reply is not None:
            return reply
    if not added & ~fills and not removed & ~clears:
        origin = move.from_point
        if added and origin is not None and not removed >> origin & 1:
            return None  # the target filled but the origin still there: an extra piece
        if not added and not removed:
            return Reading(Kind.OPPONENT_PARTIAL)
        return Reading(
            Kind.OPPONENT_PARTIAL,
            flaggable=True,
            reason=msg("the Pi's turn {move} is only partly carried out", move=move),
        )
    return _with_reply(board, move, sensed)


def _with_reply(board: Board, move: Move, sensed: int) -> Reading | None:
    """``sensed`` read as ``move`` done and the person's reply (begun) after it, or ``None``."""
    after = board.copy()
    after.push(move)
    reply = read_person_turn(after, sensed)
    if reply is None:
        return None
    if reply.kind is Kind.TURN:
        return Reading(Kind.TURN, moves=(move, *reply.moves))
    return Reading(Kind.COMMIT, moves=(move,), targets=reply.targets)
