"""The daemon's status file: written atomically, read back, and refused when it is broken."""

from __future__ import annotations

import argparse
import json
import os
import stat
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from morris.app.errors import StatusFileError
from morris.app.paths import daemon_state_dirs
from morris.daemon.loop import _remote_status
from morris.daemon.status_file import ServiceStatus, read_status, write_status
from morris.sim import Simulation

STARTED = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def make_status(**changes: object) -> ServiceStatus:
    fields: dict[str, object] = {
        "pid": 812,
        "started": STARTED,
        "updated": datetime(2026, 11, 29, 12, 3, 10, tzinfo=UTC),
        "mode": "vs-ai",
        "backend": "gpio",
        "link": "ok",
        "board": "in sync",
        "position": "W:d6 B:a7",
        "move_count": 2,
        "side_to_move": "white",
        "level": 3,
        "last_event": "black placed a7",
    }
    fields.update(changes)
    return ServiceStatus(**fields)  # type: ignore[arg-type]


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "status.json"
    status = make_status()
    write_status(path, status)
    assert read_status(path) == status


def test_file_is_plain_json_for_other_readers(tmp_path: Path) -> None:
    path = tmp_path / "status.json"
    write_status(path, make_status(outcome="white wins", side_to_move=None))
    data = json.loads(path.read_text())
    assert data["format"] == 1
    assert data["started"] == "2026-11-29T12:00:00+00:00"
    assert data["outcome"] == "white wins" and data["side_to_move"] is None
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_replace_leaves_no_temporary_files(tmp_path: Path) -> None:
    path = tmp_path / "status.json"
    write_status(path, make_status(move_count=1))
    write_status(path, make_status(move_count=2))
    assert read_status(path).move_count == 2
    assert os.listdir(tmp_path) == ["status.json"]


def test_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "status.json"
    write_status(path, make_status(move_count=1))

    def fail_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", fail_fsync)
    with pytest.raises(OSError, match="No space"):
        write_status(path, make_status(move_count=2))
    monkeypatch.undo()
    assert read_status(path).move_count == 1
    assert os.listdir(tmp_path) == ["status.json"]


def test_unknown_keys_are_ignored_and_optional_ones_default(tmp_path: Path) -> None:
    data = make_status().to_json()
    data["future_field"] = "x"
    for optional in ("level", "last_event", "outcome", "side_to_move"):
        del data[optional]
    path = tmp_path / "status.json"
    path.write_text(json.dumps(data))
    status = read_status(path)
    assert status.level is None and status.outcome is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": 2}, "format 2"),
        ({"pid": "812"}, "pid"),
        ({"move_count": True}, "move_count"),
        ({"started": "yesterday"}, "started"),
        ({"level": "hard"}, "level"),
    ],
)
def test_bad_fields_are_refused(tmp_path: Path, change: dict[str, object], message: str) -> None:
    path = tmp_path / "status.json"
    path.write_text(json.dumps({**make_status().to_json(), **change}))
    with pytest.raises(StatusFileError, match=message):
        read_status(path)


def test_missing_required_field(tmp_path: Path) -> None:
    data = make_status().to_json()
    del data["position"]
    path = tmp_path / "status.json"
    path.write_text(json.dumps(data))
    with pytest.raises(StatusFileError, match="'position'"):
        read_status(path)


@pytest.mark.parametrize("text", ["", "{not json", "[1, 2]"])
def test_broken_file(tmp_path: Path, text: str) -> None:
    path = tmp_path / "status.json"
    path.write_text(text)
    with pytest.raises(StatusFileError, match=r"status\.json"):
        read_status(path)


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(StatusFileError, match=r"cannot read .*status\.json"):
        read_status(tmp_path / "status.json")


def test_status_looks_in_the_service_dir_then_the_users() -> None:
    home = {"XDG_STATE_HOME": "/home/ann/.state"}
    assert daemon_state_dirs(home) == [Path("/var/lib/morris"), Path("/home/ann/.state/morris")]
    inside = {**home, "STATE_DIRECTORY": "/var/lib/morris:/var/lib/other"}
    assert daemon_state_dirs(inside) == [Path("/var/lib/morris"), Path("/home/ann/.state/morris")]
    other = {**home, "STATE_DIRECTORY": "/tmp/s"}
    assert daemon_state_dirs(other)[0] == Path("/tmp/s")


def run_status(
    parser: argparse.ArgumentParser, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> int:
    # No systemctl: the command then reports only what the status file says.
    monkeypatch.setattr("shutil.which", lambda name: None)
    args = parser.parse_args(["status", "--state-dir", str(state_dir)])
    code: int = args.run(args)
    return code


def test_status_command_shows_the_game(
    morris_service: argparse.ArgumentParser,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    write_status(tmp_path / "status.json", make_status(pid=os.getpid()))
    assert run_status(morris_service, tmp_path, monkeypatch) == 0
    out = capsys.readouterr().out
    assert f"pid {os.getpid()} running" in out
    assert "vs-ai, level 3" in out
    assert "2 moves, white to move" in out
    assert "W:d6 B:a7" in out
    assert "black placed a7" in out


def test_status_command_shows_whether_the_remote_player_is_there(
    morris_service: argparse.ArgumentParser,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = make_status(pid=os.getpid(), mode="remote", level=None, remote="waiting")
    write_status(tmp_path / "status.json", status)
    assert read_status(tmp_path / "status.json") == status
    assert run_status(morris_service, tmp_path, monkeypatch) == 0
    out = capsys.readouterr().out
    assert "remote:       waiting" in out
    write_status(tmp_path / "status.json", make_status(pid=os.getpid()))
    assert run_status(morris_service, tmp_path, monkeypatch) == 0
    assert "remote:" not in capsys.readouterr().out  # not in the other modes


def test_status_command_sees_a_dead_daemon_and_a_finished_game(
    morris_service: argparse.ArgumentParser,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A pid that surely ran no daemon: a child that has exited and been reaped.
    child = subprocess.Popen(["true"])
    child.wait()
    pid = child.pid
    write_status(
        tmp_path / "status.json",
        make_status(pid=pid, outcome="black wins: white is blocked", side_to_move=None),
    )
    assert run_status(morris_service, tmp_path, monkeypatch) == 3
    out = capsys.readouterr().out
    assert "not running (stale status)" in out
    assert "over: black wins: white is blocked" in out


def test_status_command_without_status_file(
    morris_service: argparse.ArgumentParser,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_status(morris_service, tmp_path, monkeypatch) == 4
    assert "no game status: cannot read" in capsys.readouterr().out


@pytest.mark.realtime  # a real systemctl stand-in, run as a subprocess
@pytest.mark.parametrize(
    ("script", "shown", "code"),
    [
        ("echo active", "service:      active", 0),
        ("echo failed; exit 3", "service:      failed", 3),
        ('echo "System has not been booted with systemd" >&2; exit 1', "service:      unknown", 0),
    ],
)
def test_status_command_asks_systemctl(
    morris_service: argparse.ArgumentParser,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    script: str,
    shown: str,
    code: int,
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    systemctl = bin_dir / "systemctl"
    systemctl.write_text(f"#!/bin/sh\n{script}\n")
    systemctl.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    write_status(tmp_path / "status.json", make_status(pid=os.getpid()))
    args = morris_service.parse_args(["status", "--state-dir", str(tmp_path)])
    assert args.run(args) == code
    assert shown in capsys.readouterr().out


def test_status_finds_a_daemon_run_by_hand_in_the_users_state_dir(
    morris_service: argparse.ArgumentParser,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The installed service's directory holds a newer status of a daemon that is gone; the
    # daemon that runs is the one started by hand, writing to ~/.local/state/morris.
    service = tmp_path / "var-lib-morris"
    service.mkdir()
    child = subprocess.Popen(["true"])
    child.wait()
    write_status(
        service / "status.json",
        make_status(pid=child.pid, updated=datetime(2026, 11, 30, 9, 0, tzinfo=UTC)),
    )
    user = tmp_path / "state" / "morris"
    user.mkdir(parents=True)
    write_status(user / "status.json", make_status(pid=os.getpid(), last_event="white played d6"))
    monkeypatch.setattr("morris.app.paths.SERVICE_STATE_DIR", service)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setattr("shutil.which", lambda name: None)
    args = morris_service.parse_args(["status"])
    assert args.run(args) == 0
    out = capsys.readouterr().out
    assert f"pid {os.getpid()} running" in out
    assert "white played d6" in out
    assert str(user / "status.json") in out


def test_status_without_any_status_file_names_where_it_looked(
    morris_service: argparse.ArgumentParser,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr("morris.app.paths.SERVICE_STATE_DIR", tmp_path / "service")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setattr("shutil.which", lambda name: None)
    args = morris_service.parse_args(["status"])
    assert args.run(args) == 4
    out = capsys.readouterr().out
    assert str(tmp_path / "service" / "status.json") in out
    assert str(tmp_path / "state" / "morris" / "status.json") in out


def test_the_journal_and_status_line_say_whether_the_remote_player_is_there() -> None:
    # describe() is the sd_notify STATUS= line and what `morris status` reads: a person at the
    # board asking "why does nothing happen" sees that the friend is away.
    with Simulation(mode="remote", human="white") as sim:
        assert sim.controller.describe().endswith(", waiting for the remote player")
        assert _remote_status(sim.controller) == "waiting"
        sim.remote_link(True)
        assert sim.controller.describe().endswith(", remote player on a page")
        assert _remote_status(sim.controller) == "up (page)"
    with Simulation(mode="vs-ai") as sim:
        assert "remote" not in sim.controller.describe()
        assert _remote_status(sim.controller) is None
