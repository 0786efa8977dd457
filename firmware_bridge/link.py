"""Frames over a serial port: a :mod:`serial.threaded` protocol that never lets bad bytes kill
the reader thread, and the opening of the port."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import serial
import serial.threaded

from firmware_bridge import protocol
from firmware_bridge.exc import CRCError, FrameError, LinkError

logger = logging.getLogger(__name__)

FrameHandler = Callable[[int, bytes], None]
ErrorHandler = Callable[[FrameError], None]
LostHandler = Callable[[BaseException | None], None]


def frame_error(code: int, detail: str) -> FrameError:
    """The exception for a decoder error ``(code, detail)``: CRCError for a bad CRC."""
    name = protocol.ERROR_NAMES.get(code, f"error {code}")
    cls = CRCError if code == protocol.E_BAD_CRC else FrameError
    return cls(f"{name}: {detail}", code)


class FramedProtocol(serial.threaded.Protocol):  # type: ignore[misc]
    """Splits the byte stream into frames and hands each to ``on_frame(type, payload)``.

    Garbage, truncated frames and bad CRCs go to ``on_error`` as :class:`FrameError`; an
    exception raised by a handler is logged and swallowed, so nothing a device sends can stop
    the reader. ``on_lost(exc)`` is called once when the port fails or is closed.
    """

    def __init__(
        self, on_frame: FrameHandler, on_error: ErrorHandler, on_lost: LostHandler
    ) -> None:
        self.decoder = protocol.FrameDecoder()
        self.transport: serial.threaded.ReaderThread | None = None
        self._on_frame = on_frame
        self._on_error = on_error
        self._on_lost = on_lost
        self.bytes_in = 0

    def connection_made(self, transport: serial.threaded.ReaderThread) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.bytes_in += len(data)
        frames, errors = self.decoder.feed(data)
        for code, detail in errors:
            self._guard(self._on_error, frame_error(code, detail))
        for ftype, payload in frames:
            self._guard(self._on_frame, ftype, payload)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.transport = None
        self._guard(self._on_lost, exc)

    @staticmethod
    def _guard(fn: Callable[..., None], *args: Any) -> None:
        try:
            fn(*args)
        except Exception:
            logger.exception("frame handler failed; the reader goes on")


class ReaderThread(serial.threaded.ReaderThread):  # type: ignore[misc]
    """pyserial's reader thread, made sturdier: any error of the port ends the loop through
    ``connection_lost`` (pyserial's own lets an ``OSError`` from ``in_waiting`` escape)."""

    def run(self) -> None:
        self.protocol = self.protocol_factory()
        try:
            self.protocol.connection_made(self)
        except Exception as exc:
            self.alive = False
            self.protocol.connection_lost(exc)
            self._connection_made.set()
            return
        self._connection_made.set()
        error: BaseException | None = None
        while self.alive and self.serial.is_open:
            try:
                data = self.serial.read(self.serial.in_waiting or 1)
            except Exception as exc:  # unplugged: SerialException, OSError, TypeError on close
                error = exc
                break
            if data:
                self.protocol.data_received(data)  # never raises: FramedProtocol guards it
        self.alive = False
        self.protocol.connection_lost(error)
        self.protocol = None


class Connection:
    """One open port with its reader thread. Writes are serialised; a failed write closes it."""

    def __init__(
        self,
        url: str,
        on_frame: FrameHandler,
        on_error: ErrorHandler,
        on_lost: LostHandler,
        *,
        baudrate: int = 115200,
        write_timeout: float = 1.0,
    ) -> None:
        try:
            port = serial.serial_for_url(
                url, baudrate=baudrate, timeout=None, write_timeout=write_timeout,
                exclusive=True, do_not_open=True,
            )  # fmt: skip
            port.open()
        except (serial.SerialException, OSError, ValueError) as exc:
            raise LinkError(f"cannot open {url!r}: {exc}") from exc
        self.url = url
        self.port = port
        self._write_lock = threading.Lock()
        self._closed = False
        try:
            port.reset_input_buffer()  # stale bytes from before are no news
        except (serial.SerialException, OSError) as exc:
            port.close()
            raise LinkError(f"cannot use {url!r}: {exc}") from exc
        self.protocol = FramedProtocol(on_frame, on_error, on_lost)
        self.reader = ReaderThread(port, lambda: self.protocol)
        self.reader.name = f"serial-reader {url}"
        self.reader.start()

    def send(self, ftype: int, payload: bytes = b"") -> None:
        """Write one frame. Raises :class:`LinkError` if the port fails."""
        self.write(protocol.encode_frame(ftype, payload))

    def write(self, data: bytes) -> None:
        with self._write_lock:
            if self._closed:
                raise LinkError(f"{self.url!r} is closed")
            try:
                self.port.write(data)
            except (serial.SerialException, OSError) as exc:
                raise LinkError(f"write to {self.url!r} failed: {exc}") from exc

    def close(self) -> None:
        """Stop the reader and close the port; safe from the reader thread itself, and twice."""
        with self._write_lock:
            if self._closed:
                return
            self._closed = True
        self.reader.alive = False
        if threading.current_thread() is not self.reader:
            try:
                if hasattr(self.port, "cancel_read"):
                    self.port.cancel_read()
            except (serial.SerialException, OSError):
                pass
            self.reader.join(2)
        try:
            self.port.close()
        except (serial.SerialException, OSError) as exc:
            logger.debug("closing %s: %s", self.url, exc)
