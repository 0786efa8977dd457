"""A new signal is visible at once on every GPIO wiring: each change of the lights starts the blink
lit, LEDs changed together blink in step, and an LED whose signal did not change keeps its phase.

Read back from the pins as an eye sees them (:attr:`BoardCircuit.history`): direct LEDs on their
own pins, the 74HC595 chain, and the LED matrix (lit only while its row is refreshed: within one
frame of the change).
"""

from __future__ import annotations

import pytest

from hardware import load_profile
from hardware.profiles import Profile
from hardware.simulated_board import SimulatedBoard
from morris_device import BLINK_TIMING, Signal, StatusLight

#: A 74HC595 build with some LEDs moved onto spare GPIOs, so the direct outputs are driven too.
_DIRECT = {"a7": 4, "d7": 7}


def _with_direct_leds() -> Profile:
    profile = load_profile("shift-register")
    leds = {**profile.leds, **_DIRECT}
    status = {**profile.status, StatusLight.TURN: 9}
    return profile.replace(leds=leds, status=status, name="shift-register + direct LEDs")


BUILDS = {
    "direct": _with_direct_leds,
    "shift-register": lambda: load_profile("shift-register"),
    "matrix": lambda: load_profile("matrix"),
}
#: How long after a change an LED shows it at the latest: at once, or within one matrix frame.
_FRAME = {"direct": 0.0, "shift-register": 0.0, "matrix": 0.011}


@pytest.fixture(params=list(BUILDS))
def build(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def sim(build: str) -> SimulatedBoard:
    board = SimulatedBoard(BUILDS[build]())
    yield board  # type: ignore[misc]
    board.close()


def edges(sim: SimulatedBoard, key: object, after: float) -> list[tuple[float, bool]]:
    """The LED's recorded level changes after ``after``."""
    return [(t, lit) for t, lit in sim.circuit.history[key] if t >= after]  # type: ignore[index]


def level_at(sim: SimulatedBoard, key: object, at: float) -> bool:
    """Whether the LED was lit at ``at`` (from its recorded history)."""
    return [lit for t, lit in sim.circuit.history[key] if t <= at][-1]  # type: ignore[index]


def points_for(build: str) -> list[str]:
    return list(_DIRECT) if build == "direct" else ["a7", "d6"]


# Times in the dark half of a blink locked to t = 0: a slow blink shown at 0.6 s (dark 0.5-1.0)
# or a fast one at 0.19 s (dark 0.125-0.25) used to stay dark, then look steady.
@pytest.mark.parametrize(("signal", "at"), [(Signal.SLOW, 0.6), (Signal.FAST, 1.69)])
def test_a_new_blink_is_lit_at_once(
    sim: SimulatedBoard, build: str, signal: Signal, at: float
) -> None:
    sim.advance(at)
    shown_at = sim.now
    point = points_for(build)[0]
    sim.device.show({point: signal})
    sim.advance(at + 1.0)
    on_time = BLINK_TIMING[signal][1]
    first, second = edges(sim, point, shown_at)[:2]
    assert first[1] and first[0] - shown_at <= _FRAME[build] + 1e-9
    assert not second[1] and second[0] - first[0] == pytest.approx(on_time, abs=0.011)
    assert sim.lights()[point] is signal


def test_a_new_blink_on_a_status_led_is_lit_at_once(sim: SimulatedBoard, build: str) -> None:
    sim.advance(0.6)
    shown_at = sim.now
    sim.device.set_status(StatusLight.TURN, Signal.SLOW)
    sim.advance(1.2)
    first = edges(sim, ("status", StatusLight.TURN), shown_at)[0]
    assert first[1] and first[0] - shown_at <= _FRAME[build] + 1e-9


def test_leds_changed_together_blink_in_step_and_the_others_keep_their_phase(
    sim: SimulatedBoard, build: str
) -> None:
    first, second = points_for(build)
    sim.advance(0.3)
    sim.device.show({first: Signal.SLOW})
    sim.advance(0.9)  # ``first`` is dark now (lit 0.3 - 0.8)...
    sim.device.show({first: Signal.SLOW, second: Signal.SLOW})  # ...and stays in its phase
    sim.advance(2.2)  # (the circuit keeps 2 s of LED history)
    lit_first = [t for t, lit in edges(sim, first, 0.0) if lit]
    lit_second = [t for t, lit in edges(sim, second, 0.0) if lit]
    frame = _FRAME[build] + 1e-9
    assert lit_first == pytest.approx([0.3, 1.3], abs=frame)
    assert lit_second == pytest.approx([0.9, 1.9], abs=frame)
    # Both change again in one show: from then on they blink together.
    sim.device.show({first: Signal.FAST, second: Signal.FAST})
    changed = sim.now
    sim.advance(changed + 1.0)
    later = changed + 0.05  # (one was lit already, the other lights up within a frame)
    times = [[t for t, _ in edges(sim, key, later) if t < changed + 0.9] for key in (first, second)]
    assert times[0] == pytest.approx(times[1], abs=frame) and len(times[0]) == 7
    assert level_at(sim, first, later) and level_at(sim, second, later)


def test_showing_the_same_signals_again_changes_no_phase(sim: SimulatedBoard, build: str) -> None:
    point = points_for(build)[0]
    sim.device.show({point: Signal.SLOW})
    sim.advance(0.7)
    sim.device.show({point: Signal.SLOW})  # a resend (the controller, a reconnect): no restart
    sim.advance(2.0)  # (the circuit keeps 2 s of LED history)
    lit = [t for t, on in edges(sim, point, 0.0) if on]
    assert lit == pytest.approx([0.0, 1.0, 2.0], abs=_FRAME[build] + 1e-9)
