"""Helpers for the web companion's tests: a companion over a simulation in virtual time."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from morris.sim import Simulation
from morris.web.app import Companion
from morris.web.host import SimulationHost
from morris.web.security import Policy, RateLimiter, Tokens

#: The loopback listener's address the test client speaks to (its Host header).
LOCAL = "http://127.0.0.1:8700"
#: A listener on the home network.
LAN = "http://192.168.1.20:8700"
TOKENS = Tokens(control="control-token-0123456789", watch="watch-token-0123456789ab")


@dataclass
class Web:
    """A simulation, its host, the companion and a test client on it."""

    sim: Simulation
    host: SimulationHost
    companion: Companion
    client: TestClient

    def state(self, **params: Any) -> dict[str, Any]:
        """``GET /api/state`` (asserting it answers 200)."""
        response = self.client.get("/api/state", params=params)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def tap(self, point: str) -> dict[str, Any]:
        """What a tap on the page does on a simulated board: place, or lift what stands there."""
        action = "lift" if point in self.sim.hardware.on_wood() else "place"
        response = self.client.post(f"/api/sim/{action}/{point}")
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def wait(self, seconds: float) -> None:
        """Let virtual time pass."""
        self.host.wait(seconds)


@contextmanager
def web(
    *,
    mode: str = "referee",
    lan: bool = False,
    state_dir: Path | None = None,
    limiter: RateLimiter | None = None,
    **game: Any,
) -> Iterator[Web]:
    """A companion over a fresh simulation (``lan``: listening on the home network, with
    :data:`TOKENS`)."""
    sim = Simulation(mode=mode, state_dir=state_dir, **game)
    host = SimulationHost(sim)
    policy = Policy(
        host="192.168.1.20" if lan else "127.0.0.1",
        port=8700,
        tokens=TOKENS if lan else None,
        limiter=limiter or RateLimiter(),
    )
    companion = Companion(host, policy)
    client = TestClient(companion.app, base_url=LAN if lan else LOCAL)
    try:
        with client:
            yield Web(sim, host, companion, client)
    finally:
        sim.close()
