"""The page in a real browser: Debian's chromium (/usr/bin/chromium) driven by Playwright, and
``morris sim --web`` started as a script starts it (no terminal)."""

from __future__ import annotations

import itertools
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


#: Ports for the servers the tests start as processes: below Linux's ephemeral range
#: (net.ipv4.ip_local_port_range, 32768-60999), so no socket bound to port 0 (the servers the tests
#: run in-process) and no outgoing connection is ever given one, and a block of its own for each
#: pytest-xdist worker, so two workers never hand out the same one.
PORTS_BASE = 20000
PORTS_PER_WORKER = 500
_next_port = itertools.count()


def free_port() -> int:
    """A port nothing listens on now, and that no other test of this run is given.

    Probing the kernel for a free ephemeral port and closing it is a race: another test's server
    bound to port 0, or any outgoing connection, may be given the same port before the process
    that was meant to have it binds it.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    base = PORTS_BASE + int(worker or 0) % 20 * PORTS_PER_WORKER
    for _ in range(PORTS_PER_WORKER):
        port = base + next(_next_port) % PORTS_PER_WORKER
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:  # something outside this test run holds it
                continue
        return port
    raise AssertionError(f"no free port in {base}-{base + PORTS_PER_WORKER - 1}")


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
def browser_page(
    viewport: dict[str, int] = PHONE, scale: float = 1.0, **options: Any
) -> Iterator[object]:
    """A fresh chromium (its own new profile directory) and one page in it; ``options`` go to
    Playwright's ``launch_persistent_context`` (``extra_http_headers``, ``locale`` ...)."""
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
            **options,
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
