"""A simulated board: the real wiring code on gpiozero's MockFactory, with the board emulated.

:class:`SimulatedBoard` builds a :class:`~hardware.board.GpioBoard` on a
:class:`~gpiozero.pins.mock.MockFactory` whose pins are wired into a
:class:`~hardware.circuit.BoardCircuit` (the magnets, switches, diodes, LEDs and 74HC595
chips), and is the person at that board: it places and lifts pieces, presses buttons, breaks
sensors and LEDs, and reads the LEDs back as an eye does. :func:`miswire` describes a board
built with some wires swapped.

Time is virtual. :meth:`SimulatedBoard.advance` polls the device at every deadline up to a time.
Decoding needs :data:`~hardware.leddecoder.DECODE_WINDOW` (one slow blink period, 1 s) of polls
after the last change of an LED's signal: until then a blinking LED may read as its current level
(lit: a blink starts lit). What the person does at one instant happens in the order called.

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

import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from pathlib import Path
from typing import Self

from gpiozero.pins.mock import MockFactory

from hardware.board import GpioBoard
from hardware.circuit import BoardCircuit, EmulatedPin
from hardware.profiles import DEFAULT_PROFILE, Profile, load_profile
from morris_device import POINT_NAMES, ButtonName, Signal, StatusLight, check_point
from morris_device.clock import VirtualClock

__all__ = ["SimulatedBoard", "miswire"]


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
        self.circuit = BoardCircuit(
            wiring or self.profile,
            self.factory,
            time=self.clock,
            rng=random.Random(seed),
            diodes=diodes,
        )
        try:
            self.device = GpioBoard(self.profile, pin_factory=self.factory, clock=self.clock)
        except BaseException:
            self.circuit.close()
            raise
        # From now on the emulated circuit lives at the device's time (the poll in progress).
        self.circuit.time = lambda: self.device.now

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
        self.circuit.set_magnet(check_point(name), True, self._at())

    def lift(self, name: str) -> None:
        """Take the piece off a point, now."""
        self.circuit.set_magnet(check_point(name), False, self._at())

    def press(self, button: ButtonName | str) -> None:
        """Press (and hold) a button, now."""
        self.circuit.set_magnet(("button", ButtonName(button)), True, self._at())

    def release(self, button: ButtonName | str) -> None:
        """Release a button, now."""
        self.circuit.set_magnet(("button", ButtonName(button)), False, self._at())

    def click(self, button: ButtonName | str, hold: float = 0.1) -> None:
        """Press a button now and release it ``hold`` seconds later."""
        key = ("button", ButtonName(button))
        at = self._at()
        self.circuit.set_magnet(key, True, at)
        self.circuit.set_magnet(key, False, at + hold)

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
                self.circuit.set_magnet(name, True, start + (i - 0.5) * step)
            if i < len(path) - 1:
                self.circuit.set_magnet(name, False, start + (i + 0.5) * step)
        return start + (len(path) - 1) * step

    def on_wood(self) -> frozenset[str]:
        """Where magnets are now (the truth, not the reading)."""
        at = self._at()
        return frozenset(p for p in POINT_NAMES if self.circuit.has_magnet(p, at))

    # -- noise and faults ------------------------------------------------------------------

    def set_bounce(self, duration: float, name: str | ButtonName | None = None) -> None:
        """Make a sensor (or button, or every input) bounce for ``duration`` s after changes."""
        self.circuit.set_bounce(duration, None if name is None else self._input_key(name))

    def set_flicker(self, name: str, dropout: float = 0.3) -> None:
        """A weak magnet on ``name``: each read drops out with probability ``dropout`` (0: off)."""
        self.circuit.set_flicker(check_point(name), dropout)

    def set_stuck(self, name: str) -> None:
        """The sensor of ``name`` reads a piece whether there is one or not."""
        self.circuit.force(check_point(name), True)

    def set_dead(self, name: str) -> None:
        """The sensor of ``name`` never reads a piece."""
        self.circuit.force(check_point(name), False)

    def repair(self, name: str) -> None:
        """Undo :meth:`set_stuck`, :meth:`set_dead` and :meth:`set_flicker` on ``name``."""
        self.circuit.force(check_point(name), None)
        self.circuit.set_flicker(name, 0.0)

    def set_led_fault(self, name: str | StatusLight, lit: bool | None) -> None:
        """Make an LED dead (``False``), stuck on (``True``) or working again (``None``)."""
        self.circuit.set_led_fault(self._output_key(name), lit)

    # -- what a person sees ----------------------------------------------------------------

    def led_signal(self, name: str) -> Signal:
        """The signal the LED of a point showed over the last second (decoded from the pins)."""
        return self.circuit.signal(check_point(name), self.now)

    def lights(self) -> dict[str, Signal]:
        """Every point's decoded LED signal."""
        now = self.now
        return {p: self.circuit.signal(p, now) for p in POINT_NAMES}

    def status_signal(self, light: StatusLight) -> Signal:
        """The decoded signal of a status LED (``OFF`` if the build has none)."""
        return self.circuit.signal(("status", StatusLight(light)), self.now)

    def lit(self) -> set[str | StatusLight]:
        """What a person sees lit (steady or blinking) now: points and status lights."""
        names: list[str | StatusLight] = [*POINT_NAMES, *StatusLight]
        now = self.now
        signal = self.circuit.signal
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
        self.circuit.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
