"""The rules of a game as data: the one contract the core, the engine and the tables follow.

A :class:`Rules` value says everything that makes one game of morris differ from another: the
variant (its name, the pieces each side has, the links between points, the mills, whether a full
board ends placing in a draw) and the settings a board is created with (flying, threefold
repetition, the no-removal limit). The core's :class:`~morris.core.board.Board` plays by it, the
engine's move generator, its C search and its endgame tables read the same value, and nothing else:
a rule that is not in a :class:`Rules` field does not exist for the engine. The variants and their
names are registered in :mod:`morris.core.variant`.

>>> STANDARD.pieces_per_side, len(STANDARD.mill_masks)
(9, 16)
>>> STANDARD.with_settings(flying=False, threefold_repetition=True, no_removal_limit=None)
Rules(name='standard', ..., flying=False, threefold_repetition=True, no_removal_limit=None)
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Final

from morris.core.moves import MorrisError
from morris.core.points import ALL_POINTS, MILL_MASKS, NEIGHBOURS, NUM_POINTS, points_of

__all__ = [
    "DEFAULT_NO_REMOVAL_LIMIT",
    "MAX_MILLS_THROUGH_A_POINT",
    "STANDARD",
    "InvalidRulesError",
    "Rules",
    "UnsupportedVariant",
]

#: The default of the no-removal draw rule: this many moving-phase turns without a removal.
DEFAULT_NO_REMOVAL_LIMIT: Final = 100
#: The most mills through one point the engine's C search has room for.
MAX_MILLS_THROUGH_A_POINT: Final = 4


class InvalidRulesError(MorrisError, ValueError):
    """A :class:`Rules` value that describes no playable game; the message names the field."""


class UnsupportedVariant(MorrisError, TypeError):
    """A board whose rules are not all in its :class:`Rules` (it overrides a rules method).

    The engine reads only the :class:`Rules` data, so it refuses such a board rather than search
    it by other rules than the board plays.
    """


@dataclass(frozen=True)
class Rules:
    """The rules of a game: the variant's data and the settings of the draw and flying rules.

    ``neighbours`` holds, for each of the 24 points, the bitboard of the points linked to it;
    ``mill_masks`` every mill (three points) as a bitboard; ``mills_through`` is derived from it.
    Raises :class:`InvalidRulesError` naming the field for tables no game can be played on.
    """

    #: The variant's name in game records, the configuration, the CLI and the engine protocol.
    name: str
    #: The variant's name in prose, e.g. "Nine men's morris".
    title: str
    #: A line for help texts: what sets the variant apart.
    summary: str
    #: Pieces each player starts with in hand.
    pieces_per_side: int
    #: For each point, the bitboard of its neighbours.
    neighbours: tuple[int, ...]
    #: Every mill as a bitboard.
    mill_masks: tuple[int, ...]
    #: Whether a full board at the end of placing is a draw (twelve men's morris).
    full_board_is_draw: bool = False
    #: Other names accepted for the variant (game records, options), lower case.
    aliases: tuple[str, ...] = ()
    #: A player with exactly three pieces on the board and none in hand moves to any empty point.
    flying: bool = True
    #: The third occurrence of a position is a draw.
    threefold_repetition: bool = True
    #: That many consecutive moving-phase turns without a removal is a draw (``None``: no limit).
    no_removal_limit: int | None = DEFAULT_NO_REMOVAL_LIMIT
    #: For each point, the mills through it (derived from :attr:`mill_masks`).
    mills_through: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._check()
        through = tuple(tuple(m for m in self.mill_masks if m >> p & 1) for p in range(NUM_POINTS))
        object.__setattr__(self, "mills_through", through)
        if max(len(mills) for mills in through) > MAX_MILLS_THROUGH_A_POINT:
            raise InvalidRulesError(
                f"rules {self.name!r}: mill_masks: more than {MAX_MILLS_THROUGH_A_POINT} mills "
                f"through one point"
            )

    def _check(self) -> None:
        """Raise :class:`InvalidRulesError` for a field no game can be played with."""
        where = f"rules {self.name!r}"
        if not self.name or self.name != self.name.strip().lower():
            raise InvalidRulesError(f"{where}: name must be lower case without spaces around")
        if not 3 <= self.pieces_per_side <= NUM_POINTS // 2:
            raise InvalidRulesError(
                f"{where}: pieces_per_side must be 3..{NUM_POINTS // 2}, not {self.pieces_per_side}"
            )
        if len(self.neighbours) != NUM_POINTS:
            raise InvalidRulesError(
                f"{where}: neighbours: {NUM_POINTS} masks expected, got {len(self.neighbours)}"
            )
        for p, mask in enumerate(self.neighbours):
            if mask & ~ALL_POINTS or mask >> p & 1:
                raise InvalidRulesError(f"{where}: neighbours[{p}] = {mask:#x} is not a link set")
            for q in points_of(mask):
                if not self.neighbours[q] >> p & 1:
                    raise InvalidRulesError(f"{where}: neighbours: {p} links {q} but not back")
        for mask in self.mill_masks:
            if mask & ~ALL_POINTS or mask.bit_count() != 3:
                raise InvalidRulesError(f"{where}: mill_masks: {mask:#x} is not three points")
        if self.no_removal_limit is not None and self.no_removal_limit <= 0:
            raise InvalidRulesError(
                f"no_removal_limit must be positive or None, not {self.no_removal_limit}"
            )

    @property
    def names(self) -> tuple[str, ...]:
        """The name and the aliases."""
        return (self.name, *self.aliases)

    def with_settings(
        self, *, flying: bool, threefold_repetition: bool, no_removal_limit: int | None
    ) -> Rules:
        """The same variant with these settings (a board's keyword settings)."""
        return _with_settings(self, flying, threefold_repetition, no_removal_limit)

    def same_board(self, other: Rules) -> bool:
        """Whether ``other`` is played on the same links and mills (what endgame tables need)."""
        return self.neighbours == other.neighbours and self.mill_masks == other.mill_masks


@functools.lru_cache(maxsize=64)
def _with_settings(rules: Rules, flying: bool, threefold: bool, limit: int | None) -> Rules:
    # Cached: the engine asks a board for its rules on every search, and checking them is slower.
    return dataclasses.replace(
        rules, flying=flying, threefold_repetition=threefold, no_removal_limit=limit
    )


#: Nine men's morris, the standard game (RULES.md): nine pieces each, 16 mills, no diagonals.
STANDARD: Final = Rules(
    name="standard",
    title="Nine men's morris",
    summary="nine men's morris",
    pieces_per_side=9,
    neighbours=NEIGHBOURS,
    mill_masks=MILL_MASKS,
    aliases=("nine", "nine-mens-morris"),
)
