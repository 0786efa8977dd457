"""What the LEDs show: the four signals, their blink timing, and the status LEDs.

Every backend blinks by the same timing, phase-locked to t = 0, so a run in virtual time is
deterministic and two backends showing the same signal blink together. The light language (which
signal means what) is in docs/DESIGN.md.

>>> signal_level(Signal.SLOW, 0.25), signal_level(Signal.SLOW, 0.75)
(True, False)
"""

from __future__ import annotations

import enum

__all__ = ["BLINK_TIMING", "Signal", "StatusLight", "signal_level"]


class Signal(str, enum.Enum):  # noqa: UP042 (StrEnum would change str())
    """What a point LED (or a status LED) shows."""

    OFF = "off"  # nothing to do here
    ON = "on"  # put a piece here
    SLOW = "slow"  # take the piece from here (slow blink)
    FAST = "fast"  # something is wrong here (fast blink)


#: Blink timing shared by every backend, in seconds: (period, time on within the period).
BLINK_TIMING: dict[Signal, tuple[float, float]] = {
    Signal.SLOW: (1.0, 0.5),
    Signal.FAST: (0.25, 0.125),
}


def signal_level(signal: Signal, now: float) -> bool:
    """Whether an LED showing ``signal`` is lit at time ``now`` (phases are locked to t = 0)."""
    if signal is Signal.ON:
        return True
    if signal is Signal.OFF:
        return False
    period, on_time = BLINK_TIMING[signal]
    return (now % period) < on_time


class StatusLight(str, enum.Enum):  # noqa: UP042 (StrEnum would change str())
    """The status LEDs beside the board."""

    TURN = "turn"  # lit while it is the person's turn (or white's turn in referee mode)
    THINKING = "thinking"  # the Pi is searching
    ERROR = "error"  # the board does not match the game, or a device fault
    GAME_OVER = "game_over"
