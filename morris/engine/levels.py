"""The engine's playing levels: constants any layer may read without loading the search.

This module imports nothing but the standard library: the configuration, the saved games, the
controller and the command line read :data:`MIN_LEVEL` and :data:`MAX_LEVEL` from here without
loading the search, numpy or the C extension.

>>> MIN_LEVEL, MAX_LEVEL
(1, 9)
>>> LEVELS[5].description
"5 turns deep, a touch of randomness: the daemon's default"
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["LEVELS", "MAX_DEPTH", "MAX_LEVEL", "MIN_LEVEL", "Level"]

#: The deepest the search goes, in turns (the C search has room for a few more plies).
MAX_DEPTH: Final = 64


@dataclass(frozen=True)
class Level:
    """A playing level: a search budget plus randomness among near-best moves.

    ``depth`` and ``nodes`` bound the search (``None``: no bound from this side); ``margin`` (in
    centi-pieces) lets the engine pick at random, with its seed, among root moves scoring within
    that much of the best; ``tables`` says whether the endgame tables are used.
    """

    number: int
    depth: int
    nodes: int | None
    margin: int
    tables: bool
    description: str


#: The levels, 1 (a beginner can win) to 9 (the full search with tables). Each must score clearly
#: above the one below: 1-5 by depth caps and randomness, 6-9 by node budgets nine times apart
#: (three times the nodes buys only a few per cent in Morris; see docs/ENGINE.md).
LEVELS: Final[dict[int, Level]] = {
    lv.number: lv
    for lv in (
        Level(1, 1, None, 150, False, "1 turn deep, picks among moves up to 1.5 pieces worse"),
        Level(2, 2, None, 80, False, "2 turns deep, picks among moves up to 0.8 pieces worse"),
        Level(3, 3, 5_000, 35, False, "3 turns deep, a little randomness"),
        Level(4, 4, 10_000, 12, False, "4 turns deep, slight randomness"),
        Level(5, 5, 15_000, 6, False, "5 turns deep, a touch of randomness: the daemon's default"),
        Level(6, MAX_DEPTH, 15_000, 0, False, "15k nodes"),
        Level(7, MAX_DEPTH, 135_000, 0, True, "135k nodes, endgame tables"),
        Level(8, MAX_DEPTH, 1_200_000, 0, True, "1.2M nodes, endgame tables"),
        Level(9, MAX_DEPTH, 10_800_000, 0, True, "10.8M nodes, endgame tables: the top"),
    )
}
#: The weakest level and the strongest.
MIN_LEVEL: Final = 1
MAX_LEVEL: Final = max(LEVELS)
