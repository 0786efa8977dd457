"""The physical board through gpiozero: sensors, point LEDs, status LEDs and buttons.

Build a board from a wiring profile with :func:`open_board`; run it in real time with
:class:`hardware.runner.BoardRunner`, or in virtual time on :class:`hardware.sim.SimulatedBoard`.
"""

from hardware.board import GpioBoard, open_board
from hardware.exc import BoardClosed, HardwareError, ProfileError, UnknownPoint
from hardware.interface import (
    BLINK_TIMING,
    POINTS,
    BoardBase,
    BoardDevice,
    ButtonName,
    ButtonPress,
    SensorReading,
    Signal,
    StatusLight,
    signal_level,
)
from hardware.profiles import DEFAULT_PROFILE, Profile, load_profile

__all__ = [
    "BLINK_TIMING",
    "DEFAULT_PROFILE",
    "POINTS",
    "BoardBase",
    "BoardClosed",
    "BoardDevice",
    "ButtonName",
    "ButtonPress",
    "GpioBoard",
    "HardwareError",
    "Profile",
    "ProfileError",
    "SensorReading",
    "Signal",
    "StatusLight",
    "UnknownPoint",
    "load_profile",
    "open_board",
    "signal_level",
]
