"""The simulated board's LED decoder reads every signal back from the levels it was shown with."""

from __future__ import annotations

import pytest

from hardware.leddecoder import DECODE_WINDOW, FAST_GAP, decode_signal
from morris_device import BLINK_TIMING, Signal, next_blink_edge, signal_level


def _levels(signal: Signal, since: float, until: float) -> list[tuple[float, bool]]:
    """The (time, lit) changes of an LED dark before ``since`` and showing ``signal`` from
    then on, as every backend blinks it (:func:`morris_device.signal_level`)."""
    levels = [(float("-inf"), False), (since, signal_level(signal, since, since=since))]
    t = since
    while True:
        edge = next_blink_edge(signal, since, t)
        if edge > until:
            return levels
        t = edge
        levels.append((t, signal_level(signal, t, since=since)))


@pytest.mark.parametrize("signal", list(Signal), ids=lambda s: s.value)
def test_every_signal_shown_for_the_window_decodes_as_itself(signal: Signal) -> None:
    now = 10.0
    assert decode_signal(_levels(signal, 0.0, now), now) is signal


def test_the_fast_gap_lies_between_the_fast_and_the_slow_blinks_phases() -> None:
    # The threshold follows BLINK_TIMING: a fast blink's edges are all closer than it, a slow
    # blink's all farther apart, whatever periods the table gives.
    fast_period, fast_on = BLINK_TIMING[Signal.FAST]
    slow_period, slow_on = BLINK_TIMING[Signal.SLOW]
    assert max(fast_on, fast_period - fast_on) < FAST_GAP < min(slow_on, slow_period - slow_on)
    assert slow_period == DECODE_WINDOW
