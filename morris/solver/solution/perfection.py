"""Perfection, measured: the engine plays sampled positions of the solution against the
solution's best defence under the real draw rules (threefold repetition, 100 turns without a
removal; from a lost position the defence delays the next removal, which the rule rewards).
From a won position it must win, from a drawn one it must not lose. Shared by
tests/solver/test_perfection.py and ``benchmarks/bench_perfection.py``."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from morris.core.board import Board
from morris.core.moves import Move
from morris.core.rules import DEFAULT_NO_REMOVAL_LIMIT
from morris.engine.result import Value, result_of
from morris.engine.solution.analyse import board_class, position_text, turn_values
from morris.engine.solution.play import scored_turns, turn_removal_distance
from morris.engine.solution.probe import Solution
from morris.engine.solution.removals import rule_decided
from morris.engine.solution.sectors import SectorKey
from morris.engine.solution.symmetry import index_of_key
from morris.engine.tables.keys import MIN_PIECES

#: The most turns a game of the measure lasts (the no-removal limit ends it long before).
MAX_TURNS = 400


def sector_kind(key: SectorKey) -> str:
    """``placing``, ``flying`` (a side with three pieces moves anywhere) or ``moving``."""
    if key.placing:
        return "placing"
    return "flying" if MIN_PIECES in (key.mover_on, key.other_on) else "moving"


@dataclass(frozen=True)
class Sample:
    """One sampled position: its sector, entry, value for the side to move (under the
    no-removal rule where the removal distances say: ``rule_drawn`` marks a win of the solution
    that the rule draws) and text."""

    key: SectorKey
    entry: int
    value: Value
    position: str
    rule_drawn: bool = False


def sample_positions(
    solution: Solution, per_sector: int, rng: np.random.Generator
) -> Iterator[Sample]:
    """Up to ``per_sector`` won and as many drawn positions of every loaded sector, drawn by
    ``rng`` without repetition; in a sector with a removal file (a moving-phase sector's removal
    distances, a placing sector's values under the rule) the won ones are those won within the
    rule from a count of 0, and up to ``per_sector`` wins of the solution that the rule draws
    are drawn positions too (``rule_drawn``)."""
    for key in solution.keys:
        # Decoded here, not kept by the solution: 9 men's sectors are tens of gigabytes.
        codes = solution.data(key).dist_section.decode_all()
        won = (codes > 0) & (codes % 2 == 0)
        pools = [(Value.WIN, won, False), (Value.DRAW, codes == 0, False)]
        removals = solution.removal_data(key)
        if removals is not None:  # a placing sector's values under the rule, or distances
            rule = removals.section.decode_all()
            within = rule_decided(key, rule, removals.info.limit) & (rule % 2 == 0)  # wins
            pools = [(Value.WIN, within, False), pools[1], (Value.DRAW, won & ~within, True)]
        for value, where, rule_drawn in pools:
            pool = np.flatnonzero(where)
            if pool.size == 0:
                continue
            picked = rng.choice(pool, size=min(per_sector, pool.size), replace=False)
            movers, others = index_of_key(key).decode(picked.astype(np.int64))
            for i, m, o in zip(picked, movers, others, strict=True):
                assert rule_drawn or result_of(int(codes[i])).value is value
                text = position_text(key, int(m), int(o))
                yield Sample(key, int(i), value, text, rule_drawn)


def best_defence(solution: Solution, board: Board, rng: random.Random) -> Move:
    """A turn of the best value for the side to move, ties broken by ``rng``: the fastest win,
    a draw; from a lost position the turn that puts the next removal furthest off where the
    removal distances are built (the defence that the no-removal rule rewards), the slowest
    loss among those, else the slowest loss."""
    scored = scored_turns(solution, board) or [
        (m, r) for m, r in turn_values(solution, board) if r is not None
    ]
    best = max(r.rank() for _, r in scored)
    if best[0] == 0 and board.no_removal_limit is not None:  # every turn loses
        delays = [(turn_removal_distance(solution, board, m), m, r) for m, r in scored]
        if all(d is not None for d, _, _ in delays):
            furthest = max(d or 0 for d, _, _ in delays)
            best = max(r.rank() for d, _, r in delays if d == furthest)
            return rng.choice([m for d, m, r in delays if d == furthest and r.rank() == best])
    return rng.choice([m for m, r in scored if r.rank() == best])


def play_out(
    solution: Solution,
    men: int,
    position: str,
    level: int,
    seed: int,
    *,
    no_removal_limit: int = DEFAULT_NO_REMOVAL_LIMIT,
) -> str:
    """The engine at ``level`` (the side to move) against the solution's best defence from
    ``position`` under the real draw rules (threefold repetition, ``no_removal_limit`` turns
    without a removal): ``"engine"``, ``"defender"`` (the winner) or ``"draw"``."""
    from morris.engine.engine import Engine

    board = board_class(men)(position, no_removal_limit=no_removal_limit)
    engine = Engine(level, seed=seed, solution=solution)
    rng = random.Random(seed)
    result = duel(board, lambda b: engine.play(b).move, lambda b: best_defence(solution, b, rng))
    return {"first": "engine", "second": "defender"}.get(result, result)


def duel(board: Board, first: Callable[[Board], Move], second: Callable[[Board], Move]) -> str:
    """Play ``board`` to its end (at most :data:`MAX_TURNS` turns), ``first`` choosing the turns
    of the side to move now and ``second`` the other's: ``"first"``, ``"second"`` (the winner)
    or ``"draw"``. The board is played on."""
    first_side = board.turn
    for _ in range(MAX_TURNS):
        if board.outcome() is not None:
            break
        board.push((first if board.turn == first_side else second)(board))
    outcome = board.outcome()
    if outcome is None or outcome.winner is None:
        return "draw"
    return "first" if outcome.winner == first_side else "second"


__all__ = [
    "MAX_TURNS",
    "Sample",
    "best_defence",
    "duel",
    "play_out",
    "sample_positions",
    "sector_kind",
]
