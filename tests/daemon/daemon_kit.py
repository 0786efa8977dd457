"""Helpers for the daemon tests: a fake systemd notification socket, simulated boards, threads.

Every wait here is an upper bound (a deadline), never a fixed sleep whose length the test relies on.
"""

from __future__ import annotations

import os
import queue
import socket
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.simulated_board import SimulatedBoard
from morris.app.config import Config
from morris.daemon import Daemon, OpenedBoard
from morris.daemon.notify import Notifier
from morris_device import BoardDevice, Signal, StatusLight

#: A generous upper bound for anything that should take well under a second.
TIMEOUT = 20.0


@dataclass
class Datagram:
    """One notification: its assignments and when it arrived (``time.monotonic``)."""

    fields: dict[str, str]
    at: float

    def get(self, key: str) -> str | None:
        return self.fields.get(key)


class FakeSystemd:
    """A bound ``AF_UNIX``/``SOCK_DGRAM`` socket standing in for systemd's ``NOTIFY_SOCKET``.

    A thread reads it all the time, as systemd does: an unread socket fills up (10 datagrams
    at the kernel's default ``net.unix.max_dgram_qlen``) and then blocks the sender.
    """

    def __init__(self, directory: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        path = directory / "notify"
        if len(os.fsencode(path)) < 100:
            self.sock.bind(str(path))
            self.address: str = str(path)
        else:  # a socket path must fit in sun_path (108 bytes): use the abstract namespace
            name = f"morris-test-{uuid.uuid4().hex}"
            self.sock.bind(b"\0" + name.encode())
            self.address = "@" + name
        self.sock.settimeout(0.05)
        #: Every datagram handed out by :meth:`receive`, :meth:`drain` and :meth:`wait_for`.
        self.received: list[Datagram] = []
        self._inbox: queue.Queue[Datagram] = queue.Queue()
        self._closed = threading.Event()
        self._reader = threading.Thread(target=self._read, name="fake-systemd", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while not self._closed.is_set():
            try:
                data = self.sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            lines = data.decode().splitlines()
            fields = dict(line.split("=", 1) for line in lines if "=" in line)
            self._inbox.put(Datagram(fields, time.monotonic()))

    def notifier(self, watchdog_interval: float | None = None) -> Notifier:
        """A notifier sending to this socket, as the daemon's would under systemd."""
        env = {"NOTIFY_SOCKET": self.address}
        if watchdog_interval is not None:
            env["WATCHDOG_USEC"] = str(round(watchdog_interval * 1_000_000))
        return Notifier.from_environment(env)

    def receive(self, timeout: float) -> Datagram | None:
        """The next datagram, or ``None`` if none arrives within ``timeout`` seconds."""
        try:
            datagram = self._inbox.get(timeout=max(timeout, 1e-6))
        except queue.Empty:
            return None
        self.received.append(datagram)
        return datagram

    def drain(self) -> list[Datagram]:
        """Every datagram that has arrived and was not handed out yet (no waiting)."""
        out: list[Datagram] = []
        while True:
            try:
                out.append(self._inbox.get_nowait())
            except queue.Empty:
                break
        self.received.extend(out)
        return out

    def wait_for(
        self,
        key: str,
        value: str | None = None,
        *,
        timeout: float = TIMEOUT,
        where: Callable[[Datagram], bool] | None = None,
    ) -> tuple[Datagram, list[Datagram]]:
        """Read until a datagram sets ``key`` (to ``value``); return it and those before it.

        Fails (AssertionError) if none comes within ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        before: list[Datagram] = []
        while True:
            left = deadline - time.monotonic()
            datagram = self.receive(left) if left > 0 else None
            if datagram is None:
                seen = [d.fields for d in before]
                raise AssertionError(f"no {key}={value or '*'} within {timeout} s; got {seen}")
            actual = datagram.get(key)
            matches = actual is not None and (value is None or actual == value)
            if matches and (where is None or where(datagram)):
                return datagram, before
            before.append(datagram)

    def close(self) -> None:
        self._closed.set()
        self._reader.join(5.0)
        self.sock.close()


def wait_until(predicate: Callable[[], Any], what: str, timeout: float = TIMEOUT) -> Any:
    """Poll ``predicate`` until it returns something true (returned); fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    pause = threading.Event()
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        pause.wait(0.01)


def sim_config(**overrides: Any) -> Config:
    """The default configuration on the simulated board, with ``section_key=value`` overrides."""
    return Config().with_overrides(hardware_backend="sim", **overrides)


@dataclass
class RealTimeBoard:
    """A simulated board in real time (``time.monotonic``) and the daemon's handle on it."""

    sim: SimulatedBoard
    opened: RecordingBoard

    def lit_now(self) -> set[str | StatusLight]:
        """The LEDs lit at this instant, read back from the emulated pins (not from commands)."""
        circuit = self.sim.circuit
        now = self.sim.now
        out: set[str | StatusLight] = set()
        for key in circuit.history:
            if circuit.level(key, now):
                out.add(key[1] if isinstance(key, tuple) else str(key))
        return out


@dataclass
class RecordingBoard(OpenedBoard):
    """An opened simulated board that remembers what was lit when the daemon closed it."""

    lit_at_close: set[str | StatusLight] | None = None
    on_close: Callable[[], set[str | StatusLight]] | None = None

    def close(self) -> None:
        if self.on_close is not None:
            self.lit_at_close = self.on_close()
        super().close()


def real_time_board(
    pieces: tuple[str, ...] = (), device: Callable[[BoardDevice], BoardDevice] | None = None
) -> RealTimeBoard:
    """A simulated shift-register build (LEDs latched at once) with ``pieces`` on it.

    ``device`` may wrap the board device the daemon sees (to delay or break it).
    """
    sim = SimulatedBoard(clock=time.monotonic)
    for name in pieces:
        sim.place(name)
    seen = sim.device if device is None else device(sim.device)
    opened = RecordingBoard(seen, "sim", keep=sim)
    board = RealTimeBoard(sim, opened)
    opened.on_close = board.lit_now
    return board


class DaemonThread:
    """``Daemon.run`` in a thread (signal handlers belong to the main thread: not installed)."""

    def __init__(self, daemon: Daemon) -> None:
        self.daemon = daemon
        self.code: int | None = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="test-daemon", daemon=True)

    def _run(self) -> None:
        try:
            self.code = self.daemon.run(install_signals=False)
        except BaseException as exc:  # reported by join()
            self.error = exc

    def start(self) -> DaemonThread:
        self._thread.start()
        return self

    def join(self, timeout: float = TIMEOUT) -> int:
        """Wait for ``run`` to return; its exit code. Fails if it does not within ``timeout``."""
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise AssertionError(f"the daemon did not stop within {timeout} s")
        if self.error is not None:
            raise AssertionError(f"Daemon.run raised {self.error!r}") from self.error
        assert self.code is not None
        return self.code

    def stop(self, timeout: float = TIMEOUT) -> int:
        """``request_stop`` (what SIGTERM does) and :meth:`join`."""
        self.daemon.request_stop()
        return self.join(timeout)


class DelegatingDevice:
    """A board device that forwards everything to ``inner`` (subclass to change a method).

    The callbacks are set on ``inner``, which is the one that calls them.
    """

    _CALLBACKS = ("when_changed", "when_pressed")
    inner: BoardDevice

    def __init__(self, inner: BoardDevice) -> None:
        object.__setattr__(self, "inner", inner)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._CALLBACKS:
            setattr(self.inner, name, value)
        else:
            object.__setattr__(self, name, value)

    def sensors(self) -> frozenset[str]:
        return self.inner.sensors()

    def show(self, lights: Mapping[str, Signal]) -> None:
        self.inner.show(lights)

    def set_status(self, light: StatusLight, signal: Signal) -> None:
        self.inner.set_status(light, signal)

    def poll(self, now: float) -> float:
        return self.inner.poll(now)

    def close(self) -> None:
        self.inner.close()
