"""POST /api/setup, POST /api/remote/move and GET /api/remote/legal through the test client, over
a simulation in virtual time: what the page and a linked board send, and the 4xx they get for
bad input with the game unchanged."""

from __future__ import annotations

import pytest

from tests.web.web_kit import TOKENS, web

PLACING = "WWW..BB./......../........ b 2 3 0 20 -"
CONTROL = {"Authorization": f"Bearer {TOKENS.control}"}
WATCH = {"Authorization": f"Bearer {TOKENS.watch}"}


def lit(state: dict[str, object], signal: str) -> list[str]:
    lights = state["lights"]
    assert isinstance(lights, dict)
    return sorted(p for p, s in lights.items() if s == signal)


def test_setup_takes_json_and_the_lights_guide_the_board() -> None:
    with web(mode="referee") as w:
        response = w.client.post("/api/setup", json={"position": PLACING})
        assert response.status_code == 200, response.text
        state = response.json()
        assert state["position"] == PLACING
        assert state["moves"] == []
        w.wait(0.5)
        state = w.state()
        assert lit(state, "on") == ["a1", "a7", "d1", "d7", "g7"]
        assert state["status"]["error"] == "on"
        for point in ("a7", "d7", "g7", "a1", "d1"):
            w.tap(point)
        w.wait(1.0)
        state = w.state()
        assert lit(state, "on") == [] and state["event"] == "position set up: black to move"
        w.tap("b4")
        w.wait(1.0)
        assert w.state()["moves"] == ["b4"]


def test_setup_takes_a_plain_text_body() -> None:
    with web(mode="referee") as w:
        response = w.client.post(
            "/api/setup", content=PLACING.encode(), headers={"Content-Type": "text/plain"}
        )
        assert response.status_code == 200, response.text
        assert response.json()["position"] == PLACING


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"json": {"position": "WWW"}}, "7 fields"),
        ({"json": {"position": "WW...BB./......../........ w 0 0 0 20 -"}}, "already over"),
        ({"json": {"place": PLACING}}, '{"position": "<position text>"}'),
        ({"json": ["x"]}, "must be a JSON object"),
        ({"content": b"", "headers": {"Content-Type": "text/plain"}}, "empty position"),
        ({"content": b"\xff\xfe", "headers": {"Content-Type": "text/plain"}}, "not UTF-8"),
    ],
)
def test_a_bad_setup_is_a_400_naming_the_problem(body: dict[str, object], says: str) -> None:
    with web(mode="referee") as w:
        w.tap("d6")
        w.wait(1.0)
        before = w.state()
        response = w.client.post("/api/setup", **body)  # type: ignore[arg-type]
        assert response.status_code == 400
        assert says in response.json()["error"]
        after = w.state()
        assert (after["position"], after["moves"]) == (before["position"], before["moves"])


def test_a_remote_turn_is_shown_on_the_board_and_counts_when_carried_out() -> None:
    with web(mode="remote", human="white") as w:
        w.tap("d6")
        w.wait(1.0)
        legal = w.client.get("/api/remote/legal").json()
        assert legal["turn"] is True and "b4" in legal["moves"] and legal["waiting"] is None
        response = w.client.post("/api/remote/move", json={"move": "b4"})
        assert response.status_code == 200, response.text
        w.wait(0.5)
        state = w.state()
        assert lit(state, "on") == ["b4"]
        assert state["remote_color"] == "black" and state["mode"] == "remote"
        assert state["moves"] == ["d6"]
        assert w.client.get("/api/remote/legal").json() == {
            "turn": False,
            "moves": [],
            "waiting": "b4",
        }
        w.tap("b4")  # the person at the board carries it out
        w.wait(1.0)
        state = w.state()
        assert state["moves"] == ["d6", "b4"] and state["event"] == "remote played b4"


@pytest.mark.parametrize(
    ("mode", "body", "status", "says"),
    [
        ("referee", {"move": "d6"}, 409, "the mode is referee"),
        ("remote", {"move": "d6"}, 409, "white's turn at the board"),
        ("remote", {"move": "zz"}, 400, "not a move"),
        ("remote", {"turn": "d6"}, 400, '{"move": "<turn>"}'),
    ],
)
def test_a_bad_remote_turn_is_refused(
    mode: str, body: dict[str, str], status: int, says: str
) -> None:
    with web(mode=mode) as w:
        before = w.state()
        response = w.client.post("/api/remote/move", json=body)
        assert response.status_code == status, response.text
        assert says in response.json()["error"]
        assert w.state()["position"] == before["position"]


def test_an_illegal_remote_turn_is_a_400_and_a_second_one_a_409() -> None:
    with web(mode="remote", human="white") as w:
        w.tap("d6")
        w.wait(1.0)
        response = w.client.post("/api/remote/move", json={"move": "d6"})
        assert response.status_code == 400 and "illegal" in response.json()["error"]
        assert w.client.post("/api/remote/move", json={"move": "b4"}).status_code == 200
        response = w.client.post("/api/remote/move", json={"move": "f4"})
        assert response.status_code == 409 and "b4 waits" in response.json()["error"]
        assert w.client.post("/api/remote/move", json={"move": "b4"}).status_code == 200


def test_spectators_may_not_set_up_nor_play_the_remote_side() -> None:
    with web(mode="remote", lan=True) as w:
        refused = w.client.post("/api/setup", json={"position": PLACING}, headers=WATCH)
        assert refused.status_code == 403
        assert (
            w.client.post("/api/remote/move", json={"move": "d6"}, headers=WATCH).status_code == 403
        )
        response = w.client.post("/api/setup", json={"position": PLACING}, headers=CONTROL)
        assert response.status_code == 200
