"""The engine's playing levels: constants any layer may read without loading the search.

This module imports nothing but the standard library: the configuration, the saved games, the
controller and the command line read :data:`MIN_LEVEL` and :data:`MAX_LEVEL` from here without
loading the search, numpy or the C extension.

>>> MIN_LEVEL, MAX_LEVEL
(1, 9)
>>> LEVELS[5].description
'5 turns deep, a touch of randomness: the default'
>>> [LEVELS[n].slip for n in (1, 5, 6)]  # a person's slips, rarer as the level rises
[0.3, 0.03, 0.0]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["CAREFUL_LEVEL", "LEVELS", "MAX_DEPTH", "MAX_LEVEL", "MIN_LEVEL", "Level"]

#: The deepest the search goes, in turns (the C search has room for a few more plies).
MAX_DEPTH: Final = 64


@dataclass(frozen=True)
class Level:
    """A playing level: a search budget, randomness among near-best moves and a person's slips.

    ``depth`` and ``nodes`` bound the search (``None``: no bound from this side); ``margin`` (in
    centi-pieces) lets the engine pick at random, with its seed, among root moves scoring within
    that much of the best; ``slip`` is the chance per turn of a plain mistake (a mill missed, a
    threat overlooked, a corner taken: :mod:`morris.engine.slips`; where the solved game covers
    the position, a turn one value class worse); ``tables`` says whether the endgame tables are
    used.
    """

    number: int
    depth: int
    nodes: int | None
    margin: int
    slip: float
    tables: bool
    description: str


#: The levels, 1 (a beginner can win) to 9 (the full search with tables). Each must score clearly
#: above the one below: 1-5 by depth caps, slips and randomness, 6-9 by node budgets nine times
#: apart (three times the nodes buys only a few per cent in Morris; see docs/ENGINE.md).
LEVELS: Final[dict[int, Level]] = {
    lv.number: lv
    for lv in (
        Level(1, 2, None, 60, 0.3, False, "2 turns deep, often overlooks a mill or a threat"),
        Level(2, 2, None, 30, 0.2, False, "2 turns deep, now and then overlooks a mill"),
        Level(3, 3, 5_000, 20, 0.12, False, "3 turns deep, overlooks a mill now and then"),
        Level(4, 4, 10_000, 12, 0.06, False, "4 turns deep, seldom overlooks a mill"),
        Level(5, 5, 15_000, 6, 0.03, False, "5 turns deep, a touch of randomness: the default"),
        Level(6, MAX_DEPTH, 15_000, 0, 0.0, False, "15k nodes"),
        Level(7, MAX_DEPTH, 135_000, 0, 0.0, True, "135k nodes, endgame tables"),
        Level(8, MAX_DEPTH, 1_200_000, 0, 0.0, True, "1.2M nodes, endgame tables"),
        Level(9, MAX_DEPTH, 10_800_000, 0, 0.0, True, "10.8M nodes, endgame tables: the top"),
    )
}
#: From this level up a slip never hands the opponent a win at once; a beginner's may.
CAREFUL_LEVEL: Final = 3
#: The weakest level and the strongest.
MIN_LEVEL: Final = 1
MAX_LEVEL: Final = max(LEVELS)
