"""What the referee tells its caller: every call returns a list of these :class:`Event` s, in order.

Bitmasks here have bit ``p`` set for point ``p`` (:mod:`morris.core.points`).
"""

from __future__ import annotations

from dataclasses import dataclass

from morris.core import Color, Move, Outcome, Point
from morris.i18n import Message

__all__ = [
    "Event",
    "Flagged",
    "GameOver",
    "IllegalRemoval",
    "MillClosed",
    "Mismatch",
    "NewGame",
    "OpponentToMove",
    "Resolved",
    "SearchCancelled",
    "SetUp",
    "SetUpDone",
    "TakenBack",
    "TurnAccepted",
]


@dataclass(frozen=True)
class Event:
    """Something the daemon should know; every referee call returns a list of them in order."""


@dataclass(frozen=True)
class TurnAccepted(Event):
    """A turn is now part of the game (``by_opponent``: the opponent's turn, the Pi's or the remote
    player's, carried out on the board as the lights asked; else the person's at the board)."""

    move: Move
    color: Color
    by_opponent: bool


@dataclass(frozen=True)
class MillClosed(Event):
    """A person's action closed a mill; lifting one of ``removable`` (a bitmask) finishes it.

    ``removals`` is 2 for a double mill where the rules say it removes two: the turn is finished
    by lifting two pieces, one after the other (``removable`` is then the first one's choices).
    """

    action: Move
    removable: int
    removals: int = 1


@dataclass(frozen=True)
class Flagged(Event):
    """The board is wrong: ``missing`` and ``unexpected`` are bitmasks against what it should be;
    ``reason`` says why in words (a message of the catalogs, :mod:`morris.i18n`)."""

    missing: int
    unexpected: int
    reason: Message


@dataclass(frozen=True)
class Resolved(Event):
    """A flagged board is right again (or the game it was wrong for has been replaced)."""


@dataclass(frozen=True)
class TakenBack(Event):
    """Turns were undone, oldest first."""

    moves: list[Move]


@dataclass(frozen=True)
class NewGame(Event):
    """A new game started from the empty board."""


@dataclass(frozen=True)
class SetUp(Event):
    """A set-up position replaced the game: the lights guide the board to it (``position``, the
    core's position text) and play starts once the board matches (:class:`SetUpDone`)."""

    position: str


@dataclass(frozen=True)
class SetUpDone(Event):
    """The board matches the set-up position: play starts from it."""


@dataclass(frozen=True)
class GameOver(Event):
    """The game ended; emitted once per game."""

    outcome: Outcome


@dataclass(frozen=True)
class OpponentToMove(Event):
    """It is now the opponent's turn: against the Pi the controller starts a search (on a copy of
    the board), against a remote player it waits for the remote turn."""


@dataclass(frozen=True)
class SearchCancelled(Event):
    """A takeback or new game happened while the opponent was to move: drop the search and its
    result."""


@dataclass(frozen=True)
class IllegalRemoval(Event):
    """After a mill a person lifted a piece that may not be removed (it stands in a mill)."""

    point: Point


@dataclass(frozen=True)
class Mismatch:
    """How the board differs from what it should be, shown since ``since``."""

    missing: int
    unexpected: int
    since: float
