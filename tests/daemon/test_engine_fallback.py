"""What the daemon says about its engine: an external engine that is missing or dies gives way
to the built-in one with the error shown; a missing C search is said where a user looks.

The daemon runs in-process on a simulated board in real time (the search in a thread).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from morris.app.errors import StatusFileError
from morris.app.jobs import (
    ExternalSearch,
    ProcessRunner,
    SearchJob,
    ThreadedRunner,
    builtin_runner,
    engine_command_problem,
    make_search,
)
from morris.app.store import GameStore
from morris.cli import main
from morris.core import Board
from morris.daemon import Daemon
from morris.daemon.status_file import ServiceStatus, read_status
from morris.engine import search
from morris_device import Signal, StatusLight
from tests.daemon.daemon_kit import (
    DaemonThread,
    FakeSystemd,
    real_time_board,
    sim_config,
    wait_until,
)

pytestmark = pytest.mark.realtime

MISSING = "/nonexistent/eng"


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[FakeSystemd]:
    fake = FakeSystemd(tmp_path)
    yield fake
    fake.close()


# -- config check -------------------------------------------------------------------------------


def test_config_check_refuses_an_engine_program_that_cannot_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "morris.toml"
    path.write_text(f'[engine]\ncommand = "{MISSING} --fast"\n')
    assert main(["config", "check", str(path)]) == 2
    assert f"engine.command: {MISSING} does not exist" in capsys.readouterr().err

    script = tmp_path / "eng"
    script.write_text("#!/bin/sh\n")
    path.write_text(f'[engine]\ncommand = "{script}"\n')
    assert main(["config", "check", str(path)]) == 2
    assert "is not executable" in capsys.readouterr().err
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    assert main(["config", "check", str(path)]) == 0

    assert engine_command_problem("no-such-engine-anywhere -x") is not None
    assert engine_command_problem("sh -c true") is None
    assert engine_command_problem('"unclosed') is not None
    assert engine_command_problem("") is None  # the built-in engine


# -- the fallback ---------------------------------------------------------------------------------


def test_a_missing_external_engine_gives_way_to_the_built_in_one() -> None:
    config = sim_config(engine_command=MISSING)
    found = make_search(config)
    assert isinstance(found, ExternalSearch)
    job = SearchJob(1, "move", Board(), level=1, movetime=0.2)
    move = found(job)
    assert move is not None and move in Board().legal_moves
    assert job.warning is not None and MISSING in job.warning
    assert found.failure == job.warning
    later = SearchJob(2, "move", Board(), level=1, movetime=0.2)
    assert found(later) is not None and later.warning == job.warning  # not tried again


def test_the_daemon_plays_on_with_its_own_engine_and_shows_why(
    systemd: FakeSystemd, tmp_path: Path
) -> None:
    # Today: a logged traceback, then the Pi "thinks" forever.
    state = tmp_path / "state"
    state.mkdir()
    board = real_time_board()
    daemon = Daemon(
        sim_config(engine_command=MISSING, game_level=1),
        board.opened,
        notifier=systemd.notifier(None),
        store=GameStore(state),
        status_path=state / "status.json",
    )
    thread = DaemonThread(daemon).start()
    try:
        systemd.wait_for("READY", "1")
        board.sim.place("d6")

        def shown() -> ServiceStatus | None:
            try:
                status = read_status(state / "status.json")
            except StatusFileError:  # not written yet
                return None
            return status if status.engine_warning else None

        status = wait_until(shown, "the engine's failure in the status file")
        assert MISSING in status.engine_warning
        assert status.engine == f"external: {MISSING}"
        controller = daemon.controller
        assert controller is not None
        wait_until(lambda: not controller.state.thinking, "the Pi's answer")
        assert controller.referee.expected is not None  # the Pi asks for its move
        assert "the Pi plays with its own engine" in controller.state.last_event
        assert MISSING in controller.state.last_event
        assert controller.status()[StatusLight.ERROR] is Signal.SLOW
        assert controller.status()[StatusLight.THINKING] is Signal.OFF
    finally:
        assert thread.stop() == 0


# -- the C search ---------------------------------------------------------------------------------


def test_the_built_in_engine_runs_in_a_thread_with_the_c_search_else_in_a_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runner = builtin_runner(sim_config(), lambda job, move: None)
    try:
        expected = ThreadedRunner if search.NATIVE_AVAILABLE else ProcessRunner
        assert isinstance(runner, expected)
    finally:
        runner.close()
    monkeypatch.setenv("MORRIS_NATIVE", "0")
    runner = builtin_runner(sim_config(), lambda job, move: None)
    try:
        assert isinstance(runner, ProcessRunner)
    finally:
        runner.close()


def test_without_the_c_search_run_sim_engine_and_status_say_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # As if the extension had failed to build: the import error is kept for the message.
    monkeypatch.setattr(search, "NATIVE_AVAILABLE", False)
    monkeypatch.setattr(search, "_NATIVE_MISSING", "No module named 'morris.engine._native'")
    warning = search.native_warning()
    assert warning is not None
    assert "20-25 times slower" in warning and "build-essential python3-dev" in warning
    assert "_native" in warning

    monkeypatch.setattr("sys.stdin", open(os.devnull))  # noqa: SIM115
    assert main(["engine"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "morris: warning: the engine's C search is not built" in err

    # `morris status` shows the status file's warning.
    from datetime import UTC, datetime

    from morris.daemon.status_file import write_status

    now = datetime.now(UTC)
    write_status(
        tmp_path / "status.json",
        ServiceStatus(
            pid=os.getpid(), started=now, updated=now, mode="vs-ai", backend="sim", link="up",
            board="in sync", position=Board().position(), move_count=0,
            engine="built-in, Python search in its own process", engine_warning=warning,
        ),
    )  # fmt: skip
    main(["status", "--state-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert "engine:       built-in, Python search in its own process" in out
    assert f"warning:      {warning}" in out


def test_morris_native_0_is_said_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MORRIS_NATIVE", "0")
    warning = search.native_warning()
    assert warning is not None and "MORRIS_NATIVE=0" in warning
    monkeypatch.setenv("MORRIS_NATIVE", "1")
    assert (search.native_warning() is None) == search.NATIVE_AVAILABLE
