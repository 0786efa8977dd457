"""Helpers for the real-time tests of paired boards: `morris sim --web` processes on loopback
(without a terminal each serves its page alone: the daemon's loop on a simulated board), driven
through their HTTP API like a person's hands and a page."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from tests.web.browser_kit import free_port

#: How long a condition may take to come true on a real clock, seconds.
PATIENCE = 20.0


def wait_until(condition: Callable[[], Any], what: str, patience: float = PATIENCE) -> Any:
    """Poll ``condition`` until it is true; fail naming ``what`` after ``patience`` seconds."""
    deadline = time.monotonic() + patience
    while True:
        try:
            value = condition()
        except httpx.HTTPError:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


class Board:
    """One `morris sim --web` process: a board in a house, with its companion."""

    def __init__(self, name: str, state_dir: Path, *args: str, port: int | None = None) -> None:
        self.name = name
        self.state_dir = state_dir
        self.args = args
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Board:
        """Start the process and wait for its page to answer."""
        command = [
            sys.executable,
            "-m",
            "morris",
            "sim",
            "--web",
            "--listen",
            f"127.0.0.1:{self.port}",
            "--state-dir",
            str(self.state_dir),
            "--log",
            str(self.state_dir / "sim.log"),
            "--level",
            "1",
            *self.args,
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=(self.state_dir / "stderr.txt").open("wb"),
            env=env,
        )
        wait_until(self._answers, f"{self.name}'s page to answer")
        return self

    def _answers(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise AssertionError(f"{self.name} exited with {self.process.returncode}: {self.log()}")
        return httpx.get(f"{self.url}/api/state", timeout=1.0).status_code == 200

    def stop(self) -> None:
        """Stop it as systemd would (SIGTERM) and wait for it."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def log(self) -> str:
        """The end of its log and stderr, for a failure's message."""
        parts = []
        for name in ("sim.log", "stderr.txt"):
            path = self.state_dir / name
            if path.exists():
                parts.append(path.read_text(errors="replace")[-3000:])
        return "\n".join(parts)

    # -- what a page and a person's hands do ------------------------------------------------

    def state(self) -> dict[str, Any]:
        """``GET /api/state``."""
        response = httpx.get(f"{self.url}/api/state", timeout=5.0)
        response.raise_for_status()
        body: dict[str, Any] = response.json()
        return body

    def hand(self, action: str, point: str) -> None:
        """Put a piece on ``point`` or lift it, on the simulated board."""
        response = httpx.post(f"{self.url}/api/sim/{action}/{point}", timeout=5.0)
        assert response.status_code == 200, response.text

    def lit(self, signal_name: str) -> list[str]:
        """The points showing ``signal_name``."""
        return sorted(p for p, s in self.state()["lights"].items() if s == signal_name)

    def play(self, move: str) -> None:
        """Carry out ``move`` (``d6``, ``a1-a4``, ``d6xg7``) by hand and wait until it counts."""
        before = len(self.state()["moves"])
        body, _, removal = move.partition("x")
        origin, _, target = body.rpartition("-")
        if origin:
            self.hand("lift", origin)
            time.sleep(0.3)
        self.hand("place", target)
        if removal:
            time.sleep(0.8)
            self.hand("lift", removal)
        wait_until(lambda: len(self.state()["moves"]) > before, f"{move} to count on {self.name}")

    def carry_out(self) -> str:
        """Do what the lights ask for the other side's turn (a placement or a slide, then the
        removal once it is shown); return it."""
        before = len(self.state()["moves"])
        on = wait_until(lambda: self.lit("on"), f"a remote turn to light up on {self.name}")
        slow = self.lit("slow")
        if slow:
            self.hand("lift", slow[0])
            time.sleep(0.3)
        self.hand("place", on[0])
        move = f"{slow[0]}-{on[0]}" if slow else on[0]

        def done() -> bool | str:
            state = self.state()
            if len(state["moves"]) > before:
                return True
            removal = [p for p, s in state["lights"].items() if s == "slow"]
            return removal[0] if removal else False

        result = wait_until(done, f"{move} to count on {self.name}")
        if isinstance(result, str):
            self.hand("lift", result)
            move += f"x{result}"
            wait_until(lambda: len(self.state()["moves"]) > before, f"{move} on {self.name}")
        return move

    def __enter__(self) -> Board:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
