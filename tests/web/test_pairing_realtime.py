"""Two boards paired on loopback, in real time: two `morris sim --web` processes, the second
started with `--link` to the first. A remote game is played through both, each connection is
dropped (one process stopped) and restored, and both games are identical after."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.pairing_kit import Board, wait_until

pytestmark = [pytest.mark.realtime, pytest.mark.slow]


def linked(board: Board) -> bool:
    state = board.state()
    return state["link"] == "up" and state["remote_player"] == "board"


def arrange(board: Board) -> None:
    """Put the pieces of a resumed game back where the lights ask (its board starts empty)."""
    placed = wait_until(lambda: board.lit("on"), f"{board.name}'s guidance")
    for point in placed:
        board.hand("place", point)
    wait_until(lambda: not set(board.lit("on")) & set(placed), f"{board.name} to match")


def test_a_remote_game_through_two_linked_boards_survives_dropped_links(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = Board("a", tmp_path / "a", "--mode", "remote", "--human", "white")
    b = Board("b", tmp_path / "b", "--mode", "remote", "--human", "black", "--link", a.url)
    try:
        a.start()
        assert a.state()["link"] == "waiting"
        b.start()
        wait_until(lambda: linked(a) and linked(b), "both boards to be linked")
        a.play("d6")
        assert b.carry_out() == "d6"  # a's turn lit up on b as its remote turn
        b.play("b4")
        assert a.carry_out() == "b4"

        b.stop()  # the second house goes offline
        wait_until(lambda: a.state()["link"] == "waiting", "a to say waiting")
        wait_until(lambda: a.state()["status"]["thinking"] == "slow", "a's thinking LED slow")
        a.play("f4")  # nothing is lost: a's person plays on

        b.start()  # b resumes its saved game on an empty board: the lights guide it back
        wait_until(lambda: linked(a) and linked(b), "the link to be back")
        arrange(b)
        assert b.carry_out() == "f4"  # the turn made while b was away, replayed on b
        b.play("d2")
        assert a.carry_out() == "d2"

        a.stop()  # now the first house
        wait_until(lambda: b.state()["link"] == "waiting", "b to say waiting")
        assert b.state()["status"]["thinking"] == "slow"
        a.start()
        wait_until(lambda: linked(a) and linked(b), "the link to be back again")
        arrange(a)
        a.play("a7")
        assert b.carry_out() == "a7"

        state_a, state_b = a.state(), b.state()
        assert state_a["moves"] == state_b["moves"] == ["d6", "b4", "f4", "d2", "a7"]
        assert state_a["position"] == state_b["position"]
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n--- a ---\n{a.log()}\n--- b ---\n{b.log()}") from None
    finally:
        b.stop()
        a.stop()
