"""The lower levels' believable mistakes: below level 7 the engine plays from the solution too,
and now and then (seeded, more often the lower the level) a turn one value class worse."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from morris.engine.engine import Engine
from morris.engine.result import Value
from morris.engine.solution import Solution
from morris.engine.solution.analyse import board_class, turn_values
from morris.engine.solution.play import SLIP, believable_turn
from morris.solver.solution.perfection import play_out, sample_positions

pytestmark = [pytest.mark.realtime, pytest.mark.slow]

CLASS = {Value.LOSS: 0, Value.DRAW: 1, Value.WIN: 2}


@pytest.fixture(scope="module")
def solution(solved3: Path) -> Solution:
    """The solved 3 men's morris."""
    return Solution.load(solved3, 3)


def first_turns(solution: Solution, level: int) -> list[tuple[int, int]]:
    """(best class, class of the level's turn) from sampled won and drawn positions that have a
    turn one class worse (3 men's morris has few draws: most won positions have none)."""
    out = []
    for sample in sample_positions(solution, 60, np.random.default_rng(5)):
        board = board_class(3)(sample.position)
        values = {str(m): r for m, r in turn_values(solution, board) if r is not None}
        if CLASS[sample.value] - 1 not in {CLASS[r.value] for r in values.values()}:
            continue
        move = Engine(level, seed=sample.entry, solution=solution).play(board).move
        out.append((CLASS[sample.value], CLASS[values[str(move)].value]))
    return out


def test_level_1_sometimes_drops_a_win_or_a_draw_but_never_by_two_classes(
    solution: Solution,
) -> None:
    turns = first_turns(solution, 1)
    assert len(turns) >= 40
    drops = [best - played for best, played in turns]
    assert set(drops) <= {0, 1}
    assert any(best == 2 and played == 1 for best, played in turns)  # a win given away
    assert any(best == 1 and played == 0 for best, played in turns)  # a draw given away
    assert 0.1 < sum(drops) / len(drops) < SLIP[1] + 0.15
    assert all(best == played for best, played in first_turns(solution, 6))


def test_the_chance_of_a_slip_falls_with_the_level() -> None:
    assert SLIP[1] > SLIP[3] > SLIP[5] > SLIP[6] == 0.0


def test_a_slip_is_the_mistake_whose_punishment_is_furthest_away(solution: Solution) -> None:
    # White to move wins in 5; its losing turns lose in 22 (a4-c5, a4-d3) or sooner.
    board = board_class(3)("...W...W/...B..../.W.B..B. w 0 0 0 1 -")
    for seed in range(40):
        found = believable_turn(solution, board, 1, random.Random(seed))
        assert found is not None
        assert found[1].value in (Value.WIN, Value.DRAW)
        if found[1].value is Value.DRAW:
            assert str(found[0]) == "a4-d6"


def test_level_6_never_loses_a_won_position(solution: Solution) -> None:
    played = 0
    for sample in sample_positions(solution, 4, np.random.default_rng(6)):
        if sample.value is Value.WIN:
            assert play_out(solution, 3, sample.position, 6, sample.entry) != "defender"
            played += 1
    assert played >= 20
