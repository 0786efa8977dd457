"""Position setup on the simulated board: a position text from a front end (the lights then guide
the person to arrange it, and play starts once the board matches), and the board-only way with
the buttons (docs/REFEREE.md, "Setting up a position on the board")."""

from __future__ import annotations

from pathlib import Path

import pytest

from morris.app.errors import InputError
from morris.sim import Simulation
from tests.app.scenario_kit import (
    SETTLE,
    carry_out_opponent_turn,
    lit,
    moves,
    play,
    position,
    shown,
)

#: Black to move in the placing phase, two pieces in hand each side after this.
PLACING = position("a7 d7 g7", "a1 d1", turn="b", hands=(2, 3))
#: The moving phase: White (to move) closes a mill with g4-g1.
MOVING = position("a7 d7 g4 b6", "a1 d1 f2 a4", turn="w")


def arrange(sim: Simulation) -> None:
    """Put a piece wherever a light asks for one, and let the board settle."""
    for name in lit(sim, "on"):
        sim.place(name)
    sim.wait(SETTLE)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "empty position"),
        ("WWW", "7 fields"),
        ("WWW..BB./......../........ x 2 3 0 20 -", "side to move"),
        ("WWW..BX./......../........ b 2 3 0 20 -", "'X' at"),
        ("WWW..BB./......../........ b 9 3 0 20 -", "more than 9 pieces"),
        ("WW...BB./......../........ w 0 0 0 20 -", "already over"),
    ],
)
def test_a_wrong_setup_text_is_refused_and_the_game_goes_on(text: str, says: str) -> None:
    with Simulation(mode="referee") as sim:
        play(sim, "d6", "b4")
        before, lights = sim.board.position(), sim.lights()
        with pytest.raises(InputError, match=says):
            sim.setup(text)
        sim.wait(SETTLE)
        assert sim.board.position() == before
        assert moves(sim) == ["d6", "b4"]
        assert sim.lights() == lights
        play(sim, "f4")
        assert moves(sim) == ["d6", "b4", "f4"]


def test_the_lights_guide_the_board_to_the_position_then_the_pi_plays_from_it() -> None:
    with Simulation(mode="vs-ai", human="white", level=1) as sim:
        play(sim, "d6")
        carry_out_opponent_turn(sim)
        play(sim, "b2")  # b2 is no piece of the position: it must go
        carry_out_opponent_turn(sim)
        sim.setup(PLACING)
        sim.wait(SETTLE)
        wanted = {"a7", "d7", "g7", "a1", "d1"}
        assert set(lit(sim, "on")) == wanted - sim.sensed
        assert set(lit(sim, "fast")) == sim.sensed - wanted
        assert sim.status()["error"] == "on"  # guiding
        assert sim.status()["thinking"] == "off"  # the Pi waits for the board
        for name in sorted(sim.sensed - wanted):
            sim.lift(name)
        arrange(sim)
        # The board matches: the Pi (black) is to move and shows its placement.
        sim.wait(SETTLE)
        assert sim.status()["error"] == "off"
        reply = carry_out_opponent_turn(sim)
        assert moves(sim) == [reply]
        assert sim.board.pieces_in_hand(False) == 2
        assert sim.status()["turn"] == "on"
        play(sim, "b4")
        assert moves(sim)[:2] == [reply, "b4"]


def test_a_cleared_board_while_arranging_is_no_new_game() -> None:
    with Simulation(mode="referee") as sim:
        play(sim, "d6", "b4", "f4")
        sim.setup(MOVING)
        for name in sorted(sim.sensed):
            sim.lift(name)
        sim.wait(10.0)  # far longer than the clear delay
        assert sim.board.position().startswith(MOVING.split()[0])
        arrange(sim)
        assert not shown(sim)
        assert sim.describe().endswith("position set up: white to move")
        play(sim, "g4-g1")
        assert moves(sim) == ["g4-g1"]  # g1 d1 a1 is Black's mill, not White's: no removal
        play(sim, "f2-f4")
        assert moves(sim) == ["g4-g1", "f2-f4"]


def test_the_setup_is_saved_and_a_restart_guides_to_it(tmp_path: Path) -> None:
    with Simulation(mode="referee", state_dir=tmp_path) as sim:
        sim.setup(MOVING)
    with Simulation(mode="referee", state_dir=tmp_path) as sim:
        sim.wait(SETTLE)
        assert sim.board.position() == MOVING
        assert set(lit(sim, "on")) == {"a7", "d7", "g4", "b6", "a1", "d1", "f2", "a4"}


# -- the board-only way -----------------------------------------------------------------------


def enter_board_setup(sim: Simulation) -> None:
    for _ in range(3):
        sim.press("hint")
        sim.wait(0.2)


def test_three_quick_hints_start_a_setup_on_the_board_and_new_plays_from_it() -> None:
    with Simulation(mode="vs-ai", human="white", level=1) as sim:
        play(sim, "d6")  # the game's pieces keep their colours: d6 is White's
        carry_out_opponent_turn(sim)
        black = sorted(set(sim.sensed) - {"d6"})
        enter_board_setup(sim)
        sim.wait(SETTLE)
        assert lit(sim, "on") == ["d6"] and lit(sim, "slow") == black
        assert sim.status()["turn"] == "on"  # White's pieces are put
        for name in ("a7", "g7"):
            sim.place(name)
        sim.press("mode")  # Black's pieces now
        sim.wait(0.2)
        for name in ("a1", "g1"):
            sim.place(name)
        sim.wait(SETTLE)
        assert lit(sim, "on") == ["a7", "d6", "g7"]
        assert lit(sim, "slow") == sorted([*black, "a1", "g1"])
        assert sim.status()["turn"] == "slow"
        sim.press("mode")  # White is selected: White moves first
        sim.press("new")
        sim.wait(SETTLE)
        cells = {name: "white" for name in ("a7", "d6", "g7")}
        cells.update(dict.fromkeys([*black, "a1", "g1"], "black"))
        assert sim.controller.snapshot(sim.now).pieces == cells
        assert sim.board.turn and sim.board.pieces_in_hand(True) == 0
        assert sim.describe().endswith("position set up: white to move")
        play(sim, "d6-d7")  # a7 d7 g7: White's mill, then the removal
        sim.lift("a1")
        sim.wait(SETTLE)
        assert moves(sim)[0] == "d6-d7xa1"


def test_a_board_that_is_no_game_is_refused_and_the_setup_goes_on() -> None:
    with Simulation(mode="referee") as sim:
        enter_board_setup(sim)
        for name in ("a7", "d7", "g7"):
            sim.place(name)
        sim.wait(0.5)
        sim.press("new")  # Black has no pieces at all
        sim.wait(1.0)  # one slow blink period: the LEDs are decoded
        assert sim.status()["error"] == "fast"
        assert "setup refused" in sim.describe()
        sim.wait(SETTLE)
        assert sim.status()["error"] == "off"
        assert lit(sim, "on") == ["a7", "d7", "g7"]  # still setting up
        sim.press("mode")
        for name in ("a1", "d1", "g1"):
            sim.place(name)
        sim.wait(0.5)
        sim.press("new")  # Black selected: Black to move
        sim.wait(SETTLE)
        assert not sim.board.turn
        play(sim, "a1-a4")
        assert moves(sim) == ["a1-a4"]


def test_takeback_cancels_a_setup_on_the_board() -> None:
    with Simulation(mode="referee") as sim:
        play(sim, "d6", "b4")
        enter_board_setup(sim)
        sim.lift("d6")
        sim.place("a7")
        sim.wait(0.5)
        sim.press("takeback")
        sim.wait(SETTLE)
        assert moves(sim) == ["d6", "b4"]
        assert shown(sim) == {"d6": "on", "a7": "fast"}  # guided back to the game
        sim.lift("a7")
        sim.place("d6")
        sim.wait(SETTLE)
        assert not shown(sim)
        play(sim, "f4")
        assert moves(sim) == ["d6", "b4", "f4"]


def test_two_hint_presses_are_just_hints() -> None:
    with Simulation(mode="referee") as sim:
        sim.press("hint")
        sim.wait(2.5)
        sim.press("hint")
        sim.wait(2.5)
        sim.press("hint")  # three presses, but not within two seconds
        sim.wait(SETTLE)
        assert sim.controller.snapshot(sim.now).board_setup is None
        play(sim, "d6")
        assert moves(sim) == ["d6"]
