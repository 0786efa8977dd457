"""A board on GPIO pins, built from a wiring profile: :class:`GpioBoard` and :func:`open_board`.

Time reaches the board only through :meth:`GpioBoard.poll`: each call does what is due at ``now``
(a full input scan with debouncing, one row of the LED matrix, a blink edge on direct or 74HC595
LEDs) and returns when it next needs to be called. Blinking follows a :class:`~device.BlinkClock`:
an LED whose signal changes starts its blink lit at that moment (a new signal is visible at
once), the others keep their phase, and a run in virtual time is deterministic. On a real board
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

from hardware.profiles import ChainOutput, Crossing, Matrix, Profile, load_profile
from hardware.wiring import (
    Debouncer,
    DirectInputs,
    DirectOutputs,
    InputMatrix,
    OutputMatrix,
    ShiftRegisterChain,
)
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


def _crossings(matrix: Matrix, wires: Mapping[Hashable, Any]) -> dict[tuple[int, int], Hashable]:
    rows = list(matrix.rows)
    columns = list(matrix.columns)
    return {
        (rows.index(w.row), columns.index(w.column)): key
        for key, w in wires.items()
        if isinstance(w, Crossing)
    }


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
        self._blocks: list[Any] = []
        self._input_matrix: InputMatrix | None = None
        self._direct_inputs: DirectInputs | None = None
        self._output_matrix: OutputMatrix | None = None
        self._chain: ShiftRegisterChain | None = None
        self._direct_outputs: DirectOutputs | None = None
        try:
            self._build(pin_factory)
        except BaseException:
            self._close_blocks()
            raise
        self._debouncer = Debouncer(profile.debounce_scans)
        self._scan_period = 1.0 / profile.scan_hz
        # Scan-grid steps between two scans of a quiet board (1: it never idles).
        self._idle_steps = max(1, round(profile.scan_hz / profile.idle_scan_hz))
        rows = self._output_matrix.row_count if self._output_matrix else 1
        self._slot_period = 1.0 / (profile.refresh_hz * rows)
        self._lights: BlinkClock[Hashable] = BlinkClock()
        self._dirty = True
        self._occupied: frozenset[str] = frozenset()
        self._pressed: frozenset[ButtonName] = frozenset()
        start = clock()
        #: The time of the poll in progress, or of the last :meth:`show` (what the LEDs show now).
        self.now = start
        #: The deadline the last :meth:`poll` returned.
        self.next_poll = start
        self._origin = start
        self._scan_index = 0
        self._active_at = start  # the last scan that read a change, or held one pending
        self._slot_index = 0
        self._apply_outputs(start)

    def _build(self, pin_factory: Any) -> None:
        p = self.profile
        inputs: dict[Hashable, Any] = {k: w for k, w in p.sensors.items()}
        inputs.update({("button", b): w for b, w in p.buttons.items()})
        outputs: dict[Hashable, Any] = {k: w for k, w in p.leds.items()}
        outputs.update({("status", s): w for s, w in p.status.items()})
        if p.input_matrix is not None:
            m = p.input_matrix
            self._input_matrix = InputMatrix(
                list(m.rows.values()), list(m.columns.values()), _crossings(m, inputs),
                pin_factory=pin_factory,
            )  # fmt: skip
            self._blocks.append(self._input_matrix)
        direct_in = {k: w for k, w in inputs.items() if isinstance(w, int)}
        if direct_in:
            self._direct_inputs = DirectInputs(direct_in, pin_factory=pin_factory)
            self._blocks.append(self._direct_inputs)
        if p.output_matrix is not None:
            m = p.output_matrix
            self._output_matrix = OutputMatrix(
                list(m.rows.values()), list(m.columns.values()), _crossings(m, outputs),
                pin_factory=pin_factory,
            )  # fmt: skip
            self._blocks.append(self._output_matrix)
        if p.chain is not None:
            c = p.chain
            keys = {w.index: k for k, w in outputs.items() if isinstance(w, ChainOutput)}
            self._chain = ShiftRegisterChain(
                c.data, c.clock, c.latch, c.registers, keys, pin_factory=pin_factory
            )
            self._blocks.append(self._chain)
        direct_out = {k: w for k, w in outputs.items() if isinstance(w, int)}
        if direct_out:
            self._direct_outputs = DirectOutputs(direct_out, pin_factory=pin_factory)
            self._blocks.append(self._direct_outputs)

    # -- the BoardDevice interface ---------------------------------------------------------

    def sensors(self) -> frozenset[str]:
        """The points where a piece is sensed now (debounced)."""
        return self._occupied

    def pressed(self) -> frozenset[ButtonName]:
        """The buttons held down now (debounced)."""
        return self._pressed

    def show(self, lights: Mapping[str, Signal]) -> None:
        """Show a signal on each point LED; points not named are switched off.

        Raises :class:`~device.UnknownPoint` for a name that is not a point.
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

        Raises :class:`~device.BoardClosed` once the board is closed.
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
            if self._output_matrix is not None:
                slot_time = self._origin + self._slot_index * self._slot_period
                if now >= slot_time:
                    rows = self._output_matrix.row_count
                    lights = self._lights
                    self._output_matrix.show_row(
                        self._slot_index % rows, lambda key: lights.level(key, now)
                    )
                    self._slot_index += 1
                    if self._origin + self._slot_index * self._slot_period <= now:
                        behind = math.floor((now - self._origin) / self._slot_period) + 1
                        # keep the row order when skipping ahead
                        self._slot_index += (behind - self._slot_index) // rows * rows
                        if self._origin + self._slot_index * self._slot_period <= now:
                            self._slot_index += rows
                deadline = min(deadline, self._origin + self._slot_index * self._slot_period)
            self._apply_outputs(now)
            if self._lights.blinking and (
                self._chain is not None or self._direct_outputs is not None
            ):
                deadline = min(deadline, self._lights.next_edge(now))
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
        if self._input_matrix is not None:
            self._input_matrix.scan(active)
        if self._direct_inputs is not None:
            self._direct_inputs.scan(active)
        flipped = self._debouncer.update(active)
        if flipped or self._debouncer.pending or self._pressed:
            self._active_at = now
        if not flipped:
            return
        state = self._debouncer.state
        if any(key in _POINT_SET for key in flipped):
            self._occupied = frozenset(k for k in state if k in _POINT_SET)
            readings.append(SensorReading(self._occupied, now))
            logger.debug("sensors at %.3f: %s", now, sorted(self._occupied))
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
            self._dirty = True
            self._apply_outputs(now)

    def _apply_outputs(self, now: float) -> None:
        """Drive the direct and 74HC595 LEDs (the LED matrix is driven row by row in poll)."""
        if self._chain is None and self._direct_outputs is None:
            return
        if not self._lights.blinking and not self._dirty:
            return  # steady lights are already on the pins
        self._dirty = False
        levels = self._lights.levels(now)
        if self._chain is not None:
            self._chain.write(levels)
        if self._direct_outputs is not None:
            self._direct_outputs.write({k: levels.get(k, False) for k in self._direct_outputs.keys})

    def _close(self) -> None:
        with self._lock:
            for block in self._blocks:
                off = getattr(block, "off", None)
                try:
                    if off is not None:
                        off()
                except Exception:
                    logger.exception("switching %r off failed", block)
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
