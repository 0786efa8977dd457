"""The board behind a microcontroller: :class:`SerialBoard` implements ``BoardDevice`` over USB.

Threads: a reader thread per open port handles the device's frames; ``poll(now)``, called by the
daemon's driver thread (or the simulator), sends heartbeats, notices a silent device and
reconnects. Callbacks run on whichever of these two threads produced them, one at a time and in
the order the state changed, and never while an internal lock is held, so a callback may call
``show()`` or ``sensors()``.

What a lost link means to the game: while the link is down nothing is reported: ``sensors()``
keeps returning the last snapshot and ``when_changed`` stays quiet, so a cable pulled mid-game
never looks like pieces lifted. When the link is back, ``when_link_changed(True)`` comes first,
then, only if the fresh snapshot differs from the last one reported, one ``when_changed`` with
it. The daemon's referee takes a changed snapshot as what the person did, so a daemon that
wants to treat changes made while the board was unplugged differently (for instance as "restore
the position" rather than as moves) decides that on the link-down/up signal.
"""

from __future__ import annotations

import collections
import enum
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import ClassVar

from device import (
    POINT_INDEX,
    POINT_NAMES,
    ButtonName,
    ButtonPress,
    SensorReading,
    Signal,
    StatusLight,
    check_point,
    names_of_mask,
)
from firmware_bridge import protocol as P
from firmware_bridge.exc import (
    FrameError,
    HandshakeTimeout,
    LinkError,
    PayloadError,
    ProtocolVersionError,
)
from firmware_bridge.link import Connection

logger = logging.getLogger(__name__)

#: Button ``i`` of the device is ``BUTTONS[i]``; status LED ``i`` is ``STATUS_LIGHTS[i]``.
BUTTONS: tuple[ButtonName, ...] = (
    ButtonName.NEW,
    ButtonName.TAKEBACK,
    ButtonName.HINT,
    ButtonName.MODE,
)
STATUS_LIGHTS: tuple[StatusLight, ...] = (
    StatusLight.TURN,
    StatusLight.THINKING,
    StatusLight.ERROR,
    StatusLight.GAME_OVER,
)
SIGNAL_CODES: dict[Signal, int] = {
    Signal.OFF: P.SIG_OFF,
    Signal.ON: P.SIG_ON,
    Signal.SLOW: P.SIG_SLOW,
    Signal.FAST: P.SIG_FAST,
}
_ALL_POINTS = (1 << len(POINT_NAMES)) - 1
_LED_DRIVERS = {P.LED_NONE: "none", P.LED_WS2812: "ws2812", P.LED_HC595: "hc595"}


class LinkState(enum.StrEnum):
    """Where the link to the device stands."""

    DOWN = "down"  # no port open; the next attempt is scheduled with backoff
    CONNECTING = "connecting"  # port open, waiting for HELLO and a snapshot
    UP = "up"


@dataclass(frozen=True)
class FirmwareInfo:
    """What the device announced in its HELLO."""

    protocol: tuple[int, int]
    firmware: tuple[int, int, int]
    boot_id: int
    sensors: int
    leds: int
    status_lights: int
    buttons: int
    led_driver: str
    heartbeat_interval: float

    @property
    def firmware_version(self) -> str:
        return ".".join(str(part) for part in self.firmware)


@dataclass
class LinkStats:
    """Counters since the board was made; read them for diagnostics and benchmarks."""

    frames_in: int = 0
    frames_out: int = 0
    bad_frames: int = 0
    crc_errors: int = 0
    payload_errors: int = 0
    unknown_frames: int = 0
    device_errors: int = 0
    duplicates: int = 0
    gaps: int = 0
    resyncs: int = 0
    connects: int = 0
    link_losses: int = 0
    last_error: str = ""
    unknown_types: set[int] = field(default_factory=set)


class SerialBoard:
    """The board's microcontroller over a serial port, as a :class:`device.BoardDevice`.

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
        self._heartbeat_interval = heartbeat_interval
        self._heartbeat_timeout = heartbeat_timeout
        self._hello_timeout = hello_timeout
        self._hello_retry = hello_retry
        self._backoff_initial = backoff_initial
        self._backoff_max = backoff_max
        self._baudrate = baudrate

        self._lock = threading.Lock()
        self._up_event = threading.Event()
        self._events: collections.deque[tuple[str, object]] = collections.deque()
        self._draining = False
        self._sends: list[tuple[int, Connection, bytes]] = []
        self._to_close: list[Connection] = []

        self._closed = False
        self._conn: Connection | None = None
        self._gen = 0
        self._state = LinkState.DOWN
        self._info: FirmwareInfo | None = None
        self._hello_seen = False
        self._version_error: ProtocolVersionError | None = None
        self._seq = 0
        self._button_seq: int | None = None
        self._mask = 0
        self._reported: frozenset[str] = frozenset()
        self._silent_first = wait_for_link
        self._resync_pending = False
        self._resync_at = 0.0
        self._points = [P.SIG_OFF] * len(POINT_NAMES)
        self._status = [P.SIG_OFF] * len(STATUS_LIGHTS)
        self._generation = 1
        self._lights_resent = -1e9
        now = clock()
        self._last_rx = now
        self._connect_started = now
        self._next_hello = now
        self._next_heartbeat = now
        self._next_attempt = now
        self._backoff = backoff_initial
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
            return self._reported

    def show(self, lights: Mapping[str, Signal]) -> None:
        """Show a signal on each point LED; points not named are switched off.

        Raises :class:`device.UnknownPoint` for a name not in ``POINT_NAMES``. The device
        does the blinking; while the link is down the lights are kept and sent on reconnect.
        """
        codes = [P.SIG_OFF] * len(POINT_NAMES)
        for name, signal in lights.items():
            codes[POINT_INDEX[check_point(name)]] = SIGNAL_CODES[Signal(signal)]
        with self._lock:
            if codes != self._points:
                self._points = codes
                self._lights_changed_locked()
            sends = self._take_sends_locked()
        self._flush(sends)

    def set_status(self, light: StatusLight, signal: Signal) -> None:
        """Show ``signal`` on one status LED (a status LED the device lacks is ignored)."""
        index = STATUS_LIGHTS.index(StatusLight(light))
        code = SIGNAL_CODES[Signal(signal)]
        with self._lock:
            if self._status[index] != code:
                self._status[index] = code
                self._lights_changed_locked()
            sends = self._take_sends_locked()
        self._flush(sends)

    def poll(self, now: float) -> float:
        """Send heartbeats, notice a silent device, reconnect; return when to be called next."""
        with self._lock:
            if self._closed:
                return now + 1.0
            if self._state is LinkState.DOWN and now >= self._next_attempt:
                self._connect_locked(now)
            if self._state is LinkState.CONNECTING:
                if now - self._connect_started > self._hello_timeout:
                    self._drop_locked(
                        f"no answer to HELLO_REQUEST within {self._hello_timeout:g} s", now
                    )
                elif now >= self._next_hello:
                    self._request_locked()
                    self._next_hello = now + self._hello_retry
            elif self._state is LinkState.UP:
                silent = now - self._last_rx
                if silent > self._heartbeat_timeout:
                    self._drop_locked(f"device silent for {silent:.2f} s", now)
                else:
                    if now >= self._next_heartbeat:
                        self._send_locked(P.HEARTBEAT)
                        self._next_heartbeat = now + self._heartbeat_interval
                    if self._resync_pending and now >= self._resync_at:
                        self._send_locked(P.SNAPSHOT_REQUEST)
                        self._resync_at = now + self._hello_retry
            deadline = self._deadline_locked(now)
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
            if conn is not None and self._state is LinkState.UP:
                self._points = [P.SIG_OFF] * len(POINT_NAMES)
                self._status = [P.SIG_OFF] * len(STATUS_LIGHTS)
                self._lights_changed_locked()
            sends = self._take_sends_locked()
            self._conn = None
            self._gen += 1
            self._state = LinkState.DOWN
            self._up_event.clear()
        self._flush(sends)
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
        return f"<SerialBoard {self.url!r} link {self._state.value}>"

    # --- the link -------------------------------------------------------------------------

    @property
    def is_link_up(self) -> bool:
        """Whether the device is answering and its sensors are being reported."""
        return self._state is LinkState.UP

    @property
    def link_state(self) -> LinkState:
        return self._state

    @property
    def firmware_info(self) -> FirmwareInfo | None:
        """The device's last HELLO, or None before the first."""
        return self._info

    @property
    def closed(self) -> bool:
        return self._closed

    def wait_for_link(self, timeout: float | None = None) -> bool:
        """Block until the link is up (real time, at most ``timeout`` s); return whether it is.

        Something must be calling ``poll`` meanwhile for a down link to reconnect.
        """
        return self._up_event.wait(timeout)

    def request_snapshot(self) -> None:
        """Ask the device for a full snapshot now (reported only if it differs)."""
        with self._lock:
            if self._state is LinkState.UP:
                self._resync_pending = True
                self._resync_at = self._clock() + self._hello_retry
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
        with self._lock:
            self._connect_locked(self._clock(), raise_errors=True)
            sends = self._take_sends_locked()
        self._flush(sends)
        deadline = time.monotonic() + self._hello_timeout
        while not self._up_event.wait(
            min(self._hello_retry, max(0.0, deadline - time.monotonic()))
        ):
            with self._lock:
                if self._version_error is not None:
                    raise self._version_error
                if self._state is LinkState.DOWN:
                    raise LinkError(f"link to {self.url!r} lost during the handshake")
                if time.monotonic() >= deadline:
                    raise HandshakeTimeout(
                        f"no HELLO and snapshot from {self.url!r} within {self._hello_timeout:g} s"
                    )
                self._request_locked()
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
            self._schedule_retry_locked(now)
            if raise_errors:
                raise
            logger.debug("reconnect failed: %s", exc)
            return
        self.stats.connects += 1
        self._conn = conn
        self._state = LinkState.CONNECTING
        self._hello_seen = False
        self._button_seq = None
        self._connect_started = now
        self._last_rx = now
        self._next_hello = now + self._hello_retry
        # A lone delimiter first ends whatever partial frame the device was holding.
        self._sends.append((gen, conn, b"\x00"))
        self._request_locked()
        logger.info("opened %s, waiting for the firmware's HELLO", self.url)

    def _request_locked(self) -> None:
        """The next handshake step: HELLO_REQUEST, or SNAPSHOT_REQUEST once HELLO came."""
        if self._hello_seen:
            self._send_locked(P.SNAPSHOT_REQUEST)
        else:
            self._send_locked(P.HELLO_REQUEST, P.pack_hello_request())

    def _schedule_retry_locked(self, now: float) -> None:
        self._next_attempt = now + self._backoff
        self._backoff = min(self._backoff * 2, self._backoff_max)

    def _drop_locked(self, reason: str, now: float) -> None:
        """Close the current connection (outside the lock, later) and schedule a reconnect."""
        conn, self._conn = self._conn, None
        self._gen += 1
        if conn is not None:
            self._to_close.append(conn)
        was_up = self._state is LinkState.UP
        self._state = LinkState.DOWN
        self._resync_pending = False
        self._up_event.clear()
        self._schedule_retry_locked(now)
        self.stats.last_error = reason
        if was_up:
            self.stats.link_losses += 1
            logger.warning("link to %s down: %s", self.url, reason)
            self._events.append(("link", False))
        else:
            logger.debug("connection to %s dropped: %s", self.url, reason)

    def _deadline_locked(self, now: float) -> float:
        if self._state is LinkState.DOWN:
            return max(now, self._next_attempt)
        if self._state is LinkState.CONNECTING:
            return min(self._next_hello, self._connect_started + self._hello_timeout + 1e-3)
        deadline = min(self._next_heartbeat, self._last_rx + self._heartbeat_timeout + 1e-3)
        if self._resync_pending:
            deadline = min(deadline, self._resync_at)
        return max(now, deadline)

    # --- internals: sending ---------------------------------------------------------------

    def _send_locked(self, ftype: int, payload: bytes = b"") -> None:
        if self._conn is not None:
            self._sends.append((self._gen, self._conn, P.encode_frame(ftype, payload)))

    def _take_sends_locked(self) -> list[tuple[int, Connection, bytes]]:
        sends, self._sends = self._sends, []
        return sends

    def _flush(self, sends: list[tuple[int, Connection, bytes]]) -> None:
        for gen, conn, data in sends:
            try:
                conn.write(data)
                self.stats.frames_out += 1
            except LinkError as exc:
                with self._lock:
                    if gen == self._gen:
                        self._drop_locked(str(exc), self._clock())
                break
        self._finish()

    def _lights_changed_locked(self) -> None:
        self._generation = self._generation % 0xFFFF + 1  # 1..65535; 0 is the device's "none"
        if self._state is LinkState.UP:
            self._send_lights_locked()

    def _send_lights_locked(self) -> None:
        self._send_locked(P.LIGHTS, P.pack_lights(self._generation, self._points, self._status))

    # --- internals: receiving (reader thread) ---------------------------------------------

    def _on_frame(self, gen: int, ftype: int, payload: bytes) -> None:
        with self._lock:
            if gen != self._gen or self._closed:
                return  # a frame from a connection already given up
            self._last_rx = self._clock()
            self.stats.frames_in += 1
            handler = self._HANDLERS.get(ftype)
            if handler is None:
                self.stats.unknown_frames += 1
                if ftype not in self.stats.unknown_types:
                    self.stats.unknown_types.add(ftype)
                    logger.info("skipping frame type 0x%02x (a newer firmware?)", ftype)
            else:
                try:
                    handler(self, payload)
                except ValueError as exc:
                    self.stats.payload_errors += 1
                    error = PayloadError(f"{P.FRAME_NAMES[ftype]}: {exc}", P.E_BAD_PAYLOAD)
                    self.stats.last_error = str(error)
                    logger.warning("%s", error)
            sends = self._take_sends_locked()
        self._flush(sends)

    def _on_bad_frame(self, gen: int, exc: FrameError) -> None:
        with self._lock:
            if gen != self._gen:
                return
            if exc.code == P.E_BAD_CRC:
                self.stats.crc_errors += 1
            else:
                self.stats.bad_frames += 1
            self.stats.last_error = str(exc)
        logger.debug("dropped from %s: %s", self.url, exc)

    def _on_lost(self, gen: int, exc: BaseException | None) -> None:
        with self._lock:
            if gen != self._gen:
                return
            self._drop_locked(f"port failed: {exc}" if exc else "port closed", self._clock())
        self._finish()

    def _on_hello(self, payload: bytes) -> None:
        major, minor, fw, boot_id, sensors, leds, status, buttons, driver, hb_ms, _flags = (
            P.unpack_hello(payload)
        )
        if major != P.PROTOCOL_MAJOR:
            self._version_error = ProtocolVersionError(
                f"device at {self.url!r} speaks protocol {major}.{minor}, "
                f"this host {P.PROTOCOL_MAJOR}.{P.PROTOCOL_MINOR}"
            )
            logger.error("%s", self._version_error)
            self._drop_locked(str(self._version_error), self._clock())
            return
        info = FirmwareInfo(
            (major, minor), fw, boot_id, sensors, leds, status, buttons,
            _LED_DRIVERS.get(driver, f"driver {driver}"), hb_ms / 1000,
        )  # fmt: skip
        if self._state is LinkState.UP:
            if self._info is not None and boot_id == self._info.boot_id:
                return  # a late answer to a HELLO_REQUEST
            logger.warning("firmware on %s restarted; taking a fresh snapshot", self.url)
            self._state = LinkState.CONNECTING
            self._up_event.clear()
            self._connect_started = self._clock()
            self._events.append(("link", False))
        if not self._hello_seen:
            logger.info(
                "firmware %s on %s: protocol %d.%d, %d sensors, %d LEDs (%s), %d buttons",
                info.firmware_version, self.url, major, minor, sensors, leds,
                info.led_driver, buttons,
            )  # fmt: skip
        self._info = info
        self._hello_seen = True
        self._button_seq = None
        self._send_locked(P.SNAPSHOT_REQUEST)

    def _on_snapshot(self, payload: bytes) -> None:
        seq, _time_ms, occupied = P.unpack_snapshot(payload)
        if self._state is LinkState.CONNECTING:
            if not self._hello_seen:
                return  # stale, from before our HELLO_REQUEST was answered
            self._state = LinkState.UP
            self._backoff = self._backoff_initial
            self._next_heartbeat = self._clock()
            self._up_event.set()
            if not self._silent_first:  # the constructor's own first link is no news
                self._events.append(("link", True))
            self._send_lights_locked()
            logger.info("link to %s up", self.url)
        elif self._resync_pending:
            self.stats.resyncs += 1
        elif P.seq_delta(seq, self._seq) < 0:
            return  # an answer to an earlier request, older than what we know
        self._resync_pending = False
        self._seq = seq
        self._set_mask_locked(occupied & _ALL_POINTS)

    def _on_change(self, payload: bytes) -> None:
        seq, _time_ms, changed, occupied = P.unpack_change(payload)
        if self._state is not LinkState.UP or self._resync_pending:
            return
        delta = P.seq_delta(seq, self._seq)
        if delta <= 0:
            self.stats.duplicates += 1
            return
        if delta > 1:
            self._start_resync_locked(f"sensor events {self._seq + 1}..{seq - 1} missed")
            return
        self._seq = seq
        if (self._mask ^ occupied) & ~changed & _ALL_POINTS:
            logger.warning("CHANGE %d disagrees with the state before it; trusting the device", seq)
        self._set_mask_locked(occupied & _ALL_POINTS)

    def _on_button(self, payload: bytes) -> None:
        seq, _time_ms, index, pressed = P.unpack_button(payload)
        if self._state is not LinkState.UP:
            return
        if self._button_seq is not None:
            delta = P.seq_delta(seq, self._button_seq)
            if delta <= 0:
                self.stats.duplicates += 1
                return
            if delta > 1:
                self.stats.gaps += 1
                logger.warning("%d button events missed", delta - 1)
        self._button_seq = seq
        if pressed and index < len(BUTTONS):
            self._events.append(("pressed", ButtonPress(BUTTONS[index], self._clock())))

    def _on_heartbeat(self, payload: bytes) -> None:
        _time_ms, sensor_seq, generation = P.unpack_heartbeat(payload)
        if self._state is not LinkState.UP:
            return
        if not self._resync_pending and sensor_seq != self._seq:
            self._start_resync_locked(f"device at sensor event {sensor_seq}, host at {self._seq}")
        now = self._clock()
        if generation != self._generation and now - self._lights_resent >= self._heartbeat_interval:
            # At most once per interval: a flood of stale heartbeats must not become one of LIGHTS.
            self._lights_resent = now
            self._send_lights_locked()

    def _on_error(self, payload: bytes) -> None:
        code, ref_type, message = P.unpack_error(payload)
        self.stats.device_errors += 1
        name = P.ERROR_NAMES.get(code, f"error {code}")
        about = f" about {P.FRAME_NAMES.get(ref_type, hex(ref_type))}" if ref_type else ""
        self.stats.last_error = f"device: {name}{about}: {message}"
        logger.warning("device %s reports %s%s: %s", self.url, name, about, message)

    def _on_ignored(self, payload: bytes) -> None:
        """Frames meant for the device (an echo, or a confused peer): nothing to do."""

    _HANDLERS: ClassVar[dict[int, Callable[[SerialBoard, bytes], None]]] = {
        P.HELLO: _on_hello,
        P.SNAPSHOT: _on_snapshot,
        P.CHANGE: _on_change,
        P.BUTTON: _on_button,
        P.HEARTBEAT: _on_heartbeat,
        P.ERROR: _on_error,
        P.HELLO_REQUEST: _on_ignored,
        P.SNAPSHOT_REQUEST: _on_ignored,
        P.LIGHTS: _on_ignored,
        P.CONTROL: _on_ignored,
    }

    def _start_resync_locked(self, reason: str) -> None:
        self.stats.gaps += 1
        logger.info("%s; asking for a fresh snapshot", reason)
        self._resync_pending = True
        self._resync_at = self._clock() + self._hello_retry
        self._send_locked(P.SNAPSHOT_REQUEST)

    def _set_mask_locked(self, mask: int) -> None:
        self._mask = mask
        points = names_of_mask(mask)
        if self._silent_first:
            self._silent_first = False
            self._reported = points
            return
        if points != self._reported:
            self._reported = points
            self._events.append(("changed", SensorReading(points, self._clock())))

    # --- internals: callbacks ---------------------------------------------------------------

    def _finish(self) -> None:
        """Close dropped connections and deliver queued callbacks, outside the lock."""
        with self._lock:
            to_close, self._to_close = self._to_close, []
        for conn in to_close:
            conn.close()
        while True:
            with self._lock:
                if self._draining or not self._events:
                    return
                self._draining = True
                kind, arg = self._events.popleft()
            try:
                self._deliver(kind, arg)
            except Exception:
                logger.exception("a %s callback failed", kind)
            finally:
                with self._lock:
                    self._draining = False

    def _deliver(self, kind: str, arg: object) -> None:
        if kind == "changed":
            changed = self.when_changed
            if changed is not None:
                assert isinstance(arg, SensorReading)
                changed(arg)
        elif kind == "pressed":
            pressed = self.when_pressed
            if pressed is not None:
                assert isinstance(arg, ButtonPress)
                pressed(arg)
        elif kind == "link":
            link = self.when_link_changed
            if link is not None:
                link(bool(arg))
