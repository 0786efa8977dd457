"""The variants and the removal switches, played on the simulated board (referee mode).

Each rule of a variant section of docs/RULES.md as physical actions, checked by what a person
sees (the lights, the event line) and the game the referee accepted. Positions other than the
start are resumed from a saved game and set up by hand, as in test_scenarios_rules.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from morris.core import (
    BLACK,
    WHITE,
    Board,
    LaskerMorris,
    Morabaraba,
    SixMensMorris,
    TwelveMensMorris,
    find_variant,
)
from morris.sim import Simulation
from tests.app.scenario_kit import SETTLE, moves, play, position, resumed, shown

INNER_AND_MIDDLE = {
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4",
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4",
}  # fmt: skip


@pytest.mark.parametrize("variant", ["twelve", "morabaraba"])
def test_a_diagonal_mill_removes_a_piece(variant: str) -> None:
    with Simulation(mode="referee", variant=variant) as sim:
        assert sim.board.variant_name == variant
        play(sim, "a7", "d7", "b6", "g7")
        sim.place("c5")  # a7 b6 c5: the diagonal line of the top-left corners
        sim.wait(SETTLE)
        assert shown(sim) == {"d7": "slow", "g7": "slow"}
        sim.lift("g7")
        sim.wait(SETTLE)
        assert moves(sim) == ["a7", "d7", "b6", "g7", "c5xg7"]
        assert shown(sim) == {}


def test_the_diagonal_is_no_mill_in_the_standard_game() -> None:
    with Simulation(mode="referee") as sim:
        play(sim, "a7", "d7", "b6", "g7", "c5")
        assert moves(sim)[-1] == "c5"
        assert shown(sim) == {}


def test_a_diagonal_slide_in_twelve_mens_morris(tmp_path: Path) -> None:
    board = TwelveMensMorris(position(white="a1 d6 f4 e3", black="d1 g7 c5 d3"))
    with resumed(tmp_path, board) as sim:
        sim.lift("a1")
        sim.wait(SETTLE)
        assert shown(sim) == {"a4": "on", "b2": "on"}
        sim.place("b2")
        sim.wait(SETTLE)
        assert moves(sim) == ["a1-b2"]


def test_lasker_moves_a_piece_while_pieces_are_in_hand(tmp_path: Path) -> None:
    board = LaskerMorris(position(white="a1", black="d5", hands=(9, 9), fullmove=1))
    with resumed(tmp_path, board) as sim:
        play(sim, "a1-d1")  # lift a1, put it on d1: a slide instead of a placement
        assert moves(sim) == ["a1-d1"]
        assert sim.board.pieces_in_hand(WHITE) == 9
        play(sim, "g7")
        assert sim.board.pieces_in_hand(BLACK) == 8


def test_six_mens_morris_shows_its_points_and_flags_an_outer_piece() -> None:
    with Simulation(mode="referee", variant="six") as sim:
        sim.wait(SETTLE)
        assert shown(sim) == dict.fromkeys(INNER_AND_MIDDLE, "on")
        sim.place("a7")  # the outer square is not in play
        sim.wait(6.0)
        assert shown(sim) == {"a7": "fast"}
        assert sim.status()["error"] == "fast"
        assert "a7 not in play in Six men's morris" in sim.controller.state.last_event
        sim.lift("a7")
        play(sim, "d6")
        assert moves(sim) == ["d6"]
        assert shown(sim) == {}
        assert sim.board.flying is False


def test_a_double_mill_removes_two_with_the_switch_on(tmp_path: Path) -> None:
    board = Board(
        position(white="a7 a4 d1 g1", black="b2 d2 d6 f4", hands=(5, 5)),
        double_mill_removes_two=True,
    )
    with resumed(tmp_path, board) as sim:
        sim.place("a1")  # a1 d1 g1 and a7 a4 a1 at once
        sim.wait(SETTLE)
        assert sim.controller.state.last_event == "double mill with a1: remove two pieces"
        assert shown(sim) == dict.fromkeys(["b2", "d2", "d6", "f4"], "slow")
        sim.lift("d6")
        sim.wait(SETTLE)
        assert moves(sim) == []
        assert shown(sim) == dict.fromkeys(["b2", "d2", "f4"], "slow")
        sim.lift("b2")
        sim.wait(SETTLE)
        assert moves(sim) == ["a1xd6xb2"]
        assert sim.board.pieces_on_board(BLACK) == 2


def test_a_double_mill_removes_one_by_default(tmp_path: Path) -> None:
    board = Board(position(white="a7 a4 d1 g1", black="b2 d2 d6 f4", hands=(5, 5)))
    with resumed(tmp_path, board) as sim:
        play(sim, "a1xd6")
        assert moves(sim) == ["a1xd6"]
        assert sim.controller.state.last_event.startswith("white played")


def test_a_piece_is_taken_from_a_mill_with_remove_from_mills(tmp_path: Path) -> None:
    # Black's b6 d6 f6 is a mill and f4 stands outside it.
    board = Board(
        position(white="a1 a4", black="b6 d6 f6 f4", hands=(5, 5)), remove_from_mills=True
    )
    with resumed(tmp_path, board) as sim:
        sim.place("a7")
        sim.wait(SETTLE)
        assert shown(sim) == dict.fromkeys(["b6", "d6", "f6", "f4"], "slow")
        sim.lift("d6")
        sim.wait(SETTLE)
        assert moves(sim) == ["a7xd6"]


def test_without_the_switch_a_mill_piece_lifted_is_flagged(tmp_path: Path) -> None:
    board = Board(position(white="a1 a4", black="b6 d6 f6 f4", hands=(5, 5)))
    with resumed(tmp_path, board) as sim:
        sim.place("a7")
        sim.wait(SETTLE)
        assert shown(sim) == {"f4": "slow"}
        sim.lift("d6")
        sim.wait(SETTLE)
        assert shown(sim) == {"f4": "slow", "d6": "fast"}
        assert moves(sim) == []


def test_morabaraba_bars_the_straight_return_into_a_mill(tmp_path: Path) -> None:
    board = Morabaraba(position(white="a7 d7 g7 b6 f6", black="a1 g1 d1 c3 e3 a4"))
    with resumed(tmp_path, board) as sim:
        play(sim, "d7-d6xa4", "e3-e4")
        sim.lift("d6")
        sim.wait(SETTLE)
        assert shown(sim) == {"d5": "on"}  # d7 would remake a7 d7 g7 at once: barred
        sim.place("d7")
        sim.wait(6.0)
        assert sim.status()["error"] == "fast"
        assert moves(sim) == ["d7-d6xa4", "e3-e4"]


def test_the_variant_is_chosen_at_the_board_for_the_next_game() -> None:
    with Simulation(mode="referee") as sim:
        sim.wait(SETTLE)
        sim.press("mode")
        sim.wait(0.5)
        sim.press("hint")  # while the mode is shown: the next variant
        sim.wait(1.2)  # one slow blink, for the lights to be read
        assert sim.controller.state.last_event == (
            "Twelve men's morris from the next game (press new game)"
        )
        assert (sim.controller.mode, sim.controller.menu.pending_mode) == ("referee", None)
        lights = sim.lights()
        assert [p for p, s in lights.items() if s == "slow"] == ["a7", "d7"]  # number 2
        assert sum(s == "on" for s in lights.values()) == 22
        for _ in range(3):
            sim.press("hint")
            sim.wait(1.2)
        assert sim.controller.state.last_event.startswith("Six men's morris from the next game")
        assert {p for p, s in sim.lights().items() if s == "on"} == INNER_AND_MIDDLE
        assert sim.board.variant_name == "standard"  # until a new game
        sim.press("new")
        sim.wait(SETTLE)
        assert type(sim.board) is SixMensMorris
        assert sim.board.position() == "......../......../........ w 6 6 0 1 -"
        assert shown(sim) == dict.fromkeys(INNER_AND_MIDDLE, "on")
        sim.press("new")
        sim.wait(SETTLE)
        assert type(sim.board) is SixMensMorris  # the choice holds for the games after


def test_a_hint_press_long_after_the_mode_button_is_a_hint() -> None:
    with Simulation(mode="referee") as sim:
        sim.press("mode")
        sim.wait(5.0)
        sim.press("hint")
        sim.wait(SETTLE)
        # The mode button's own choice (remote mode after referee) stays on the event line; no
        # variant was chosen, so the next game is still the standard one.
        assert "Twelve men's morris" not in sim.controller.state.last_event
        sim.press("new")
        sim.wait(SETTLE)
        assert sim.board.variant_name == "standard"


@pytest.mark.parametrize("variant", ["standard", "twelve", "morabaraba", "lasker", "six"])
def test_every_variant_starts_with_its_pieces_in_hand(variant: str) -> None:
    with Simulation(mode="referee", variant=variant) as sim:
        pieces = find_variant(variant).pieces_per_side
        assert sim.board.pieces_in_hand(WHITE) == sim.board.pieces_in_hand(BLACK) == pieces


def test_choosing_the_variant_leaves_the_level_as_it_was() -> None:
    with Simulation(mode="vs-ai", human="white", level=3) as sim:
        sim.press("mode")
        sim.wait(0.5)
        assert sim.controller.level == 4  # the mode button alone steps the level
        sim.press("hint")
        sim.wait(0.5)
        assert sim.controller.level == 3
        assert sim.controller.state.last_event.startswith("Twelve men's morris")


def test_three_quick_hints_after_the_mode_button_step_the_variant_not_the_board_setup() -> None:
    # Three quick hint presses start the board setup, but right after the mode button the hint
    # button chooses the variant: a person stepping to Lasker must not land in the setup.
    with Simulation(mode="referee") as sim:
        sim.press("mode")
        for _ in range(3):
            sim.press("hint")
            sim.wait(0.2)  # a finger lifts between presses
        assert sim.controller.state.last_event.startswith("Lasker morris from the next game")
        assert not sim.controller.is_setting_up
        sim.press("new")
        sim.wait(SETTLE)
        assert sim.board.variant_name == "lasker"
