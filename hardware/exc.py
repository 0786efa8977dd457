"""The exceptions of :mod:`hardware`: one root, leaves that also inherit a builtin.

The errors every backend shares (:class:`device.UnknownPoint`, :class:`device.BoardClosed`) live
in :mod:`device`; :class:`HardwareError` derives from :class:`device.DeviceError` like them.
"""

from __future__ import annotations

from device import DeviceError


class HardwareError(DeviceError):
    """Root of every error raised by :mod:`hardware` itself."""


class ProfileError(HardwareError, ValueError):
    """A wiring profile is malformed; the message names the file and the key."""
