"""docs/DESIGN.md's list of failures real e-board users report, each as a physical scenario on the
simulated board: what the person does with their hands, and what they see and the game accepts.
(The serial link's loss is a scenario of the firmware bridge, tested with it.)"""

from __future__ import annotations

from pathlib import Path

from morris.core import BLACK, WHITE, Board
from morris.sim import Simulation
from tests.app.scenario_kit import SETTLE, moves, play, position, resumed, scripted, shown

# -- sliding a piece across points read as moves ---------------------------------------------


def test_a_piece_slid_across_points_is_one_placement() -> None:
    with Simulation(mode="referee") as sim:
        play(sim, "d6")
        # Black's piece comes in from the edge, dragged over d1 and d2 to rest on d3.
        arrives = sim.hardware.slide(["d1", "d2", "d3"], step=0.25)
        sim.wait(arrives - sim.now + SETTLE)
        assert moves(sim) == ["d6", "d3"]
        assert sim.board.pieces() == {"d6": WHITE, "d3": BLACK}
        assert shown(sim) == {}


def test_a_fly_drawn_along_the_lines_is_one_turn(tmp_path: Path) -> None:
    board = Board(position(white="a1 d2 e5", black="g4 d6 b4 f2 c3"))
    with resumed(tmp_path, board) as sim:
        arrives = sim.hardware.slide(["a1", "a4", "a7", "d7", "g7"], step=0.3)
        sim.wait(arrives - sim.now + SETTLE)
        # a7-d7-g7 would be no mill for white, but a4 or d7 must not become the turn either.
        assert moves(sim) == ["a1-g7"]
        assert shown(sim) == {}


def test_a_slide_over_a_mill_point_closes_no_mill(tmp_path: Path) -> None:
    board = Board(position(white="a1 d1 c3 e5", black="g7 d6 b4 f6"))
    with resumed(tmp_path, board) as sim:
        # The piece taken from c3 touches g1 for a moment (a1-d1-g1) on its way to d3.
        sim.lift("c3")
        sim.wait(0.3)
        sim.place("g1")  # a1-d1-g1 for a moment
        sim.wait(0.2)
        sim.lift("g1")
        sim.wait(0.1)
        sim.place("d3")
        sim.wait(SETTLE)
        assert moves(sim) == ["c3-d3"]
        assert shown(sim) == {}


# -- a fast reply right after the computer's move ---------------------------------------------


def test_a_fast_reply_right_after_the_pis_move_is_read() -> None:
    with Simulation(mode="vs-ai", human="white", search=scripted(["g7", "a7"])) as sim:
        play(sim, "d6")
        assert shown(sim) == {"g7": "on"}
        sim.place("g7")
        sim.wait(0.15)  # the person answers at once
        sim.place("d2")
        sim.wait(SETTLE)
        assert moves(sim) == ["d6", "g7", "d2"]
        assert shown(sim) == {"a7": "on"}


def test_a_fast_reply_after_the_pis_slide_with_a_removal_is_read(tmp_path: Path) -> None:
    board = Board(position(white="a1 d2 b6 c3 e5", black="g7 g1 f4 d6"))
    pi = scripted(["f4-g4xa1"])
    with resumed(tmp_path, board, mode="vs-ai", human="white", search=pi) as sim:
        play(sim, "c3-c4")
        sim.lift("f4")
        sim.place("g4")
        sim.wait(0.2)
        sim.lift("a1")
        sim.wait(0.15)
        sim.lift("e5")  # the person's next turn begins at once
        sim.wait(0.2)
        sim.place("e4")
        sim.wait(SETTLE)
        assert moves(sim)[:3] == ["c3-c4", "f4-g4xa1", "e5-e4"]


# -- ghost moves and false takebacks when moving quickly --------------------------------------


def test_quick_placements_are_each_one_turn() -> None:
    with Simulation(mode="referee") as sim:
        turns = ["d6", "f4", "d2", "b4", "a7", "g1", "c5", "e3"]
        for point in turns:
            sim.place(point)
            sim.wait(0.7)  # a brisk game: a turn every 0.7 s
        sim.wait(SETTLE)
        assert moves(sim) == turns
        assert shown(sim) == {}


def test_stepping_back_quickly_is_a_move_not_a_takeback(tmp_path: Path) -> None:
    board = Board(position(white="a1 g7 d2 f4", black="a7 g1 b4 d6"))
    with resumed(tmp_path, board) as sim:
        play(sim, "d2-d3", "d6-d5", settle=0.8)
        play(sim, "d3-d2", settle=0.8)  # the position before black's turn: still a move
        sim.wait(SETTLE)
        assert moves(sim) == ["d2-d3", "d6-d5", "d3-d2"]
        assert sim.status()["turn"] == "off"  # black to move, nothing undone


def test_a_quick_game_against_the_pi_has_no_ghost_turns() -> None:
    pi = scripted(["g7", "a7", "g1"])
    with Simulation(mode="vs-ai", human="white", search=pi, think_time=0.1) as sim:
        for mine in ("d6", "d2", "b4"):
            sim.place(mine)
            sim.wait(0.8)  # accepted after 0.6 s, answered 0.1 s later
            (request,) = shown(sim)
            sim.place(request)
            sim.wait(0.7)
        sim.wait(SETTLE)
        assert moves(sim) == ["d6", "g7", "d2", "a7", "b4", "g1"]


# -- no feedback when the computer's move is carried out wrongly ------------------------------


def test_the_pis_move_carried_out_wrongly_is_flagged_then_fixed(tmp_path: Path) -> None:
    board = Board(position(white="a1 d2 c3 e5", black="a7 g4 d6 b4"))
    pi = scripted(["g4-g1"])
    with resumed(tmp_path, board, mode="vs-ai", human="white", search=pi) as sim:
        play(sim, "c3-c4")
        assert shown(sim) == {"g4": "slow", "g1": "on"}
        sim.lift("g4")
        sim.wait(0.3)
        sim.place("g7")  # the wrong way along the line
        sim.wait(2.0)
        assert moves(sim) == ["c3-c4"]
        assert shown(sim) == {"g1": "on"}  # still asking, no alarm yet
        sim.wait(4.0)
        assert shown(sim) == {"g1": "on", "g7": "fast"}
        assert sim.status()["error"] == "fast"
        sim.lift("g7")
        sim.wait(0.3)
        sim.place("g1")
        sim.wait(SETTLE)
        assert moves(sim) == ["c3-c4", "g4-g1"]
        assert shown(sim) == {} and sim.status()["error"] == "off"


def test_the_pis_placement_on_the_wrong_point_is_flagged_then_fixed() -> None:
    with Simulation(mode="vs-ai", human="white", search=scripted(["g7"])) as sim:
        play(sim, "d6")
        sim.place("g4")
        sim.wait(6.0)
        assert moves(sim) == ["d6"]
        assert shown(sim) == {"g7": "on", "g4": "fast"}
        sim.lift("g4")
        sim.place("g7")
        sim.wait(SETTLE)
        assert moves(sim) == ["d6", "g7"] and shown(sim) == {}


# -- deadlock after a takeback while the engine thinks ----------------------------------------


def test_restoring_the_board_while_the_pi_thinks_takes_back_without_deadlock() -> None:
    pi = scripted({"d6": "a7", "d2": "g7"})
    with Simulation(mode="vs-ai", human="white", search=pi, think_time=30.0) as sim:
        play(sim, "d6")
        assert sim.status()["thinking"] == "on"
        sim.lift("d6")  # the person changes their mind
        sim.wait(SETTLE)
        assert moves(sim) == [] and sim.status()["thinking"] == "off"
        assert sim.status()["turn"] == "on"
        sim.wait(40.0)  # the cancelled search's answer never shows
        assert shown(sim) == {} and moves(sim) == []
        sim.controller.runner.think_time = 0.3  # type: ignore[attr-defined]
        play(sim, "d2")
        assert shown(sim) == {"g7": "on"}
        sim.place("g7")
        sim.wait(SETTLE)
        assert moves(sim) == ["d2", "g7"]


def test_the_takeback_button_while_the_pi_thinks_guides_the_board_back() -> None:
    pi = scripted(["g7", "a7"])
    with Simulation(mode="vs-ai", human="white", search=pi, think_time=30.0) as sim:
        play(sim, "d6")
        assert sim.status()["thinking"] == "on"
        sim.press("takeback")
        sim.wait(SETTLE)
        assert moves(sim) == [] and sim.status()["thinking"] == "off"
        assert shown(sim) == {"d6": "fast"}  # the taken-back piece must go
        play(sim, "a1")  # no turn is read while the board is wrong
        assert moves(sim) == []
        sim.lift("a1")
        sim.lift("d6")
        sim.wait(SETTLE)
        assert shown(sim) == {} and sim.status()["turn"] == "on"
        sim.wait(40.0)
        assert moves(sim) == [] and shown(sim) == {}
        play(sim, "d2")
        assert moves(sim) == ["d2"] and sim.status()["thinking"] == "on"


def test_the_takeback_button_after_the_pis_reply_undoes_both_turns() -> None:
    pi = scripted(["g7", "a7", "g1"])
    with Simulation(mode="vs-ai", human="white", search=pi) as sim:
        play(sim, "d6")
        sim.place("g7")
        sim.wait(SETTLE)
        play(sim, "d2")
        sim.place("a7")
        sim.wait(SETTLE)
        sim.press("takeback")
        sim.wait(SETTLE)
        assert moves(sim) == ["d6", "g7"]
        assert shown(sim) == {"d2": "fast", "a7": "fast"}
        sim.lift("d2")
        sim.lift("a7")
        sim.wait(SETTLE)
        assert shown(sim) == {}
        play(sim, "b4")
        assert moves(sim) == ["d6", "g7", "b4"] and shown(sim) == {"g1": "on"}


# -- stuck after game end or after setup -------------------------------------------------------


def test_the_new_game_button_with_pieces_on_the_board_blinks_them_until_cleared() -> None:
    with Simulation(mode="referee") as sim:
        play(sim, "d6", "f4", "d2")
        sim.press("new")
        sim.wait(SETTLE)
        assert sim.board.move_stack == []
        assert shown(sim) == {"d6": "fast", "f4": "fast", "d2": "fast"}
        play(sim, "a1")
        assert moves(sim) == []  # nothing is read before the board is cleared
        for point in ("d6", "f4", "a1"):
            sim.lift(point)
        sim.wait(SETTLE)
        assert shown(sim) == {"d2": "fast"}
        sim.lift("d2")
        sim.wait(SETTLE)
        assert shown(sim) == {}
        play(sim, "g7", "a7")
        assert moves(sim) == ["g7", "a7"]


def test_after_game_end_the_new_game_button_and_a_clear_board_start_again(
    tmp_path: Path,
) -> None:
    board = Board(position(white="a1 d1 g4 c3", black="a7 d6 b4"))
    with resumed(tmp_path, board, mode="vs-ai", human="white", search=scripted(["d2"])) as sim:
        play(sim, "g4-g1xb4")
        assert sim.status()["game_over"] == "on" and shown(sim) == {}
        sim.press("new")
        sim.wait(SETTLE)
        assert sim.status()["game_over"] == "off"
        leftovers = {"a1", "d1", "g1", "c3", "a7", "d6"}
        assert shown(sim) == dict.fromkeys(leftovers, "fast")
        for point in sorted(leftovers):
            sim.lift(point)
            sim.wait(0.3)
        sim.wait(SETTLE)
        assert shown(sim) == {} and sim.status()["turn"] == "on"
        play(sim, "d6")
        assert shown(sim) == {"d2": "on"}


# -- flicker of weak magnets read as moves ------------------------------------------------------


def test_a_weak_magnet_flickering_is_not_read_as_moves() -> None:
    with Simulation(mode="vs-ai", human="white", search=scripted(["g7", "a7"])) as sim:
        play(sim, "d6")
        sim.place("g7")
        sim.wait(SETTLE)
        sim.hardware.set_flicker("d6", 0.3)
        sim.hardware.set_flicker("g7", 0.3)
        sim.wait(30.0)
        assert moves(sim) == ["d6", "g7"]
        assert shown(sim) == {} and sim.status()["error"] == "off"
        play(sim, "d2")
        assert moves(sim) == ["d6", "g7", "d2"] and shown(sim) == {"a7": "on"}


def test_bouncing_contacts_are_not_read_as_moves() -> None:
    with Simulation(mode="referee") as sim:
        sim.hardware.set_bounce(0.03)
        turns = ["d6", "f4", "d2", "b4", "a1", "g1"]
        play(sim, *turns)
        assert moves(sim) == turns and shown(sim) == {}


# -- LEDs flickering on unrelated points --------------------------------------------------------


def test_unrelated_leds_stay_dark_while_the_pi_waits_and_sensors_are_noisy() -> None:
    with Simulation(mode="vs-ai", human="white", search=scripted(["g7"])) as sim:
        play(sim, "d6")
        sim.hardware.set_flicker("d6", 0.3)
        sim.hardware.set_bounce(0.05)
        seen: dict[str, set[str]] = {}
        for _ in range(60):
            sim.wait(0.1)
            for point, signal in sim.lights().items():
                seen.setdefault(point, set()).add(signal)
        assert seen.pop("g7") == {"on"}
        assert all(signals == {"off"} for signals in seen.values()), seen


def test_the_pis_lights_stay_steady_while_another_point_is_flagged(tmp_path: Path) -> None:
    board = Board(position(white="a1 d2 c3 e5", black="a7 g4 d6 b4"))
    pi = scripted(["g4-g1"])
    with resumed(tmp_path, board, mode="vs-ai", human="white", search=pi) as sim:
        play(sim, "c3-c4")
        sim.place("f6")  # a stray piece while the Pi's slide is shown
        history: list[dict[str, str]] = []
        for _ in range(80):
            sim.wait(0.1)
            history.append(shown(sim))
        assert all(h.get("g4") == "slow" and h.get("g1") == "on" for h in history)
        assert history[-1] == {"g4": "slow", "g1": "on", "f6": "fast"}
        unrelated = {p for h in history for p in h} - {"g4", "g1", "f6"}
        assert unrelated == set()


# -- the game lost after a restart ---------------------------------------------------------------


def test_the_game_survives_a_restart(tmp_path: Path) -> None:
    pi = scripted(["g7", "a7", "g1", "d7"])
    with Simulation(mode="vs-ai", human="white", level=2, search=pi, state_dir=tmp_path) as sim:
        play(sim, "d6")
        sim.place("g7")
        sim.wait(SETTLE)
        play(sim, "d2")
        sim.place("a7")
        sim.wait(SETTLE)
        before = moves(sim)
    assert before == ["d6", "g7", "d2", "a7"]
    # The Pi restarts; the pieces were put away meanwhile. The lights ask for them back.
    with Simulation(mode="referee", level=7, search=pi, state_dir=tmp_path) as sim:
        sim.wait(10.0)
        assert moves(sim) == before
        assert sim.controller.mode == "vs-ai" and sim.controller.level == 2
        assert shown(sim) == dict.fromkeys(["d6", "g7", "d2", "a7"], "on")
        for point in ("d6", "g7", "d2", "a7"):
            sim.place(point)
            sim.wait(0.5)
        sim.wait(SETTLE)
        assert shown(sim) == {}
        play(sim, "b4")
        assert moves(sim) == [*before, "b4"] and shown(sim) == {"g1": "on"}


def test_a_restart_with_a_disturbed_board_guides_it_back(tmp_path: Path) -> None:
    with Simulation(mode="referee", state_dir=tmp_path) as sim:
        play(sim, "d6", "f4", "d2", "b4")
    with Simulation(mode="referee", state_dir=tmp_path) as sim:
        for point in ("d6", "f4", "d2", "g7"):  # b4 fell off, g7 is a stray piece
            sim.place(point)
        sim.wait(30.0)
        assert moves(sim) == ["d6", "f4", "d2", "b4"]
        assert shown(sim) == {"b4": "on", "g7": "fast"}
        sim.lift("g7")
        sim.place("b4")
        sim.wait(SETTLE)
        assert shown(sim) == {}
        play(sim, "a1")
        assert moves(sim)[-1] == "a1" and sim.board.pieces()["a1"] == WHITE


def test_a_restart_when_the_pi_was_to_move_shows_its_turn(tmp_path: Path) -> None:
    pi = scripted({"d6": "g7"})
    with Simulation(
        mode="vs-ai", human="white", search=pi, think_time=30.0, state_dir=tmp_path
    ) as sim:
        play(sim, "d6")
        assert sim.status()["thinking"] == "on"
    with Simulation(mode="vs-ai", human="white", search=pi, state_dir=tmp_path) as sim:
        sim.place("d6")
        sim.wait(SETTLE)
        assert moves(sim) == ["d6"]
        assert shown(sim) == {"g7": "on"}
        sim.place("g7")
        sim.wait(SETTLE)
        assert moves(sim) == ["d6", "g7"]
