"""The companion for real: uvicorn on loopback beside the daemon's loop, an SSE client, the
terminal app's host, and ``morris sim --web`` started by a script without a terminal."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from morris.app.config import Config
from morris.app.mode import Mode
from morris.app.snapshot import Snapshot
from morris.app.store import GameStore
from morris.daemon import Daemon
from morris.tui.app import SimulatorApp
from morris.tui.dialogs import GameSettings
from morris.web.host import DaemonHost, HostError, TuiHost
from morris.web.server import CompanionServer, ListenError, bind, start_companion
from tests.daemon.daemon_kit import TIMEOUT, real_time_board, sim_config, wait_until
from tests.web.browser_kit import free_port

pytestmark = pytest.mark.realtime

ROOT = Path(__file__).resolve().parents[2]


class Running:
    """A daemon on a real-time simulated board with the companion, on threads."""

    def __init__(self, tmp_path: Path, listen: str = "127.0.0.1:0", **config: Any) -> None:
        self.board = real_time_board()
        self.daemon = Daemon(
            sim_config(game_mode="referee", **config),
            self.board.opened,
            store=GameStore(tmp_path),
        )
        self.out = io.StringIO()
        self.server: CompanionServer = start_companion(
            DaemonHost(self.daemon), listen, state_dir=tmp_path, out=self.out
        )
        self.thread = threading.Thread(target=self.daemon.run, kwargs={"install_signals": False})
        self.thread.start()
        wait_until(lambda: self.server.started, "the server to start")
        self.url = self.server.url.rstrip("/")

    def close(self) -> None:
        self.daemon.request_stop()
        self.thread.join(TIMEOUT)
        self.server.stop()


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Running]:
    run = Running(tmp_path)
    yield run
    run.close()


def read_events(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """The ``state`` events of an open event stream, as they come."""
    event = None
    for line in response.iter_lines():
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "state":
            yield json.loads(line[6:])


def test_a_change_reaches_an_open_event_stream(running: Running) -> None:
    with (
        httpx.Client(base_url=running.url, timeout=TIMEOUT) as client,
        client.stream("GET", "/api/events") as stream,
    ):
        assert stream.headers["content-type"].startswith("text/event-stream")
        events = read_events(stream)
        first = next(events)
        assert first["moves"] == [] and first["turn"] == "white"
        assert first["sensed"] == [] and first["present"] == []
        assert client.post("/api/sim/place/d6").status_code == 200
        start = time.monotonic()
        # The sensors' reading comes first, before the referee has read the turn: the page
        # draws the piece on the wood as one the game does not know yet (the simulator's "?").
        sensed = next(events)
        assert sensed["sensed"] == ["d6"] and sensed["moves"] == []
        assert 'data-point="d6" data-signal="off" data-piece="unknown"' in sensed["svg"]
        assert '<text class="glyph"' in sensed["svg"]
        assert time.monotonic() - start < 0.4  # the referee settles for 0.5 s
        for state in events:
            if state["moves"] == ["d6"]:
                break
        assert state["event"] == "white played d6" and state["pieces"] == {"d6": "white"}
        assert 'data-piece="white"' in state["svg"]
        # The acceptance delay is 0.5 s; the event follows the change at once.
        assert time.monotonic() - start < 3.0
        # A piece of the game lifted: the very next event draws it lifted.
        assert client.post("/api/sim/lift/d6").status_code == 200
        lifted = next(events)
        assert lifted["sensed"] == [] and lifted["pieces"] == {"d6": "white"}
        assert 'data-lifted="white"' in lifted["svg"]


def test_the_state_and_a_press_through_the_daemons_loop(running: Running) -> None:
    with httpx.Client(base_url=running.url, timeout=TIMEOUT) as client:
        state = client.get("/api/state").json()
        assert state["mode"] == "referee" and state["sim"] is True
        pressed = client.post("/api/press/mode").json()
        # The mode button's cycle: referee -> remote (from the next game) -> vs-ai level 1.
        assert pressed["event"] == "remote mode from the next game"
        assert client.post("/api/sim/lift/d6").status_code == 400


def test_a_call_that_raises_raises_in_the_caller(running: Running) -> None:
    host = DaemonHost(running.daemon)

    def broken(controller: object, now: float) -> None:
        raise KeyError("inside the loop")

    with pytest.raises(KeyError, match="inside the loop"):
        host.call(broken)
    assert host.call(lambda controller, now: controller.mode) == "referee"


def test_calls_after_the_daemon_stopped_fail_cleanly(tmp_path: Path) -> None:
    run = Running(tmp_path)
    run.close()
    with pytest.raises(HostError):
        DaemonHost(run.daemon).call(lambda c, now: c.mode, timeout=0.5)


def test_a_port_in_use_is_a_clear_error() -> None:
    taken = bind("127.0.0.1", 0)
    port = taken.getsockname()[1]
    try:
        with pytest.raises(ListenError, match=f"127.0.0.1:{port}: the port is in use"):
            bind("127.0.0.1", port)
    finally:
        taken.close()


def test_beyond_loopback_the_links_carry_the_tokens_and_a_qr_code(tmp_path: Path) -> None:
    run = Running(tmp_path, listen="0.0.0.0:0")
    try:
        text = run.out.getvalue()
        tokens = json.loads((tmp_path / "web-tokens.json").read_text())
        assert f"?token={tokens['control']}" in text and f"?token={tokens['watch']}" in text
        assert "▀" in text or "█" in text  # the QR code, in block characters
        port = run.server.url.rsplit(":", 1)[1].rstrip("/")
        local = f"http://127.0.0.1:{port}"
        assert httpx.get(f"{local}/api/state").status_code == 401
        watch = httpx.get(f"{local}/api/state?token={tokens['watch']}")
        assert watch.json()["access"] == "watch"
    finally:
        run.close()


def test_the_terminal_apps_host_runs_calls_on_its_loop() -> None:
    app = SimulatorApp(Config().with_overrides(game_mode="referee"), autoplay=False)
    host = TuiHost(app)
    seen: list[Snapshot] = []

    async def main() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            turn = await asyncio.to_thread(host.call, lambda c, now: c.snapshot(now).turn)
            assert turn == "white"
            await asyncio.to_thread(host.subscribe, seen.append)
            await asyncio.to_thread(host.hand, "place", "d6")
            assert host.on_wood() == {"d6"}
            app.advance(1.0)
            await pilot.pause()
            assert seen and seen[-1].moves == ("d6",)
            # A new game from the terminal replaces the simulation: the page still follows.
            app.start_new_game(GameSettings(Mode.VS_AI, "white", 2))
            await pilot.pause()
            assert seen[-1].mode == "vs-ai" and seen[-1].moves == ()
            level = await asyncio.to_thread(host.call, lambda c, now: c.level)
            assert level == 2

    asyncio.run(main())
    with pytest.raises(HostError, match="does not run"):
        host.call(lambda c, now: c.level)
    host.close()


def _start_sim(*args: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "morris", "sim", "--web", "--no-save", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    return process, line


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_sim_web_without_a_terminal_serves_the_page_alone_and_stops_on_a_signal(
    stop: signal.Signals,
) -> None:
    port = free_port()
    process, line = _start_sim("--listen", f"127.0.0.1:{port}", "--mode", "referee")
    try:
        assert line.strip() == f"morris: web companion on http://127.0.0.1:{port}/"
        state = wait_until(lambda: _get(f"http://127.0.0.1:{port}/api/state"), "the page's state")
        assert state["sim"] is True and state["mode"] == "referee"
        process.send_signal(stop)
        assert process.wait(TIMEOUT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def _get(url: str) -> dict[str, Any] | None:
    """The JSON of a 200 answer; ``None`` while the server is not up or its game does not answer
    yet (a 503 on a loaded machine: its error is not the state)."""
    try:
        response = httpx.get(url, timeout=2.0)
    except httpx.TransportError:
        return None
    if response.status_code != 200:
        return None
    body: dict[str, Any] = response.json()
    return body


def test_sim_web_on_a_port_in_use_exits_2_saying_so() -> None:
    taken = bind("127.0.0.1", 0)
    port = taken.getsockname()[1]
    try:
        process, _ = _start_sim("--listen", f"127.0.0.1:{port}")
        assert process.wait(TIMEOUT) == 2
        assert process.stderr is not None
        assert f"127.0.0.1:{port}: the port is in use" in process.stderr.read()
    finally:
        taken.close()


def test_sim_web_in_a_terminal_serves_the_terminal_app_and_the_page() -> None:
    import pty

    port = free_port()
    master, slave = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "32"}
    process = subprocess.Popen(
        [sys.executable, "-m", "morris", "sim", "--web", "--no-save", "--mode", "referee",
         "--listen", f"127.0.0.1:{port}"],
        stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env, close_fds=True,
    )  # fmt: skip
    os.close(slave)
    screen = bytearray()

    def drain() -> None:  # the terminal app blocks if nobody reads its screen
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            screen.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    base = f"http://127.0.0.1:{port}"
    try:
        state = wait_until(lambda: _get(f"{base}/api/state"), "the page's state")
        assert state["sim"] is True and state["mode"] == "referee"
        assert httpx.post(f"{base}/api/sim/place/d6").status_code == 200
        state = wait_until(
            lambda: (s := _get(f"{base}/api/state")) and s["moves"] == ["d6"] and s,
            "the terminal app's clock to accept d6",
        )
        assert state["event"] == "white played d6"
        os.write(master, b"q")  # quit, and confirm: a game is in progress
        wait_until(lambda: b"Quit the game" in screen, "the quit question")
        os.write(master, b"y")
        assert process.wait(TIMEOUT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
