"""SerialBoard against the firmware over a real pty: the BoardDevice contract end to end."""

from __future__ import annotations

import threading

import pytest

from firmware_bridge import (
    HandshakeTimeout,
    LinkError,
    ProtocolVersionError,
    SerialBoard,
)
from firmware_bridge import protocol as P
from firmware_bridge.emulator import EmulatedPico
from firmware_bridge.ptydevice import PtyDevice
from morris_device import (
    POINT_INDEX,
    POINT_NAMES,
    ButtonName,
    DeviceError,
    Signal,
    StatusLight,
    UnknownPoint,
)
from morris_device.clock import VirtualClock
from tests.firmware_bridge.bridge_helpers import PROMPT, Harness, eventually, host_clock

#: Needs real time: a real pseudo-terminal and the link thread.
pytestmark = pytest.mark.realtime


def test_the_link_is_up_once_opened(harness: Harness) -> None:
    assert harness.board.is_link_up


def test_handshake_reads_the_firmware_and_the_initial_snapshot() -> None:
    sim = EmulatedPico()
    sim.set_on_wood({POINT_INDEX["d6"], POINT_INDEX["a1"]})  # before power-up
    with PtyDevice(sim) as device, SerialBoard(device.url, clock=host_clock()) as board:
        info = board.firmware_info
        assert info is not None
        assert (info.sensors, info.leds, info.status_lights, info.buttons) == (24, 28, 4, 4)
        assert info.led_driver == "ws2812" and info.firmware_version == "1.1.0"
        assert info.protocol == (P.PROTOCOL_MAJOR, P.PROTOCOL_MINOR)
        # Taken as the starting position, not reported as a change.
        assert board.sensors() == {"d6", "a1"}


def test_changes_are_reported_as_full_snapshots(harness: Harness) -> None:
    harness.place("a7")
    first = harness.wait_sensors({"a7"})
    harness.place("g1", "c4")
    harness.wait_sensors({"a7", "g1", "c4"})
    harness.lift("a7")
    harness.wait_sensors({"g1", "c4"})
    assert harness.board.sensors() == {"g1", "c4"}
    assert first.timestamp == harness.clock()


def test_button_presses_are_reported_releases_are_not(harness: Harness) -> None:
    for index in range(4):
        harness.sim.press(index)
        harness.presses.wait_count(index + 1)
        harness.sim.release(index)
    assert [p.button for p in harness.presses.items] == [
        ButtonName.NEW, ButtonName.TAKEBACK, ButtonName.HINT, ButtonName.MODE,
    ]  # fmt: skip


def test_lights_and_status_reach_the_leds(harness: Harness) -> None:
    harness.board.show({"a7": Signal.ON, "d7": Signal.FAST})
    harness.board.set_status(StatusLight.THINKING, Signal.ON)

    def shown() -> bool:
        return bool(harness.sim.lit(0) and harness.sim.lit(25) and not harness.sim.lit(2))

    assert eventually(shown)
    harness.board.show({})
    assert eventually(lambda: not harness.sim.lit(0))


def test_unknown_point_is_refused(harness: Harness) -> None:
    with pytest.raises(UnknownPoint, match="'z9'") as info:
        harness.board.show({"z9": Signal.ON})
    assert isinstance(info.value, ValueError) and isinstance(info.value, DeviceError)


def test_close_switches_off_and_is_safe_twice(harness: Harness) -> None:
    harness.board.show({"a7": Signal.ON})
    assert eventually(lambda: harness.sim.lit(0))
    harness.board.close()
    harness.board.close()
    assert harness.board.closed and not harness.board.is_link_up
    assert eventually(lambda: not harness.sim.lit(0))


def test_no_device_at_the_url_fails_cleanly() -> None:
    with pytest.raises(LinkError, match="cannot open"):
        SerialBoard("/nonexistent/morris-board")


def test_silent_device_times_out_the_handshake(device: PtyDevice) -> None:
    device.silent = True
    with pytest.raises(HandshakeTimeout, match="no HELLO"):
        SerialBoard(device.url, hello_timeout=0.3)


def test_a_newer_protocol_major_is_refused(device: PtyDevice) -> None:
    device.silent = True  # only our forged HELLO gets through
    hello = P.pack_hello((9, 0, 0), 1, 24, 28, 4, 4, 1, 500)
    forged = P.encode_frame(P.HELLO, bytes([P.PROTOCOL_MAJOR + 1]) + hello[1:])

    stop = threading.Event()

    def keep_saying_hello() -> None:
        while not stop.wait(0.05):
            device.write_raw(forged)

    thread = threading.Thread(target=keep_saying_hello, daemon=True)
    thread.start()
    try:
        with pytest.raises(ProtocolVersionError, match=rf"protocol 2\.{P.PROTOCOL_MINOR}"):
            SerialBoard(device.url, hello_timeout=PROMPT)
    finally:
        stop.set()
        thread.join()


def test_starting_without_waiting_connects_on_poll(device: PtyDevice, clock: VirtualClock) -> None:
    device.board.set_on_wood({5})
    harness = Harness(device, clock, wait_for_link=False)
    try:
        assert not harness.board.is_link_up
        assert harness.board.sensors() == frozenset()
        harness.drive_until_up()
        assert harness.links.wait_for(lambda items: items == [True])
        # The first snapshot differs from the empty one reported before: it is a change.
        harness.wait_sensors({POINT_NAMES[5]})
    finally:
        harness.board.close()


def test_exclusive_open(harness: Harness) -> None:
    with pytest.raises(LinkError):
        SerialBoard(harness.device.url, hello_timeout=0.2)
