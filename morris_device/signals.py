"""What the LEDs show: the four signals, their blink timing, and the status LEDs.

A blink starts lit at the moment its LED took the signal (``since``), so a new signal is visible
at once: a point that turns ``slow`` lights up now, not at the next half-period of a clock locked
to t = 0. Every backend (the GPIO wirings, the serial firmware, the simulated board, the terminal
UI) blinks by this one rule through :func:`signal_level`, and a :class:`BlinkClock` keeps, per
LED, the signal and since when it shows: LEDs that change together blink in step, and an LED
whose signal did not change keeps its phase, so nothing unrelated flickers. The light language
(which signal means what) is in docs/DESIGN.md.

>>> signal_level(Signal.SLOW, 0.25, since=0.0), signal_level(Signal.SLOW, 0.75, since=0.0)
(True, False)
>>> signal_level(Signal.SLOW, 0.75, since=0.7)   # shown from 0.7 on: lit at once
True
"""

from __future__ import annotations

import enum
import math
from collections.abc import Hashable, Mapping
from typing import Generic, TypeVar

__all__ = ["BLINK_TIMING", "BlinkClock", "Signal", "StatusLight", "next_blink_edge", "signal_level"]


class Signal(str, enum.Enum):  # noqa: UP042 (StrEnum would change str())
    """What a point LED (or a status LED) shows."""

    OFF = "off"  # nothing to do here
    ON = "on"  # put a piece here
    SLOW = "slow"  # take the piece from here (slow blink)
    FAST = "fast"  # something is wrong here (fast blink)


class StatusLight(str, enum.Enum):  # noqa: UP042 (StrEnum would change str())
    """The status LEDs beside the board."""

    TURN = "turn"  # lit while it is the person's turn (or white's turn in referee mode)
    THINKING = "thinking"  # the Pi is searching
    ERROR = "error"  # the board does not match the game, or a device fault
    GAME_OVER = "game_over"


#: Blink timing shared by every backend, in seconds: (period, time on within the period). The
#: time on comes first: a blink starts lit.
BLINK_TIMING: dict[Signal, tuple[float, float]] = {
    Signal.SLOW: (1.0, 0.5),
    Signal.FAST: (0.25, 0.125),
}

#: Blink edges are reckoned this much early, so that a time computed as an edge
#: (``since + k * period + on``, rounded in floating point) reads the level after the edge. It
#: is far below anything a scan or an eye resolves and far above the rounding of a monotonic
#: clock's seconds (about 1e-7 s after 30 years).
_EDGE_SLACK = 1e-6


def signal_level(signal: Signal, now: float, since: float) -> bool:
    """Whether an LED showing ``signal`` since ``since`` is lit at ``now``.

    A blink starts lit at ``since`` (the moment the LED took this signal) and keeps that phase.
    """
    if signal is Signal.ON:
        return True
    if signal is Signal.OFF:
        return False
    period, on_time = BLINK_TIMING[signal]
    return (now - since + _EDGE_SLACK) % period < on_time


def next_blink_edge(signal: Signal, since: float, now: float) -> float:
    """The first time after ``now`` at which an LED showing ``signal`` since ``since`` changes
    level (``inf`` for a steady signal).

    At the time returned, :func:`signal_level` already reads the new level.
    """
    timing = BLINK_TIMING.get(signal)
    if timing is None:
        return math.inf
    period, on_time = timing
    elapsed = now - since + _EDGE_SLACK
    start = math.floor(elapsed / period) * period  # the start of the blink period at ``now``
    edge = since + start + (on_time if elapsed - start < on_time else period)
    if edge <= now:  # ``now`` within the slack before an edge: its level is already the next
        edge = next_blink_edge(signal, since, edge + _EDGE_SLACK)
    return edge


K = TypeVar("K", bound=Hashable)


class BlinkClock(Generic[K]):
    """Per LED (any key: a point name, a status light), its signal and since when it shows.

    :meth:`show` restarts an LED's blink lit when its signal changes and leaves it alone when it
    does not; :meth:`level` and :meth:`next_edge` follow from that. Every board backend and
    every display keeps one, so they all blink alike. Not thread-safe: the owner locks.

    >>> lights = BlinkClock[str]()
    >>> lights.show({"a7": Signal.SLOW}, now=0.3)
    True
    >>> lights.level("a7", 0.3), lights.level("a7", 0.85), lights.next_edge(0.85)
    (True, False, 1.3)
    >>> lights.show({"a7": Signal.SLOW, "d7": Signal.ON}, now=0.9)   # a7 keeps its phase
    True
    >>> lights.since("a7"), lights.since("d7")
    (0.3, 0.9)
    """

    def __init__(self) -> None:
        self._signals: dict[K, Signal] = {}
        self._since: dict[K, float] = {}
        # The distinct (signal, since) of the blinking LEDs: what next_edge looks at.
        self._phases: set[tuple[Signal, float]] = set()

    def show(self, signals: Mapping[K, Signal], now: float) -> bool:
        """Show these signals from ``now`` on (other LEDs keep theirs); whether any changed.

        An LED whose signal changes starts its blink lit at ``now``.
        """
        changed = False
        for key, signal in signals.items():
            signal = Signal(signal)
            if self._signals.get(key, Signal.OFF) is not signal or key not in self._since:
                self._signals[key] = signal
                self._since[key] = now
                changed = True
        if changed:
            self._phases = {
                (signal, self._since[key])
                for key, signal in self._signals.items()
                if signal in BLINK_TIMING
            }
        return changed

    def signal(self, key: K) -> Signal:
        """The signal ``key`` shows (``OFF`` if never shown)."""
        return self._signals.get(key, Signal.OFF)

    def since(self, key: K) -> float:
        """Since when ``key`` shows its signal (``-inf`` if it never showed one)."""
        return self._since.get(key, -math.inf)

    def since_each(self, signals: Mapping[K, Signal], now: float) -> dict[K, float]:
        """Since when each LED would show its signal in ``signals``: the time it took it, or
        ``now`` for a signal it does not show yet (a display drawing those signals)."""
        shown, since = self._signals, self._since
        return {k: since[k] if shown.get(k) is s else now for k, s in signals.items()}

    def level(self, key: K, now: float) -> bool:
        """Whether the LED ``key`` is lit at ``now``."""
        signal = self._signals.get(key)
        if signal is None:
            return False
        return signal_level(signal, now, self._since[key])

    def levels(self, now: float) -> dict[K, bool]:
        """Whether each LED ever shown is lit at ``now``."""
        since = self._since
        return {key: signal_level(sig, now, since[key]) for key, sig in self._signals.items()}

    @property
    def blinking(self) -> bool:
        """Whether any LED blinks (its level changes with time)."""
        return bool(self._phases)

    def next_edge(self, now: float) -> float:
        """The first time after ``now`` at which any LED changes level (``inf``: none blinks)."""
        return min(
            (next_blink_edge(signal, since, now) for signal, since in self._phases),
            default=math.inf,
        )
