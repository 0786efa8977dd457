"""The exceptions of :mod:`hardware`: one root, leaves that also inherit a builtin."""

from __future__ import annotations


class HardwareError(Exception):
    """Root of every error raised by :mod:`hardware`."""


class ProfileError(HardwareError, ValueError):
    """A wiring profile is malformed; the message names the file and the key."""


class BoardClosed(HardwareError, RuntimeError):
    """An operation was attempted on a board that has been closed."""


class UnknownPoint(HardwareError, ValueError):
    """A point name that is not one of :data:`hardware.interface.POINTS`."""
