"""Variants: subclasses of :class:`~morris.core.board.Board` that change class-level settings.

Twelve men's morris is played on the same 24 points with the four diagonal corner lines added (each
line two links and one more mill) and twelve pieces a side; if the board is full when placing ends,
the game is a draw. Another relative on the same board, such as morabaraba, is a subclass that sets
its own tables and, where its rules differ, overrides the small hooks of ``Board``
(``generate_moves``, ``illegal_reason``, ``outcome``).

>>> board = TwelveMensMorris()
>>> board.pieces_in_hand(WHITE)
12
"""

from __future__ import annotations

from typing import ClassVar

from morris.core.board import WHITE, Board
from morris.core.points import DIAGONAL_MILL_MASKS, DIAGONAL_MILLS_THROUGH, DIAGONAL_NEIGHBOURS

__all__ = ["VARIANTS", "TwelveMensMorris", "find_variant"]
_ = WHITE  # used by the doctest above


class TwelveMensMorris(Board):
    """Twelve men's morris: 12 pieces, diagonal corner lines, a full board is a draw."""

    variant_name: ClassVar[str] = "twelve"
    pieces_per_side: ClassVar[int] = 12
    neighbours: ClassVar[tuple[int, ...]] = DIAGONAL_NEIGHBOURS
    mill_masks: ClassVar[tuple[int, ...]] = DIAGONAL_MILL_MASKS
    mills_through: ClassVar[tuple[tuple[int, ...], ...]] = DIAGONAL_MILLS_THROUGH
    full_board_is_draw: ClassVar[bool] = True


#: Variant classes by name, with the aliases accepted in game records and options.
VARIANTS: dict[str, type[Board]] = {
    "standard": Board,
    "nine": Board,
    "nine-mens-morris": Board,
    "twelve": TwelveMensMorris,
    "twelve-mens-morris": TwelveMensMorris,
}


def find_variant(name: str) -> type[Board]:
    """The board class of the variant ``name``. Raises :class:`ValueError` for an unknown one."""
    try:
        return VARIANTS[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted({cls.variant_name for cls in VARIANTS.values()}))
        raise ValueError(f"unknown variant {name!r} (known: {known})") from None
