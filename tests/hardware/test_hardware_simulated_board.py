"""The emulated board: diodes against ghosting, debouncing, and each kind of injected noise."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.leddecoder import DECODE_WINDOW
from hardware.simulated_board import SimulatedBoard
from hardware.wiring import Debouncer
from morris.sim import Simulation
from morris_device import POINT_NAMES, SensorReading, Signal
from morris_device.clock import VirtualClock

point_sets = st.frozensets(st.sampled_from(POINT_NAMES))


@settings(max_examples=40, deadline=None)
@given(occupied=point_sets)
def test_matrix_with_diodes_reads_any_set_exactly(occupied: frozenset[str]) -> None:
    with SimulatedBoard("shift-register") as sim:
        for point in occupied:
            sim.place(point)
        sim.wait(0.05)
        assert sim.device.sensors() == occupied


def test_without_diodes_an_l_of_three_pieces_reads_a_ghost() -> None:
    # a7 = (outer, p0), d7 = (outer, p1), b6 = (middle, p0): the fourth corner d6 = (middle, p1)
    pieces = {"a7", "d7", "b6"}
    with SimulatedBoard(diodes=False) as sim:
        for point in pieces:
            sim.place(point)
        sim.wait(0.05)
        assert sim.device.sensors() == pieces | {"d6"}
    with SimulatedBoard() as sim:
        for point in pieces:
            sim.place(point)
        sim.wait(0.05)
        assert sim.device.sensors() == pieces


@given(
    scans=st.integers(1, 6),
    raw=st.lists(st.frozensets(st.sampled_from("abc")), max_size=60),
)
def test_debouncing_never_reports_a_change_shorter_than_n_scans(
    scans: int, raw: list[frozenset[str]]
) -> None:
    debouncer = Debouncer(scans)
    for i, reading in enumerate(raw):
        for key in debouncer.update(reading):
            # the new state was read on this scan and the scans - 1 before it
            state = key in debouncer.state
            window = raw[i - scans + 1 : i + 1]
            assert i + 1 >= scans
            assert all((key in r) == state for r in window)


@given(occupied=point_sets, flips=st.integers(0, 1000))
def test_debounced_state_follows_a_steady_input(occupied: frozenset[str], flips: int) -> None:
    debouncer = Debouncer(3)
    for _ in range(3):
        debouncer.update(set(occupied))
    assert debouncer.state == occupied


def _readings(sim: SimulatedBoard) -> list[SensorReading]:
    readings: list[SensorReading] = []
    sim.device.when_changed = readings.append
    return readings


def test_switch_bounce_is_filtered() -> None:
    with SimulatedBoard(seed=3) as sim:
        readings = _readings(sim)
        sim.set_bounce(0.015)  # reads are random for 1-2 scans after every change
        for _ in range(20):
            sim.place("d2")
            sim.wait(0.3)
            sim.lift("d2")
            sim.wait(0.3)
        assert [r.sensed for r in readings] == [frozenset({"d2"}), frozenset()] * 20


def test_weak_magnet_flicker_is_filtered_by_debouncing() -> None:
    with SimulatedBoard(seed=1) as sim:
        readings = _readings(sim)
        sim.set_flicker("f6", dropout=0.03)  # 3 dropouts in a row: once in ~37000 scans
        sim.place("f6")
        sim.wait(20.0)
        assert [r.sensed for r in readings] == [frozenset({"f6"})]


def test_a_very_weak_magnet_is_reported_as_lifted_and_put_back() -> None:
    with SimulatedBoard(seed=1) as sim:
        readings = _readings(sim)
        sim.set_flicker("f6", dropout=0.6)
        sim.place("f6")
        sim.wait(5.0)
        assert len(readings) > 2  # the referee's grace time has to deal with this


def test_stuck_and_dead_sensors() -> None:
    with SimulatedBoard() as sim:
        sim.set_stuck("b4")
        sim.set_dead("e3")
        sim.place("e3")
        sim.wait(0.1)
        assert sim.device.sensors() == {"b4"}
        sim.repair("b4")
        sim.repair("e3")
        sim.wait(0.1)
        assert sim.device.sensors() == {"e3"}


def test_a_slow_slide_is_read_over_each_point_passed() -> None:
    with SimulatedBoard() as sim:
        sim.place("a7")
        sim.wait(0.5)
        readings = _readings(sim)
        arrival = sim.slide(["a7", "d7", "g7"], step=0.3)
        sim.advance(arrival + 0.5)
        # the magnet leaves a7 as it reaches d7: the board sees a7 -> d7 -> g7
        assert [r.sensed for r in readings] == [frozenset({"d7"}), frozenset({"g7"})]
        assert readings[1].timestamp - readings[0].timestamp == pytest.approx(0.3, abs=0.011)
        assert sim.on_wood() == {"g7"}


def test_led_faults_are_seen() -> None:
    with SimulatedBoard() as sim:
        sim.set_led_fault("a1", False)
        sim.set_led_fault("g4", True)
        sim.device.show({"a1": Signal.ON})
        sim.wait(DECODE_WINDOW)
        assert sim.led_signal("a1") is Signal.OFF
        assert sim.led_signal("g4") is Signal.ON


def test_decoding_needs_one_slow_period_after_a_change() -> None:
    with SimulatedBoard("matrix") as sim:
        sim.device.show({"d5": Signal.FAST})
        sim.wait(2.0)
        sim.device.show({"d5": Signal.SLOW})
        sim.wait(DECODE_WINDOW + 0.02)  # one frame of the LED matrix on top
        assert sim.led_signal("d5") is Signal.SLOW


def test_an_external_clock_and_direct_polls() -> None:
    clock = VirtualClock()
    with SimulatedBoard(clock=clock) as sim:
        sim.place("c3")
        t = 0.0
        while t < 0.1:
            clock.set(t)
            t = sim.device.poll(t)
        assert sim.device.sensors() == {"c3"}


def test_a_long_game_runs_in_virtual_time_deterministically() -> None:
    def run(seed: int) -> list[SensorReading]:
        with SimulatedBoard(seed=seed) as sim:
            readings = _readings(sim)
            sim.set_bounce(0.02)
            for i, point in enumerate(POINT_NAMES):
                sim.place(point)
                sim.device.show({point: Signal.SLOW})
                sim.wait(1.0 + i % 3)
            return readings

    assert run(7) == run(7)


def test_actions_at_one_instant_happen_in_the_order_called() -> None:
    with SimulatedBoard() as sim:
        sim.place("c3")
        sim.lift("c3")  # at the same virtual instant: the lift comes last and stands
        sim.lift("d6")
        sim.place("d6")  # ... and here the placement does
        sim.wait(0.2)
        assert sim.on_wood() == {"d6"} and sim.device.sensors() == {"d6"}


def test_a_person_placing_and_lifting_at_one_instant_leaves_the_point_empty() -> None:
    with Simulation(mode="referee") as sim:
        sim.wait(1.0)
        sim.place("c3")
        sim.lift("c3")
        sim.wait(2.0)
        assert sim.sensed == frozenset() and not sim.board.move_stack
