"""A new kind of wiring block is declared in one place: the parser, the board, the emulated
circuit and the self-test take it from the registry (:mod:`hardware.kinds`).

The toy kind here is an LED driver with an enable pin and one active-low pin per LED, declared
only in this file.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from gpiozero import LED, OutputDevice
from gpiozero.pins.mock import MockFactory

from hardware import ProfileError, load_profile, open_board
from hardware.circuit import BoardCircuit
from hardware.kinds import (
    OutputBlock,
    OutputKind,
    ProfileReader,
    register_kind,
    unregister_kind,
    wire_kinds,
)
from hardware.profiles import PROFILE_DIR, Profile
from hardware.selftest import ScriptedBuilder, run_selftest
from hardware.simulated_board import SimulatedBoard, miswire
from morris_device import BlinkClock, Signal


@dataclass(frozen=True)
class Driver:
    enable: int


@dataclass(frozen=True)
class Sink:
    pin: int


class _DriverBlock:
    def __init__(self, driver: Driver, pins: Mapping[Hashable, int], pin_factory: Any) -> None:
        self.enable = OutputDevice(driver.enable, initial_value=True, pin_factory=pin_factory)
        self.leds = {k: LED(p, active_high=False, pin_factory=pin_factory) for k, p in pins.items()}

    def update(self, now: float, lights: BlinkClock[Hashable]) -> None:
        for key, led in self.leds.items():
            led.value = lights.level(key, now)

    def refresh(self, now: float, lights: BlinkClock[Hashable]) -> float:
        self.update(now, lights)
        return lights.next_edge(now)

    def off(self) -> None:
        for led in self.leds.values():
            led.off()

    def close(self) -> None:
        for led in self.leds.values():
            led.close()
        self.enable.close()


class SinkDriverKind(OutputKind):
    name = table = "sink_driver"
    title = "the sink driver"

    def parse_table(self, reader: ProfileReader, value: Any) -> Driver:
        return Driver(
            reader.pin("sink_driver.enable", reader.table("sink_driver", value)["enable"])
        )

    def claims(self, value: Any) -> bool:
        return isinstance(value, Mapping) and "sink" in value

    def parse_wire(self, reader: ProfileReader, key: str, value: Any, settings: Any) -> Sink:
        if settings is None:
            raise reader.error(key, "names a sink but there is no [sink_driver]")
        return Sink(reader.pin(key, value["sink"]))

    def owns(self, wire: Hashable) -> bool:
        return isinstance(wire, Sink)

    def pins(self, settings: Driver, wires: Mapping[str, Hashable]) -> list[tuple[str, int]]:
        sinks = [(key, w.pin) for key, w in wires.items() if isinstance(w, Sink)]
        return [("sink_driver.enable", settings.enable), *sinks]

    def describe(self, settings: Driver, wire: Hashable) -> str:
        assert isinstance(wire, Sink)
        return f"sink GPIO{wire.pin} (driver enabled by GPIO{settings.enable})"

    def build(
        self,
        settings: Driver,
        wires: Mapping[Hashable, Hashable],
        *,
        profile: Profile,
        pin_factory: Any,
        start: float,
    ) -> OutputBlock:
        pins = {key: w.pin for key, w in wires.items() if isinstance(w, Sink)}
        return _DriverBlock(settings, pins, pin_factory)

    def emulate(
        self,
        circuit: BoardCircuit,
        settings: Driver,
        wires: Mapping[Hashable, Hashable],
        factory: MockFactory,
    ) -> None:
        enable = circuit.pin(factory, settings.enable)
        for key, wire in wires.items():
            assert isinstance(wire, Sink)
            pin = circuit.pin(factory, wire.pin)
            pin.listener = lambda high, key=key: circuit.record(key, not high and enable._state)


@pytest.fixture
def sink_driver() -> Iterator[SinkDriverKind]:
    kind = SinkDriverKind()
    register_kind(kind)
    yield kind
    unregister_kind(kind)


def _profile_with_sinks(tmp_path: Path) -> Path:
    """The default build with d6 and the turn LED on the sink driver (GPIO 9, 7; enable 18)."""
    text = (PROFILE_DIR / "shift-register.toml").read_text()
    text = text.replace('d6 = "Q9"', "d6 = { sink = 9 }").replace(
        'turn = "Q24"', "turn = { sink = 7 }"
    )
    path = tmp_path / "sinks.toml"
    path.write_text(text + "\n[sink_driver]\nenable = 18\n")
    return path


def test_a_kind_declared_in_one_place_drives_its_leds_on_a_simulated_board(
    sink_driver: SinkDriverKind, tmp_path: Path
) -> None:
    profile = load_profile(_profile_with_sinks(tmp_path))
    assert profile.pins()[9] == "leds.d6" and profile.pins()[18] == "sink_driver.enable"
    with SimulatedBoard(profile) as sim:
        sim.device.show({"d6": Signal.SLOW, "a7": Signal.ON})
        sim.advance(2.0)
        assert sim.led_signal("d6") is Signal.SLOW and sim.led_signal("a7") is Signal.ON
        assert sim.led_signal("d7") is Signal.OFF
        report = run_selftest(sim.device, ScriptedBuilder(sim), wait=sim.wait, sensors=False)
        assert report.ok, report.format()


def test_the_self_test_names_the_pins_of_the_new_kind(
    sink_driver: SinkDriverKind, tmp_path: Path
) -> None:
    profile = load_profile(_profile_with_sinks(tmp_path))
    with SimulatedBoard(profile, wiring=miswire(profile, leds=[("d6", "f6")])) as sim:
        report = run_selftest(sim.device, ScriptedBuilder(sim), wait=sim.wait, sensors=False)
    details = {f.name: f.detail for f in report.faults if f.kind == "LEDs crossed"}
    assert set(details) == {"d6", "f6"}
    assert "sink GPIO9 (driver enabled by GPIO18)" in details["d6"]


def test_a_board_of_the_new_kind_opens_on_mock_pins_and_closes_them(
    sink_driver: SinkDriverKind, tmp_path: Path
) -> None:
    factory = MockFactory()
    with open_board(_profile_with_sinks(tmp_path), pin_factory=factory, clock=lambda: 0.0) as board:
        board.show({"d6": Signal.ON})
        assert factory.pin(9).state is False  # active low: lit
        assert factory.pin(18).state is True  # the driver is enabled
    assert factory.pin(9).function == "input"  # released by close()


def test_the_parser_checks_the_new_kind_like_any_other(
    sink_driver: SinkDriverKind, tmp_path: Path
) -> None:
    path = _profile_with_sinks(tmp_path)
    text = path.read_text()
    path.write_text(text.replace("turn = { sink = 7 }", "turn = { sink = 9 }"))
    with pytest.raises(
        ProfileError, match=r"status\.turn: duplicate pin GPIO9: already used by leds\.d6"
    ):
        load_profile(path)
    path.write_text(text.replace("new = 23", "new = { sink = 23 }"))
    with pytest.raises(ProfileError, match=r"buttons\.new: an input cannot be on the sink driver"):
        load_profile(path)


def test_without_the_kind_its_table_is_an_unknown_key(tmp_path: Path) -> None:
    assert "sink_driver" not in [kind.name for kind in wire_kinds()]
    with pytest.raises(ProfileError, match="sink_driver: unknown key"):
        load_profile(_profile_with_sinks(tmp_path))


def test_a_second_kind_of_the_same_table_is_refused(sink_driver: SinkDriverKind) -> None:
    with pytest.raises(ValueError, match="sink_driver"):
        register_kind(SinkDriverKind())
