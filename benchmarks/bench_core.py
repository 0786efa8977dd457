"""Speed of the rules core: legal-move generation, push/pop, perft(5).

Run as ``python benchmarks/bench_core.py``. The positions come from the strong games of
``tests/data/strong-games.txt``: the start, the middle of placing, the middle of
the moving phase, and a flying endgame.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from morris.core import Board, Move, perft  # noqa: E402

GAMES_FILES = (REPO / "tests" / "data" / "strong-games.txt",)


def strong_games() -> list[list[str]]:
    """The turns of each game of the strong games file."""
    path = next(p for p in GAMES_FILES if p.exists())
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.split()[2:] for line in lines if line.strip() and not line.startswith("#")]


def after(turns: list[str], plies: int) -> Board:
    board = Board()
    for text in turns[:plies]:
        board.push_notation(text)
    return board


def positions() -> dict[str, Board]:
    """The fixed benchmark positions."""
    games = strong_games()
    flying = next(
        board
        for turns in games
        for plies in range(len(turns))
        if (board := after(turns, plies)).can_fly(board.turn) and board.outcome() is None
    )
    return {
        "start": Board(),
        "mid-placing": after(games[0], 9),
        "moving middle game": after(games[6], 60),
        "flying endgame": flying,
    }


def rate(function: Callable[[], int], seconds: float = 1.0) -> float:
    """Units per second of ``function`` (which returns how many units it did), best of three."""
    best = 0.0
    for _ in range(3):
        done, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / 3:
            done += function()
        best = max(best, done / elapsed)
    return best


def main() -> None:
    boards = positions()
    header = f"{'position':<20} {'moves':>5} {'legal_moves/s':>14} {'generate/s':>12}"
    print(f"{header} {'push+pop/s':>12}")
    for name, board in boards.items():
        moves = list(board.legal_moves)

        def legal(board: Board = board) -> int:
            list(board.legal_moves)
            return 1

        def generate(board: Board = board) -> int:
            list(board.generate_moves())
            return 1

        def push_pop(board: Board = board, moves: list[Move] = moves) -> int:
            push, pop = board.push, board.pop
            for move in moves:
                push(move)
                pop()
            return len(moves)

        print(
            f"{name:<20} {len(moves):>5} {rate(legal):>14,.0f} {rate(generate):>12,.0f} "
            f"{rate(push_pop):>12,.0f}"
        )
    start = time.perf_counter()
    nodes = perft(Board(), 5)
    elapsed = time.perf_counter() - start
    print(f"perft(5) = {nodes:,} in {elapsed:.2f} s ({nodes / elapsed:,.0f} leaves/s)")


if __name__ == "__main__":
    main()
