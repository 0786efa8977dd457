"""The page in a real headless chromium in Finnish, Dutch and German: the browser's
``Accept-Language`` chooses it, the selector changes it and is remembered, no English of the
catalog is left on the board page, its set-up dialog or the review page, plural forms follow the
language, and the Speak toggle says the Pi's turn through the browser's speech synthesis (a
stub that records the utterances: headless chromium has no voices). One server and one browser
for the module; the board itself stays English (the page's language is the reader's)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.i18n.leftovers_kit import english_left_in
from tests.web.browser_kit import browser_page, needs_chromium, sim_web

pytestmark = [pytest.mark.realtime, pytest.mark.browser, pytest.mark.slow, needs_chromium]

WAIT = 15_000  # ms: an upper bound, never a fixed pause
#: speechSynthesis.speak recorded: window.spoken holds {text, lang} of each utterance.
SPEECH_STUB = """
window.spoken = [];
if (window.speechSynthesis) {
  window.speechSynthesis.speak = (u) => {
    window.spoken.push({ text: u.text, lang: u.lang });
    setTimeout(() => u.onend && u.onend(), 0);
  };
  window.speechSynthesis.cancel = () => {};
}
"""


@pytest.fixture(scope="module")
def page() -> Iterator[tuple[Any, str]]:
    with (
        sim_web("--mode", "vs-ai", "--level", "1", "--seed", "3") as sim,
        browser_page(extra_http_headers={"Accept-Language": "fi-FI,fi;q=0.9,en;q=0.5"}) as tab,
    ):
        tab.add_init_script(SPEECH_STUB)  # type: ignore[attr-defined]
        yield tab, sim.url


def _body(tab: Any) -> str:
    text: str = tab.locator("body").inner_text()
    return text


def _spoken_until(tab: Any, done: Any) -> list[dict[str, str]]:
    """The utterances recorded, once ``done(them)`` (polled: the page's CSP allows no
    ``wait_for_function``, which evaluates a string), within :data:`WAIT`."""
    for _ in range(WAIT // 100):
        said: list[dict[str, str]] = tab.evaluate("window.spoken")
        if done(said):
            return said
        tab.wait_for_timeout(100)
    raise AssertionError(f"not said within {WAIT} ms: {said}")


def _live(tab: Any) -> None:
    from playwright.sync_api import expect

    expect(tab.locator("#conn")).to_have_class(re.compile(r"\bup\b"), timeout=WAIT)
    expect(tab.locator("#turn")).not_to_have_text("…", timeout=WAIT)


def test_accept_language_fi_makes_the_page_finnish(page: tuple[Any, str]) -> None:
    from playwright.sync_api import expect

    tab, url = page
    tab.goto(url)
    _live(tab)
    assert tab.evaluate("document.documentElement.lang") == "fi"
    expect(tab.locator("#turn")).to_have_text("sinun vuorosi (valkoinen)")
    expect(tab.get_by_role("button", name="Uusi peli")).to_be_visible()
    assert tab.title() == "mylly: lauta"
    assert english_left_in(_body(tab), "fi") == []
    # The language selector names the languages in themselves.
    names = tab.locator("#lang option").all_inner_texts()
    assert names == ["English", "Nederlands", "suomi", "Deutsch"]


@pytest.mark.parametrize("code", ["nl", "de", "fi"])
def test_the_selector_changes_the_language_and_it_is_remembered(
    page: tuple[Any, str], code: str
) -> None:
    from playwright.sync_api import expect

    tab, url = page
    tab.goto(url)
    _live(tab)
    with tab.expect_navigation():
        tab.locator("#lang").select_option(code)
    _live(tab)
    tab.reload()  # remembered: the page comes in the chosen language, whatever the browser says
    _live(tab)
    assert tab.evaluate("document.documentElement.lang") == code
    assert tab.evaluate("localStorage.getItem('morris-lang')") == code
    expect(tab.locator("#lang")).to_have_value(code)
    assert english_left_in(_body(tab), code) == [], code
    # A dialog: the position setup.
    tab.locator("#setup-open").tap()
    expect(tab.locator("#setup")).to_be_visible()
    assert english_left_in(_body(tab), code) == [], code
    tab.locator("#setup-cancel").tap()
    # The review page, in the same language.
    tab.goto(url + "review")
    expect(tab.locator("#games-empty")).to_be_visible(timeout=WAIT)
    assert tab.evaluate("document.documentElement.lang") == code
    assert english_left_in(_body(tab), code) == [], code


def test_plural_forms_on_the_page(page: tuple[Any, str]) -> None:
    tab, url = page
    tab.goto(url)
    _live(tab)
    with tab.expect_navigation():
        tab.locator("#lang").select_option("de")
    _live(tab)
    options = tab.locator("#puzzle-wins-in option").all_inner_texts()
    assert options[:3] == ["gewinnt in 1 Zug", "gewinnt in 2 Zügen", "gewinnt in 3 Zügen"]
    assert tab.evaluate("tn('puzzle.used.hints', 1)") == "1 Tipp"
    assert tab.evaluate("tn('puzzle.used.hints', 0)") == "0 Tipps"
    assert tab.evaluate("tn('puzzle.left', 2)") == "noch 2 Züge"


def test_speech_is_off_until_turned_on_then_says_the_pi_s_turn(page: tuple[Any, str]) -> None:
    from playwright.sync_api import expect

    tab, url = page
    tab.goto(url)
    tab.evaluate("localStorage.clear()")
    tab.context.clear_cookies()
    tab.reload()
    _live(tab)
    assert tab.evaluate("document.documentElement.lang") == "fi"
    expect(tab.locator("#speak")).to_have_attribute("aria-pressed", "false")
    tab.get_by_role("button", name="Uusi peli").tap()
    expect(tab.locator("#turn")).to_have_text("sinun vuorosi (valkoinen)", timeout=WAIT)
    # Off: the Pi's turn comes, and nothing is said.
    tab.locator('#board .hit[data-point="d6"]').tap()
    expect(tab.locator("#event")).to_have_text(re.compile(r"^Pi pelaa "), timeout=WAIT)
    assert tab.evaluate("window.spoken") == []
    # On (remembered), the next turn of the Pi is said, in Finnish, with a Finnish voice.
    tab.locator("#speak").tap()
    expect(tab.locator("#speak")).to_have_attribute("aria-pressed", "true")
    assert tab.evaluate("localStorage.getItem('morris-speech')") == "1"
    # Carry out the Pi's turn on the board, then play the next one.
    reply = tab.locator("#event").inner_text().removeprefix("Pi pelaa ").strip()
    tab.locator(f'#board .hit[data-point="{reply}"]').tap()
    expect(tab.locator("#turn")).to_have_text("sinun vuorosi (valkoinen)", timeout=WAIT)
    free = next(p for p in ("a1", "g1", "a7", "g7", "b2", "f2") if p != reply)
    tab.locator(f'#board .hit[data-point="{free}"]').tap()
    spoken = _spoken_until(tab, lambda said: any(u["text"].startswith("Pi pelaa ") for u in said))
    turn = next(u for u in spoken if u["text"].startswith("Pi pelaa "))
    assert turn["lang"] == "fi-FI"
    assert english_left_in(turn["text"], "fi") == []
    assert turn["text"] == tab.locator("#event").inner_text()
    assert spoken[0] == {"text": "puhe päällä", "lang": "fi-FI"}  # said at the tap
    # Off again: nothing more is queued (the Pi's next turn is not said).
    tab.locator("#speak").tap()
    count = len(tab.evaluate("window.spoken"))
    reply = tab.locator("#event").inner_text().removeprefix("Pi pelaa ").strip()
    tab.locator(f'#board .hit[data-point="{reply}"]').tap()
    expect(tab.locator("#turn")).to_have_text("sinun vuorosi (valkoinen)", timeout=WAIT)
    last = next(p for p in ("a1", "g1", "a7", "g7", "b2", "f2") if p not in (reply, free))
    tab.locator(f'#board .hit[data-point="{last}"]').tap()
    expect(tab.locator("#event")).not_to_have_text(f"Pi pelaa {reply}", timeout=WAIT)
    expect(tab.locator("#event")).to_have_text(re.compile(r"^Pi pelaa "), timeout=WAIT)
    assert len(tab.evaluate("window.spoken")) == count
