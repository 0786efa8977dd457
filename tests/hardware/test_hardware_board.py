"""Every wiring through the simulated board: sensors, LEDs read back, buttons, close()."""

from __future__ import annotations

import pytest
from gpiozero import OutputDevice
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory

from hardware import load_profile, open_board
from hardware.board import GpioBoard
from hardware.simulated_board import SimulatedBoard
from morris_device import (
    POINT_NAMES,
    BoardClosed,
    ButtonName,
    ButtonPress,
    SensorReading,
    Signal,
    StatusLight,
    UnknownPoint,
)

PROFILES = ["direct", "matrix", "shift-register"]


@pytest.fixture(params=PROFILES)
def sim(request: pytest.FixtureRequest) -> SimulatedBoard:
    board = SimulatedBoard(request.param)
    request.addfinalizer(board.close)
    return board


def test_placed_pieces_are_reported_with_the_confirming_scan_time(sim: SimulatedBoard) -> None:
    readings: list[SensorReading] = []
    sim.device.when_changed = readings.append
    sim.advance(0.5)
    sim.place("a7")
    sim.place("e4")
    sim.advance(1.0)
    # placed after the scan at 0.50; read at 0.51, 0.52, 0.53 (100 Hz, 3 scans to debounce)
    assert readings == [SensorReading(frozenset({"a7", "e4"}), pytest.approx(0.53))]
    assert sim.device.sensors() == {"a7", "e4"}
    sim.lift("a7")
    sim.advance(2.0)
    assert readings[-1].sensed == {"e4"}
    assert len(readings) == 2


@pytest.mark.parametrize("signal", list(Signal))
def test_led_signals_are_read_back_from_the_pins(sim: SimulatedBoard, signal: Signal) -> None:
    sim.device.show({"d6": signal, "g1": Signal.ON})
    sim.advance(1.3)
    lights = sim.lights()
    assert lights["d6"] is signal
    assert lights["g1"] is Signal.ON
    assert {p for p, s in lights.items() if s is not Signal.OFF} == {"g1"} | (
        {"d6"} if signal is not Signal.OFF else set()
    )


def test_every_point_led_on_its_own(sim: SimulatedBoard) -> None:
    for point in POINT_NAMES:
        sim.device.show({point: Signal.FAST})
        sim.wait(1.0)
        assert {p for p, s in sim.lights().items() if s is not Signal.OFF} == {point}
        assert sim.led_signal(point) is Signal.FAST


def test_show_switches_unnamed_points_off(sim: SimulatedBoard) -> None:
    sim.device.show({"a1": Signal.ON})
    sim.wait(1.0)
    sim.device.show({"a4": Signal.ON})
    sim.wait(1.0)
    assert sim.led_signal("a1") is Signal.OFF
    assert sim.led_signal("a4") is Signal.ON


@pytest.mark.parametrize("light", list(StatusLight))
def test_status_leds(sim: SimulatedBoard, light: StatusLight) -> None:
    sim.device.set_status(light, Signal.SLOW)
    sim.wait(1.2)
    if light in sim.profile.status:
        assert sim.status_signal(light) is Signal.SLOW
    others = [s for s in StatusLight if s is not light]
    assert all(sim.status_signal(s) is Signal.OFF for s in others)


def test_buttons_call_back_once_per_press(sim: SimulatedBoard) -> None:
    presses: list[ButtonPress] = []
    sim.device.when_pressed = presses.append
    sim.advance(0.2)
    for button in sim.profile.buttons:
        sim.click(button, hold=0.1)
        sim.wait(0.3)
    assert [p.button for p in presses] == list(sim.profile.buttons)
    assert presses[0].timestamp == pytest.approx(0.23)  # clicked after the 0.20 scan
    assert sim.device.pressed() == frozenset()


def test_pressed_while_held() -> None:
    with SimulatedBoard("matrix") as sim:
        sim.press(ButtonName.HINT)
        sim.wait(0.1)
        assert sim.device.pressed() == {ButtonName.HINT}
        sim.release("hint")
        sim.wait(0.1)
        assert sim.device.pressed() == frozenset()


def test_close_twice_and_context_manager(sim: SimulatedBoard) -> None:
    with sim.device as device:
        device.show({"a7": Signal.ON})
    assert device.closed
    device.close()
    with pytest.raises(BoardClosed):
        device.poll(1.0)
    with pytest.raises(BoardClosed):
        device.show({})


@pytest.mark.parametrize("name", PROFILES)
def test_close_releases_every_pin_and_darkens_leds(name: str) -> None:
    sim = SimulatedBoard(name)
    sim.device.show(dict.fromkeys(POINT_NAMES, Signal.ON))
    sim.device.set_status(StatusLight.ERROR, Signal.ON)
    sim.advance(0.1)
    sim.device.close()
    assert not any(sim.factory._reservations.values())
    for pin in sim.factory.pins.values():
        assert pin.function == "input"
    # every pin can be used again
    again = GpioBoard(sim.profile, pin_factory=sim.factory, clock=sim.clock)
    again.close()


@pytest.mark.parametrize("name", PROFILES)
def test_leds_are_dark_after_close(name: str) -> None:
    sim = SimulatedBoard(name)
    sim.device.show(dict.fromkeys(POINT_NAMES, Signal.ON))
    sim.advance(1.5)
    assert set(sim.lights().values()) == {Signal.ON}
    sim.device.close()
    later = sim.now + 0.1
    assert not any(sim.circuit.level(key, later) for key in sim.circuit.history)


def test_failing_constructor_closes_what_it_opened() -> None:
    factory = MockFactory()
    profile = load_profile("shift-register")
    blocker = OutputDevice(profile.buttons[ButtonName.MODE], pin_factory=factory)  # type: ignore[arg-type]
    with pytest.raises(GPIOPinInUse):
        open_board(profile, pin_factory=factory)
    blocker.close()
    assert not any(factory._reservations.values())
    open_board(profile, pin_factory=factory).close()


def test_show_rejects_unknown_points(sim: SimulatedBoard) -> None:
    with pytest.raises(UnknownPoint, match="z9"):
        sim.device.show({"z9": Signal.ON})


def test_open_board_uses_the_default_pin_factory(mock_factory: MockFactory) -> None:
    with open_board("matrix", clock=lambda: 0.0) as board:
        assert board.poll(0.0) > 0.0
    assert mock_factory.pins  # the pins came from the test's factory


def test_poll_returns_blink_edges_on_the_chain() -> None:
    with SimulatedBoard("shift-register") as sim:
        sim.advance(0.3)
        sim.device.show({"a7": Signal.FAST})
        deadlines = []
        t = sim.device.next_poll
        for _ in range(60):
            t = sim.poll(t)
            deadlines.append(t)
        # Fast blink edges from the show at 0.3 (lit first), not only scans.
        assert pytest.approx(0.425) in deadlines and pytest.approx(0.55) in deadlines


def test_a_late_real_time_poll_skips_missed_scans() -> None:
    clock = iter([0.0, 0.0]).__next__
    with open_board("shift-register", pin_factory=MockFactory(), clock=clock) as board:
        assert board.poll(0.0) == pytest.approx(0.01)
        assert board.poll(5.003) == pytest.approx(5.01)


def test_a_quiet_board_is_scanned_at_the_idle_rate_and_wakes_on_a_change(
    sim: SimulatedBoard, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = sim.device
    scans: list[float] = []
    real_scan = board._scan

    def counted(now: float, *args: object) -> None:
        scans.append(now)
        real_scan(now, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(board, "_scan", counted)
    readings: list[SensorReading] = []
    board.when_changed = readings.append
    sim.advance(10.0)
    quiet = [t for t in scans if 5.0 <= t < 10.0]
    profile = board.profile
    assert len(quiet) == pytest.approx(5.0 * profile.idle_scan_hz, abs=2)  # 25 a second, not 100
    sim.place("d6")
    sim.advance(11.0)
    # Seen at the next idle scan (within 1/25 s), then confirmed at the full rate.
    assert len(readings) == 1
    delay = readings[0].timestamp - 10.0
    limit = 1 / profile.idle_scan_hz + (profile.debounce_scans - 1) / profile.scan_hz
    assert 0 < delay <= limit + 1e-6
    busy = [t for t in scans if readings[0].timestamp - 0.02 <= t <= readings[0].timestamp]
    assert len(busy) == profile.debounce_scans  # the confirming scans came 10 ms apart
