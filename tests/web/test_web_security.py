"""Who may do what: tokens beyond loopback, origins, hosts, body sizes, rates, no CORS."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from morris.web import security
from morris.web.security import COOKIE, RateLimiter, load_tokens
from tests.web.web_kit import TOKENS, web

CONTROL = {"Authorization": f"Bearer {TOKENS.control}"}
WATCH = {"Authorization": f"Bearer {TOKENS.watch}"}


def test_beyond_loopback_reading_needs_a_token() -> None:
    with web(lan=True) as w:
        response = w.client.get("/api/state")
        assert response.status_code == 401 and "token" in response.json()["error"]
        assert (
            w.client.get("/api/state", headers={"Authorization": "Bearer wrong"}).status_code == 401
        )
        assert w.client.get("/api/state", headers=WATCH).json()["access"] == "watch"
        assert w.client.get("/api/state", headers=CONTROL).json()["access"] == "control"


def test_beyond_loopback_every_write_needs_the_control_token() -> None:
    with web(lan=True) as w:
        assert w.client.post("/api/sim/place/d6").status_code == 401
        refused = w.client.post("/api/sim/place/d6", headers=WATCH)
        assert refused.status_code == 403 and "read-only" in refused.json()["error"]
        assert w.sim.hardware.on_wood() == frozenset()
        assert w.client.post("/api/sim/place/d6", headers=CONTROL).status_code == 200
        assert w.client.post(f"/api/press/hint?token={TOKENS.control}").status_code == 200
        assert w.sim.hardware.on_wood() == {"d6"}


def test_the_page_link_puts_the_token_in_a_cookie() -> None:
    with web(lan=True) as w:
        assert w.client.get("/").status_code == 200  # the page itself holds no game data
        response = w.client.get(f"/?token={TOKENS.watch}", follow_redirects=False)
        assert response.status_code == 303 and response.headers["location"] == "/"
        cookie = response.headers["set-cookie"]
        assert f"{COOKIE}={TOKENS.watch}" in cookie
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie
        assert w.client.get("/api/state").status_code == 200  # with the cookie
        bad = w.client.get("/?token=guess", follow_redirects=False)
        assert bad.status_code == 403 and "set-cookie" not in bad.headers


def test_tokens_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[tuple[bytes, bytes]] = []
    real = security.hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(security.hmac, "compare_digest", spy)
    with web(lan=True) as w:
        w.client.get("/api/state", headers={"Authorization": "Bearer guess"})
    assert (b"guess", TOKENS.control.encode()) in compared


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://127.0.0.1:9999"])
def test_a_foreign_origin_is_refused(origin: str) -> None:
    with web() as w:
        response = w.client.post("/api/sim/place/d6", headers={"Origin": origin})
        assert response.status_code == 403 and "origin" in response.json()["error"]
        assert w.client.get("/api/state", headers={"Origin": origin}).status_code == 403
        assert w.sim.hardware.on_wood() == frozenset()
        own = w.client.post("/api/sim/place/d6", headers={"Origin": "http://127.0.0.1:8700"})
        assert own.status_code == 200


def test_a_foreign_origin_is_refused_beyond_loopback_even_with_the_cookie() -> None:
    with web(lan=True) as w:
        w.client.cookies.set(COOKIE, TOKENS.control)
        assert w.client.post("/api/press/hint").status_code == 200
        response = w.client.post("/api/press/new", headers={"Origin": "http://evil.example"})
        assert response.status_code == 403


def test_on_loopback_another_host_name_is_refused() -> None:
    # A page elsewhere may point a name of its own at 127.0.0.1 (DNS rebinding).
    with web() as w:
        response = w.client.get("/api/state", headers={"Host": "evil.example:8700"})
        assert response.status_code == 403 and "evil.example" in response.json()["error"]
        assert w.client.get("/api/state", headers={"Host": "localhost:8700"}).status_code == 200


def test_no_cors_headers_anywhere() -> None:
    with web() as w:
        preflight = w.client.options(
            "/api/press/new",
            headers={"Origin": "http://127.0.0.1:8700", "Access-Control-Request-Method": "POST"},
        )
        assert preflight.status_code == 405
        for response in (preflight, w.client.get("/api/state"), w.client.get("/")):
            assert not any(h.lower().startswith("access-control-") for h in response.headers)
        assert w.client.get("/").headers["x-frame-options"] == "DENY"


def test_a_huge_body_is_refused() -> None:
    with web() as w:
        response = w.client.post("/api/press/new", content=b"x" * (security.MAX_BODY + 1))
        assert response.status_code == 413 and "body" in response.json()["error"]

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
            for _ in range(40):
                yield b"y" * 1024

        streamed = w.client.post("/api/sim/place/d6", content=chunks())
        assert streamed.status_code == 413
        assert w.sim.hardware.on_wood() == frozenset()
        bad_length = w.client.post("/api/press/new", headers={"Content-Length": "lots"})
        assert bad_length.status_code == 400


def test_writes_are_rate_limited_per_client() -> None:
    now = [0.0]
    limiter = RateLimiter(burst=5, per_second=1.0, clock=lambda: now[0])
    with web(limiter=limiter) as w:
        codes = [w.client.post("/api/press/hint").status_code for _ in range(7)]
        assert codes == [200] * 5 + [429] * 2
        assert w.client.get("/api/state").status_code == 200  # reading is not limited
        now[0] += 2.0
        assert w.client.post("/api/press/hint").status_code == 200


def test_tokens_are_kept_in_the_state_directory_private(tmp_path: Path) -> None:
    first = load_tokens(tmp_path)
    assert load_tokens(tmp_path) == first
    assert first.control != first.watch and len(first.control) >= 32
    path = tmp_path / security.TOKENS_FILE
    assert path.stat().st_mode & 0o777 == 0o600
    assert json.loads(path.read_text()) == {"control": first.control, "watch": first.watch}
    path.write_text("not json")
    assert load_tokens(tmp_path) != first  # a broken file: new tokens, not a crash
    assert load_tokens(None) != load_tokens(None)
