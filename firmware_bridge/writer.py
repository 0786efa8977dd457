"""Writing to the device on a thread of its own, so that a device that stops reading never stalls
the board's callers.

A USB CDC port whose far end stops reading fills up, and then each write blocks for the port's
write timeout (about a second). Written on the caller's thread, that stalled ``show()`` (the
daemon's main loop: sensing and lights) and the reader thread (sensing). Here the callers only
queue frames; :class:`FrameWriter`'s thread writes them in order. The queue is bounded, and a
``LIGHTS`` frame replaces one still waiting (the newest lights are what matters), so a stalled
device costs memory for a handful of frames at most. A write that fails is reported with
``on_failed(gen, exc)``; the board then drops the link as before.
"""

from __future__ import annotations

import collections
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge import protocol as P
from firmware_bridge.exc import LinkError
from firmware_bridge.link import Connection
from firmware_bridge.linkstate import LinkStats

__all__ = ["MAX_QUEUED", "FrameWriter", "Outgoing"]

logger = logging.getLogger(__name__)

#: The most frames waiting to be written; beyond it the oldest is dropped (and counted).
MAX_QUEUED = 32


@dataclass(frozen=True)
class Outgoing:
    """Bytes for one connection: a frame of type ``ftype`` (None for a bare delimiter)."""

    gen: int
    conn: Connection
    data: bytes
    ftype: int | None = None


class FrameWriter:
    """A thread that writes queued frames to their connection, in order.

    ``current_gen()`` is the board's connection generation: frames of a connection given up
    are discarded unwritten. ``on_failed(gen, exc)`` is called (on the writer's thread) when a
    write fails.
    """

    def __init__(
        self,
        name: str,
        stats: LinkStats,
        current_gen: Callable[[], int],
        on_failed: Callable[[int, LinkError], None],
    ) -> None:
        self._stats = stats
        self._current_gen = current_gen
        self._on_failed = on_failed
        self._queue: collections.deque[Outgoing] = collections.deque()
        self._cond = threading.Condition()
        self._busy = False
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name=f"serial-writer {name}", daemon=True)
        self._thread.start()

    def put(self, items: list[Outgoing]) -> None:
        """Queue frames; returns at once."""
        if not items:
            return
        with self._cond:
            for item in items:
                if item.ftype == P.LIGHTS:
                    self._drop_waiting_lights(item.conn)
                if len(self._queue) >= MAX_QUEUED:
                    self._queue.popleft()
                    self._stats.frames_dropped += 1
                self._queue.append(item)
            self._cond.notify_all()

    def flush(self, timeout: float) -> bool:
        """Wait (real time, at most ``timeout``) until everything queued is written."""
        if threading.current_thread() is self._thread:
            return False  # a callback on the writer's own thread: it cannot wait for itself
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and not self._busy, timeout)

    def stop(self, timeout: float = 2.0) -> None:
        """Write what is queued (for at most ``timeout`` s), then end the thread."""
        self.flush(timeout)
        with self._cond:
            self._stopping = True
            self._queue.clear()
            self._cond.notify_all()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    def _drop_waiting_lights(self, conn: Connection) -> None:
        kept = [i for i in self._queue if not (i.ftype == P.LIGHTS and i.conn is conn)]
        if len(kept) != len(self._queue):
            self._stats.frames_dropped += len(self._queue) - len(kept)
            self._queue = collections.deque(kept)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._busy = False
                self._cond.notify_all()
                self._cond.wait_for(lambda: self._queue or self._stopping)
                if self._stopping:
                    return
                item = self._queue.popleft()
                self._busy = True
            if item.gen != self._current_gen():
                continue  # for a connection already given up
            try:
                item.conn.write(item.data)
            except LinkError as exc:
                self._discard(item.gen)
                self._on_failed(item.gen, exc)
                continue
            self._stats.frames_out += 1

    def _discard(self, gen: int) -> None:
        """Forget the frames queued for generation ``gen``: its connection has failed."""
        with self._cond:
            self._queue = collections.deque(i for i in self._queue if i.gen != gen)
