"""Callback delivery: what the board reports, handed to its callbacks in order, one at a time.

The board's two threads (the port's reader and whoever calls ``poll``) both produce reports while
holding the board's lock. They :meth:`~CallbackQueue.post` them here, and after letting go of the
lock call :meth:`~CallbackQueue.drain`: the callbacks run outside every lock of the board (so a
callback may call ``show()`` or ``sensors()``), one at a time and in the order posted. A thread
that finds another one draining leaves its reports to it.
"""

from __future__ import annotations

import collections
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from morris_device import ButtonPress, SensorReading

__all__ = ["CallbackQueue", "LinkChange", "Listeners", "Report"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class LinkChange:
    """The link came up (``up``) or was lost."""

    up: bool


#: What a board reports to its callbacks.
Report = SensorReading | ButtonPress | LinkChange


class Listeners(Protocol):
    """The callbacks a report goes to (read at delivery: they may be set at any time)."""

    when_changed: Callable[[SensorReading], None] | None
    when_pressed: Callable[[ButtonPress], None] | None
    when_link_changed: Callable[[bool], None] | None


class CallbackQueue:
    """Reports waiting for delivery to ``listeners``; safe to post and drain from any thread."""

    def __init__(self, listeners: Listeners) -> None:
        self._listeners = listeners
        self._lock = threading.Lock()
        self._reports: collections.deque[Report] = collections.deque()
        self._draining = False

    def post(self, report: Report) -> None:
        """Queue ``report``; it is delivered by the next :meth:`drain`."""
        with self._lock:
            self._reports.append(report)

    def drain(self) -> None:
        """Deliver queued reports until none is left, unless another thread is delivering."""
        while True:
            with self._lock:
                if self._draining or not self._reports:
                    return
                self._draining = True
                report = self._reports.popleft()
            try:
                self._deliver(report)
            except Exception:
                logger.exception("a %s callback failed", _KINDS[type(report)])
            finally:
                with self._lock:
                    self._draining = False

    def _deliver(self, report: Report) -> None:
        listeners = self._listeners
        if isinstance(report, SensorReading):
            changed = listeners.when_changed
            if changed is not None:
                changed(report)
        elif isinstance(report, ButtonPress):
            pressed = listeners.when_pressed
            if pressed is not None:
                pressed(report)
        else:
            link = listeners.when_link_changed
            if link is not None:
                link(report.up)


#: Each kind of report by the name the log gives it.
_KINDS: dict[type, str] = {SensorReading: "changed", ButtonPress: "pressed", LinkChange: "link"}
