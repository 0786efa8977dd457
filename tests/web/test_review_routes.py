"""``GET /api/games/{id}/review`` and the review page: computed once per game on a worker thread,
kept in memory (bounded), bad input a 4xx naming the problem."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from morris.web.review import Reviewer, _review_json
from tests.web.review_kit import BLUNDERED, client, companion, save

#: A real server thread and the review's worker thread, waited for.
pytestmark = pytest.mark.realtime


class Counting:
    """The real review, counting its calls, and held back until released when asked."""

    def __init__(self, *, hold: bool = False) -> None:
        self.calls = 0
        self.release = threading.Event()
        if not hold:
            self.release.set()

    def __call__(self, text: str, **options: Any) -> dict[str, Any]:
        self.calls += 1
        assert self.release.wait(30)
        return _review_json(text, **options)


def test_a_saved_game_is_reviewed_turn_by_turn_once(tmp_path: Path) -> None:
    game_id = save(tmp_path)
    counting = Counting()
    web = companion(tmp_path, Reviewer(review=counting, tables_dir=tmp_path / "no-tables"))
    with client(web) as http:
        answer = http.get(f"/api/games/{game_id}/review")
        assert answer.status_code == 200
        data = answer.json()
        again = http.get(f"/api/games/{game_id}/review").json()
    assert data["status"] == "done" and data["id"] == game_id
    turns = data["turns"]
    assert [t["move"] for t in turns] == list(BLUNDERED.turns)
    assert all(a["after"] == b["before"] for a, b in itertools.pairwise(turns))
    assert turns[0]["before"] == data["start"] and turns[-1]["after"] == data["end"]
    assert {"score_before", "score_after", "wdl_before", "wdl_after", "mistake"} <= set(turns[0])
    assert data["first_mistake"] == 15
    assert [t["ply"] for t in turns if t["mistake"]] == [15]
    assert turns[14]["threw"] == "engine"
    assert again == data
    assert counting.calls == 1


def test_while_the_engine_works_the_turns_come_at_once(tmp_path: Path) -> None:
    game_id = save(tmp_path)
    held = Counting(hold=True)
    web = companion(tmp_path, Reviewer(review=held, tables_dir=tmp_path / "no-tables"))
    with client(web) as http:
        early = http.get(f"/api/games/{game_id}/review?wait=0")
        assert early.status_code == 202
        outline = early.json()
        assert outline["status"] == "running"
        assert [t["move"] for t in outline["turns"]] == list(BLUNDERED.turns)
        assert all(t["score_before"] is None for t in outline["turns"])
        held.release.set()
        done = http.get(f"/api/games/{game_id}/review")
    assert done.status_code == 200 and done.json()["first_mistake"] == 15
    assert held.calls == 1


def test_the_reviews_kept_are_bounded(tmp_path: Path) -> None:
    ids = [save(tmp_path, white=name) for name in ("Ann", "Cid", "Dee")]
    counting = Counting()
    web = companion(tmp_path, Reviewer(review=counting, kept=2, tables_dir=tmp_path / "no-tables"))
    with client(web) as http:
        for game_id in ids:
            assert http.get(f"/api/games/{game_id}/review").status_code == 200
        assert counting.calls == 3
        http.get(f"/api/games/{ids[2]}/review")  # kept
        assert counting.calls == 3
        http.get(f"/api/games/{ids[0]}/review")  # the oldest, forgotten: reviewed again
        assert counting.calls == 4


def test_too_many_games_waiting_are_refused(tmp_path: Path) -> None:
    ids = [save(tmp_path, white=name) for name in ("Ann", "Cid")]
    held = Counting(hold=True)
    web = companion(tmp_path, Reviewer(review=held, max_waiting=1, tables_dir=tmp_path / "x"))
    with client(web) as http:
        assert http.get(f"/api/games/{ids[0]}/review?wait=0").status_code == 202
        busy = http.get(f"/api/games/{ids[1]}/review?wait=0")
        held.release.set()
    assert busy.status_code == 503
    assert "being reviewed already" in busy.json()["error"]


@pytest.mark.parametrize(
    ("path", "status", "words"),
    [
        ("/api/games/nothing-here/review", 404, "no saved game 'nothing-here'"),
        ("/api/games/..%2F..%2Fetc%2Fpasswd/review", 404, "passwd"),
        ("/api/games/broken/review", 422, "move 2 ('d6') is illegal"),
    ],
)
def test_bad_requests_get_a_4xx_naming_the_problem(
    tmp_path: Path, path: str, status: int, words: str
) -> None:
    save(tmp_path)
    games = tmp_path / "games"
    (games / "broken.txt").write_text("1. d6 d6 *\n", encoding="utf-8")
    web = companion(tmp_path)
    with client(web) as http:
        answer = http.get(path)
    assert answer.status_code == status
    assert words in answer.json()["error"]


def test_the_review_page_and_its_script_are_served(tmp_path: Path) -> None:
    with client(companion(tmp_path)) as http:
        page = http.get("/review")
        script = http.get("/static/review.js")
        board_page = http.get("/")
        assert http.get("/static/review.html").status_code == 404
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script src="/static/review.js"' in page.text
    assert script.status_code == 200 and "ArrowRight" in script.text
    assert 'href="/review"' in board_page.text


def quick_review(text: str, **options: Any) -> dict[str, Any]:
    """The review one turn deep: what the fuzzing needs is its errors, not its scores."""
    from morris.app.review import review_text

    return review_text(text, depth=1, **options).to_json()


QUERY_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)
RECORD_TEXT = st.one_of(
    st.text(max_size=200),
    st.lists(
        st.sampled_from(["1.", "d6", "d6xg7", "a1-a4", "*", "1-0", '[Variant "x"]', "\n"])
    ).map(" ".join),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    query=st.dictionaries(
        st.sampled_from(["position", "variant", "last", "flip", "width"]), QUERY_TEXT, max_size=5
    ),
    record=RECORD_TEXT,
    game_id=st.text(max_size=20),
)
def test_fuzzed_pictures_and_reviews_get_4xx_never_5xx(
    tmp_path_factory: pytest.TempPathFactory, query: dict[str, str], record: str, game_id: str
) -> None:
    state = tmp_path_factory.mktemp("state")
    (state / "games").mkdir()
    (state / "games" / "fuzzed.txt").write_text(record, encoding="utf-8")
    web = companion(state, Reviewer(review=quick_review, tables_dir=state / "no-tables"))
    with client(web) as http:
        answers = [
            http.get("/api/render.png", params=query),
            http.get("/api/games/fuzzed/review"),
            http.get(f"/api/games/{quote(game_id, safe='')}/review"),
            http.post("/api/games/fuzzed/review"),
            http.get("/api/games/fuzzed/chart.svg", params=query),
            http.get("/api/games/fuzzed/chart.png", params=query),
        ]
    for answer in answers:
        assert answer.status_code < 500, answer.text
        if answer.status_code >= 400:
            assert answer.json()["error"]
    assert answers[1].status_code in (200, 422)
    assert answers[3].status_code == 405
