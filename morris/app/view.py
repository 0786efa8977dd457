"""The display model every front end draws: what each point shows, as a person sees it.

A point shows the game's piece there (its colour is known to the game, never to the sensors), a
magnet the game does not know (``unknown``), or a piece of the game lifted off the wood, and its
LED's signal, blinking in time from the moment it took that signal (a blink starts lit, as on
every board backend: :func:`morris_device.signal_level`). The terminal UI draws these; the web
companion will too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from morris_device import POINT_NAMES, Signal, signal_level


@dataclass(frozen=True)
class PointView:
    """One point as drawn: what stands on the wood there, the game's piece if lifted, its LED."""

    #: What stands on the wood: ``"white"``, ``"black"``, ``"unknown"`` (a magnet the game does
    #: not know) or ``None``.
    piece: str | None
    #: The colour of the game's piece that belongs here but is off the wood, else ``None``.
    lifted: str | None
    #: What the LED shows.
    signal: Signal
    #: Whether the LED is lit at this instant.
    lit: bool


def point_views(
    pieces: Mapping[str, str],
    on_wood: Iterable[str],
    lights: Mapping[str, Signal],
    since: Mapping[str, float],
    now: float,
) -> dict[str, PointView]:
    """Every point's view: the game's ``pieces`` (point name -> colour, as in
    :attr:`Snapshot.pieces <morris.app.snapshot.Snapshot.pieces>`), the magnets
    ``on_wood``, the LED ``lights`` at time ``now``, each blinking from the time ``since`` gives
    for it (:attr:`Snapshot.lights_since <morris.app.snapshot.Snapshot.lights_since>`; a
    point not named there blinks from ``now``)."""
    on_wood = frozenset(on_wood)
    views = {}
    for name in POINT_NAMES:
        colour = pieces.get(name)
        signal = lights.get(name, Signal.OFF)
        stands = name in on_wood
        views[name] = PointView(
            piece=(colour or "unknown") if stands else None,
            lifted=colour if colour is not None and not stands else None,
            signal=signal,
            lit=signal_level(signal, now, since.get(name, now)),
        )
    return views
