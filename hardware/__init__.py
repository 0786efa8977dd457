"""The physical board through gpiozero: sensors, point LEDs, status LEDs and buttons."""

from hardware.interface import (
    BLINK_TIMING,
    POINTS,
    BoardDevice,
    ButtonName,
    ButtonPress,
    SensorReading,
    Signal,
    StatusLight,
    signal_level,
)

__all__ = [
    "BLINK_TIMING",
    "POINTS",
    "BoardDevice",
    "ButtonName",
    "ButtonPress",
    "SensorReading",
    "Signal",
    "StatusLight",
    "signal_level",
]
