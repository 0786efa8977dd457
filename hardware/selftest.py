"""The wiring self-test: walk the builder through the board and name each fault with its pin.

It lights every LED in turn and asks which light is lit (dead, stuck and crossed LEDs), asks for a
magnet on every point in turn while showing the live sensor state (dead, stuck and crossed
sensors), and asks for each button. The person is a :class:`Builder`: :class:`TerminalBuilder`
on the command line (``morris selftest``), :class:`ScriptedBuilder` on a simulated board.

>>> from hardware.simulated_board import SimulatedBoard, miswire
>>> from hardware.profiles import load_profile
>>> profile = load_profile("shift-register")
>>> sim = SimulatedBoard(profile, wiring=miswire(profile, sensors=[("a7", "d7")]))
>>> report = run_selftest(sim.device, ScriptedBuilder(sim), wait=sim.wait)
>>> [f.kind for f in report.faults]
['sensors crossed', 'sensors crossed']

What it says is English until :func:`hardware.words.set_translation` gives it a catalog
(``morris selftest`` hands it the board's). A fault's :attr:`Fault.kind` stays the English id;
it is translated where it is shown.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from hardware.words import N_, _, ngettext
from morris_device import POINT_NAMES, ButtonName, ButtonPress, Signal, StatusLight

if TYPE_CHECKING:
    from hardware.board import GpioBoard
    from hardware.simulated_board import SimulatedBoard

logger = logging.getLogger(__name__)

__all__ = [
    "Builder",
    "Fault",
    "ScriptedBuilder",
    "SelftestReport",
    "TerminalBuilder",
    "demo_miswired_board",
    "render_board",
    "run_selftest",
]

#: Long enough for a blink-free LED to be seen (and decoded on a simulated board).
LED_SETTLE = 1.1


#: The kinds of fault (:attr:`Fault.kind`), marked for the catalogs.
FAULT_KINDS = (
    N_("LED stuck on"),
    N_("LED dead"),
    N_("LEDs crossed"),
    N_("LED short"),
    N_("sensor stuck"),
    N_("sensor dead"),
    N_("sensors crossed"),
    N_("sensor short"),
    N_("button dead"),
    N_("buttons crossed"),
)


@dataclass(frozen=True)
class Fault:
    """One wiring fault: what (``kind``, one of :data:`FAULT_KINDS`), where (``name``) and which
    pin to check (``detail``, in the language of the test)."""

    kind: str
    name: str
    detail: str

    def __str__(self) -> str:
        # TRANSLATORS: a wiring fault: its kind ("LED dead"), the point or button, the detail.
        return _("{kind} at {name}: {detail}").format(
            kind=_(self.kind), name=self.name, detail=self.detail
        )


@dataclass
class SelftestReport:
    """What the self-test found."""

    faults: list[Fault] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether no fault was found."""
        return not self.faults

    def format(self) -> str:
        """A human-readable summary, one fault per line."""
        if self.ok:
            checked = ", ".join(_(part) for part in self.checked)
            return _("All good: {checked} checked, no fault found.").format(checked=checked)
        n = len(self.faults)
        lines = [ngettext("{n} fault found:", "{n} faults found:", n).format(n=n)]
        lines += [f"  - {fault}" for fault in self.faults]
        return "\n".join(lines)


class Builder(Protocol):
    """The person at the board, as the self-test talks to them."""

    def say(self, text: str) -> None:
        """Tell the builder something."""
        ...

    def lit(self) -> set[str]:
        """Ask which lights are lit: point names and status light names (``"turn"``, ...)."""
        ...

    def place(self, point: str) -> bool:
        """Ask for a magnet on ``point``; return False if the builder skips the point."""
        ...

    def lift(self, point: str) -> None:
        """Ask the builder to take the magnet away again."""
        ...

    def press(self, button: ButtonName) -> None:
        """Ask the builder to press a button (the self-test then waits for it)."""
        ...


_LIGHT_NAMES = {*POINT_NAMES, *(s.value for s in StatusLight)}


class TerminalBuilder:
    """A builder at a terminal: prompts through ``ask`` (``input``), messages through ``tell``."""

    def __init__(
        self,
        ask: Callable[[str], str] = input,
        tell: Callable[[str], None] = print,
    ) -> None:
        self.ask = ask
        self.tell = tell

    def say(self, text: str) -> None:
        self.tell(text)

    def lit(self) -> set[str]:
        while True:
            answer = self.ask(
                # TRANSLATORS: the names (a7, turn, thinking, error, game_over) are typed as
                # they are.
                _(
                    "Which lights are lit? (points like a7, or turn/thinking/error/game_over; "
                    "Enter for none): "
                )
            )
            names = {n.lower() for n in answer.replace(",", " ").split()}
            unknown = names - _LIGHT_NAMES
            if not unknown:
                return names
            self.tell(_("Unknown names: {names}").format(names=", ".join(sorted(unknown))))

    def place(self, point: str) -> bool:
        # TRANSLATORS: "s" is typed as it is.
        question = _("Put a magnet on {point} (lit if its LED works), then Enter (s: skip): ")
        answer = self.ask(question.format(point=point))
        return answer.strip().lower() != "s"

    def lift(self, point: str) -> None:
        self.ask(_("Take the magnet off {point}, then Enter: ").format(point=point))

    def press(self, button: ButtonName) -> None:
        # TRANSLATORS: {button} is the button's name as the profile has it (new_game, hint).
        self.tell(_("Press the {button} button now.").format(button=button.value))


class ScriptedBuilder:
    """A builder on a :class:`~hardware.simulated_board.SimulatedBoard` who does as asked,
    perfectly."""

    def __init__(self, sim: SimulatedBoard) -> None:
        self.sim = sim
        #: Everything the self-test said.
        self.messages: list[str] = []

    def say(self, text: str) -> None:
        self.messages.append(text)

    def lit(self) -> set[str]:
        return {n.value if isinstance(n, StatusLight) else n for n in self.sim.lit()}

    def place(self, point: str) -> bool:
        self.sim.place(point)
        return True

    def lift(self, point: str) -> None:
        self.sim.lift(point)

    def press(self, button: ButtonName) -> None:
        self.sim.click(button, hold=0.2)


_BOARD_ART = """\
a7----------d7----------g7
|           |           |
|   b6------d6------f6  |
|   |       |       |   |
|   |   c5--d5--e5  |   |
|   |   |       |   |   |
a4--b4--c4      e4--f4--g4
|   |   |       |   |   |
|   |   c3--d3--e3  |   |
|   |       |       |   |
|   b2------d2------f2  |
|           |           |
a1----------d1----------g1"""


def render_board(sensed: Iterable[str]) -> str:
    """The board in ASCII with ``##`` on every point where a piece is sensed."""
    text = _BOARD_ART
    for point in set(sensed):
        text = text.replace(point, "##")
    return text


def run_selftest(
    device: GpioBoard,
    builder: Builder,
    *,
    wait: Callable[[float], None],
    settle: float = 0.3,
    button_timeout: float = 10.0,
    leds: bool = True,
    sensors: bool = True,
    buttons: bool = True,
) -> SelftestReport:
    """Walk the builder through the board; return the faults found.

    ``wait(seconds)`` lets time pass while the device is polled (a sleep beside a
    :class:`~hardware.runner.BoardRunner`, or :meth:`SimulatedBoard.wait`).
    """
    report = SelftestReport()
    if leds:
        _check_leds(device, builder, wait, report)
    if sensors:
        _check_sensors(device, builder, wait, settle, report)
    if buttons and device.profile.buttons:
        _check_buttons(device, builder, wait, button_timeout, report)
    device.show({})
    builder.say(report.format())
    return report


def _all_dark(device: GpioBoard) -> None:
    device.show({})
    for light in StatusLight:
        device.set_status(light, Signal.OFF)


def _check_leds(
    device: GpioBoard, builder: Builder, wait: Callable[[float], None], report: SelftestReport
) -> None:
    profile = device.profile
    builder.say(_("LED test: I light one LED at a time; tell me which light you see."))
    _all_dark(device)
    wait(LED_SETTLE)
    stuck = builder.lit()
    for name in sorted(stuck):
        wire = profile.leds.get(name) or profile.status.get(StatusLight(name))
        where = profile.describe_output(wire) if wire is not None else _("not in the profile")
        detail = _("lit with every output off; {where}").format(where=where)
        report.faults.append(Fault("LED stuck on", name, detail))
    targets: list[str] = [*POINT_NAMES, *(s.value for s in profile.status)]
    for name in targets:
        if name in stuck:
            continue  # already reported
        is_point = name in profile.leds
        if is_point:
            device.show({name: Signal.ON})
            wire = profile.leds[name]
        else:
            device.show({})
            device.set_status(StatusLight(name), Signal.ON)
            wire = profile.status[StatusLight(name)]
        wait(LED_SETTLE)
        seen = builder.lit() - stuck
        if not is_point:
            device.set_status(StatusLight(name), Signal.OFF)
        where = profile.describe_output(wire)
        if seen == {name}:
            continue
        if not seen:
            detail = _("does not light; check {where}").format(where=where)
            report.faults.append(Fault("LED dead", name, detail))
        elif name not in seen:
            other = sorted(seen)
            detail = _("lights {points} instead; check {where} against the LED at {point}").format(
                points=", ".join(other), where=where, point=other[0]
            )
            report.faults.append(Fault("LEDs crossed", name, detail))
        else:
            extra = sorted(seen - {name})
            detail = _("also lights {points}; check {where}").format(
                points=", ".join(extra), where=where
            )
            report.faults.append(Fault("LED short", name, detail))
    device.show({})
    report.checked.append(N_("LEDs"))


def _check_sensors(
    device: GpioBoard,
    builder: Builder,
    wait: Callable[[float], None],
    settle: float,
    report: SelftestReport,
) -> None:
    profile = device.profile
    builder.say(_("Sensor test: take every piece off the board."))
    _all_dark(device)
    wait(settle)
    stuck = set(device.sensors())
    builder.say(render_board(stuck))
    for name in sorted(stuck):
        where = profile.describe_input(profile.sensors[name])
        detail = _("reads a piece on an empty board; {where}").format(where=where)
        report.faults.append(Fault("sensor stuck", name, detail))
    for name in POINT_NAMES:
        if name in stuck:
            continue
        device.show({name: Signal.ON})
        if not builder.place(name):
            continue
        wait(settle)
        seen = set(device.sensors()) - stuck
        builder.say(render_board(seen))
        builder.lift(name)
        wait(settle)
        where = profile.describe_input(profile.sensors[name])
        if seen == {name}:
            continue
        if not seen:
            detail = _("reads nothing; check {where}").format(where=where)
            report.faults.append(Fault("sensor dead", name, detail))
        elif name not in seen:
            other = sorted(seen)
            other_where = profile.describe_input(profile.sensors[other[0]])
            detail = _("a piece here reads as {points}; check {where} against {other}").format(
                points=", ".join(other), where=where, other=other_where
            )
            report.faults.append(Fault("sensors crossed", name, detail))
        else:
            extra = sorted(seen - {name})
            detail = _("also reads {points} (a missing diode or a short); check {where}").format(
                points=", ".join(extra), where=where
            )
            report.faults.append(Fault("sensor short", name, detail))
    device.show({})
    report.checked.append(N_("sensors"))


def _check_buttons(
    device: GpioBoard,
    builder: Builder,
    wait: Callable[[float], None],
    timeout: float,
    report: SelftestReport,
) -> None:
    profile = device.profile
    presses: list[ButtonPress] = []
    previous = device.when_pressed
    device.when_pressed = presses.append
    try:
        for button in profile.buttons:
            presses.clear()
            builder.press(button)
            waited = 0.0
            while not presses and waited < timeout:
                wait(0.1)
                waited += 0.1
            wait(0.5)  # let it be released
            where = profile.describe_input(profile.buttons[button])
            got = {p.button for p in presses}
            if got == {button}:
                continue
            if not got:
                detail = _("no press within {seconds} s; {where}").format(
                    seconds=f"{timeout:g}", where=where
                )
                report.faults.append(Fault("button dead", button.value, detail))
            else:
                names = ", ".join(sorted(b.value for b in got))
                detail = _("reads as {names}; check {where}").format(names=names, where=where)
                report.faults.append(Fault("buttons crossed", button.value, detail))
    finally:
        device.when_pressed = previous
    report.checked.append(N_("buttons"))


def demo_miswired_board(profile_name: str = "shift-register", seed: int = 0) -> SimulatedBoard:
    """A simulated board built with deliberate faults, for ``morris selftest --sim --miswired``.

    Sensors a7/d7 and LEDs c5/e5 swapped, sensor g1 dead, sensor b2 stuck on, LED f4 dead.
    """
    from hardware.profiles import load_profile
    from hardware.simulated_board import SimulatedBoard, miswire

    profile = load_profile(profile_name)
    wiring = miswire(profile, sensors=[("a7", "d7")], leds=[("c5", "e5")])
    sim = SimulatedBoard(profile, wiring=wiring, seed=seed)
    sim.set_dead("g1")
    sim.set_stuck("b2")
    sim.set_led_fault("f4", False)
    return sim
