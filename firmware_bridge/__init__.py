"""The board behind a microcontroller, linked to the Pi over USB serial.

A Raspberry Pi Pico under the board scans the sensors and drives the LEDs (the firmware is in
``firmware_bridge/firmware``); :class:`SerialBoard` is the Pi's end and offers the same
``hardware.interface.BoardDevice`` as the GPIO backends. The protocol is in PROTOCOL.md.

>>> from firmware_bridge import SerialBoard, find_device   # doctest: +SKIP
>>> board = SerialBoard(find_device())                      # doctest: +SKIP
"""

from firmware_bridge.board import (
    BUTTONS,
    STATUS_LIGHTS,
    FirmwareInfo,
    LinkState,
    LinkStats,
    SerialBoard,
)
from firmware_bridge.discovery import MICROPYTHON_PID, PICO_VID, find_device
from firmware_bridge.exc import (
    BridgeError,
    CRCError,
    DeviceNotFoundError,
    FrameError,
    HandshakeTimeout,
    LinkError,
    PayloadError,
    PointError,
    ProtocolVersionError,
    RemoteError,
)

__all__ = [
    "BUTTONS",
    "MICROPYTHON_PID",
    "PICO_VID",
    "STATUS_LIGHTS",
    "BridgeError",
    "CRCError",
    "DeviceNotFoundError",
    "FirmwareInfo",
    "FrameError",
    "HandshakeTimeout",
    "LinkError",
    "LinkState",
    "LinkStats",
    "PayloadError",
    "PointError",
    "ProtocolVersionError",
    "RemoteError",
    "SerialBoard",
    "find_device",
]
