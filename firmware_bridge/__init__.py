"""The board behind a microcontroller, linked to the Pi over USB serial.

A Raspberry Pi Pico under the board scans the sensors and drives the LEDs (the firmware is in
``firmware_bridge/firmware``); :class:`SerialBoard` is the Pi's end and offers the same
``morris_device.BoardDevice`` as the GPIO backends. The protocol is in PROTOCOL.md. Importing
it loads no gpiozero: it shares only :mod:`morris_device` with :mod:`hardware`.

>>> from firmware_bridge import SerialBoard, find_device   # doctest: +SKIP
>>> board = SerialBoard(find_device())                      # doctest: +SKIP
"""

from firmware_bridge.board import SerialBoard
from firmware_bridge.discovery import MICROPYTHON_PID, PICO_VID, find_device
from firmware_bridge.exc import (
    BridgeError,
    CRCError,
    DeviceNotFoundError,
    FrameError,
    HandshakeTimeout,
    LinkError,
    PayloadError,
    ProtocolVersionError,
    RemoteError,
)
from firmware_bridge.handlers import BUTTONS, FirmwareInfo
from firmware_bridge.lights import STATUS_LIGHT_ORDER
from firmware_bridge.linkstate import LinkState, LinkStats

__all__ = [
    "BUTTONS",
    "MICROPYTHON_PID",
    "PICO_VID",
    "STATUS_LIGHT_ORDER",
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
    "ProtocolVersionError",
    "RemoteError",
    "SerialBoard",
    "find_device",
]
