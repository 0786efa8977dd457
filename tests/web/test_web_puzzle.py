"""POST /api/puzzle through the test client over a simulation in virtual time: a puzzle from the
solved 3 men's morris set up by the lights, its standing in the state's ``puzzle``, and the 4xx
for bad input (400) and for no solved game or a damaged one (409), with the game unchanged."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from morris.app.config import Config
from morris.engine.solution import Solution
from tests.solution.damage_kit import spoil_sector
from tests.web.web_kit import TOKENS, web

WATCH = {"Authorization": f"Bearer {TOKENS.watch}"}


@pytest.fixture(scope="module")
def solution(solved3: Path) -> Solution:
    return Solution.load(solved3, 3)


def test_a_puzzle_from_the_page_is_set_up_by_the_lights(solution: Solution) -> None:
    with web(mode="vs-ai", solution=solution) as w:
        response = w.client.post("/api/puzzle", json={"wins_in": 2, "seed": 3})
        assert response.status_code == 200, response.text
        state = response.json()
        puzzle = state["puzzle"]
        assert puzzle["title"] == "white to move wins in 2"
        assert puzzle["status"] == "setting up" and state["position"] == puzzle["position"]
        assert "set it up" in state["event"]
        w.wait(2.0)
        state = w.state()
        wanted = sorted(p for p, s in state["lights"].items() if s in ("on", "slow"))
        assert wanted == sorted(state["pieces"])
        for point in wanted:
            w.tap(point)
        w.wait(1.5)
        state = w.state()
        assert state["puzzle"]["status"] == "playing" and state["puzzle"]["left"] == 2
        again = w.client.post("/api/puzzle", json={"wins_in": 2, "seed": 3}).json()
        assert again["puzzle"]["position"] == puzzle["position"]  # seeded


def test_an_empty_body_gives_the_default_puzzle(solution: Solution) -> None:
    with web(mode="referee", solution=solution) as w:
        response = w.client.post("/api/puzzle")
        assert response.status_code == 200, response.text
        assert response.json()["puzzle"]["wins_in"] == 3


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"wins_in": 0}, "wins_in must be 1 or more"),
        ({"wins_in": "two"}, "wins_in must be a whole number"),
        ({"wins_in": 2, "seed": None}, "seed must be a whole number"),
        ({"wins_in": 2, "men": 12}, "men must be a whole number from 3 to 9"),
        ({"wins_in": 99}, "no win in 99"),
        ({"wins": 2}, "unknown field"),
        ([2], "JSON object"),
    ],
)
def test_bad_input_is_a_400_naming_it(solution: Solution, body: object, problem: str) -> None:
    with web(mode="referee", solution=solution) as w:
        before = w.state()["position"]
        response = w.client.post("/api/puzzle", json=body)
        assert response.status_code == 400 and problem in response.json()["error"]
        state = w.state()
        assert state["position"] == before and state["puzzle"] is None


def test_without_a_solved_game_it_is_a_409_saying_what_to_build(tmp_path: Path) -> None:
    # An empty directory where the config says the solved game is (not the data directory's).
    with web(mode="referee", config=Config().with_overrides(engine_solution=str(tmp_path))) as w:
        response = w.client.post("/api/puzzle", json={"wins_in": 2})
        assert response.status_code == 409
        assert "morris tables build --men K" in response.json()["error"]
        assert w.state()["puzzle"] is None


def test_a_damaged_solution_is_a_409_naming_the_file(solved3: Path, tmp_path: Path) -> None:
    copy = tmp_path / "solution"
    shutil.copytree(solved3, copy)
    damaged = Solution.load(copy, 3, check=False, cache_bytes=1)  # mapped, as the daemon does
    for key in damaged.keys:
        spoil_sector(copy, key)
    with web(mode="referee", solution=damaged) as w:
        before = w.state()["position"]
        response = w.client.post("/api/puzzle", json={"wins_in": 2})
        assert response.status_code == 409, response.text
        error = response.json()["error"]
        assert error.startswith("no puzzle: ") and ".msol" in error and "damaged" in error
        state = w.state()
        assert state["position"] == before and state["puzzle"] is None


def test_mode_remote_is_a_409_and_a_spectator_may_not(solution: Solution) -> None:
    with web(mode="remote", solution=solution) as w:
        response = w.client.post("/api/puzzle", json={"wins_in": 2})
        assert response.status_code == 409 and "remote player" in response.json()["error"]
    with web(mode="referee", lan=True, solution=solution) as w:
        response = w.client.post("/api/puzzle", json={"wins_in": 2}, headers=WATCH)
        assert response.status_code == 403
