"""Positions for the engine tests, written as point lists rather than position strings."""

from __future__ import annotations

import random

from morris import POINT_NAMES, Board, parse_point
from morris.engine.tables import EndgameTables
from morris.engine.uci import UciServer


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


def sampled_position(rng: random.Random, white: int, black: int, **kwargs: object) -> Board:
    """A board with ``white`` and ``black`` pieces on points drawn with ``rng`` (moving phase);
    ``kwargs`` as for :func:`position`."""
    points = rng.sample(range(24), white + black)
    return position(
        " ".join(POINT_NAMES[p] for p in points[:white]),
        " ".join(POINT_NAMES[p] for p in points[white:]),
        **kwargs,  # type: ignore[arg-type]
    )


def random_board(seed: int, plies: int, cls: type[Board] = Board, **settings: object) -> Board:
    """A board of ``cls`` (with the keyword ``settings``) after ``plies`` random turns from the
    start, fewer if the game ends first."""
    rng = random.Random(seed)
    board = cls(**settings)  # type: ignore[arg-type]
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


class Conversation:
    """A protocol server with a scripted transport: ``send`` lines, read the answers."""

    def __init__(self, tables: EndgameTables | None = None) -> None:
        self.lines: list[str] = []
        self.server = UciServer(self.lines.append, tables=tables)

    def send(self, *lines: str) -> list[str]:
        start = len(self.lines)
        for line in lines:
            self.server.handle(line)
        self.server.wait()
        return self.lines[start:]


assert len(POINT_NAMES) == 24
