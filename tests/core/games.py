"""Helpers shared by the core tests: the strong games and random games."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from morris.core import Board, Termination

#: The test data kept in the repository.
DATA_DIR = Path(__file__).parents[1] / "data"

#: The strong games (see ``test_replay.py`` for where they came from and their checksum).
STRONG_GAMES_FILE = "strong-games.txt"

#: The termination names of the games file (``n-move`` is the no-removal draw).
FILE_TERMINATIONS = {
    "blocked": Termination.BLOCKED,
    "too-few-pieces": Termination.TOO_FEW_PIECES,
    "n-move": Termination.NO_REMOVAL,
    "threefold-repetition": Termination.THREEFOLD_REPETITION,
}


@dataclass(frozen=True)
class StrongGame:
    """One line of the games file."""

    lineno: int
    result: str
    termination: Termination
    turns: tuple[str, ...]


def parse_strong_games(text: str) -> list[StrongGame]:
    """The games of a games file: ``result [termination] turns...`` a line, ``#`` comments."""
    games = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        result, termination, *turns = line.split()
        games.append(
            StrongGame(lineno, result, FILE_TERMINATIONS[termination.strip("[]")], tuple(turns))
        )
    return games


def strong_games() -> list[StrongGame]:
    """The games of the copy in ``tests/data``."""
    return parse_strong_games((DATA_DIR / STRONG_GAMES_FILE).read_text(encoding="utf-8"))


def position_after(game: StrongGame, plies: int) -> Board:
    """The board after the first ``plies`` turns of ``game``."""
    board = Board()
    for text in game.turns[:plies]:
        board.push_notation(text)
    return board


def play_random_game(board: Board, rng: random.Random, max_plies: int = 5000) -> list[Board]:
    """Play random legal turns on ``board`` until the game ends; return a copy after each turn.

    Raises AssertionError if the game has not ended after ``max_plies`` turns.
    """
    boards: list[Board] = []
    for _ in range(max_plies):
        moves = list(board.legal_moves)
        if not moves:
            return boards
        board.push(rng.choice(moves))
        boards.append(board.copy())
    raise AssertionError(f"no end after {max_plies} turns: {board.position()}")


def make_board(
    white: str = "",
    black: str = "",
    *,
    turn: str = "w",
    hands: tuple[int, int] = (0, 0),
    no_removal_count: int = 0,
    board_class: type[Board] = Board,
    **settings: bool | int | None,
) -> Board:
    """A board with white and black on the points named (space-separated), via a position string."""
    from morris.core import POINT_NAMES

    white_points, black_points = set(white.split()), set(black.split())
    assert white_points.isdisjoint(black_points)
    assert white_points | black_points <= set(POINT_NAMES)
    cells = ["W" if n in white_points else "B" if n in black_points else "." for n in POINT_NAMES]
    rings = "/".join("".join(cells[i : i + 8]) for i in range(0, 24, 8))
    text = f"{rings} {turn} {hands[0]} {hands[1]} {no_removal_count} 20 -"
    return board_class.from_position(text, **settings)
