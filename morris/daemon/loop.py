"""The daemon: the controller on a real (or simulated) board, in real time, under systemd.

One main loop owns the controller. Everything else reaches it as an item on one queue: sensor
snapshots and button presses (from the device's threads), finished searches (from the search
worker), the serial link going down or up, and SIGTERM/SIGHUP. The loop wakes at the controller's
next deadline, and at least every half watchdog interval, so systemd's watchdog is pinged only
while the loop really runs: a hung loop stops the pings and systemd restarts the service.
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from hardware.runner import BoardRunner
from morris.app.config import Config, load_config
from morris.app.controller import Controller, run_call
from morris.app.errors import ConfigError, DeviceFailed, HardwareUnavailable
from morris.app.jobs import (
    ProcessRunner,
    SearchFunction,
    SearchJob,
    ThreadedRunner,
    builtin_runner,
    describe_engine,
    load_solution,
    load_tables,
    make_search,
)
from morris.app.mode import Mode
from morris.app.persistence import asked_settings
from morris.app.speech import Speaker, start_speech
from morris.app.store import GameStore
from morris.core import COLOR_NAMES, Move
from morris.daemon.notify import Notifier, WatchdogPacer
from morris.daemon.status_file import ServiceStatus, write_status
from morris.engine.search import native_warning
from morris.i18n import Message, msg
from morris_device import BoardDevice, ButtonPress, SensorReading, Signal, StatusLight

if TYPE_CHECKING:
    from morris.engine.solution import Solution
    from morris.engine.tables import EndgameTables

logger = logging.getLogger(__name__)

#: The loop wakes at least this often (seconds) even with nothing to do.
MAX_SLEEP = 1.0
#: Seconds between the interpreter's thread switches while the daemon runs.
#: (``sys.setswitchinterval``).
SWITCH_INTERVAL = 0.001


@dataclass
class OpenedBoard:
    """A board device and what keeps it alive."""

    device: BoardDevice
    backend: str
    keep: object | None = None  # e.g. the SimulatedBoard behind a simulated device

    def close(self) -> None:
        """Close the device (and its owner)."""
        close = getattr(self.keep, "close", None)
        if callable(close):
            close()
        self.device.close()


def gpio_available() -> bool:
    """Whether this machine has GPIO character devices (a Raspberry Pi or similar)."""
    return any(Path("/dev").glob("gpiochip*"))


def require_gpio(instead: Message | str) -> None:
    """Raise :class:`HardwareUnavailable`, saying ``instead`` what to run, if there is no GPIO.

    Checked before gpiozero is asked: without GPIO chips it warns once per pin factory it tries
    and then fails with a traceback that tells a person nothing.
    """
    if not gpio_available():
        raise HardwareUnavailable(
            msg(
                "this machine has no GPIO ({devices}). {instead}",
                devices="/dev/gpiochip*",
                instead=instead,
            )
        )


def open_hardware(config: Config, *, clock: Callable[[], float] = time.monotonic) -> OpenedBoard:
    """Open the board the configuration names. Raises :class:`HardwareUnavailable`."""
    backend = config.hardware.backend
    profile = config.hardware.profile or None
    if backend == "sim":
        from hardware.exc import ProfileError
        from hardware.profiles import DEFAULT_PROFILE
        from hardware.simulated_board import SimulatedBoard

        try:
            simulated = SimulatedBoard(profile or DEFAULT_PROFILE, clock=clock)
        except ProfileError as exc:
            # A Config checks its profile when built; this catches one built some other way.
            raise HardwareUnavailable(
                msg("cannot use the wiring profile: {problem}", problem=str(exc))
            ) from exc
        return OpenedBoard(simulated.device, "sim", keep=simulated)
    if backend == "serial":
        from firmware_bridge import SerialBoard, find_device
        from firmware_bridge.exc import BridgeError

        try:
            url = config.hardware.serial_url or find_device()
            return OpenedBoard(SerialBoard(url, clock=clock), "serial")
        except BridgeError as exc:
            raise HardwareUnavailable(
                msg(
                    "the board's microcontroller does not answer: {problem} (check the USB "
                    "cable, {command}, or set {key})",
                    problem=str(exc),
                    command="`ls /dev/serial/by-id`",
                    key="hardware.serial_url",
                )
            ) from exc
    require_gpio(
        msg(
            "To play without a Raspberry Pi, run {sim} (the interactive simulator), or {run} "
            "for the headless daemon on a simulated board.",
            sim="`morris sim`",
            run="`morris run --sim`",
        )
    )
    if config.hardware.pin_factory:
        os.environ["GPIOZERO_PIN_FACTORY"] = config.hardware.pin_factory
    from hardware import open_board
    from hardware.profiles import DEFAULT_PROFILE

    try:
        device = open_board(profile or DEFAULT_PROFILE, clock=clock)
    except Exception as exc:
        raise HardwareUnavailable(
            msg("cannot open the board's pins: {problem}", problem=str(exc))
        ) from exc
    return OpenedBoard(device, "gpio")


def settle_time(device: BoardDevice) -> float:
    """Seconds of polling before a scanned (GPIO) board's sensors are debounced; 0 otherwise."""
    profile = getattr(device, "profile", None)
    scan_hz = getattr(profile, "scan_hz", 0)
    scans = getattr(profile, "debounce_scans", 0)
    if not scan_hz or not scans:
        return 0.0
    return float(scans + 1) / float(scan_hz)


class Daemon:
    """The service's main loop. :meth:`run` returns the exit code."""

    def __init__(
        self,
        config: Config,
        board: OpenedBoard,
        *,
        config_path: str | os.PathLike[str] | None = None,
        notifier: Notifier | None = None,
        clock: Callable[[], float] = time.monotonic,
        store: GameStore | None = None,
        status_path: Path | None = None,
        search: SearchFunction | None = None,
        overrides: Mapping[str, Any] | None = None,
    ) -> None:
        """``overrides`` are the command line's :meth:`Config.with_overrides` arguments; a
        reload (SIGHUP) applies them again on top of the reread ``config_path``."""
        self.config = config
        self.board = board
        self.config_path = config_path
        self.notifier = notifier or Notifier.from_environment()
        self.clock = clock
        self.store = store
        self.status_path = status_path
        self._search = search
        self.overrides: dict[str, Any] = dict(overrides or {})
        # A SimpleQueue, not a Queue: the signal handlers put items from the main thread, which
        # may be interrupted inside Queue.get while holding the Queue's (non-reentrant) lock, and
        # would then wait for that lock forever. SimpleQueue.put is reentrant.
        self.events: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        self.controller: Controller | None = None
        self._started = datetime.now(UTC)
        self._link = "up"
        self._engine: str | None = None
        self._last_warning: str | None = None
        self._last_status = ""
        self._stopping = False
        self._solution: Solution | None = None
        #: The speaker of the announcements (``[speech] enabled`` where it can speak), or None.
        self.speaker: Speaker | None = None

    # -- entry points for other threads -----------------------------------------------------

    def post(self, kind: str, payload: Any = None) -> None:
        """Queue an item for the main loop (thread-safe).

        Besides the device's, the search worker's and the signals' items, a front end posts
        ``("call", (fn, future))``: ``fn(controller, now)`` runs on the loop and its result (or
        exception) goes into the :class:`concurrent.futures.Future` ``future``.
        """
        self.events.put((kind, payload))

    def request_stop(self) -> None:
        """Ask the main loop to stop cleanly (what SIGTERM does)."""
        self.post("stop")

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.post("reload" if signum == signal.SIGHUP else "stop")

    # -- the loop ---------------------------------------------------------------------------

    def run(self, *, install_signals: bool = True) -> int:
        """Run until stopped; return 0 after a clean stop, 1 after a failure.

        A failure (the board stops answering, an error in the loop) is logged, the lights are
        switched off and the game is saved as on a clean stop, and the exit code is 1, so that
        systemd's ``Restart=on-failure`` starts the daemon again (and it resumes the game).
        """
        # The search thread hands the interpreter lock back at this interval when it holds it
        # (its Python parts between C searches): 1 ms instead of Python's 5 ms, so a sensor
        # change waits less for the main loop while the Pi thinks.
        switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
        if install_signals:
            signal.signal(signal.SIGTERM, self._on_signal)
            signal.signal(signal.SIGHUP, self._on_signal)
            signal.signal(signal.SIGINT, self._on_signal)
        device = self.board.device
        # Mapped once whatever the engine: the hints and the values shown come from it too.
        self._solution = load_solution(self.config.solution_dir())
        runner = self._make_runner()
        self._engine = describe_engine(self.config, runner)
        board_runner = BoardRunner(device, self.clock)
        failure: str | None = None
        try:
            self.notifier.status("starting: reading the board")
            self._settle(device)  # a GPIO board's first debounced scan
            device.sensors()  # the board answers (a serial board waits for its hello)
            controller = Controller(
                device,
                self.config,
                runner,
                store=self.store,
                now=self.clock(),
                insist=asked_settings(self.overrides),
                solution=self._solution,
            )
            self.controller = controller
            # Beside the loop, as the web companion: espeak-ng never delays the lights.
            self.speaker = start_speech(self.config.speech, controller)
            device.when_changed = lambda reading: self.post("sensors", reading)
            device.when_pressed = lambda press: self.post("button", press)
            if hasattr(device, "when_link_changed"):
                device.when_link_changed = lambda up: self.post("link", up)
            board_runner.when_failed = lambda exc: self.post("device-failed", exc)
            board_runner.start()
            self._last_status = controller.describe()
            self.notifier.ready(status=self._last_status)
            logger.info("ready on the %s board: %s", self.board.backend, controller.describe())
            self._write_status("ready")
            self._loop(controller)
        except DeviceFailed as exc:
            failure = str(exc)
            logger.error("%s; exiting with status 1 (systemd restarts the service)", exc)
        except Exception as exc:
            failure = f"{type(exc).__name__}: {exc}"
            logger.exception("the daemon failed; exiting with status 1")
        finally:
            self._shutdown(runner, board_runner, failure)
            sys.setswitchinterval(switch_interval)
        return 0 if failure is None else 1

    def _settle(self, device: BoardDevice) -> None:
        """Poll a scanned board until its first debounced reading is in.

        Until then a GPIO board reads empty: a resumed game would start by showing every piece
        as missing (and READY=1 would come before the board was read at all).
        """
        settle = settle_time(device)
        if settle <= 0:
            return
        end = self.clock() + settle
        real_end = time.monotonic() + settle + 1.0  # bounded even under a clock that stands still
        while self.clock() < end and time.monotonic() < real_end:
            deadline = device.poll(self.clock())
            time.sleep(min(settle, max(0.0, min(deadline, end) - self.clock())))

    def _loop(self, controller: Controller) -> None:
        pacer = WatchdogPacer(self.notifier)
        while not self._stopping:
            now = self.clock()
            pacer.tick(now)
            wait = MAX_SLEEP
            deadline = controller.next_deadline()
            if deadline is not None:
                wait = min(wait, max(0.0, deadline - now))
            if pacer.period is not None:
                wait = min(wait, pacer.period)
            try:
                kind, payload = self.events.get(timeout=wait)
            except queue.Empty:
                kind, payload = "tick", None
            now = self.clock()
            self._dispatch(controller, kind, payload, now)
            controller.poll(now)
            self._publish(controller)

    def _dispatch(self, controller: Controller, kind: str, payload: Any, now: float) -> None:
        if kind == "sensors":
            reading: SensorReading = payload
            controller.on_sensors(reading.sensed, now)
        elif kind == "button":
            press: ButtonPress = payload
            controller.on_button(press.button, now)
        elif kind == "search":
            job, move = payload
            assert isinstance(job, SearchJob)
            controller.on_search_done(job, move if isinstance(move, Move) else None, now)
        elif kind == "link":
            self._link = "up" if payload else "down"
            controller.on_link(bool(payload), now)
            # The game's line (describe) does not change with the link: write the status here.
            self._write_status(controller.state.last_event)
        elif kind == "reload":
            self._reload(controller)
        elif kind == "device-failed":
            self._link = "failed"
            raise DeviceFailed(f"the board stopped answering: {payload!r}")
        elif kind == "call":
            # A front end's command (morris.web.host.DaemonHost), on the controller's thread.
            fn, future = payload
            run_call(future, fn, controller, now)
        elif kind == "stop":
            logger.info("stopping")
            self._stopping = True

    def _reload(self, controller: Controller) -> None:
        self.notifier.reloading()
        if self.config_path is None:
            logger.info("reload: no configuration file; the configuration is unchanged")
        else:
            try:
                config = load_config(self.config_path).with_overrides(**self.overrides)
            except ConfigError as exc:
                logger.error("configuration not reloaded: %s", exc)
            else:
                if config.hardware != self.config.hardware:
                    logger.warning("hardware settings change only at the next restart")
                old, new = self.config.engine, config.engine
                if (old.command, old.tables, old.solution) != (
                    new.command,
                    new.tables,
                    new.solution,
                ):
                    logger.warning(
                        "engine command, tables and solution change only at the next restart"
                    )
                controller.reconfigure(config)
                self.config = config
                logger.info("configuration reloaded from %s", self.config_path)
        self.notifier.ready(status=controller.describe())
        self._publish(controller)
        # Always a fresh snapshot: `morris reload` (the unit's ExecReload=) waits for it.
        self._write_status(controller.state.last_event)

    def _make_runner(self) -> ThreadedRunner | ProcessRunner:
        """The built-in engine in a thread (C search) or its own process (Python search); an
        external engine (a process already) or a search given to the daemon (tests) in a
        worker thread."""

        def deliver(job: SearchJob, move: Move | None) -> None:
            self.post("search", (job, move))

        if self._search is None and not self.config.engine.command:
            # Loaded whatever the level: the mode button may raise it later (mapping costs little).
            tables = self.config.tables_dir()
            if not tables.is_dir():
                # As load_tables says for a directory without tables (docs/INSTALL.md).
                logger.info(
                    "no endgame tables in %s (build them with `morris tables build`)", tables
                )
            return builtin_runner(
                self.config,
                deliver,
                tables_dir=tables if tables.is_dir() else None,
                solution=self._solution,
            )
        search = self._search or make_search(self.config, tables=self._tables())
        return ThreadedRunner(search, deliver)

    def _tables(self) -> EndgameTables | None:
        # The built-in engine stands in for a failed external one without tables: it is a
        # fallback, and the tables' memory would be spent on every daemon with a command.
        if self.config.engine.command:
            return None
        return load_tables(self.config.tables_dir())

    # -- status -----------------------------------------------------------------------------

    def _publish(self, controller: Controller) -> None:
        text = controller.describe()
        warning = controller.state.engine_warning
        if text != self._last_status or warning != self._last_warning:
            if text != self._last_status:
                self.notifier.status(text)
            self._last_status, self._last_warning = text, warning
            self._write_status(controller.state.last_event)

    def _write_status(self, event: str) -> None:
        controller = self.controller
        if self.status_path is None or controller is None:
            return
        board = controller.board
        outcome = board.outcome()
        status = ServiceStatus(
            pid=os.getpid(),
            started=self._started,
            updated=datetime.now(UTC),
            mode=controller.mode,
            backend=self.board.backend,
            link=self._link,
            board="does not match the game" if controller.referee.is_flagged else "in sync",
            position=board.position(),
            move_count=len(board.move_stack),
            side_to_move=COLOR_NAMES[board.turn] if outcome is None else None,
            level=controller.level if controller.mode is Mode.VS_AI else None,
            last_event=event,
            outcome=None if outcome is None else outcome.result(),
            engine=self._engine,
            remote=_remote_status(controller),
            engine_warning=controller.state.engine_warning or native_warning(),
        )
        try:
            write_status(self.status_path, status)
        except OSError as exc:
            logger.warning("could not write the status file %s: %s", self.status_path, exc)

    def _shutdown(
        self,
        runner: ThreadedRunner | ProcessRunner,
        board_runner: BoardRunner,
        failure: str | None = None,
    ) -> None:
        """Stop searching and polling, save the game, switch the lights off, close the board.

        Every step runs even if an earlier one fails: the lights must go off and the board must
        be released whatever went wrong.
        """
        if failure is None:
            self.notifier.stopping(status="stopping: saving the game")
        else:
            self.notifier.stopping(status=f"failed: {failure}")
        controller = self.controller
        steps: list[tuple[str, Callable[[], object]]] = []
        if controller is not None:
            steps.append(("cancel the search", controller.close))
            steps.append(("save the game", controller.save_now))
        if self.speaker is not None:
            steps.append(("stop speaking", self.speaker.close))
        steps += [
            ("stop the search worker", lambda: runner.close(timeout=2.0)),
            ("stop polling the board", board_runner.stop),
            ("switch the lights off", self._lights_off),
            ("close the board", self.board.close),
        ]
        for what, step in steps:
            try:
                step()
            except Exception as exc:  # the device may be gone (unplugged): go on regardless
                logger.warning("could not %s: %s", what, exc)
        self._drop_calls()
        self._write_status("stopped" if failure is None else f"failed: {failure}")
        self.notifier.close()
        logger.info("stopped")

    def _drop_calls(self) -> None:
        """Cancel the front ends' calls still queued: nobody will run them now."""
        while True:
            try:
                kind, payload = self.events.get_nowait()
            except queue.Empty:
                return
            if kind == "call":
                payload[1].cancel()

    def _lights_off(self) -> None:
        device = self.board.device
        device.show({})
        for light in StatusLight:
            device.set_status(light, Signal.OFF)


def _remote_status(controller: Controller) -> str | None:
    """The status file's ``remote``: whether the remote player is there, and on what."""
    if controller.connection == "none":
        return None
    if controller.connection == "waiting":
        return "waiting"
    return f"up ({controller.remote.player})"
