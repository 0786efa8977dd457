"""Tell systemd how the daemon is doing: the sd_notify(3) protocol and a watchdog pacer.

Under a unit with ``Type=notify`` systemd passes the address of a datagram socket in
``NOTIFY_SOCKET``; the daemon sends newline-separated ``KEY=value`` assignments to it. With
``WatchdogSec=`` it also passes ``WATCHDOG_USEC`` (and ``WATCHDOG_PID``), and restarts the service
when no ``WATCHDOG=1`` arrives within that time.

Why not a library: the candidates on PyPI were checked on a machine with pip only.
``systemd-python`` builds from source against libsystemd headers (no wheels; it fails without
``libsystemd-dev`` and ``pkg-config``); ``cysystemd`` ships an x86_64 wheel but none for the Pi's
aarch64 or armhf, so it compiles there too; ``sdnotify`` (last release 2017) and ``sd-notify``
(one release, 2020) are unmaintained and ignore ``WATCHDOG_USEC``; ``systemd-watchdog`` is pure
Python but paces its pings with the wall clock, which jumps on a Pi when NTP first sets it (a Pi
has no real-time clock), and cannot send ``STOPPING``/``RELOADING``. The protocol itself is a
documented, stable one-datagram affair, so it is implemented here on a stdlib socket.

Usage in a main loop::

    notifier = Notifier.from_environment()
    pacer = WatchdogPacer(notifier)
    ...                                  # open the board; wait until it answers
    notifier.ready()
    while running:
        step()                           # one iteration of the loop
        pacer.tick(time.monotonic())     # pings only while the loop keeps coming back here
    notifier.stopping()

Every method is a no-op returning ``False`` when the daemon is not run by systemd.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Mapping

logger = logging.getLogger(__name__)

__all__ = ["Notifier", "WatchdogPacer", "monotonic_usec"]


def monotonic_usec() -> int:
    """``CLOCK_MONOTONIC`` in microseconds, the clock systemd compares ``MONOTONIC_USEC`` with."""
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000


def _socket_address(value: str | None) -> str | bytes | None:
    """The address to ``sendto`` for a ``NOTIFY_SOCKET`` value, or ``None`` if unusable.

    Like libsystemd, accept an absolute path or ``@name`` for a socket in the abstract namespace
    (whose address starts with a NUL byte). Anything else (``vsock:`` of newer systemd versions,
    a relative path) is not for us.
    """
    if not value:
        return None
    if value.startswith("@"):
        return b"\0" + value[1:].encode()
    if value.startswith("/"):
        return value
    logger.warning("ignoring unsupported NOTIFY_SOCKET=%r", value)
    return None


def _watchdog_interval(environ: Mapping[str, str], pid: int) -> float | None:
    """The watchdog time in seconds, or ``None``: sd_watchdog_enabled(3) in Python."""
    usec = environ.get("WATCHDOG_USEC", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    # WATCHDOG_PID names the process systemd watches; a child that inherited the environment
    # must not ping on the parent's behalf.
    watched = environ.get("WATCHDOG_PID", "")
    if watched and (not watched.isdigit() or int(watched) != pid):
        return None
    return int(usec) / 1_000_000


class Notifier:
    """A client of systemd's notification socket.

    ``Notifier(None)`` (or :meth:`from_environment` outside systemd) does nothing and every call
    returns ``False``. A send that fails (systemd gone, socket removed) is logged and returns
    ``False``: losing a notification must never take the daemon down.
    """

    def __init__(self, address: str | bytes | None, watchdog_interval: float | None = None) -> None:
        """Send to ``address`` (a path, or bytes starting with NUL for an abstract socket).

        ``watchdog_interval`` is systemd's watchdog time in seconds, or ``None`` if not enabled.
        """
        self.address = address
        self.watchdog_interval = watchdog_interval if address is not None else None
        self._socket: socket.socket | None = None
        self._warned = False

    @classmethod
    def from_environment(
        cls, environ: Mapping[str, str] | None = None, pid: int | None = None
    ) -> Notifier:
        """A notifier for ``NOTIFY_SOCKET``, ``WATCHDOG_USEC`` and ``WATCHDOG_PID``.

        ``environ`` defaults to ``os.environ`` and ``pid`` to this process's id.
        """
        env = os.environ if environ is None else environ
        address = _socket_address(env.get("NOTIFY_SOCKET"))
        interval = _watchdog_interval(env, os.getpid() if pid is None else pid)
        return cls(address, interval)

    @property
    def is_enabled(self) -> bool:
        """Whether there is a socket to notify (the daemon runs under ``Type=notify``)."""
        return self.address is not None

    @property
    def is_watchdog_enabled(self) -> bool:
        """Whether systemd expects ``WATCHDOG=1`` pings from this process."""
        return self.watchdog_interval is not None

    def notify(self, **fields: str | int) -> bool:
        """Send ``KEY=value`` assignments in one datagram; ``True`` if it was sent.

        Keys are given in Python style and sent upper-case: ``notify(ready=1, status="x")``
        sends ``READY=1`` and ``STATUS=x``. A newline in a value would start a new assignment,
        so newlines are replaced by spaces.
        """
        if self.address is None:
            return False
        lines = [
            f"{key.upper()}={str(value).replace(chr(10), ' ')}" for key, value in fields.items()
        ]
        payload = ("\n".join(lines) + "\n").encode()
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                # Never block the main loop: if systemd stops reading (its queue full), the
                # datagram is dropped and logged instead of stalling the board.
                self._socket.setblocking(False)
            self._socket.sendto(payload, self.address)
        except OSError as exc:
            # Warn once: a gone socket would otherwise log on every watchdog ping.
            log = logger.debug if self._warned else logger.warning
            log("could not notify systemd at %r: %s", self.address, exc)
            self._warned = True
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """Startup is finished (the board answers): systemd considers the service started."""
        if status is None:
            return self.notify(ready=1)
        return self.notify(ready=1, status=status)

    def status(self, text: str) -> bool:
        """One line for ``systemctl status``, e.g. the game state."""
        return self.notify(status=text)

    def reloading(self, now_usec: int | None = None) -> bool:
        """A reload (SIGHUP) has begun; send :meth:`ready` when it is done.

        ``MONOTONIC_USEC`` (default: now) is required by systemd >= 253 for ``Type=notify-reload``
        and ignored by older ones.
        """
        usec = monotonic_usec() if now_usec is None else now_usec
        return self.notify(reloading=1, monotonic_usec=usec)

    def stopping(self, status: str | None = None) -> bool:
        """Shutdown has begun (SIGTERM received)."""
        if status is None:
            return self.notify(stopping=1)
        return self.notify(stopping=1, status=status)

    def watchdog(self) -> bool:
        """Ping the watchdog: the daemon is alive. Sent only when the watchdog is enabled."""
        if self.watchdog_interval is None:
            return False
        return self.notify(watchdog=1)

    def watchdog_trigger(self, status: str | None = None) -> bool:
        """Tell systemd the daemon is unhealthy now, as if the watchdog had expired."""
        if status is None:
            return self.notify(watchdog="trigger")
        return self.notify(status=status, watchdog="trigger")

    def close(self) -> None:
        """Close the socket; safe to call twice. Later calls open it again."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __enter__(self) -> Notifier:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Notifier({self.address!r}, watchdog_interval={self.watchdog_interval!r})"


class WatchdogPacer:
    """Pings the watchdog at half its interval, as long as the main loop keeps calling :meth:`tick`.

    The pinging is done *from* the loop on purpose: a timer thread would keep pinging while the
    loop hangs, and systemd would never restart a stuck daemon. ``now`` is any monotonic clock in
    seconds (``time.monotonic()`` in the daemon, a plain number in tests).
    """

    def __init__(self, notifier: Notifier, fraction: float = 0.5) -> None:
        """Pace pings for ``notifier``: one every ``fraction`` of its watchdog interval."""
        if not 0 < fraction < 1:
            raise ValueError(f"watchdog fraction must be between 0 and 1, not {fraction!r}")
        self.notifier = notifier
        self.period = (
            None if notifier.watchdog_interval is None else notifier.watchdog_interval * fraction
        )
        self.last_ping: float | None = None

    def tick(self, now: float) -> bool:
        """Called every loop iteration; pings if a period has passed. ``True`` if it pinged."""
        if self.period is None:
            return False
        if self.last_ping is not None and now - self.last_ping < self.period:
            return False
        # Record the attempt even if the send failed, so a gone socket is not retried every tick.
        self.last_ping = now
        return self.notifier.watchdog()
