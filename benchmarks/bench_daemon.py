"""Figures for the daemon: sensor-to-lights latency, idle CPU and memory (in-process, as a process).

    python benchmarks/bench_daemon.py [--changes 100] [--idle 10] [--solution DIR]

In-process, the real :class:`~morris.daemon.Daemon` runs on a simulated board (the real GpioBoard
on gpiozero's MockFactory, shift-register profile, 100 Hz scan, 3-scan debounce) in real time.
The Pi (playing white) asks for its first piece on a point; the benchmark puts a piece there and
takes it away, again and again, faster than the referee's accept delay, and times each change
from the magnet (``SimulatedBoard.place``/``lift``) to the device's ``show`` call with the new
light (the point off while the piece is there, on when it is gone). That is scan debounce + the
board runner's callback + the event queue + the referee + the controller's render.

The changes are timed with nothing else running, then while the top level searches for ten
minutes in a thread (the C search, which releases the interpreter lock: how the daemon runs it)
and in a child process (how the daemon runs the Python search, where the C one is not built).

Then the daemon idles for ``--idle`` seconds (steady lights; after 2 s quiet the board is
scanned at its idle rate, 25 Hz), and the process's CPU time over that span and its memory are
read. Last, ``morris run --sim`` is started as a process, as systemd would, and the idle CPU
and resident memory of it and of every process it started (a search process, multiprocessing's
resource tracker) are read from /proc. With ``--solution DIR`` it is started once more with the
solved game in DIR (``morris tables build --men K``) as its ``engine.solution``: what loading
the sector files costs a Pi's memory (RssAnon is the daemon's own: the block tables and the
decompressed blocks it keeps; RssFile, pages of mapped files, the kernel drops under pressure
and reads again: its libraries and the endgame tables).

A mock pin costs less than an lgpio call on a Pi: treat the CPU figures as a floor and expect
several times more on a Pi Zero 2 W or 3.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from hardware.simulated_board import SimulatedBoard
from morris.app.config import Config, board_from_config
from morris.core import Board, Move
from morris.daemon import Daemon, OpenedBoard
from morris.daemon.notify import Notifier
from morris.engine import MAX_LEVEL
from morris_device import Signal

REPO = Path(__file__).resolve().parents[1]


def first_move(board: Board) -> Move:
    """A stand-in for the engine: the first legal move in notation order."""
    return min(board.legal_moves, key=str)


def vm_rss_kib(pid: int | str = "self", field: str = "VmRSS") -> int:
    """Resident memory now, KiB (``field`` of /proc/PID/status: VmRSS, or its parts RssAnon,
    the process's own, and RssFile, pages of mapped files the kernel can drop and read again)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    return -1


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (all its threads), from /proc/PID/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14, 15)


def percentiles(samples: list[float]) -> tuple[float, float, float, float]:
    """(p50, p90, p99, max) of ``samples``."""
    ordered = sorted(samples)
    q = statistics.quantiles(ordered, n=100, method="inclusive")
    return q[49], q[89], q[98], ordered[-1]


class ShowWatcher:
    """Wraps ``device.show``: wakes a waiter when a point shows a given signal."""

    def __init__(self, show: Callable[[Mapping[str, Signal]], None]) -> None:
        self._show = show
        self._cond = threading.Condition()
        self._want: tuple[str, Signal] | None = None
        self.seen_at: float | None = None
        self.calls = 0

    def __call__(self, lights: Mapping[str, Signal]) -> None:
        self._show(lights)  # the LEDs are latched once this returns
        now = time.monotonic()
        with self._cond:
            self.calls += 1
            want = self._want
            if want is not None and lights.get(want[0], Signal.OFF) is want[1]:
                self.seen_at = now
                self._want = None
                self._cond.notify_all()

    def expect(self, point: str, signal: Signal) -> None:
        with self._cond:
            self._want = (point, signal)
            self.seen_at = None

    def wait(self, timeout: float = 5.0) -> float:
        with self._cond:
            if not self._cond.wait_for(lambda: self.seen_at is not None, timeout):
                raise RuntimeError(f"the lights never changed as expected ({self._want})")
            assert self.seen_at is not None
            return self.seen_at


class Busy:
    """A long search of the top level in one of the daemon's runners, while the changes are timed.

    ``thread``: :func:`~morris.app.jobs.builtin_runner` where the C search is built (a worker
    thread; the C search releases the interpreter lock). ``process``: the
    :class:`~morris.app.jobs.ProcessRunner` it uses for the Python search.
    """

    def __init__(self, how: str) -> None:
        self.how = how

    def __enter__(self) -> Busy:
        from morris.app.jobs import ProcessRunner, SearchJob, ThreadedRunner, make_search

        board = board_from_config(Config())
        for text in ("d6", "d2", "b4", "f4", "d7", "d1"):
            board.push(Move.parse(text))
        config = Config().with_overrides(engine_movetime=600.0)
        self._runner: ThreadedRunner | ProcessRunner
        if self.how == "process":
            self._runner = ProcessRunner(config, lambda job, move: None)
        else:
            self._runner = ThreadedRunner(make_search(config), lambda job, move: None)
        self._job = SearchJob(1, "move", board, level=MAX_LEVEL, movetime=600.0)
        self._runner.start(self._job)
        threading.Event().wait(2.0)  # the search has started (the child is up) and runs
        return self

    def __exit__(self, *exc: object) -> None:
        self._runner.cancel(self._job)
        self._runner.close()


def in_process(changes: int, idle: float) -> None:
    """The in-process figures (see the module docstring)."""
    results: dict[str, list[float]] = {}
    for label, debounce, busy in (
        ("referee debounce 0 (the pipeline alone)", 0.0, ""),
        ("referee debounce 0.1 s (the default)", 0.1, ""),
        ("referee debounce 0, C search in a thread", 0.0, "thread"),
        ("referee debounce 0, search in a process", 0.0, "process"),
    ):
        config = Config().with_overrides(
            hardware_backend="sim",
            game_mode="vs-ai",
            game_human="black",  # the Pi is white and asks for its first piece at once
            referee_debounce=debounce,
            referee_accept_delay=1.0,
        )
        target = str(first_move(board_from_config(config)))
        sim = SimulatedBoard(clock=time.monotonic)
        watcher = ShowWatcher(sim.device.show)
        sim.device.show = watcher  # type: ignore[method-assign]
        with tempfile.TemporaryDirectory() as state:
            daemon = Daemon(
                config,
                OpenedBoard(sim.device, "sim", keep=sim),
                notifier=Notifier(None),
                status_path=Path(state) / "status.json",
                search=lambda job: first_move(job.board),
            )
            readings: list[float] = []  # when each debounced reading was scanned
            post = daemon.post

            def timed_post(
                kind: str,
                payload: object = None,
                readings: list[float] = readings,
                post: Callable[[str, object], None] = post,
            ) -> None:
                if kind == "sensors":
                    readings.append(payload.timestamp)  # type: ignore[attr-defined]
                post(kind, payload)

            daemon.post = timed_post  # type: ignore[method-assign]
            watcher.expect(target, Signal.ON)
            thread = threading.Thread(target=daemon.run, kwargs={"install_signals": False})
            thread.start()
            watcher.wait(10.0)  # the Pi's request is shown
            rng = random.Random(1)
            pause = threading.Event()
            latencies: list[float] = []
            after_scan: list[float] = []
            with Busy(busy) if busy else _nothing():
                for i in range(changes):
                    pause.wait(rng.uniform(0.0, 0.01))  # any phase of the 10 ms scan
                    placing = i % 2 == 0
                    watcher.expect(target, Signal.OFF if placing else Signal.ON)
                    start = time.monotonic()
                    (sim.place if placing else sim.lift)(target)
                    shown = watcher.wait()
                    latencies.append(shown - start)
                    after_scan.append(shown - readings[-1])
            results[label] = latencies
            results[label + "|"] = after_scan
            if label.endswith("(the default)"):
                if sim.on_wood():
                    sim.lift(target)
                    watcher.expect(target, Signal.ON)
                    watcher.wait()
                calls = watcher.calls
                cpu0, wall0 = time.process_time(), time.monotonic()
                pause.wait(idle)
                cpu1, wall1 = time.process_time(), time.monotonic()
                idle_cpu = (cpu1 - cpu0) / (wall1 - wall0)
                idle_shows = watcher.calls - calls
                rss = vm_rss_kib()
                maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            daemon.request_stop()
            thread.join(10.0)

    print(
        f"In-process daemon on the simulated board (shift-register, 100 Hz scan, 3-scan "
        f"debounce), {changes} sensor changes each:"
    )
    print("  sensor change -> device.show with the new light, ms")
    print("  (magnet: from SimulatedBoard.place/lift; scan: from the scan that confirmed it)")
    for label, samples in results.items():
        p50, p90, p99, worst = percentiles([x * 1000 for x in samples])
        name = "  from the scan" if label.endswith("|") else label
        print(f"    {name:40} p50 {p50:6.1f}  p90 {p90:6.1f}  p99 {p99:6.1f}  max {worst:6.1f}")
    print(
        f"  idle for {idle:.0f} s (steady lights, board scanned at its 25 Hz idle rate): "
        f"CPU {idle_cpu:.1%} of one core, {idle_shows} show calls"
    )
    print(
        f"  memory of this process: VmRSS {rss / 1024:.1f} MiB, "
        f"ru_maxrss {maxrss / 1024:.1f} MiB (engine imported, numpy "
        f"{'imported' if 'numpy' in sys.modules else 'not imported'})"
    )


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


def process_tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (the search process, multiprocessing's tracker)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").iterdir():
            todo += [int(c) for c in (task / "children").read_text().split()]
    return found


def tree_cpu(pids: list[int]) -> float:
    """CPU seconds of the processes in ``pids`` that still run."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(FileNotFoundError):
            total += cpu_seconds(pid)
    return total


def as_process(idle: float, solution: Path | None = None) -> None:
    """``morris run --sim`` as a process under a fake systemd: startup, idle CPU, memory; with
    ``solution``, the solved game in that directory loaded (the config's ``engine.solution``)."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            sys.executable,
            "-m",
            "morris",
            "run",
            "--sim",
            "--state-dir",
            str(Path(tmp) / "s"),
        ]
        if solution is not None:
            config = Path(tmp) / "config.toml"
            config.write_text(f"[engine]\nsolution = {str(solution.resolve())!r}\n")
            command += ["--config", str(config)]
        address = str(Path(tmp) / "notify")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(address)
        sock.settimeout(60.0)
        env = {k: v for k, v in os.environ.items() if k != "WATCHDOG_PID"}
        env.update(NOTIFY_SOCKET=address, WATCHDOG_USEC="30000000", PYTHONPATH=str(REPO))
        start = time.monotonic()
        process = subprocess.Popen(
            command,
            env=env,
            stderr=subprocess.DEVNULL,
        )
        stop = threading.Event()
        ready = threading.Event()

        def listen() -> None:  # read the socket all the time, as systemd does
            sock.settimeout(0.2)
            while not stop.is_set():
                try:
                    data = sock.recv(4096)
                except TimeoutError:
                    continue
                if b"READY=1" in data:
                    ready.set()

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        try:
            if not ready.wait(60.0):
                raise RuntimeError("morris run --sim did not report READY=1")
            startup = time.monotonic() - start
            cpu_start = cpu_seconds(process.pid)
            stop.wait(1.0)  # past the start-up work
            pids = process_tree(process.pid)
            cpu0, wall0 = tree_cpu(pids), time.monotonic()
            stop.wait(idle)
            cpu1, wall1 = tree_cpu(pids), time.monotonic()
            rss = {pid: vm_rss_kib(pid) for pid in pids}
            anon = sum(vm_rss_kib(pid, "RssAnon") for pid in pids)
            mapped = sum(vm_rss_kib(pid, "RssFile") for pid in pids)
        finally:
            process.terminate()
            code = process.wait(20.0)
            stop.set()
            listener.join(5.0)
            sock.close()
    with_solution = "" if solution is None else f", the solved game in {solution} loaded"
    print(
        f"`morris run --sim` as a process (WATCHDOG_USEC=30 s, as the unit's WatchdogSec=30)"
        f"{with_solution}:"
    )
    print(f"  start to READY=1: {startup:.2f} s (CPU {cpu_start:.2f} s)")
    print(
        f"  idle for {idle:.0f} s: CPU {(cpu1 - cpu0) / (wall1 - wall0):.2%} of one core "
        f"({len(pids)} process{'es' if len(pids) > 1 else ''})"
    )
    parts = ", ".join(f"{kib / 1024:.1f}" for kib in rss.values())
    print(
        f"  VmRSS {sum(rss.values()) / 1024:.1f} MiB in all ({parts}): RssAnon "
        f"{anon / 1024:.1f} MiB, RssFile {mapped / 1024:.1f} MiB; exit code after SIGTERM: {code}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--changes", type=int, default=100, help="sensor changes to time")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle to measure")
    parser.add_argument(
        "--solution",
        type=Path,
        default=None,
        metavar="DIR",
        help="also measure the daemon as a process with the solved game in DIR loaded",
    )
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]} on {os.uname().machine}, {os.cpu_count()} CPUs")
    in_process(args.changes, args.idle)
    as_process(args.idle)
    if args.solution is not None:
        as_process(args.idle, args.solution)


if __name__ == "__main__":
    main()
