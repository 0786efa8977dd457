"""The display model every front end draws: what each point shows, as a person sees it.

A point shows the game's piece there (its colour is known to the game, never to the sensors), a
magnet the game does not know (``unknown``), or a piece of the game lifted off the wood, and its
LED's signal, blinking in time. The terminal UI draws these; the web companion will too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from hardware.interface import POINTS as POINT_NAMES
from hardware.interface import Signal, signal_level
from morris.core import COLOR_NAMES, Board


@dataclass(frozen=True)
class PointView:
    """One point as drawn: the piece there (as the person sees it) and its LED."""

    piece: str | None  # "white", "black", "unknown" (sensed, not in the game) or None
    lifted: bool  # the game has a piece here, but it is off the board
    signal: Signal  # what the LED shows
    lit: bool  # whether the LED is lit at this instant


def point_views(
    board: Board,
    present: Iterable[str],
    lights: Mapping[str, str],
    now: float,
) -> dict[str, PointView]:
    """Every point's view: the game's pieces on ``board``, the magnets ``present`` on the wood,
    the LED ``lights`` blinking at time ``now``."""
    pieces = board.pieces()
    present = frozenset(present)
    views = {}
    for name in POINT_NAMES:
        colour = pieces.get(name)
        signal = Signal(lights.get(name, "off"))
        if name in present:
            piece: str | None = COLOR_NAMES[colour] if colour is not None else "unknown"
        else:
            piece = None
        views[name] = PointView(
            piece=piece,
            lifted=colour is not None and name not in present,
            signal=signal,
            lit=signal_level(signal, now),
        )
    return views


def lifted_colour(board: Board, name: str) -> str:
    """The colour of the game's piece on ``name`` (for drawing a lifted piece)."""
    colour = board.piece_at(name)
    return COLOR_NAMES[colour] if colour is not None else "unknown"
