"""The page and the pairing as a newcomer meets them (issue 36): ``place/D6`` taken as the terminal
takes ``D6``, the page's new game keeps the game left, a pairing two boards cannot play refused
(never ``up``) in the colours the persons gave, why a pairing waits in the state, and a
``--link-token`` the other board does not check said (points 3, 4, 5 and 8)."""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from morris.core import read_game
from morris.sim import Simulation
from morris.web.host import SimulationHost
from morris.web.pairing import PAIRING_HEADER, PLAYS_HEADER, BoardPairing
from morris.web.server import start_companion
from tests.app.scenario_kit import play
from tests.web.browser_kit import free_port
from tests.web.web_kit import web


def test_place_takes_a_capital_point_as_the_terminal_does() -> None:
    with web() as w:
        response = w.client.post("/api/sim/place/D6")
        assert response.status_code == 200, response.text
        assert response.json()["present"] == ["d6"]
        assert w.client.post("/api/sim/lift/D6").json()["present"] == []


def test_the_pages_new_game_keeps_the_game_left(tmp_path: Path) -> None:
    with web(state_dir=tmp_path) as w:
        play(w.sim, "d6", "f4")
        assert w.client.post("/api/press/new").status_code == 200
        [kept] = (tmp_path / "games").glob("*.txt")
        assert read_game(kept.read_text(encoding="utf-8")).result == "*"
        listed = w.client.get("/api/games").json()["games"]
        assert len(listed) == 1  # the page's list of finished games has it


def test_a_linking_board_playing_the_same_colour_is_refused_naming_it() -> None:
    with web(mode="remote", human="white") as w:
        headers = {PAIRING_HEADER: "board", PLAYS_HEADER: "white"}
        response = w.client.get("/api/events", headers=headers)
        assert response.status_code == 409
        assert "both boards play white at the board" in response.json()["error"]
        assert "start one with --human black" in response.json()["error"]
        state = w.state()
        assert state["link"] == "waiting"
        assert "a linked board was refused: both boards play white" in state["link_reason"]
        assert state["event"] == state["link_reason"]


def wait_until(condition: Callable[[], object], what: str, patience: float = 10.0) -> None:
    deadline = time.monotonic() + patience
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


@contextmanager
def paired(sim: Simulation, url: str, token: str = "") -> Iterator[BoardPairing]:
    pairing = BoardPairing(
        SimulationHost(sim),
        url,
        token,
        backoff=(0.05, 0.2),
        timeout=2.0,
        plays=sim.controller.human,
    )
    pairing.start()
    try:
        yield pairing
    finally:
        pairing.close()


@contextmanager
def companion(sim: Simulation) -> Iterator[str]:
    server = start_companion(SimulationHost(sim), "127.0.0.1:0", state_dir=None, out=io.StringIO())
    wait_until(lambda: server.started, "the companion to start")
    try:
        yield server.url.rstrip("/")
    finally:
        server.stop()


def reason(sim: Simulation) -> str:
    return sim.controller.snapshot(sim.now).connection_reason or ""


@pytest.mark.realtime
def test_a_link_says_why_it_waits_and_is_never_up_when_refused() -> None:
    with Simulation(mode="remote", human="white") as here:
        url = f"http://127.0.0.1:{free_port()}"
        with paired(here, url):  # nothing listens there
            wait_until(lambda: "connection refused" in reason(here), "the refused connection")
            assert reason(here).startswith(f"connection refused to {url}")
            assert here.controller.snapshot(here.now).connection == "waiting"
        with (
            Simulation(mode="remote", human="white") as there,
            companion(there) as url,
            paired(here, url) as pairing,
        ):
            wait_until(lambda: "both boards play white" in reason(here), "the refusal")
            wait_until(lambda: "both boards play white" in reason(there), "its word")
            time.sleep(0.3)  # a retry or two: still refused, never up
            assert not pairing.is_connected
            for sim in (here, there):
                snapshot = sim.controller.snapshot(sim.now)
                assert snapshot.connection == "waiting", snapshot.connection_reason
                assert "--human black" in (snapshot.connection_reason or "")


@pytest.mark.realtime
def test_a_link_token_that_a_loopback_board_does_not_check_is_said() -> None:
    with (
        Simulation(mode="remote", human="white") as here,
        Simulation(mode="remote", human="black") as there,
        companion(there) as url,
        paired(here, url, token="not-the-token"),
    ):
        wait_until(lambda: here.controller.snapshot(here.now).connection == "up", "the link")
        event = lambda: here.controller.snapshot(here.now).event  # noqa: E731
        wait_until(lambda: "--link-token is not checked" in event(), "the token's word")
        assert "listens on its loopback" in event()
        assert there.controller.snapshot(there.now).connection == "up"
