"""The same checks against the firmware on the CPython emulator and on real MicroPython.

Each check runs twice: on :class:`~firmware_bridge.ptydevice.PtyDevice` (the firmware on CPython
with the emulator's stand-ins) and on :class:`~tests.firmware_bridge.micropython_device.
MicroPythonDevice` (the same firmware files, unchanged, on MicroPython 1.27's WebAssembly port
under node, with ``machine`` and ``neopixel`` written in MicroPython). The host is the product's
``SerialBoard`` over a real pty both times: the handshake, sensor changes, buttons, lights,
heartbeats and a replug. Without node or the npm package the MicroPython half is skipped, or
fails where ``MORRIS_REQUIRE_MICROPYTHON`` is set (``.ci/run`` sets it after installing them).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from firmware_bridge import SerialBoard
from firmware_bridge.emulator import EmulatedPico
from firmware_bridge.ptydevice import PtyDevice
from morris_device import POINT_INDEX, ButtonName, Signal, StatusLight
from tests.firmware_bridge.bridge_helpers import Harness, eventually, host_clock
from tests.firmware_bridge.micropython_device import MicroPythonDevice, find_micropython

#: Needs real time: a real pseudo-terminal, node, the link thread.
pytestmark = pytest.mark.realtime

#: The RP2040's RAM; the firmware's heap must leave most of it free.
PICO_RAM = 264 * 1024


def _make(kind: str) -> Any:
    if kind == "emulator":
        return PtyDevice(EmulatedPico())
    found = find_micropython()
    if found is None:
        message = (
            "no node or no @micropython/micropython-webassembly-pyscript "
            "(tools/pilab firmware installs it; $MORRIS_MICROPYTHON_WASM names it)"
        )
        if os.environ.get("MORRIS_REQUIRE_MICROPYTHON"):
            pytest.fail(message)
        pytest.skip(message)
    return MicroPythonDevice(*found)


@pytest.fixture(params=["emulator", "micropython"])
def pico(request: pytest.FixtureRequest) -> Iterator[Any]:
    device = _make(request.param)
    try:
        yield device
    finally:
        device.close()


@pytest.fixture
def link(pico: Any) -> Iterator[Harness]:
    h = Harness(pico, host_clock())
    try:
        yield h
    finally:
        h.board.close()


def test_handshake_reads_the_firmware_and_the_pieces_at_power_up(pico: Any) -> None:
    pico.board.set_on_wood({POINT_INDEX["d6"], POINT_INDEX["a1"]})
    pico.replug()  # power up with the pieces on the board
    with SerialBoard(pico.url, clock=host_clock()) as board:
        info = board.firmware_info
        assert info is not None
        assert (info.sensors, info.leds, info.status_lights, info.buttons) == (24, 28, 4, 4)
        assert info.led_driver == "ws2812" and info.firmware_version == "1.1.0"
        assert board.sensors() == {"d6", "a1"}


def test_sensor_changes_arrive_as_snapshots(link: Harness) -> None:
    link.place("a7")
    link.wait_sensors({"a7"})
    link.place("g1", "c4")
    link.wait_sensors({"a7", "g1", "c4"})
    link.lift("a7")
    link.wait_sensors({"g1", "c4"})
    assert link.board.sensors() == {"g1", "c4"}


def test_buttons_are_reported(link: Harness) -> None:
    for index in range(4):
        link.sim.press(index)
        link.presses.wait_count(index + 1)
        link.sim.release(index)
    assert [p.button for p in link.presses.items] == [
        ButtonName.NEW, ButtonName.TAKEBACK, ButtonName.HINT, ButtonName.MODE,
    ]  # fmt: skip


def test_lights_and_status_reach_the_leds(link: Harness) -> None:
    link.board.show({"a7": Signal.ON, "d7": Signal.FAST})
    link.board.set_status(StatusLight.THINKING, Signal.ON)
    assert eventually(lambda: link.sim.lit(0) and link.sim.lit(25) and not link.sim.lit(2))
    link.board.show({})
    assert eventually(lambda: not link.sim.lit(0))


def test_heartbeats_keep_the_link_up_past_the_timeout(link: Harness) -> None:
    """With no other traffic, the host's clock moved past its 2 s heartbeat timeout: the
    firmware's heartbeats (every 0.5 s, real time) are what keep the link up."""
    for _ in range(3):
        link.clock.advance(2.5)
        pause = threading.Event()
        pause.wait(1.2)  # real time: two heartbeats or more
        link.board.poll(link.clock())
        assert link.board.is_link_up


def test_a_replug_reconnects_to_a_new_boot_with_the_pieces_where_they_are(link: Harness) -> None:
    link.place("d6")
    link.wait_sensors({"d6"})
    first = link.board.firmware_info
    link.unplug()
    link.device.replug()
    link.drive_until_up()
    info = link.board.firmware_info
    assert info is not None and first is not None and info.boot_id != first.boot_id
    assert link.board.sensors() == {"d6"}
    link.place("b4")
    link.wait_sensors({"d6", "b4"})


def test_the_firmware_heap_fits_a_pico() -> None:
    """MicroPython's own count (gc.mem_alloc() after a collection), firmware and stand-ins."""
    found = find_micropython()
    if found is None:
        _make("micropython")  # skips or fails as above
    assert found is not None
    with (
        MicroPythonDevice(*found) as device,
        SerialBoard(device.url, clock=host_clock()) as board,
    ):
        board.show({"a7": Signal.ON})
        assert eventually(lambda: device.board.lit(0))
        used = device.memory()
    assert used < PICO_RAM // 4, f"{used} bytes of heap"
