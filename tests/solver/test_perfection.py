"""Perfection, measured: the engine with the solution against the solution's best defence, from
sampled positions of every value, under the real draw rules (threefold repetition, 100 turns
without removal): every won position won, no drawn position lost."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from morris.engine.engine import Engine
from morris.engine.result import Value
from morris.engine.solution import Solution
from morris.engine.solution.analyse import turn_values
from morris.solver.solution.perfection import play_out, sample_positions

pytestmark = [pytest.mark.realtime, pytest.mark.slow]


@pytest.mark.parametrize("men", [3, 4])
def test_the_engine_wins_every_won_position_and_loses_no_drawn_one(
    solved3: Path, solved4: Path, men: int
) -> None:
    solution = Solution.load(solved3 if men == 3 else solved4, men)
    games = {Value.WIN: 0, Value.DRAW: 0}
    for sample in sample_positions(solution, 3, np.random.default_rng(men)):
        result = play_out(solution, men, sample.position, 7, sample.entry)
        if sample.value is Value.WIN:
            assert result == "engine", (sample.key.name, sample.position)
        else:
            assert result != "defender", (sample.key.name, sample.position)
        games[sample.value] += 1
    assert games[Value.WIN] >= 10 and games[Value.DRAW] >= 10


def test_levels_with_tables_play_the_solution_and_lower_levels_slip_from_it(
    solved3: Path,
) -> None:
    from morris.engine.search import MATE
    from morris.engine.solution.analyse import new_board

    solution = Solution.load(solved3, 3)
    board = new_board(3)
    best = {str(m) for m, r in turn_values(solution, board) if r is not None and r.distance == 23}
    top = Engine(7, solution=solution).play(board)
    assert str(top.move) in best and top.score == MATE - 23 and top.nodes == 0
    # Below level 7 the solution chooses too (now and then a believable mistake).
    assert Engine(3, solution=solution).play(board).nodes == 0
    assert Engine(3).play(board).nodes > 0


def test_the_daemon_finds_the_solution_in_the_configured_directory(
    solved3: Path, tmp_path: Path
) -> None:
    from morris.app.config import parse_config
    from morris.app.jobs import load_solution

    assert load_solution(tmp_path) is None
    beside = parse_config(f'[engine]\ntables = "{tmp_path}"\n')
    assert beside.solution_dir() == tmp_path / "solution"
    (tmp_path / "solution").symlink_to(solved3)
    solution = load_solution(beside.solution_dir())
    assert solution is not None and len(solution.keys) == 7
    keyed = parse_config(f'[engine]\nsolution = "{solved3}"\n')
    assert keyed.solution_dir() == solved3
    solution = load_solution(keyed.solution_dir())
    assert solution is not None and len(solution.keys) == 7


def test_near_the_no_removal_limit_a_win_is_played_if_its_removal_comes_in_time(
    solved3: Path,
) -> None:
    # A search cannot see a win this deep: the solution plays it where the next removal comes
    # before the limit, and says draw where it cannot.
    import random

    from morris.core import Board
    from morris.engine.solution.play import known_value, perfect_turn, rule_value

    solution = Solution.load(solved3, 3)
    seen = {True: 0, False: 0}
    for sample in sample_positions(solution, 40, np.random.default_rng(7)):
        if sample.value is not Value.WIN or sample.key.placing:
            continue
        fields = sample.position.split()
        after = Board(" ".join([*fields[:4], "95", *fields[5:]]))  # 5 turns before the limit
        fresh = rule_value(solution, Board(sample.position))  # from a count of 0
        assert fresh is not None and fresh.value is Value.WIN and fresh.distance is not None
        in_time = fresh.distance <= 5
        rule = rule_value(solution, after)
        assert rule is not None and rule.value is (Value.WIN if in_time else Value.DRAW)
        found = perfect_turn(solution, after, random.Random(0))
        shown = known_value(solution, after)
        assert found is not None and shown is not None
        assert found[1].value is shown.value is (Value.WIN if in_time else Value.DRAW)
        seen[in_time] += 1
    assert seen[True] and seen[False]
