"""The host's handling of the device's frames: what it knows of the device, frame by frame.

:class:`FrameHandlers` keeps what the host has learnt of the device on the current link (its
HELLO, the sensor and button sequence numbers, the last snapshot reported) and handles each frame
that arrives: it moves the :class:`~firmware_bridge.linkstate.LinkMachine` (a snapshot after
HELLO brings the link up; a new boot id means the firmware restarted), asks for a fresh snapshot
when a sequence number shows a gap, and posts what changed for delivery to the callbacks. It
runs under the board's lock and sends through the board.

Sensors are reported as full snapshots only when they differ from the last one reported, so a
link that drops and comes back never looks like pieces lifted and put back.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from firmware_bridge import protocol as P
from firmware_bridge.delivery import LinkChange, Report
from firmware_bridge.exc import FrameError, PayloadError, ProtocolVersionError
from firmware_bridge.lights import LightState
from firmware_bridge.linkstate import LinkMachine, LinkState, LinkStats, NoiseWarnings
from morris_device import POINT_NAMES, ButtonName, ButtonPress, SensorReading, names_of

__all__ = ["BUTTONS", "FirmwareInfo", "FrameHandlers"]

logger = logging.getLogger(__name__)

#: Button ``i`` of the device is ``BUTTONS[i]``.
BUTTONS: tuple[ButtonName, ...] = (
    ButtonName.NEW,
    ButtonName.TAKEBACK,
    ButtonName.HINT,
    ButtonName.MODE,
)
_ALL_POINTS = (1 << len(POINT_NAMES)) - 1
_LED_DRIVERS = {P.LED_NONE: "none", P.LED_WS2812: "ws2812", P.LED_HC595: "hc595"}


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
        """The firmware's version as ``major.minor.patch``."""
        return ".".join(str(part) for part in self.firmware)


class FrameHandlers:
    """Handles the device's frames for one :class:`~firmware_bridge.board.SerialBoard`.

    ``send(ftype, payload)`` queues a frame to the device; ``post(report)`` queues a report for
    the callbacks; ``drop(reason, now)`` gives the connection up. With ``silent_first`` the first
    snapshot is taken without a report or a link-up signal (the board's constructor waited for
    it). Every method is called with the board's lock held.
    """

    def __init__(
        self,
        url: str,
        *,
        clock: Callable[[], float],
        link: LinkMachine,
        stats: LinkStats,
        lights: LightState,
        send: Callable[[int, bytes], None],
        post: Callable[[Report], None],
        drop: Callable[[str, float], None],
        silent_first: bool,
    ) -> None:
        self._url = url
        self._clock = clock
        self._link = link
        self._stats = stats
        self._lights = lights
        self._send = send
        self._post = post
        self._drop = drop
        self._silent_first = silent_first
        #: The device's last HELLO, or None before the first.
        self.info: FirmwareInfo | None = None
        #: A HELLO in a protocol this host does not speak, if one came.
        self.version_error: ProtocolVersionError | None = None
        #: The points last reported to ``when_changed`` (or taken silently at first).
        self.reported: frozenset[str] = frozenset()
        self._hello_seen = False
        self._seq = 0
        self._button_seq: int | None = None
        self._mask = 0
        self._lights_resent = -1e9
        #: The rate-limited warnings about frame errors (flushed by the board's ``poll``).
        self.noise = NoiseWarnings(url, logger)

    # --- the board's side -----------------------------------------------------------------

    def new_connection(self) -> None:
        """A new port was opened: the handshake starts over."""
        self._hello_seen = False
        self._button_seq = None

    def request(self) -> None:
        """Send the next handshake step: HELLO_REQUEST, or SNAPSHOT_REQUEST once HELLO came."""
        if self._hello_seen:
            self._send(P.SNAPSHOT_REQUEST, b"")
        else:
            self._send(P.HELLO_REQUEST, P.pack_hello_request())

    def send_lights(self) -> None:
        """Send the lights as they are now."""
        self._send(P.LIGHTS, self._lights.payload())

    def handle(self, ftype: int, payload: bytes) -> None:
        """Handle one well-formed frame; a frame of unknown type is counted and skipped."""
        handler = self._HANDLERS.get(ftype)
        if handler is None:
            self._stats.unknown_frames += 1
            if ftype not in self._stats.unknown_types:
                self._stats.unknown_types.add(ftype)
                logger.info("skipping frame type 0x%02x (a newer firmware?)", ftype)
            return
        try:
            handler(self, payload)
        except ValueError as exc:
            self._stats.payload_errors += 1
            error = PayloadError(f"{P.FRAME_NAMES[ftype]}: {exc}", P.E_BAD_PAYLOAD)
            self._stats.last_error = str(error)
            self.noise.count("bad payload", str(error), self._clock())

    def bad_frame(self, exc: FrameError) -> None:
        """Count a frame that could not be decoded, and warn (rate-limited) about the noise."""
        if exc.code == P.E_BAD_CRC:
            self._stats.crc_errors += 1
            kind = "CRC error"
        else:
            self._stats.bad_frames += 1
            kind = "malformed frame"
        self._stats.last_error = str(exc)
        logger.debug("dropped from %s: %s", self._url, exc)
        self.noise.count(kind, str(exc), self._clock())

    # --- the frames -----------------------------------------------------------------------

    def _on_hello(self, payload: bytes) -> None:
        major, minor, fw, boot_id, sensors, leds, status, buttons, driver, hb_ms, _flags = (
            P.unpack_hello(payload)
        )
        if major != P.PROTOCOL_MAJOR:
            self.version_error = ProtocolVersionError(
                f"device at {self._url!r} speaks protocol {major}.{minor}, "
                f"this host {P.PROTOCOL_MAJOR}.{P.PROTOCOL_MINOR}"
            )
            logger.error("%s", self.version_error)
            self._drop(str(self.version_error), self._clock())
            return
        info = FirmwareInfo(
            (major, minor), fw, boot_id, sensors, leds, status, buttons,
            _LED_DRIVERS.get(driver, f"driver {driver}"), hb_ms / 1000,
        )  # fmt: skip
        if self._link.state is LinkState.UP:
            if self.info is not None and boot_id == self.info.boot_id:
                return  # a late answer to a HELLO_REQUEST
            logger.warning("firmware on %s restarted; taking a fresh snapshot", self._url)
            self._link.restarted(self._clock())
            self._post(LinkChange(False))
        if not self._hello_seen:
            logger.info(
                "firmware %s on %s: protocol %d.%d, %d sensors, %d LEDs (%s), %d buttons",
                info.firmware_version, self._url, major, minor, sensors, leds,
                info.led_driver, buttons,
            )  # fmt: skip
        self.info = info
        self._hello_seen = True
        self._button_seq = None
        self._send(P.SNAPSHOT_REQUEST, b"")

    def _on_snapshot(self, payload: bytes) -> None:
        seq, _time_ms, sensed = P.unpack_snapshot(payload)
        if self._link.state is LinkState.CONNECTING:
            if not self._hello_seen:
                return  # stale, from before our HELLO_REQUEST was answered
            self._link.came_up(self._clock())
            if not self._silent_first:  # the constructor's own first link is no news
                self._post(LinkChange(True))
            self.send_lights()
            logger.info("link to %s up", self._url)
        elif self._link.resync_pending:
            self._stats.resyncs += 1
        elif P.seq_delta(seq, self._seq) < 0:
            return  # an answer to an earlier request, older than what we know
        self._link.resynced()
        self._seq = seq
        self._set_mask(sensed & _ALL_POINTS)

    def _on_change(self, payload: bytes) -> None:
        seq, _time_ms, changed, sensed = P.unpack_change(payload)
        if self._link.state is not LinkState.UP or self._link.resync_pending:
            return
        delta = P.seq_delta(seq, self._seq)
        if delta <= 0:
            self._stats.duplicates += 1
            return
        if delta > 1:
            self._start_resync(f"sensor events {self._seq + 1}..{seq - 1} missed")
            return
        self._seq = seq
        if (self._mask ^ sensed) & ~changed & _ALL_POINTS:
            logger.warning("CHANGE %d disagrees with the state before it; trusting the device", seq)
        self._set_mask(sensed & _ALL_POINTS)

    def _on_button(self, payload: bytes) -> None:
        seq, _time_ms, index, pressed = P.unpack_button(payload)
        if self._link.state is not LinkState.UP:
            return
        if self._button_seq is not None:
            delta = P.seq_delta(seq, self._button_seq)
            if delta <= 0:
                self._stats.duplicates += 1
                return
            if delta > 1:
                self._stats.gaps += 1
                logger.warning("%d button events missed", delta - 1)
        self._button_seq = seq
        if pressed and index < len(BUTTONS):
            self._post(ButtonPress(BUTTONS[index], self._clock()))

    def _on_heartbeat(self, payload: bytes) -> None:
        _time_ms, sensor_seq, generation = P.unpack_heartbeat(payload)
        if self._link.state is not LinkState.UP:
            return
        if not self._link.resync_pending and sensor_seq != self._seq:
            self._start_resync(f"device at sensor event {sensor_seq}, host at {self._seq}")
        now = self._clock()
        interval = self._link.timing.heartbeat_interval
        if generation != self._lights.generation and now - self._lights_resent >= interval:
            # At most once per interval: a flood of stale heartbeats must not become one of LIGHTS.
            self._lights_resent = now
            self.send_lights()

    def _on_error(self, payload: bytes) -> None:
        code, ref_type, message = P.unpack_error(payload)
        self._stats.device_errors += 1
        name = P.ERROR_NAMES.get(code, f"error {code}")
        about = f" about {P.FRAME_NAMES.get(ref_type, hex(ref_type))}" if ref_type else ""
        self._stats.last_error = f"device: {name}{about}: {message}"
        logger.warning("device %s reports %s%s: %s", self._url, name, about, message)

    def _on_ignored(self, payload: bytes) -> None:
        """Frames meant for the device (an echo, or a confused peer): nothing to do."""

    _HANDLERS: ClassVar[dict[int, Callable[[FrameHandlers, bytes], None]]] = {
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

    # --- shared steps ---------------------------------------------------------------------

    def _start_resync(self, reason: str) -> None:
        self._stats.gaps += 1
        logger.info("%s; asking for a fresh snapshot", reason)
        self._link.start_resync(self._clock())
        self._send(P.SNAPSHOT_REQUEST, b"")

    def _set_mask(self, mask: int) -> None:
        self._mask = mask
        points = frozenset(names_of(mask))
        if self._silent_first:
            self._silent_first = False
            self.reported = points
            return
        if points != self.reported:
            self.reported = points
            self._post(SensorReading(points, self._clock()))
