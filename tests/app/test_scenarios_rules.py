"""The rules, played on the board: every rule of docs/RULES.md as physical actions through the
simulated board, checked by what a person sees (the lights, the status LEDs) and the game the
referee accepted. Positions other than the start are resumed from a saved game (the daemon's
state directory) and then set up by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from morris.core import BLACK, WHITE, Board, Termination
from morris.sim import Simulation
from tests.app.scenario_kit import (
    SETTLE,
    moves,
    play,
    position,
    resumed,
    scripted,
    shown,
    strong_games,
)

# -- placing, sliding, flying --------------------------------------------------------------------


def test_placements_alternate_colours_and_the_turn_light_follows() -> None:
    with Simulation(mode="referee") as sim:
        sim.wait(SETTLE)
        assert sim.status()["turn"] == "on"  # white to move
        play(sim, "d6")
        assert sim.status()["turn"] == "off"  # black to move
        play(sim, "f4", "d2")
        assert moves(sim) == ["d6", "f4", "d2"]
        assert sim.board.pieces() == {"d6": WHITE, "f4": BLACK, "d2": WHITE}
        assert shown(sim) == {}
        assert sim.board.pieces_in_hand(WHITE) == 7 and sim.board.pieces_in_hand(BLACK) == 8


def test_a_slide_along_a_line_is_a_turn(tmp_path: Path) -> None:
    board = Board(position(white="a1 d2 c3 e5", black="a7 g4 d6 b4"))
    with resumed(tmp_path, board) as sim:
        sim.lift("c3")
        sim.wait(SETTLE)
        assert shown(sim) == {"c4": "on", "d3": "on"}  # its legal targets
        sim.place("d3")
        sim.wait(SETTLE)
        assert moves(sim) == ["c3-d3"]
        assert shown(sim) == {}


def test_a_jump_without_flying_is_not_a_turn_and_is_shown_as_wrong(tmp_path: Path) -> None:
    board = Board(position(white="a1 d2 c3 e5", black="a7 g4 d6 b4"))
    with resumed(tmp_path, board) as sim:
        sim.lift("c3")
        sim.wait(0.3)
        sim.place("f6")  # not next to c3, and white has four pieces
        sim.wait(6.0)  # past the flag delay
        assert moves(sim) == []
        assert shown(sim) == {"c3": "on", "f6": "fast"}
        assert sim.status()["error"] == "fast"
        sim.lift("f6")
        sim.place("c3")
        sim.wait(SETTLE)
        assert shown(sim) == {} and sim.status()["error"] == "off"
        play(sim, "c3-c4")
        assert moves(sim) == ["c3-c4"]


def test_a_player_with_three_pieces_flies_by_hand(tmp_path: Path) -> None:
    board = Board(position(white="a1 d2 e5", black="a7 g4 d6 b4 f2"))
    with resumed(tmp_path, board) as sim:
        sim.lift("a1")
        sim.wait(SETTLE)
        empty = {p for p in sim.lights() if p not in board.pieces()}
        assert shown(sim) == dict.fromkeys(empty, "on")  # every empty point is a target
        assert len(empty) == 16
        sim.place("g7")
        sim.wait(SETTLE)
        assert moves(sim) == ["a1-g7"]
        # The side with four pieces may not fly.
        sim.lift("b4")
        sim.wait(SETTLE)
        assert shown(sim) == {"b6": "on", "b2": "on", "c4": "on", "a4": "on"}


def test_without_flying_three_pieces_still_slide(tmp_path: Path) -> None:
    board = Board(position(white="a1 d2 e5", black="a7 g4 d6 b4 f2"), flying=False)
    with resumed(tmp_path, board) as sim:
        sim.lift("a1")
        sim.wait(SETTLE)
        assert shown(sim) == {"a4": "on", "d1": "on"}
        sim.place("g7")
        sim.wait(6.0)
        assert moves(sim) == []
        assert shown(sim) == {"a1": "on", "g7": "fast"}


# -- mills and removals ---------------------------------------------------------------------------


def test_a_mill_in_the_placing_phase_and_the_removal_by_lifting_referee() -> None:
    with Simulation(mode="referee") as sim:
        play(sim, "a1", "b6", "d1", "d6", "f6", "f4")
        sim.place("g1")
        sim.wait(SETTLE)
        assert moves(sim)[-1] == "f4"  # the mill waits for its removal
        assert shown(sim) == {"b6": "slow", "d6": "slow", "f4": "slow"}
        assert sim.status()["turn"] == "on"
        sim.lift("d6")
        sim.wait(SETTLE)
        assert moves(sim)[-1] == "g1xd6"
        assert shown(sim) == {}
        assert sim.board.piece_at("d6") is None and sim.board.pieces_on_board(BLACK) == 2


def test_a_mill_in_the_moving_phase_and_the_removal_by_lifting_referee(tmp_path: Path) -> None:
    board = Board(position(white="a1 d1 g4 c3", black="a7 d6 b4 f2", turn="b"))
    with resumed(tmp_path, board) as sim:
        play(sim, "f2-d2")
        play(sim, "g4-g1")
        assert shown(sim) == {"a7": "slow", "d6": "slow", "b4": "slow", "d2": "slow"}
        sim.lift("d2")
        sim.wait(SETTLE)
        assert moves(sim) == ["f2-d2", "g4-g1xd2"]
        assert shown(sim) == {}


def test_the_persons_mill_against_the_pi_removes_by_lifting() -> None:
    pi = scripted(["b6", "d6", "f4", "b4"])
    with Simulation(mode="vs-ai", human="white", search=pi) as sim:
        for mine in ("a1", "d1"):
            play(sim, mine)
            (request,) = shown(sim)
            sim.place(request)
            sim.wait(SETTLE)
        sim.place("g1")
        sim.wait(SETTLE)
        assert shown(sim) == {"b6": "slow", "d6": "slow"}
        assert sim.status()["thinking"] == "off"  # the Pi waits for the removal
        sim.lift("b6")
        sim.wait(SETTLE)
        assert moves(sim) == ["a1", "b6", "d1", "d6", "g1xb6"]
        assert shown(sim) == {"f4": "on"}  # the Pi's answer to the whole turn


def test_the_pis_mill_in_the_moving_phase_is_removed_by_hand(tmp_path: Path) -> None:
    board = Board(position(white="a1 d2 b6 c3 e5", black="g7 g1 f4 d6"))
    pi = scripted(["f4-g4xa1"])
    with resumed(tmp_path, board, mode="vs-ai", human="white", search=pi) as sim:
        play(sim, "c3-c4")
        assert shown(sim) == {"f4": "slow", "g4": "on"}
        sim.lift("f4")
        sim.place("g4")
        sim.wait(SETTLE)
        assert shown(sim) == {"a1": "slow"}  # the removal, once the slide is done
        assert moves(sim) == ["c3-c4"]
        sim.lift("a1")
        sim.wait(SETTLE)
        assert moves(sim) == ["c3-c4", "f4-g4xa1"]
        assert shown(sim) == {} and sim.status()["turn"] == "on"


def test_a_piece_in_a_mill_is_protected(tmp_path: Path) -> None:
    board = Board(position(white="a1 d1 g4 c3 e5", black="a7 d7 g7 b4 d6"))
    with resumed(tmp_path, board) as sim:
        play(sim, "g4-g1")
        assert shown(sim) == {"d6": "slow", "b4": "slow"}
        sim.lift("d7")  # in the mill a7-d7-g7
        sim.wait(SETTLE)
        assert shown(sim) == {"d7": "fast", "d6": "slow", "b4": "slow"}
        assert moves(sim) == []
        sim.place("d7")
        sim.wait(SETTLE)
        assert shown(sim) == {"d6": "slow", "b4": "slow"}
        sim.lift("b4")
        sim.wait(SETTLE)
        assert moves(sim) == ["g4-g1xb4"]


def test_when_every_piece_is_in_a_mill_any_may_be_removed(tmp_path: Path) -> None:
    board = Board(position(white="a1 d1 g4 c3 e5", black="a7 d7 g7 b6 b4 b2"))
    with resumed(tmp_path, board) as sim:
        play(sim, "g4-g1")
        assert shown(sim) == dict.fromkeys(["a7", "d7", "g7", "b6", "b4", "b2"], "slow")
        sim.lift("d7")
        sim.wait(SETTLE)
        assert moves(sim) == ["g4-g1xd7"]


def test_a_double_mill_removes_one_piece(tmp_path: Path) -> None:
    board = Board(position(white="a1 d1 g4 g7", black="b6 d6 f4 c3", hands=(3, 3)))
    with resumed(tmp_path, board) as sim:
        play(sim, "g1")  # closes a1-d1-g1 and g1-g4-g7
        assert shown(sim) == dict.fromkeys(["b6", "d6", "f4", "c3"], "slow")
        sim.lift("c3")
        sim.wait(SETTLE)
        assert moves(sim) == ["g1xc3"]
        assert sim.status()["turn"] == "off"  # black's turn now
        sim.lift("b6")  # a second removal is no turn: shown as missing
        sim.wait(6.0)
        assert moves(sim) == ["g1xc3"]
        assert shown(sim) == {"b6": "on"}
        sim.place("b6")
        sim.wait(SETTLE)
        assert shown(sim) == {}


def test_no_removal_when_the_opponent_has_no_piece_on_the_board(tmp_path: Path) -> None:
    board = Board(position(white="a1 d1", hands=(5, 9), fullmove=3))
    with resumed(tmp_path, board) as sim:
        play(sim, "g1")
        assert moves(sim) == ["g1"]
        assert shown(sim) == {} and sim.status()["turn"] == "off"


# -- the end of the game ----------------------------------------------------------------------


def _record_before_end(index: int, turns_left: int) -> tuple[Board, list[str], str]:
    result, _, turns = strong_games()[index]
    board = Board()
    for text in turns[:-turns_left]:
        board.push_notation(text)
    return board, turns[-turns_left:], result


def _assert_game_over(sim: Simulation, result: str, termination: Termination) -> None:
    outcome = sim.board.outcome()
    assert outcome is not None
    assert (outcome.result(), outcome.termination) == (result, termination)
    assert shown(sim) == {}
    assert sim.status()["game_over"] == "on"
    assert sim.status()["turn"] == "off" and sim.status()["thinking"] == "off"


def test_a_blocked_player_loses(tmp_path: Path) -> None:
    board, last, result = _record_before_end(2, 2)  # ... b4-b6 c4-b4: white is blocked
    with resumed(tmp_path, board) as sim:
        play(sim, *last)
        _assert_game_over(sim, result, Termination.BLOCKED)
        assert result == "0-1"


def test_a_player_down_to_two_pieces_loses(tmp_path: Path) -> None:
    board = Board(position(white="a1 d1 g4 c3", black="a7 d6 b4"))
    with resumed(tmp_path, board) as sim:
        play(sim, "g4-g1xb4")
        _assert_game_over(sim, "1-0", Termination.TOO_FEW_PIECES)


def test_threefold_repetition_is_a_draw_on_the_board(tmp_path: Path) -> None:
    board = Board(position(white="a1 g7 d2 f4", black="a7 g1 b4 d6"))
    shuffle = ["d2-d3", "d6-d5", "d3-d2", "d5-d6"]
    with resumed(tmp_path, board) as sim:
        play(sim, *shuffle, *shuffle[:3])
        assert sim.board.outcome() is None and sim.status()["game_over"] == "off"
        play(sim, shuffle[3])  # the start position for the third time
        _assert_game_over(sim, "1/2-1/2", Termination.THREEFOLD_REPETITION)


def test_a_hundred_turns_without_removal_is_a_draw_on_the_board(tmp_path: Path) -> None:
    board = Board(position(white="a1 g7 d2 f4", black="a7 g1 b4 d6", count=98))
    with resumed(tmp_path, board) as sim:
        play(sim, "d2-d3")
        assert sim.board.outcome() is None
        play(sim, "d6-d5")
        _assert_game_over(sim, "1/2-1/2", Termination.NO_REMOVAL)


def test_after_game_over_the_board_is_not_read_until_cleared(tmp_path: Path) -> None:
    board = Board(position(white="a1 d1 g4 c3", black="a7 d6 b4"))
    with resumed(tmp_path, board) as sim:
        play(sim, "g4-g1xb4")
        assert sim.status()["game_over"] == "on"
        play(sim, "a7-b6")  # moving on after the end is not a turn
        assert moves(sim) == ["g4-g1xb4"] and shown(sim) == {}
        for point in sorted(sim.sensed):
            sim.lift(point)
        sim.wait(3.0)  # the clear delay
        assert sim.board.move_stack == [] and sim.board.pieces() == {}
        assert sim.status()["game_over"] == "off" and sim.status()["turn"] == "on"
        play(sim, "d6", "f4")
        assert moves(sim) == ["d6", "f4"]


def test_clearing_the_board_mid_game_starts_a_new_game() -> None:
    with Simulation(mode="referee") as sim:
        play(sim, "d6", "f4", "d2")
        for point in ("d6", "f4", "d2"):
            sim.lift(point)
            sim.wait(0.2)
        sim.wait(1.0)
        assert len(sim.board.move_stack) == 3  # not yet: a clear must stand for a while
        sim.wait(2.0)
        assert sim.board.move_stack == [] and sim.status()["turn"] == "on"
        play(sim, "a1")
        assert moves(sim) == ["a1"] and sim.board.pieces() == {"a1": WHITE}


@pytest.mark.parametrize("human", ["white", "black"])
def test_the_game_against_the_pi_ends_on_the_board(tmp_path: Path, human: str) -> None:
    # The person (white) or the Pi (white) closes a mill that leaves black with two pieces.
    board = Board(position(white="a1 d1 g4 c3", black="a7 d6 b4"))
    pi = scripted(["g4-g1xb4"])
    with resumed(tmp_path, board, mode="vs-ai", human=human, search=pi) as sim:
        if human == "white":
            play(sim, "g4-g1xb4")
        else:
            assert shown(sim) == {"g4": "slow", "g1": "on"}
            sim.lift("g4")
            sim.place("g1")
            sim.wait(SETTLE)
            assert shown(sim) == {"b4": "slow"}
            sim.lift("b4")
            sim.wait(SETTLE)
        assert moves(sim) == ["g4-g1xb4"]
        _assert_game_over(sim, "1-0", Termination.TOO_FEW_PIECES)
