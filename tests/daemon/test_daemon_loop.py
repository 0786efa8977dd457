"""The daemon's main loop in-process, on a simulated board in real time, under a fake systemd.

What systemd relies on: READY=1 only once the board answers; watchdog pings only while the loop
runs; a stop switches the lights off and saves the game; a broken board ends ``run()`` with a
non-zero code (so ``Restart=on-failure`` restarts it) instead of hanging. Waits are deadlines;
the only fixed waits are the windows in which a datagram must *not* arrive.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from morris.app.config import board_from_config
from morris.app.errors import StatusFileError
from morris.app.jobs import SearchJob
from morris.app.store import GameStore
from morris.core import Board, Move
from morris.daemon import Daemon
from morris.daemon.status_file import read_status
from morris_device import BoardDevice, StatusLight
from tests.daemon.daemon_kit import (
    TIMEOUT,
    DaemonThread,
    DelegatingDevice,
    FakeSystemd,
    RealTimeBoard,
    real_time_board,
    sim_config,
    wait_until,
)

#: Needs real time: the daemon runs on a thread in real time, with a fake systemd socket.
pytestmark = pytest.mark.realtime

#: The watchdog interval the tests give the daemon: it pings every 0.1 s.
WATCHDOG = 0.2


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[FakeSystemd]:
    fake = FakeSystemd(tmp_path)
    yield fake
    fake.close()


def first_move(board: Board) -> Move:
    """The Pi's stand-in engine: the first legal move in notation order (deterministic)."""
    return min(board.legal_moves, key=str)


def pi_search(job: SearchJob) -> Move | None:
    return first_move(job.board)


def make_daemon(
    board: RealTimeBoard, systemd: FakeSystemd, state: Path, **overrides: object
) -> Daemon:
    state.mkdir(exist_ok=True)
    return Daemon(
        sim_config(**overrides),
        board.opened,
        notifier=systemd.notifier(WATCHDOG),
        store=GameStore(state),
        status_path=state / "status.json",
        search=pi_search,
    )


def status_moves(state: Path) -> int | None:
    """The move count in the status file (``None`` before the daemon first writes it)."""
    try:
        return read_status(state / "status.json").move_count
    except StatusFileError:
        return None


# -- READY ------------------------------------------------------------------------------------


class SlowToAnswer(DelegatingDevice):
    """A board still booting: ``sensors()`` blocks until :attr:`answer` is set."""

    def __init__(self, inner: BoardDevice) -> None:
        super().__init__(inner)
        self.asked = threading.Event()
        self.answer = threading.Event()

    def sensors(self) -> frozenset[str]:
        self.asked.set()
        if not self.answer.wait(TIMEOUT):
            raise TimeoutError("the test never let the board answer")
        return self.inner.sensors()


def test_ready_only_after_the_board_answers(systemd: FakeSystemd, tmp_path: Path) -> None:
    slow: list[SlowToAnswer] = []

    def wrap(inner: BoardDevice) -> BoardDevice:
        slow.append(SlowToAnswer(inner))
        return slow[0]

    board = real_time_board(device=wrap)
    daemon = make_daemon(board, systemd, tmp_path / "state")
    thread = DaemonThread(daemon).start()
    try:
        starting, _ = systemd.wait_for("STATUS")
        assert starting.get("READY") is None
        assert slow[0].asked.wait(TIMEOUT), "the daemon never asked the board"
        # The board is being asked and does not answer: nothing may say READY meanwhile.
        assert systemd.receive(3 * WATCHDOG) is None
        assert not any(d.get("READY") for d in systemd.received)
        slow[0].answer.set()
        ready, before = systemd.wait_for("READY", "1")
        assert not any(d.get("READY") for d in before)
        assert ready.get("STATUS") == "person plays white against level 5; turn 1, white to move"
    finally:
        slow[0].answer.set()
        assert thread.stop() == 0


# -- the watchdog -----------------------------------------------------------------------------


def test_watchdog_pings_stop_while_the_loop_is_stalled(
    systemd: FakeSystemd, tmp_path: Path
) -> None:
    board = real_time_board()
    daemon = make_daemon(board, systemd, tmp_path / "state")
    thread = DaemonThread(daemon).start()
    try:
        systemd.wait_for("READY", "1")
        for _ in range(3):  # healthy: pings keep coming
            systemd.wait_for("WATCHDOG", "1", timeout=5.0)
        controller = daemon.controller
        assert controller is not None
        healthy_poll = controller.poll
        entered, release = threading.Event(), threading.Event()

        def stalled_poll(now: float) -> None:
            entered.set()
            release.wait(TIMEOUT)  # a hung loop: stuck in the controller
            healthy_poll(now)

        controller.poll = stalled_poll  # type: ignore[method-assign]
        assert entered.wait(5.0), "the loop never polled the controller"
        # At most one ping may still be on its way: the stuck iteration's own, sent before it
        # called poll. After that, silence for more than two intervals.
        late = [d for d in systemd.drain() if d.get("WATCHDOG")]
        straggler = systemd.receive(WATCHDOG / 2)
        late += [straggler] if straggler is not None else []
        assert len(late) <= 1, f"{len(late)} pings after the loop stalled"
        assert systemd.receive(3 * WATCHDOG) is None, "pinged while the loop was stalled"
        # The board is still polled by its own thread (a timer thread would still ping too):
        # only the main loop's pings stopped.
        board.sim.place("a7")
        wait_until(lambda: "a7" in daemon.board.device.sensors(), "the board to read a7")
        assert systemd.receive(0.0) is None

        del controller.poll  # back to the class's method
        release.set()
        systemd.wait_for("WATCHDOG", "1", timeout=5.0)
        systemd.wait_for("WATCHDOG", "1", timeout=5.0)
    finally:
        release.set()
        assert thread.stop() == 0


# -- stopping ---------------------------------------------------------------------------------


def test_stop_switches_the_lights_off_and_saves_the_game_which_resumes(
    systemd: FakeSystemd, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    board = real_time_board()
    daemon = make_daemon(board, systemd, state)
    thread = DaemonThread(daemon).start()
    after_d6 = board_from_config(sim_config())
    after_d6.push(Move.parse("d6"))
    pi_target = str(first_move(after_d6))
    try:
        systemd.wait_for("READY", "1")
        board.sim.place("d6")
        wait_until(lambda: status_moves(state) == 1, "the turn d6")
        # The Pi answers: its point is lit "on" (and the thinking light went out).
        wait_until(lambda: pi_target in board.lit_now(), f"the Pi's point {pi_target} lit")
    finally:
        assert thread.stop() == 0
    stopping, _ = systemd.wait_for("STOPPING", "1")
    assert stopping.get("STATUS") == "stopping: saving the game"
    assert board.opened.lit_at_close == set(), "lights left on when the board was closed"
    saved = GameStore(state).load()
    assert saved is not None
    assert [str(m) for m in saved.board.move_stack] == ["d6"]
    assert read_status(state / "status.json").last_event == "stopped"

    # A restart on the same board (d6 still on it) resumes the game: the Pi's turn again.
    board2 = real_time_board(pieces=("d6",))
    daemon2 = make_daemon(board2, systemd, state)
    thread2 = DaemonThread(daemon2).start()
    try:
        systemd.wait_for("READY", "1")
        controller = daemon2.controller
        assert controller is not None
        assert [str(m) for m in controller.board.move_stack] == ["d6"]
        assert controller.resumed
        assert controller.state.last_event.startswith("resumed the saved game at turn 1")
        # The board was read before READY: it matches the game, nothing to set up.
        assert not controller.referee.is_guiding
        wait_until(lambda: pi_target in board2.lit_now(), f"the Pi's point {pi_target} again")
    finally:
        assert thread2.stop() == 0


# -- reloading --------------------------------------------------------------------------------


def test_a_reload_applies_level_and_timings_at_once(systemd: FakeSystemd, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[game]\nlevel = 3\n", encoding="utf-8")
    board = real_time_board()
    state = tmp_path / "state"
    state.mkdir()
    daemon = Daemon(
        sim_config(),
        board.opened,
        config_path=config,
        overrides={"hardware_backend": "sim"},
        notifier=systemd.notifier(WATCHDOG),
        search=pi_search,
    )
    thread = DaemonThread(daemon).start()
    try:
        systemd.wait_for("READY", "1")
        config.write_text(
            "[game]\nlevel = 7\n[referee]\naccept_delay = 0.8\ntakeback_delay = 3\n",
            encoding="utf-8",
        )
        daemon.post("reload")
        systemd.wait_for("RELOADING", "1")
        ready, _ = systemd.wait_for("READY", "1")
        assert "against level 7" in (ready.get("STATUS") or "")
        controller = daemon.controller
        assert controller is not None
        assert controller.level == 7
        # The referee reads the board with the new timings from now on, not from the next game.
        assert controller.referee.config.accept_delay == 0.8
        assert controller.referee.config.takeback_delay == 3.0
        assert daemon.config.hardware.backend == "sim"
    finally:
        assert thread.stop() == 0


# -- failures ---------------------------------------------------------------------------------


class BreaksOnDemand(DelegatingDevice):
    """A board that fails (unplugged, a dead GPIO chip) once :attr:`broken` is set."""

    def __init__(self, inner: BoardDevice) -> None:
        super().__init__(inner)
        self.broken = threading.Event()

    def poll(self, now: float) -> float:
        if self.broken.is_set():
            raise OSError(5, "Input/output error", "/dev/gpiochip0")
        return self.inner.poll(now)


def test_a_board_failure_ends_run_with_status_1_not_a_hang(
    systemd: FakeSystemd, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="morris.daemon")
    devices: list[BreaksOnDemand] = []

    def wrap(inner: BoardDevice) -> BoardDevice:
        devices.append(BreaksOnDemand(inner))
        return devices[0]

    state = tmp_path / "state"
    board = real_time_board(device=wrap)
    daemon = make_daemon(board, systemd, state, game_mode="referee")
    thread = DaemonThread(daemon).start()
    systemd.wait_for("READY", "1")
    board.sim.place("d6")
    wait_until(lambda: status_moves(state) == 1, "the turn d6")
    devices[0].broken.set()
    assert thread.join() == 1
    stopping, _ = systemd.wait_for("STOPPING", "1")
    assert "failed" in (stopping.get("STATUS") or "")
    assert "Input/output error" in caplog.text
    assert "exiting with status 1" in caplog.text
    status = read_status(state / "status.json")
    assert status.link == "failed"
    assert status.last_event is not None and status.last_event.startswith("failed")
    saved = GameStore(state).load()
    assert saved is not None and [str(m) for m in saved.board.move_stack] == ["d6"]
    assert board.opened.lit_at_close == set()


def test_an_error_in_the_loop_ends_run_with_status_1(
    systemd: FakeSystemd, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    board = real_time_board()
    daemon = make_daemon(board, systemd, tmp_path / "state")
    thread = DaemonThread(daemon).start()
    systemd.wait_for("READY", "1")
    controller = daemon.controller
    assert controller is not None

    def bug(occupied: frozenset[str], now: float) -> None:
        raise ValueError("a bug in the referee")

    controller.on_sensors = bug  # type: ignore[method-assign]
    board.sim.place("a7")
    assert thread.join() == 1
    assert "a bug in the referee" in caplog.text
    assert board.opened.lit_at_close == set()


def test_signal_handlers_post_to_a_reentrant_queue(tmp_path: Path) -> None:
    """SIGTERM's handler runs in the main thread, maybe inside the loop's own ``get``: only a
    reentrant put (SimpleQueue) cannot deadlock on the queue's lock there."""
    board = real_time_board()
    daemon = Daemon(sim_config(), board.opened, notifier=FakeSystemd(tmp_path).notifier())
    try:
        assert isinstance(daemon.events, queue.SimpleQueue)
        daemon._on_signal(15, None)
        daemon._on_signal(1, None)
        assert [daemon.events.get_nowait()[0] for _ in range(2)] == ["stop", "reload"]
    finally:
        board.opened.close()


# -- a stale search ---------------------------------------------------------------------------


def test_a_search_result_for_a_taken_back_position_is_ignored(
    systemd: FakeSystemd, tmp_path: Path
) -> None:
    """The person takes their turn back while the Pi thinks; its late answer must not be shown."""
    thinking, answer = threading.Event(), threading.Event()
    jobs: list[SearchJob] = []

    def slow_search(job: SearchJob) -> Move | None:
        jobs.append(job)
        thinking.set()
        answer.wait(TIMEOUT)
        return first_move(job.board)

    state = tmp_path / "state"
    state.mkdir()
    board = real_time_board()
    daemon = Daemon(
        sim_config(referee_takeback_delay=0.3),
        board.opened,
        notifier=systemd.notifier(WATCHDOG),
        store=GameStore(state),
        status_path=state / "status.json",
        search=slow_search,
    )
    dispatched: list[str] = []
    real_dispatch = daemon._dispatch

    def recording_dispatch(*args: object) -> None:
        real_dispatch(*args)  # type: ignore[arg-type]
        dispatched.append(str(args[1]))

    daemon._dispatch = recording_dispatch  # type: ignore[method-assign,assignment]
    thread = DaemonThread(daemon).start()
    try:
        systemd.wait_for("READY", "1")
        board.sim.place("d6")
        assert thinking.wait(TIMEOUT)
        controller = daemon.controller
        assert controller is not None
        board.sim.lift("d6")  # taken back while the Pi thinks
        wait_until(lambda: not controller.board.move_stack, "the takeback")
        assert jobs[0].cancelled
        answer.set()  # the engine answers late, for the old position (the runner drops it)
        # ... and had it been queued just before the takeback, the loop gets it anyway:
        daemon.post("search", (jobs[0], first_move(jobs[0].board)))
        daemon.post("marker")
        wait_until(lambda: "marker" in dispatched, "the loop to run past the late answer")
        assert controller.referee.expected is None
        assert not controller.state.thinking
        assert controller.board.move_stack == []
        assert not (board.lit_now() - {StatusLight.TURN}), "a stale move is shown"
    finally:
        answer.set()
        assert thread.stop() == 0
