"""Mode remote on the simulated board: the remote player's turns are shown in the light language
exactly like the Pi's and count once the person carries them out; the link's state is shown by
the thinking LED and the snapshot; bad remote turns are refused with the game unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from morris.app.errors import InputError, NotNowError
from morris.sim import Simulation
from tests.app.scenario_kit import SETTLE, carry_out_opponent_turn, moves, play, position, shown


def remote_game(human: str = "white", **kwargs: object) -> Simulation:
    sim = Simulation(mode="remote", human=human, **kwargs)  # type: ignore[arg-type]
    sim.remote_link(True)
    return sim


def test_a_remote_turn_is_shown_like_the_pis_and_counts_when_carried_out() -> None:
    with remote_game() as sim:
        snap = sim.controller.snapshot(sim.now)
        assert (snap.remote_color, snap.pi_color, snap.connection) == ("black", None, "up")
        play(sim, "d6")
        assert sim.status()["thinking"] == "on"  # the remote side is to move
        assert sim.status()["turn"] == "off"
        sim.remote_move("b4")
        sim.wait(SETTLE)
        assert shown(sim) == {"b4": "on"}
        assert moves(sim) == ["d6"]  # not before it stands on the board
        assert carry_out_opponent_turn(sim) == "b4"
        assert moves(sim) == ["d6", "b4"]
        assert sim.describe().endswith("remote played b4")
        assert sim.status()["turn"] == "on"


def test_a_remote_mill_removal_is_shown_once_its_placement_stands() -> None:
    start = position("d6 f4 a1", "a7 d7", turn="b", hands=(6, 7))  # Black closes a7 d7 g7
    with remote_game(human="white") as sim:
        sim.setup(start)
        for name in ("d6", "f4", "a1", "a7", "d7"):
            sim.place(name)
        sim.wait(SETTLE)
        sim.remote_move("g7xd6")
        sim.wait(SETTLE)
        assert shown(sim) == {"g7": "on"}
        assert carry_out_opponent_turn(sim) == "g7xd6"
        assert moves(sim) == ["g7xd6"]


def test_the_page_waits_while_the_remote_player_is_away_and_nothing_is_lost() -> None:
    with Simulation(mode="remote", human="black") as sim:
        snap = sim.controller.snapshot(sim.now)
        assert snap.connection == "waiting" and snap.remote_color == "white"
        sim.wait(SETTLE)
        assert sim.status()["thinking"] == "slow"
        sim.remote_link(True)
        sim.remote_move("d6")
        sim.wait(SETTLE)
        sim.remote_link(False)  # the remote player went away with its turn shown
        sim.wait(SETTLE)
        assert sim.status()["thinking"] == "slow"
        assert "waiting for the remote player" in sim.describe()
        assert shown(sim) == {"d6": "on"}
        carry_out_opponent_turn(sim)
        play(sim, "b4")  # the person plays on while the remote player is away
        assert moves(sim) == ["d6", "b4"]
        sim.remote_link(True)
        sim.wait(SETTLE)
        assert sim.status()["thinking"] == "on"
        assert sim.controller.snapshot(sim.now).connection == "up"
        sim.remote_move("f4")
        sim.wait(SETTLE)
        carry_out_opponent_turn(sim)
        assert moves(sim) == ["d6", "b4", "f4"]


@pytest.mark.parametrize(
    ("move", "error", "says"),
    [
        ("zz9", InputError, "not a move"),
        ("d6-d7", InputError, "illegal remote move"),
        ("d6", NotNowError, "white's turn at the board"),
    ],
)
def test_a_bad_remote_turn_is_refused_and_the_game_goes_on(
    move: str, error: type[Exception], says: str
) -> None:
    with remote_game() as sim:
        if error is not NotNowError:
            play(sim, "d6")
        before = sim.board.position()
        with pytest.raises(error, match=says):
            sim.remote_move(move)
        sim.wait(SETTLE)
        assert sim.board.position() == before
        assert not shown(sim)


def test_remote_turns_only_in_mode_remote_and_not_after_the_game() -> None:
    with Simulation(mode="referee") as sim, pytest.raises(NotNowError, match="mode is referee"):
        sim.remote_move("d6")
    with remote_game() as sim:
        sim.setup(position("a7 d7 g4", "a1 d1 f2", turn="w"))
        for name in ("a7", "d7", "g4", "a1", "d1", "f2"):
            sim.place(name)
        sim.wait(SETTLE)
        play(sim, "g4-g7xa1")  # Black is down to two pieces
        assert sim.status()["game_over"] == "on"
        with pytest.raises(NotNowError, match="the game is over"):
            sim.remote_move("d1-d2")


def test_one_remote_turn_at_a_time_and_the_same_one_again_is_taken_once() -> None:
    with remote_game() as sim:
        play(sim, "d6")
        sim.remote_move("b4")
        sim.remote_move("b4")  # sent again (a link replaying it): nothing changes
        with pytest.raises(NotNowError, match="b4 waits to be carried out"):
            sim.remote_move("f4")
        sim.wait(SETTLE)
        assert shown(sim) == {"b4": "on"}
        carry_out_opponent_turn(sim)
        assert moves(sim) == ["d6", "b4"]


def test_no_takeback_against_a_remote_player() -> None:
    with remote_game() as sim:
        play(sim, "d6")
        sim.remote_move("b4")
        sim.wait(SETTLE)
        carry_out_opponent_turn(sim)
        sim.press("takeback")
        sim.wait(SETTLE)
        assert moves(sim) == ["d6", "b4"]
        assert sim.describe().endswith("no takeback against a remote player")
        sim.lift("b4")  # the position before: no takeback on the board either
        sim.wait(SETTLE)
        assert moves(sim) == ["d6", "b4"]


def test_the_mode_button_reaches_remote_after_referee(tmp_path: Path) -> None:
    with Simulation(mode="referee", state_dir=tmp_path) as sim:
        sim.press("mode")
        sim.wait(0.5)
        assert shown(sim) == dict.fromkeys(["a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4"], "slow")
        sim.press("new")
        sim.wait(SETTLE)
        assert sim.controller.mode == "remote"
        assert sim.controller.snapshot(sim.now).connection == "waiting"
        sim.press("mode")
        sim.press("new")
        sim.wait(SETTLE)
        assert (sim.controller.mode, sim.controller.level) == ("vs-ai", 1)


def test_a_remote_game_resumes_after_a_restart(tmp_path: Path) -> None:
    with remote_game(state_dir=tmp_path) as sim:
        play(sim, "d6")
        sim.remote_move("b4")
        sim.wait(SETTLE)
        carry_out_opponent_turn(sim)
    with Simulation(mode="remote", state_dir=tmp_path) as sim:
        for name in ("d6", "b4"):
            sim.place(name)
        sim.wait(SETTLE)
        assert moves(sim) == ["d6", "b4"]
        assert sim.controller.snapshot(sim.now).connection == "waiting"
        play(sim, "f4")
        assert moves(sim) == ["d6", "b4", "f4"]


def test_once_a_linked_board_reports_the_pages_no_longer_count_as_the_remote_player() -> None:
    with Simulation(mode="remote") as sim:
        sim.remote_link(True)  # a page
        assert sim.controller.snapshot(sim.now).remote_player == "page"
        sim.controller.on_remote_connection(True, sim.now, player="board")
        sim.controller.on_remote_connection(False, sim.now, player="board")
        sim.remote_link(True)  # the person's own page opens: still waiting for the board
        snap = sim.controller.snapshot(sim.now)
        assert (snap.connection, snap.remote_player) == ("waiting", "board")
        sim.controller.on_remote_connection(
            True, sim.now, player="board", note="the games differ: x"
        )
        assert sim.describe().endswith("the games differ: x")
