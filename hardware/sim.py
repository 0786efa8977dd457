"""A simulated board: the real wiring code on gpiozero's MockFactory, with the board emulated.

:class:`SimulatedBoard` builds a :class:`~hardware.board.GpioBoard` on a
:class:`~gpiozero.pins.mock.MockFactory` whose pins are :class:`EmulatedPin`, and a
:class:`BoardEmulator` standing for the wood, the magnets and the electronics:

- a matrix sensor closes only its own crossing; a column reads low only while a row with a closed
  switch is driven low, and the diodes stop current flowing back (no ghosting; pass
  ``diodes=False`` to see the ghosts a diode-less matrix reads);
- LEDs are read back from the pins: direct LEDs from their pin, matrix LEDs while their row is
  selected, 74HC595 outputs from an emulated chain (bits shift in on clock rising edges and appear
  on the latch rising edge). :meth:`SimulatedBoard.led_signal` decodes the signal from those
  recorded levels, never from what was commanded;
- noise: switch bounce, the flicker of a weak magnet, a sensor stuck on or dead, a piece slid
  across its neighbours, a dead or stuck LED; and a miswired build (:func:`miswire`).

Time is virtual. :meth:`SimulatedBoard.advance` polls the device at every deadline up to a time.
Decoding needs :data:`DECODE_WINDOW` (one slow blink period, 1 s) of polls after the last change
of an LED's signal: until then a blinking LED may read as its current level.

>>> board = SimulatedBoard()
>>> board.place("d6")
>>> board.advance(0.1)
>>> sorted(board.device.sensors())
['d6']
>>> board.device.show({"a7": Signal.SLOW, "g7": Signal.ON})
>>> board.advance(2.0)
>>> board.led_signal("a7"), board.led_signal("g7"), board.led_signal("d7")
(<Signal.SLOW: 'slow'>, <Signal.ON: 'on'>, <Signal.OFF: 'off'>)
>>> board.close()
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from pathlib import Path
from typing import Any, Self

from gpiozero.pins.mock import MockFactory, MockPin

from device import (
    BLINK_TIMING,
    POINT_NAMES,
    ButtonName,
    Signal,
    StatusLight,
    VirtualClock,
    check_point,
)
from hardware.board import GpioBoard
from hardware.profiles import (
    DEFAULT_PROFILE,
    ChainOutput,
    Crossing,
    Profile,
    load_profile,
)

__all__ = [
    "DECODE_WINDOW",
    "BoardEmulator",
    "EmulatedPin",
    "SimulatedBoard",
    "miswire",
]

#: How far back the LED decoder looks: one slow blink period. A signal is decoded right once it
#: has been shown for this long (plus one LED-matrix frame on a multiplexed build).
DECODE_WINDOW: float = BLINK_TIMING[Signal.SLOW][0]
#: Blink edges closer than this are a fast blink (fast: 0.125 s apart, slow: 0.5 s).
_FAST_GAP = 0.3
#: A matrix LED whose row has not been selected for this long is dark (the refresh stopped).
_STALE = 0.05
#: How much LED history is kept.
_KEEP = 2.0 * DECODE_WINDOW


class EmulatedPin(MockPin):  # type: ignore[misc]  # gpiozero has no type hints
    """A mock pin wired into the emulated board.

    An input pin with a :attr:`reader` reads the level the emulated circuit puts on it; an output
    pin reports each level change to its :attr:`listener`. Unlike :class:`MockPin` it keeps no
    history of states (a game in virtual time toggles pins millions of times).
    """

    def __init__(self, factory: Any, info: Any) -> None:
        self.reader: Callable[[], bool] | None = None
        self.listener: Callable[[bool], None] | None = None
        super().__init__(factory, info)

    def _get_state(self) -> bool:
        if self.reader is not None and self._function == "input":
            return self.reader()
        return bool(self._state)

    def _change_state(self, value: bool) -> bool:
        if bool(self._state) == value:  # type: ignore[has-type]
            return False
        self._state = value
        if self.listener is not None and self._function == "output":
            self.listener(value)
        return True


def miswire(
    profile: Profile,
    *,
    sensors: Iterable[tuple[str, str]] = (),
    leds: Iterable[tuple[str, str]] = (),
) -> Profile:
    """A profile describing a board built with the wires of these point pairs swapped.

    Pass it as ``wiring=`` to :class:`SimulatedBoard` while the device keeps the correct profile.
    """
    sensor_wires = dict(profile.sensors)
    led_wires = dict(profile.leds)
    for a, b in sensors:
        sensor_wires[a], sensor_wires[b] = sensor_wires[b], sensor_wires[a]
    for a, b in leds:
        led_wires[a], led_wires[b] = led_wires[b], led_wires[a]
    return profile.replace(sensors=sensor_wires, leds=led_wires, name=f"{profile.name} (miswired)")


class BoardEmulator:
    """The physical board of a profile: magnets, switches, diodes, LEDs and 74HC595 chips.

    Inputs are keyed like :class:`~hardware.board.GpioBoard` keys them: a point name, or
    ``("button", ButtonName)``; outputs by point name or ``("status", StatusLight)``.
    """

    def __init__(
        self,
        wiring: Profile,
        factory: MockFactory,
        *,
        time: Callable[[], float],
        rng: random.Random,
        diodes: bool = True,
    ) -> None:
        self.wiring = wiring
        self.time = time
        self.rng = rng
        self.diodes = diodes
        #: Per input, the magnet (or finger) timeline: sorted (time, present) entries.
        self._timeline: dict[Hashable, list[tuple[float, bool]]] = {}
        self._forced: dict[Hashable, bool] = {}
        self._flicker: dict[Hashable, float] = {}
        self._bounce: dict[Hashable | None, float] = {}
        self._led_fault: dict[Hashable, bool] = {}
        #: Inputs with a fault or noise (they skip the fast path of :meth:`closed`).
        self._special: set[Hashable] = set()
        #: Per output, the recorded LED levels: (time, lit) at each change.
        self.history: dict[Hashable, list[tuple[float, bool]]] = {}
        self._pins: list[EmulatedPin] = []
        self._matrix_row_of: dict[Hashable, int] = {}
        self._wire_inputs(factory)
        self._wire_outputs(factory)

    # -- wiring ----------------------------------------------------------------------------

    def _pin(self, factory: MockFactory, number: int) -> EmulatedPin:
        pin = factory.pin(number, pin_class=EmulatedPin)
        self._pins.append(pin)
        return pin  # type: ignore[no-any-return]

    def _wire_inputs(self, factory: MockFactory) -> None:
        w = self.wiring
        inputs: dict[Hashable, Any] = {k: v for k, v in w.sensors.items()}
        inputs.update({("button", b): v for b, v in w.buttons.items()})
        for key, wire in inputs.items():
            if isinstance(wire, int):
                pin = self._pin(factory, wire)
                pin.reader = self._direct_reader(key)
        if w.input_matrix is None:
            return
        rows = [self._pin(factory, p) for p in w.input_matrix.rows.values()]
        row_names = list(w.input_matrix.rows)
        col_names = list(w.input_matrix.columns)
        self._in_rows = rows
        self._crossing: dict[tuple[int, int], Hashable] = {
            (row_names.index(v.row), col_names.index(v.column)): k
            for k, v in inputs.items()
            if isinstance(v, Crossing)
        }
        for c, number in enumerate(w.input_matrix.columns.values()):
            pin = self._pin(factory, number)
            pin.reader = self._column_reader(c)

    def _direct_reader(self, key: Hashable) -> Callable[[], bool]:
        # A switch to ground against the pull-up: low while closed.
        return lambda: not self.closed(key)

    def _column_reader(self, column: int) -> Callable[[], bool]:
        def read() -> bool:
            if not self.diodes:
                return not self._ghost_low(column)
            for r, row in enumerate(self._in_rows):
                if row._function == "output" and not row._state:
                    key = self._crossing.get((r, column))
                    if key is not None and self.closed(key):
                        return False  # pulled low through the switch and its diode
            return True  # the pull-up

        return read

    def _ghost_low(self, column: int) -> bool:
        """Without diodes, current flows both ways through closed switches: follow them."""
        closed = [rc for rc, key in self._crossing.items() if self.closed(key)]
        seen_cols, seen_rows = {column}, set()
        frontier = [("c", column)]
        while frontier:
            kind, n = frontier.pop()
            for r, c in closed:
                if kind == "c" and c == n and r not in seen_rows:
                    row = self._in_rows[r]
                    if row._function == "output" and not row._state:
                        return True
                    seen_rows.add(r)
                    frontier.append(("r", r))
                elif kind == "r" and r == n and c not in seen_cols:
                    seen_cols.add(c)
                    frontier.append(("c", c))
        return False

    def _wire_outputs(self, factory: MockFactory) -> None:
        w = self.wiring
        outputs: dict[Hashable, Any] = {k: v for k, v in w.leds.items()}
        outputs.update({("status", s): v for s, v in w.status.items()})
        for key in outputs:
            self.history[key] = [(float("-inf"), False)]
        for key, wire in outputs.items():
            if isinstance(wire, int):
                pin = self._pin(factory, wire)
                pin.listener = self._direct_listener(key)
        if w.output_matrix is not None:
            m = w.output_matrix
            row_names, col_names = list(m.rows), list(m.columns)
            self._out_rows = [self._pin(factory, p) for p in m.rows.values()]
            self._row_off_since: list[float | None] = [None] * len(self._out_rows)
            self._out_cols = [self._pin(factory, p) for p in m.columns.values()]
            self._led_at: dict[tuple[int, int], Hashable] = {
                (row_names.index(v.row), col_names.index(v.column)): k
                for k, v in outputs.items()
                if isinstance(v, Crossing)
            }
            for r, pin in enumerate(self._out_rows):
                pin.listener = self._row_listener(r)
            self._matrix_row_of = {key: rc[0] for rc, key in self._led_at.items()}
            for c, pin in enumerate(self._out_cols):
                pin.listener = self._column_listener(c)
        if w.chain is not None:
            chain = w.chain
            self._chain_keys: dict[int, Hashable] = {
                v.index: k for k, v in outputs.items() if isinstance(v, ChainOutput)
            }
            self._shift = [False] * (chain.registers * 8)
            self._chain_out = [False] * (chain.registers * 8)
            self._data = self._pin(factory, chain.data)
            self._pin(factory, chain.clock).listener = self._on_clock
            self._pin(factory, chain.latch).listener = self._on_latch

    def _direct_listener(self, key: Hashable) -> Callable[[bool], None]:
        return lambda level: self.record(key, level)

    def _row_listener(self, row: int) -> Callable[[bool], None]:
        def changed(level: bool) -> None:
            self._row_off_since[row] = None if level else self.time()
            if level:  # selected: its LEDs show what the columns sink
                for c, col in enumerate(self._out_cols):
                    key = self._led_at.get((row, c))
                    if key is not None:
                        self.record(key, not col._state)

        return changed

    def _column_listener(self, column: int) -> Callable[[bool], None]:
        def changed(level: bool) -> None:
            for r, row in enumerate(self._out_rows):
                key = self._led_at.get((r, column))
                if row._state and key is not None:
                    self.record(key, not level)

        return changed

    def _on_clock(self, level: bool) -> None:
        if level:  # rising edge: every bit moves one place down the chain
            self._shift.insert(0, bool(self._data._state))
            self._shift.pop()

    def _on_latch(self, level: bool) -> None:
        if level:  # rising edge: the storage registers take the shift registers
            for index, bit in enumerate(self._shift):
                if self._chain_out[index] != bit:
                    self._chain_out[index] = bit
                    key = self._chain_keys.get(index)
                    if key is not None:
                        self.record(key, bit)

    def close(self) -> None:
        """Detach the emulation from the pins."""
        for pin in self._pins:
            pin.reader = None
            pin.listener = None
        self._pins.clear()

    # -- the sensors -----------------------------------------------------------------------

    def set_present(self, key: Hashable, present: bool, at: float) -> None:
        """From time ``at`` on, a magnet is (or is not) over the input ``key``."""
        timeline = self._timeline.setdefault(key, [(float("-inf"), False)])
        bisect.insort(timeline, (at, present))

    def is_present(self, key: Hashable, at: float) -> bool:
        """Whether a magnet is over ``key`` at ``at`` (ignoring faults and noise)."""
        return self._entry(key, at)[1]

    def _entry(self, key: Hashable, at: float) -> tuple[float, bool]:
        timeline = self._timeline.get(key)
        if timeline is None:
            return (float("-inf"), False)
        while len(timeline) > 1 and timeline[1][0] <= at:
            del timeline[0]  # the past before the last change is never read again
        return timeline[0]

    def closed(self, key: Hashable) -> bool:
        """Whether the switch of ``key`` conducts now (faults and noise included)."""
        if key not in self._special and None not in self._bounce:
            # The common case, read millions of times in a game: no noise, no pending change.
            timeline = self._timeline.get(key)
            if timeline is None:
                return False
            if len(timeline) == 1:
                return timeline[0][1]
        forced = self._forced.get(key)
        if forced is not None:
            return forced
        now = self.time()
        since, present = self._entry(key, now)
        bounce = self._bounce.get(key, self._bounce.get(None, 0.0))
        if bounce and now - since < bounce:
            return self.rng.random() < 0.5
        dropout = self._flicker.get(key)
        if present and dropout and self.rng.random() < dropout:
            return False
        return present

    def force(self, key: Hashable, closed: bool | None) -> None:
        """Stick a switch closed (True), kill it (False) or repair it (None)."""
        if closed is None:
            self._forced.pop(key, None)
        else:
            self._forced[key] = closed
        self._update_special(key)

    def set_flicker(self, key: Hashable, dropout: float) -> None:
        """While a magnet is present, each read drops out with probability ``dropout``."""
        if dropout:
            self._flicker[key] = dropout
        else:
            self._flicker.pop(key, None)
        self._update_special(key)

    def set_bounce(self, duration: float, key: Hashable | None = None) -> None:
        """After each change, reads are random for ``duration`` s (``key=None``: every input)."""
        if duration:
            self._bounce[key] = duration
        else:
            self._bounce.pop(key, None)
        if key is not None:
            self._update_special(key)

    def _update_special(self, key: Hashable) -> None:
        if key in self._forced or key in self._flicker or key in self._bounce:
            self._special.add(key)
        else:
            self._special.discard(key)

    # -- the LEDs --------------------------------------------------------------------------

    def record(self, key: Hashable, level: bool) -> None:
        """Record that the LED ``key`` is lit (or dark) from now on."""
        level = self._led_fault.get(key, level)
        history = self.history[key]
        if history[-1][1] == level:
            return
        now = self.time()
        if history[-1][0] == now and len(history) > 1:
            history.pop()  # a zero-length glitch inside one poll is no edge
            if history[-1][1] == level:
                return
        history.append((now, level))
        while len(history) > 2 and history[1][0] < now - _KEEP:
            del history[0]

    def set_led_fault(self, key: Hashable, lit: bool | None) -> None:
        """Make an LED dead (False) or stuck on (True), or repair it (None)."""
        if lit is None:
            self._led_fault.pop(key, None)
        else:
            self._led_fault[key] = lit
            history = self.history[key]
            if history[-1][1] != lit:
                history.append((self.time(), lit))

    def _effective(self, key: Hashable, now: float) -> list[tuple[float, bool]]:
        history = self.history[key]
        row = self._matrix_row_of.get(key)
        if row is not None and history[-1][1]:
            off_since = self._row_off_since[row]
            if off_since is not None and now - off_since > _STALE:
                return [*history, (off_since, False)]  # no longer refreshed: dark
        return history

    def level(self, key: Hashable, now: float) -> bool:
        """Whether the LED ``key`` is lit at ``now`` (as far as an eye can tell)."""
        if key not in self.history:
            return False
        return self._effective(key, now)[-1][1]

    def signal(self, key: Hashable, now: float) -> Signal:
        """Decode what the LED ``key`` showed over the last :data:`DECODE_WINDOW` seconds."""
        if key not in self.history:
            return Signal.OFF  # not wired: a missing LED is dark
        history = self._effective(key, now)
        start = now - DECODE_WINDOW
        edges = [t for t, _ in history if start < t <= now]
        level = history[-1][1]
        if len(edges) < 2:
            return Signal.ON if level else Signal.OFF
        # Fast blinking shows as a run of short gaps; one short gap alone is a change of signal
        # (say from steady on to a slow blink), not a fast blink.
        short = [b - a < _FAST_GAP for a, b in itertools.pairwise(edges)]
        run = longest = 0
        for is_short in short:
            run = run + 1 if is_short else 0
            longest = max(longest, run)
        return Signal.FAST if longest >= 2 else Signal.SLOW


class SimulatedBoard:
    """The real :class:`~hardware.board.GpioBoard` of a profile on an emulated board.

    ``profile`` is what the software believes; ``wiring`` (default: the same) is how the
    emulated board is really built, so a miswired board can be simulated (:func:`miswire`).
    ``clock`` is the virtual clock (a :class:`VirtualClock` is made if none is given; a
    VirtualClock is moved by :meth:`advance`). ``seed`` seeds the noise.
    """

    def __init__(
        self,
        profile: Profile | str | Path = DEFAULT_PROFILE,
        *,
        clock: Callable[[], float] | None = None,
        wiring: Profile | None = None,
        diodes: bool = True,
        seed: int = 0,
    ) -> None:
        self.profile = profile if isinstance(profile, Profile) else load_profile(profile)
        self.clock: Callable[[], float] = clock if clock is not None else VirtualClock()
        self.factory = MockFactory(pin_class=EmulatedPin)
        self.emulator = BoardEmulator(
            wiring or self.profile,
            self.factory,
            time=self.clock,
            rng=random.Random(seed),
            diodes=diodes,
        )
        try:
            self.device = GpioBoard(self.profile, pin_factory=self.factory, clock=self.clock)
        except BaseException:
            self.emulator.close()
            raise
        # From now on the emulated circuit lives at the device's time (the poll in progress).
        self.emulator.time = lambda: self.device.now

    @property
    def now(self) -> float:
        """The virtual time of the last poll (or of the last change of the LEDs)."""
        return self.device.now

    # -- time ------------------------------------------------------------------------------

    def poll(self, now: float) -> float:
        """Poll the device at ``now`` (moving a :class:`VirtualClock`); return the deadline."""
        if isinstance(self.clock, VirtualClock):
            self.clock.set(now)
        return self.device.poll(now)

    def advance(self, until: float) -> None:
        """Poll the device at every deadline up to and including ``until``."""
        device = self.device
        clock = self.clock if isinstance(self.clock, VirtualClock) else None
        while device.next_poll <= until:
            t = device.next_poll
            if clock is not None:
                clock.set(t)
            device.poll(t)
        if clock is not None:
            clock.set(until)

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` of virtual time pass (polling all the way)."""
        self.advance(max(self.clock(), self.now) + seconds)

    # -- the person at the board -----------------------------------------------------------

    def _at(self) -> float:
        return max(self.clock(), self.now)

    def place(self, name: str) -> None:
        """Put a piece (a magnet) on a point, now."""
        self.emulator.set_present(check_point(name), True, self._at())

    def lift(self, name: str) -> None:
        """Take the piece off a point, now."""
        self.emulator.set_present(check_point(name), False, self._at())

    def press(self, button: ButtonName | str) -> None:
        """Press (and hold) a button, now."""
        self.emulator.set_present(("button", ButtonName(button)), True, self._at())

    def release(self, button: ButtonName | str) -> None:
        """Release a button, now."""
        self.emulator.set_present(("button", ButtonName(button)), False, self._at())

    def click(self, button: ButtonName | str, hold: float = 0.1) -> None:
        """Press a button now and release it ``hold`` seconds later."""
        key = ("button", ButtonName(button))
        at = self._at()
        self.emulator.set_present(key, True, at)
        self.emulator.set_present(key, False, at + hold)

    def slide(self, path: Sequence[str], *, step: float = 0.25) -> float:
        """Slide a piece from ``path[0]`` to ``path[-1]`` over the points between, starting now.

        The magnet is over each point for ``step`` seconds (the first until ``step / 2``).
        Returns the time it arrives.
        """
        for name in path:
            check_point(name)
        start = self._at()
        for i, name in enumerate(path):
            if i > 0:
                self.emulator.set_present(name, True, start + (i - 0.5) * step)
            if i < len(path) - 1:
                self.emulator.set_present(name, False, start + (i + 0.5) * step)
        return start + (len(path) - 1) * step

    def occupied(self) -> frozenset[str]:
        """Where magnets are now (the truth, not the reading)."""
        at = self._at()
        return frozenset(p for p in POINT_NAMES if self.emulator.is_present(p, at))

    # -- noise and faults ------------------------------------------------------------------

    def set_bounce(self, duration: float, name: str | ButtonName | None = None) -> None:
        """Make a sensor (or button, or every input) bounce for ``duration`` s after changes."""
        self.emulator.set_bounce(duration, None if name is None else self._input_key(name))

    def set_flicker(self, name: str, dropout: float = 0.3) -> None:
        """A weak magnet on ``name``: each read drops out with probability ``dropout`` (0: off)."""
        self.emulator.set_flicker(check_point(name), dropout)

    def set_stuck(self, name: str) -> None:
        """The sensor of ``name`` reads a piece whether there is one or not."""
        self.emulator.force(check_point(name), True)

    def set_dead(self, name: str) -> None:
        """The sensor of ``name`` never reads a piece."""
        self.emulator.force(check_point(name), False)

    def repair(self, name: str) -> None:
        """Undo :meth:`set_stuck`, :meth:`set_dead` and :meth:`set_flicker` on ``name``."""
        self.emulator.force(check_point(name), None)
        self.emulator.set_flicker(name, 0.0)

    def set_led_fault(self, name: str | StatusLight, lit: bool | None) -> None:
        """Make an LED dead (``False``), stuck on (``True``) or working again (``None``)."""
        self.emulator.set_led_fault(self._output_key(name), lit)

    # -- what a person sees ----------------------------------------------------------------

    def led_signal(self, name: str) -> Signal:
        """The signal the LED of a point showed over the last second (decoded from the pins)."""
        return self.emulator.signal(check_point(name), self.now)

    def lights(self) -> dict[str, Signal]:
        """Every point's decoded LED signal."""
        now = self.now
        return {p: self.emulator.signal(p, now) for p in POINT_NAMES}

    def status_signal(self, light: StatusLight) -> Signal:
        """The decoded signal of a status LED (``OFF`` if the build has none)."""
        return self.emulator.signal(("status", StatusLight(light)), self.now)

    def lit(self) -> set[str | StatusLight]:
        """What a person sees lit (steady or blinking) now: points and status lights."""
        names: list[str | StatusLight] = [*POINT_NAMES, *StatusLight]
        now = self.now
        signal = self.emulator.signal
        return {n for n in names if signal(self._output_key(n), now) is not Signal.OFF}

    # -- plumbing --------------------------------------------------------------------------

    @staticmethod
    def _input_key(name: str | ButtonName) -> Hashable:
        if isinstance(name, ButtonName):
            return ("button", name)
        return check_point(name)

    @staticmethod
    def _output_key(name: str | StatusLight) -> Hashable:
        if isinstance(name, StatusLight):
            return ("status", name)
        return check_point(name)

    def close(self) -> None:
        """Close the device and detach the emulation. Safe to call twice."""
        self.device.close()
        self.emulator.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
