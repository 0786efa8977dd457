"""The small board interface the daemon drives, whatever sits under the board.

Both the GPIO wirings of :mod:`hardware` and the microcontroller link of :mod:`firmware_bridge`
implement :class:`BoardDevice`, so the daemon never knows which one it talks to.

The device layer knows points by *name* (``"a1"`` .. ``"g7"``), sensors, LEDs and buttons; it knows
nothing of the rules. Times are floats in seconds from an injectable clock (``time.monotonic`` on a
real board, a virtual clock in tests and in the simulator).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol, Self, runtime_checkable

#: The 24 points in matrix order: ``index = ring * 8 + position``; ring 0 is the outer square,
#: positions run clockwise from the top-left corner. A 3x8 matrix drives ring line ``index // 8``
#: and reads position line ``index % 8``.
POINTS: tuple[str, ...] = (
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4",
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4",
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4",
)  # fmt: skip


class Signal(str, enum.Enum):  # noqa: UP042 (StrEnum would change str())
    """What a point LED (or a status LED) shows. See the light language in docs/DESIGN.md."""

    OFF = "off"  # nothing to do here
    ON = "on"  # put a piece here
    SLOW = "slow"  # take the piece from here (slow blink)
    FAST = "fast"  # something is wrong here (fast blink)


#: Blink timing shared by every backend, in seconds: (period, time on within the period).
BLINK_TIMING: dict[Signal, tuple[float, float]] = {
    Signal.SLOW: (1.0, 0.5),
    Signal.FAST: (0.25, 0.125),
}


def signal_level(signal: Signal, now: float) -> bool:
    """Whether an LED showing ``signal`` is lit at time ``now`` (phases are locked to t = 0)."""
    if signal is Signal.ON:
        return True
    if signal is Signal.OFF:
        return False
    period, on_time = BLINK_TIMING[signal]
    return (now % period) < on_time


class StatusLight(str, enum.Enum):  # noqa: UP042 (StrEnum would change str())
    """The status LEDs beside the board."""

    TURN = "turn"  # lit while it is the person's turn (or white's turn in referee mode)
    THINKING = "thinking"  # the Pi is searching
    ERROR = "error"  # the board does not match the game, or a device fault
    GAME_OVER = "game_over"


class ButtonName(str, enum.Enum):  # noqa: UP042 (StrEnum would change str())
    """The buttons beside the board."""

    NEW = "new"
    TAKEBACK = "takeback"
    HINT = "hint"
    MODE = "mode"


@dataclass(frozen=True)
class SensorReading:
    """The points where a piece is sensed, at a time."""

    occupied: frozenset[str]
    timestamp: float


@dataclass(frozen=True)
class ButtonPress:
    """A button pressed at a time."""

    button: ButtonName
    timestamp: float


@runtime_checkable
class BoardDevice(Protocol):
    """What every board backend offers.

    Callbacks may be called from a device thread; the daemon queues them. ``poll`` is how time
    reaches the device: it performs what is due at ``now`` (a matrix scan, a blink edge) and returns
    the time at which it next needs to be called. A real board runs it from a small driver thread
    (:class:`hardware.runner.BoardRunner`); the simulator calls it in virtual time.
    """

    #: Called with the full snapshot each time the (debounced) sensor state changes.
    when_changed: Callable[[SensorReading], None] | None
    #: Called when a button is pressed.
    when_pressed: Callable[[ButtonPress], None] | None

    def sensors(self) -> frozenset[str]:
        """The points where a piece is sensed now."""
        ...

    def show(self, lights: Mapping[str, Signal]) -> None:
        """Show a signal on each point LED; points not named are switched off."""
        ...

    def set_status(self, light: StatusLight, signal: Signal) -> None:
        """Show ``signal`` on one status LED (a missing status LED is ignored)."""
        ...

    def poll(self, now: float) -> float:
        """Do what is due at ``now``; return when to be called next."""
        ...

    def close(self) -> None:
        """Switch every LED off and release all pins. Safe to call twice."""
        ...


class BoardBase:
    """Shared plumbing for :class:`BoardDevice` implementations (no hardware here).

    It holds the callbacks, makes :meth:`close` idempotent (subclasses implement :meth:`_close`)
    and makes every board a context manager. :mod:`firmware_bridge` may inherit it too.
    """

    def __init__(self) -> None:
        self.when_changed: Callable[[SensorReading], None] | None = None
        self.when_pressed: Callable[[ButtonPress], None] | None = None
        self._closed = False

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has been called."""
        return self._closed

    def close(self) -> None:
        """Switch every LED off and release all pins. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self._close()

    def _close(self) -> None:
        """Release what the board holds; called once by :meth:`close`."""

    def _check_open(self) -> None:
        """Raise :class:`hardware.exc.BoardClosed` if the board is closed."""
        if self._closed:
            from hardware.exc import BoardClosed

            raise BoardClosed(f"{type(self).__name__} is closed")

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def check_point(name: str) -> str:
    """Return ``name`` if it is one of :data:`POINTS`; raise :class:`hardware.exc.UnknownPoint`."""
    if name not in _POINT_SET:
        from hardware.exc import UnknownPoint

        raise UnknownPoint(f"unknown point {name!r} (points are {', '.join(POINTS)})")
    return name


_POINT_SET = frozenset(POINTS)
