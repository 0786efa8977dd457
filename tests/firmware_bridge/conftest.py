"""Fixtures for the serial bridge: a simulated Pico on a real pty, a virtual clock, a harness."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware_bridge.simdevice import PtyDevice, SimBoard
from tests.firmware_bridge.bridge_helpers import FakeClock, Harness


@pytest.fixture
def device() -> Iterator[PtyDevice]:
    with PtyDevice(SimBoard()) as dev:
        yield dev


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def harness(device: PtyDevice, clock: FakeClock) -> Iterator[Harness]:
    h = Harness(device, clock)
    try:
        yield h
    finally:
        h.board.close()
