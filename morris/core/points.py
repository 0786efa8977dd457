"""The 24 points of the board, their links and their mills, computed once at import.

Points are small ints, ``Point = int`` in ``0..23``, numbered ring by ring the way a 3x8 sensor
matrix is wired: ``index = ring * 8 + position``. Ring 0 is the outer square, 1 the middle, 2 the
inner; positions run clockwise from the top-left corner, so even positions are corners and odd
positions are midpoints::

    0 a7 --------- 1 d7 --------- 2 g7        ring 0: a7 d7 g7 g4 g1 d1 a1 a4
    |   8 b6 ----- 9 d6 ---- 10 f6  |        ring 1: b6 d6 f6 f4 f2 d2 b2 b4
    |   |  16 c5 17 d5 18 e5  |     |        ring 2: c5 d5 e5 e4 e3 d3 c3 c4
    7 a4 15 b4 23 c4    19 e4 11 f4 3 g4
    ...

This numbering makes the board's symmetries plain arithmetic (a quarter turn adds 2 to the
position, swapping the inner and outer ring maps ring r to 2 - r), which the engine's tables use.

>>> parse_point("d6")
9
>>> POINT_NAMES[9]
'd6'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

Point = int

NUM_POINTS: Final = 24
ALL_POINTS: Final = (1 << NUM_POINTS) - 1

POINT_NAMES: Final[tuple[str, ...]] = (
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4",
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4",
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4",
)  # fmt: skip

_POINT_BY_NAME: Final[dict[str, Point]] = {name: i for i, name in enumerate(POINT_NAMES)}

POINTS: Final[tuple[Point, ...]] = tuple(range(NUM_POINTS))


def parse_point(name: str) -> Point:
    """Return the point named ``name`` (``"a1"`` .. ``"g7"``, case-insensitive).

    Raises :class:`ValueError` for a name that is not one of the 24 points.
    """
    try:
        return _POINT_BY_NAME[name.strip().lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"not a point of the board: {name!r}") from None


def point_name(point: Point) -> str:
    """Return the name of ``point`` (``9`` -> ``"d6"``)."""
    return POINT_NAMES[point]


def ring_of(point: Point) -> int:
    """0 for the outer square, 1 for the middle, 2 for the inner."""
    return point >> 3


def position_of(point: Point) -> int:
    """0..7 clockwise from the top-left corner of the point's square."""
    return point & 7


def bit(point: Point) -> int:
    """The bitboard with only ``point`` set."""
    return 1 << point


def points_of(mask: int) -> list[Point]:
    """The points set in the bitboard ``mask``, in ascending order.

    >>> points_of(0b1010)
    [1, 3]
    """
    out: list[Point] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def names_of(mask: int) -> list[str]:
    """The names of the points set in the bitboard ``mask``, in point order.

    >>> names_of(0b11)
    ['a7', 'd7']
    """
    return [POINT_NAMES[p] for p in points_of(mask)]


def mask_of(points: Iterable[Point | str]) -> int:
    """The bitboard of ``points``, given as ints or names (a sensor snapshot, say).

    Raises :class:`ValueError` for a name or number that is not a point.

    >>> mask_of(["a7", "d7"]) == mask_of([0, 1]) == 0b11
    True
    """
    mask = 0
    for point in points:
        if isinstance(point, str):
            point = parse_point(point)
        elif not 0 <= point < NUM_POINTS:
            raise ValueError(f"not a point of the board: {point!r}")
        mask |= 1 << point
    return mask


def _links(diagonals: bool) -> tuple[tuple[Point, Point], ...]:
    links: list[tuple[Point, Point]] = []
    for ring in range(3):
        for pos in range(8):
            links.append((ring * 8 + pos, ring * 8 + (pos + 1) % 8))
    cross_positions = range(8) if diagonals else range(1, 8, 2)
    for pos in cross_positions:
        for ring in range(2):
            links.append((ring * 8 + pos, (ring + 1) * 8 + pos))
    return tuple(links)


def _mills(diagonals: bool) -> tuple[tuple[Point, Point, Point], ...]:
    mills: list[tuple[Point, Point, Point]] = []
    for ring in range(3):
        for pos in range(0, 8, 2):
            mills.append((ring * 8 + pos, ring * 8 + pos + 1, ring * 8 + (pos + 2) % 8))
    cross_positions = range(8) if diagonals else range(1, 8, 2)
    for pos in cross_positions:
        mills.append((pos, 8 + pos, 16 + pos))
    return tuple(mills)


def _neighbour_masks(links: tuple[tuple[Point, Point], ...]) -> tuple[int, ...]:
    masks = [0] * NUM_POINTS
    for a, b in links:
        masks[a] |= 1 << b
        masks[b] |= 1 << a
    return tuple(masks)


def _mill_masks(mills: tuple[tuple[Point, Point, Point], ...]) -> tuple[int, ...]:
    return tuple((1 << a) | (1 << b) | (1 << c) for a, b, c in mills)


def _mills_through(mill_masks: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(m for m in mill_masks if m >> p & 1) for p in range(NUM_POINTS))


#: The 32 links of the standard board, as point pairs.
LINKS: Final = _links(diagonals=False)
#: The 16 mills of the standard board, as point triples.
MILLS: Final = _mills(diagonals=False)
#: For each point, the bitboard of its neighbours on the standard board.
NEIGHBOURS: Final = _neighbour_masks(LINKS)
#: Each mill as a bitboard.
MILL_MASKS: Final = _mill_masks(MILLS)
#: For each point, the bitboards of the mills through it (two on the standard board).
MILLS_THROUGH: Final = _mills_through(MILL_MASKS)

#: The same tables with the four diagonal corner links of twelve men's morris and morabaraba.
DIAGONAL_LINKS: Final = _links(diagonals=True)
DIAGONAL_MILLS: Final = _mills(diagonals=True)
DIAGONAL_NEIGHBOURS: Final = _neighbour_masks(DIAGONAL_LINKS)
DIAGONAL_MILL_MASKS: Final = _mill_masks(DIAGONAL_MILLS)
DIAGONAL_MILLS_THROUGH: Final = _mills_through(DIAGONAL_MILL_MASKS)

#: Six men's morris: the middle and inner squares only (points 8..23, 16 points).
SIX_POINTS: Final = ALL_POINTS & ~0xFF
#: Its 20 links: the sides of the two squares and the four cross links between them.
SIX_LINKS: Final = tuple((a, b) for a, b in LINKS if SIX_POINTS >> a & 1 and SIX_POINTS >> b & 1)
#: Its 8 mills: the sides of the two squares (a cross line has only two points left).
SIX_MILLS: Final = tuple(m for m in MILLS if all(SIX_POINTS >> p & 1 for p in m))
SIX_NEIGHBOURS: Final = _neighbour_masks(SIX_LINKS)
SIX_MILL_MASKS: Final = _mill_masks(SIX_MILLS)

assert len(LINKS) == 32 and len(MILLS) == 16
assert len(SIX_LINKS) == 20 and len(SIX_MILLS) == 8
assert len(DIAGONAL_LINKS) == 40 and len(DIAGONAL_MILLS) == 20
