"""Playing for the win inside a draw: from a drawn position with several drawing turns, the top
levels play the one that leaves the opponent the largest share of losing replies, and still
never give the draw away."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from morris.core.board import Board
from morris.core.moves import Move
from morris.core.rules import DEFAULT_NO_REMOVAL_LIMIT
from morris.engine.engine import Engine
from morris.engine.result import Value
from morris.engine.solution import Solution
from morris.engine.solution.analyse import board_class
from morris.engine.solution.play import drawing_traps, scored_turns, trap_of
from morris.solver.solution.perfection import duel, sample_positions


@pytest.fixture(scope="module")
def solution(solved4: Path) -> Solution:
    """The solved 4 men's morris."""
    return Solution.load(solved4, 4)


def choices(solution: Solution, count: int) -> list[str]:
    """Drawn positions (seeded) whose drawing turns set different traps."""
    found = []
    for sample in sample_positions(solution, 6, np.random.default_rng(3)):
        if sample.value is not Value.DRAW or sample.rule_drawn:
            continue
        board = board_class(4)(sample.position, no_removal_limit=DEFAULT_NO_REMOVAL_LIMIT)
        turns = scored_turns(solution, board) or []
        draws = [m for m, r in turns if r.value is Value.DRAW]
        if len({trap_of(solution, board, m) for m in draws}) > 1:
            found.append(sample.position)
        if len(found) == count:
            break
    return found


def test_the_top_level_keeps_the_draw_with_the_most_losing_replies(solution: Solution) -> None:
    positions = choices(solution, 25)
    assert len(positions) == 25
    plain_below_best = 0
    for seed, position in enumerate(positions):
        board = board_class(4)(position, no_removal_limit=DEFAULT_NO_REMOVAL_LIMIT)
        turns = dict((str(m), r) for m, r in scored_turns(solution, board) or [])
        draws = [m for m, r in scored_turns(solution, board) or [] if r.value is Value.DRAW]
        traps = {str(m): trap_of(solution, board, m) for m in draws}
        best = max(t for t in traps.values() if t is not None)
        played = str(Engine(9, seed=seed, solution=solution).play(board).move)
        assert turns[played].value is Value.DRAW
        assert traps[played] == best
        plain = str(Engine(9, seed=seed, solution=solution, traps=False).play(board).move)
        assert turns[plain].value is Value.DRAW
        plain_below_best += traps[plain] != best
    # Without traps any drawing turn: on these positions it mostly misses the best trap.
    assert plain_below_best >= 10


def test_traps_rank_by_losing_share_then_by_depth(solution: Solution) -> None:
    board = board_class(4)(choices(solution, 1)[0], no_removal_limit=DEFAULT_NO_REMOVAL_LIMIT)
    draws = [(m, r) for m, r in scored_turns(solution, board) or [] if r.value is Value.DRAW]
    kept = drawing_traps(solution, board, draws)
    scores = {str(m): trap_of(solution, board, m) for m, _ in draws}
    top = max(s for s in scores.values() if s is not None)
    assert {str(m) for m, _ in kept} == {m for m, s in scores.items() if s == top}
    for move, _ in draws:
        trap = scores[str(move)]
        assert trap is not None and 0.0 <= trap.losing_share <= 1.0
        assert (trap.losing_share == 0.0) == (trap.depth == 0.0)


def turns_of(engine: Engine) -> Callable[[Board], Move]:
    """The engine's choice of turn on a board."""
    return lambda board: engine.play(board).move


@pytest.mark.slow
def test_a_fallible_opponent_is_beaten_more_often_and_the_draw_never_lost(
    solution: Solution,
) -> None:
    """Level 3 (searching, without the solution) from drawn positions: the trap-setting top level
    wins more games than the one that plays any drawing turn, and loses none."""
    results = {True: [], False: []}  # type: dict[bool, list[str]]
    positions = choices(solution, 30)
    for traps in (True, False):
        for seed, position in enumerate(positions):
            board = board_class(4)(position, no_removal_limit=DEFAULT_NO_REMOVAL_LIMIT)
            top = Engine(9, seed=seed, solution=solution, traps=traps)
            results[traps].append(duel(board, turns_of(top), turns_of(Engine(3, seed=seed))))
    assert "second" not in results[True] + results[False]  # the top level lost none
    assert results[True].count("first") > results[False].count("first")
