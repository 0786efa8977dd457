"""The setup view and the remote opponent in a real headless chromium: a position set up by taps,
a remote player tapping turns on the page, and a remote game between two linked
``morris sim --web`` processes on loopback with a dropped and restored connection."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.browser_kit import browser_page, needs_chromium
from tests.web.pairing_kit import Board

pytestmark = [
    pytest.mark.realtime,
    pytest.mark.browser,
    pytest.mark.slow,
    needs_chromium,
]

WAIT = 20_000  # ms: an upper bound, never a fixed pause


def point(page: Any, name: str, where: str = "#board") -> Any:
    return page.locator(f'{where} g.point[data-point="{name}"]')


def tap(page: Any, name: str, where: str = "#board") -> None:
    page.locator(f'{where} .hit[data-point="{name}"]').tap()


def live(page: Any, url: str) -> None:
    from playwright.sync_api import expect

    page.goto(url)
    expect(page.locator("#conn")).to_have_text("live", timeout=WAIT)


def test_a_position_set_up_by_taps_is_guided_onto_the_board(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with Board("a", tmp_path, "--mode", "referee") as board, browser_page() as page:
        live(page, board.url)
        page.get_by_role("button", name="Set up").first.tap()
        expect(page.locator("#setup")).to_be_visible()
        expect(page.locator("#board")).to_be_hidden()
        for name in ("a7", "d7", "g7"):
            tap(page, name, "#setup-board")  # empty -> white
            expect(point(page, name, "#setup-board")).to_have_attribute("data-piece", "white")
        for name in ("a1", "d1"):
            tap(page, name, "#setup-board")
            tap(page, name, "#setup-board")  # white -> black
            expect(point(page, name, "#setup-board")).to_have_attribute("data-piece", "black")
        page.locator("#setup-side-black").tap()
        page.locator("#setup-hand-white").fill("2")
        page.locator("#setup-hand-black").fill("3")
        expect(page.locator("#setup-text")).to_have_text("WWW..BB./......../........ b 2 3 0 1 -")
        page.locator("#setup-send").tap()
        expect(page.locator("#setup")).to_be_hidden()
        expect(page.locator("#event")).to_contain_text("set up a position", timeout=WAIT)
        for name in ("a7", "d7", "g7", "a1", "d1"):  # the lights ask for each piece
            expect(point(page, name)).to_have_attribute("data-signal", "on", timeout=WAIT)
        expect(page.locator(".led[data-led=error]")).to_have_class("led on")
        for name in ("a7", "d7", "g7", "a1", "d1"):
            tap(page, name)  # the simulated board's hands put them
        expect(page.locator("#event")).to_have_text("position set up: black to move", timeout=WAIT)
        expect(page.locator("#turn")).to_have_text("black to move")
        tap(page, "b4")
        expect(page.locator("#event")).to_have_text("black played b4", timeout=WAIT)


def test_set_up_waits_until_the_page_knows_the_board(tmp_path: Path) -> None:
    """Setting up starts from the board's position: until the page has it, the button is greyed
    out rather than taking a tap that does nothing (the "live" light comes before the state)."""
    from playwright.sync_api import expect

    with Board("a", tmp_path, "--mode", "referee") as board, browser_page() as page:
        page.route("**/api/events*", lambda route: route.abort())
        page.route("**/api/state*", lambda route: route.abort())
        page.goto(board.url)
        expect(page.locator("#setup-open")).to_be_disabled()
        page.unroute_all()  # the board answers: the page reconnects by itself
        expect(page.locator("#setup-open")).to_be_enabled(timeout=WAIT)
        page.locator("#setup-open").tap()
        expect(page.locator("#setup")).to_be_visible()


def test_a_bad_setup_says_why_and_the_game_goes_on(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with Board("a", tmp_path, "--mode", "referee") as board, browser_page() as page:
        live(page, board.url)
        page.get_by_role("button", name="Set up").first.tap()
        page.locator("#setup-hand-white").fill("0")
        page.locator("#setup-hand-black").fill("0")
        tap(page, "a7", "#setup-board")  # one white piece, none black, none in hand: no game
        page.locator("#setup-send").tap()
        expect(page.locator("#setup-error")).to_contain_text("already over", timeout=WAIT)
        page.locator("#setup-cancel").tap()
        expect(page.locator("#board")).to_be_visible()
        assert board.state()["position"].startswith("......../")


def test_the_remote_player_taps_turns_on_the_page(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with Board("a", tmp_path, "--mode", "remote", "--human", "white") as board:
        assert board.state()["link"] == "waiting"
        with browser_page() as page:
            live(page, board.url)  # the page is the remote player's board: the link is up
            expect(page.locator("#who")).to_have_text("you (black) vs the board (white)")
            assert board.state()["link"] == "up"
            expect(page.get_by_role("button", name="New game")).to_be_hidden()
            board.play("d6")  # the person at the board
            expect(page.locator("#turn")).to_have_text("your move (black): tap it", timeout=WAIT)
            tap(page, "d6")  # not a turn of black's: refused on the page
            expect(page.locator("#message")).to_contain_text("no turn of yours")
            tap(page, "b4")
            expect(page.locator("#turn")).to_contain_text("your turn b4", timeout=WAIT)
            assert board.lit("on") == ["b4"]  # shown on the board like the Pi's turn
            board.carry_out()
            expect(page.locator("#event")).to_have_text("remote played b4", timeout=WAIT)
            expect(page.locator("#turn")).to_have_text("the board's move (white)")
        board.play("f4")  # the page is closed: nothing is lost, the board waits
        state = board.state()
        assert state["link"] == "waiting" and state["moves"] == ["d6", "b4", "f4"]


def test_two_linked_boards_play_by_taps_and_a_dropped_link_is_restored(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = Board("a", tmp_path / "a", "--mode", "remote", "--human", "white")
    b = Board("b", tmp_path / "b", "--mode", "remote", "--human", "black", "--link", a.url)
    with a, b, browser_page() as page_a:
        page_b = page_a.context.new_page()
        live(page_a, a.url)
        live(page_b, b.url)
        for page in (page_a, page_b):
            expect(page.locator("#remote-line")).to_have_text(
                "the other board is connected", timeout=WAIT
            )
        tap(page_a, "d6")  # the person in house a
        expect(page_a.locator("#event")).to_have_text("white played d6", timeout=WAIT)
        expect(point(page_b, "d6")).to_have_attribute("data-signal", "on", timeout=WAIT)
        tap(page_b, "d6")  # b's person carries out a's turn on b's board
        expect(page_b.locator("#event")).to_have_text("remote played d6", timeout=WAIT)
        tap(page_b, "b4")
        expect(point(page_a, "b4")).to_have_attribute("data-signal", "on", timeout=WAIT)
        tap(page_a, "b4")
        expect(page_a.locator("#event")).to_have_text("remote played b4", timeout=WAIT)

        b.stop()  # house b goes offline: a's page and status light say waiting
        expect(page_a.locator("#remote-line")).to_have_text(
            "waiting for the other board…", timeout=WAIT
        )
        expect(page_a.locator(".led[data-led=thinking]")).to_have_class("led slow")
        tap(page_a, "f4")  # a plays on
        expect(page_a.locator("#event")).to_have_text("white played f4", timeout=WAIT)

        b.start()  # b resumes its game; its page reconnects by itself
        expect(page_b.locator("#remote-line")).to_have_text(
            "the other board is connected", timeout=WAIT
        )
        for name in ("d6", "b4"):  # b's board is empty after the restart: put them back
            expect(point(page_b, name)).to_have_attribute("data-signal", "on", timeout=WAIT)
        for name in ("d6", "b4"):
            tap(page_b, name)
        expect(point(page_b, "f4")).to_have_attribute("data-signal", "on", timeout=WAIT)
        tap(page_b, "f4")  # the turn made while b was away, replayed on b
        expect(page_b.locator("#event")).to_have_text("remote played f4", timeout=WAIT)
        assert a.state()["moves"] == b.state()["moves"] == ["d6", "b4", "f4"]
        assert a.state()["position"] == b.state()["position"]
