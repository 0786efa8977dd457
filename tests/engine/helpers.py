"""Positions for the engine tests, written as point lists rather than position strings."""

from __future__ import annotations

from morris import POINT_NAMES, Board, parse_point


def position(
    white: str,
    black: str,
    *,
    turn: str = "w",
    white_hand: int = 0,
    black_hand: int = 0,
    no_removal: int = 0,
    **settings: bool | int | None,
) -> Board:
    """A board with white and black on the named points (space-separated), no history."""
    cells = ["."] * 24
    for name in white.split():
        cells[parse_point(name)] = "W"
    for name in black.split():
        cells[parse_point(name)] = "B"
    rings = "/".join("".join(cells[r * 8 : r * 8 + 8]) for r in range(3))
    text = f"{rings} {turn} {white_hand} {black_hand} {no_removal} 1 -"
    return Board(text, **settings)  # type: ignore[arg-type]


assert len(POINT_NAMES) == 24
