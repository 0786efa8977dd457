"""What a board reports: the sensed pieces and the buttons pressed, each with its time.

Times are floats in seconds from the board's clock (``time.monotonic`` on a real board, a
:class:`morris_device.VirtualClock` in tests and in the simulator).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["ButtonName", "ButtonPress", "SensorReading"]


class ButtonName(str, enum.Enum):  # noqa: UP042 (StrEnum would change str())
    """The buttons beside the board."""

    NEW = "new"
    TAKEBACK = "takeback"
    HINT = "hint"
    MODE = "mode"


@dataclass(frozen=True)
class SensorReading:
    """The points where a piece is sensed, at a time."""

    sensed: frozenset[str]
    timestamp: float


@dataclass(frozen=True)
class ButtonPress:
    """A button pressed at a time."""

    button: ButtonName
    timestamp: float
