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
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hardware.exc import ProfileError
from hardware.kinds import InputKind, OutputKind, kind_of, wire_kinds
from morris_device import POINT_NAMES, ButtonName, StatusLight

__all__ = [
    "DEFAULT_PROFILE",
    "PROFILE_DIR",
    "Profile",
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


#: A wire names where one input or output is connected, in the notation of its kind
#: (:mod:`hardware.kinds`): a GPIO number, a :class:`~hardware.kinds.Crossing` of a matrix, a
#: :class:`~hardware.kinds.ChainOutput`...
Wire = Hashable


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
    #: The settings of each wiring block with a table of its own (``input_matrix``, ``chain``,
    #: ...), by table name: what its :class:`~hardware.kinds.WireKind` made of the table.
    tables: Mapping[str, Any] = field(default_factory=dict)
    sensors: Mapping[str, Wire] = field(default_factory=dict)
    leds: Mapping[str, Wire] = field(default_factory=dict)
    status: Mapping[StatusLight, Wire] = field(default_factory=dict)
    buttons: Mapping[ButtonName, Wire] = field(default_factory=dict)

    def replace(self, **changes: Any) -> Profile:
        """A copy with some fields replaced (used to build a miswired simulated board)."""
        return dataclasses.replace(self, **changes)

    def describe_input(self, wire: Wire) -> str:
        """Where to look for an input: ``"GPIO17"`` or ``"row outer (GPIO17) x column p0 ..."``."""
        kind = kind_of(wire, drives=False)
        return kind.describe(self.settings(kind), wire)

    def describe_output(self, wire: Wire) -> str:
        """Where to look for an output: a pin, a crossing of the LED matrix or a 595 output."""
        kind = kind_of(wire, drives=True)
        return kind.describe(self.settings(kind), wire)

    def settings(self, kind: InputKind | OutputKind) -> Any:
        """What ``kind`` made of its table in this profile (``None``: no such table)."""
        return None if kind.table is None else self.tables.get(kind.table)

    def wires(self, *, drives: bool) -> dict[Hashable, Wire]:
        """The wire of every output (``drives``) or input, keyed as the board keys them: a point
        name, ``("button", ButtonName)``, ``("status", StatusLight)``."""
        points = self.leds if drives else self.sensors
        wires: dict[Hashable, Wire] = {name: wire for name, wire in points.items()}
        if drives:
            wires.update({("status", s): w for s, w in self.status.items()})
        else:
            wires.update({("button", b): w for b, w in self.buttons.items()})
        return wires

    def input_blocks(self) -> list[tuple[InputKind, Any, dict[Hashable, Wire]]]:
        """Each input block to build: its kind, settings and wires (:meth:`wires` keys)."""
        return [(k, s, w) for k, s, w in self._blocks(drives=False) if isinstance(k, InputKind)]

    def output_blocks(self) -> list[tuple[OutputKind, Any, dict[Hashable, Wire]]]:
        """Each output block to build: its kind, settings and wires (:meth:`wires` keys)."""
        return [(k, s, w) for k, s, w in self._blocks(drives=True) if isinstance(k, OutputKind)]

    def _blocks(
        self, *, drives: bool
    ) -> list[tuple[InputKind | OutputKind, Any, dict[Hashable, Wire]]]:
        """A block for every kind whose table the profile has, and every kind with wires."""
        wires = self.wires(drives=drives)
        blocks = []
        for kind in wire_kinds():
            if kind.drives != drives:
                continue
            own = {key: w for key, w in wires.items() if kind.owns(w)}
            settings = self.settings(kind)
            if own or settings is not None:
                blocks.append((kind, settings, own))
        return blocks

    def pins(self) -> dict[int, str]:
        """Every GPIO the profile uses, mapped to the key that uses it."""
        used: dict[int, str] = {}
        for key, pin in _pin_keys(self):
            used[pin] = key
        return used


_TOP_KEYS = {
    "name", "description", "scan_hz", "idle_scan_hz", "debounce_scans", "refresh_hz",
    "allow_id_pins", "sensors", "leds", "status", "buttons",
}  # fmt: skip


def _top_keys() -> set[str]:
    """The keys a profile may have: the fixed ones and the table of every wire kind."""
    return _TOP_KEYS | {kind.table for kind in wire_kinds() if kind.table is not None}


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
    """The profile's parser; each wire kind's part of it (:mod:`hardware.kinds`) is handed this
    object as its :class:`~hardware.kinds.ProfileReader`."""

    def __init__(self, data: Mapping[str, Any], source: str) -> None:
        self.data = data
        self.source = source
        #: The settings read from each wire kind's table so far.
        self.tables: dict[str, Any] = {}

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

    def wire(self, key: str, value: Any, *, drives: bool) -> Wire:
        """The wire ``value`` names, parsed by the kind whose notation it is in."""
        claimed = [k for k in wire_kinds() if not k.fallback and k.claims(value)]
        for kind in claimed:
            if kind.drives == drives:
                return kind.parse_wire(self, key, value, self.tables.get(kind.table or ""))
        if claimed:
            if drives:
                raise self.error(key, f"an output cannot be on {claimed[0].title} (it only reads)")
            raise self.error(key, f"an input cannot be on {claimed[0].title} (it only drives)")
        fallback = next(k for k in wire_kinds() if k.fallback and k.drives == drives)
        return fallback.parse_wire(self, key, value, None)

    def wires(
        self,
        section: str,
        names: list[str],
        *,
        required: bool,
        outputs: bool,
    ) -> dict[str, Wire]:
        table = self.table(section, self.data.get(section, {}))
        found: dict[str, Wire] = {}
        for raw_name, value in table.items():
            name = str(raw_name).lower()
            key = f"{section}.{raw_name}"
            if name not in names:
                raise self.error(key, f"unknown name (expected one of {', '.join(names)})")
            if name in found:
                raise self.error(key, f"{name} is named twice")
            found[name] = self.wire(key, value, drives=outputs)
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
        top_keys = _top_keys()
        for key in self.data:
            if key not in top_keys:
                raise self.error(str(key), f"unknown key (known: {', '.join(sorted(top_keys))})")
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
        for kind in wire_kinds():
            if kind.table is not None and kind.table in self.data:
                self.tables[kind.table] = kind.parse_table(self, self.data[kind.table])
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
            tables=dict(self.tables),
            sensors=sensors,
            leds=leds,
            status={StatusLight(k): w for k, w in status.items()},
            buttons={ButtonName(k): w for k, w in buttons.items()},
        )
        self.check_sharing(profile)
        return profile

    def check_sharing(self, profile: Profile) -> None:
        """No pin, crossing or chain output used twice; no block left incomplete."""
        seen: dict[int, str] = {}
        for key, pin in _pin_keys(profile):
            if pin in seen:
                raise self.error(key, f"duplicate pin GPIO{pin}: already used by {seen[pin]}")
            seen[pin] = key
        for drives in (False, True):
            wires = _keyed_wires(profile, drives=drives)
            places: dict[Wire, str] = {}
            for key, wire in wires.items():
                if wire in places:
                    raise self.error(key, f"wired to the same place as {places[wire]}")
                places[wire] = key
            for kind in wire_kinds():
                settings = profile.settings(kind)
                if kind.drives == drives and settings is not None:
                    own = {key: w for key, w in wires.items() if kind.owns(w)}
                    kind.check(self, settings, own)


def _keyed_wires(profile: Profile, *, drives: bool) -> dict[str, Wire]:
    """The wires of every output (``drives``) or input, keyed as the profile names them."""
    sections = (("leds", profile.leds), ("status", profile.status)) if drives else (
        ("sensors", profile.sensors), ("buttons", profile.buttons)
    )  # fmt: skip
    return {
        f"{section}.{getattr(k, 'value', k)}": w
        for section, wires in sections
        for k, w in wires.items()
    }


def _pin_keys(profile: Profile) -> list[tuple[str, int]]:
    """(key, pin) for every GPIO a profile uses, in profile order."""
    pairs: list[tuple[str, int]] = []
    for kind in wire_kinds():
        settings = profile.settings(kind)
        if kind.table is not None and settings is None:
            continue
        own = {k: w for k, w in _keyed_wires(profile, drives=kind.drives).items() if kind.owns(w)}
        pairs += kind.pins(settings, own)
    return pairs
