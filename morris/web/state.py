"""What the page is told: a controller :class:`~morris.app.snapshot.Snapshot` as plain JSON.

:func:`state_json` is the body of ``GET /api/state`` and of every ``state`` event of
``GET /api/events``. Every field of the snapshot is there under its own name (but ``connection`` and
``connection_reason``, which are ``link`` and ``link_reason``; signals and
status lights as their text values; the clock times ``lights_since``/``status_since`` become
``lights_age``/``status_age``, seconds since each LED took its signal, since the controller's
clock means nothing to a browser), plus ``lang`` (the language of its texts: the page's),
``last_move``, ``sim`` (whether the page's hands work), ``access``, ``present`` (where pieces
stand on the wood of a simulated board, else ``null``: the JSON keeps that name for what the
code calls ``on_wood``) and ``svg`` (the board picture,
:mod:`morris.web.picture`). ``event`` is the event line in the page's language (the snapshot's
:attr:`~morris.app.snapshot.Snapshot.event_message`), as is every other message of the
snapshot. ``sensed`` (the snapshot's own field) is where the sensors see a piece at the
snapshot's instant, on a real board too: the picture draws what stands on the wood from
``on_wood`` where the board is simulated, else from ``sensed``, as the simulator draws it (a
piece the game has not read yet, a piece of the game lifted).
"""

from __future__ import annotations

import dataclasses
import enum
import logging
from collections.abc import Mapping
from typing import Any

from morris import i18n
from morris.app.snapshot import Snapshot
from morris.i18n import Message
from morris.web.picture import render_svg, scene_of_snapshot

logger = logging.getLogger(__name__)

#: Snapshot fields given as ages instead of clock times.
_CLOCK_FIELDS = {"lights_since": "lights_age", "status_since": "status_age"}
#: Snapshot fields the JSON names otherwise: the remote player's connection has always been
#: ``link`` and ``link_reason`` to the page and its readers.
_JSON_NAMES = {"connection": "link", "connection_reason": "link_reason"}


def _plain(value: Any, lang: str | None = None) -> Any:
    """``value`` with enums as their values, messages as their text in language ``lang``
    (``None``: the board's) and mappings and tuples as JSON's own types."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Message):  # a catalog message (morris.i18n): its text
        return value.render(lang)
    if isinstance(value, Mapping):
        return {str(_plain(k, lang)): _plain(v, lang) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v, lang) for v in value]
    return value


def state_json(
    snapshot: Snapshot,
    now: float,
    *,
    sim: bool = False,
    access: str = "control",
    flip: bool = False,
    on_wood: frozenset[str] | None = None,
    lang: str | None = None,
) -> dict[str, Any]:
    """The JSON of ``snapshot`` as of ``now`` (the controller's clock); on a simulated board
    ``on_wood`` (where pieces stand on the wood) is given too, as a sorted list (the field
    ``present``). Its texts (the
    event line, the solved value's words, every :class:`~morris.i18n.Message` of the snapshot)
    are in language ``lang``: the page's (``None``: the board's).

    >>> from morris.sim import Simulation
    >>> with Simulation(mode="referee") as sim:
    ...     state = state_json(sim.controller.snapshot(sim.now), sim.now)
    >>> state["turn"], state["mode"], state["lights"]["d6"], state["outcome"]
    ('white', 'referee', 'off', None)
    """
    state: dict[str, Any] = {}
    for field in dataclasses.fields(snapshot):
        value = getattr(snapshot, field.name)
        if field.name in _CLOCK_FIELDS:
            ages = {_plain(k): round(max(0.0, now - since), 3) for k, since in value.items()}
            state[_CLOCK_FIELDS[field.name]] = ages
        else:
            state[_JSON_NAMES.get(field.name, field.name)] = _plain(value, lang)
    # The event line in the page's language (``event`` is the board's own text of it).
    state["event"] = state["event_message"]
    state["lang"] = lang if lang is not None else i18n.language()
    state["last_move"] = snapshot.moves[-1] if snapshot.moves else None
    state["sim"] = sim
    state["access"] = access
    # The JSON's name for where pieces stand on the wood (the page and its scripts read it).
    state["present"] = sorted(on_wood) if on_wood is not None else None
    drawn = on_wood if on_wood is not None else frozenset(snapshot.sensed)
    state["svg"] = render_svg(scene_of_snapshot(snapshot, now, flip=flip, on_wood=drawn))
    return state
