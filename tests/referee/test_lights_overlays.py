"""What the app layers show over the game, computed by the light language from their state.

The board setup, a choice shown for a moment (the mode button, the variant, a puzzle's length), a
puzzle's guidance, the remote player and the engine fallback come into
:mod:`morris.referee.lights` as an :class:`Overlay`; these tests hold the lights they give to
docs/DESIGN.md ("The light language", "The status LEDs").
"""

from __future__ import annotations

from morris.core import BLACK, VARIANTS, WHITE, Color, Point, parse_point
from morris.referee.lights import (
    Choice,
    Overlay,
    SetupOverlay,
    compute_lights,
    status_lights,
    variant_lights,
)
from morris_device import POINT_NAMES, Signal, StatusLight
from tests.referee.table import MILL_B, MILL_W, SETTLE, Table, mask, position


def named(lights: dict[Point, Signal]) -> dict[str, str]:
    """The points that are lit, by name, with their signal's value."""
    return {POINT_NAMES[p]: s.value for p, s in lights.items() if s is not Signal.OFF}


def colours(**pieces: str) -> dict[Point, Color]:
    """A setup's colours: ``white="a7 d7", black="g1"``."""
    out: dict[Point, Color] = {}
    for side, names in pieces.items():
        for name in names.split():
            out[parse_point(name)] = WHITE if side == "white" else BLACK
    return out


def test_a_setup_shows_whites_pieces_on_and_blacks_slow_over_the_pis_turn() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    table.expect("a7")  # the Pi asks for a7: the setup hides it
    setup = SetupOverlay(colours(white="d6 g7", black="a1"), selected=BLACK)
    lights = compute_lights(table.referee, table.t, Overlay(setup=setup))
    assert sorted(lights) == list(range(24))
    assert named(lights) == {"d6": "on", "g7": "on", "a1": "slow"}


def test_a_setups_status_shows_the_selected_colour_and_a_refusal() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    white = status_lights(table.referee, True, Overlay(setup=SetupOverlay({}, selected=WHITE)))
    assert white == {
        StatusLight.TURN: Signal.ON,
        StatusLight.THINKING: Signal.OFF,  # whatever the Pi does meanwhile
        StatusLight.ERROR: Signal.OFF,
        StatusLight.GAME_OVER: Signal.OFF,
    }
    refused = SetupOverlay({}, selected=BLACK, refused=True)
    status = status_lights(table.referee, False, Overlay(setup=refused))
    assert (status[StatusLight.TURN], status[StatusLight.ERROR]) == (Signal.SLOW, Signal.FAST)


def test_a_level_or_a_puzzles_length_is_that_many_points_on_from_a7() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    table.expect("a1")
    lights = compute_lights(table.referee, table.t, Overlay(choice=Choice(count=3)))
    assert named(lights) == {"a7": "on", "d7": "on", "g7": "on"}  # the Pi's a1 hidden


def test_referee_mode_is_the_inner_square_and_remote_mode_the_outer_one() -> None:
    table = Table()
    inner = compute_lights(table.referee, 0.0, Overlay(choice=Choice(mode="referee")))
    outer = compute_lights(table.referee, 0.0, Overlay(choice=Choice(mode="remote")))
    assert named(inner) == dict.fromkeys(["c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4"], "slow")
    assert named(outer) == dict.fromkeys(["a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4"], "slow")


def test_a_variant_chosen_at_the_board_shows_its_points_and_number() -> None:
    table = Table()
    rules = VARIANTS["morabaraba"]
    lights = compute_lights(table.referee, 0.0, Overlay(choice=Choice(rules=rules)))
    assert lights == variant_lights(rules)
    assert [POINT_NAMES[p] for p, s in lights.items() if s is Signal.SLOW] == ["a7", "d7", "g7"]


def test_a_puzzle_guides_a_missing_black_piece_slow_and_white_on() -> None:
    table = Table()
    puzzle = position("a7 d7 g4", "b2 d2 f2", "w")
    table.referee.set_up(puzzle, table.t, sensed=mask("a7", "e5"))
    table.wait(SETTLE)
    plain = compute_lights(table.referee, table.t)
    guided = compute_lights(table.referee, table.t, Overlay(puzzle=True))
    assert named(plain) == {
        **dict.fromkeys(["d7", "g4", "b2", "d2", "f2"], "on"),
        "e5": "fast",
    }
    assert named(guided) == {
        **dict.fromkeys(["d7", "g4"], "on"),
        **dict.fromkeys(["b2", "d2", "f2"], "slow"),
        "e5": "fast",
    }


def test_a_puzzle_changes_no_light_once_the_board_matches() -> None:
    table = Table(position(MILL_W, MILL_B))
    table.lift("d7")
    table.wait(0.2)
    lights = compute_lights(table.referee, table.t)
    assert compute_lights(table.referee, table.t, Overlay(puzzle=True)) == lights
    assert named(lights) == {"d6": "on", "g7": "on"}


def test_the_remote_players_turn_lights_thinking_and_waiting_blinks_it() -> None:
    table = Table(opponent_color=BLACK)  # the remote player plays black
    table.play("d6")
    up = status_lights(table.referee, False, Overlay(remote=True, remote_up=True))
    down = status_lights(table.referee, False, Overlay(remote=True, remote_up=False))
    assert (up[StatusLight.THINKING], down[StatusLight.THINKING]) == (Signal.ON, Signal.SLOW)
    table.expect("a7")
    table.place("a7")
    table.wait(SETTLE)  # the person's turn: the remote player is not to move
    up = status_lights(table.referee, True, Overlay(remote=True, remote_up=True))
    assert up[StatusLight.THINKING] is Signal.OFF


def test_the_engine_fallback_blinks_error_slow_unless_the_board_is_wrong() -> None:
    table = Table()
    fallback = Overlay(engine_fallback=True)
    assert status_lights(table.referee, False, fallback)[StatusLight.ERROR] is Signal.SLOW
    table.place("d6")
    table.place("a7")  # two pieces at once: no single turn
    table.wait(SETTLE + 5.0)
    assert status_lights(table.referee, False, fallback)[StatusLight.ERROR] is Signal.FAST
