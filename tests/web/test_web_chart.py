"""The game's graph (:mod:`morris.web.chart`): White's score over the game from the review's
scores, the solved result as a band, the thrown results marked; ``morris review --svg``, the
chart routes (SVG and PNG), and the page shell's files (manifest, icons, service worker)."""

from __future__ import annotations

import io
import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from morris.app.store import GameStore
from morris.cli import main
from morris.core import Board
from morris.web.chart import (
    HEIGHT,
    MAX_CHART_WIDTH,
    chart_of_review,
    render_chart_svg,
    white_score,
)
from morris.web.png import render_chart_png
from morris.web.review import Reviewer
from tests.web.review_kit import BLUNDERED, client, companion, save

MATE = 100_000


def drawn_points(svg: str) -> dict[int, int]:
    """The chart's points as drawn: ply -> White's score (``data-score``)."""
    return {
        int(ply): int(score)
        for ply, score in re.findall(
            r'class="pt[^"]*"[^>]*data-ply="(\d+)" data-score="(-?\d+)"', svg
        )
    }


def white_scores(review: dict[str, Any]) -> dict[int, int]:
    """White's score in each position of a review: the start, then after each turn (the
    review's scores are the mover's)."""
    turns = review["turns"]
    first = turns[0]
    scores = {0: first["score_before"] if first["mover"] == "white" else -first["score_before"]}
    for turn in turns:
        sign = 1 if turn["mover"] == "white" else -1
        scores[turn["ply"]] = sign * turn["score_after"]
    return scores


def turn(
    ply: int, mover: str, before: int | None, after: int | None, **extra: Any
) -> dict[str, Any]:
    """One turn of a review's JSON."""
    number = (ply + 1) // 2
    return {
        "ply": ply,
        "label": f"{number}." if mover == "white" else f"{number}...",
        "move": "d6",
        "mover": mover,
        "score_before": before,
        "score_after": after,
        "wdl_before": None,
        "wdl_after": None,
        "threw": None,
        "mistake": False,
        "solution_before": None,
        "solution_after": None,
        **extra,
    }


@pytest.fixture
def saved_game(tmp_path: Path) -> Path:
    board = Board()
    for text in BLUNDERED.turns:
        board.push_notation(text)
    return GameStore(tmp_path / "state").finish(board, white="Ann", black="Bob")


def test_review_svg_writes_the_chart_of_the_reviews_scores(
    saved_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "graph.svg"
    assert main(["review", str(saved_game), "--no-tables", "--json", "--svg", str(chart)]) == 0
    review = json.loads(capsys.readouterr().out)
    svg = chart.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "Ann vs Bob: 0-1" in svg
    # One point per position, each at White's score as the review has it.
    assert drawn_points(svg) == white_scores(review)
    assert len(drawn_points(svg)) == len(BLUNDERED.turns) + 1
    # The turn that threw the game away (15. g4xd1) is marked, the first with ??.
    assert re.search(r'class="pt first"[^>]*data-ply="15"', svg)
    assert svg.count('class="first-line"') == 1 and ">??</text>" in svg
    # Black wins in the end: the band's last strip says so.
    assert svg.count('class="band black"') == 1
    # Every position has its tap target, and the columns tile the chart.
    hits = re.findall(r'class="hit" x="([\d.]+)" y="0" width="([\d.]+)"', svg)
    assert len(hits) == len(BLUNDERED.turns) + 1
    for (x0, w0), (x1, _) in itertools.pairwise(hits):
        assert abs(float(x0) + float(w0) - float(x1)) < 0.2


def test_review_svg_to_a_place_that_cannot_be_written_exits_2(
    saved_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "no-such-dir" / "graph.svg"
    assert (
        main(["review", str(saved_game), "--no-tables", "--depth", "1", "--svg", str(target)]) == 2
    )
    assert f"cannot write {target}" in capsys.readouterr().err


def test_the_band_shows_the_solved_results_where_known() -> None:
    win = {"value": "win", "distance": 9, "for": "white", "text": "white wins in 9"}
    draw_for_black = {"value": "draw", "distance": 0, "for": "black", "text": "draw"}
    review = {
        "result": "1/2-1/2",
        "tags": {"White": "Ann", "Black": "Bob"},
        "turns": [
            turn(1, "white", 10, 20, solution_before=None, solution_after=None),
            # The solved game knows the position after turn 2: a win for white, named as such.
            turn(2, "black", -20, -MATE + 9, solution_after={**win}),
            # White throws the win away: a draw, for black to move.
            turn(
                3,
                "white",
                MATE - 9,
                0,
                solution_before={**win},
                solution_after=draw_for_black,
                threw="solution",
                mistake=True,
            ),
            # The tables' verdict (the mover's): black loses here.
            turn(
                4, "black", 0, None, wdl_after={"value": "win", "distance": 3, "source": "tables"}
            ),
        ],
    }
    chart = chart_of_review(review)
    assert [p.known for p in chart.points] == [None, None, "white", "draw", "black"]
    assert [p.known_by for p in chart.points] == [None, None, "solution", "solution", "tables"]
    assert [p.score for p in chart.points] == [10, 20, MATE - 9, 0, None]
    # A forced win is drawn at the top edge, an even score on the middle line.
    assert chart.points[2].y == pytest.approx(8.0) and chart.points[3].y == pytest.approx(chart.mid)
    svg = render_chart_svg(chart, cursor=3)
    assert [kind for *_, kind in chart.bands()] == ["white", "draw", "black"]
    assert 'class="band white"' in svg and 'class="band draw"' in svg
    assert re.search(r'class="pt first"[^>]*data-ply="3"', svg)
    assert 'data-ply="4" data-score' not in svg  # no score: no point (the curve is broken)
    assert re.search(r'<line class="cursor" x1="([\d.]+)"[^>]*data-ply="3"', svg)
    assert white_score(None, "black") is None


def test_the_png_is_the_same_chart() -> None:
    from PIL import Image

    review = {"turns": [turn(k, "white" if k % 2 else "black", 0, 40 * k) for k in range(1, 31)]}
    chart = chart_of_review(review)
    data = render_chart_png(chart, width=600)
    image = Image.open(io.BytesIO(data))
    assert image.size == (600, round(HEIGHT * 600 / chart.width))
    # Every point of the SVG is where the PNG draws one: the curve's blue (#2563eb) there.
    pixels = image.convert("RGB")
    scale = 600 / chart.width
    for point in chart.points:
        assert point.y is not None
        red, green, blue = pixels.getpixel((round(point.x * scale), round(point.y * scale)))
        assert blue > 170 and red < 110, (point.ply, (red, green, blue))
    with pytest.raises(ValueError, match="width must be"):
        render_chart_png(chart, width=10)
    with pytest.raises(ValueError, match="width must be"):
        chart_of_review(review, width=MAX_CHART_WIDTH + 1)


def test_the_chart_routes(tmp_path: Path) -> None:
    game_id = save(tmp_path)
    web = companion(tmp_path, Reviewer(tables_dir=tmp_path / "no-tables"))
    with client(web) as http:
        review = http.get(f"/api/games/{game_id}/review").json()
        svg = http.get(f"/api/games/{game_id}/chart.svg", params={"width": "400", "turn": "12"})
        png = http.get(f"/api/games/{game_id}/chart.png", params={"width": "300"})
        errors = [
            http.get("/api/games/nothing/chart.svg"),
            http.get(f"/api/games/{game_id}/chart.svg", params={"turn": "x"}),
            http.get(f"/api/games/{game_id}/chart.svg", params={"width": "nan"}),
            http.get(f"/api/games/{game_id}/chart.svg", params={"width": "10"}),
            http.get(f"/api/games/{game_id}/chart.png", params={"width": "9999"}),
        ]
    assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
    assert 'viewBox="0 0 400 172"' in svg.text
    assert drawn_points(svg.text) == white_scores(review)
    assert re.search(r'<line class="cursor"[^>]*data-ply="12"', svg.text)
    assert png.status_code == 200 and png.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert [e.status_code for e in errors] == [404, 400, 400, 400, 400]
    assert "no saved game 'nothing'" in errors[0].json()["error"]
    assert all(e.json()["error"] for e in errors)


def test_the_page_shell_manifest_icons_and_service_worker(tmp_path: Path) -> None:
    from PIL import Image

    with client(companion(tmp_path)) as http:
        manifest = http.get("/manifest.webmanifest")
        data = manifest.json()
        icons = {icon["src"]: http.get(icon["src"]) for icon in data["icons"]}
        favicon = http.get("/favicon.ico")
        worker = http.get("/sw.js")
        unknown = http.get("/icons/icon-7.png")
        page = http.get("/").text
        review_page = http.get("/review").text
    assert manifest.headers["content-type"] == "application/manifest+json"
    assert data["start_url"] == "/" and data["display"] == "fullscreen"
    assert data["name"] and data["short_name"] == "morris"
    for icon in data["icons"]:
        answer = icons[icon["src"]]
        assert answer.status_code == 200 and answer.headers["content-type"] == icon["type"]
        if icon["type"] == "image/png":
            width, height = map(int, icon["sizes"].split("x"))
            assert Image.open(io.BytesIO(answer.content)).size == (width, height)
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in data["icons"]}
    assert favicon.status_code == 200 and favicon.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert worker.status_code == 200 and "caches.open" in worker.text
    assert worker.headers["service-worker-allowed"] == "/"
    assert unknown.status_code == 404 and "icon-192.png" in unknown.json()["error"]
    for html in (page, review_page):
        assert '<link rel="manifest" href="/manifest.webmanifest">' in html
        assert 'href="/favicon.ico"' in html and "/static/strings.js" in html
        assert "https://" not in html and "http://" not in html  # nothing from elsewhere


def test_the_positions_of_the_game_now(tmp_path: Path) -> None:
    from tests.web.web_kit import web

    with web() as w:
        for name in ("d6", "a1", "g7"):
            w.tap(name)
            w.wait(1.0)
        body = w.client.get("/api/positions").json()
    assert body["moves"] == ["d6", "a1", "g7"] and body["variant"] == "standard"
    board = Board()
    expected = [board.position()]
    for text in body["moves"]:
        board.push_notation(text)
        expected.append(board.position())
    assert body["positions"] == expected
