"""A brute-force search written from RULES.md on the rules core's Board, independent of the
solver's array code: the exact result of a position when the game is decided within ``depth``
turns, else None."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import cache

from morris.core.board import Board
from morris.core.rules import STANDARD

Result = tuple[str, int]  # ("win" | "loss", turns)


@cache
def men_board(men: int) -> type[Board]:
    """A board class with ``men`` pieces a side (its own, not the analysis module's)."""
    if men == 9:
        return Board
    rules = dataclasses.replace(STANDARD, name=f"brute{men}", aliases=(), pieces_per_side=men)
    return type(f"Brute{men}", (Board,), {"variant": rules})


def board_of(
    men: int, white: int, black: int, hands: tuple[int, int], white_to_move: bool
) -> Board:
    """A board with this position and no draw rules."""
    cells = []
    for p in range(24):
        cells.append("W" if white >> p & 1 else "B" if black >> p & 1 else ".")
        if p in (7, 15):
            cells.append("/")
    text = f"{''.join(cells)} {'w' if white_to_move else 'b'} {hands[0]} {hands[1]} 0 1 -"
    return men_board(men)(text, threefold_repetition=False, no_removal_limit=None)


def decided(board: Board, depth: int) -> Result | None:
    """The result for the side to move if it is decided within ``depth`` turns, else None."""
    return _search(board, depth, None)


def removal_decided(
    board: Board, depth: int, after_removal: Callable[[Board], str]
) -> Result | None:
    """The distance to the next removal for the side to move, the winner hurrying to a removal
    that keeps the win and the loser delaying, if it is decided within ``depth`` turns (a
    removal's result is ``after_removal`` of the position it leaves: "win", "loss" or "draw" for
    the side to move there); else None."""
    return _search(board, depth, after_removal)


def _search(
    board: Board, depth: int, after_removal: Callable[[Board], str] | None
) -> Result | None:
    """Minimax to ``depth`` turns: to the end of the game, or (``after_removal``) to the next
    removal."""
    if board.outcome() is not None:
        return ("loss", 0)  # the side to move is blocked or down to two pieces
    if depth == 0:
        return None
    fastest_win: int | None = None
    slowest_loss = 0
    open_line = False  # a turn that neither wins nor is known to lose
    for move in list(board.legal_moves):
        board.push(move)
        if move.remove is None or after_removal is None:
            child = _search(board, depth - 1, after_removal)
        elif board.outcome() is not None:
            child = ("loss", 0)
        else:
            value = after_removal(board)
            child = None if value == "draw" else ("loss", 0) if value == "loss" else ("win", 1)
        board.pop()
        if child is None:
            open_line = True
        elif child[0] == "loss":
            fastest_win = child[1] + 1 if fastest_win is None else min(fastest_win, child[1] + 1)
        else:
            slowest_loss = max(slowest_loss, child[1] + 1)
    if fastest_win is not None:
        return ("win", fastest_win)
    if open_line:
        return None
    return ("loss", slowest_loss)
