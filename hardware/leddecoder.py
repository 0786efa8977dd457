"""Reading a signal off an LED the way an eye does: from the levels it showed, not the commands.

:class:`~hardware.circuit.BoardCircuit` records each LED's levels with their (virtual) times;
:func:`decode_signal` turns the last :data:`DECODE_WINDOW` seconds of them back into a
:class:`~morris_device.Signal`. No edge: steady on or off from the level; a run of edges closer
than :data:`FAST_GAP` (between the fast blink's longer phase and the slow blink's shorter one, in
:data:`~morris_device.BLINK_TIMING`): fast; otherwise slow. A signal is decoded right once it
has been shown for the whole window; until then a blinking LED may read as its current level.
Every backend starts a blink lit (:func:`morris_device.signal_level`), so a new blink never reads
``off``: after a dark LED, a slow blink reads ``on`` for its first half-period, then ``slow``.

>>> decode_signal([(float("-inf"), False), (0.0, True), (0.5, False), (1.0, True)], 1.2)
<Signal.SLOW: 'slow'>
>>> decode_signal([(float("-inf"), False), (0.3, True)], 1.2)
<Signal.ON: 'on'>
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from morris_device import BLINK_TIMING, Signal

__all__ = ["DECODE_WINDOW", "FAST_GAP", "decode_signal"]

#: How far back the LED decoder looks: one slow blink period. A signal is decoded right once it
#: has been shown for this long (plus one LED-matrix frame on a multiplexed build).
DECODE_WINDOW: float = BLINK_TIMING[Signal.SLOW][0]


def _phases(signal: Signal) -> tuple[float, float]:
    """The lit and the dark time of a blinking ``signal``."""
    period, on_time = BLINK_TIMING[signal]
    return on_time, period - on_time


#: Blink edges closer than this are a fast blink: halfway between the fast blink's longer phase
#: and the slow blink's shorter one (0.125 s and 0.5 s apart: 0.3125 s).
FAST_GAP: float = (max(_phases(Signal.FAST)) + min(_phases(Signal.SLOW))) / 2


def decode_signal(levels: Sequence[tuple[float, bool]], now: float) -> Signal:
    """The signal an LED showed over the :data:`DECODE_WINDOW` before ``now``.

    ``levels`` are the LED's (time, lit) changes in time order, the first one the level it had
    before anything was recorded.
    """
    start = now - DECODE_WINDOW
    edges = [t for t, _ in levels if start < t <= now]
    level = levels[-1][1]
    if len(edges) < 2:
        return Signal.ON if level else Signal.OFF
    # Fast blinking shows as a run of short gaps; one short gap alone is a change of signal
    # (say from steady on to a slow blink), not a fast blink.
    short = [b - a < FAST_GAP for a, b in itertools.pairwise(edges)]
    run = longest = 0
    for is_short in short:
        run = run + 1 if is_short else 0
        longest = max(longest, run)
    return Signal.FAST if longest >= 2 else Signal.SLOW
