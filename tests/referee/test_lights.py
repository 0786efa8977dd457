"""The light language of docs/DESIGN.md, signal by signal, and the status LEDs."""

from __future__ import annotations

from morris.core import BLACK, WHITE, Move
from morris.referee.lights import compute_lights, status_lights, turn_lights
from morris_device import Signal
from tests.referee.table import MILL_B, MILL_W, SETTLE, Table, mask, position


def test_every_point_gets_a_signal() -> None:
    table = Table()
    lights = compute_lights(table.referee, 0.0)
    assert sorted(lights) == list(range(24))
    assert set(lights.values()) == {Signal.OFF}


def test_turn_lights_follow_the_board() -> None:
    move = Move.parse("g4-g7xe4")
    start = mask("g4", "e4")
    assert turn_lights(move, start) == {3: Signal.SLOW, 2: Signal.ON}
    lifted = mask("e4")
    assert turn_lights(move, lifted) == {2: Signal.ON}
    done = mask("g7", "e4")
    assert turn_lights(move, done) == {19: Signal.SLOW}
    assert turn_lights(move, start, removal_at_once=True) == {
        3: Signal.SLOW,
        2: Signal.ON,
        19: Signal.SLOW,
    }


def test_the_pis_placement_is_on() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    table.expect("a7")
    assert table.shown() == {"on": {"a7"}}


def test_the_pis_slide_is_slow_at_the_origin_and_on_at_the_target() -> None:
    table = Table(position(MILL_B, MILL_W, "b"), opponent_color=BLACK)
    table.expect("g4-g1")
    assert table.shown() == {"slow": {"g4"}, "on": {"g1"}}


def test_the_pis_placement_with_a_removal_shows_the_removal_once_placed() -> None:
    table = Table(position("a7 d7", "a1 d1 g1", "b", hands=(7, 6)), opponent_color=WHITE)
    table.play("c3")  # black, the person
    table.expect("g7xc3")
    assert table.shown() == {"on": {"g7"}}
    table.place("g7")
    table.wait(0.2)
    assert table.shown() == {"slow": {"c3"}}


def test_after_a_persons_mill_every_removable_piece_is_slow() -> None:
    table = Table(position(MILL_W, MILL_B))
    table.move("g4-g7")
    table.wait(0.3)
    assert table.shown() == {}  # not yet: it may be a piece passing over the point
    table.wait(0.4)
    assert table.shown() == {"slow": {"c4", "e4"}}


def test_a_lifted_piece_shows_its_legal_targets_on() -> None:
    table = Table(position(MILL_W, MILL_B))
    table.lift("d7")
    table.wait(0.2)
    assert table.shown() == {"on": {"d6", "g7"}}


def test_a_wrong_board_shows_unexpected_fast_and_missing_on() -> None:
    table = Table(position(MILL_W, MILL_B))
    table.lift("a7")
    table.place("e5")
    table.wait(5.3)
    assert table.shown() == {"on": {"a7"}, "fast": {"e5"}}


def test_game_over_switches_every_point_off() -> None:
    table = Table(position(MILL_W, "b2 d2 f2"))
    table.play("g4-g7xf2")
    table.place("a1")
    table.wait(10.0)
    assert table.shown() == {}


def test_status_turn_in_referee_mode_is_whites_turn() -> None:
    table = Table()
    assert table.status()["turn"] == "on"
    table.play("d6")
    assert table.status()["turn"] == "off"


def test_status_turn_and_thinking_against_the_pi() -> None:
    table = Table(opponent_color=BLACK)
    assert status_lights(table.referee, thinking=False)["turn"] == Signal.ON
    table.play("d6")
    assert status_lights(table.referee, thinking=True) == {
        "turn": Signal.OFF,
        "thinking": Signal.ON,
        "error": Signal.OFF,
        "game_over": Signal.OFF,
    }


def test_status_error_is_fast_when_flagged_and_on_while_guiding() -> None:
    table = Table()
    table.place("d6")
    table.place("a7")  # two pieces at once: no single turn
    table.wait(SETTLE)
    assert table.status()["error"] == "off"
    table.wait(5.0)
    assert table.status()["error"] == "fast"
    table.new_game()
    assert table.status()["error"] == "on"
    assert table.shown() == {"fast": {"d6", "a7"}}
