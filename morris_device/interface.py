"""The small board interface the daemon drives, whatever sits under the board.

Both the GPIO wirings of :mod:`hardware` and the microcontroller link of :mod:`firmware_bridge`
implement :class:`BoardDevice`, so the daemon never knows which one it talks to.

The device layer knows points by *name* (``"a1"`` .. ``"g7"``), sensors, LEDs and buttons; it knows
nothing of the rules. Times are floats in seconds from an injectable clock (``time.monotonic`` on a
real board, a :class:`morris_device.VirtualClock` in tests and in the simulator).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol, Self

from morris_device.events import ButtonPress, SensorReading
from morris_device.exc import BoardClosed
from morris_device.signals import Signal, StatusLight

__all__ = ["BoardBase", "BoardDevice"]


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
    and makes every board a context manager.
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
        """Raise :class:`morris_device.BoardClosed` if the board is closed."""
        if self._closed:
            raise BoardClosed(f"{type(self).__name__} is closed")

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
