"""The page in a real headless chromium: a whole game played by taps on ``morris sim --web``
(started without a terminal), with a takeback, as a person with a phone sees it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.browser_kit import box_of, browser_page, free_port, needs_chromium, sim_web

pytestmark = [
    pytest.mark.realtime,
    pytest.mark.browser,
    pytest.mark.slow,
    needs_chromium,
]

#: A placing phase without a mill that leaves White no move: Black wins, blocked (0-1).
BLOCKING_GAME = (
    "a1", "d7", "d6", "d1", "f6", "a4", "b4", "b6", "c5",
    "f4", "d5", "b2", "e4", "e5", "e3", "d3", "c3", "c4",
)  # fmt: skip
WAIT = 15_000  # ms: an upper bound, never a fixed pause


def point(page: Any, name: str) -> Any:
    return page.locator(f'#board g.point[data-point="{name}"]')


def tap(page: Any, name: str) -> None:
    page.locator(f'#board .hit[data-point="{name}"]').tap()


def wait_for_event(page: Any, text: str) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#event")).to_have_text(text, timeout=WAIT)


def test_a_whole_game_by_taps_with_a_takeback() -> None:
    from playwright.sync_api import expect

    with sim_web("--mode", "referee") as sim, browser_page() as page:
        page.goto(sim.url)
        expect(page.locator("#conn")).to_have_text("live", timeout=WAIT)
        expect(page.locator("#turn")).to_have_text("white to move")
        assert page.locator("#board .hit").count() == 24
        box = box_of(page.locator('#board .hit[data-point="d6"]'))
        assert box["width"] >= 44 and box["height"] >= 44  # a finger's target on a phone
        for name in ("New game", "Takeback", "Hint", "Flip"):
            expect(page.get_by_role("button", name=name)).to_be_visible()

        # A first turn, taken back with the page's button; the lights say what to take away.
        tap(page, "g7")
        wait_for_event(page, "white played g7")
        expect(page.locator("#moves")).to_have_text(re.compile(r"g7"))
        page.get_by_role("button", name="Takeback").tap()
        wait_for_event(page, "took back g7")
        expect(page.locator("#message")).to_have_text("pressed takeback")
        expect(point(page, "g7")).to_have_attribute("data-signal", "fast", timeout=WAIT)
        tap(page, "g7")  # lift it: the board matches the game again
        # Every message says the state now: the press's line goes with the next change.
        expect(page.locator("#message")).to_have_text("", timeout=WAIT)
        expect(point(page, "g7")).to_have_attribute("data-signal", "off", timeout=WAIT)
        expect(page.locator("#turn")).to_have_text("white to move")

        # The whole game, every turn by a tap; each one drawn as it is accepted.
        for number, name in enumerate(BLOCKING_GAME):
            colour = "white" if number % 2 == 0 else "black"
            tap(page, name)
            if number < len(BLOCKING_GAME) - 1:
                wait_for_event(page, f"{colour} played {name}")
            expect(point(page, name)).to_have_attribute("data-piece", colour, timeout=WAIT)

        expect(page.locator("#outcome")).to_have_text(
            "Game over: 0-1 (black wins: white cannot move)", timeout=WAIT
        )
        expect(page.locator("#turn")).to_have_text("black wins")
        assert page.locator("#board g.point[data-piece]").count() == 18
        expect(page.locator(".led[data-led=game_over]")).to_have_class("led on")
        expect(page.locator("#moves li")).to_have_count(9)


def test_the_mode_button_shows_the_level_and_flip_turns_the_board() -> None:
    from playwright.sync_api import expect

    with sim_web("--mode", "vs-ai", "--level", "1") as sim, browser_page() as page:
        page.goto(sim.url)
        expect(page.locator("#conn")).to_have_text("live", timeout=WAIT)
        expect(page.locator("#mode-button")).to_have_text("Level 1")
        page.get_by_role("button", name="Level 1").tap()
        expect(page.locator("#mode-button")).to_have_text("Level 2", timeout=WAIT)
        before = box_of(page.locator('#board .hit[data-point="a7"]'))
        page.get_by_role("button", name="Flip").tap()
        expect(page.locator("#board svg")).to_have_class(re.compile("flipped"), timeout=WAIT)
        after = box_of(page.locator('#board .hit[data-point="a7"]'))
        assert after["y"] > before["y"] and after["x"] > before["x"]  # a7 now bottom right


def test_the_spectator_link_shows_the_game_without_controls() -> None:
    from playwright.sync_api import expect

    with sim_web("--mode", "referee", host="0.0.0.0") as sim, browser_page() as page:
        tokens = sim.links()
        page.goto(sim.url)  # no token: the page says what is missing, shows no game
        expect(page.locator("#message")).to_contain_text("token", timeout=WAIT)
        page.goto(f"{sim.url}?token={tokens['watch']}")
        expect(page.locator("#conn")).to_have_text("live", timeout=WAIT)
        assert page.url == sim.url  # the token went into a cookie, out of the address bar
        expect(page.locator("#turn")).to_have_text("white to move")
        expect(page.get_by_role("button", name="New game")).to_be_hidden()
        tap(page, "d6")  # a spectator's tap does nothing
        expect(page.locator("#board g.point[data-piece]")).to_have_count(0)


def test_the_page_reconnects_when_the_server_comes_back() -> None:
    from playwright.sync_api import expect

    port = free_port()
    with browser_page() as page:
        with sim_web("--mode", "referee", port=port) as sim:
            page.goto(sim.url)
            expect(page.locator("#conn")).to_have_text("live", timeout=WAIT)
            expect(page.locator("#who")).to_have_text("referee: two players")
            # The service worker keeps the page shell (loopback is a secure context).
            page.wait_for_function(
                "() => navigator.serviceWorker.controller !== null", timeout=WAIT
            )
            # The browser reads the manifest without an error and finds the page installable
            # ("add to home screen": its name, icons, full screen).
            cdp = page.context.new_cdp_session(page)
            manifest = cdp.send("Page.getAppManifest")
            assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest")
            parsed = manifest["manifest"]
            assert parsed["name"] == "morris: the board" and parsed["display"] == "kFullscreen"
            assert {"192x192", "512x512"} <= {icon["sizes"] for icon in parsed["icons"]}
            assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        # The server is away: the page says so in words, not only by a red label.
        expect(page.locator("#conn")).to_have_text("the board is not reachable", timeout=WAIT)
        expect(page.locator("#offline")).to_be_visible()
        expect(page.locator("#offline")).to_contain_text("The board is not reachable")
        # Opened again (from the home screen, say) while the board is away: the kept shell.
        page.reload()
        expect(page.locator("#conn")).to_have_text("the board is not reachable", timeout=WAIT)
        expect(page.locator("#offline")).to_be_visible()
        with sim_web("--mode", "vs-ai", "--level", "3", port=port):
            expect(page.locator("#conn")).to_have_text("live", timeout=WAIT)
            expect(page.locator("#offline")).to_be_hidden()
            expect(page.locator("#who")).to_have_text("you (white) vs the Pi, level 3")
