"""The physical board through gpiozero: sensors, point LEDs, status LEDs and buttons.

Build a board from a wiring profile with :func:`open_board`; run it in real time with
:class:`hardware.runner.BoardRunner`, or in virtual time on
:class:`hardware.simulated_board.SimulatedBoard`. The vocabulary it speaks (point names, signals,
:class:`~device.BoardDevice`) is :mod:`morris_device`'s.
"""

from hardware.board import GpioBoard, open_board
from hardware.exc import HardwareError, ProfileError
from hardware.profiles import DEFAULT_PROFILE, Profile, load_profile

__all__ = [
    "DEFAULT_PROFILE",
    "GpioBoard",
    "HardwareError",
    "Profile",
    "ProfileError",
    "load_profile",
    "open_board",
]
