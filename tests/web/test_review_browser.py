"""The review page in a real headless chromium: a game played by taps on ``morris sim --web`` is
saved, listed on the review page, stepped through with the buttons and the arrow keys, and its
record and pictures downloaded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from morris.core import Board, read_game
from tests.web.browser_kit import box_of, browser_page, needs_chromium, sim_web
from tests.web.test_web_browser import BLOCKING_GAME, WAIT, point, tap, wait_for_event

pytestmark = [
    pytest.mark.realtime,
    pytest.mark.browser,
    pytest.mark.slow,
    needs_chromium,
]

#: The turn of BLOCKING_GAME the engine judges to have thrown the game away: 8. e3 lets black
#: block white two turns later.
THROWN = 15


def pieces_shown(page: Any) -> dict[str, str]:
    """The pieces on the board picture: point -> colour."""
    found: dict[str, str] = page.eval_on_selector_all(
        "#board g.point[data-piece]",
        "nodes => Object.fromEntries(nodes.map(n => [n.dataset.point, n.dataset.piece]))",
    )
    return found


def pieces_after(plies: int) -> dict[str, str]:
    board = Board()
    for text in BLOCKING_GAME[:plies]:
        board.push_notation(text)
    return {name: "white" if colour else "black" for name, colour in board.pieces().items()}


def expect_position(page: Any, plies: int) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#turn")).to_contain_text(
        f"Turn {plies} of" if plies else "The start", timeout=WAIT
    )
    page.wait_for_function(
        "n => document.querySelectorAll('#board g.point[data-piece]').length === n",
        arg=len(pieces_after(plies)),
        timeout=WAIT,
    )
    assert pieces_shown(page) == pieces_after(plies)


def download(page: Any, link: str) -> bytes:
    with page.expect_download(timeout=WAIT) as info:
        page.locator(link).click()
    path = info.value.path()
    return Path(path).read_bytes()


def test_a_finished_game_is_reviewed_on_the_page(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with sim_web("--mode", "referee", state_dir=tmp_path) as sim, browser_page() as page:
        page.goto(sim.url)
        expect(page.locator("#conn")).to_have_text("live", timeout=WAIT)
        for number, name in enumerate(BLOCKING_GAME):
            tap(page, name)
            if number < len(BLOCKING_GAME) - 1:
                wait_for_event(page, f"{'white' if number % 2 == 0 else 'black'} played {name}")
        expect(page.locator("#outcome")).to_have_text("Game over: 0-1 (blocked)", timeout=WAIT)

        # The saved game is listed on the review page, reached from the board page's header.
        page.get_by_role("link", name="Review").click()
        page.wait_for_url("**/review")
        games = page.locator("#games button")
        expect(games).to_have_count(1, timeout=WAIT)
        expect(games.first).to_contain_text("0-1 · 18 turns")
        games.first.click()

        # It opens at its end; the buttons and the arrow keys step through it.
        expect_position(page, len(BLOCKING_GAME))
        expect(point(page, "c4")).to_have_attribute("data-mark", "to")
        page.get_by_role("button", name="one turn back").click()
        expect_position(page, 17)
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        expect_position(page, 15)
        page.keyboard.press("Home")
        expect_position(page, 0)
        page.get_by_role("button", name="one turn on").click()
        expect_position(page, 1)
        page.keyboard.press("ArrowRight")
        expect_position(page, 2)
        for name in ("the start", "one turn back", "one turn on", "the end"):
            box = box_of(page.get_by_role("button", name=name))
            assert box["width"] >= 44 and box["height"] >= 44

        # The engine's review arrives: the turn that threw the game away is marked.
        expect(page.locator("#summary")).to_have_text(
            f"First result thrown away: turn {THROWN}, 8. e3 (white).", timeout=60_000
        )
        page.locator(f'#turns button[data-ply="{THROWN}"]').click()
        expect_position(page, THROWN)
        expect(page.locator("#mark")).to_be_visible()
        expect(page.locator("#mark")).to_contain_text("The first turn that threw a result away")
        expect(page.locator("#mark")).to_contain_text("engine's judgement")
        assert page.locator("#score-before").inner_text() != "-"

        # The downloads: the record, and the position shown as SVG and as PNG.
        record = read_game(download(page, "#dl-record").decode("utf-8"))
        assert [str(m) for m in record.moves] == list(BLOCKING_GAME)
        assert record.result == "0-1"
        svg = download(page, "#dl-svg").decode("utf-8")
        assert svg.startswith("<svg") and 'data-mark="to"' in svg
        assert svg.count("data-piece=") == len(pieces_after(THROWN))
        png = download(page, "#dl-png")
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
