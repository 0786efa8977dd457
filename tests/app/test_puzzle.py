"""Puzzles at the board (morris.app.puzzle through the controller), on the simulated
board in virtual time with the real solved 3 men's morris: the lights guide the setup (White's
points on, Black's slow), the person plays the win, the Pi defends from the solution, a turn
that lets the win go fails the puzzle, a takeback retries it, new game leaves it."""

from __future__ import annotations

from pathlib import Path

import pytest

from morris.app.config import Config
from morris.app.errors import InputError, NotNowError
from morris.app.puzzle import NoSolutionError
from morris.core import POINT_NAMES, Move
from morris.engine.result import Value
from morris.engine.solution import Solution
from morris.engine.solution.analyse import turn_values
from morris.engine.solution.puzzles import Puzzle, generate_puzzles
from morris.sim import Simulation
from tests.app.scenario_kit import SETTLE, carry_out_opponent_turn, lit, make_turn


@pytest.fixture(scope="module")
def solution(solved3: Path) -> Solution:
    return Solution.load(solved3, 3)


def set_up_board(sim: Simulation, puzzle: Puzzle) -> None:
    """Put the pieces where the lights ask (the colours from the event line)."""
    for name in sorted(lit(sim, "on") + lit(sim, "slow")):
        sim.place(name)
    sim.wait(1.5)


def fastest(solution: Solution, sim: Simulation) -> Move:
    """A turn that wins as fast as possible for the side to move."""
    best = [
        (r.distance, str(m), m)
        for m, r in turn_values(solution, sim.board)
        if r is not None and r.value is Value.WIN
    ]
    return min(best)[2]


def press_hints(sim: Simulation, count: int) -> None:
    """Press ``hint`` ``count`` times, quickly."""
    for _ in range(count):
        sim.press("hint")
        sim.wait(0.2)


def puzzle_state(sim: Simulation) -> dict[str, object]:
    state = sim.controller.snapshot(sim.now).puzzle
    assert state is not None
    return dict(state)


def test_the_lights_guide_the_setup_white_on_black_slow(solution: Solution) -> None:
    with Simulation(mode="vs-ai", human="black", level=2, solution=solution) as sim:
        puzzle = sim.puzzle(3, seed=4)
        sim.wait(2.0)
        pieces = sim.controller.puzzle.start.pieces()  # type: ignore[union-attr]
        white = sorted(p for p, c in pieces.items() if c)
        black = sorted(p for p, c in pieces.items() if not c)
        assert lit(sim, "on") == white and lit(sim, "slow") == black
        assert sim.status()["error"] == "on"
        line = sim.describe()
        assert "white to move wins in 3: set it up: white" in line
        assert all(p in line for p in white + black)
        assert puzzle_state(sim)["status"] == "setting up"
        set_up_board(sim, puzzle)
        assert lit(sim, "on") == [] and lit(sim, "slow") == []
        assert sim.board.position() == puzzle.position
        assert "you play white, find the win" in sim.describe()
        state = puzzle_state(sim)
        assert state["status"] == "playing" and state["left"] == 3 and state["side"] == "white"
        assert sim.status()["turn"] == "on"  # the person (white) is to move


def test_a_puzzle_solved_against_the_perfect_defence(solution: Solution) -> None:
    with Simulation(mode="referee", solution=solution) as sim:
        puzzle = sim.puzzle(4, seed=1)
        set_up_board(sim, puzzle)
        defence = []
        for turn in range(1, 5):
            move = fastest(solution, sim)
            if turn == 1:
                assert str(move) in puzzle.solutions
            make_turn(sim, move)
            sim.wait(SETTLE)
            if sim.board.outcome() is not None:
                break
            # The Pi answers with the longest loss, shown as any Pi turn is.
            expected = sim.controller.referee.expected
            assert expected is not None
            assert max(
                r.distance or 0 for _, r in turn_values(solution, sim.board) if r is not None
            ) == next(r.distance for m, r in turn_values(solution, sim.board) if m == expected)
            assert f"Pi plays {expected}" in sim.describe()
            defence.append(carry_out_opponent_turn(sim))
            assert puzzle_state(sim)["left"] == 4 - turn
        outcome = sim.board.outcome()
        assert outcome is not None and outcome.winner  # white won
        state = puzzle_state(sim)
        assert state["status"] == "solved" and state["turns"] == 4 and state["hints"] == 0
        assert "puzzle solved in 4 turns" in sim.describe()
        assert len(defence) == 3
        sim.press("new")
        sim.wait(1.0)
        assert sim.controller.puzzle is None and sim.controller.mode == "referee"


def test_a_turn_that_lets_the_win_go_fails_and_takeback_retries(solution: Solution) -> None:
    with Simulation(mode="vs-ai", human="white", level=2, solution=solution) as sim:
        puzzle = sim.puzzle(3, seed=2)
        set_up_board(sim, puzzle)
        scored = turn_values(solution, sim.board)
        bad = next(m for m, r in scored if r is not None and r.value is not Value.WIN)
        make_turn(sim, bad)
        sim.wait(SETTLE)
        state = puzzle_state(sim)
        assert state["status"] == "failed" and state["failed_turn"] == str(bad)
        assert sorted(state["would_win"]) == sorted(puzzle.solutions)  # type: ignore[arg-type]
        line = sim.describe()
        assert f"puzzle failed: {bad}" in line and puzzle.solutions[0] in line
        assert "takeback to try again" in line
        carry_out_opponent_turn(sim)  # the Pi plays on from the solution
        assert puzzle_state(sim)["status"] == "failed"
        sim.press("takeback")
        for point in lit(sim, "on") + lit(sim, "slow"):  # put the pieces back where lit
            if point in sim.sensed:
                sim.lift(point)
            else:
                sim.place(point)
        for point in lit(sim, "fast"):
            sim.lift(point)
        sim.wait(2.0)
        assert sim.board.position() == puzzle.position
        state = puzzle_state(sim)
        assert state["status"] == "playing" and state["takebacks"] == 1
        make_turn(sim, Move.parse(puzzle.solutions[0]))
        sim.wait(SETTLE)
        assert puzzle_state(sim)["status"] == "playing"


def test_a_slower_win_fails_the_puzzle(solution: Solution) -> None:
    with Simulation(mode="vs-ai", solution=solution) as sim:
        puzzle = sim.puzzle(2, seed=5)
        set_up_board(sim, puzzle)
        slower = [
            m
            for m, r in turn_values(solution, sim.board)
            if r is not None and r.value is Value.WIN and (r.distance or 0) > puzzle.distance
        ]
        assert slower, "the puzzle has a slower win to try"
        make_turn(sim, slower[0])
        sim.wait(SETTLE)
        state = puzzle_state(sim)
        assert state["status"] == "failed" and "still wins, but in" in str(state["why"])


def test_the_hint_shows_a_winning_turn_and_is_counted(solution: Solution) -> None:
    with Simulation(mode="vs-ai", solution=solution) as sim:
        puzzle = sim.puzzle(3, seed=3)
        set_up_board(sim, puzzle)
        sim.press("hint")
        sim.wait(1.2)
        move = Move.parse(puzzle.solutions[0])
        assert lit(sim, "on") == [POINT_NAMES[move.to_point]]  # the hint's target
        assert POINT_NAMES[move.from_point or 0] in lit(sim, "slow")
        assert puzzle_state(sim)["hints"] == 1
        assert f"hint 1: {move}" in sim.describe()


def test_without_a_solution_the_puzzle_says_what_to_build(tmp_path: Path) -> None:
    config = Config().with_overrides(engine_tables=str(tmp_path))
    with Simulation(config=config) as sim:
        before = sim.board.position()
        with pytest.raises(NoSolutionError, match="morris tables build --men K"):
            sim.puzzle(3)
        assert sim.board.position() == before and sim.controller.puzzle is None


@pytest.mark.parametrize(
    ("wins_in", "seed", "problem"),
    [
        (0, 0, "wins_in must be 1 or more"),
        ("3", 0, "wins_in must be a whole number"),
        (3, 1.5, "seed must be a whole number"),
        (30, 0, "no win in 30"),
    ],
)
def test_bad_requests_are_refused_and_the_game_goes_on(
    solution: Solution, wins_in: object, seed: object, problem: str
) -> None:
    with Simulation(mode="referee", solution=solution) as sim:
        sim.place("d6")
        sim.wait(1.0)
        with pytest.raises(InputError, match=problem):
            sim.puzzle(wins_in, seed)  # type: ignore[arg-type]
        assert sim.board.move_stack and sim.controller.puzzle is None


def test_rules_the_solution_does_not_fit_and_mode_remote_are_refused(solution: Solution) -> None:
    puzzle = generate_puzzles(solution, 2)[0]
    with Simulation(flying=False, solution=solution) as sim:
        with pytest.raises(InputError, match=r"game\.flying"):
            sim.start_puzzle(puzzle)
        assert sim.controller.puzzle is None
    with Simulation(mode="remote", solution=solution) as sim:
        with pytest.raises(NotNowError, match="remote player"):
            sim.start_puzzle(puzzle)
        assert sim.controller.mode == "remote"


def test_at_the_board_hint_in_the_setup_asks_for_a_puzzle_and_again_a_longer_one(
    solution: Solution,
) -> None:
    with Simulation(mode="vs-ai", solution=solution) as sim:
        press_hints(sim, 3)
        assert sim.controller.is_setting_up
        press_hints(sim, 1)
        sim.wait(0.6)  # a steady light is told from a slow blink after its lit half
        assert puzzle_state(sim)["title"] == "white to move wins in 2"
        assert lit(sim, "on") == ["a7", "d7"]  # its length, as the mode button shows a level
        sim.wait(1.5)
        first = puzzle_state(sim)["position"]
        assert sorted(lit(sim, "on") + lit(sim, "slow")) == sorted(sim.board.pieces())
        press_hints(sim, 1)
        sim.wait(0.6)
        state = puzzle_state(sim)
        assert state["title"] == "white to move wins in 3" and state["position"] != first
        assert lit(sim, "on") == ["a7", "d7", "g7"]
        sim.wait(1.5)
        set_up_board(sim, sim.controller.puzzle.puzzle)  # type: ignore[union-attr]
        assert puzzle_state(sim)["status"] == "playing"
        press_hints(sim, 3)  # three quick hints are the board setup again, leaving the puzzle
        assert sim.controller.is_setting_up and sim.controller.puzzle is None


def test_at_the_board_without_a_solution_the_setup_goes_on(tmp_path: Path) -> None:
    config = Config().with_overrides(engine_tables=str(tmp_path))
    with Simulation(config=config) as sim:
        press_hints(sim, 4)
        assert sim.controller.is_setting_up and sim.controller.puzzle is None
        assert "no puzzle" in sim.describe() and "morris tables build --men K" in sim.describe()
        sim.wait(0.5)
        assert sim.status()["error"] == "fast"
