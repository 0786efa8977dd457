"""The companion's routes through Starlette's test client, over a simulation in virtual time."""

from __future__ import annotations

from pathlib import Path

import pytest

from morris.core import Board
from morris.web.app import Companion
from morris.web.host import SimulationHost
from morris_device import POINT_NAMES
from tests.web.web_kit import web

SIGNALS = {"off", "on", "slow", "fast"}


def test_state_has_what_the_page_shows() -> None:
    with web(mode="vs-ai", level=3) as w:
        state = w.state()
    for key in ("position", "moves", "lights", "status", "turn", "mode", "level", "event"):
        assert key in state
    assert state["thinking"] is False
    assert state["outcome"] is None
    assert set(state["lights"]) == set(POINT_NAMES)
    assert set(state["lights"].values()) <= SIGNALS
    assert set(state["status"]) == {"turn", "thinking", "error", "game_over"}
    assert state["turn"] == "white" and state["mode"] == "vs-ai" and state["level"] == 3
    assert state["position"] == Board().position()
    assert state["in_hand"] == {"white": 9, "black": 9}
    assert state["svg"].startswith("<svg") and state["sim"] is True


def test_taps_play_a_turn_and_the_state_shows_it() -> None:
    with web() as w:
        w.tap("d6")
        w.wait(1.0)
        state = w.state()
        assert state["moves"] == ["d6"]
        assert state["event"] == "white played d6"
        assert state["turn"] == "black"
        assert state["pieces"] == {"d6": "white"}
        assert state["last_move"] == "d6"
        assert 'data-point="d6" data-signal="off" data-piece="white" data-mark="to"' in state["svg"]


def test_the_pis_turn_is_shown_in_the_lights_and_thinking() -> None:
    with web(mode="vs-ai", level=1) as w:
        w.tap("d6")
        w.wait(0.7)
        assert w.state()["thinking"] is True
        w.wait(3.0)
        state = w.state()
        assert not state["thinking"]
        wanted = [p for p, signal in state["lights"].items() if signal == "on"]
        assert len(wanted) == 1 and state["event"] == f"Pi plays {wanted[0]}"


def test_lifted_piece_is_drawn_lifted_on_a_simulated_board() -> None:
    with web() as w:
        w.tap("d6")
        w.wait(1.0)
        state = w.tap("d6")  # lifted again, before the takeback delay
        assert state["present"] == []
        assert 'data-lifted="white"' in state["svg"]


def test_takeback_press_takes_the_turn_back_and_the_lights_guide_the_board() -> None:
    with web() as w:
        w.tap("d6")
        w.wait(1.0)
        response = w.client.post("/api/press/takeback")
        assert response.status_code == 200
        state = response.json()
        assert state["moves"] == []
        assert state["event"] == "took back d6"
        assert state["lights"]["d6"] == "fast"  # take this piece away


def test_new_game_press() -> None:
    with web() as w:
        w.tap("d6")
        w.wait(1.0)
        w.tap("d6")
        w.wait(3.0)  # the board is empty for the clear delay: a new game
        w.tap("f4")
        w.wait(1.0)
        assert w.client.post("/api/press/new").status_code == 200
        w.tap("f4")
        w.wait(3.0)
        state = w.state()
        assert state["moves"] == [] and state["event"] == "new game"


def test_mode_press_raises_the_level_and_hint_press_shows_a_move() -> None:
    with web(mode="vs-ai", level=1) as w:
        state = w.client.post("/api/press/mode").json()
        assert state["level"] == 2 and state["event"] == "level 2"
        assert sum(signal == "on" for signal in state["lights"].values()) == 2
        w.wait(3.0)
        w.client.post("/api/press/hint")
        w.wait(3.0)
        lights = w.state()["lights"]
        assert list(lights.values()).count("on") == 1  # the hinted placement


@pytest.mark.parametrize(
    ("method", "path", "status", "named"),
    [
        ("POST", "/api/press/jump", 404, "'jump'"),
        ("POST", "/api/sim/place/z9", 400, "'z9'"),
        ("POST", "/api/sim/lift/d6", 400, "no piece stands on d6"),
        ("POST", "/api/sim/poke/d6", 404, "no such route"),
        ("GET", "/api/press/new", 405, "method GET not allowed on /api/press/new"),
        ("DELETE", "/api/state", 405, "method DELETE"),
        ("GET", "/api/nothing", 404, "no such route: GET /api/nothing"),
        ("GET", "/static/secret.py", 404, "'secret.py'"),
        ("GET", "/api/render.svg", 400, "position missing"),
        ("GET", "/api/render.svg?position=nonsense", 400, "'nonsense'"),
    ],
)
def test_bad_requests_get_a_json_error_naming_the_problem(
    method: str, path: str, status: int, named: str
) -> None:
    with web() as w:
        before = w.state()
        response = w.client.request(method, path)
        assert response.status_code == status
        assert named in response.json()["error"]
        after = w.state()
        assert (after["position"], after["moves"]) == (before["position"], before["moves"])


def test_place_on_a_point_that_holds_a_piece_is_refused() -> None:
    with web() as w:
        w.tap("d6")
        response = w.client.post("/api/sim/place/d6")
        assert response.status_code == 400
        assert response.json() == {"error": "d6 holds a piece already: lift it first"}


def test_a_real_board_has_no_sim_routes() -> None:
    with web() as w:
        companion = Companion(SimulationHost(w.sim, hands=False))
        from starlette.testclient import TestClient

        client = TestClient(companion.app, base_url="http://127.0.0.1:8700")
        response = client.post("/api/sim/place/d6")
        assert response.status_code == 404
        assert "real one" in response.json()["error"]
        assert client.get("/api/state").json()["sim"] is False
        assert w.sim.hardware.on_wood() == frozenset()


def test_render_svg_draws_a_position() -> None:
    with web() as w:
        board = Board()
        board.push_notation("d6")
        board.push_notation("f4")
        response = w.client.get(
            "/api/render.svg", params={"position": board.position(), "last": "f4"}
        )
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("image/svg+xml")
        svg = response.text
        assert 'data-point="d6" data-signal="off" data-piece="white"' in svg
        assert 'data-piece="black" data-mark="to"' in svg
        bad = w.client.get("/api/render.svg", params={"position": board.position(), "last": "q"})
        assert bad.status_code == 400
        unknown = w.client.get(
            "/api/render.svg", params={"position": board.position(), "variant": "chess"}
        )
        assert unknown.status_code == 400 and "'chess'" in unknown.json()["error"]


def _finished_game(state_dir: Path) -> Path:
    from morris.app.store import GameStore

    board = Board()
    for move in ("d6", "f4", "d5"):
        board.push_notation(move)
    return GameStore(state_dir).finish(board, white="Ann", black="Bob")


def test_games_are_listed_and_served_by_id(tmp_path: Path) -> None:
    path = _finished_game(tmp_path)
    with web(state_dir=tmp_path) as w:
        games = w.client.get("/api/games").json()["games"]
        assert len(games) == 1
        game = games[0]
        assert game["id"] == path.stem
        assert game["tags"]["White"] == "Ann" and game["result"] == "*"
        assert game["date"] and game["moves"] == 3
        text = w.client.get(f"/api/games/{game['id']}")
        assert text.status_code == 200 and text.text == path.read_text()


@pytest.mark.parametrize(
    "game_id",
    ["nothing", "..%2Fgame.json", "..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "game", ".."],
)
def test_a_game_id_is_never_a_path(tmp_path: Path, game_id: str) -> None:
    _finished_game(tmp_path)
    (tmp_path / "game.txt").write_text("not a game in the games directory")
    with web(state_dir=tmp_path) as w:
        response = w.client.get(f"/api/games/{game_id}")
        assert response.status_code == 404
        assert "error" in response.json()


def test_no_games_without_a_state_directory() -> None:
    with web() as w:
        assert w.client.get("/api/games").json() == {"games": []}


def test_the_page_and_its_files_are_served() -> None:
    with web() as w:
        page = w.client.get("/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        for name in ("app.js", "style.css"):
            assert f"/static/{name}" in page.text
            assert w.client.get(f"/static/{name}").status_code == 200
        assert "EventSource" in w.client.get("/static/app.js").text


def test_json_bodies_are_checked_for_the_routes_that_take_them() -> None:
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from morris.web.calls import read_json

    async def echo(request: Request) -> JSONResponse:
        return JSONResponse(await read_json(request))

    with web() as w:
        w.companion.app.router.routes.append(Route("/api/echo", echo, methods=["POST"]))
        client = TestClient(w.companion.app, base_url="http://127.0.0.1:8700")
        assert client.post("/api/echo", content=b'{"move": "d6"}').json() == {"move": "d6"}
        bad = client.post("/api/echo", content=b'{"move": ')
        assert bad.status_code == 400 and "not JSON" in bad.json()["error"]
        listed = client.post("/api/echo", content=b'["d6"]')
        assert listed.status_code == 400 and "JSON object, not list" in listed.json()["error"]
        binary = client.post("/api/echo", content=b"\xff\xfe")
        assert binary.status_code == 400
