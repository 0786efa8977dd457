"""Virtual time: the one clock every simulation and test of a board moves by hand.

A board takes its time from a ``clock()`` callable; on a real board that is ``time.monotonic``.
In virtual time it is a :class:`VirtualClock`, which the simulated GPIO board, the simulator and
the serial bridge's tests all use.

>>> clock = VirtualClock()
>>> clock.advance(1.5)
1.5
>>> clock.set(1.0)   # never backwards
>>> clock()
1.5
"""

from __future__ import annotations

import threading

__all__ = ["VirtualClock"]


class VirtualClock:
    """A clock that only moves when told: ``clock()`` returns :attr:`now`.

    Safe to share between threads: the moves are locked (a reader thread may read the time while
    a test moves it); reading is a plain attribute read, cheap enough for the millions of reads
    of a game in virtual time.
    """

    def __init__(self, start: float = 0.0) -> None:
        #: The current virtual time, in seconds.
        self.now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return self.now

    def set(self, now: float) -> None:
        """Move to ``now`` (never backwards)."""
        with self._lock:
            if now > self.now:
                self.now = now

    def advance(self, seconds: float) -> float:
        """Move forward by ``seconds``; return the new time."""
        with self._lock:
            self.now += seconds
            return self.now
