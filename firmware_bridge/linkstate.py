"""The link's state machine: where the link to the device stands and what is due when.

:class:`LinkMachine` holds the state (down, connecting, up) and every timer of the link: the
reconnect backoff, the handshake's retries and timeout, the heartbeat and its timeout, a pending
resync. It does no I/O and reads no clock: :class:`~firmware_bridge.board.SerialBoard` tells it
what happened (a port opened, a frame received, the link dropped) with the time, asks it what is
due, and does the sending itself. All of it runs under the board's lock.

>>> link = LinkMachine(LinkTiming(), now=0.0)
>>> link.state, link.connect_due(0.0)
(<LinkState.DOWN: 'down'>, True)
>>> link.opened(0.0); link.came_up(0.1)
>>> link.state, link.deadline(0.1)
(<LinkState.UP: 'up'>, 0.1)
"""

from __future__ import annotations

import enum
import logging
import threading
from dataclasses import dataclass, field

__all__ = [
    "NOISE_WARNING_INTERVAL",
    "LinkMachine",
    "LinkState",
    "LinkStats",
    "LinkTiming",
    "NoiseWarnings",
]

logger = logging.getLogger(__name__)

#: Deadlines of a timeout are set just past it, so the poll at the deadline sees it expired.
_PAST = 1e-3


class LinkState(enum.StrEnum):
    """Where the link to the device stands."""

    DOWN = "down"  # no port open; the next attempt is scheduled with backoff
    CONNECTING = "connecting"  # port open, waiting for HELLO and a snapshot
    UP = "up"


@dataclass(frozen=True)
class LinkTiming:
    """The link's intervals and timeouts, in seconds (see :class:`SerialBoard`'s arguments)."""

    heartbeat_interval: float = 0.5
    heartbeat_timeout: float = 2.0
    hello_timeout: float = 5.0
    hello_retry: float = 0.25
    backoff_initial: float = 0.05
    backoff_max: float = 1.0


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
    #: Frames to the device dropped unsent because the device stopped reading (or LIGHTS frames
    #: replaced by newer ones before they could be written).
    frames_dropped: int = 0
    last_error: str = ""
    unknown_types: set[int] = field(default_factory=set)


#: At most one warning about frame errors per this many seconds; the next one says how many.
NOISE_WARNING_INTERVAL = 10.0


class NoiseWarnings:
    """Rate-limited warnings about a noisy link: what went wrong, with counts, at most once per
    :data:`NOISE_WARNING_INTERVAL`.

    A noisy cable shows as frames that fail their CRC or do not decode. Each one is recovered
    from (sequence numbers, snapshots), so one a day is no news; but logged only at DEBUG, a
    link getting worse stays invisible until it drops. The first error is warned about at once,
    the ones after it are counted and summed up in the next warning (by :meth:`flush` once the
    interval has passed, so a burst is reported even if nothing follows it). Time is passed in.

    >>> import logging
    >>> noise = NoiseWarnings("/dev/morris-board", logging.getLogger("doctest"))
    >>> noise.count("CRC error", "bad CRC: ...", now=0.0)  # warned at once
    >>> noise.count("CRC error", "bad CRC: ...", now=1.0); noise.pending
    {'CRC error': 1}
    >>> noise.flush(now=10.5); noise.pending
    {}
    """

    def __init__(
        self, url: str, log: logging.Logger, interval: float = NOISE_WARNING_INTERVAL
    ) -> None:
        self.url = url
        #: Seconds between two warnings.
        self.interval = interval
        self._log = log
        #: What happened since the last warning, by kind.
        self.pending: dict[str, int] = {}
        self._since = 0.0
        self._last = ""
        self._warned_at: float | None = None

    def count(self, kind: str, detail: str, now: float) -> None:
        """One error of ``kind`` (``"CRC error"``, ...); warn now if the interval allows."""
        if not self.pending:
            self._since = now
        self.pending[kind] = self.pending.get(kind, 0) + 1
        self._last = detail
        self.flush(now)

    def flush(self, now: float) -> None:
        """Warn about what is pending if the last warning is at least an interval ago."""
        if not self.pending:
            return
        if self._warned_at is not None and now - self._warned_at < self.interval:
            return
        counts = ", ".join(
            f"{n} {kind}{'s' if n > 1 else ''}" for kind, n in sorted(self.pending.items())
        )
        span = now - self._since
        over = f" in the last {span:.0f} s" if span >= 1 else ""
        self._log.warning(
            "noisy link to %s: %s%s (recovered; last: %s). Check the USB cable if this repeats.",
            self.url, counts, over, self._last,
        )  # fmt: skip
        self.pending = {}
        self._warned_at = now


class LinkMachine:
    """The state of the link and its timers; transitions are told, deadlines are asked.

    :attr:`up` is set exactly while the state is :attr:`LinkState.UP`, for threads that wait
    for the link in real time.
    """

    def __init__(self, timing: LinkTiming, now: float) -> None:
        self.timing = timing
        self.state = LinkState.DOWN
        #: Set while the link is up.
        self.up = threading.Event()
        #: Whether a fresh snapshot has been asked for and not yet received.
        self.resync_pending = False
        self._resync_at = 0.0
        self._last_rx = now
        self._connect_started = now
        self._next_hello = now
        self._next_heartbeat = now
        self._next_attempt = now
        self._backoff = timing.backoff_initial

    # --- transitions ------------------------------------------------------------------------

    def opened(self, now: float) -> None:
        """A port was opened and the handshake's first request sent: now connecting."""
        self.state = LinkState.CONNECTING
        self._connect_started = now
        self._last_rx = now
        self._next_hello = now + self.timing.hello_retry

    def open_failed(self, now: float) -> None:
        """Opening the port failed: try again after the backoff, which doubles up to its max."""
        self._next_attempt = now + self._backoff
        self._backoff = min(self._backoff * 2, self.timing.backoff_max)

    def dropped(self, now: float) -> bool:
        """The connection was given up: down, retry after the backoff. Whether it had been up."""
        was_up = self.state is LinkState.UP
        self.state = LinkState.DOWN
        self.resync_pending = False
        self.up.clear()
        self.open_failed(now)
        return was_up

    def closed(self) -> None:
        """The board was closed: down for good."""
        self.state = LinkState.DOWN
        self.up.clear()

    def came_up(self, now: float) -> None:
        """The handshake finished (HELLO, then a snapshot): up, heartbeats from now."""
        self.state = LinkState.UP
        self._backoff = self.timing.backoff_initial
        self._next_heartbeat = now
        self.up.set()

    def restarted(self, now: float) -> None:
        """The firmware rebooted while the link was up: connecting again, for a fresh snapshot."""
        self.state = LinkState.CONNECTING
        self.up.clear()
        self._connect_started = now

    def received(self, now: float) -> None:
        """A frame arrived: the device is alive."""
        self._last_rx = now

    def start_resync(self, now: float) -> None:
        """A fresh snapshot was asked for; ask again each ``hello_retry`` until it comes."""
        self.resync_pending = True
        self._resync_at = now + self.timing.hello_retry

    def resynced(self) -> None:
        """A snapshot arrived: nothing pending."""
        self.resync_pending = False

    # --- what is due ------------------------------------------------------------------------

    def connect_due(self, now: float) -> bool:
        """Whether the link is down and the next attempt to open the port is due."""
        return self.state is LinkState.DOWN and now >= self._next_attempt

    def handshake_expired(self, now: float) -> bool:
        """Whether the handshake has taken longer than ``hello_timeout``."""
        return now - self._connect_started > self.timing.hello_timeout

    def hello_due(self, now: float) -> bool:
        """Whether the handshake's next request is due (the one after it is scheduled)."""
        if now < self._next_hello:
            return False
        self._next_hello = now + self.timing.hello_retry
        return True

    def silence(self, now: float) -> float:
        """Seconds since the device was last heard."""
        return now - self._last_rx

    def heartbeat_due(self, now: float) -> bool:
        """Whether the next heartbeat is due (the one after it is scheduled)."""
        if now < self._next_heartbeat:
            return False
        self._next_heartbeat = now + self.timing.heartbeat_interval
        return True

    def resync_due(self, now: float) -> bool:
        """Whether a pending resync should be asked for again (the next ask is scheduled)."""
        if not self.resync_pending or now < self._resync_at:
            return False
        self._resync_at = now + self.timing.hello_retry
        return True

    def deadline(self, now: float) -> float:
        """When the board must be polled next for what is due to happen on time."""
        if self.state is LinkState.DOWN:
            return max(now, self._next_attempt)
        if self.state is LinkState.CONNECTING:
            return min(self._next_hello, self._connect_started + self.timing.hello_timeout + _PAST)
        deadline = min(self._next_heartbeat, self._last_rx + self.timing.heartbeat_timeout + _PAST)
        if self.resync_pending:
            deadline = min(deadline, self._resync_at)
        return max(now, deadline)
