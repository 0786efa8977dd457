"""The exceptions of :mod:`hardware`: one root, leaves that also inherit a builtin.

The errors every backend shares (:class:`morris_device.UnknownPoint`,
:class:`morris_device.BoardClosed`) live in :mod:`morris_device`; :class:`HardwareError` derives
from :class:`morris_device.DeviceError` like them.
"""

from __future__ import annotations

from morris_device import DeviceError


class HardwareError(DeviceError):
    """Root of every error raised by :mod:`hardware` itself."""


class ProfileError(HardwareError, ValueError):
    """A wiring profile is malformed; the message names the file and the key."""
