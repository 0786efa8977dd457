"""Things that pick a move: the :class:`Player` protocol and two simple players for the ladder.

The in-process :class:`~morris.engine.engine.Engine`, the external-engine client
:class:`~morris.engine.client.UciEngine`, :class:`RandomPlayer` and :class:`GreedyPlayer` all have
the same ``play()``, so the daemon and ``morris match`` can use any of them.

>>> from morris import Board
>>> GreedyPlayer(seed=1).play(Board()).move in Board().legal_moves
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from morris.core.board import Board
from morris.core.moves import Move
from morris.engine.engine import SearchInfo, SearchResult


class Player(Protocol):
    """Something that picks a turn for the side to move."""

    @property
    def name(self) -> str:
        """A name for game records and match tables."""
        ...

    def play(
        self,
        board: Board,
        *,
        movetime: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        stop: Callable[[], bool] | None = None,
        info: Callable[[SearchInfo], None] | None = None,
    ) -> SearchResult:
        """The turn to play on ``board`` (not changed). Raises ValueError if the game is over."""
        ...


def _legal(board: Board) -> list[Move]:
    moves = list(board.generate_legal_moves())
    if not moves:
        outcome = board.outcome()
        reason = outcome.termination.value if outcome is not None else "no legal move"
        raise ValueError(f"the game is over ({reason}): no move in {board.position()}")
    return moves


class RandomPlayer:
    """Plays a uniformly random legal turn; its own random stream is seeded."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    @property
    def name(self) -> str:
        """``"random"``."""
        return "random"

    def play(
        self,
        board: Board,
        *,
        movetime: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        stop: Callable[[], bool] | None = None,
        info: Callable[[SearchInfo], None] | None = None,
    ) -> SearchResult:
        """A random legal turn."""
        move = self._rng.choice(_legal(board))
        return SearchResult(move, 0, 0, 0, [move], 0.0)


class GreedyPlayer:
    """Looks one turn ahead: closes a mill when it can (removing the piece that most hurts the
    opponent), otherwise blocks the opponent's mills and never hands over an immediate mill if it
    can avoid it. Ties are broken with a seeded random stream."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    @property
    def name(self) -> str:
        """``"greedy"``."""
        return "greedy"

    @staticmethod
    def _mill_chances(board: Board) -> int:
        """How many turns of the side to move close a mill (its removal choices counted once)."""
        return len(
            {(m.from_point, m.to_point) for m in board.generate_moves() if m.remove is not None}
        )

    def play(
        self,
        board: Board,
        *,
        movetime: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        stop: Callable[[], bool] | None = None,
        info: Callable[[SearchInfo], None] | None = None,
    ) -> SearchResult:
        """The greedy turn."""
        moves = _legal(board)
        work = board.copy()
        scored: list[tuple[int, Move]] = []
        for move in moves:
            work.push(move)
            outcome = work.outcome()
            if outcome is not None and outcome.winner is not None:
                score = 10_000  # the turn wins the game
            else:
                score = 100 if move.remove is not None else 0
                score -= 60 * self._mill_chances(work)  # the opponent's mills next turn
            work.pop()
            scored.append((score, move))
        best = max(s for s, _ in scored)
        move = self._rng.choice([m for s, m in scored if s == best])
        return SearchResult(move, best, 1, len(moves), [move], 0.0)
