"""The emulated Pico served on a pseudo-terminal, in a thread, as if one were plugged in.

Used by the tests and benchmarks, and handy at a desk without a Pico::

    python -m firmware_bridge.ptydevice      # prints a pty path to give SerialBoard as its url

The firmware (:mod:`firmware_bridge.firmware.boardfw`) runs on an
:class:`~firmware_bridge.emulator.EmulatedPico`; the pty can be unplugged and replugged.
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
from collections.abc import Callable

from firmware_bridge.emulator import EmulatedPico
from firmware_bridge.firmware import boardfw

__all__ = ["PtyDevice"]

logger = logging.getLogger(__name__)


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
        board: EmulatedPico | None = None,
        *,
        link_path: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.board = board if board is not None else EmulatedPico()
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
