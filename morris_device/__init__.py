"""The device vocabulary shared by every board backend, importing no gpiozero and no serial.

Point names in matrix order (:data:`POINT_NAMES`), the LED signals, their blink timing and the
per-LED blink phases every backend keeps (:class:`BlinkClock`), the
status lights and buttons, what a board reports (:class:`SensorReading`, :class:`ButtonPress`),
the interface every backend implements (:class:`BoardDevice`, :class:`BoardBase`) and the errors
root :class:`DeviceError`. The virtual clock of every simulation is :mod:`morris_device.clock`
(imported on its own: it holds a lock, and the pure referee imports this package for
:class:`Signal`).

The backends are :mod:`hardware` (GPIO through gpiozero) and :mod:`firmware_bridge` (a
microcontroller over USB serial); the daemon and the simulator import this package, never a
backend's copy of these names.
"""

from morris_device.events import ButtonName, ButtonPress, SensorReading
from morris_device.exc import BoardClosed, DeviceError, UnknownPoint
from morris_device.interface import BoardBase, BoardDevice
from morris_device.points import POINT_INDEX, POINT_NAMES, check_point, names_of
from morris_device.signals import (
    BLINK_TIMING,
    BlinkClock,
    Signal,
    StatusLight,
    next_blink_edge,
    signal_level,
)

__all__ = [
    "BLINK_TIMING",
    "POINT_INDEX",
    "POINT_NAMES",
    "BlinkClock",
    "BoardBase",
    "BoardClosed",
    "BoardDevice",
    "ButtonName",
    "ButtonPress",
    "DeviceError",
    "SensorReading",
    "Signal",
    "StatusLight",
    "UnknownPoint",
    "check_point",
    "names_of",
    "next_blink_edge",
    "signal_level",
]
