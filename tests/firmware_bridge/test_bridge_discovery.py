"""Finding the board: the udev name first, then USB VID/PID (as its by-id link), then by-id."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from firmware_bridge import DeviceNotFoundError, find_device


def _ports(monkeypatch: pytest.MonkeyPatch, *ports: SimpleNamespace) -> None:
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: list(ports))


def _port(
    device: str, vid: int = 0x2E8A, pid: int = 0x0005, serial: str = "E66"
) -> SimpleNamespace:
    return SimpleNamespace(device=device, vid=vid, pid=pid, serial_number=serial)


def test_udev_name_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stable = tmp_path / "morris-board"
    stable.touch()
    _ports(monkeypatch, _port("/dev/ttyACM0"))
    assert find_device(stable_path=str(stable)) == str(stable)


def test_vid_pid_match_prefers_its_by_id_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tty = tmp_path / "ttyACM1"
    tty.touch()
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    link = by_id / "usb-MicroPython_Board_in_FS_mode_E66-if00"
    os.symlink(tty, link)
    _ports(monkeypatch, _port("/dev/ttyUSB9", vid=0x0403, pid=0x6001), _port(str(tty)))
    found = find_device(stable_path=None, by_id_dir=str(by_id))
    assert found == str(link)


def test_serial_number_selects_among_boards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ports(monkeypatch, _port("/dev/ttyACM0", serial="A"), _port("/dev/ttyACM1", serial="B"))
    assert (
        find_device(stable_path=None, by_id_dir=str(tmp_path), serial_number="B") == "/dev/ttyACM1"
    )


def test_by_id_fallback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "usb-MicroPython_Board_in_FS_mode_X-if00").touch()
    _ports(monkeypatch)
    found = find_device(stable_path=None, by_id_dir=str(tmp_path))
    assert found.endswith("usb-MicroPython_Board_in_FS_mode_X-if00")


def test_nothing_found_says_what_was_looked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _ports(monkeypatch, _port("/dev/ttyUSB0", vid=0x0403, pid=0x6001))
    with pytest.raises(DeviceNotFoundError, match="2e8a:0005") as info:
        find_device(stable_path=None, by_id_dir=str(tmp_path))
    assert isinstance(info.value, LookupError)
