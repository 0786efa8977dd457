"""Helpers for the serial bridge tests: the host's virtual clock, callback recorders, a harness."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

from firmware_bridge import LinkState, SerialBoard
from firmware_bridge.ptydevice import PtyDevice
from morris_device import POINT_INDEX, ButtonPress, SensorReading
from morris_device.clock import VirtualClock

T = TypeVar("T")

#: Upper bound for anything that should happen "at once" across the pty (real seconds).
PROMPT = 5.0


def eventually(predicate: Callable[[], object], timeout: float = PROMPT) -> bool:
    """Wait (real time, bounded) until ``predicate()`` holds, for what another thread does."""
    deadline = time.monotonic() + timeout
    pause = threading.Event()
    while not predicate():
        if time.monotonic() > deadline:
            return False
        pause.wait(0.01)
    return True


def host_clock() -> VirtualClock:
    """A virtual clock for the host, started far from 0 as a monotonic clock is."""
    return VirtualClock(1000.0)


class Recorder(Generic[T]):
    """Collects callback arguments (from any thread) and lets a test wait for them."""

    def __init__(self) -> None:
        self.items: list[T] = []
        self._cond = threading.Condition()

    def __call__(self, item: T) -> None:
        with self._cond:
            self.items.append(item)
            self._cond.notify_all()

    def wait_for(self, predicate: Callable[[list[T]], bool], timeout: float = PROMPT) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self.items), timeout)

    def wait_count(self, count: int, timeout: float = PROMPT) -> list[T]:
        assert self.wait_for(lambda items: len(items) >= count, timeout), (
            f"expected {count} callbacks, got {self.items}"
        )
        return list(self.items)


class Harness:
    """A SerialBoard on virtual time, linked over a pty to the simulated firmware."""

    def __init__(self, device: PtyDevice, clock: VirtualClock, **kwargs: object) -> None:
        self.device = device
        self.sim = device.board
        self.clock = clock
        self.changes: Recorder[SensorReading] = Recorder()
        self.presses: Recorder[ButtonPress] = Recorder()
        self.links: Recorder[bool] = Recorder()
        self.board = SerialBoard(
            device.url,
            clock=clock,
            when_changed=self.changes,
            when_pressed=self.presses,
            when_link_changed=self.links,
            **kwargs,  # type: ignore[arg-type]
        )

    def place(self, *names: str) -> None:
        for name in names:
            self.sim.place(POINT_INDEX[name])

    def lift(self, *names: str) -> None:
        for name in names:
            self.sim.lift(POINT_INDEX[name])

    def unplug(self) -> None:
        """Pull the cable and wait until the host's reader thread has noticed.

        Without the wait a quick replug can race the reader: the host still thinks the link is
        up, the test stops driving ``poll()``, and the loss is seen only afterwards.
        """
        self.device.unplug()
        assert eventually(lambda: self.board.link_state is LinkState.DOWN), (
            f"host never noticed the unplug; link is {self.board.link_state}"
        )

    def wait_sensors(self, expected: set[str]) -> SensorReading:
        """Wait for the change report whose snapshot is ``expected``."""
        target = frozenset(expected)
        assert self.changes.wait_for(lambda items: bool(items) and items[-1].sensed == target), (
            f"never reported {sorted(target)}; reports: {self.changes.items}"
        )
        return self.changes.items[-1]

    def drive_until_up(self, limit: float = 10.0) -> float:
        """Call poll at the deadlines it asks for (virtual time) until the link is up.

        Returns the virtual time taken. Real time is only waited on while a handshake is under
        way, so a slow machine can make this slower but never makes it fail.
        """
        start = self.clock()
        while not self.board.is_link_up:
            assert self.clock() - start <= limit, "link not back within the limit"
            deadline = self.board.poll(self.clock())
            if self.board.link_state.value == "connecting" and self.board.wait_for_link(0.5):
                break
            self.clock.set(deadline)
        return self.clock() - start
