"""Fixtures for the serial bridge: a simulated Pico on a real pty, a virtual clock, a harness."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware_bridge.emulator import EmulatedPico
from firmware_bridge.ptydevice import PtyDevice
from morris_device.clock import VirtualClock
from tests.firmware_bridge.bridge_helpers import Harness, host_clock


@pytest.fixture
def device() -> Iterator[PtyDevice]:
    with PtyDevice(EmulatedPico()) as dev:
        yield dev


@pytest.fixture
def clock() -> VirtualClock:
    return host_clock()


@pytest.fixture
def harness(device: PtyDevice, clock: VirtualClock) -> Iterator[Harness]:
    h = Harness(device, clock)
    try:
        yield h
    finally:
        h.board.close()
