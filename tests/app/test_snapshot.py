"""The controller's read-only snapshot and its subscriber hook: what every front end draws from."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from morris.app.snapshot import Snapshot
from morris.sim import Simulation
from tests.app.scenario_kit import SETTLE


def test_the_snapshot_shows_the_game_the_lights_and_whose_turn() -> None:
    with Simulation(mode="vs-ai", human="white", level=1, seed=0) as sim:
        sim.place("d6")
        sim.wait(SETTLE)
        snap = sim.controller.snapshot(sim.now)
        assert snap.moves[0] == "d6"
        assert len(snap.moves) == 1  # the Pi's turn is asked for, not yet carried out
        assert snap.pieces == {"d6": "white"}
        assert snap.in_hand == {"white": 8, "black": 9}
        assert snap.turn == "black" and snap.pi_color == "black" and snap.human == "white"
        assert set(snap.lights) == set(sim.lights())  # all 24 points
        assert {p: s.value for p, s in snap.lights.items()} == sim.lights()
        assert {light.value: s.value for light, s in snap.status.items()} == sim.status()
        assert snap.event.startswith("Pi plays ")
        assert snap.position == sim.board.position()
        assert snap.outcome is None and snap.winner is None and not snap.flagged


def test_a_subscriber_sees_every_change_in_order() -> None:
    with Simulation(mode="vs-ai", human="white", level=1, seed=0) as sim:
        seen: list[Snapshot] = []
        sim.controller.subscribe(seen.append)
        sim.place("d6")
        sim.wait(SETTLE)
        events = [s.event for s in seen]
        assert "white played d6" in events
        assert any(e.startswith("Pi plays ") for e in events)
        assert events.index("white played d6") < next(
            i for i, e in enumerate(events) if e.startswith("Pi plays ")
        )
        thinking = [s.thinking for s in seen]
        assert True in thinking and thinking[-1] is False  # the Pi thought, then answered
        # Only changes are published: no two neighbours are the same.
        assert all(a != b for a, b in itertools.pairwise(seen))


def test_nothing_is_published_while_nothing_changes() -> None:
    with Simulation(mode="referee", seed=0) as sim:
        seen: list[Snapshot] = []
        sim.controller.subscribe(seen.append)
        sim.wait(30.0)
        assert seen == []


def test_unsubscribing_stops_the_calls() -> None:
    with Simulation(mode="referee", seed=0) as sim:
        seen: list[Snapshot] = []
        stop = sim.controller.subscribe(seen.append)
        sim.place("d6")
        sim.wait(SETTLE)
        count = len(seen)
        assert count > 0
        stop()
        stop()  # twice is harmless
        sim.place("f4")
        sim.wait(SETTLE)
        assert len(seen) == count
        assert [str(m) for m in sim.board.move_stack] == ["d6", "f4"]


def test_a_failing_subscriber_is_dropped_and_the_game_goes_on() -> None:
    with Simulation(mode="referee", seed=0) as sim:
        calls: list[str] = []

        def broken(snapshot: Snapshot) -> None:
            calls.append(snapshot.event)
            raise RuntimeError("display gone")

        sim.controller.subscribe(broken)
        sim.place("d6")
        sim.wait(SETTLE)
        sim.place("f4")
        sim.wait(SETTLE)
        assert len(calls) == 1
        assert [str(m) for m in sim.board.move_stack] == ["d6", "f4"]


def test_the_snapshot_is_read_only() -> None:
    with Simulation(mode="referee", seed=0) as sim:
        snap = sim.controller.snapshot(sim.now)
        with pytest.raises(dataclasses.FrozenInstanceError):
            snap.level = 9  # type: ignore[misc]
        assert snap.moves == ()
