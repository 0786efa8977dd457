"""The page's stylesheet blinks the status LEDs with the device's timing.

``morris/web/static/style.css`` is a static file, so its blink periods cannot come from
:data:`morris_device.BLINK_TIMING` as the board picture's do (:mod:`morris.web.picture`); this
test holds them equal instead, for every blinking signal, and fails when a signal is added to
``BLINK_TIMING`` without its rule on the page.
"""

from __future__ import annotations

import re

from morris.web.app import static_text
from morris_device import BLINK_TIMING, Signal

STYLE = static_text("style.css")


def _animated() -> dict[str, tuple[str, float]]:
    """Each ``.led.NAME i`` rule's animation: its keyframes' name and its period in seconds."""
    found = re.findall(
        r"\.led\.(\w+) i \{[^}]*animation: ([\w-]+) ([\d.]+)s step-end infinite;", STYLE
    )
    return {name: (keyframes, float(period)) for name, keyframes, period in found}


def _lit_share(keyframes: str) -> float:
    """How much of its period a blink's keyframes keep the LED lit (lit first: step-end)."""
    match = re.search(
        rf"@keyframes {keyframes} \{{ 0% \{{ opacity: 1 \}} ([\d.]+)% \{{ opacity: \.\d+ \}}", STYLE
    )
    assert match, f"no @keyframes {keyframes} lit at 0% and dimmed after in style.css"
    return float(match[1]) / 100


def test_every_blinking_signal_has_the_devices_period_on_the_page() -> None:
    animated = _animated()
    assert set(animated) == {signal.value for signal in BLINK_TIMING}
    for signal, (period, on_time) in BLINK_TIMING.items():
        keyframes, page_period = animated[signal.value]
        assert page_period == period, signal
        assert _lit_share(keyframes) == on_time / period, signal


def test_every_signal_has_a_look_on_the_page() -> None:
    for signal in Signal:
        if signal is not Signal.OFF:
            assert re.search(rf"\.led\.{signal.value} i \{{", STYLE), signal
