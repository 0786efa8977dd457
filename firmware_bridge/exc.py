"""Errors of the serial board link: one root, a base per subsystem, leaves that are builtins too."""

from __future__ import annotations

from morris_device import DeviceError


class BridgeError(DeviceError):
    """Root of every error raised by :mod:`firmware_bridge` itself.

    A bad point name is :class:`morris_device.UnknownPoint`, the error every backend shares.
    """


# --- frames and payloads (what arrived was malformed) ---------------------------------------


class FrameError(BridgeError, ValueError):
    """A frame could not be decoded; the message names the problem."""

    def __init__(self, message: str, code: int = 0) -> None:
        super().__init__(message)
        #: The protocol's error code (``protocol.E_*``), 0 if none applies.
        self.code = code


class CRCError(FrameError):
    """A frame's CRC did not match its contents."""


class PayloadError(FrameError):
    """A frame of a known type carried a payload too short or out of range."""


class RemoteError(BridgeError, RuntimeError):
    """The device reported an error in an ERROR frame."""

    def __init__(self, message: str, code: int, ref_type: int) -> None:
        super().__init__(message)
        self.code = code
        self.ref_type = ref_type


# --- the link (whether we can talk at all) ---------------------------------------------------


class LinkError(BridgeError, ConnectionError):
    """The serial link could not be opened or was lost."""


class HandshakeTimeout(LinkError, TimeoutError):
    """The device did not answer with HELLO and a snapshot in time."""


class ProtocolVersionError(LinkError, ValueError):
    """The device speaks a protocol major version this host does not."""


class DeviceNotFoundError(BridgeError, LookupError):
    """No board microcontroller is plugged in (no matching USB VID/PID or by-id link)."""
