"""A saved game and a command line that asks for something else: what starts, and what is said.

A different level is taken into the resumed game; a different mode, colour, variant or flying
rule starts a new game, and the saved one is kept as a game record (result ``*``), never lost.
"""

from __future__ import annotations

from pathlib import Path

from morris.core import Board, read_game
from morris.sim import Simulation
from tests.app.scenario_kit import save_game


def _saved(tmp_path: Path, **how: object) -> Board:
    board = Board()
    for turn in ("d6", "f4", "d2"):
        board.push_notation(turn)
    save_game(tmp_path, board, **how)  # type: ignore[arg-type]
    return board


def test_a_saved_game_resumes_as_it_was_played_and_says_so(tmp_path: Path) -> None:
    saved = _saved(tmp_path, mode="vs-ai", human="black", level=3)
    with Simulation(mode="vs-ai", human="white", level=7, state_dir=tmp_path) as sim:
        assert sim.board.move_stack == saved.move_stack
        assert (sim.controller.human, sim.controller.level) == ("black", 3)
        event = sim.controller.state.last_event
        assert event == "resumed the saved game at turn 2: person plays black against level 3"


def test_a_level_given_on_the_command_line_applies_to_the_resumed_game(tmp_path: Path) -> None:
    saved = _saved(tmp_path, mode="vs-ai", human="black", level=3)
    with Simulation(
        mode="vs-ai", human="black", level=7, state_dir=tmp_path, insist={"level"}
    ) as sim:
        assert sim.board.move_stack == saved.move_stack
        assert sim.controller.level == 7
        assert "level 7 as asked; it was saved at level 3" in sim.controller.state.last_event


def test_another_mode_starts_a_new_game_and_keeps_the_saved_one(tmp_path: Path) -> None:
    saved = _saved(tmp_path, mode="referee")
    with Simulation(mode="vs-ai", human="white", state_dir=tmp_path, insist={"mode"}) as sim:
        assert sim.board.move_stack == []
        assert sim.controller.mode == "vs-ai"
        event = sim.controller.state.last_event
        assert event.startswith("new game: --mode vs-ai (saved: --mode referee)")
        assert "the saved game at turn 2 is kept as " in event
    records = list((tmp_path / "games").glob("*.txt"))
    assert len(records) == 1
    kept = read_game(records[0].read_text(encoding="utf-8"))
    assert kept.result == "*"
    assert [str(m) for m in kept.board().move_stack] == [str(m) for m in saved.move_stack]


def test_flags_that_agree_with_the_saved_game_resume_it(tmp_path: Path) -> None:
    saved = _saved(tmp_path, mode="referee")
    with Simulation(mode="referee", state_dir=tmp_path, insist={"mode", "flying"}) as sim:
        assert sim.controller.resumed
        assert sim.board.move_stack == saved.move_stack


def test_no_flying_asked_for_a_flying_game_starts_a_new_one(tmp_path: Path) -> None:
    _saved(tmp_path, mode="referee")
    with Simulation(mode="referee", flying=False, state_dir=tmp_path, insist={"flying"}) as sim:
        assert not sim.controller.resumed
        assert "--no-flying (saved: --flying)" in sim.controller.state.last_event
        assert not sim.board.flying
