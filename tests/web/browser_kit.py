"""The page in a real browser: Debian's chromium (/usr/bin/chromium) driven by Playwright, and
``morris sim --web`` started as a script starts it (no terminal)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

#: Debian's chromium: Playwright never downloads a browser of its own here.
CHROMIUM = "/usr/bin/chromium"
#: The browser tests skip on a machine without Debian's chromium, but never in CI: .ci/run installs
#: it and sets MORRIS_REQUIRE_BROWSER=1, and a missing browser is then a failure.
needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and os.environ.get("MORRIS_REQUIRE_BROWSER") != "1",
    reason="no /usr/bin/chromium (apt install chromium; .ci/run does)",
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: A phone held upright (CSS pixels).
PHONE = {"width": 390, "height": 844}
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def sim_web(
    *args: str,
    host: str = "127.0.0.1",
    port: int | None = None,
    timeout: float = 30.0,
    state_dir: Path | None = None,
) -> Iterator[Started]:
    """``morris sim --web --no-save`` on ``port`` (a free one if not given), without a
    terminal (keeping its state and finished games in ``state_dir`` if given)."""
    port = port or free_port()
    keep = ["--no-save"] if state_dir is None else ["--state-dir", str(state_dir)]
    command = [sys.executable, "-m", "morris", "sim", "--web", *keep]
    command += ["--listen", f"{host}:{port}", *args]
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "web companion on" in line, line + (process.stderr.read() if process.stderr else "")
        yield Started(f"http://127.0.0.1:{port}/", process)
    finally:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Started:
    """A running ``morris sim --web``: its loopback URL and its process (stdout to read on)."""

    url: str
    process: subprocess.Popen[str]

    def links(self) -> dict[str, str]:
        """The token links it printed for a listener beyond loopback: role -> token."""
        assert self.process.stdout is not None
        found = {}
        for _ in range(2):
            line = self.process.stdout.readline()
            role = line.strip().split(" ", 1)[0]
            found[role] = line.rsplit("?token=", 1)[1].strip()
        return found


@contextmanager
def browser_page(viewport: dict[str, int] = PHONE, scale: float = 1.0) -> Iterator[object]:
    """A fresh chromium (its own new profile directory) and one page in it."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="morris-chromium-") as profile, sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            headless=True,
            viewport=viewport,  # type: ignore[arg-type]
            device_scale_factor=scale,
            has_touch=True,
        )
        try:
            yield context.new_page()
        finally:
            context.close()


def box_of(locator: Any) -> dict[str, float]:
    """The on-screen box of the element ``locator`` finds, read in one step in the page.

    Playwright's ``bounding_box()`` answers ``None`` when the page swaps the element at that
    instant (the board picture is redrawn on every state); ``evaluate`` waits for the element
    and reads its box in the same turn of the page's event loop, so a redraw cannot interleave.
    """
    box: dict[str, float] = locator.evaluate(
        "e => { const r = e.getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; }"
    )
    return box
