"""The firmware on CPython: stand-ins for MicroPython's ``machine`` and ``neopixel``, a simulated
board wired to them, and a runner that serves the firmware on a pseudo-terminal.

Used by the tests and benchmarks, and handy at a desk without a Pico::

    python -m firmware_bridge.simdevice      # prints a pty path to give SerialBoard as its url

The stand-ins model the wiring, not just the API: the matrix scanner really drives ring pins and
reads position pins, and a 74HC595 chain really shifts and latches, so a wiring bug in the
firmware shows up here.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import select
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Iterable
from typing import Any

from firmware_bridge.firmware import boardfw
from firmware_bridge.firmware.config import CONFIG

logger = logging.getLogger(__name__)

Color = tuple[int, int, int]


class SimBoard:
    """The wooden board as the Pico's pins see it: pieces, buttons and what the LEDs show."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        self.config: dict[str, Any] = dict(CONFIG if config is None else config)
        self._lock = threading.Lock()
        self._occupied: frozenset[int] = frozenset()
        self._pressed: frozenset[int] = frozenset()
        self._outputs: dict[Any, int] = {}
        self._rings = {p: i for i, p in enumerate(self.config["ring_pins"])}
        self._positions = {p: i for i, p in enumerate(self.config["position_pins"])}
        self._buttons = {p: i for i, p in enumerate(self.config.get("button_pins") or ())}
        self._width = len(self.config["position_pins"])
        self._active = 1 if self.config.get("sensor_active_high", True) else 0
        hc595: tuple[Any, Any, Any] = self.config.get("hc595_pins") or (None, None, None)
        self._sr_data, self._sr_clock, self._sr_latch = hc595
        self._shift: list[int] = []
        #: What the LED chain shows: RGB per LED (a 74HC595 chain shows (1, 1, 1) for lit).
        self.leds: list[Color] = []
        #: How many times the LED chain was written (the firmware writes only on a change).
        self.led_writes = 0
        self.machine = _Machine(self)
        self.neopixel = _NeoPixelModule(self)

    # --- the person at the board ----------------------------------------------------------

    def set_occupied(self, points: Iterable[int]) -> None:
        """Put pieces on exactly these point indices, all at once."""
        with self._lock:
            self._occupied = frozenset(points)

    def place(self, point: int) -> None:
        with self._lock:
            self._occupied = self._occupied | {point}

    def lift(self, point: int) -> None:
        with self._lock:
            self._occupied = self._occupied - {point}

    @property
    def occupied(self) -> frozenset[int]:
        return self._occupied

    def press(self, button: int) -> None:
        with self._lock:
            self._pressed = self._pressed | {button}

    def release(self, button: int) -> None:
        with self._lock:
            self._pressed = self._pressed - {button}

    def lit(self, index: int) -> bool:
        """Whether LED ``index`` of the chain is lit now."""
        with self._lock:
            return index < len(self.leds) and self.leds[index] != (0, 0, 0)

    # --- the pins -------------------------------------------------------------------------

    def _write(self, pin_id: Any, value: int) -> None:
        with self._lock:
            old = self._outputs.get(pin_id, 0)
            self._outputs[pin_id] = value
            if value and not old:
                if pin_id == self._sr_clock:
                    self._shift.insert(0, self._outputs.get(self._sr_data, 0))
                elif pin_id == self._sr_latch:
                    count = len(self.config["ring_pins"]) * self._width + self.config.get(
                        "status_leds", 0
                    )
                    bits = (self._shift + [0] * count)[:count]
                    self.leds = [(1, 1, 1) if b else (0, 0, 0) for b in bits]
                    self.led_writes += 1
                    self._shift = []

    def _read(self, pin_id: Any) -> int:
        with self._lock:
            if pin_id in self._buttons:
                return 0 if self._buttons[pin_id] in self._pressed else 1
            if pin_id in self._positions:
                col = self._positions[pin_id]
                for pin, ring in self._rings.items():
                    driven = self._outputs.get(pin, 1 - self._active) == self._active
                    if driven and ring * self._width + col in self._occupied:
                        return self._active
                return 1 - self._active
            return self._outputs.get(pin_id, 0)

    def power_cycle(self) -> None:
        """Power lost and back: every output low, the LEDs dark; the pieces stay where they are."""
        with self._lock:
            self._outputs.clear()
            self._shift = []
            self.leds = []

    def _show(self, pixels: list[Color]) -> None:
        with self._lock:
            self.leds = list(pixels)
            self.led_writes += 1


class _Machine:
    """Stand-in for MicroPython's ``machine`` module (only what the firmware uses)."""

    def __init__(self, board: SimBoard) -> None:
        outer = board

        class Pin:
            IN = 0
            OUT = 1
            PULL_UP = 1
            PULL_DOWN = 2

            def __init__(
                self, pin_id: Any, mode: int = -1, pull: int = -1, *, value: int | None = None
            ) -> None:
                self.id = pin_id
                self.mode = mode
                if value is not None:
                    outer._write(pin_id, value)

            def value(self, v: int | None = None) -> int | None:
                if v is None:
                    return outer._read(self.id)
                outer._write(self.id, 1 if v else 0)
                return None

            def on(self) -> None:
                outer._write(self.id, 1)

            def off(self) -> None:
                outer._write(self.id, 0)

        self.Pin = Pin

    @staticmethod
    def reset() -> None:
        raise SystemExit("machine.reset()")

    @staticmethod
    def bootloader() -> None:
        raise SystemExit("machine.bootloader()")


class _NeoPixelModule:
    """Stand-in for MicroPython's ``neopixel`` module."""

    def __init__(self, board: SimBoard) -> None:
        outer = board

        class NeoPixel:
            def __init__(self, pin: Any, n: int) -> None:
                self.n = n
                self._pixels: list[Color] = [(0, 0, 0)] * n

            def __setitem__(self, i: int, color: Color) -> None:
                self._pixels[i] = tuple(color)  # type: ignore[assignment]

            def __getitem__(self, i: int) -> Color:
                return self._pixels[i]

            def __len__(self) -> int:
                return self.n

            def write(self) -> None:
                outer._show(self._pixels)

        self.NeoPixel = NeoPixel


class MemoryPort:
    """An in-memory port for driving the firmware by hand: ``feed`` what the host sends."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.outgoing = bytearray()

    def feed(self, data: bytes) -> None:
        self.incoming += data

    def read(self) -> bytes:
        data = bytes(self.incoming)
        self.incoming.clear()
        return data

    def write(self, data: bytes) -> None:
        self.outgoing += data

    def take(self) -> bytes:
        data = bytes(self.outgoing)
        self.outgoing.clear()
        return data


class _FdPort:
    """The firmware's port on a pty master fd; ``silent`` drops all traffic both ways."""

    def __init__(self, fd: int, owner: PtyDevice) -> None:
        self.fd = fd
        self.owner = owner

    def read(self) -> bytes:
        try:
            data = os.read(self.fd, 4096)
        except BlockingIOError:
            return b""
        except OSError as exc:
            if exc.errno == errno.EIO:  # no process has the slave open (host closed it)
                return b""
            raise
        if self.owner.silent:
            return b""
        return data

    def write(self, data: bytes, force: bool = False) -> None:
        if self.owner.silent and not force:
            return
        view = memoryview(data)
        while view:
            try:
                n = os.write(self.fd, view)
            except BlockingIOError:
                # The host is not reading. A real USB CDC port would stall the same way; wait a
                # little, then drop (the protocol recovers through sequence numbers).
                if not select.select([], [self.fd], [], 5.0 if force else 0.2)[1]:
                    self.owner.dropped += len(view)
                    return
                continue
            view = view[n:]


class PtyDevice:
    """The firmware served on a pseudo-terminal, in a thread, as if a Pico were plugged in.

    ``url`` is a symlink (like ``/dev/serial/by-id/...``) that follows the current pty across
    :meth:`unplug` / :meth:`replug`, so a host that reconnects to ``url`` finds the new one.
    The firmware ticks in real milliseconds; the tests only wait on outcomes.
    """

    def __init__(
        self,
        board: SimBoard | None = None,
        *,
        link_path: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.board = board if board is not None else SimBoard()
        self._clock = clock
        self._tmpdir: tempfile.TemporaryDirectory[str] | None = None
        if link_path is None:
            self._tmpdir = tempfile.TemporaryDirectory(prefix="morris-pty-")
            link_path = os.path.join(self._tmpdir.name, "morris-board")
        self.url = link_path
        #: When True the device neither reads nor writes: a hung firmware.
        self.silent = False
        self.dropped = 0
        self.boots = 0
        self.firmware: boardfw.Firmware | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._calls: list[Callable[[boardfw.Firmware], None]] = []
        self.replug()

    # --- plugging ---------------------------------------------------------------------------

    def replug(self) -> None:
        """Plug in (again): a fresh pty, the link pointed at it, and the firmware booted anew."""
        self.unplug()
        master, slave = os.openpty()
        os.set_blocking(master, False)
        tty.setraw(slave)  # no echo, no line editing: like pyserial leaves it once opened
        self._master, self._slave = master, slave
        tmp = self.url + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.url)
        self.boots += 1
        self.board.power_cycle()
        self._stop = threading.Event()
        port = _FdPort(master, self)
        self.firmware = boardfw.build(
            self.board.machine,
            self.board.config,
            port,
            self._ticks(),
            boot_id=0x5EED0000 + self.boots,
            neopixel=self.board.neopixel,
        )
        self._thread = threading.Thread(target=self._run, name="pty-firmware", daemon=True)
        self._thread.start()

    def unplug(self) -> None:
        """Pull the cable: the firmware stops, the pty goes away and so does the link path."""
        thread, self._thread = self._thread, None
        if thread is not None:
            self._stop.set()
            thread.join(5)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.url)
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None

    def close(self) -> None:
        self.unplug()
        if self._tmpdir is not None:
            self._tmpdir.cleanup()
            self._tmpdir = None

    def __enter__(self) -> PtyDevice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- reaching into the running firmware ----------------------------------------------

    def write_raw(self, data: bytes) -> None:
        """Send bytes to the host between two ticks (garbage, forged frames), even if silent."""
        self.call(lambda fw: fw.port.write(data, force=True))

    def call(self, fn: Callable[[boardfw.Firmware], None]) -> None:
        """Run ``fn(firmware)`` on the firmware thread, between two ticks; wait for it."""
        done = threading.Event()

        def wrapped(fw: boardfw.Firmware) -> None:
            try:
                fn(fw)
            finally:
                done.set()

        with self._lock:
            self._calls.append(wrapped)
        if not done.wait(5):
            raise TimeoutError("the firmware thread did not run the call")

    # --- the thread -------------------------------------------------------------------------

    def _ticks(self) -> int:
        return int(self._clock() * 1000) % boardfw.TICKS_PERIOD

    def _run(self) -> None:
        fw = self.firmware
        master = self._master
        stop = self._stop
        assert fw is not None and master is not None
        while not stop.is_set():
            try:
                select.select([master], [], [], 0.001)
                with self._lock:
                    calls, self._calls = self._calls, []
                for call in calls:
                    call(fw)
                fw.tick(self._ticks())
            except OSError as exc:
                if stop.is_set():
                    return
                logger.warning("simulated firmware stopped: %s", exc)
                return


def main() -> None:
    """Serve a simulated board on a pty until interrupted; print the path to connect to."""
    logging.basicConfig(level=logging.INFO)
    with PtyDevice() as device:
        print(f"simulated board firmware on {device.url}", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
