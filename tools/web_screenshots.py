"""Screenshots of the web companion for the docs: docs/img/web-*.png.

    .venv/bin/python tools/web_screenshots.py

Starts ``morris sim --web`` (no terminal, nothing saved) and plays a few turns against the Pi by
tapping the page in Debian's chromium (Playwright, the same set-up as tests/web), then saves the
page on a phone-sized screen: the Pi's reply lit on the board (``web-board.png``) and the board
seen as a spectator, flipped (``web-watch.png``), and the same game on a desktop's screen,
1280x800, a turn tapped in the move list (``web-desktop.png``). Then the review page
(``web-review.png``): a strong game of tests/data saved in a temporary state directory, reviewed,
at the turn that threw it away, with the game's graph; the same at 1280x800
(``web-review-desktop.png``) and the graph as the PNG the page shares (``web-graph.png``). And
the setup view with a position tapped in (``web-setup.png``).
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.browser_kit import browser_page, sim_web  # noqa: E402
from tests.web.review_kit import save  # noqa: E402

OUT = ROOT / "docs" / "img"
WAIT = 20_000
DESKTOP = {"width": 1280, "height": 800}


def main() -> None:
    from playwright.sync_api import expect

    OUT.mkdir(parents=True, exist_ok=True)
    with (
        sim_web("--mode", "vs-ai", "--level", "2", "--seed", "3") as sim,
        browser_page(scale=2) as page,
    ):
        page.goto(sim.url)
        expect(page.locator("#conn")).to_have_text("live", timeout=WAIT)
        for point in ("d6", "b4", "f2"):
            page.locator(f'#board .hit[data-point="{point}"]').tap()
            expect(page.locator("#event")).to_have_text(re.compile("Pi plays"), timeout=WAIT)
            event = page.locator("#event").inner_text()
            reply = event.split()[-1]
            if point == "f2":
                break
            page.locator(f'#board .hit[data-point="{reply}"]').tap()
            expect(page.locator("#event")).to_have_text(re.compile("Pi played"), timeout=WAIT)
        page.screenshot(path=OUT / "web-board.png")
        print(f"wrote {OUT / 'web-board.png'} (the Pi asks for {reply})")
        page.get_by_role("button", name="Flip").tap()
        expect(page.locator("#board svg")).to_have_class(re.compile("flipped"), timeout=WAIT)
        page.evaluate("document.body.classList.add('watch')")  # what a spectator sees
        page.screenshot(path=OUT / "web-watch.png")
        print(f"wrote {OUT / 'web-watch.png'}")
        # The same game on a desktop's screen, a turn tapped in the move list.
        page.evaluate("document.body.classList.remove('watch')")
        page.get_by_role("button", name="Flip").click()
        expect(page.locator("#board svg")).not_to_have_class(re.compile("flipped"), timeout=WAIT)
        page.set_viewport_size(DESKTOP)
        page.locator('#moves button[data-ply="3"]').click()
        expect(page.locator("#browse")).to_be_visible(timeout=WAIT)
        page.screenshot(path=OUT / "web-desktop.png")
        print(f"wrote {OUT / 'web-desktop.png'}")
    review()
    setup_view()


def review() -> None:
    """The review page at the first turn that threw the game away."""
    from playwright.sync_api import expect

    with tempfile.TemporaryDirectory(prefix="morris-review-") as state:
        game_id = save(Path(state), white="Ann", black="morris level 5")
        with (
            sim_web("--mode", "referee", state_dir=Path(state)) as sim,
            browser_page(scale=2) as page,
        ):
            page.goto(f"{sim.url}review?game={game_id}")
            expect(page.locator("#summary")).to_contain_text("First result", timeout=60_000)
            page.locator('#turns button[class~="first"]').click()
            expect(page.locator("#mark")).to_be_visible(timeout=WAIT)
            page.locator("#board svg").wait_for(timeout=WAIT)
            page.locator("#chart svg").wait_for(timeout=WAIT)
            page.evaluate("window.scrollTo(0, 0)")  # the turn list scrolled the page down
            page.screenshot(path=OUT / "web-review.png")
            print(f"wrote {OUT / 'web-review.png'}")
            graph = page.request.get(f"{sim.url}api/games/{game_id}/chart.png")
            (OUT / "web-graph.png").write_bytes(graph.body())
            print(f"wrote {OUT / 'web-graph.png'}")
            page.set_viewport_size(DESKTOP)
            page.reload()  # the graph is drawn at the width it is shown
            page.locator("#chart svg").wait_for(timeout=60_000)
            page.locator('#turns button[class~="first"]').click()
            expect(page.locator("#mark")).to_be_visible(timeout=WAIT)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=OUT / "web-review-desktop.png")
            print(f"wrote {OUT / 'web-review-desktop.png'}")


def setup_view() -> None:
    """The setup view: a position tapped in, Black to move, pieces in hand (``web-setup.png``)."""
    from playwright.sync_api import expect

    with sim_web("--mode", "referee") as sim, browser_page(scale=2) as page:
        page.goto(sim.url)
        expect(page.locator("#conn")).to_have_text("live", timeout=WAIT)
        page.locator("#setup-open").tap()
        pieces = {"a7": 1, "d7": 1, "b6": 1, "f4": 1, "e3": 1, "a1": 2, "d1": 2, "d5": 2, "c3": 2}
        for point, taps in pieces.items():
            for _ in range(taps):  # empty -> white -> black
                page.locator(f'#setup-board .hit[data-point="{point}"]').tap()
        page.locator("#setup-hand-white").fill("4")
        page.locator("#setup-hand-black").fill("4")
        page.locator("#setup-side-black").tap()
        expect(page.locator("#setup-text")).to_have_text(re.compile(r" b 4 4 "), timeout=WAIT)
        expect(page.locator('#setup-board g.point[data-point="c3"]')).to_have_attribute(
            "data-piece", "black", timeout=WAIT
        )
        page.screenshot(path=OUT / "web-setup.png", full_page=True)
        print(f"wrote {OUT / 'web-setup.png'}")


if __name__ == "__main__":
    main()
