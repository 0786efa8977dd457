"""The kinds of wiring block a board is built from, each declared once: the seam of ``hardware``.

A :class:`WireKind` says everything about one way of wiring inputs (sensors, buttons) or outputs
(LEDs): the table of its settings in a profile and the notation of its wires (its part of the
profile parser), the GPIOs it takes and the checks on them, where a builder looks for a wire (the
self-test's words), the gpiozero block that drives it (an :class:`InputBlock` or an
:class:`OutputBlock`), and how the emulated circuit of a simulated board answers on its pins.
The parser (:mod:`hardware.profiles`), the board (:class:`hardware.board.GpioBoard`), the
circuit (:class:`hardware.circuit.BoardCircuit`) and the self-test reach the kinds only through
this registry, so a new kind is one class and one :func:`register_kind` call. The built-in
kinds import their gpiozero blocks and circuit parts when they build or emulate one: the parser
reads this module without loading gpiozero.

The built-in kinds, in the order the parser reads them:

- ``input_matrix``: a wire ``["row", "column"]``, a crossing of the input matrix
  (:class:`~hardware.wiring.InputMatrix`);
- ``output_matrix``: a crossing of the LED matrix (:class:`~hardware.wiring.OutputMatrix`);
- ``chain``: ``"Qn"``, an output of the 74HC595 chain
  (:class:`~hardware.wiring.ShiftRegisterChain`);
- direct pins, inputs and outputs: a GPIO number, the notation of last resort
  (:class:`~hardware.wiring.DirectInputs`, :class:`~hardware.wiring.DirectOutputs`).

>>> [kind.name for kind in wire_kinds()]
['input_matrix', 'output_matrix', 'chain', 'direct inputs', 'direct outputs']
>>> kind_of(ChainOutput(3), drives=True).name
'chain'
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from hardware.exc import ProfileError
from hardware.words import _
from morris_device import BlinkClock

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory

    from hardware.circuit import BoardCircuit
    from hardware.profiles import Profile

__all__ = [
    "ChainOutput",
    "Crossing",
    "InputBlock",
    "InputKind",
    "Matrix",
    "OutputBlock",
    "OutputKind",
    "ProfileReader",
    "ShiftChain",
    "WireKind",
    "kind_of",
    "register_kind",
    "unregister_kind",
    "wire_kinds",
]


# -- the blocks a kind builds ----------------------------------------------------------------


class InputBlock(Protocol):
    """A block of inputs on gpiozero devices, scanned by the board's every input scan."""

    def scan(self, active: set[Hashable]) -> None:
        """Read every input once and add the keys read active to ``active``."""
        ...

    def close(self) -> None:
        """Release every pin of the block. Safe to call twice."""
        ...


class OutputBlock(Protocol):
    """A block of LEDs on gpiozero devices, driven from the board's :class:`BlinkClock`."""

    def update(self, now: float, lights: BlinkClock[Hashable]) -> None:
        """The signals changed at ``now``: show them at once, if this block can."""
        ...

    def refresh(self, now: float, lights: BlinkClock[Hashable]) -> float:
        """Drive what is due at ``now`` (every poll calls it); return when it is next due
        (``inf``: not before a signal changes)."""
        ...

    def off(self) -> None:
        """Switch every LED of the block off."""
        ...

    def close(self) -> None:
        """Release every pin of the block. Safe to call twice."""
        ...


# -- the wires and settings of the built-in kinds ----------------------------------------------


@dataclass(frozen=True)
class Crossing:
    """The crossing of a row line and a column line of a matrix (named as in the profile)."""

    row: str
    column: str


@dataclass(frozen=True)
class ChainOutput:
    """Output ``Q{index % 8}`` of register ``index // 8`` of the 74HC595 chain.

    Register 0 is the one whose serial input is wired to the Pi.
    """

    index: int


@dataclass(frozen=True)
class Matrix:
    """Row lines (driven one at a time) and column lines, each name mapped to its GPIO pin."""

    rows: Mapping[str, int]
    columns: Mapping[str, int]


@dataclass(frozen=True)
class ShiftChain:
    """A chain of 74HC595 shift registers: serial data, shift clock and latch (storage clock)."""

    data: int
    clock: int
    latch: int
    registers: int


# -- the kinds -------------------------------------------------------------------------------


class ProfileReader(Protocol):
    """What a kind's part of the parser is handed: the checks every key of a profile shares."""

    def error(self, key: str, problem: str) -> ProfileError:
        """A :class:`ProfileError` naming the profile's source, ``key`` and ``problem``."""
        ...

    def table(self, key: str, value: Any) -> Mapping[str, Any]:
        """``value`` if it is a table, else the error naming ``key``."""
        ...

    def pin(self, key: str, value: Any) -> int:
        """A GPIO of the Pi's header, written ``17`` or ``"GPIO17"``."""
        ...


class WireKind:
    """One kind of wiring: declared once, read by the parser, the board, the circuit and the
    self-test. Subclass :class:`InputKind` or :class:`OutputKind`, then :func:`register_kind`.

    ``settings`` below is what :meth:`parse_table` made of the kind's table (``None`` for a kind
    without one); ``wires`` map keys (``"sensors.a7"`` in the parser, the board's keys in
    :meth:`build` and :meth:`emulate`) to wires this kind :meth:`owns`.
    """

    #: A short name (the table's, if the kind has one).
    name: str = ""
    #: The profile's table of the kind's settings (``"chain"``), or ``None``: it has none.
    table: str | None = None
    #: Whether its wires are outputs (LEDs) or inputs (sensors, buttons).
    drives: bool = False
    #: What it is, for a message refusing a wire of the other direction ("the 74HC595 chain").
    title: str = ""
    #: Whether it takes every wire no other kind :meth:`claims` (direct pins).
    fallback: bool = False

    def parse_table(self, reader: ProfileReader, value: Any) -> Any:
        """The kind's settings from its table (``value``, as TOML read it)."""
        raise NotImplementedError(f"{self.name} has no table")

    def claims(self, value: Any) -> bool:
        """Whether a wire written ``value`` is in this kind's notation."""
        return self.fallback

    def parse_wire(self, reader: ProfileReader, key: str, value: Any, settings: Any) -> Hashable:
        """The wire ``value`` names (``settings`` is ``None`` if the profile lacks the table)."""
        raise NotImplementedError

    def owns(self, wire: Hashable) -> bool:
        """Whether ``wire`` is one of this kind's wires."""
        raise NotImplementedError

    def pins(self, settings: Any, wires: Mapping[str, Hashable]) -> list[tuple[str, int]]:
        """Every GPIO the block takes, with the profile key that names it."""
        return []

    def check(self, reader: ProfileReader, settings: Any, wires: Mapping[str, Hashable]) -> None:
        """Refuse a block its wires leave incomplete (a matrix line without a role)."""

    def describe(self, settings: Any, wire: Hashable) -> str:
        """Where a builder looks for ``wire``: its pins, in the self-test's words."""
        raise NotImplementedError

    def emulate(
        self,
        circuit: BoardCircuit,
        settings: Any,
        wires: Mapping[Hashable, Hashable],
        factory: MockFactory,
    ) -> None:
        """Wire the emulated board's parts of this block into ``circuit``'s mock pins."""
        raise NotImplementedError


class InputKind(WireKind):
    """A kind of input wiring: it builds an :class:`InputBlock`."""

    drives = False

    def build(
        self,
        settings: Any,
        wires: Mapping[Hashable, Hashable],
        *,
        profile: Profile,
        pin_factory: Any,
        start: float,
    ) -> InputBlock:
        """The gpiozero block reading these wires (``start``: the board's first time)."""
        raise NotImplementedError


class OutputKind(WireKind):
    """A kind of output wiring: it builds an :class:`OutputBlock`."""

    drives = True

    def build(
        self,
        settings: Any,
        wires: Mapping[Hashable, Hashable],
        *,
        profile: Profile,
        pin_factory: Any,
        start: float,
    ) -> OutputBlock:
        """The gpiozero block driving these wires (``start``: the board's first time)."""
        raise NotImplementedError


_KINDS: list[InputKind | OutputKind] = []


def register_kind(kind: InputKind | OutputKind) -> None:
    """Add a kind of wiring; its table (if any) becomes a key a profile may have.

    Raises :class:`ValueError` for a second kind of the same name or table.
    """
    for other in _KINDS:
        if other.name == kind.name or (kind.table is not None and other.table == kind.table):
            raise ValueError(f"a wire kind {kind.name!r} (table {kind.table!r}) already exists")
    fallbacks = [i for i, k in enumerate(_KINDS) if k.fallback]
    # Direct pins take any wire no other kind claims: they stay at the end.
    _KINDS.insert(len(_KINDS) if kind.fallback or not fallbacks else fallbacks[0], kind)


def unregister_kind(kind: InputKind | OutputKind) -> None:
    """Remove a kind added by :func:`register_kind` (a test's toy kind)."""
    _KINDS.remove(kind)


def wire_kinds() -> tuple[InputKind | OutputKind, ...]:
    """Every kind of wiring, in the order the parser reads their tables."""
    return tuple(_KINDS)


def kind_of(wire: Hashable, *, drives: bool) -> InputKind | OutputKind:
    """The kind a wire of an output (``drives``) or an input belongs to."""
    for kind in _KINDS:
        if kind.drives == drives and kind.owns(wire):
            return kind
    raise LookupError(f"no wire kind owns {wire!r}")


# -- the built-in kinds ----------------------------------------------------------------------


class _DirectKind(WireKind):
    """One GPIO per wire."""

    fallback = True

    def parse_wire(self, reader: ProfileReader, key: str, value: Any, settings: Any) -> int:
        return reader.pin(key, value)

    def owns(self, wire: Hashable) -> bool:
        return isinstance(wire, int)

    def pins(self, settings: Any, wires: Mapping[str, Hashable]) -> list[tuple[str, int]]:
        return [(key, wire) for key, wire in wires.items() if isinstance(wire, int)]

    def describe(self, settings: Any, wire: Hashable) -> str:
        return f"GPIO{wire}"


class _DirectInputKind(_DirectKind, InputKind):
    name = "direct inputs"
    title = "a GPIO of its own"

    def build(
        self,
        settings: Any,
        wires: Mapping[Hashable, Hashable],
        *,
        profile: Profile,
        pin_factory: Any,
        start: float,
    ) -> InputBlock:
        from hardware.wiring import DirectInputs

        return DirectInputs(_ints(wires), pin_factory=pin_factory)

    def emulate(
        self,
        circuit: BoardCircuit,
        settings: Any,
        wires: Mapping[Hashable, Hashable],
        factory: MockFactory,
    ) -> None:
        from hardware.circuit import wire_direct_inputs

        wire_direct_inputs(circuit, _ints(wires), factory)


class _DirectOutputKind(_DirectKind, OutputKind):
    name = "direct outputs"
    title = "a GPIO of its own"

    def build(
        self,
        settings: Any,
        wires: Mapping[Hashable, Hashable],
        *,
        profile: Profile,
        pin_factory: Any,
        start: float,
    ) -> OutputBlock:
        from hardware.wiring import DirectOutputs

        return DirectOutputs(_ints(wires), pin_factory=pin_factory)

    def emulate(
        self,
        circuit: BoardCircuit,
        settings: Any,
        wires: Mapping[Hashable, Hashable],
        factory: MockFactory,
    ) -> None:
        from hardware.circuit import wire_direct_outputs

        wire_direct_outputs(circuit, _ints(wires), factory)


def _ints(wires: Mapping[Hashable, Hashable]) -> dict[Hashable, int]:
    return {key: wire for key, wire in wires.items() if isinstance(wire, int)}


class _MatrixKind(WireKind):
    """Row lines and column lines; a wire is a crossing ``["row", "column"]``."""

    def parse_table(self, reader: ProfileReader, value: Any) -> Matrix:
        key = str(self.table)
        table = reader.table(key, value)
        for sub in table:
            if sub not in ("rows", "columns"):
                raise reader.error(f"{key}.{sub}", "unknown key (a matrix has rows and columns)")
        lines: dict[str, dict[str, int]] = {}
        for role in ("rows", "columns"):
            if role not in table:
                raise reader.error(f"{key}.{role}", "missing")
            named = reader.table(f"{key}.{role}", table[role])
            if not named:
                raise reader.error(f"{key}.{role}", "needs at least one line")
            lines[role] = {
                str(name): reader.pin(f"{key}.{role}.{name}", pin) for name, pin in named.items()
            }
        both = set(lines["rows"]) & set(lines["columns"])
        if both:
            name = sorted(both)[0]
            raise reader.error(f"{key}.columns.{name}", "is also a row: a line has one role")
        return Matrix(rows=lines["rows"], columns=lines["columns"])

    def claims(self, value: Any) -> bool:
        return isinstance(value, list)

    def parse_wire(
        self, reader: ProfileReader, key: str, value: Any, settings: Matrix | None
    ) -> Crossing:
        if len(value) != 2 or not all(isinstance(v, str) for v in value):
            raise reader.error(key, f'a crossing is ["row", "column"], not {value!r}')
        if settings is None:
            raise reader.error(key, f"names a matrix crossing but there is no [{self.table}]")
        row, column = value
        if row not in settings.rows:
            role = "a column" if row in settings.columns else "not a line"
            raise reader.error(
                key, f"line {row!r} has no row role in [{self.table}] (it is {role})"
            )
        if column not in settings.columns:
            role = "a row" if column in settings.rows else "not a line"
            raise reader.error(
                key, f"line {column!r} has no column role in [{self.table}] (it is {role})"
            )
        return Crossing(row, column)

    def owns(self, wire: Hashable) -> bool:
        return isinstance(wire, Crossing)

    def pins(self, settings: Matrix, wires: Mapping[str, Hashable]) -> list[tuple[str, int]]:
        pairs = [(f"{self.table}.rows.{n}", p) for n, p in settings.rows.items()]
        return pairs + [(f"{self.table}.columns.{n}", p) for n, p in settings.columns.items()]

    def check(self, reader: ProfileReader, settings: Matrix, wires: Mapping[str, Hashable]) -> None:
        crossings = [w for w in wires.values() if isinstance(w, Crossing)]
        for role, lines, used in (
            ("rows", settings.rows, {w.row for w in crossings}),
            ("columns", settings.columns, {w.column for w in crossings}),
        ):
            for line in lines:
                if line not in used:
                    raise reader.error(
                        f"{self.table}.{role}.{line}",
                        "line without a role: nothing is wired to it "
                        "(remove it or wire a sensor, button or LED to it)",
                    )

    @staticmethod
    def keys(
        settings: Matrix, wires: Mapping[Hashable, Hashable]
    ) -> dict[tuple[int, int], Hashable]:
        """Each crossing's (row index, column index), mapped to the key wired to it."""
        rows, columns = list(settings.rows), list(settings.columns)
        return {
            (rows.index(w.row), columns.index(w.column)): key
            for key, w in wires.items()
            if isinstance(w, Crossing)
        }


class _InputMatrixKind(_MatrixKind, InputKind):
    name = table = "input_matrix"
    title = "the input matrix"

    def describe(self, settings: Matrix, wire: Hashable) -> str:
        assert isinstance(wire, Crossing)
        # TRANSLATORS: a crossing of the sensor matrix; {row} and {column} are the
        # profile's names of them, {row_pin} and {column_pin} GPIO numbers.
        return _(
            "row {row} (GPIO{row_pin}) x column {column} (GPIO{column_pin}) and its diode"
        ).format(
            row=wire.row,
            row_pin=settings.rows[wire.row],
            column=wire.column,
            column_pin=settings.columns[wire.column],
        )

    def build(
        self,
        settings: Matrix,
        wires: Mapping[Hashable, Hashable],
        *,
        profile: Profile,
        pin_factory: Any,
        start: float,
    ) -> InputBlock:
        from hardware.wiring import InputMatrix

        rows, columns = list(settings.rows.values()), list(settings.columns.values())
        return InputMatrix(rows, columns, self.keys(settings, wires), pin_factory=pin_factory)

    def emulate(
        self,
        circuit: BoardCircuit,
        settings: Matrix,
        wires: Mapping[Hashable, Hashable],
        factory: MockFactory,
    ) -> None:
        from hardware.circuit import MatrixInputs

        rows, columns = list(settings.rows.values()), list(settings.columns.values())
        MatrixInputs(circuit, rows, columns, self.keys(settings, wires), factory)


class _OutputMatrixKind(_MatrixKind, OutputKind):
    name = table = "output_matrix"
    title = "the LED matrix"

    def describe(self, settings: Matrix, wire: Hashable) -> str:
        assert isinstance(wire, Crossing)
        return _("LED row {row} (GPIO{row_pin}) x column {column} (GPIO{column_pin})").format(
            row=wire.row,
            row_pin=settings.rows[wire.row],
            column=wire.column,
            column_pin=settings.columns[wire.column],
        )

    def build(
        self,
        settings: Matrix,
        wires: Mapping[Hashable, Hashable],
        *,
        profile: Profile,
        pin_factory: Any,
        start: float,
    ) -> OutputBlock:
        from hardware.wiring import OutputMatrix

        rows, columns = list(settings.rows.values()), list(settings.columns.values())
        return OutputMatrix(
            rows, columns, self.keys(settings, wires),
            refresh_hz=profile.refresh_hz, start=start, pin_factory=pin_factory,
        )  # fmt: skip

    def emulate(
        self,
        circuit: BoardCircuit,
        settings: Matrix,
        wires: Mapping[Hashable, Hashable],
        factory: MockFactory,
    ) -> None:
        from hardware.circuit import MatrixOutputs

        rows, columns = list(settings.rows.values()), list(settings.columns.values())
        MatrixOutputs(circuit, rows, columns, self.keys(settings, wires), factory)


class _ChainKind(OutputKind):
    name = table = "chain"
    title = "the 74HC595 chain"

    def parse_table(self, reader: ProfileReader, value: Any) -> ShiftChain:
        table = reader.table("chain", value)
        for sub in table:
            if sub not in ("data", "clock", "latch", "registers"):
                raise reader.error(f"chain.{sub}", "unknown key (data, clock, latch, registers)")
        pins = {}
        for role in ("data", "clock", "latch"):
            if role not in table:
                raise reader.error(
                    f"chain.{role}", "missing: the chain needs data, clock and latch"
                )
            pins[role] = reader.pin(f"chain.{role}", table[role])
        registers = table.get("registers", 3)
        if isinstance(registers, bool) or not isinstance(registers, int) or not 1 <= registers <= 8:
            raise reader.error("chain.registers", f"must be 1..8, not {registers!r}")
        return ShiftChain(registers=registers, **pins)

    def claims(self, value: Any) -> bool:
        return isinstance(value, str) and value[:1].upper() == "Q" and value[1:].isdigit()

    def parse_wire(
        self, reader: ProfileReader, key: str, value: Any, settings: ShiftChain | None
    ) -> ChainOutput:
        if settings is None:
            raise reader.error(key, f"names chain output {value!r} but there is no [chain]")
        index = int(value[1:])
        if index >= settings.registers * 8:
            raise reader.error(
                key,
                f"{value} is beyond the chain ({settings.registers} registers: Q0..Q"
                f"{settings.registers * 8 - 1})",
            )
        return ChainOutput(index)

    def owns(self, wire: Hashable) -> bool:
        return isinstance(wire, ChainOutput)

    def pins(self, settings: ShiftChain, wires: Mapping[str, Hashable]) -> list[tuple[str, int]]:
        c = settings
        return [("chain.data", c.data), ("chain.clock", c.clock), ("chain.latch", c.latch)]

    def describe(self, settings: ShiftChain, wire: Hashable) -> str:
        assert isinstance(wire, ChainOutput)
        register, bit = divmod(wire.index, 8)
        # TRANSLATORS: a shift register's output: Q0..Q7 of register #n, and its number
        # in the whole chain.
        return _("74HC595 #{register} pin Q{bit} (chain output Q{index})").format(
            register=register, bit=bit, index=wire.index
        )

    @staticmethod
    def keys(wires: Mapping[Hashable, Hashable]) -> dict[int, Hashable]:
        """Each chain output's index, mapped to the key wired to it."""
        return {w.index: key for key, w in wires.items() if isinstance(w, ChainOutput)}

    def build(
        self,
        settings: ShiftChain,
        wires: Mapping[Hashable, Hashable],
        *,
        profile: Profile,
        pin_factory: Any,
        start: float,
    ) -> OutputBlock:
        from hardware.wiring import ShiftRegisterChain

        c = settings
        return ShiftRegisterChain(
            c.data, c.clock, c.latch, c.registers, self.keys(wires), pin_factory=pin_factory
        )

    def emulate(
        self,
        circuit: BoardCircuit,
        settings: ShiftChain,
        wires: Mapping[Hashable, Hashable],
        factory: MockFactory,
    ) -> None:
        from hardware.circuit import ShiftRegisterChips

        ShiftRegisterChips(circuit, settings, self.keys(wires), factory)


for _kind in (
    _InputMatrixKind(),
    _OutputMatrixKind(),
    _ChainKind(),
    _DirectInputKind(),
    _DirectOutputKind(),
):
    register_kind(_kind)
del _kind
