"""The one blink rule of every backend: a blink starts lit when its LED takes the signal."""

from __future__ import annotations

import math
import random

import pytest

from morris_device import BLINK_TIMING, BlinkClock, Signal, next_blink_edge, signal_level

BLINKING = list(BLINK_TIMING)
STEADY = [signal for signal in Signal if signal not in BLINK_TIMING]


def test_every_signal_but_off_and_on_blinks_lit_first_then_dark() -> None:
    assert STEADY == [Signal.OFF, Signal.ON]
    for period, on_time in BLINK_TIMING.values():
        assert 0 < on_time < period


@pytest.mark.parametrize("signal", BLINKING)
@pytest.mark.parametrize("since", [0.0, 0.37, 0.6, 12345.678])
def test_a_blink_starts_lit_and_keeps_its_timing(signal: Signal, since: float) -> None:
    period, on_time = BLINK_TIMING[signal]
    assert signal_level(signal, since, since)
    assert signal_level(signal, since + on_time * 0.99, since)
    assert not signal_level(signal, since + on_time, since)
    assert signal_level(signal, since + period, since)
    assert next_blink_edge(signal, since, since) == pytest.approx(since + on_time)


def test_steady_signals_have_no_edge() -> None:
    for signal in STEADY:
        assert signal_level(signal, 3.3, 1.0) is (signal is Signal.ON)
        assert next_blink_edge(signal, 1.0, 3.3) == math.inf


def test_the_level_never_changes_before_the_edge_returned() -> None:
    # A poll at each returned edge must see every change: no change strictly between ``now``
    # and the edge, and a different level at the edge, even at large clock values.
    rng = random.Random(7)
    for _ in range(5000):
        signal = rng.choice(BLINKING)
        since = rng.uniform(0.0, 1e7)
        now = since + rng.uniform(0.0, 100.0)
        edge = next_blink_edge(signal, since, now)
        assert now < edge <= now + BLINK_TIMING[signal][1] + 1e-6
        level = signal_level(signal, now, since)
        for fraction in (0.01, 0.5, 0.99):
            at = now + (edge - now) * fraction
            if at < edge - 2e-6:
                assert signal_level(signal, at, since) is level
        assert next_blink_edge(signal, since, edge) - edge > 0.1


def test_the_clock_restarts_only_what_changed() -> None:
    lights = BlinkClock[str]()
    assert lights.show({"a7": Signal.SLOW, "d7": Signal.ON}, 0.3)
    assert not lights.show({"a7": Signal.SLOW, "d7": Signal.ON}, 0.6)  # nothing new
    assert lights.since("a7") == 0.3
    assert lights.show({"a7": Signal.SLOW, "d7": Signal.SLOW}, 0.9)
    assert (lights.since("a7"), lights.since("d7")) == (0.3, 0.9)
    assert lights.level("d7", 0.9) and not lights.level("a7", 0.9)
    assert lights.levels(1.0) == {"a7": False, "d7": True}
    assert lights.next_edge(1.0) == pytest.approx(1.3)
    assert lights.blinking
    assert lights.signal("g7") is Signal.OFF and not lights.level("g7", 1.0)


def test_a_display_draws_unshown_signals_from_now() -> None:
    lights = BlinkClock[str]()
    lights.show({"a7": Signal.SLOW}, 0.3)
    assert lights.since_each({"a7": Signal.SLOW, "d7": Signal.FAST}, 2.0) == {"a7": 0.3, "d7": 2.0}


def test_nothing_blinks_once_all_is_steady() -> None:
    lights = BlinkClock[str]()
    lights.show({"a7": Signal.FAST}, 0.0)
    lights.show({"a7": Signal.ON}, 0.1)
    assert not lights.blinking and lights.next_edge(0.2) == math.inf
