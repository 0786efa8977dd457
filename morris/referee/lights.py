"""The light language of docs/DESIGN.md: the referee's state in, a signal per point out.

Pure functions of the referee's state (and, for a hint, the time): rendering twice gives the same
lights, and nothing blinks because a sensor flickered below the debounce time.

========  ===================================================================================
signal    shown on
========  ===================================================================================
``on``    the Pi's placement or target; a lifted piece's legal targets; a missing piece; at the
          start of a game on fewer points (six men's morris), the points in play
``slow``  the Pi's origin; the Pi's removal once its action is carried out; every piece that
          may be removed after a person's mill
``fast``  an unexpected piece; an unremovable piece lifted after a mill
``off``   everything else, and every point once the game is over
========  ===================================================================================

While a board is flagged, the points of the Pi's own turn keep their signals (its origin stays
``slow``, its target ``on``), so a mistake elsewhere never changes what the Pi asks for.
"""

from __future__ import annotations

from morris.core import (
    ALL_POINTS,
    NUM_POINTS,
    VARIANT_NAMES,
    WHITE,
    Move,
    Point,
    Rules,
    points_of,
)
from morris.referee.reading import footprint
from morris.referee.referee import Referee
from morris_device import Signal, StatusLight

__all__ = ["compute_lights", "status_lights", "turn_lights", "variant_lights"]


def turn_lights(move: Move, sensed: int, *, removal_at_once: bool = False) -> dict[Point, Signal]:
    """A turn in the light language, against the board ``sensed``.

    The origin is ``slow`` while its piece stands, the target ``on`` while it is empty, and the
    removal ``slow`` once the action is carried out (``removal_at_once``: from the start, for a
    hint). Points already done are left out.
    """
    lights: dict[Point, Signal] = {}
    origin = move.from_point
    if origin is not None and sensed >> origin & 1:
        lights[origin] = Signal.SLOW
    if not sensed >> move.to_point & 1:
        lights[move.to_point] = Signal.ON
    done = (origin is None or not sensed >> origin & 1) and bool(sensed >> move.to_point & 1)
    for removed in move.removals:  # two for a double mill where it removes two
        if sensed >> removed & 1 and (done or removal_at_once):
            lights[removed] = Signal.SLOW
    return lights


def _mask(move: Move) -> int:
    fills, clears = footprint(move)
    return fills | clears


def compute_lights(referee: Referee, now: float) -> dict[Point, Signal]:
    """The signal of every one of the 24 points for the referee's state at ``now``."""
    lights = dict.fromkeys(range(NUM_POINTS), Signal.OFF)
    if referee.is_game_over:
        return lights
    sensed = referee.sensed
    expected = referee.expected
    mismatch = referee.mismatch
    if mismatch is not None:
        keep = 0  # points rendered by the Pi's turn rather than by the difference
        if expected is not None and not referee.is_guiding:
            keep = _mask(expected)
            lights.update(turn_lights(expected, sensed))
        for p in range(NUM_POINTS):
            if keep >> p & 1:
                continue
            if mismatch.unexpected >> p & 1:
                lights[p] = Signal.FAST
            elif mismatch.missing >> p & 1:
                lights[p] = Signal.ON
        return lights
    hint = referee.hint_shown(now)
    if hint is not None:
        lights.update(turn_lights(hint, sensed, removal_at_once=True))
        return lights
    if expected is not None:
        lights.update(turn_lights(expected, sensed))
    elif _at_start(referee) and referee.board.points_in_play != ALL_POINTS:
        # Six men's morris: before the first piece, the points in play show where to place.
        for p in points_of(referee.board.points_in_play):
            lights[p] = Signal.ON
    for p in range(NUM_POINTS):
        bit = 1 << p
        if referee.illegal_removal & bit:
            lights[p] = Signal.FAST
        elif referee.removable & bit:
            lights[p] = Signal.SLOW
        elif referee.targets & bit:
            lights[p] = Signal.ON
    return lights


def variant_lights(rules: Rules) -> dict[Point, Signal]:
    """The variant chosen at the board (mode button, then hint), on all 24 points: its points in
    play lit ``on``,
    and its number in :data:`~morris.core.VARIANT_NAMES` (1 standard, 2 twelve, 3 morabaraba,
    4 lasker) blinking ``slow`` on as many points of the outer square from a7. Six men's morris
    (5) leaves the outer square dark: its 16 points alone are lit.

    >>> from morris.core import VARIANTS
    >>> sorted(variant_lights(VARIANTS["twelve"]).items())[:3]
    [(0, <Signal.SLOW: 'slow'>), (1, <Signal.SLOW: 'slow'>), (2, <Signal.ON: 'on'>)]
    """
    lights = dict.fromkeys(range(NUM_POINTS), Signal.OFF)
    lights.update(dict.fromkeys(points_of(rules.points_in_play), Signal.ON))
    if rules.points_in_play & 1:  # the outer square is in play: count on it
        for p in range(VARIANT_NAMES.index(rules.name) + 1):
            lights[p] = Signal.SLOW
    return lights


def _at_start(referee: Referee) -> bool:
    """Whether the game is at its very start: no turn played, nothing on the board."""
    board = referee.board
    return (
        not board.move_stack
        and not board.occupied
        and not referee.sensed
        and not referee.pi_to_move
    )


def status_lights(referee: Referee, thinking: bool) -> dict[StatusLight, Signal]:
    """The status LEDs: ``turn``, ``thinking``, ``error``, ``game_over``.

    ``turn`` is lit while the person is to move (in referee mode: while white is to move);
    ``error`` blinks fast while the board is flagged or the link is down, and is lit while the
    lights guide the board back to the game (takeback, new game, resumed game).
    """
    over = referee.is_game_over
    if over:
        turn = False
    elif referee.pi_color is None:
        turn = referee.board.turn == WHITE
    else:
        turn = not referee.pi_to_move
    if referee.is_flagged or not referee.link_up:
        error = Signal.FAST
    elif referee.mismatch is not None:
        error = Signal.ON
    else:
        error = Signal.OFF
    return {
        StatusLight.TURN: Signal.ON if turn else Signal.OFF,
        StatusLight.THINKING: Signal.ON if thinking else Signal.OFF,
        StatusLight.ERROR: error,
        StatusLight.GAME_OVER: Signal.ON if over else Signal.OFF,
    }
