"""The physical board as a circuit on gpiozero's mock pins: magnets, switches, diodes and LEDs.

:class:`BoardCircuit` wires :class:`EmulatedPin` s of a :class:`~gpiozero.pins.mock.MockFactory`
the way a wiring profile says the board is built, standing for the wood, the magnets and the
electronics:

- a matrix sensor closes only its own crossing; a column reads low only while a row with a closed
  switch is driven low, and the diodes stop current flowing back (no ghosting; pass
  ``diodes=False`` to see the ghosts a diode-less matrix reads);
- LEDs are read back from the pins: direct LEDs from their pin, matrix LEDs while their row is
  selected, 74HC595 outputs from an emulated chain (bits shift in on clock rising edges and appear
  on the latch rising edge). :meth:`BoardCircuit.signal` decodes the signal from those recorded
  levels (:mod:`hardware.leddecoder`), never from what was commanded;
- noise and faults: switch bounce, the flicker of a weak magnet, a sensor stuck on or dead, a dead
  or stuck LED.

Each wire kind (:mod:`hardware.kinds`) wires its own part into the circuit
(:meth:`~hardware.kinds.WireKind.emulate`); the built-in kinds' parts are here:
:func:`wire_direct_inputs`, :func:`wire_direct_outputs`, :class:`MatrixInputs`,
:class:`MatrixOutputs` and :class:`ShiftRegisterChips`. What a person does with it, and the
device that drives it, is :class:`hardware.simulated_board.SimulatedBoard`.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gpiozero.pins.mock import MockFactory, MockPin

from hardware.leddecoder import DECODE_WINDOW, decode_signal
from morris_device import Signal

if TYPE_CHECKING:
    from hardware.kinds import ShiftChain
    from hardware.profiles import Profile

__all__ = [
    "BoardCircuit",
    "EmulatedPin",
    "MatrixInputs",
    "MatrixOutputs",
    "ShiftRegisterChips",
    "wire_direct_inputs",
    "wire_direct_outputs",
]

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


class BoardCircuit:
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
        #: Per input, the magnet (or finger) timeline: sorted (time, over) entries.
        self._timeline: dict[Hashable, list[tuple[float, bool]]] = {}
        self._forced: dict[Hashable, bool] = {}
        self._flicker: dict[Hashable, float] = {}
        self._bounce: dict[Hashable | None, float] = {}
        self._led_fault: dict[Hashable, bool] = {}
        #: Inputs with a fault or noise (they skip the fast path of :meth:`closed`).
        self._special: set[Hashable] = set()
        #: Per output, the recorded LED levels: (time, lit) at each change.
        self.history: dict[Hashable, list[tuple[float, bool]]] = {}
        #: Per LED that is lit only while refreshed: since when it has not been, as of a time
        #: (``None``: it is refreshed).
        self.unrefreshed_since: dict[Hashable, Callable[[float], float | None]] = {}
        self._pins: list[EmulatedPin] = []
        for key in wiring.wires(drives=True):
            self.history[key] = [(float("-inf"), False)]
        for kind, settings, wires in wiring.input_blocks():
            kind.emulate(self, settings, wires, factory)
        for output_kind, settings, wires in wiring.output_blocks():
            output_kind.emulate(self, settings, wires, factory)

    # -- wiring ----------------------------------------------------------------------------

    def pin(self, factory: MockFactory, number: int) -> EmulatedPin:
        """The emulated pin ``number``, detached again by :meth:`close`."""
        pin = factory.pin(number, pin_class=EmulatedPin)
        self._pins.append(pin)
        return pin  # type: ignore[no-any-return]

    def close(self) -> None:
        """Detach the emulation from the pins."""
        for pin in self._pins:
            pin.reader = None
            pin.listener = None
        self._pins.clear()

    # -- the sensors -----------------------------------------------------------------------

    def set_magnet(self, key: Hashable, over: bool, at: float) -> None:
        """From time ``at`` on, a magnet is (or is not) over the input ``key``.

        Changes at one instant take effect in the order they are made (the last one stands).
        """
        timeline = self._timeline.setdefault(key, [(float("-inf"), False)])
        # Ordered by time alone: after every entry at ``at``, never sorted by the value.
        bisect.insort_right(timeline, (at, over), key=lambda entry: entry[0])

    def has_magnet(self, key: Hashable, at: float) -> bool:
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
        since, over = self._entry(key, now)
        bounce = self._bounce.get(key, self._bounce.get(None, 0.0))
        if bounce and now - since < bounce:
            return self.rng.random() < 0.5
        dropout = self._flicker.get(key)
        if over and dropout and self.rng.random() < dropout:
            return False
        return over

    def force(self, key: Hashable, closed: bool | None) -> None:
        """Stick a switch closed (True), kill it (False) or repair it (None)."""
        if closed is None:
            self._forced.pop(key, None)
        else:
            self._forced[key] = closed
        self._update_special(key)

    def set_flicker(self, key: Hashable, dropout: float) -> None:
        """While a magnet is over the input, each read drops out with probability ``dropout``."""
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
        unrefreshed = self.unrefreshed_since.get(key)
        if unrefreshed is not None and history[-1][1]:
            off_since = unrefreshed(now)
            if off_since is not None:
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
        return decode_signal(self._effective(key, now), now)


# -- the built-in kinds' parts of the circuit ------------------------------------------------


def wire_direct_inputs(
    circuit: BoardCircuit, pins: Mapping[Hashable, int], factory: MockFactory
) -> None:
    """A switch to ground on each pin, against its pull-up: low while closed."""
    for key, number in pins.items():
        circuit.pin(factory, number).reader = _direct_reader(circuit, key)


def _direct_reader(circuit: BoardCircuit, key: Hashable) -> Callable[[], bool]:
    return lambda: not circuit.closed(key)


def wire_direct_outputs(
    circuit: BoardCircuit, pins: Mapping[Hashable, int], factory: MockFactory
) -> None:
    """An LED on each pin, lit while the pin is high."""
    for key, number in pins.items():
        circuit.pin(factory, number).listener = _direct_listener(circuit, key)


def _direct_listener(circuit: BoardCircuit, key: Hashable) -> Callable[[bool], None]:
    return lambda level: circuit.record(key, level)


class MatrixInputs:
    """A switch and its diode on each crossing: a column reads low only while a row with a
    closed switch on it is driven low (without diodes, through any path of closed switches)."""

    def __init__(
        self,
        circuit: BoardCircuit,
        rows: Sequence[int],
        columns: Sequence[int],
        keys: Mapping[tuple[int, int], Hashable],
        factory: MockFactory,
    ) -> None:
        self.circuit = circuit
        self._rows = [circuit.pin(factory, number) for number in rows]
        self._crossing = dict(keys)
        for c, number in enumerate(columns):
            circuit.pin(factory, number).reader = self._column_reader(c)

    def _column_reader(self, column: int) -> Callable[[], bool]:
        circuit = self.circuit

        def read() -> bool:
            if not circuit.diodes:
                return not self._ghost_low(column)
            for r, row in enumerate(self._rows):
                if row._function == "output" and not row._state:
                    key = self._crossing.get((r, column))
                    if key is not None and circuit.closed(key):
                        return False  # pulled low through the switch and its diode
            return True  # the pull-up

        return read

    def _ghost_low(self, column: int) -> bool:
        """Without diodes, current flows both ways through closed switches: follow them."""
        closed = [rc for rc, key in self._crossing.items() if self.circuit.closed(key)]
        seen_cols, seen_rows = {column}, set()
        frontier = [("c", column)]
        while frontier:
            kind, n = frontier.pop()
            for r, c in closed:
                if kind == "c" and c == n and r not in seen_rows:
                    row = self._rows[r]
                    if row._function == "output" and not row._state:
                        return True
                    seen_rows.add(r)
                    frontier.append(("r", r))
                elif kind == "r" and r == n and c not in seen_cols:
                    seen_cols.add(c)
                    frontier.append(("c", c))
        return False


class MatrixOutputs:
    """An LED on each crossing, lit while its row is selected (high) and its column sinks (low);
    dark once its row has not been selected for :data:`_STALE` seconds (the refresh stopped)."""

    def __init__(
        self,
        circuit: BoardCircuit,
        rows: Sequence[int],
        columns: Sequence[int],
        keys: Mapping[tuple[int, int], Hashable],
        factory: MockFactory,
    ) -> None:
        self.circuit = circuit
        self._led_at = dict(keys)
        self._rows = [circuit.pin(factory, number) for number in rows]
        self._row_off_since: list[float | None] = [None] * len(self._rows)
        self._columns = [circuit.pin(factory, number) for number in columns]
        for r, pin in enumerate(self._rows):
            pin.listener = self._row_listener(r)
        for c, pin in enumerate(self._columns):
            pin.listener = self._column_listener(c)
        for (r, _c), key in self._led_at.items():
            circuit.unrefreshed_since[key] = self._unrefreshed(r)

    def _unrefreshed(self, row: int) -> Callable[[float], float | None]:
        def since(now: float) -> float | None:
            off_since = self._row_off_since[row]
            return off_since if off_since is not None and now - off_since > _STALE else None

        return since

    def _row_listener(self, row: int) -> Callable[[bool], None]:
        def changed(level: bool) -> None:
            self._row_off_since[row] = None if level else self.circuit.time()
            if level:  # selected: its LEDs show what the columns sink
                for c, col in enumerate(self._columns):
                    key = self._led_at.get((row, c))
                    if key is not None:
                        self.circuit.record(key, not col._state)

        return changed

    def _column_listener(self, column: int) -> Callable[[bool], None]:
        def changed(level: bool) -> None:
            for r, row in enumerate(self._rows):
                key = self._led_at.get((r, column))
                if row._state and key is not None:
                    self.circuit.record(key, not level)

        return changed


class ShiftRegisterChips:
    """The 74HC595 chips of a chain: bits shift in on clock rising edges and appear on the
    outputs at the latch's rising edge."""

    def __init__(
        self,
        circuit: BoardCircuit,
        chain: ShiftChain,
        keys: Mapping[int, Hashable],
        factory: MockFactory,
    ) -> None:
        self.circuit = circuit
        self._keys = dict(keys)
        self._shift = [False] * (chain.registers * 8)
        self._outputs = [False] * (chain.registers * 8)
        self._data = circuit.pin(factory, chain.data)
        circuit.pin(factory, chain.clock).listener = self._on_clock
        circuit.pin(factory, chain.latch).listener = self._on_latch

    def _on_clock(self, level: bool) -> None:
        if level:  # rising edge: every bit moves one place down the chain
            self._shift.insert(0, bool(self._data._state))
            self._shift.pop()

    def _on_latch(self, level: bool) -> None:
        if level:  # rising edge: the storage registers take the shift registers
            for index, bit in enumerate(self._shift):
                if self._outputs[index] != bit:
                    self._outputs[index] = bit
                    key = self._keys.get(index)
                    if key is not None:
                        self.circuit.record(key, bit)
