"""The review page in a real headless chromium: a game played by taps on ``morris sim --web`` is
stepped through in the board page's move list, saved, listed on the review page, stepped through
with the buttons, the arrow keys and the game's graph, and its record and pictures downloaded;
then the same pages at a desktop's size (1280x800), with everything in the first screen."""

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


def white_scores(review: dict[str, Any]) -> dict[int, int]:
    """White's score in each position of a review (its scores are the mover's)."""
    turns = review["turns"]
    sign = {"white": 1, "black": -1}
    scores = {0: sign[turns[0]["mover"]] * turns[0]["score_before"]}
    scores.update({t["ply"]: sign[t["mover"]] * t["score_after"] for t in turns})
    return scores


def in_first_screen(page: Any, selector: str) -> dict[str, float]:
    """The box of ``selector`` (asserted wholly inside the viewport, not scrolled)."""
    box = box_of(page.locator(selector))
    size = page.viewport_size
    assert page.evaluate("window.scrollY") == 0
    assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= size["width"], (selector, box)
    assert box["y"] + box["height"] <= size["height"], (selector, box)
    return box


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
        expect(page.locator("#outcome")).to_have_text(
            "Game over: 0-1 (black wins: white cannot move)", timeout=WAIT
        )

        # The move list is the game: numbered as the record is, the last turn highlighted; a
        # tap on a turn shows the position after it, "Back to the game" the game now.
        moves = page.locator("#moves button.move")
        expect(moves).to_have_count(len(BLOCKING_GAME))
        expect(page.locator("#moves li").nth(2)).to_have_attribute("value", "3")
        expect(moves.nth(len(BLOCKING_GAME) - 1)).to_have_attribute("aria-current", "true")
        box = box_of(moves.nth(3))
        assert box["height"] >= 44 and box["width"] >= 44  # a finger's target on a phone
        moves.nth(3).tap()
        expect(page.locator("#browse")).to_contain_text("Turn 4 of 18: 2... d1", timeout=WAIT)
        page.wait_for_function(
            "n => document.querySelectorAll('#board g.point[data-piece]').length === n",
            arg=4,
            timeout=WAIT,
        )
        assert pieces_shown(page) == pieces_after(4)
        expect(moves.nth(3)).to_have_attribute("aria-current", "true")
        expect(moves.nth(len(BLOCKING_GAME) - 1)).not_to_have_attribute("aria-current", "true")
        box = box_of(page.get_by_role("button", name="Back to the game"))
        assert box["height"] >= 44
        page.get_by_role("button", name="Back to the game").tap()
        expect(page.locator("#browse")).to_be_hidden()
        expect(page.locator("#board g.point[data-piece]")).to_have_count(len(BLOCKING_GAME))

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

        # The game's graph: one point per position at White's score as the review has it; a
        # tap on turn 12 shows turn 12, its cursor there.
        game_id = page.locator("#games button").first.get_attribute("data-game")
        review = page.request.get(f"{sim.url}api/games/{game_id}/review").json()
        page.locator("#chart svg circle.pt").first.wait_for(timeout=WAIT)
        drawn = page.eval_on_selector_all(
            "#chart circle.pt",
            "nodes => nodes.map(n => [Number(n.dataset.ply), Number(n.dataset.score)])",
        )
        assert dict(drawn) == white_scores(review)
        first = page.locator(f'#chart circle.pt.first[data-ply="{THROWN}"]')
        expect(first).to_have_count(1)
        page.locator('#chart rect.hit[data-ply="12"]').tap()
        expect_position(page, 12)
        expect(page.locator("#chart line.cursor")).to_have_attribute("data-ply", "12")
        expect(page.locator('#turns button[data-ply="12"]')).to_have_attribute(
            "aria-current", "true"
        )
        graph = download(page, "#dl-chart")
        assert graph[:8] == b"\x89PNG\r\n\x1a\n"

        # A desktop's screen: the board and the graph on the left, the steps, the turn and the
        # downloads beside them, all in the first screen.
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(f"{sim.url}review?game={game_id}")
        page.locator("#chart svg circle.pt").first.wait_for(timeout=WAIT)
        board = in_first_screen(page, "#board")
        chart = in_first_screen(page, "#chart")
        assert chart["y"] >= board["y"] + board["height"] - 1  # the graph under the board
        for selector in ("#first", "#last", "#turn", "#dl-chart"):
            assert in_first_screen(page, selector)["x"] >= board["x"] + board["width"]
        page.screenshot(path=tmp_path / "review-desktop.png")

        # The board page: the buttons, the status lights and the moves beside the board.
        page.goto(sim.url)
        expect(page.locator("#conn")).to_have_text("live", timeout=WAIT)
        board = in_first_screen(page, "#board")
        assert board["width"] >= 600  # the board as large as the screen's height allows
        for name in ("New game", "Takeback", "Hint", "Flip"):
            button = in_first_screen(page, f"#controls button:text-is('{name}')")
            assert button["x"] >= board["x"] + board["width"]
            assert button["height"] >= 44
        for selector in ("#leds", "#turn", "#moves"):
            assert in_first_screen(page, selector)["x"] >= board["x"] + board["width"]
        page.screenshot(path=tmp_path / "board-desktop.png")
