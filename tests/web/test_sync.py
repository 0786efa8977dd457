"""Two boards linked, in virtual time: the linked daemon's sync steps (morris.web.sync) move each
board's accepted turns to the other as remote turns, a gap after a dropped link closes turn by
turn, and a real divergence is refused with both games untouched."""

from __future__ import annotations

import random

import pytest

from morris.core import BLACK, WHITE, Board
from morris.sim import Simulation
from morris.web.sync import GameState, Step, plan_sync
from tests.app.scenario_kit import SETTLE, carry_out_opponent_turn, make_turn, moves, random_turn


def state_of(sim: Simulation) -> dict[str, object]:
    """The fields of the other board's /api/state the link reads."""
    snap = sim.controller.snapshot(sim.now)
    return {
        "position": snap.position,
        "moves": list(snap.moves),
        "mode": snap.mode,
        "remote_color": snap.remote_color,
    }


def sync(here: Simulation, there: Simulation) -> Step:
    """One step of the link run by ``here`` (the linked daemon) against ``there``."""
    local = WHITE if here.controller.human == "white" else BLACK
    step = plan_sync(here.board, local, GameState.from_json(state_of(there)))
    if step.kind == "send":
        assert step.move is not None
        there.remote_move(step.move)
    elif step.kind == "receive":
        assert step.move is not None
        here.remote_move(step.move)
    for sim in (here, there):
        sim.wait(SETTLE)
    return step


def boards() -> tuple[Simulation, Simulation]:
    a = Simulation(mode="remote", human="white")
    b = Simulation(mode="remote", human="black")
    for sim in (a, b):
        sim.remote_link(True)
    return a, b


def test_a_remote_game_played_on_two_boards_stays_one_game() -> None:
    rng = random.Random(5)
    a, b = boards()
    with a, b:
        for _ in range(40):
            if a.board.outcome() is not None:
                break
            person, other = (a, b) if a.board.turn == WHITE else (b, a)
            make_turn(person, random_turn(person, rng))
            person.wait(SETTLE)
            step = sync(b, a)
            assert step.kind == ("receive" if person is a else "send")
            carry_out_opponent_turn(other)  # the turn lit up on the other board, done by hand
            assert sync(b, a).kind == "same"
            assert a.board.position() == b.board.position()
        assert len(moves(a)) >= 30
        assert moves(a) == moves(b)


def test_turns_made_while_the_link_was_down_are_replayed_on_reconnect() -> None:
    a, b = boards()
    with a, b:
        make_turn(a, a.board.parse_notation("d6"))
        a.wait(SETTLE)
        b.remote_link(False)  # the link drops before b heard of d6
        assert b.controller.snapshot(b.now).connection == "waiting"
        b.wait(SETTLE)
        assert b.status()["thinking"] == "slow"
        b.remote_link(True)
        assert sync(b, a) == Step("receive", "d6")
        assert b.lights()["d6"] == "on"
        carry_out_opponent_turn(b)
        make_turn(b, b.board.parse_notation("b4"))
        b.wait(SETTLE)
        a.remote_link(False)  # and now the other way
        a.remote_link(True)
        assert sync(b, a) == Step("send", "b4")
        carry_out_opponent_turn(a)
        assert sync(b, a) == Step("same")
        assert moves(a) == moves(b) == ["d6", "b4"]


def test_a_real_divergence_is_refused_and_neither_game_is_touched() -> None:
    a, b = boards()
    with a, b:
        for text in ("d6", "b4"):
            person, other = (a, b) if a.board.turn == WHITE else (b, a)
            make_turn(person, person.board.parse_notation(text))
            person.wait(SETTLE)
            sync(b, a)
            carry_out_opponent_turn(other)
        b.press("new")  # a new game on one board only
        for name in sorted(b.sensed):
            b.lift(name)
        b.wait(SETTLE)
        make_turn(a, a.board.parse_notation("f4"))
        a.wait(SETTLE)
        step = sync(b, a)
        assert step.kind == "diverged"
        assert "the other board has 3 turn(s) this one has not (d6 b4 f4)" in step.reason
        assert moves(a) == ["d6", "b4", "f4"] and moves(b) == []
        assert a.lights()["d6"] == "off" and b.lights()["d6"] == "off"
        a.press("new")  # both boards start anew: one game again
        for name in sorted(a.sensed):
            a.lift(name)
        a.wait(SETTLE)
        assert sync(b, a) == Step("same")


@pytest.mark.parametrize(
    ("theirs", "says"),
    [
        ({"mode": "vs-ai"}, "mode vs-ai"),
        ({"remote_color": "black"}, "both boards play white at the board (--human white on both)"),
        ({"position": "W......./......../........ b 8 9 0 1 -"}, "another position"),
        ({"moves": ["d6", "zz"]}, "is no turn"),
        ({"moves": ["d6", "d6"]}, "another game"),
        ({"moves": ["b4"]}, "part at turn 1: d6 here, b4 there"),
    ],
)
def test_games_that_differ_for_real_are_diverged(theirs: dict[str, object], says: str) -> None:
    board = Board()
    board.push_notation("d6")
    base: dict[str, object] = {
        "position": board.position(),
        "moves": ["d6"],
        "mode": "remote",
        "remote_color": "white",
    }
    if "moves" in theirs and "position" not in theirs:
        replay = Board()
        try:
            for text in theirs["moves"]:  # type: ignore[attr-defined]
                replay.push_notation(text)
            base["position"] = replay.position()
        except ValueError:
            pass
    step = plan_sync(board, WHITE, GameState.from_json({**base, **theirs}))
    assert step.kind == "diverged" and says in step.reason, step


def test_a_state_that_is_no_state_is_refused() -> None:
    with pytest.raises(ValueError, match="moves"):
        GameState.from_json({"position": "x", "moves": "d6", "mode": "remote"})
