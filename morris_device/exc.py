"""The errors of the device layer: one root every backend's errors derive from.

:class:`DeviceError` is the root; :class:`hardware.exc.HardwareError` and
:class:`firmware_bridge.exc.BridgeError` derive from it, so a caller that drives "a board" can
catch every device fault in one clause. The leaves here are the errors every backend shares.
"""

from __future__ import annotations

__all__ = ["BoardClosed", "DeviceError", "UnknownPoint"]


class DeviceError(Exception):
    """Root of every error raised by a board backend (:mod:`hardware`, :mod:`firmware_bridge`)."""


class UnknownPoint(DeviceError, ValueError):
    """A point name that is not one of :data:`morris_device.POINT_NAMES`; the message names it."""


class BoardClosed(DeviceError, RuntimeError):
    """An operation was attempted on a board that has been closed."""
