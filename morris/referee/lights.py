"""The light language of docs/DESIGN.md: every light of the board, computed here and nowhere else.

The referee's state in, a signal per point LED and per status LED out; what the app layers show
over the game comes in as an :class:`Overlay` of their state (a position set up on the board, a
choice shown for a moment, a puzzle, the remote player's link, the engine in use), never
as lights of their own. Pure functions of their inputs (and, for a hint, the time): rendering
twice gives the same lights, and nothing blinks because a sensor flickered below the debounce
time.

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

Over the game, in this order: a position set up on the board (:class:`SetupOverlay`: White's
pieces ``on``, Black's ``slow``), a choice shown for a moment (:class:`Choice`: a level or a
puzzle's length as that many points ``on`` from a7, referee mode as the inner square ``slow``,
remote mode as the outer one, a variant as :func:`variant_lights`), and while a puzzle
is set up by the lights, a missing Black piece ``slow`` where the guidance shows ``on``.

While a board is flagged, the points of the Pi's own turn keep their signals (its origin stays
``slow``, its target ``on``), so a mistake elsewhere never changes what the Pi asks for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from morris.core import (
    ALL_POINTS,
    NUM_POINTS,
    VARIANT_NAMES,
    WHITE,
    Color,
    Move,
    Point,
    Rules,
    points_of,
)
from morris.referee.reading import footprint
from morris.referee.referee import Referee
from morris_device import Signal, StatusLight

__all__ = [
    "NO_OVERLAY",
    "Choice",
    "Overlay",
    "SetupOverlay",
    "choice_lights",
    "compute_lights",
    "status_lights",
    "turn_lights",
    "variant_lights",
]

#: The points of the inner square (referee mode on the mode button) and of the outer square
#: (remote mode), in point order.
_INNER_SQUARE = range(16, 24)
_OUTER_SQUARE = range(8)


@dataclass(frozen=True)
class SetupOverlay:
    """A position being set up on the board (docs/REFEREE.md): whose each piece is.

    ``colours`` holds the colour of every piece on the board by point, ``selected`` the colour a
    new piece takes, ``refused`` whether an end of the setup was just refused (the error LED
    blinks a moment).
    """

    colours: Mapping[Point, Color]
    selected: Color = WHITE
    refused: bool = False


@dataclass(frozen=True)
class Choice:
    """A choice made at the board, shown on the point LEDs for a moment (docs/DESIGN.md).

    ``count``: a level (the mode button) or a puzzle's length (asked for at the board), that
    many points ``on`` from a7; ``mode``: ``"referee"`` (the inner square ``slow``) or
    ``"remote"`` (the outer square ``slow``); ``rules``: the variant chosen at the board
    (:func:`variant_lights`).
    """

    count: int = 0
    mode: str | None = None
    rules: Rules | None = None


@dataclass(frozen=True)
class Overlay:
    """What the app layers show over the referee's state: their state, the lights' inputs.

    ``setup``: a position set up on the board (it replaces every light); ``choice``: a choice
    shown for a moment (it replaces the point lights); ``puzzle``: a puzzle is played
    (while the lights guide the board to it, a missing Black piece is ``slow``); ``remote``:
    the game is against a remote player (the ``thinking`` LED stands for it: ``on`` while it is
    to move, ``slow`` while not ``remote_up``); ``engine_fallback``: the Pi plays with its own
    engine because the configured one failed (the ``error`` LED ``slow`` when nothing else
    lights it).
    """

    setup: SetupOverlay | None = None
    choice: Choice | None = None
    puzzle: bool = False
    remote: bool = False
    remote_up: bool = False
    engine_fallback: bool = False


#: No overlay: the game's lights alone.
NO_OVERLAY = Overlay()


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


def compute_lights(
    referee: Referee, now: float, overlay: Overlay = NO_OVERLAY
) -> dict[Point, Signal]:
    """The signal of every one of the 24 points for the referee's state at ``now``, under what
    the app layers show over it (``overlay``)."""
    if overlay.setup is not None:
        return _setup_lights(overlay.setup)
    if overlay.choice is not None:
        return choice_lights(overlay.choice)
    lights = _game_lights(referee, now)
    if overlay.puzzle:
        _guide_by_colour(referee, lights)
    return lights


def _game_lights(referee: Referee, now: float) -> dict[Point, Signal]:
    """The game's lights alone: the referee's state at ``now``."""
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


def _guide_by_colour(referee: Referee, lights: dict[Point, Signal]) -> None:
    """While the lights guide the board to the game (a puzzle being set up), a missing
    Black piece ``slow`` rather than ``on``: the colours of the board setup."""
    mismatch = referee.mismatch
    if mismatch is None or not referee.is_guiding:
        return
    for p in points_of(mismatch.missing):
        colour = referee.board.piece_at(p)
        if colour is not None and colour != WHITE:
            lights[p] = Signal.SLOW


def _setup_lights(setup: SetupOverlay) -> dict[Point, Signal]:
    """Each piece's colour on its LED: White's ``on``, Black's ``slow``; empty points dark."""
    lights = dict.fromkeys(range(NUM_POINTS), Signal.OFF)
    for p, colour in setup.colours.items():
        lights[p] = Signal.ON if colour == WHITE else Signal.SLOW
    return lights


def choice_lights(choice: Choice) -> dict[Point, Signal]:
    """A choice made at the board on all 24 points (see :class:`Choice`).

    >>> lit = choice_lights(Choice(count=3))
    >>> [p for p, signal in lit.items() if signal is Signal.ON]
    [0, 1, 2]
    >>> sorted({signal for signal in choice_lights(Choice(mode="referee")).values()})
    [<Signal.OFF: 'off'>, <Signal.SLOW: 'slow'>]
    """
    if choice.rules is not None:
        return variant_lights(choice.rules)
    lights = dict.fromkeys(range(NUM_POINTS), Signal.OFF)
    if choice.mode == "referee":
        lights.update(dict.fromkeys(_INNER_SQUARE, Signal.SLOW))
    elif choice.mode == "remote":
        lights.update(dict.fromkeys(_OUTER_SQUARE, Signal.SLOW))
    else:
        lights.update(dict.fromkeys(range(choice.count), Signal.ON))
    return lights


def variant_lights(rules: Rules) -> dict[Point, Signal]:
    """The variant chosen at the board (mode button, then hint), on all 24 points: its points in
    play lit ``on``, and its number in :data:`~morris.core.VARIANT_NAMES` (1 standard, 2 twelve,
    3 morabaraba, 4 lasker) blinking ``slow`` on as many points of the outer square from a7. Six
    men's morris (5) leaves the outer square dark: its 16 points alone are lit.

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
        and not referee.opponent_to_move
    )


def status_lights(
    referee: Referee, thinking: bool, overlay: Overlay = NO_OVERLAY
) -> dict[StatusLight, Signal]:
    """The status LEDs: ``turn``, ``thinking``, ``error``, ``game_over``.

    ``turn`` is lit while the person is to move (in referee mode: while white is to move);
    ``thinking`` while the Pi searches its turn (``thinking``); ``error`` blinks fast while the
    board is flagged or the link is down, and is lit while the lights guide the board back to
    the game (takeback, new game, resumed game). The ``overlay`` changes them as
    :class:`Overlay` says; while a position is set up on the board, ``turn`` shows the selected
    colour (``on`` White, ``slow`` Black) and ``error`` blinks fast after a refused end.
    """
    if overlay.setup is not None:
        return _setup_status(overlay.setup)
    if overlay.remote:
        thinking = referee.opponent_to_move
    over = referee.is_game_over
    if over:
        turn = False
    elif referee.opponent_color is None:
        turn = referee.board.turn == WHITE
    else:
        turn = not referee.opponent_to_move
    if referee.is_flagged or not referee.link_up:
        error = Signal.FAST
    elif referee.mismatch is not None:
        error = Signal.ON
    elif overlay.engine_fallback:
        error = Signal.SLOW
    else:
        error = Signal.OFF
    if overlay.remote and not overlay.remote_up:
        thinking_light = Signal.SLOW  # "waiting": nothing is lost, play resumes on reconnect
    else:
        thinking_light = Signal.ON if thinking else Signal.OFF
    return {
        StatusLight.TURN: Signal.ON if turn else Signal.OFF,
        StatusLight.THINKING: thinking_light,
        StatusLight.ERROR: error,
        StatusLight.GAME_OVER: Signal.ON if over else Signal.OFF,
    }


def _setup_status(setup: SetupOverlay) -> dict[StatusLight, Signal]:
    """The status LEDs while a position is set up on the board."""
    return {
        StatusLight.TURN: Signal.ON if setup.selected == WHITE else Signal.SLOW,
        StatusLight.THINKING: Signal.OFF,
        StatusLight.ERROR: Signal.FAST if setup.refused else Signal.OFF,
        StatusLight.GAME_OVER: Signal.OFF,
    }
