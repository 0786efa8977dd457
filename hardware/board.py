"""A board on GPIO pins, built from a wiring profile: :class:`GpioBoard` and :func:`open_board`.

The board is a list of input blocks and a list of output blocks, each built by its wire kind
(:mod:`hardware.kinds`); it knows no kind of wiring itself.

Time reaches the board only through :meth:`GpioBoard.poll`: each call does what is due at ``now``
(a full input scan with debouncing, one row of the LED matrix, a blink edge on direct or 74HC595
LEDs) and returns when it next needs to be called. Blinking follows a
:class:`~morris_device.BlinkClock`: an LED whose signal changes starts its blink lit at that
moment (a new signal is visible at once), the others keep their phase, and a run in virtual time
is deterministic. On a real board
:class:`hardware.runner.BoardRunner` calls ``poll``.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from typing import Any

from hardware.kinds import InputBlock, OutputBlock
from hardware.profiles import Profile, load_profile
from hardware.wiring import Debouncer
from morris_device import (
    POINT_NAMES,
    BlinkClock,
    BoardBase,
    ButtonName,
    ButtonPress,
    SensorReading,
    Signal,
    StatusLight,
    check_point,
)

logger = logging.getLogger(__name__)

__all__ = ["GpioBoard", "open_board"]

_POINT_SET = frozenset(POINT_NAMES)


#: Seconds without a change read before the inputs are scanned at ``profile.idle_scan_hz``.
QUIET_AFTER = 2.0


class GpioBoard(BoardBase):
    """The board of a wiring profile on gpiozero devices (see :func:`open_board`).

    Inputs (sensors and buttons, direct or in the matrix) are scanned ``profile.scan_hz`` times a
    second and debounced over ``profile.debounce_scans`` scans; a change is reported with the time
    of the scan that confirmed it. Once the board has been quiet for :data:`QUIET_AFTER` seconds
    (no change read, none pending, no button held) it is scanned ``profile.idle_scan_hz`` times a
    second instead, on the same grid of scan times, until a scan reads a change: the first touch
    after a pause is seen at most one idle period later (40 ms at 25 Hz, within the referee's
    debounce), and a board left alone costs a quarter of the scans. Callbacks run in the thread
    that calls :meth:`poll`. Thread-safe: :meth:`show` may be called from another thread while a
    runner polls.
    """

    def __init__(
        self,
        profile: Profile,
        *,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.profile = profile
        self._clock = clock
        self._lock = threading.RLock()
        self._inputs: list[InputBlock] = []
        self._outputs: list[OutputBlock] = []
        # Every block in the order built: closed in reverse.
        self._blocks: list[InputBlock | OutputBlock] = []
        start = clock()
        try:
            self._build(pin_factory, start)
        except BaseException:
            self._close_blocks()
            raise
        self._debouncer = Debouncer(profile.debounce_scans)
        self._scan_period = 1.0 / profile.scan_hz
        # Scan-grid steps between two scans of a quiet board (1: it never idles).
        self._idle_steps = max(1, round(profile.scan_hz / profile.idle_scan_hz))
        self._lights: BlinkClock[Hashable] = BlinkClock()
        self._sensed: frozenset[str] = frozenset()
        self._pressed: frozenset[ButtonName] = frozenset()
        #: The time of the poll in progress, or of the last :meth:`show` (what the LEDs show now).
        self.now = start
        #: The deadline the last :meth:`poll` returned.
        self.next_poll = start
        self._origin = start
        self._scan_index = 0
        self._active_at = start  # the last scan that read a change, or held one pending
        for output in self._outputs:
            output.update(start, self._lights)

    def _build(self, pin_factory: Any, start: float) -> None:
        p = self.profile
        for kind, settings, wires in p.input_blocks():
            block = kind.build(settings, wires, profile=p, pin_factory=pin_factory, start=start)
            self._blocks.append(block)
            self._inputs.append(block)
        for output_kind, settings, wires in p.output_blocks():
            output = output_kind.build(
                settings, wires, profile=p, pin_factory=pin_factory, start=start
            )
            self._blocks.append(output)
            self._outputs.append(output)

    # -- the BoardDevice interface ---------------------------------------------------------

    def sensors(self) -> frozenset[str]:
        """The points where a piece is sensed now (debounced)."""
        return self._sensed

    def pressed(self) -> frozenset[ButtonName]:
        """The buttons held down now (debounced)."""
        return self._pressed

    def show(self, lights: Mapping[str, Signal]) -> None:
        """Show a signal on each point LED; points not named are switched off.

        Raises :class:`~morris_device.UnknownPoint` for a name that is not a point.
        """
        for name in lights:
            check_point(name)
        with self._lock:
            self._check_open()
            self._outputs_changed({name: lights.get(name, Signal.OFF) for name in POINT_NAMES})

    def set_status(self, light: StatusLight, signal: Signal) -> None:
        """Show ``signal`` on one status LED (a status LED the profile does not wire is ignored)."""
        with self._lock:
            self._check_open()
            self._outputs_changed({("status", StatusLight(light)): signal})

    def signal(self, key: str | StatusLight) -> Signal:
        """The signal last commanded for a point or a status light (not what the LED shows)."""
        lookup: Hashable = ("status", key) if isinstance(key, StatusLight) else key
        return self._lights.signal(lookup)

    def poll(self, now: float) -> float:
        """Do what is due at ``now``; return when to be called next.

        Raises :class:`~morris_device.BoardClosed` once the board is closed.
        """
        readings: list[SensorReading] = []
        presses: list[ButtonPress] = []
        with self._lock:
            self._check_open()
            self.now = now
            if now >= self._next_scan_time():
                self._scan(now, readings, presses)
                quiet = now - self._active_at >= QUIET_AFTER
                self._scan_index += self._idle_steps if quiet else 1
                if self._next_scan_time() <= now:  # fell behind (a slow real-time poll): skip
                    self._scan_index = math.floor((now - self._origin) / self._scan_period) + 1
            deadline = self._next_scan_time()
            for output in self._outputs:
                deadline = min(deadline, output.refresh(now, self._lights))
            self.next_poll = deadline
        for reading in readings:
            if self.when_changed is not None:
                self.when_changed(reading)
        for press in presses:
            if self.when_pressed is not None:
                self.when_pressed(press)
        return deadline

    # -- internals -------------------------------------------------------------------------

    def _next_scan_time(self) -> float:
        return self._origin + self._scan_index * self._scan_period

    def _scan(self, now: float, readings: list[SensorReading], presses: list[ButtonPress]) -> None:
        active: set[Hashable] = set()
        for block in self._inputs:
            block.scan(active)
        flipped = self._debouncer.update(active)
        if flipped or self._debouncer.pending or self._pressed:
            self._active_at = now
        if not flipped:
            return
        state = self._debouncer.state
        if any(key in _POINT_SET for key in flipped):
            self._sensed = frozenset(k for k in state if k in _POINT_SET)
            readings.append(SensorReading(self._sensed, now))
            logger.debug("sensors at %.3f: %s", now, sorted(self._sensed))
        buttons = [k[1] for k in flipped if isinstance(k, tuple)]
        if buttons:
            self._pressed = frozenset(k[1] for k in state if isinstance(k, tuple))
            for button in buttons:
                if button in self._pressed:
                    presses.append(ButtonPress(button, now))
                    logger.debug("button %s pressed at %.3f", button.value, now)

    def _outputs_changed(self, signals: Mapping[Hashable, Signal]) -> None:
        # The clock's time, not the last poll's: a changed LED's blink starts lit now.
        now = self._clock()
        self.now = now
        if self._lights.show(signals, now):
            for output in self._outputs:
                output.update(now, self._lights)

    def _close(self) -> None:
        with self._lock:
            for output in self._outputs:
                try:
                    output.off()
                except Exception:
                    logger.exception("switching %r off failed", output)
            self._close_blocks()

    def _close_blocks(self) -> None:
        while self._blocks:
            self._blocks.pop().close()


def open_board(
    profile: Profile | str | Path,
    *,
    pin_factory: Any = None,
    clock: Callable[[], float] = time.monotonic,
) -> GpioBoard:
    """Build the board a profile describes (a :class:`Profile`, a built-in name or a path).

    ``pin_factory`` is passed to every gpiozero device (``None``: gpiozero's default, lgpio on a
    Pi 5). ``clock`` stamps the LED levels shown between polls. Raises
    :class:`~hardware.exc.ProfileError` for a bad profile and gpiozero's errors for pins in use.

    >>> from gpiozero.pins.mock import MockFactory
    >>> with open_board("shift-register", pin_factory=MockFactory(), clock=lambda: 0.0) as board:
    ...     board.poll(0.0)
    0.01
    """
    if not isinstance(profile, Profile):
        profile = load_profile(profile)
    return GpioBoard(profile, pin_factory=pin_factory, clock=clock)
