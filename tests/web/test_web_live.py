"""The live view in virtual time: every sensor reading is a published change, drawn as the
simulator draws it, on a real board too (from ``sensed``), and the hub encodes a change once for
all the pages that see it alike."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.testclient import TestClient

from morris.app.snapshot import Snapshot
from morris.web import events
from morris.web.app import Companion
from morris.web.events import Hub
from morris.web.host import SimulationHost
from tests.web.web_kit import LOCAL, web

#: Less than the referee's settle time (0.5 s) and more than the sensors' scan and debounce.
SENSED = 0.1


def point_of(svg: str, name: str) -> str:
    """The ``<g class="point">`` tag of point ``name`` in a picture."""
    start = svg.index(f'<g class="point" data-point="{name}"')
    return svg[start : svg.index(">", start) + 1]


def test_every_reading_is_published_before_the_referee_reads_a_turn() -> None:
    with web() as w:
        published: list[Snapshot] = []
        w.host.call(lambda controller, now: controller.subscribe(published.append))
        w.sim.hardware.place("d6")
        w.wait(SENSED)
        # The sensors see it, the game does not know it yet: the simulator's "?".
        assert published and published[-1].sensed == ("d6",) and published[-1].moves == ()
        state = w.state()
        assert state["sensed"] == ["d6"] and state["present"] == ["d6"] and state["moves"] == []
        assert 'data-piece="unknown"' in point_of(state["svg"], "d6")
        w.wait(1.0)
        assert w.state()["moves"] == ["d6"]
        # A piece of the game lifted: published at once, drawn lifted in its colour.
        w.sim.hardware.lift("d6")
        w.wait(SENSED)
        assert published[-1].sensed == () and published[-1].pieces == {"d6": "white"}
        assert 'data-lifted="white"' in point_of(w.state()["svg"], "d6")


def test_a_real_board_is_drawn_from_what_its_sensors_see() -> None:
    with web() as w:
        client = TestClient(Companion(SimulationHost(w.sim, hands=False)).app, base_url=LOCAL)
        w.sim.hardware.place("a1")
        w.wait(SENSED)
        state = client.get("/api/state").json()
        assert state["present"] is None and state["sensed"] == ["a1"]
        assert 'data-piece="unknown"' in point_of(state["svg"], "a1")
        assert '<text class="glyph"' in state["svg"]


def test_pages_that_see_a_change_alike_share_one_encoding(monkeypatch: Any) -> None:
    with web() as w:
        hub = Hub(w.host)
        encoded: list[bool] = []
        real = events.state_json

        def counting(*args: Any, **kwargs: Any) -> dict[str, Any]:
            encoded.append(kwargs["flip"])
            return real(*args, **kwargs)

        monkeypatch.setattr(events, "state_json", counting)
        snapshot = w.host.snapshot()

        async def fan_out() -> list[bytes]:
            hub._fan_out(snapshot)
            kinds = [False] * 30 + [True] * 20  # fifty pages, twenty of them flipped
            return [hub.encode(snapshot, sim=True, access="control", flip=f) for f in kinds]

        sent = asyncio.run(fan_out())
        assert encoded == [False, True]  # one picture and JSON per kind of page
        assert (
            len(set(sent)) == 2 and b"board flipped" in sent[-1] and b"board flipped" not in sent[0]
        )
        # A snapshot that is not the newest (a page's first state) is encoded for it alone.
        hub.encode(w.host.snapshot(), sim=True, access="control", flip=False)
        assert len(encoded) == 3
