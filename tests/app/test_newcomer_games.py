"""No game thrown away by a new game, a puzzle's record marked as one, the hint's turn named in a
normal game as in a puzzle, and the end of a game said in words (issue 36, points 3 and 8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from morris.cli import main
from morris.core import Board, read_game
from morris.engine.solution import Solution
from morris.sim import Simulation
from tests.app.scenario_kit import SETTLE, make_turn, moves, play, position, resumed
from tests.app.test_puzzle import fastest, set_up_board


def records(state_dir: Path) -> list[Path]:
    return sorted((state_dir / "games").glob("*.txt"))


def test_a_new_game_keeps_the_game_left_among_the_finished_with_result_star(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Simulation(mode="referee", state_dir=tmp_path) as sim:
        sim.press("new")  # nothing played yet: nothing to keep
        sim.wait(SETTLE)
        assert records(tmp_path) == []
        play(sim, "d6", "f4", "d2")
        sim.press("new")
        sim.wait(SETTLE)
        [kept] = records(tmp_path)
        record = read_game(kept.read_text(encoding="utf-8"))
        assert record.result == "*" and [str(m) for m in record.moves] == ["d6", "f4", "d2"]
        for point in ("d6", "f4", "d2"):  # the new game starts from the empty board
            sim.lift(point)
        sim.wait(SETTLE)
        assert moves(sim) == [] and records(tmp_path) == [kept]
    assert main(["review", str(kept)]) == 0  # `morris review` finds and reads it
    assert "3 turns" not in capsys.readouterr().err


def test_a_puzzles_record_is_marked_as_a_puzzle(solved3: Path, tmp_path: Path) -> None:
    solution = Solution.load(solved3, 3)
    with Simulation(mode="referee", solution=solution, state_dir=tmp_path) as sim:
        puzzle = sim.puzzle(2, seed=0)
        set_up_board(sim, puzzle)
        make_turn(sim, fastest(solution, sim))
        sim.wait(SETTLE)
        sim.press("new")  # left half-way: kept, as a puzzle
        sim.wait(SETTLE)
    [kept] = records(tmp_path)
    tags = read_game(kept.read_text(encoding="utf-8")).tags
    assert tags["Event"] == "Training puzzle"
    assert tags["Puzzle"] == "white to move wins in 2"
    assert tags["Position"] == puzzle.position and tags["Result"] == "*"


def test_the_hint_of_a_normal_game_names_its_turn() -> None:
    with Simulation(mode="referee") as sim:
        play(sim, "d6")
        sim.press("hint")
        sim.wait(SETTLE)
        hinted = sim.controller.referee.hint_shown(sim.now)
        assert hinted is not None
        assert sim.controller.snapshot(sim.now).event == f"hint: {hinted}"


def test_the_end_of_a_game_is_said_in_words(tmp_path: Path) -> None:
    # White closes a7-d7-g7 twice, taking b6 then b4: black is left with two pieces.
    board = Board(position(white="a7 d7 g4", black="b4 d2 f4 b6", fullmove=30))
    with resumed(tmp_path, board) as sim:
        play(sim, "g4-g7xb6")
        play(sim, "d2-d3", "g7-g4", "d3-d2", "g4-g7xb4")
        snapshot = sim.controller.snapshot(sim.now)
        assert snapshot.termination == "too-few-pieces"  # the machine field as it was
        assert str(snapshot.outcome) == "1-0 (white wins: black has only two pieces)"
        assert "too-few-pieces" not in sim.describe()
