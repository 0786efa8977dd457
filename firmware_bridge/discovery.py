"""Finding the board's microcontroller among the serial ports."""

from __future__ import annotations

import glob
import logging
import os

from serial.tools import list_ports

from firmware_bridge.exc import DeviceNotFoundError

logger = logging.getLogger(__name__)

#: Raspberry Pi's USB vendor id and MicroPython's product id on the RP2040.
PICO_VID = 0x2E8A
MICROPYTHON_PID = 0x0005
#: The name the udev rule in this package (99-morris-board.rules) gives the board.
STABLE_PATH = "/dev/morris-board"
BY_ID_DIR = "/dev/serial/by-id"


def find_device(
    vid: int = PICO_VID,
    pid: int = MICROPYTHON_PID,
    *,
    serial_number: str | None = None,
    stable_path: str | None = STABLE_PATH,
    by_id_dir: str = BY_ID_DIR,
    by_id_match: str = "MicroPython",
) -> str:
    """The path to open for the board, preferring names that survive a replug.

    In order: ``stable_path`` if it exists (the udev rule's link); a port with USB ``vid``/``pid``
    (and ``serial_number`` if given), as its ``/dev/serial/by-id`` link when there is one; a
    ``/dev/serial/by-id`` entry whose name contains ``by_id_match``. Raises
    :class:`~firmware_bridge.exc.DeviceNotFoundError` naming what was looked for.
    """
    if stable_path and os.path.exists(stable_path):
        return stable_path
    links = sorted(glob.glob(os.path.join(by_id_dir, "*")))
    matches = [
        port
        for port in list_ports.comports()
        if port.vid == vid
        and port.pid == pid
        and (serial_number is None or port.serial_number == serial_number)
    ]
    if len(matches) > 1:
        logger.warning(
            "%d boards with USB %04x:%04x; using %s (pass serial_number to choose)",
            len(matches), vid, pid, sorted(p.device for p in matches)[0],
        )  # fmt: skip
    for port in sorted(matches, key=lambda p: p.device):
        device = os.path.realpath(port.device)
        for link in links:
            if os.path.realpath(link) == device:
                return link
        return str(port.device)
    if serial_number is None:
        for link in links:
            if by_id_match and by_id_match in os.path.basename(link):
                return link
    raise DeviceNotFoundError(
        f"no board found: no {stable_path}, no serial port with USB id {vid:04x}:{pid:04x}"
        + (f" and serial number {serial_number!r}" if serial_number else "")
        + f", no {by_id_dir} entry matching {by_id_match!r}"
    )
