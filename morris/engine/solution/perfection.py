"""Perfection, measured: the engine plays sampled positions of the solution against the
solution's best defence under the real draw rules (threefold repetition, 100 turns without a
removal). From a won position it must win, from a drawn one it must not lose. Shared by
tests/solution/test_perfection.py and ``benchmarks/bench_perfection.py``."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from morris.core.board import Board
from morris.core.moves import Move
from morris.engine.solution.analyse import board_class, turn_values
from morris.engine.solution.probe import Solution, preference, result_of
from morris.engine.solution.sectors import SectorKey
from morris.engine.solution.turns import index_of_key
from morris.engine.tables.keys import MIN_PIECES, Value

#: The most turns a game of the measure lasts (the no-removal limit ends it long before).
MAX_TURNS = 400


def position_text(key: SectorKey, mover: int, other: int) -> str:
    """The position text of the entry (``mover``, ``other``) of sector ``key`` (white to move in
    a moving-phase sector)."""
    white_to_move = key.white_to_move is not False
    white, black = (mover, other) if white_to_move else (other, mover)
    hands = (key.mover_hand, key.other_hand) if white_to_move else (key.other_hand, key.mover_hand)
    cells = []
    for p in range(24):
        cells.append("W" if white >> p & 1 else "B" if black >> p & 1 else ".")
        if p in (7, 15):
            cells.append("/")
    return f"{''.join(cells)} {'w' if white_to_move else 'b'} {hands[0]} {hands[1]} 0 1 -"


def sector_kind(key: SectorKey) -> str:
    """``placing``, ``flying`` (a side with three pieces moves anywhere) or ``moving``."""
    if key.placing:
        return "placing"
    return "flying" if MIN_PIECES in (key.mover_on, key.other_on) else "moving"


@dataclass(frozen=True)
class Sample:
    """One sampled position: its sector, entry, value for the side to move and text."""

    key: SectorKey
    entry: int
    value: Value
    position: str


def sample_positions(
    solution: Solution, per_sector: int, rng: np.random.Generator
) -> Iterator[Sample]:
    """Up to ``per_sector`` won and as many drawn positions of every loaded sector, drawn by
    ``rng`` without repetition."""
    for key in solution.keys:
        codes = np.asarray(solution.data(key).dist)
        for value, pool in (
            (Value.WIN, np.flatnonzero((codes > 0) & (codes % 2 == 0))),
            (Value.DRAW, np.flatnonzero(codes == 0)),
        ):
            if pool.size == 0:
                continue
            picked = rng.choice(pool, size=min(per_sector, pool.size), replace=False)
            movers, others = index_of_key(key).decode(picked.astype(np.int64))
            for i, m, o in zip(picked, movers, others, strict=True):
                assert result_of(int(codes[i])).value is value
                yield Sample(key, int(i), value, position_text(key, int(m), int(o)))


def best_defence(solution: Solution, board: Board, rng: random.Random) -> Move:
    """A turn of the best value (the fastest win, a draw, the slowest loss) for the side to
    move, ties broken by ``rng``."""
    scored = [(m, r) for m, r in turn_values(solution, board) if r is not None]
    best = max(preference(r) for _, r in scored)
    return rng.choice([m for m, r in scored if preference(r) == best])


def play_out(solution: Solution, men: int, position: str, level: int, seed: int) -> str:
    """The engine at ``level`` (the side to move) against the solution's best defence from
    ``position`` under the real draw rules: ``"engine"``, ``"defender"`` (the winner) or
    ``"draw"``."""
    from morris.engine.search import Engine

    board = board_class(men)(position)  # the draw rules on
    engine_side = board.turn
    engine = Engine(level, seed=seed, solution=solution)
    rng = random.Random(seed)
    for _ in range(MAX_TURNS):
        if board.outcome() is not None:
            break
        if board.turn == engine_side:
            board.push(engine.play(board).move)
        else:
            board.push(best_defence(solution, board, rng))
    outcome = board.outcome()
    if outcome is None or outcome.winner is None:
        return "draw"
    return "engine" if outcome.winner == engine_side else "defender"


__all__ = [
    "MAX_TURNS",
    "Sample",
    "best_defence",
    "play_out",
    "position_text",
    "sample_positions",
    "sector_kind",
]
