"""Start a morris front end with the web companion and play turns against the Pi through the
HTTP API, as a person at a simulated board would; standard library only (it runs inside a
userland with the venv's python).

    python play_client.py --port 8791 -- morris sim --web --no-save --level 1

It checks that ``GET /`` serves the page, places a piece on a free point for each of the
person's turns (``POST /api/sim/place/P``), waits for the Pi's answer lit on the board and puts
the Pi's piece there, then stops the front end with SIGTERM: exit 0 when every turn was read and
the front end stopped cleanly, 1 otherwise (with one line saying what went wrong).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from typing import Any

#: The person's points: far apart, so neither side closes a mill in two turns.
PERSON_POINTS = ("a7", "g1", "d2")
TIMEOUT = 120.0  # emulated, a start can take a while


class Client:
    """Requests to the companion on loopback, naming the listener in ``Host``."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.host = f"127.0.0.1:{port}"

    def get(self, path: str, method: str = "GET") -> tuple[int, str]:
        """Status and body of one request."""
        request = urllib.request.Request(
            self.base + path, method=method, headers={"Host": self.host}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8")

    def state(self) -> dict[str, Any]:
        """``GET /api/state``."""
        status, body = self.get("/api/state")
        if status != 200:
            raise RuntimeError(f"/api/state answered {status}: {body[:200]}")
        data: dict[str, Any] = json.loads(body)
        return data


def wait(what: str, check: Any, timeout: float = TIMEOUT) -> Any:
    """Poll ``check()`` until it returns something true; fail naming ``what``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            found = check()
        except (OSError, RuntimeError):
            found = None
        if found:
            return found
        time.sleep(0.25)
    raise RuntimeError(f"timed out waiting for {what}")


def play(client: Client, turns: int) -> list[str]:
    """``turns`` turns of the person and the Pi's answers; the game's moves."""
    status, page = client.get("/")
    if status != 200 or "<html" not in page.lower():
        raise RuntimeError(f"GET / answered {status}, not the page")
    for turn in range(turns):
        point = PERSON_POINTS[turn]
        status, body = client.get(f"/api/sim/place/{point}", method="POST")
        if status != 200:
            raise RuntimeError(f"placing {point} answered {status}: {body[:200]}")
        wait(f"{point} read as a turn", lambda n=2 * turn + 1: len(client.state()["moves"]) >= n)

        def pi_light() -> str | None:
            state = client.state()
            present = state.get("present") or {}
            lit = [
                p for p, signal in state["lights"].items() if signal == "on" and p not in present
            ]
            return lit[0] if len(lit) == 1 and not state.get("thinking") else None

        answer = wait("the Pi's answer lit", pi_light)
        client.get(f"/api/sim/place/{answer}", method="POST")
        wait(f"the Pi's {answer} read", lambda n=2 * turn + 2: len(client.state()["moves"]) >= n)
    moves: list[str] = client.state()["moves"]
    return moves


def main() -> int:
    """Run the front end, play, stop it; the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--turns", type=int, default=2)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        client = Client(args.port)
        wait("the companion to answer", lambda: client.get("/api/state")[0] == 200)
        moves = play(client, args.turns)
    except RuntimeError as exc:
        process.terminate()
        output = process.communicate(timeout=60)[0]
        print(f"play_client: {exc}\n{output[-2000:]}")
        return 1
    process.terminate()
    try:
        output = process.communicate(timeout=60)[0]
    except subprocess.TimeoutExpired:
        process.kill()
        print("play_client: the front end did not stop on SIGTERM")
        return 1
    if process.returncode != 0:
        print(f"play_client: the front end exited {process.returncode}\n{output[-2000:]}")
        return 1
    print("played: " + " ".join(moves))
    return 0


if __name__ == "__main__":
    sys.exit(main())
