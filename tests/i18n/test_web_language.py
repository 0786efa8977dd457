"""The page's language: ``Accept-Language`` read with its q-values, ``?lang=`` and the selector's
cookie before it; the page's catalog; the state and the announcements in the page's language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from morris import i18n
from morris.app.narration import Announcement, Kind
from morris.web.events import Hub
from morris.web.language import (
    COOKIE,
    accepted_language,
    parse_accept_language,
    request_language,
)
from morris.web.review import Reviewer
from tests.i18n.leftovers_kit import english_left_in
from tests.web.review_kit import client as review_client
from tests.web.review_kit import companion as review_companion
from tests.web.review_kit import save
from tests.web.web_kit import web


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ("fi", "fi"),
        ("fi-FI,fi;q=0.9,en-US;q=0.8,en;q=0.7", "fi"),
        ("en;q=0.5, de-AT;q=0.9, nl;q=0.7", "de"),  # the weights decide, not the order
        ("fr-FR, it;q=0.9, nl;q=0.1", "nl"),  # the first one there is a catalog for
        ("nl;q=0, de", "de"),  # q=0: not wanted at all
        ("fr, *;q=0.5, fi;q=0.4", "en"),  # anything goes before Finnish: English
        ("", "en"),
        ("klingon", "en"),
    ],
)
def test_accept_language_is_read_with_its_weights(header: str, code: str) -> None:
    assert accepted_language(header) == code


@pytest.mark.parametrize(
    "header",
    [";;;", "q=1", "fi;q=2", "fi;q=abc", "de;q=0.9;q", ",,,", "\x00\xff", "fi" * 5000, "1234"],
)
def test_a_malformed_accept_language_is_english_and_no_error(header: str) -> None:
    assert accepted_language(header) == "en"


def test_malformed_entries_are_passed_over_and_the_good_ones_kept() -> None:
    assert parse_accept_language("fi;q=zero, de;q=0.7, ;;, nl;q=0.8") == [
        ("nl", 0.8),
        ("de", 0.7),
    ]


@given(st.text(max_size=200))
def test_any_header_gives_a_language_of_the_catalogs(header: str) -> None:
    assert accepted_language(header) in i18n.LANGUAGES


def test_the_page_s_choice_comes_before_the_browser_s() -> None:
    headers = {"accept-language": "fi"}
    assert request_language({}, {}, headers) == "fi"
    assert request_language({}, {COOKIE: "de"}, headers) == "de"
    assert request_language({"lang": "nl"}, {COOKIE: "de"}, headers) == "nl"
    assert request_language({"lang": "xx"}, {COOKIE: "zz"}, headers) == "fi"


def _catalog_of(html: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="catalog">(.*?)</script>', html, re.S)
    assert found is not None
    catalog: dict[str, object] = json.loads(found.group(1))
    return catalog


def test_the_pages_come_in_the_browser_s_language_with_their_catalog() -> None:
    with web() as w:
        page = w.client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"})
        assert page.headers["content-language"] == "de"
        assert '<html lang="de">' in page.text
        catalog = _catalog_of(page.text)
        assert catalog["lang"] == "de" and catalog["speech"] == "de-DE"
        assert catalog["languages"] == dict(i18n.LANGUAGE_NAMES)
        messages = catalog["messages"]
        assert isinstance(messages, dict)
        assert messages["New game"] == "Neue Partie"
        assert messages["{n} hint"] == ["{n} Tipp", "{n} Tipps"]
        w.client.cookies.set(COOKIE, "nl")
        review = w.client.get("/review", headers={"Accept-Language": "fi"})
        assert '<html lang="nl">' in review.text
        assert _catalog_of(review.text)["messages"]["Saved games"] == "Bewaarde partijen"  # type: ignore[index]


def test_every_text_of_the_page_has_its_translation() -> None:
    """What the page shows comes from the catalogs: no page text is its English in nl, fi, de
    (a name, or a text of placeholders and signs only, may be)."""
    with web() as w:
        for code in ("nl", "fi", "de"):
            messages = _catalog_of(w.client.get("/", params={"lang": code}).text)["messages"]
            assert isinstance(messages, dict)
            texts = " / ".join(
                " / ".join(text) if isinstance(text, list) else text for text in messages.values()
            )
            shown = re.sub(r"\{\w+\}", " ", texts)  # the places filled in, not their names
            assert english_left_in(shown, code) == [], code


def test_the_state_is_in_the_page_s_language_not_the_board_s() -> None:
    with web(mode="vs-ai", level=1) as w:
        w.tap("d6")
        w.wait(5.0)
        english = w.state()
        finnish = w.state(lang="fi")
        german = w.client.get("/api/state", headers={"Accept-Language": "de"}).json()
    assert english["event"].startswith("Pi plays ")
    assert finnish["event"].startswith("Pi pelaa ") and finnish["lang"] == "fi"
    assert german["event"].startswith("Pi spielt ")
    assert english_left_in(finnish["event"], "fi") == []


def test_an_announcement_is_encoded_once_per_language() -> None:
    with web() as w:
        hub = Hub(w.host)
        hub._announced = 1
        said = Announcement(Kind.TURN, i18n.msg("Pi plays {turn}", turn="b4"))
        fi = hub.encode_announcement(1, said, "fi")
        assert hub.encode_announcement(1, said, "fi") is fi
        data = json.loads(fi.decode().split("data: ", 1)[1])
        assert data == {"id": 1, "kind": "turn", "rank": 3, "text": "Pi pelaa b4", "lang": "fi-FI"}
        de = json.loads(hub.encode_announcement(1, said, "de").decode().split("data: ", 1)[1])
        assert de["text"] == "Pi spielt b4" and de["lang"] == "de-DE"


def test_the_review_s_graph_is_in_the_page_s_language(tmp_path: Path) -> None:
    """The graph's title, its band's words and tooltips follow the request's language (the
    board stays English)."""
    game_id = save(tmp_path)
    companion = review_companion(tmp_path, Reviewer(tables_dir=tmp_path / "no-tables"))
    with review_client(companion) as http:
        english = http.get(f"/api/games/{game_id}/chart.svg").text
        german = http.get(
            f"/api/games/{game_id}/chart.svg", headers={"Accept-Language": "de-DE"}
        ).text
        review = http.get(f"/api/games/{game_id}/review", params={"lang": "fi"})
    assert "Ann vs Bob: 0-1, the score over the game" in english and "Black wins" in english
    assert "Ann gegen Bob: 0-1, die Bewertung über die Partie" in german
    assert "Schwarz gewinnt" in german and "Black wins" not in german
    assert review.status_code == 200


def test_an_error_of_the_game_is_said_in_the_page_s_language() -> None:
    """A refusal of the controller (here: a remote player's turn sent while the Pi plays, not a
    remote player) comes in the reader's language."""
    with web(mode="vs-ai", level=1) as w:
        english = w.client.post("/api/remote/move", json={"move": "d6"})
        german = w.client.post("/api/remote/move", json={"move": "d6"}, params={"lang": "de"})
    assert english.status_code == german.status_code == 409
    assert english.json()["error"] != german.json()["error"]
    assert english_left_in(german.json()["error"], "de") == []
