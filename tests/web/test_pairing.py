"""The pairing's worker in virtual time: what it does with the other board's state, through the
host (no threads started, no HTTP: the steps it takes on this board's controller). Private
methods are called here to step the worker by hand."""

from __future__ import annotations

from morris.sim import Simulation
from morris.web.host import SimulationHost
from morris.web.pairing import BoardPairing
from morris.web.sync import GameState
from tests.app.scenario_kit import SETTLE, moves


def theirs(moves_: list[str], position: str) -> GameState:
    return GameState(position, tuple(moves_), "remote", "black")


def test_the_other_boards_turn_becomes_this_boards_remote_turn() -> None:
    with Simulation(mode="remote", human="black") as sim:
        pairing = BoardPairing(SimulationHost(sim), "http://127.0.0.1:1")
        after = sim.board.copy()
        after.push_notation("d6")
        pairing._sync(theirs(["d6"], after.position()))
        sim.wait(SETTLE)
        assert sim.lights()["d6"] == "on"
        pairing._sync(theirs(["d6"], after.position()))  # told again: shown once
        sim.place("d6")
        sim.wait(SETTLE)
        assert moves(sim) == ["d6"]


def test_a_divergence_is_said_on_the_event_line_once_and_nothing_changes() -> None:
    with Simulation(mode="remote", human="black") as sim:
        host = SimulationHost(sim)
        pairing = BoardPairing(host, "http://127.0.0.1:1")
        other = sim.board.copy()
        for text in ("d6", "b4", "f4"):
            other.push_notation(text)
        state = {"position": other.position(), "moves": ["d6", "b4", "f4"], "mode": "remote"}
        pairing._on_state({**state, "remote_color": "black"})  # the stream's first event: up
        assert sim.controller.snapshot(sim.now).connection == "up"
        pairing._sync(theirs(["d6", "b4", "f4"], other.position()))
        assert sim.describe().endswith(
            "the linked board's game differs: the other board has 3 turn(s) this one has not "
            "(d6 b4 f4): press new game on both boards"
        )
        assert moves(sim) == [] and sim.controller.snapshot(sim.now).connection == "up"
