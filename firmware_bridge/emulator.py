"""The board's microcontroller emulated on CPython: its pins, and the wooden board wired to them.

:class:`EmulatedPico` offers stand-ins for MicroPython's ``machine`` and ``neopixel`` wired to an
emulated board, so the real firmware (:mod:`firmware_bridge.firmware.boardfw`) runs on CPython.
The stand-ins model the wiring, not just the API: the matrix scanner really drives ring pins and
reads position pins, and a 74HC595 chain really shifts and latches, so a wiring bug in the
firmware shows up here. :class:`MemoryPort` is a serial port in memory for driving the firmware
tick by tick; :class:`firmware_bridge.ptydevice.PtyDevice` serves it on a pseudo-terminal.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from typing import Any

from firmware_bridge.firmware.config import CONFIG

__all__ = ["Color", "EmulatedPico", "MemoryPort"]

logger = logging.getLogger(__name__)

#: An LED's colour, (red, green, blue).
Color = tuple[int, int, int]


class EmulatedPico:
    """A Pico's pins and the wooden board wired to them: pieces, buttons and what the LEDs show.

    :attr:`machine` and :attr:`neopixel` stand in for the MicroPython modules of those names;
    give them to :func:`firmware_bridge.firmware.boardfw.build`.
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        self.config: dict[str, Any] = dict(CONFIG if config is None else config)
        self._lock = threading.Lock()
        self._on_wood: frozenset[int] = frozenset()
        self._pressed: frozenset[int] = frozenset()
        self._outputs: dict[Any, int] = {}
        self._rings = {p: i for i, p in enumerate(self.config["ring_pins"])}
        self._positions = {p: i for i, p in enumerate(self.config["position_pins"])}
        self._buttons = {p: i for i, p in enumerate(self.config.get("button_pins") or ())}
        self._width = len(self.config["position_pins"])
        self._active = 1 if self.config.get("sensor_active_high", True) else 0
        hc595: tuple[Any, Any, Any] = self.config.get("hc595_pins") or (None, None, None)
        self._sr_data, self._sr_clock, self._sr_latch = hc595
        self._shift: list[int] = []
        #: What the LED chain shows: RGB per LED (a 74HC595 chain shows (1, 1, 1) for lit).
        self.leds: list[Color] = []
        #: How many times the LED chain was written (the firmware writes only on a change).
        self.led_writes = 0
        self.machine = _Machine(self)
        self.neopixel = _NeoPixelModule(self)

    # --- the person at the board ----------------------------------------------------------

    def set_on_wood(self, points: Iterable[int]) -> None:
        """Put pieces on exactly these point indices, all at once."""
        with self._lock:
            self._on_wood = frozenset(points)

    def place(self, point: int) -> None:
        with self._lock:
            self._on_wood = self._on_wood | {point}

    def lift(self, point: int) -> None:
        with self._lock:
            self._on_wood = self._on_wood - {point}

    @property
    def on_wood(self) -> frozenset[int]:
        return self._on_wood

    def press(self, button: int) -> None:
        with self._lock:
            self._pressed = self._pressed | {button}

    def release(self, button: int) -> None:
        with self._lock:
            self._pressed = self._pressed - {button}

    def lit(self, index: int) -> bool:
        """Whether LED ``index`` of the chain is lit now."""
        with self._lock:
            return index < len(self.leds) and self.leds[index] != (0, 0, 0)

    # --- the pins -------------------------------------------------------------------------

    def _write(self, pin_id: Any, value: int) -> None:
        with self._lock:
            old = self._outputs.get(pin_id, 0)
            self._outputs[pin_id] = value
            if value and not old:
                if pin_id == self._sr_clock:
                    self._shift.insert(0, self._outputs.get(self._sr_data, 0))
                elif pin_id == self._sr_latch:
                    count = len(self.config["ring_pins"]) * self._width + self.config.get(
                        "status_leds", 0
                    )
                    bits = (self._shift + [0] * count)[:count]
                    self.leds = [(1, 1, 1) if b else (0, 0, 0) for b in bits]
                    self.led_writes += 1
                    self._shift = []

    def _read(self, pin_id: Any) -> int:
        with self._lock:
            if pin_id in self._buttons:
                return 0 if self._buttons[pin_id] in self._pressed else 1
            if pin_id in self._positions:
                col = self._positions[pin_id]
                for pin, ring in self._rings.items():
                    driven = self._outputs.get(pin, 1 - self._active) == self._active
                    if driven and ring * self._width + col in self._on_wood:
                        return self._active
                return 1 - self._active
            return self._outputs.get(pin_id, 0)

    def power_cycle(self) -> None:
        """Power lost and back: every output low, the LEDs dark; the pieces stay where they are."""
        with self._lock:
            self._outputs.clear()
            self._shift = []
            self.leds = []

    def _show(self, pixels: list[Color]) -> None:
        with self._lock:
            self.leds = list(pixels)
            self.led_writes += 1


class _Machine:
    """Stand-in for MicroPython's ``machine`` module (only what the firmware uses)."""

    def __init__(self, board: EmulatedPico) -> None:
        outer = board

        class Pin:
            IN = 0
            OUT = 1
            PULL_UP = 1
            PULL_DOWN = 2

            def __init__(
                self, pin_id: Any, mode: int = -1, pull: int = -1, *, value: int | None = None
            ) -> None:
                self.id = pin_id
                self.mode = mode
                if value is not None:
                    outer._write(pin_id, value)

            def value(self, v: int | None = None) -> int | None:
                if v is None:
                    return outer._read(self.id)
                outer._write(self.id, 1 if v else 0)
                return None

            def on(self) -> None:
                outer._write(self.id, 1)

            def off(self) -> None:
                outer._write(self.id, 0)

        self.Pin = Pin

    @staticmethod
    def reset() -> None:
        raise SystemExit("machine.reset()")

    @staticmethod
    def bootloader() -> None:
        raise SystemExit("machine.bootloader()")


class _NeoPixelModule:
    """Stand-in for MicroPython's ``neopixel`` module."""

    def __init__(self, board: EmulatedPico) -> None:
        outer = board

        class NeoPixel:
            def __init__(self, pin: Any, n: int) -> None:
                self.n = n
                self._pixels: list[Color] = [(0, 0, 0)] * n

            def __setitem__(self, i: int, color: Color) -> None:
                self._pixels[i] = tuple(color)  # type: ignore[assignment]

            def __getitem__(self, i: int) -> Color:
                return self._pixels[i]

            def __len__(self) -> int:
                return self.n

            def write(self) -> None:
                outer._show(self._pixels)

        self.NeoPixel = NeoPixel


class MemoryPort:
    """An in-memory port for driving the firmware by hand: ``feed`` what the host sends."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.outgoing = bytearray()

    def feed(self, data: bytes) -> None:
        self.incoming += data

    def read(self) -> bytes:
        data = bytes(self.incoming)
        self.incoming.clear()
        return data

    def write(self, data: bytes) -> None:
        self.outgoing += data

    def take(self) -> bytes:
        data = bytes(self.outgoing)
        self.outgoing.clear()
        return data
