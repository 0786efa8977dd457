"""The gpiozero blocks of the built-in wire kinds (:mod:`hardware.kinds`), each owning its devices.

- :class:`InputMatrix`: row lines driven low one at a time, column lines read with pull-ups; one
  diode per switch, so any set of closed switches is read back exactly (no ghosting).
- :class:`DirectInputs`: one pin per input, pulled up, active low.
- :class:`OutputMatrix`: LED rows selected (high) one at a time, columns sink the lit LEDs.
- :class:`ShiftRegisterChain`: 74HC595 registers in a chain, bit-banged on data/clock/latch.
- :class:`DirectOutputs`: one pin per LED.
- :class:`Debouncer`: a change counts once it has been read on N consecutive scans.

The input blocks are :class:`~hardware.kinds.InputBlock` s and the LED blocks
:class:`~hardware.kinds.OutputBlock` s. Nothing here has a thread or a timer:
:class:`hardware.board.GpioBoard` calls them from ``poll``. Every block's constructor closes what
it opened if it fails, and ``close()`` may be called twice.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from gpiozero import LED, InputDevice, OutputDevice

from morris_device import BlinkClock

logger = logging.getLogger(__name__)


class _Block:
    """Owns gpiozero devices; closes them (in reverse order) once."""

    def __init__(self) -> None:
        self._devices: list[Any] = []

    def _own(self, device: Any) -> Any:
        self._devices.append(device)
        return device

    def _opened(self, build: Any) -> None:
        """Run ``build()``; if it fails, close what it opened and re-raise."""
        try:
            build()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Release every pin of the block. Safe to call twice."""
        while self._devices:
            device = self._devices.pop()
            try:
                device.close()
            except Exception:  # a failing close must not keep the other pins reserved
                logger.exception("closing %r failed", device)


class _Latched(_Block):
    """LEDs that hold the levels written to them: written when a signal changes and at each
    blink edge, never refreshed."""

    def write(self, levels: Mapping[Hashable, bool]) -> object:
        raise NotImplementedError

    def update(self, now: float, lights: BlinkClock[Hashable]) -> None:
        """Write the levels of ``now`` (a signal changed)."""
        self.write(lights.levels(now))

    def refresh(self, now: float, lights: BlinkClock[Hashable]) -> float:
        """Write the levels of ``now`` while an LED blinks; return its next blink edge."""
        if not lights.blinking:
            return math.inf  # steady lights are already on the pins
        self.write(lights.levels(now))
        return lights.next_edge(now)


class Debouncer:
    """Report a key's change only after it has been read the same on ``scans`` consecutive scans.

    >>> d = Debouncer(2)
    >>> d.update({"a7"}), d.update({"a7"}), sorted(d.state)
    ((), ('a7',), ['a7'])
    """

    def __init__(self, scans: int) -> None:
        if scans < 1:
            raise ValueError(f"debounce needs at least 1 scan, not {scans}")
        self.scans = scans
        #: The debounced set of active keys.
        self.state: set[Hashable] = set()
        self._counts: dict[Hashable, int] = {}

    @property
    def pending(self) -> bool:
        """Whether a change has been read but not yet confirmed."""
        return bool(self._counts)

    def update(self, raw: set[Hashable] | frozenset[Hashable]) -> tuple[Hashable, ...]:
        """Feed one scan (the keys read active); return the keys whose debounced state flipped."""
        diff = raw ^ self.state
        if not diff and not self._counts:
            return ()
        counts: dict[Hashable, int] = {}
        flipped: list[Hashable] = []
        for key in diff:
            n = self._counts.get(key, 0) + 1
            if n >= self.scans:
                flipped.append(key)
            else:
                counts[key] = n
        self._counts = counts
        if flipped:
            self.state.symmetric_difference_update(flipped)
        return tuple(flipped)


class InputMatrix(_Block):
    """Rows driven low in turn; a column reads low where a switch (and its diode) closes to it.

    ``keys[(row, column)]`` names what sits on each crossing (crossings without a key are ignored).
    """

    def __init__(
        self,
        rows: Sequence[int],
        columns: Sequence[int],
        keys: Mapping[tuple[int, int], Hashable],
        *,
        pin_factory: Any = None,
    ) -> None:
        super().__init__()
        self._rows: list[Any] = []
        self._columns: list[Any] = []
        # Per row, the (column device, key) pairs worth reading.
        self._reads: list[list[tuple[Any, Hashable]]] = []

        def build() -> None:
            for pin in rows:
                # active_high=False: "on" pulls the row low; idle rows stay high (diodes block).
                self._rows.append(
                    self._own(OutputDevice(pin, active_high=False, pin_factory=pin_factory))
                )
            for pin in columns:
                self._columns.append(
                    self._own(InputDevice(pin, pull_up=True, pin_factory=pin_factory))
                )

        self._opened(build)
        for r in range(len(rows)):
            # The columns' pins are read directly: a scan reads them hundreds of times a second,
            # and the device layers above a pin only turn "low" into "active" (pulled up here).
            self._reads.append(
                [
                    (self._columns[c].pin, keys[(r, c)])
                    for c in range(len(columns))
                    if (r, c) in keys
                ]
            )

    def scan(self, active: set[Hashable]) -> None:
        """Drive each row in turn and add the keys read active to ``active``."""
        for row, reads in zip(self._rows, self._reads, strict=True):
            row.on()
            for pin, key in reads:
                if not pin.state:
                    active.add(key)
            row.off()


class DirectInputs(_Block):
    """One input per pin, pulled up, active when the switch pulls it to ground."""

    def __init__(self, pins: Mapping[Hashable, int], *, pin_factory: Any = None) -> None:
        super().__init__()
        self._inputs: list[tuple[Any, Hashable]] = []

        def build() -> None:
            for key, pin in pins.items():
                device = self._own(InputDevice(pin, pull_up=True, pin_factory=pin_factory))
                self._inputs.append((device, key))

        self._opened(build)

    def scan(self, active: set[Hashable]) -> None:
        """Add the keys read active to ``active``."""
        for device, key in self._inputs:
            if device.is_active:
                active.add(key)


class DirectOutputs(_Latched):
    """One LED per pin (anode to the pin through its resistor)."""

    def __init__(self, pins: Mapping[Hashable, int], *, pin_factory: Any = None) -> None:
        super().__init__()
        self._leds: dict[Hashable, Any] = {}
        self._levels: dict[Hashable, bool] = {}

        def build() -> None:
            for key, pin in pins.items():
                self._leds[key] = self._own(LED(pin, pin_factory=pin_factory))
                self._levels[key] = False

        self._opened(build)

    def write(self, levels: Mapping[Hashable, bool]) -> None:
        """Set each LED of the block to its level in ``levels`` (dark if not named); pins whose
        level does not change are not touched."""
        for key in self._leds:
            level = levels.get(key, False)
            if self._levels.get(key) != level:
                self._leds[key].value = level
                self._levels[key] = level

    def off(self) -> None:
        """Switch every LED off."""
        self.write(dict.fromkeys(self._leds, False))


class OutputMatrix(_Block):
    """LED rows selected (driven high) one at a time; a column driven low lights its LED.

    ``keys[(row, column)]`` names the LED on each crossing. :meth:`refresh` shows one row after
    the other, ``refresh_hz`` full frames per second on a grid of times from ``start``, fast
    enough that the eye sees them all.
    """

    def __init__(
        self,
        rows: Sequence[int],
        columns: Sequence[int],
        keys: Mapping[tuple[int, int], Hashable],
        *,
        refresh_hz: float = 100.0,
        start: float = 0.0,
        pin_factory: Any = None,
    ) -> None:
        super().__init__()
        self._origin = start
        self._slot_period = 1.0 / (refresh_hz * len(rows))
        self._slot_index = 0
        self._rows: list[Any] = []
        self._columns: list[Any] = []
        self._row_keys: list[list[Hashable | None]] = [
            [keys.get((r, c)) for c in range(len(columns))] for r in range(len(rows))
        ]
        self._selected: int | None = None
        self._column_levels = [False] * len(columns)

        def build() -> None:
            for pin in rows:
                self._rows.append(self._own(OutputDevice(pin, pin_factory=pin_factory)))
            for pin in columns:
                self._columns.append(
                    self._own(OutputDevice(pin, active_high=False, pin_factory=pin_factory))
                )

        self._opened(build)

    @property
    def row_count(self) -> int:
        """The number of row lines (the multiplex ratio)."""
        return len(self._rows)

    def show_row(self, row: int, level: Callable[[Hashable], bool]) -> None:
        """Light row ``row``, each LED lit if ``level(key)`` is true."""
        if self._selected is not None and self._selected != row:
            # Deselect before changing the columns, so no LED of the old row flashes.
            self._rows[self._selected].off()
            self._selected = None
        for c, key in enumerate(self._row_keys[row]):
            lit = key is not None and level(key)
            if self._column_levels[c] != lit:
                self._columns[c].value = lit
                self._column_levels[c] = lit
        if self._selected is None:
            self._rows[row].on()
            self._selected = row

    def update(self, now: float, lights: BlinkClock[Hashable]) -> None:
        """Nothing at once: a changed LED lights at its row's next refresh, within one frame."""

    def refresh(self, now: float, lights: BlinkClock[Hashable]) -> float:
        """Show the row whose turn it is, if its time has come; return the next row's time."""
        slot_time = self._origin + self._slot_index * self._slot_period
        if now >= slot_time:
            rows = self.row_count
            self.show_row(self._slot_index % rows, lambda key: lights.level(key, now))
            self._slot_index += 1
            if self._origin + self._slot_index * self._slot_period <= now:
                behind = math.floor((now - self._origin) / self._slot_period) + 1
                # keep the row order when skipping ahead
                self._slot_index += (behind - self._slot_index) // rows * rows
                if self._origin + self._slot_index * self._slot_period <= now:
                    self._slot_index += rows
        return self._origin + self._slot_index * self._slot_period

    def off(self) -> None:
        """Deselect every row (all LEDs dark)."""
        for row in self._rows:
            row.off()
        self._selected = None


class ShiftRegisterChain(_Latched):
    """A chain of 74HC595: bits shift in on clock rising edges, appear on the latch rising edge.

    Output ``n`` is pin ``Q(n % 8)`` of register ``n // 8``; register 0 takes the Pi's data line
    and passes its ``Q7'`` to register 1. The last output is shifted in first.
    """

    def __init__(
        self,
        data: int,
        clock: int,
        latch: int,
        registers: int,
        keys: Mapping[int, Hashable],
        *,
        pin_factory: Any = None,
    ) -> None:
        super().__init__()
        self.length = registers * 8
        self._keys: list[Hashable | None] = [keys.get(i) for i in range(self.length)]
        self._latched: list[bool] | None = None

        def build() -> None:
            self._data = self._own(OutputDevice(data, pin_factory=pin_factory))
            self._clock = self._own(OutputDevice(clock, pin_factory=pin_factory))
            self._latch = self._own(OutputDevice(latch, pin_factory=pin_factory))

        self._opened(build)

    def write(self, levels: Mapping[Hashable, bool]) -> bool:
        """Shift out and latch the outputs if they changed; return whether pins were driven."""
        bits = [key is not None and levels.get(key, False) for key in self._keys]
        if bits == self._latched:
            return False
        data, clock = self._data, self._clock
        current: bool | None = None
        for bit in reversed(bits):
            if bit != current:
                data.value = bit
                current = bit
            clock.on()
            clock.off()
        self._latch.on()
        self._latch.off()
        self._latched = bits
        return True

    def off(self) -> None:
        """Latch all outputs low."""
        self.write({})
