"""The board behind a microcontroller: :class:`SerialBoard` implements ``BoardDevice`` over USB.

Threads: a reader thread per open port handles the device's frames; ``poll(now)``, called by the
daemon's driver thread (or the simulator), sends heartbeats, notices a silent device and
reconnects; a writer thread writes every frame, so no caller ever waits on the port. Callbacks
run on whichever of these threads produced them (the writer's when a write fails), one at a time
and in the order the state changed, and never while an internal lock is held, so a callback may
call ``show()`` or ``sensors()``.

What a lost link means to the game: while the link is down nothing is reported: ``sensors()``
keeps returning the last snapshot and ``when_changed`` stays quiet, so a cable pulled mid-game
never looks like pieces lifted. When the link is back, ``when_link_changed(True)`` comes first,
then, only if the fresh snapshot differs from the last one reported, one ``when_changed`` with
it. The daemon's referee takes a changed snapshot as what the person did, so a daemon that
wants to treat changes made while the board was unplugged differently (for instance as "restore
the position" rather than as moves) decides that on the link-down/up signal.

The parts: the link's state machine (:mod:`firmware_bridge.linkstate`), the handling of the
device's frames (:mod:`firmware_bridge.handlers`), the lights as sent
(:mod:`firmware_bridge.lights`), callback delivery (:mod:`firmware_bridge.delivery`) and the
writer thread (:mod:`firmware_bridge.writer`); this module owns the port, the lock and what is
sent.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from types import TracebackType

from firmware_bridge import protocol as P
from firmware_bridge.delivery import CallbackQueue, LinkChange
from firmware_bridge.exc import FrameError, HandshakeTimeout, LinkError
from firmware_bridge.handlers import FirmwareInfo, FrameHandlers
from firmware_bridge.lights import LightState, point_codes
from firmware_bridge.link import Connection
from firmware_bridge.linkstate import LinkMachine, LinkState, LinkStats, LinkTiming
from firmware_bridge.writer import FrameWriter, Outgoing
from morris_device import ButtonPress, SensorReading, Signal, StatusLight

__all__ = ["SerialBoard"]

logger = logging.getLogger(__name__)


class SerialBoard:
    """The board's microcontroller over a serial port, as a :class:`morris_device.BoardDevice`.

    ``url`` is anything :func:`serial.serial_for_url` opens: a stable device path such as
    ``/dev/morris-board`` or ``/dev/serial/by-id/...`` (see :func:`firmware_bridge.find_device`),
    so that a replugged board is found again at the same name.

    With ``wait_for_link`` (the default) the constructor opens the port, waits up to
    ``hello_timeout`` seconds for the firmware's HELLO and a first snapshot, and raises
    :class:`~firmware_bridge.exc.LinkError` (``HandshakeTimeout``, ``ProtocolVersionError``)
    if that fails, having closed what it opened. Without it the board starts with the link down
    and ``poll`` connects. ``clock`` must be the clock whose time is passed to ``poll``.
    """

    def __init__(
        self,
        url: str,
        *,
        clock: Callable[[], float] = time.monotonic,
        heartbeat_interval: float = 0.5,
        heartbeat_timeout: float = 2.0,
        hello_timeout: float = 5.0,
        hello_retry: float = 0.25,
        backoff_initial: float = 0.05,
        backoff_max: float = 1.0,
        wait_for_link: bool = True,
        baudrate: int = 115200,
        when_changed: Callable[[SensorReading], None] | None = None,
        when_pressed: Callable[[ButtonPress], None] | None = None,
        when_link_changed: Callable[[bool], None] | None = None,
    ) -> None:
        self.url = url
        #: Called with the full snapshot each time the sensed pieces change.
        self.when_changed = when_changed
        #: Called when a button is pressed.
        self.when_pressed = when_pressed
        #: Called with True when the link comes up and False when it is lost.
        self.when_link_changed = when_link_changed
        self.stats = LinkStats()
        self._clock = clock
        self._timing = LinkTiming(
            heartbeat_interval=heartbeat_interval,
            heartbeat_timeout=heartbeat_timeout,
            hello_timeout=hello_timeout,
            hello_retry=hello_retry,
            backoff_initial=backoff_initial,
            backoff_max=backoff_max,
        )
        self._baudrate = baudrate

        self._lock = threading.Lock()
        self._callbacks = CallbackQueue(self)
        self._sends: list[Outgoing] = []
        self._to_close: list[Connection] = []

        self._closed = False
        self._conn: Connection | None = None
        #: The connection's generation: frames and failures of a connection given up are ignored.
        self._gen = 0
        self._link = LinkMachine(self._timing, clock())
        self._lights = LightState()
        # Writes go through a thread of their own: a device that stops reading must never stall
        # show() (the daemon's main loop) or the reader thread (sensing).
        self._writer = FrameWriter(url, self.stats, lambda: self._gen, self._on_write_failed)
        self._frames = FrameHandlers(
            url,
            clock=clock,
            link=self._link,
            stats=self.stats,
            lights=self._lights,
            send=self._send_locked,
            post=self._callbacks.post,
            drop=self._drop_locked,
            silent_first=wait_for_link,
        )
        if wait_for_link:
            try:
                self._wait_for_first_link()
            except BaseException:
                self.close()
                raise

    # --- BoardDevice ----------------------------------------------------------------------

    def sensors(self) -> frozenset[str]:
        """The points where a piece was last sensed (unchanged while the link is down)."""
        with self._lock:
            return self._frames.reported

    def show(self, lights: Mapping[str, Signal]) -> None:
        """Show a signal on each point LED; points not named are switched off.

        Raises :class:`morris_device.UnknownPoint` for a name not in ``POINT_NAMES``. The device
        does the blinking; while the link is down the lights are kept and sent on reconnect.
        """
        codes = point_codes(lights)
        with self._lock:
            if self._lights.set_points(codes):
                self._lights_changed_locked()
            sends = self._take_sends_locked()
        self._flush(sends)

    def set_status(self, light: StatusLight, signal: Signal) -> None:
        """Show ``signal`` on one status LED (a status LED the device lacks is ignored)."""
        with self._lock:
            if self._lights.set_status(light, signal):
                self._lights_changed_locked()
            sends = self._take_sends_locked()
        self._flush(sends)

    def poll(self, now: float) -> float:
        """Send heartbeats, notice a silent device, reconnect; return when to be called next."""
        link = self._link
        with self._lock:
            if self._closed:
                return now + 1.0
            if link.connect_due(now):
                self._connect_locked(now)
            if link.state is LinkState.CONNECTING:
                if link.handshake_expired(now):
                    self._drop_locked(
                        f"no answer to HELLO_REQUEST within {self._timing.hello_timeout:g} s", now
                    )
                elif link.hello_due(now):
                    self._frames.request()
            elif link.state is LinkState.UP:
                silent = link.silence(now)
                if silent > self._timing.heartbeat_timeout:
                    self._drop_locked(f"device silent for {silent:.2f} s", now)
                else:
                    if link.heartbeat_due(now):
                        self._send_locked(P.HEARTBEAT)
                    if link.resync_due(now):
                        self._send_locked(P.SNAPSHOT_REQUEST)
            self._frames.noise.flush(now)
            deadline = link.deadline(now)
            sends = self._take_sends_locked()
        self._flush(sends)
        self._finish()
        return deadline

    def close(self) -> None:
        """Switch every LED off, close the port and stop the reader. Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            conn = self._conn
            if conn is not None and self._link.state is LinkState.UP:
                self._lights.switch_off()
                self._lights_changed_locked()
            sends = self._take_sends_locked()
        # The lights switched off are written before the port closes, unless the device has
        # stopped reading: then close does not wait longer than a write would.
        self._writer.put(sends)
        self._writer.stop(timeout=1.5)
        with self._lock:
            self._conn = None
            self._gen += 1
            self._link.closed()
        if conn is not None:
            conn.close()
        self._finish()

    def __enter__(self) -> SerialBoard:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<SerialBoard {self.url!r} link {self._link.state.value}>"

    # --- the link -------------------------------------------------------------------------

    @property
    def is_link_up(self) -> bool:
        """Whether the device is answering and its sensors are being reported."""
        return self._link.state is LinkState.UP

    @property
    def link_state(self) -> LinkState:
        """Where the link stands now."""
        return self._link.state

    @property
    def firmware_info(self) -> FirmwareInfo | None:
        """The device's last HELLO, or None before the first."""
        return self._frames.info

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has been called."""
        return self._closed

    def wait_for_link(self, timeout: float | None = None) -> bool:
        """Block until the link is up (real time, at most ``timeout`` s); return whether it is.

        Something must be calling ``poll`` meanwhile for a down link to reconnect.
        """
        return self._link.up.wait(timeout)

    def request_snapshot(self) -> None:
        """Ask the device for a full snapshot now (reported only if it differs)."""
        with self._lock:
            if self._link.state is LinkState.UP:
                self._link.start_resync(self._clock())
                self._send_locked(P.SNAPSHOT_REQUEST)
            sends = self._take_sends_locked()
        self._flush(sends)

    def send_control(self, command: int) -> None:
        """Send a CONTROL command (``protocol.CTL_*``): exit to the REPL, reset, bootloader."""
        with self._lock:
            self._send_locked(P.CONTROL, P.pack_control(command))
            sends = self._take_sends_locked()
        self._flush(sends)

    # --- internals: connecting --------------------------------------------------------------

    def _wait_for_first_link(self) -> None:
        hello_timeout, hello_retry = self._timing.hello_timeout, self._timing.hello_retry
        with self._lock:
            self._connect_locked(self._clock(), raise_errors=True)
            sends = self._take_sends_locked()
        self._flush(sends)
        deadline = time.monotonic() + hello_timeout
        while not self._link.up.wait(min(hello_retry, max(0.0, deadline - time.monotonic()))):
            with self._lock:
                if self._frames.version_error is not None:
                    raise self._frames.version_error
                if self._link.state is LinkState.DOWN:
                    raise LinkError(f"link to {self.url!r} lost during the handshake")
                if time.monotonic() >= deadline:
                    raise HandshakeTimeout(
                        f"no HELLO and snapshot from {self.url!r} within {hello_timeout:g} s"
                    )
                self._frames.request()
                sends = self._take_sends_locked()
            self._flush(sends)
        self._finish()

    def _connect_locked(self, now: float, raise_errors: bool = False) -> None:
        self._gen += 1
        gen = self._gen
        try:
            conn = Connection(
                self.url,
                lambda ftype, payload: self._on_frame(gen, ftype, payload),
                lambda exc: self._on_bad_frame(gen, exc),
                lambda exc: self._on_lost(gen, exc),
                baudrate=self._baudrate,
            )
        except LinkError as exc:
            self.stats.last_error = str(exc)
            self._link.open_failed(now)
            if raise_errors:
                raise
            logger.debug("reconnect failed: %s", exc)
            return
        self.stats.connects += 1
        self._conn = conn
        self._link.opened(now)
        self._frames.new_connection()
        # A lone delimiter first ends whatever partial frame the device was holding.
        self._sends.append(Outgoing(gen, conn, b"\x00"))
        self._frames.request()
        logger.info("opened %s, waiting for the firmware's HELLO", self.url)

    def _drop_locked(self, reason: str, now: float) -> None:
        """Close the current connection (outside the lock, later) and schedule a reconnect."""
        conn, self._conn = self._conn, None
        self._gen += 1
        if conn is not None:
            self._to_close.append(conn)
        was_up = self._link.dropped(now)
        self.stats.last_error = reason
        if was_up:
            self.stats.link_losses += 1
            logger.warning("link to %s down: %s", self.url, reason)
            self._callbacks.post(LinkChange(False))
        else:
            logger.debug("connection to %s dropped: %s", self.url, reason)

    # --- internals: sending ---------------------------------------------------------------

    def _send_locked(self, ftype: int, payload: bytes = b"") -> None:
        if self._conn is not None:
            frame = P.encode_frame(ftype, payload)
            self._sends.append(Outgoing(self._gen, self._conn, frame, ftype))

    def _take_sends_locked(self) -> list[Outgoing]:
        sends, self._sends = self._sends, []
        return sends

    def _flush(self, sends: list[Outgoing]) -> None:
        """Hand the frames to the writer thread (at once) and deliver what is due."""
        self._writer.put(sends)
        self._finish()

    def _on_write_failed(self, gen: int, exc: LinkError) -> None:
        """The writer thread could not write (the port failed, or the device stopped reading)."""
        with self._lock:
            if gen == self._gen:
                self._drop_locked(str(exc), self._clock())
        self._finish()

    def _lights_changed_locked(self) -> None:
        if self._link.state is LinkState.UP:
            self._frames.send_lights()

    # --- internals: receiving (reader thread) ---------------------------------------------

    def _on_frame(self, gen: int, ftype: int, payload: bytes) -> None:
        with self._lock:
            if gen != self._gen or self._closed:
                return  # a frame from a connection already given up
            self._link.received(self._clock())
            self.stats.frames_in += 1
            self._frames.handle(ftype, payload)
            sends = self._take_sends_locked()
        self._flush(sends)

    def _on_bad_frame(self, gen: int, exc: FrameError) -> None:
        with self._lock:
            if gen != self._gen:
                return
            self._frames.bad_frame(exc)

    def _on_lost(self, gen: int, exc: BaseException | None) -> None:
        with self._lock:
            if gen != self._gen:
                return
            self._drop_locked(f"port failed: {exc}" if exc else "port closed", self._clock())
        self._finish()

    # --- internals: callbacks ---------------------------------------------------------------

    def _finish(self) -> None:
        """Close dropped connections and deliver queued callbacks, outside the lock."""
        with self._lock:
            to_close, self._to_close = self._to_close, []
        for conn in to_close:
            conn.close()
        self._callbacks.drain()
