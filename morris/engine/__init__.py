"""The engine: search, evaluation, endgame tables (:mod:`morris.engine.tables`).

The in-process engine, the external-engine client and the simple players share one ``play()``::

    >>> from morris import Board
    >>> from morris.engine import Engine
    >>> Engine(level=2, seed=7).play(Board()).move in Board().legal_moves
    True

Submodules: :mod:`~morris.engine.search` (the engine and its levels),
:mod:`~morris.engine.evaluate`, :mod:`~morris.engine.movegen`, :mod:`~morris.engine.uci` (the
protocol server), :mod:`~morris.engine.client` (external engines), :mod:`~morris.engine.players`
(the :class:`Player` protocol, random and greedy players), :mod:`~morris.engine.match`,
:mod:`~morris.engine.errors` (the one root, :class:`EngineError`, and every engine error).
"""

from morris.engine.client import UciEngine
from morris.engine.errors import (
    EngineCrashed,
    EngineError,
    EngineTimeout,
    ExternalEngineError,
    ProtocolError,
    TableError,
)
from morris.engine.players import GreedyPlayer, Player, RandomPlayer
from morris.engine.search import (
    LEVELS,
    MATE,
    MAX_LEVEL,
    MIN_LEVEL,
    Engine,
    Level,
    SearchInfo,
    SearchResult,
    format_score,
    win_distance,
)

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
