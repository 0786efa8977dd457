"""Counting the leaves of the turn tree, for verifying move generation and for benchmarks.

It counts by the rules of the board it is given, so it serves every variant and setting:

>>> from morris.core.board import Board
>>> perft(Board(), 2)
552
>>> from morris.core.variant import LaskerMorris, SixMensMorris
>>> perft(SixMensMorris(), 2), perft(LaskerMorris(), 3)
(240, 13552)
"""

from __future__ import annotations

from morris.core.board import Board


def perft(board: Board, depth: int) -> int:
    """The number of turn sequences of length ``depth`` from ``board`` (a game that ends stops
    its branch: a finished game has no legal turns). The board is left as it was."""
    if depth < 0:
        raise ValueError(f"depth must be at least 0, not {depth}")
    if depth == 0:
        return 1
    if depth == 1:
        return sum(1 for _ in board.generate_legal_moves())
    total = 0
    for move in list(board.generate_legal_moves()):
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total
