"""The engine: search, evaluation, endgame tables (:mod:`morris.engine.tables`).

The in-process engine, the external-engine client and the simple players share one ``play()``::

    >>> from morris import Board
    >>> from morris.engine import Engine
    >>> Engine(level=2, seed=7).play(Board()).move in Board().legal_moves
    True

Submodules: :mod:`~morris.engine.levels` (the playing levels, readable without loading the
search), :mod:`~morris.engine.engine` (the engine: levels, time, tables and solution),
:mod:`~morris.engine.search` (the alpha-beta it runs), :mod:`~morris.engine.evaluate`,
:mod:`~morris.engine.movegen`, :mod:`~morris.engine.uci` (the protocol server),
:mod:`~morris.engine.client` (external engines), :mod:`~morris.engine.players` (the
:class:`Player` protocol, random and greedy players), :mod:`~morris.engine.match`,
:mod:`~morris.engine.errors` (the one root, :class:`EngineError`, and every engine error).

The names below are imported when first used (PEP 562), so that ``import morris.engine.levels``
loads neither the search, numpy nor the C extension.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from morris.engine.client import UciEngine
    from morris.engine.engine import (
        Engine,
        SearchInfo,
        SearchResult,
        format_score,
        win_distance,
    )
    from morris.engine.errors import (
        EngineCrashed,
        EngineError,
        EngineTimeout,
        ExternalEngineError,
        ProtocolError,
        TableError,
    )
    from morris.engine.levels import LEVELS, MAX_LEVEL, MIN_LEVEL, Level
    from morris.engine.players import GreedyPlayer, Player, RandomPlayer
    from morris.engine.search import MATE

#: The module of each name this package exports.
_HOMES: dict[str, str] = {
    "UciEngine": "client",
    "EngineCrashed": "errors",
    "EngineError": "errors",
    "EngineTimeout": "errors",
    "ExternalEngineError": "errors",
    "ProtocolError": "errors",
    "TableError": "errors",
    "LEVELS": "levels",
    "MAX_LEVEL": "levels",
    "MIN_LEVEL": "levels",
    "Level": "levels",
    "GreedyPlayer": "players",
    "Player": "players",
    "RandomPlayer": "players",
    "MATE": "search",
    "Engine": "engine",
    "SearchInfo": "engine",
    "SearchResult": "engine",
    "format_score": "engine",
    "win_distance": "engine",
}

__all__ = [
    "LEVELS",
    "MATE",
    "MAX_LEVEL",
    "MIN_LEVEL",
    "Engine",
    "EngineCrashed",
    "EngineError",
    "EngineTimeout",
    "ExternalEngineError",
    "GreedyPlayer",
    "Level",
    "Player",
    "ProtocolError",
    "RandomPlayer",
    "SearchInfo",
    "SearchResult",
    "TableError",
    "UciEngine",
    "format_score",
    "win_distance",
]


def __getattr__(name: str) -> object:
    """Import the submodule of an exported name when it is first asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # asked once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
