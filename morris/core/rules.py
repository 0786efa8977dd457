"""The rules of a game as data: the one contract the core, the engine and the tables follow.

A :class:`Rules` value says everything that makes one game of morris differ from another: the
variant (its name, the pieces each side has, the points in play, the links between points, the
mills, whether a full board ends placing in a draw, whether a piece may move while others are in
hand, whether a mill may not be remade at once by going back) and the settings a board is created
with (flying, threefold repetition, the no-removal limit, removal from mills, a double mill removing
two). A variant's rules carry its defaults of the settings (six men's morris: no flying). The
core's :class:`~morris.core.board.Board` plays by it, the engine's move generator, its C search
and its endgame tables read the same value, and nothing else:
a rule that is not in a :class:`Rules` field does not exist for the engine. The variants and their
names are registered in :mod:`morris.core.variant`.

>>> STANDARD.pieces_per_side, len(STANDARD.mill_masks)
(9, 16)
>>> STANDARD.with_settings(flying=False, no_removal_limit=None)
Rules(name='standard', ..., flying=False, threefold_repetition=True, no_removal_limit=None, ...)
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Final

from morris.core.moves import MorrisError
from morris.core.points import ALL_POINTS, MILL_MASKS, NEIGHBOURS, NUM_POINTS, points_of

#: The names of the settings: the fields a board's keywords (and ``with_settings``) may change.
SETTING_NAMES: Final = (
    "flying",
    "threefold_repetition",
    "no_removal_limit",
    "remove_from_mills",
    "double_mill_removes_two",
)

__all__ = [
    "DEFAULT_NO_REMOVAL_LIMIT",
    "KEEP",
    "MAX_MILLS_THROUGH_A_POINT",
    "SETTING_NAMES",
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


class _Keep:
    """The type of :data:`KEEP`: "leave this setting as it is" where ``None`` means "off"."""

    def __repr__(self) -> str:
        return "KEEP"


#: Passed as ``no_removal_limit`` to :meth:`Rules.with_settings`: keep the limit as it is.
KEEP: Final = _Keep()


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
    #: The bitboard of the points the game is played on (six men's morris: the middle and inner
    #: squares, 16 points). A piece may stand only there; links and mills lie only there.
    points_in_play: int = ALL_POINTS
    #: A player with pieces in hand may, instead of placing one, slide a piece on the board to a
    #: neighbouring empty point (Lasker morris). Flying still needs an empty hand.
    move_while_placing: bool = False
    #: Morabaraba's rule: a piece that left a mill and closed another mill with the same move may
    #: not, on its owner's very next turn, go back to the point it came from if that closes a mill.
    return_mill_barred: bool = False
    #: A player with exactly three pieces on the board and none in hand moves to any empty point.
    flying: bool = True
    #: The third occurrence of a position is a draw.
    threefold_repetition: bool = True
    #: That many consecutive moving-phase turns without a removal is a draw (``None``: no limit).
    no_removal_limit: int | None = DEFAULT_NO_REMOVAL_LIMIT
    #: A piece standing in a mill may be removed even when the opponent has pieces outside mills.
    remove_from_mills: bool = False
    #: A turn closing two (or more) mills at once removes two pieces (if the opponent has two).
    double_mill_removes_two: bool = False
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
        play = self.points_in_play
        if not 0 < play <= ALL_POINTS:
            raise InvalidRulesError(f"{where}: points_in_play: {play:#x} is not a set of points")
        if not 3 <= self.pieces_per_side <= play.bit_count() // 2:
            raise InvalidRulesError(
                f"{where}: pieces_per_side {self.pieces_per_side} do not fit on "
                f"{play.bit_count()} points in play"
            )
        if len(self.neighbours) != NUM_POINTS:
            raise InvalidRulesError(
                f"{where}: neighbours: {NUM_POINTS} masks expected, got {len(self.neighbours)}"
            )
        for p, mask in enumerate(self.neighbours):
            if mask & ~ALL_POINTS or mask >> p & 1:
                raise InvalidRulesError(f"{where}: neighbours[{p}] = {mask:#x} is not a link set")
            if mask & ~play or (mask and not play >> p & 1):
                raise InvalidRulesError(f"{where}: neighbours[{p}] links a point not in play")
            for q in points_of(mask):
                if not self.neighbours[q] >> p & 1:
                    raise InvalidRulesError(f"{where}: neighbours: {p} links {q} but not back")
        for mask in self.mill_masks:
            if mask & ~ALL_POINTS or mask.bit_count() != 3:
                raise InvalidRulesError(f"{where}: mill_masks: {mask:#x} is not three points")
            if mask & ~play:
                raise InvalidRulesError(f"{where}: mill_masks: {mask:#x} has a point not in play")
        if self.no_removal_limit is not None and self.no_removal_limit <= 0:
            raise InvalidRulesError(
                f"no_removal_limit must be positive or None, not {self.no_removal_limit}"
            )

    @property
    def names(self) -> tuple[str, ...]:
        """The name and the aliases."""
        return (self.name, *self.aliases)

    @property
    def settings(self) -> dict[str, bool | int | None]:
        """The settings of these rules by name (:data:`SETTING_NAMES`)."""
        return {name: getattr(self, name) for name in SETTING_NAMES}

    def with_settings(
        self,
        *,
        flying: bool | None = None,
        threefold_repetition: bool | None = None,
        no_removal_limit: int | _Keep | None = KEEP,
        remove_from_mills: bool | None = None,
        double_mill_removes_two: bool | None = None,
    ) -> Rules:
        """The same variant with these settings (a board's keyword settings).

        A setting not given (``None``) keeps its value; ``no_removal_limit=None`` switches the
        limit off, so leaving it as it is takes :data:`KEEP`.
        """
        return _with_settings(
            self,
            self.flying if flying is None else flying,
            self.threefold_repetition if threefold_repetition is None else threefold_repetition,
            self.no_removal_limit if isinstance(no_removal_limit, _Keep) else no_removal_limit,
            self.remove_from_mills if remove_from_mills is None else remove_from_mills,
            self.double_mill_removes_two
            if double_mill_removes_two is None
            else double_mill_removes_two,
        )

    def same_board(self, other: Rules) -> bool:
        """Whether ``other`` is played on the same links and mills (what endgame tables need)."""
        return self.neighbours == other.neighbours and self.mill_masks == other.mill_masks


@functools.lru_cache(maxsize=256)
def _with_settings(
    rules: Rules, flying: bool, threefold: bool, limit: int | None, from_mills: bool, double: bool
) -> Rules:
    # Cached: the engine asks a board for its rules on every search, and checking them is slower.
    return dataclasses.replace(
        rules,
        flying=flying,
        threefold_repetition=threefold,
        no_removal_limit=limit,
        remove_from_mills=from_mills,
        double_mill_removes_two=double,
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
