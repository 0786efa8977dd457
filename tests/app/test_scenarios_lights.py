"""The light language as docs/DESIGN.md gives it, seen on the simulated board's LEDs: the Pi's
placement, slide and removal, removable pieces after a person's mill, a lifted piece's targets, a
wrong board after the grace time, the status LEDs, the hint button and the mode button."""

from __future__ import annotations

from pathlib import Path

import pytest

from morris.app.view import point_views
from morris.core import Board, Move
from morris.engine.levels import MAX_LEVEL
from morris.sim import Simulation
from tests.app.scenario_kit import SETTLE, moves, play, position, resumed, scripted, shown

# -- the Pi's turns ----------------------------------------------------------------------------


def test_the_pis_placement_is_one_steady_light() -> None:
    with Simulation(mode="vs-ai", human="white", search=scripted(["g7"])) as sim:
        play(sim, "d6")
        assert shown(sim) == {"g7": "on"}
        sim.wait(10.0)
        assert shown(sim) == {"g7": "on"}  # it stays until carried out
        sim.place("g7")
        sim.wait(SETTLE)
        assert shown(sim) == {}
        assert moves(sim) == ["d6", "g7"]


def test_the_pi_playing_white_asks_for_its_first_piece_at_once() -> None:
    with Simulation(mode="vs-ai", human="black", search=scripted(["d2"])) as sim:
        sim.wait(SETTLE)
        assert shown(sim) == {"d2": "on"}
        assert sim.status()["turn"] == "off"


def test_the_pis_slide_blinks_slow_at_its_origin_and_steady_at_its_target(tmp_path: Path) -> None:
    board = Board(position(white="a1 d2 c3 e5", black="a7 g4 d6 b4"))
    pi = scripted(["g4-g1"])
    with resumed(tmp_path, board, mode="vs-ai", human="white", search=pi) as sim:
        play(sim, "c3-c4")
        assert shown(sim) == {"g4": "slow", "g1": "on"}
        sim.lift("g4")
        sim.wait(SETTLE)
        assert shown(sim) == {"g1": "on"}  # half done: the target still asks for the piece
        sim.place("g1")
        sim.wait(SETTLE)
        assert shown(sim) == {}
        assert moves(sim) == ["c3-c4", "g4-g1"]


def test_the_pis_removal_blinks_only_once_its_move_is_carried_out(tmp_path: Path) -> None:
    board = Board(position(white="a1 d2 b6 c3 e5", black="g7 g1 f4 d6"))
    pi = scripted(["f4-g4xa1"])
    with resumed(tmp_path, board, mode="vs-ai", human="white", search=pi) as sim:
        play(sim, "c3-c4")
        lights = shown(sim)
        assert lights == {"f4": "slow", "g4": "on"}
        assert "a1" not in lights
        sim.lift("f4")
        sim.wait(SETTLE)
        assert shown(sim) == {"g4": "on"}
        sim.place("g4")
        sim.wait(SETTLE)
        assert shown(sim) == {"a1": "slow"}
        sim.lift("a1")
        sim.wait(SETTLE)
        assert shown(sim) == {}
        assert moves(sim) == ["c3-c4", "f4-g4xa1"]


def test_the_pis_placement_with_a_removal(tmp_path: Path) -> None:
    board = Board(position(white="a1 d2 c3", black="g7 g4", hands=(4, 5), fullmove=5))
    pi = scripted(["g1xa1"])
    with resumed(tmp_path, board, mode="vs-ai", human="white", search=pi) as sim:
        play(sim, "e5")
        assert shown(sim) == {"g1": "on"}
        sim.place("g1")
        sim.wait(SETTLE)
        assert shown(sim) == {"a1": "slow"}
        sim.lift("a1")
        sim.wait(SETTLE)
        assert moves(sim) == ["e5", "g1xa1"] and shown(sim) == {}


# -- the person's turns ------------------------------------------------------------------------


def test_after_the_persons_mill_every_removable_piece_blinks_slow(tmp_path: Path) -> None:
    board = Board(position(white="a1 d1 g4 c3", black="a7 d7 g7 b4 d6 f2"))
    with resumed(tmp_path, board, mode="vs-ai", human="white", search=scripted([])) as sim:
        play(sim, "g4-g1")
        # The pieces of the mill a7-d7-g7 are protected and stay dark.
        assert shown(sim) == {"b4": "slow", "d6": "slow", "f2": "slow"}


@pytest.mark.parametrize("phase", [0.0, 0.25, 0.5, 0.75])
def test_a_person_looking_1s_after_a_mill_sees_the_removable_pieces_blink(
    tmp_path: Path, phase: float
) -> None:
    # Whatever the instant against the blink's period, the removable pieces light up as soon as
    # the mill is accepted (0.6 s after the slide) and are lit when the person looks at 1.0 s;
    # they used to stay dark for up to half a period, then look steady.
    board = Board(position(white="a1 d1 g4 c3", black="a7 d7 g7 b4 d6 f2"))
    removable = {"b4", "d6", "f2"}
    with resumed(tmp_path, board, mode="vs-ai", human="white", search=scripted([])) as sim:
        sim.wait(phase)
        sim.move("g4", "g1")
        finished = sim.now
        sim.wait(1.0)
        assert set(shown(sim)) == removable  # visible at a glance
        circuit, now = sim.hardware.circuit, sim.hardware.now
        assert all(circuit.level(point, now) for point in removable)  # lit this instant
        for point in removable:
            first = next((t, lit) for t, lit in circuit.history[point] if t > finished)
            assert first[1] and first[0] - finished < 0.7  # its first visible level is lit
        sim.wait(0.5)  # watching on: half a period later the blink shows
        assert shown(sim) == dict.fromkeys(removable, "slow")


def test_a_lifted_piece_shows_its_legal_targets(tmp_path: Path) -> None:
    board = Board(position(white="a1 d2 c3 e5", black="a7 g4 d6 b4 d1"))
    with resumed(tmp_path, board, mode="vs-ai", human="white", search=scripted([])) as sim:
        sim.lift("d2")
        sim.wait(SETTLE)
        assert shown(sim) == {"b2": "on", "f2": "on", "d3": "on"}  # d1 is taken
        sim.place("d2")  # put back: nothing to do
        sim.wait(SETTLE)
        assert shown(sim) == {} and moves(sim) == []


def test_a_wrong_board_is_shown_only_after_the_grace_time() -> None:
    with Simulation(mode="referee") as sim:
        play(sim, "d6", "f4")
        sim.lift("d6")  # white's piece gone and a piece where no turn puts it
        sim.place("a1")
        sim.place("g7")
        sim.wait(4.0)
        assert shown(sim) == {} and sim.status()["error"] == "off"
        sim.wait(2.0)
        assert shown(sim) == {"d6": "on", "a1": "fast", "g7": "fast"}
        assert sim.status()["error"] == "fast"
        sim.lift("g7")  # each correction shows at once
        sim.wait(SETTLE)
        assert shown(sim) == {"d6": "on", "a1": "fast"}
        sim.lift("a1")
        sim.place("d6")
        sim.wait(SETTLE)
        assert shown(sim) == {} and sim.status()["error"] == "off"
        assert moves(sim) == ["d6", "f4"]


# -- status LEDs -----------------------------------------------------------------------------


def test_status_leds_turn_and_thinking() -> None:
    with Simulation(mode="vs-ai", human="white", search=scripted(["g7"]), think_time=3.0) as sim:
        sim.wait(SETTLE)
        assert sim.status() == {"turn": "on", "thinking": "off", "error": "off", "game_over": "off"}
        sim.place("d6")
        sim.wait(1.0)
        assert sim.status()["turn"] == "off"
        sim.wait(1.0)  # the Pi thinks for 3 s
        assert sim.status()["thinking"] == "on"
        assert shown(sim) == {}
        sim.wait(2.5)
        assert sim.status()["thinking"] == "off" and shown(sim) == {"g7": "on"}
        assert sim.status()["turn"] == "off"  # the Pi's turn until it is carried out
        sim.place("g7")
        sim.wait(SETTLE)
        assert sim.status()["turn"] == "on"


def test_status_error_led_is_steady_while_guiding_a_resumed_board(tmp_path: Path) -> None:
    board = Board(position(white="a1 d2", black="g7", hands=(7, 8), turn="b", fullmove=2))
    with resumed(tmp_path, board, set_up=False) as sim:
        sim.wait(SETTLE)
        assert shown(sim) == {"a1": "on", "d2": "on", "g7": "on"}
        assert sim.status()["error"] == "on"
        for point in ("a1", "d2", "g7"):
            sim.place(point)
        sim.wait(SETTLE)
        assert shown(sim) == {} and sim.status()["error"] == "off"


# -- the hint button -------------------------------------------------------------------------


def test_the_hint_shows_a_suggested_placement_for_a_few_seconds() -> None:
    def hint(job: object) -> Move:
        return Move.parse("d2")

    with Simulation(mode="referee", search=scripted([], fallback=hint)) as sim:
        play(sim, "d6", "f4")
        sim.press("hint")
        sim.wait(1.5)
        assert shown(sim) == {"d2": "on"}
        sim.wait(4.0)
        assert shown(sim) == {}
        assert moves(sim) == ["d6", "f4"]


def test_the_hint_shows_a_slide_and_goes_when_the_board_changes(tmp_path: Path) -> None:
    board = Board(position(white="a1 d2 c3 e5", black="a7 g4 d6 b4"))

    def hint(job: object) -> Move:
        return Move.parse("c3-c4")

    with resumed(tmp_path, board, search=scripted([], fallback=hint)) as sim:
        sim.press("hint")
        sim.wait(1.5)
        assert shown(sim) == {"c3": "slow", "c4": "on"}
        sim.lift("e5")
        sim.wait(SETTLE)
        assert shown(sim) == {"d5": "on", "e4": "on"}  # the lifted piece's targets, no hint
        sim.place("e5")
        sim.wait(SETTLE)
        assert shown(sim) == {}


def test_the_hint_against_the_pi_is_a_legal_turn_of_the_person() -> None:
    with Simulation(mode="vs-ai", human="white", level=1, seed=3) as sim:
        play(sim, "d6")
        (pi,) = shown(sim)
        sim.place(pi)
        sim.wait(SETTLE)
        sim.press("hint")
        sim.wait(1.5)
        lights = shown(sim)
        assert len(lights) == 1 and set(lights.values()) == {"on"}
        (point,) = lights
        assert Move.parse(point) in sim.board.legal_moves
        sim.wait(4.0)
        assert shown(sim) == {}
        assert sim.status()["thinking"] == "off"  # a hint is not the Pi thinking


# -- the mode button -------------------------------------------------------------------------


def test_the_mode_button_raises_the_level_of_the_next_search() -> None:
    pi = scripted(["g7", "a7"])
    with Simulation(mode="vs-ai", human="white", level=1, search=pi) as sim:
        play(sim, "d6")
        sim.place("g7")
        sim.wait(SETTLE)
        sim.press("mode")
        sim.wait(0.5)
        assert sim.controller.level == 2
        assert shown(sim) == {"a7": "on", "d7": "on"}  # two lights: level 2
        sim.wait(SETTLE)
        assert shown(sim) == {}
        play(sim, "d2")
        assert [job.level for job in pi.searched] == [1, 2]  # type: ignore[attr-defined]
        assert shown(sim) == {"a7": "on"}


def test_the_mode_button_reaches_referee_mode_at_the_next_game() -> None:
    pi = scripted(["g7", "a7"])
    with Simulation(mode="vs-ai", human="white", level=MAX_LEVEL - 1, search=pi) as sim:
        play(sim, "d6")
        sim.place("g7")
        sim.wait(SETTLE)
        sim.press("mode")
        sim.wait(SETTLE)
        assert sim.controller.level == MAX_LEVEL
        sim.press("mode")
        sim.wait(0.5)
        inner = {"c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4"}
        assert shown(sim) == dict.fromkeys(inner, "slow")  # referee mode: the inner ring blinks
        sim.wait(SETTLE)
        assert sim.controller.mode == "vs-ai"  # this game goes on against the Pi
        play(sim, "d2")
        assert shown(sim) == {"a7": "on"}
        sim.place("a7")
        sim.wait(SETTLE)
        sim.press("new")
        sim.wait(SETTLE)
        assert sim.controller.mode == "referee"
        for point in ("d6", "g7", "d2", "a7"):
            sim.lift(point)
        sim.wait(SETTLE)
        play(sim, "a1", "g1")  # two people now: no Pi request after either
        assert moves(sim) == ["a1", "g1"] and shown(sim) == {}
        assert len(pi.searched) == 2  # type: ignore[attr-defined]
        sim.press("mode")  # from referee back to the Pi at level 1, next game
        sim.wait(SETTLE)
        assert sim.controller.mode == "referee"


# -- what a display draws ----------------------------------------------------------------------


def test_a_display_blinks_in_step_with_the_board(tmp_path: Path) -> None:
    # The terminal UI draws from the controller's snapshot: its blinks start where the LEDs' do.
    board = Board(position(white="a1 d1 g4 c3", black="a7 d7 g7 b4 d6 f2"))
    with resumed(tmp_path, board, mode="vs-ai", human="white", search=scripted([])) as sim:
        sim.wait(0.6)
        sim.move("g4", "g1")
        for _ in range(40):
            sim.wait(0.05)
            now = sim.now
            snap = sim.controller.snapshot(now)
            views = point_views(snap.pieces, sim.sensed, snap.lights, snap.lights_since, now)
            for point in ("b4", "d6", "f2", "a1", "g1"):
                assert views[point].lit == sim.hardware.circuit.level(point, now), (point, now)
