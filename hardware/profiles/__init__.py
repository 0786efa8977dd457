"""Wiring profiles: which pin every sensor, LED, status LED and button of a board is wired to.

A profile is a TOML file. Built-in ones live beside this module (``direct``, ``matrix``,
``shift-register``); users copy one, edit it and pass its path. Every input (a point's sensor, a
button) is either a GPIO pin or a crossing ``["row", "column"]`` of the input matrix; every output
(a point's LED, a status LED) is a GPIO pin, a crossing of the output matrix or an output ``"Qn"``
of the 74HC595 chain. See ``hardware/README.md`` for the format and the pin tables.

>>> profile = load_profile(DEFAULT_PROFILE)
>>> profile.sensors["a7"]
Crossing(row='outer', column='p0')
>>> profile.leds["a7"]
ChainOutput(index=0)
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hardware.exc import ProfileError
from hardware.words import _
from morris_device import POINT_NAMES, ButtonName, StatusLight

__all__ = [
    "DEFAULT_PROFILE",
    "PROFILE_DIR",
    "ChainOutput",
    "Crossing",
    "Matrix",
    "Profile",
    "ShiftChain",
    "available_profiles",
    "load_profile",
    "parse_profile",
]

#: The built-in profile of a complete build: a 3x8 sensor matrix, the 24 point LEDs and the 4 status
#: LEDs on a chain of four 74HC595, and 4 buttons on GPIO pins. The simulator uses it.
DEFAULT_PROFILE = "shift-register"

#: Where the built-in profiles live.
PROFILE_DIR = Path(__file__).resolve().parent

#: GPIOs on a Raspberry Pi 40-pin header. 0 and 1 carry the HAT ID EEPROM bus and are refused
#: unless a profile sets ``allow_id_pins = true``.
ID_PINS = frozenset({0, 1})
HEADER_PINS = frozenset(range(28))


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


#: An input is wired to a GPIO pin or to a crossing of the input matrix.
InputWire = int | Crossing
#: An output is wired to a GPIO pin, a crossing of the output matrix or an output of the chain.
OutputWire = int | Crossing | ChainOutput


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


@dataclass(frozen=True)
class Profile:
    """A validated wiring profile. Build it with :func:`load_profile` or :func:`parse_profile`."""

    name: str
    description: str = ""
    source: str = "<profile>"
    #: Full scans of every input per second, and the consecutive scans a change must persist.
    scan_hz: float = 100.0
    debounce_scans: int = 3
    #: Scans per second while the board has been quiet for :data:`hardware.board.QUIET_AFTER`
    #: seconds (nothing changing, nothing pending); the first change read brings ``scan_hz`` back.
    idle_scan_hz: float = 25.0
    #: Full refreshes of the output matrix per second (each row is lit 1/rows of the time).
    refresh_hz: float = 100.0
    allow_id_pins: bool = False
    input_matrix: Matrix | None = None
    output_matrix: Matrix | None = None
    chain: ShiftChain | None = None
    sensors: Mapping[str, InputWire] = field(default_factory=dict)
    leds: Mapping[str, OutputWire] = field(default_factory=dict)
    status: Mapping[StatusLight, OutputWire] = field(default_factory=dict)
    buttons: Mapping[ButtonName, InputWire] = field(default_factory=dict)

    def replace(self, **changes: Any) -> Profile:
        """A copy with some fields replaced (used to build a miswired simulated board)."""
        return dataclasses.replace(self, **changes)

    def describe_input(self, wire: InputWire) -> str:
        """Where to look for an input: ``"GPIO17"`` or ``"row outer (GPIO17) x column p0 ..."``."""
        if isinstance(wire, Crossing):
            assert self.input_matrix is not None
            m = self.input_matrix
            # TRANSLATORS: a crossing of the sensor matrix; {row} and {column} are the
            # profile's names of them, {row_pin} and {column_pin} GPIO numbers.
            return _(
                "row {row} (GPIO{row_pin}) x column {column} (GPIO{column_pin}) and its diode"
            ).format(
                row=wire.row,
                row_pin=m.rows[wire.row],
                column=wire.column,
                column_pin=m.columns[wire.column],
            )
        return f"GPIO{wire}"

    def describe_output(self, wire: OutputWire) -> str:
        """Where to look for an output: a pin, a crossing of the LED matrix or a 595 output."""
        if isinstance(wire, ChainOutput):
            register, bit = divmod(wire.index, 8)
            # TRANSLATORS: a shift register's output: Q0..Q7 of register #n, and its number
            # in the whole chain.
            return _("74HC595 #{register} pin Q{bit} (chain output Q{index})").format(
                register=register, bit=bit, index=wire.index
            )
        if isinstance(wire, Crossing):
            assert self.output_matrix is not None
            m = self.output_matrix
            return _("LED row {row} (GPIO{row_pin}) x column {column} (GPIO{column_pin})").format(
                row=wire.row,
                row_pin=m.rows[wire.row],
                column=wire.column,
                column_pin=m.columns[wire.column],
            )
        return f"GPIO{wire}"

    def pins(self) -> dict[int, str]:
        """Every GPIO the profile uses, mapped to the key that uses it."""
        used: dict[int, str] = {}
        for key, pin in _pin_keys(self):
            used[pin] = key
        return used


_TOP_KEYS = {
    "name", "description", "scan_hz", "idle_scan_hz", "debounce_scans", "refresh_hz",
    "allow_id_pins",
    "input_matrix", "output_matrix", "chain", "sensors", "leds", "status", "buttons",
}  # fmt: skip


def available_profiles() -> list[str]:
    """The names of the built-in profiles."""
    return sorted(p.stem for p in PROFILE_DIR.glob("*.toml"))


def load_profile(path_or_name: str | Path) -> Profile:
    """Load and validate a profile from a file path or a built-in name.

    A string without a ``/`` that does not end in ``.toml`` is a name: one of
    :func:`available_profiles`, looked up among them and never made into a path (so a name too
    long for a file name is an unknown profile like any other). Raises
    :class:`~hardware.exc.ProfileError` (a ``ValueError``) naming the file and the key.
    """
    path = Path(path_or_name)
    is_name = isinstance(path_or_name, str) and "/" not in path_or_name and path.suffix != ".toml"
    if is_name:
        if path_or_name not in available_profiles():
            raise ProfileError(
                f"unknown profile {path_or_name!r}: built-in profiles are "
                f"{', '.join(available_profiles())}, or give the path of a .toml file"
            )
        path = PROFILE_DIR / f"{path_or_name}.toml"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProfileError(f"{path}: cannot read profile: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ProfileError(f"{path}: the profile is not UTF-8 text (byte {exc.start})") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        duplicate = _find_duplicate_key(text)
        if duplicate is not None:
            key, line = duplicate
            raise ProfileError(f"{path}: {key}: named twice (again on line {line})") from exc
        raise ProfileError(f"{path}: not valid TOML: {exc}") from exc
    return parse_profile(data, source=str(path))


def _find_duplicate_key(text: str) -> tuple[str, int] | None:
    """The first key defined twice in a simple TOML file, as ``("section.key", line)``.

    tomllib reports a duplicate only by position; a builder wants to hear which point it was.
    """
    section = ""
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.split("#", 1)[0].strip()
        header = re.fullmatch(r"\[\s*([A-Za-z0-9_.-]+)\s*\]", stripped)
        if header:
            section = header.group(1)
            continue
        match = re.match(r"([A-Za-z0-9_-]+)\s*=", stripped)
        if match:
            key = f"{section}.{match.group(1).lower()}" if section else match.group(1).lower()
            if key in seen:
                return key, number
            seen.add(key)
    return None


def parse_profile(data: Mapping[str, Any], *, source: str = "<profile>") -> Profile:
    """Validate profile data (as read from TOML) and build a :class:`Profile`.

    Raises :class:`~hardware.exc.ProfileError` with ``source`` and the key in the message.
    """
    return _Parser(data, source).parse()


class _Parser:
    def __init__(self, data: Mapping[str, Any], source: str) -> None:
        self.data = data
        self.source = source

    def error(self, key: str, problem: str) -> ProfileError:
        return ProfileError(f"{self.source}: {key}: {problem}")

    def table(self, key: str, value: Any) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.error(key, f"must be a table, not {value!r}")
        return value

    def number(self, key: str, default: float, low: float, high: float) -> float:
        value = self.data.get(key, default)
        is_number = isinstance(value, int | float) and not isinstance(value, bool)
        if not is_number or not low <= value <= high:
            raise self.error(key, f"must be a number from {low:g} to {high:g}, not {value!r}")
        return float(value)

    def pin(self, key: str, value: Any) -> int:
        """A GPIO number: an integer or ``"GPIOn"``."""
        number: Any = value
        if isinstance(value, str) and value.upper().startswith("GPIO") and value[4:].isdigit():
            number = int(value[4:])
        if isinstance(number, bool) or not isinstance(number, int):
            raise self.error(key, f"{value!r} is not a pin (write a BCM GPIO number such as 17)")
        if number not in HEADER_PINS:
            raise self.error(
                key, f"GPIO{number} does not exist on a Raspberry Pi (usable GPIOs are 2..27)"
            )
        if number in ID_PINS and not self.data.get("allow_id_pins", False):
            raise self.error(
                key,
                f"GPIO{number} belongs to the HAT ID EEPROM bus; set allow_id_pins = true "
                "at the top of the profile to use it anyway",
            )
        return number

    def matrix(self, key: str) -> Matrix | None:
        if key not in self.data:
            return None
        table = self.table(key, self.data[key])
        for sub in table:
            if sub not in ("rows", "columns"):
                raise self.error(f"{key}.{sub}", "unknown key (a matrix has rows and columns)")
        lines: dict[str, dict[str, int]] = {}
        for role in ("rows", "columns"):
            if role not in table:
                raise self.error(f"{key}.{role}", "missing")
            named = self.table(f"{key}.{role}", table[role])
            if not named:
                raise self.error(f"{key}.{role}", "needs at least one line")
            lines[role] = {
                str(name): self.pin(f"{key}.{role}.{name}", pin) for name, pin in named.items()
            }
        both = set(lines["rows"]) & set(lines["columns"])
        if both:
            name = sorted(both)[0]
            raise self.error(f"{key}.columns.{name}", "is also a row: a line has one role")
        return Matrix(rows=lines["rows"], columns=lines["columns"])

    def chain(self) -> ShiftChain | None:
        if "chain" not in self.data:
            return None
        table = self.table("chain", self.data["chain"])
        for sub in table:
            if sub not in ("data", "clock", "latch", "registers"):
                raise self.error(f"chain.{sub}", "unknown key (data, clock, latch, registers)")
        pins = {}
        for role in ("data", "clock", "latch"):
            if role not in table:
                raise self.error(f"chain.{role}", "missing: the chain needs data, clock and latch")
            pins[role] = self.pin(f"chain.{role}", table[role])
        registers = table.get("registers", 3)
        if isinstance(registers, bool) or not isinstance(registers, int) or not 1 <= registers <= 8:
            raise self.error("chain.registers", f"must be 1..8, not {registers!r}")
        return ShiftChain(registers=registers, **pins)

    def wire(
        self, key: str, value: Any, matrix_key: str, matrix: Matrix | None, chain: ShiftChain | None
    ) -> int | Crossing | ChainOutput:
        if isinstance(value, list):
            if len(value) != 2 or not all(isinstance(v, str) for v in value):
                raise self.error(key, f'a crossing is ["row", "column"], not {value!r}')
            if matrix is None:
                raise self.error(key, f"names a matrix crossing but there is no [{matrix_key}]")
            row, column = value
            if row not in matrix.rows:
                role = "a column" if row in matrix.columns else "not a line"
                raise self.error(
                    key, f"line {row!r} has no row role in [{matrix_key}] (it is {role})"
                )
            if column not in matrix.columns:
                role = "a row" if column in matrix.rows else "not a line"
                raise self.error(
                    key, f"line {column!r} has no column role in [{matrix_key}] (it is {role})"
                )
            return Crossing(row, column)
        if isinstance(value, str) and value[:1].upper() == "Q" and value[1:].isdigit():
            if chain is None:
                raise self.error(key, f"names chain output {value!r} but there is no [chain]")
            index = int(value[1:])
            if index >= chain.registers * 8:
                raise self.error(
                    key,
                    f"{value} is beyond the chain ({chain.registers} registers: Q0..Q"
                    f"{chain.registers * 8 - 1})",
                )
            return ChainOutput(index)
        return self.pin(key, value)

    def wires(
        self,
        section: str,
        names: list[str],
        *,
        required: bool,
        outputs: bool,
    ) -> dict[str, int | Crossing | ChainOutput]:
        table = self.table(section, self.data.get(section, {}))
        matrix_key = "output_matrix" if outputs else "input_matrix"
        matrix = self.output_matrix if outputs else self.input_matrix
        chain = self.chain_ if outputs else None
        found: dict[str, int | Crossing | ChainOutput] = {}
        for raw_name, value in table.items():
            name = str(raw_name).lower()
            key = f"{section}.{raw_name}"
            if name not in names:
                raise self.error(key, f"unknown name (expected one of {', '.join(names)})")
            if name in found:
                raise self.error(key, f"{name} is named twice")
            wire = self.wire(key, value, matrix_key, matrix, chain)
            if not outputs and isinstance(wire, ChainOutput):
                raise self.error(key, "an input cannot be on the 74HC595 chain (it only drives)")
            found[name] = wire
        if required:
            missing = [n for n in names if n not in found]
            if missing:
                raise self.error(
                    f"{section}.{missing[0]}",
                    f"missing: every point needs an entry ({len(missing)} missing: "
                    f"{', '.join(missing)})",
                )
        return found

    def parse(self) -> Profile:
        for key in self.data:
            if key not in _TOP_KEYS:
                raise self.error(str(key), f"unknown key (known: {', '.join(sorted(_TOP_KEYS))})")
        name = self.data.get("name", Path(self.source).stem)
        if not isinstance(name, str):
            raise self.error("name", f"must be a string, not {name!r}")
        description = self.data.get("description", "")
        if not isinstance(description, str):
            raise self.error("description", "must be a string")
        if not isinstance(self.data.get("allow_id_pins", False), bool):
            raise self.error("allow_id_pins", "must be true or false")
        scan_hz = self.number("scan_hz", 100, 1, 5000)
        idle_scan_hz = self.number("idle_scan_hz", min(25.0, scan_hz), 1, scan_hz)
        refresh_hz = self.number("refresh_hz", 100, 1, 5000)
        debounce = self.data.get("debounce_scans", 3)
        if isinstance(debounce, bool) or not isinstance(debounce, int) or not 1 <= debounce <= 100:
            raise self.error("debounce_scans", f"must be an integer 1..100, not {debounce!r}")
        self.input_matrix = self.matrix("input_matrix")
        self.output_matrix = self.matrix("output_matrix")
        self.chain_ = self.chain()
        points = list(POINT_NAMES)
        sensors = self.wires("sensors", points, required=True, outputs=False)
        leds = self.wires("leds", points, required=True, outputs=True)
        status_names = [s.value for s in StatusLight]
        button_names = [b.value for b in ButtonName]
        status = self.wires("status", status_names, required=False, outputs=True)
        buttons = self.wires("buttons", button_names, required=False, outputs=False)
        profile = Profile(
            name=name,
            description=description,
            source=self.source,
            scan_hz=scan_hz,
            idle_scan_hz=idle_scan_hz,
            debounce_scans=debounce,
            refresh_hz=refresh_hz,
            allow_id_pins=self.data.get("allow_id_pins", False),
            input_matrix=self.input_matrix,
            output_matrix=self.output_matrix,
            chain=self.chain_,
            sensors={p: _as_input(w) for p, w in sensors.items()},
            leds=leds,
            status={StatusLight(k): w for k, w in status.items()},
            buttons={ButtonName(k): _as_input(w) for k, w in buttons.items()},
        )
        self.check_sharing(profile)
        return profile

    def check_sharing(self, profile: Profile) -> None:
        """No pin, crossing or chain output used twice; no matrix line left without a role."""
        seen: dict[int, str] = {}
        for key, pin in _pin_keys(profile):
            if pin in seen:
                raise self.error(key, f"duplicate pin GPIO{pin}: already used by {seen[pin]}")
            seen[pin] = key
        for section, wires in (
            ("input", {**_keyed("sensors", profile.sensors), **_keyed("buttons", profile.buttons)}),
            ("output", {**_keyed("leds", profile.leds), **_keyed("status", profile.status)}),
        ):
            places: dict[Crossing | ChainOutput, str] = {}
            for key, wire in wires.items():
                if isinstance(wire, int):
                    continue
                if wire in places:
                    raise self.error(key, f"wired to the same place as {places[wire]}")
                places[wire] = key
            matrix = profile.input_matrix if section == "input" else profile.output_matrix
            if matrix is None:
                continue
            used_rows = {w.row for w in places if isinstance(w, Crossing)}
            used_cols = {w.column for w in places if isinstance(w, Crossing)}
            for role, lines, used in (
                ("rows", matrix.rows, used_rows),
                ("columns", matrix.columns, used_cols),
            ):
                for line in lines:
                    if line not in used:
                        raise self.error(
                            f"{section}_matrix.{role}.{line}",
                            "line without a role: nothing is wired to it "
                            "(remove it or wire a sensor, button or LED to it)",
                        )


def _as_input(wire: int | Crossing | ChainOutput) -> InputWire:
    assert not isinstance(wire, ChainOutput)
    return wire


def _keyed(section: str, wires: Mapping[Any, Any]) -> dict[str, Any]:
    return {f"{section}.{getattr(k, 'value', k)}": w for k, w in wires.items()}


def _pin_keys(profile: Profile) -> list[tuple[str, int]]:
    """(key, pin) for every GPIO a profile uses, in profile order."""
    pairs: list[tuple[str, int]] = []
    matrices = (("input_matrix", profile.input_matrix), ("output_matrix", profile.output_matrix))
    for key, matrix in matrices:
        if matrix is not None:
            pairs += [(f"{key}.rows.{n}", p) for n, p in matrix.rows.items()]
            pairs += [(f"{key}.columns.{n}", p) for n, p in matrix.columns.items()]
    if profile.chain is not None:
        c = profile.chain
        pairs += [("chain.data", c.data), ("chain.clock", c.clock), ("chain.latch", c.latch)]
    for section, wires in (
        ("sensors", profile.sensors),
        ("buttons", profile.buttons),
        ("leds", profile.leds),
        ("status", profile.status),
    ):
        pairs += [(k, w) for k, w in _keyed(section, wires).items() if isinstance(w, int)]
    return pairs
