"""The solved game on the companion (a real 3 men's solution, built once per run): the page's
state carries the position's value (``solution``) and the review gives each turn's values before
and after; in a real chromium the board page and the review page show them."""

from __future__ import annotations

from pathlib import Path

import pytest

from morris.app.store import GameStore
from morris.core import Board, Move
from morris.engine.solution import Solution
from morris.sim import Simulation
from morris.web.app import Companion
from morris.web.host import SimulationHost
from morris.web.state import state_json
from tests.app.scenario_kit import position, resumed
from tests.web.browser_kit import browser_page, needs_chromium, sim_web
from tests.web.review_kit import client

pytestmark = [pytest.mark.realtime, pytest.mark.slow]  # the solution's build (Dask) is real

#: White to move wins in 5 plies, 3 of its turns (3 against 3, flying); a4-d6 only draws.
WON = position(white="g4 a4 d5", black="f4 e4 c3", fullmove=1)
WAIT = 15_000  # ms: an upper bound, never a fixed pause


def thrown_game(state_dir: Path) -> str:
    """Save a game from WON where white throws the win away at once; its id."""
    board = Board(WON)
    for text in ("a4-d6", "f4-a4"):
        board.push(Move.parse(text))
    return GameStore(state_dir).finish(board, white="Ann", black="Bob").stem


def test_the_state_carries_the_solved_value(solved3: Path, tmp_path: Path) -> None:
    solution = Solution.load(solved3, 3)
    with resumed(tmp_path, Board(WON), solution=solution) as sim:
        state = state_json(sim.controller.snapshot(sim.now), sim.now)
    assert state["solution"] == {
        "value": "win",
        "distance": 5,
        "plies": 5,
        "wins_in": 3,
        "for": "white",
        "text": "white wins in 3",
    }
    with Simulation() as sim:
        assert state_json(sim.controller.snapshot(sim.now), sim.now)["solution"] is None


def test_the_review_route_gives_the_solved_values(solved3: Path, tmp_path: Path) -> None:
    game = thrown_game(tmp_path)
    web = Companion(
        SimulationHost(Simulation(state_dir=tmp_path)), solution_dir=solved3, tables_dir=tmp_path
    )
    with client(web) as http:
        outline = http.get(f"/api/games/{game}/review?wait=0").json()
        review = http.get(f"/api/games/{game}/review").json()
    for answer in (outline, review):
        first = answer["turns"][0]
        assert first["solution_before"]["text"] == "white wins in 3"
        assert first["solution_after"]["text"] == "draw"
        assert answer["solution"] is True
    assert review["turns"][0]["threw"] == "solution" and review["first_mistake"] == 1
    assert review["turns"][0]["score_before"] is not None  # the engine's fields are kept


@pytest.mark.browser
@needs_chromium
def test_the_pages_show_the_solved_values(solved3: Path, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    from tests.app.scenario_kit import save_game

    save_game(tmp_path, Board(WON))  # resumed by the page's simulator
    thrown_game(tmp_path)
    config = tmp_path / "config.toml"
    config.write_text(f'[engine]\nsolution = "{solved3}"\n')
    with (
        sim_web("--config", str(config), "--mode", "referee", state_dir=tmp_path) as sim,
        browser_page() as page,
    ):
        page.goto(sim.url)
        expect(page.locator("#solution")).to_have_text("Solved: white wins in 3", timeout=WAIT)
        page.goto(sim.url + "review")
        page.locator("#games button").first.click()
        expect(page.locator("#turn")).to_contain_text("Turn 2 of 2", timeout=WAIT)  # the end
        page.get_by_role("button", name="one turn back").click()
        expect(page.locator("#turn")).to_contain_text("Turn 1 of 2", timeout=WAIT)
        expect(page.locator("#solved-before")).to_have_text("white wins in 3", timeout=WAIT)
        expect(page.locator("#solved-after")).to_have_text("draw", timeout=WAIT)
        expect(page.locator("#mark")).to_contain_text("by the solved game", timeout=60_000)
