"""The web companion: how fast a change reaches a page, and what the companion costs.

    python benchmarks/bench_web.py [--rounds 300] [--idle 30] [--pages 50] [--touches 100]

Latency: the daemon's loop on a simulated board in real time with the companion on loopback (in
this process, on their own threads, as ``morris run --sim --web`` runs them); an SSE client
(httpx) reads ``/api/events``. Each round changes the game in the controller (the mode button,
on the controller's thread, the time taken there) and waits for the ``state`` event that shows
it: the time from the change to the event read by the client.

Live view: the same daemon and companion with ``--pages`` pages open (SSE clients in another
process, asyncio httpx, so that their reading does not take this process's interpreter lock). Each
touch puts a piece on the wood (the simulated board's magnet, on the controller's thread, as
``POST /api/sim/place`` does) and lifts it 0.15 s later, before the referee would read a turn: the
time from the piece put (or lifted) to each page's ``state`` event whose ``sensed`` shows it, for
every page (so p99 is over pages x changes): from the sensor reading the controller gets (the
sensed change) and from the piece put on the wood (adding the board's scan and debounce).

Cost: ``morris run --sim`` and ``morris run --sim --web`` as processes, with one page open
(an SSE client) on the second: the resident memory (VmRSS) the companion adds, and the CPU the
whole process uses while idle (utime + stime over ``--idle`` seconds).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from hardware.simulated_board import SimulatedBoard
from morris.app.config import Config
from morris.daemon import Daemon, OpenedBoard
from morris.web.host import DaemonHost
from morris.web.server import start_companion

ROOT = Path(__file__).resolve().parents[1]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency(rounds: int) -> list[float]:
    """Seconds from a change in the controller to its event at the client, per round."""
    sim = SimulatedBoard(clock=time.monotonic)
    config = Config().with_overrides(hardware_backend="sim", game_mode="vs-ai", game_level=1)
    daemon = Daemon(config, OpenedBoard(sim.device, "sim", keep=sim))
    with open(os.devnull, "w") as quiet:
        server = start_companion(DaemonHost(daemon), "127.0.0.1:0", state_dir=None, out=quiet)
    loop = threading.Thread(target=daemon.run, kwargs={"install_signals": False}, daemon=True)
    loop.start()
    host = DaemonHost(daemon)
    changed_at: dict[str, float] = {}
    seen: dict[str, float] = {}
    ready = threading.Event()
    done = threading.Event()

    def client() -> None:
        with httpx.Client(timeout=30) as http, http.stream("GET", f"{server.url}api/events") as s:
            event = None
            for line in s.iter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "state":
                    state = json.loads(line[6:])
                    ready.set()
                    key = f"{state['mode']} {state['level']} {state['event']}"
                    seen.setdefault(key, time.monotonic())
                    if done.is_set():
                        return

    reader = threading.Thread(target=client, daemon=True)
    reader.start()
    ready.wait(30)
    results = []
    for _ in range(rounds):

        def press(controller: Any, now: float) -> str:
            changed_at["t"] = time.monotonic()
            controller.on_button("mode", now)
            snap = controller.snapshot(now)
            return f"{snap.mode} {snap.level} {snap.event}"

        seen.clear()
        key = host.call(press)
        deadline = time.monotonic() + 5
        while key not in seen and time.monotonic() < deadline:
            time.sleep(0.0005)
        if key in seen:
            results.append(seen[key] - changed_at["t"])
        time.sleep(0.02)
    done.set()
    daemon.request_stop()
    loop.join(10)
    server.stop()
    return results


#: The pages' process: ``--pages-client URL N`` reads N event streams and prints every
#: ``state`` event's arrival (monotonic clock, which all processes share) as JSON at the end.
POINTS_TOUCHED = ("a1", "g7", "d2", "f4")


async def _read_pages(url: str, pages: int, until: float) -> list[list[tuple[float, str]]]:
    """Read ``pages`` event streams until ``until``; per page: (arrival, sensed) per event."""
    import asyncio

    seen: list[list[tuple[float, str]]] = [[] for _ in range(pages)]
    ready = asyncio.Event()
    connected = 0

    async def page(index: int, http: httpx.AsyncClient) -> None:
        nonlocal connected
        async with http.stream("GET", f"{url}api/events") as stream:
            event = None
            async for line in stream.aiter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "state":
                    at = time.monotonic()
                    state = json.loads(line[6:])
                    if not seen[index]:
                        connected += 1
                        if connected == pages:
                            ready.set()
                    seen[index].append((at, " ".join(state["sensed"])))
                if time.monotonic() > until:
                    return

    limits = httpx.Limits(max_connections=pages + 5)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        tasks = [asyncio.create_task(page(i, http)) for i in range(pages)]
        await asyncio.wait_for(ready.wait(), 60)
        print("ready", flush=True)
        await asyncio.wait(tasks, timeout=max(1.0, until - time.monotonic() + 5))
        for task in tasks:
            task.cancel()
    return seen


def pages_client(url: str, pages: int, seconds: float) -> None:
    """The pages' process (see :data:`POINTS_TOUCHED`)."""
    import asyncio

    seen = asyncio.run(_read_pages(url, pages, time.monotonic() + seconds))
    print(json.dumps(seen), flush=True)


def live_view(pages: int, touches: int) -> tuple[list[float], list[float]]:
    """Seconds from a piece put on (or lifted off) the wood to each page's event showing it, and
    from the sensor reading the controller got (after the board's scan and debounce) to it."""
    sim = SimulatedBoard(clock=time.monotonic)
    config = Config().with_overrides(hardware_backend="sim", game_mode="referee")
    daemon = Daemon(config, OpenedBoard(sim.device, "sim", keep=sim))
    with open(os.devnull, "w") as quiet:
        server = start_companion(DaemonHost(daemon), "127.0.0.1:0", state_dir=None, out=quiet)
    loop = threading.Thread(target=daemon.run, kwargs={"install_signals": False}, daemon=True)
    loop.start()
    host = DaemonHost(daemon)
    readings: list[tuple[float, str]] = []  # when the controller got each sensor reading

    def watch_readings(controller: Any, now: float) -> None:
        on_sensors = controller.on_sensors

        def reading(occupied: frozenset[str], now: float) -> None:
            readings.append((time.monotonic(), " ".join(sorted(occupied))))
            on_sensors(occupied, now)

        controller.on_sensors = reading

    host.call(watch_readings)
    gap = 0.15
    seconds = touches * 2 * gap + 10
    client = subprocess.Popen(
        [sys.executable, __file__, "--pages-client", server.url, str(pages), str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert client.stdout is not None
    assert client.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    changes: list[tuple[float, str]] = []  # (when, what the sensors then see)
    for k in range(touches):
        point = POINTS_TOUCHED[k % len(POINTS_TOUCHED)]
        for action, sensed in (("place", point), ("lift", "")):

            def touch(
                controller: Any,
                now: float,
                action: str = action,
                point: str = point,
                sensed: str = sensed,
            ) -> None:
                getattr(sim, action)(point)
                changes.append((time.monotonic(), sensed))

            host.call(touch)
            time.sleep(gap)
    seen = json.loads(client.communicate(timeout=seconds + 60)[0])
    daemon.request_stop()
    loop.join(10)
    server.stop()
    from_wood, from_reading = [], []
    for events in seen:
        for when, sensed in changes:
            read = next((at for at, s in readings if at >= when and s == sensed), None)
            arrival = next((at for at, s in events if at >= when and s == sensed), None)
            if arrival is not None and read is not None:
                from_wood.append(arrival - when)
                from_reading.append(arrival - read)
    missing = len(changes) * pages - len(from_wood)
    if missing:
        print(f"{missing} of {len(changes) * pages} changes never reached their page")
    return from_wood, from_reading


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def daemon_cost(web: bool, idle: float) -> tuple[int, float]:
    """(VmRSS KiB, CPU % over ``idle`` s) of ``morris run --sim [--web]`` with a page open."""
    with tempfile.TemporaryDirectory() as state:
        port = free_port()
        command = [sys.executable, "-m", "morris", "run", "--sim", "--state-dir", state]
        command += ["--level", "1"]
        if web:
            command += ["--listen", f"127.0.0.1:{port}"]
        process = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        stream = None
        http = httpx.Client(timeout=30)
        try:
            if web:
                assert process.stdout is not None
                process.stdout.readline()
                stream = http.stream("GET", f"http://127.0.0.1:{port}/api/events")
                response = stream.__enter__()
                next(response.iter_lines())
                # A page also loads the state and its files once.
                http.get(f"http://127.0.0.1:{port}/")
                http.get(f"http://127.0.0.1:{port}/api/state")
            time.sleep(3.0)  # settled: imports done, the first state sent
            start_cpu, start = cpu_seconds(process.pid), time.monotonic()
            time.sleep(idle)
            cpu = cpu_seconds(process.pid) - start_cpu
            share = 100 * cpu / (time.monotonic() - start)
            return rss_kib(process.pid), share
        finally:
            if stream is not None:
                stream.__exit__(None, None, None)
            http.close()
            process.terminate()
            process.wait(20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--idle", type=float, default=30.0)
    parser.add_argument("--pages", type=int, default=50, help="pages open for the live view")
    parser.add_argument("--touches", type=int, default=100, help="pieces put and lifted")
    parser.add_argument("--pages-client", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.pages_client:
        url, pages, seconds = args.pages_client
        pages_client(url, int(pages), float(seconds))
        return

    times = latency(args.rounds)
    ms = [t * 1000 for t in times]
    print(
        f"change -> SSE event at a loopback client: {len(ms)}/{args.rounds} rounds, "
        f"p50 {statistics.median(ms):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
        f"max {max(ms):.1f} ms (target p99 < 100 ms)"
    )
    wood, reading = live_view(args.pages, args.touches)
    for what, values in (("sensor reading", reading), ("piece put or lifted", wood)):
        live = [t * 1000 for t in values]
        print(
            f"{what} -> each of {args.pages} pages: {len(live)} events, "
            f"p50 {statistics.median(live):.1f} ms, p99 {percentile(live, 0.99):.1f} ms, "
            f"max {max(live):.1f} ms (target p99 < 100 ms)"
        )
    plain_rss, plain_cpu = daemon_cost(False, args.idle)
    web_rss, web_cpu = daemon_cost(True, args.idle)
    print(f"morris run --sim:       {plain_rss / 1024:.1f} MiB resident, {plain_cpu:.2f}% CPU idle")
    print(
        f"morris run --sim --web: {web_rss / 1024:.1f} MiB resident, {web_cpu:.2f}% CPU idle "
        "with one page open"
    )
    print(
        f"the companion adds {(web_rss - plain_rss) / 1024:.1f} MiB (target < 15 MiB) and "
        f"{web_cpu - plain_cpu:+.2f}% CPU (target < 1%)"
    )


if __name__ == "__main__":
    main()
