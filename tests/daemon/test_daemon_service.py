"""``morris run --sim`` as systemd runs it: a real process, a real ``NOTIFY_SOCKET``, real signals.

systemd passes ``WATCHDOG_PID`` (the main pid) with ``WATCHDOG_USEC``; a test cannot know the
child's pid before spawning it, so it leaves ``WATCHDOG_PID`` out, which sd_watchdog_enabled(3)
(and :class:`~morris.daemon.notify.Notifier`) read as "the watchdog is for this process".
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from morris.app.errors import StatusFileError
from morris.daemon import gpio_available
from morris.daemon.status_file import ServiceStatus, read_status
from tests.daemon.daemon_kit import TIMEOUT, FakeSystemd, wait_until

#: Needs real time: `morris run` as a real subprocess.
pytestmark = pytest.mark.realtime

REPO = Path(__file__).resolve().parents[2]
#: WATCHDOG_USEC for the child: pings every 0.2 s.
WATCHDOG_USEC = 400_000


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[FakeSystemd]:
    fake = FakeSystemd(tmp_path)
    yield fake
    fake.close()


def child_env(systemd: FakeSystemd | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("WATCHDOG_PID", "NOTIFY_SOCKET")}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONUNBUFFERED"] = "1"
    if systemd is not None:
        env["NOTIFY_SOCKET"] = systemd.address
        env["WATCHDOG_USEC"] = str(WATCHDOG_USEC)
    return env


def morris(
    *args: str, systemd: FakeSystemd | None = None, **kwargs: object
) -> subprocess.Popen[str]:
    return subprocess.Popen(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "morris", "-v", *args],
        env=child_env(systemd),
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def stop(process: subprocess.Popen[str]) -> tuple[int, str]:
    """SIGTERM, then the exit code and stderr (fails if it does not exit in time)."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
        raise AssertionError(f"morris run did not stop on SIGTERM; stderr:\n{err}") from None
    return process.returncode, err


def write_config(path: Path, level: int) -> Path:
    path.write_text(f'[game]\nmode = "vs-ai"\nlevel = {level}\n', encoding="utf-8")
    return path


def test_ready_status_watchdog_then_sigterm_stops_cleanly(
    systemd: FakeSystemd, tmp_path: Path
) -> None:
    state = tmp_path / "state"  # does not exist yet: `morris run` makes it
    config = write_config(tmp_path / "config.toml", level=3)
    process = morris(
        "run", "--sim", "--config", str(config), "--state-dir", str(state), systemd=systemd
    )
    try:
        ready, before = systemd.wait_for("READY", "1", timeout=60)
        assert [d.fields for d in before] == [{"STATUS": "starting: reading the board"}]
        assert ready.get("STATUS") == "person plays white against level 3; turn 1, white to move"
        for _ in range(4):  # the loop keeps pinging
            systemd.wait_for("WATCHDOG", "1", timeout=5.0)
        status = wait_until(lambda: _status(state), "status.json")
        assert status.pid == process.pid
        assert status.backend == "sim" and status.level == 3
        assert status.side_to_move == "white"
    finally:
        code, err = stop(process)
    stopping, _ = systemd.wait_for("STOPPING", "1")
    assert stopping.get("STATUS") == "stopping: saving the game"
    assert code == 0, err
    assert "stopped" in err
    final = read_status(state / "status.json")
    assert final.last_event == "stopped"
    # Nothing after STOPPING=1 but (maybe) a last ping.
    assert all(set(d.fields) <= {"WATCHDOG"} for d in systemd.drain())


def test_sighup_reloads_the_configuration_and_keeps_the_flags(
    systemd: FakeSystemd, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    config = write_config(tmp_path / "config.toml", level=3)
    process = morris(
        "run", "--sim", "--config", str(config), "--state-dir", str(state), systemd=systemd
    )
    try:
        systemd.wait_for("READY", "1", timeout=60)
        write_config(config, level=4)
        process.send_signal(signal.SIGHUP)
        reloading, _ = systemd.wait_for("RELOADING", "1")
        assert (reloading.get("MONOTONIC_USEC") or "").isdigit()
        ready, _ = systemd.wait_for("READY", "1")
        assert ready.get("STATUS") == "person plays white against level 4; turn 1, white to move"
        wait_until(lambda: (s := _status(state)) and s.level == 4, "level 4 in status.json")

        # A broken file is not taken: the daemon says so, stays up and keeps level 4.
        config.write_text("[game]\nlevel = 11\n", encoding="utf-8")
        process.send_signal(signal.SIGHUP)
        systemd.wait_for("RELOADING", "1")
        ready, _ = systemd.wait_for("READY", "1")
        assert "against level 4" in (ready.get("STATUS") or "")
        assert process.poll() is None
    finally:
        code, err = stop(process)
    assert code == 0, err
    assert "configuration reloaded from" in err
    assert "configuration not reloaded" in err and "game.level" in err
    # --sim (and --state-dir) still hold after the reload: no "hardware changed" warning.
    assert "hardware settings change" not in err


def test_morris_reload_returns_once_the_daemon_has_reloaded(
    systemd: FakeSystemd, tmp_path: Path
) -> None:
    """The unit's ExecReload=: SIGHUP, and back only when the new settings hold (what
    `systemctl reload` waits for), with nothing but the venv's own morris."""
    state = tmp_path / "state"
    config = write_config(tmp_path / "config.toml", level=3)
    process = morris(
        "run", "--sim", "--config", str(config), "--state-dir", str(state), systemd=systemd
    )
    try:
        systemd.wait_for("READY", "1", timeout=60)
        wait_until(lambda: _status(state), "status.json")
        write_config(config, level=6)
        reload = subprocess.run(
            [
                sys.executable,
                "-m",
                "morris",
                "reload",
                "--pid",
                str(process.pid),
                "--state-dir",
                str(state),
            ],
            env=child_env(None),
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        assert reload.returncode == 0, reload.stderr
        assert f"daemon {process.pid} reloaded its configuration" in reload.stdout
        # Already in force when the command returns: no waiting after it.
        assert read_status(state / "status.json").level == 6
    finally:
        code, err = stop(process)
    assert code == 0, err
    # No such daemon: one line, exit 1.
    gone = subprocess.run(
        [
            sys.executable,
            "-m",
            "morris",
            "reload",
            "--pid",
            str(process.pid),
            "--state-dir",
            str(state),
            "--timeout",
            "1",
        ],
        env=child_env(None),
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert gone.returncode == 1
    assert gone.stderr.strip() == f"morris reload: no process {process.pid}"


def test_a_bad_configuration_file_exits_2_naming_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[game]\nmode = "vs-ai"\nlevl = 3\n', encoding="utf-8")
    process = morris("run", "--sim", "--config", str(bad), "--state-dir", str(tmp_path / "s"))
    _, err = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 2
    assert "game.levl" in err and str(bad) in err
    assert "Traceback" not in err


@pytest.mark.skipif(gpio_available(), reason="this machine has GPIO chips")
def test_without_gpio_run_exits_2_pointing_to_the_simulator(tmp_path: Path) -> None:
    process = morris("run", "--state-dir", str(tmp_path / "s"))  # backend gpio, the default
    _, err = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 2
    assert "no GPIO" in err and "morris sim" in err
    assert "Traceback" not in err
    assert not (tmp_path / "s").exists()


def _status(state: Path) -> ServiceStatus | None:
    try:
        return read_status(state / "status.json")
    except StatusFileError:
        return None
