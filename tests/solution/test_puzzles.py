"""Puzzles drawn from the solved game (morris.engine.solution.puzzles): seeded, and each
one what it says by the solution: White to move wins in exactly N turns, with the answers given."""

from __future__ import annotations

from pathlib import Path

import pytest

from morris.core import Board
from morris.engine.result import Value
from morris.engine.solution import Solution
from morris.engine.solution.analyse import turn_values, value_of
from morris.engine.solution.puzzles import (
    MAX_SOLUTIONS,
    PuzzleError,
    generate_puzzles,
    longest_puzzle,
    puzzle_sectors,
)


@pytest.fixture(scope="module")
def solution3(solved3: Path) -> Solution:
    return Solution.load(solved3, 3)


def test_the_same_seed_gives_the_same_puzzles_and_another_seed_others(
    solution3: Solution,
) -> None:
    first = generate_puzzles(solution3, 3, seed=7, count=4)
    assert first == generate_puzzles(solution3, 3, seed=7, count=4)
    assert len(first) == 4 and len({p.position for p in first}) == 4
    other = generate_puzzles(solution3, 3, seed=8, count=4)
    assert [p.position for p in other] != [p.position for p in first]


@pytest.mark.parametrize("wins_in", [1, 2, 3, 5, 8])
def test_each_puzzle_is_won_in_exactly_n_turns_with_the_answers_it_gives(
    solution3: Solution, wins_in: int
) -> None:
    for puzzle in generate_puzzles(solution3, wins_in, seed=wins_in, count=3):
        board = Board(puzzle.position)
        assert board.turn  # white to move
        assert board.pieces_in_hand(True) == board.pieces_in_hand(False) == 0
        assert puzzle.title == f"white to move wins in {wins_in}"
        result = value_of(solution3, board)
        assert result is not None and result.value is Value.WIN
        assert result.distance == puzzle.distance == 2 * wins_in - 1
        fastest = sorted(
            str(m)
            for m, r in turn_values(solution3, board)
            if r is not None and r.value is Value.WIN and r.distance == puzzle.distance
        )
        assert sorted(puzzle.solutions) == fastest
        actions = {s.split("x")[0] for s in puzzle.solutions}
        assert 1 <= len(actions) <= MAX_SOLUTIONS


def test_longer_puzzles_have_one_answer_that_is_no_mill(solution3: Solution) -> None:
    for puzzle in generate_puzzles(solution3, 4, seed=1, count=3):
        assert len(puzzle.solutions) == 1
        board = Board(puzzle.position)
        from morris.core import Move

        assert not board.closes_mill(Move.parse(puzzle.solutions[0]))


def test_a_win_longer_than_any_in_the_solution_is_refused(solution3: Solution) -> None:
    longest = longest_puzzle(solution3)
    assert longest == 13  # 3 men's morris: the longest win is 25 plies
    assert generate_puzzles(solution3, longest, seed=0)
    with pytest.raises(PuzzleError, match=f"no win in {longest + 1} .*the longest is a win in 13"):
        generate_puzzles(solution3, longest + 1)


@pytest.mark.parametrize("wins_in", [0, -2, True, "3"])
def test_a_length_that_is_no_positive_number_is_refused(
    solution3: Solution, wins_in: object
) -> None:
    with pytest.raises(PuzzleError, match="wins in"):
        generate_puzzles(solution3, wins_in)  # type: ignore[arg-type]


def test_no_moving_sector_means_no_puzzle(solved3: Path) -> None:
    placing_only = Solution.load(solved3, None)
    empty = Solution(solved3, {})
    assert puzzle_sectors(placing_only) and not puzzle_sectors(empty)
    with pytest.raises(PuzzleError, match="morris tables build --men K"):
        generate_puzzles(empty, 2)
    with pytest.raises(PuzzleError, match="for 3 men"):
        generate_puzzles(Solution(solved3, {}), 2, men=3)


@pytest.mark.slow
def test_four_men_puzzles_come_from_every_moving_sector(solved4: Path) -> None:
    solution = Solution.load(solved4, 4)
    assert {k.name for k in puzzle_sectors(solution)} == {"3v3", "3v4", "4v3", "4v4"}
    assert {k.name for k in puzzle_sectors(solution, men=3)} == {"3v3"}
    sectors = {p.sector.name for p in generate_puzzles(solution, 2, seed=3, count=12)}
    assert "3v3" in sectors and sectors - {"3v3"}
    for puzzle in generate_puzzles(solution, 6, seed=3, count=2):
        result = value_of(solution, Board(puzzle.position))
        assert result is not None and result.distance == 11
