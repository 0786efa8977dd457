"""The referee: timed sensor snapshots in, turns of the game out; and the light language.

The board senses *that* a piece stands on a point, never its colour. The referee keeps the
accepted game (a :class:`~morris.core.Board`) and reads each sensed snapshot against it: a finished
legal turn is accepted, a half-done one (a piece in the hand, a mill waiting for its removal) is
normal, and a board that no legal turn explains is flagged. It is pure: no threads, no clock, no
I/O. Time comes in as ``now`` on every call and the caller polls at
:meth:`Referee.next_deadline`.

Timings (all in :class:`RefereeConfig`):

- each point is debounced on its own: a change must last ``debounce`` seconds before it counts, so
  a bouncing reed contact or a weak magnet's flicker never reaches the game, and a flickering point
  never holds up the others;
- a settled board that is a legal turn is accepted once it has stayed so for ``accept_delay``
  (defaults: 0.1 + 0.5 s, inside the 1 s the product promises); a piece slid across points on its
  way is never there that long;
- a board no legal turn explains is flagged after ``flag_delay``; the earlier position restored
  counts as a takeback after ``takeback_delay``; an empty board starts a new game after
  ``clear_delay``.

>>> from morris.core import Board, parse_point
>>> referee = Referee(Board(), opponent_color=None)
>>> referee.update(1 << parse_point("d6"), now=1.0)
[]
>>> referee.poll(now=2.0)
[TurnAccepted(move=Move.parse('d6'), color=True, by_opponent=False)]

The modules: :mod:`~morris.referee.events` (what the referee reports),
:mod:`~morris.referee.reading` (what a settled board means), :mod:`~morris.referee.referee` (the
timers and the state machine), :mod:`~morris.referee.lights` (the light language: the referee's
state, and the app's overlays on it, as a signal on each point and status LED). docs/REFEREE.md
says how physical actions are read and which reported failures each rule answers.
"""

from morris.referee.events import (
    Event,
    Flagged,
    GameOver,
    IllegalRemoval,
    MillClosed,
    Mismatch,
    NewGame,
    OpponentToMove,
    Resolved,
    SearchCancelled,
    SetUp,
    SetUpDone,
    TakenBack,
    TurnAccepted,
)
from morris.referee.lights import compute_lights, status_lights, turn_lights
from morris.referee.referee import Referee, RefereeConfig, RefereeError

__all__ = [
    "Event",
    "Flagged",
    "GameOver",
    "IllegalRemoval",
    "MillClosed",
    "Mismatch",
    "NewGame",
    "OpponentToMove",
    "Referee",
    "RefereeConfig",
    "RefereeError",
    "Resolved",
    "SearchCancelled",
    "SetUp",
    "SetUpDone",
    "TakenBack",
    "TurnAccepted",
    "compute_lights",
    "status_lights",
    "turn_lights",
]
