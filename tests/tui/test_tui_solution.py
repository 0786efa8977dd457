"""The terminal simulator shows the solved game's value of the position where a solution covers
it (a real 3 men's solution, built once per run)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from morris.app.config import Config
from morris.core import Board
from morris.engine.solution import Solution
from morris.tui.app import SimulatorApp
from tests.app.scenario_kit import position, save_game

pytestmark = [pytest.mark.realtime, pytest.mark.slow]  # the solution's build (Dask) is real

#: White to move wins in 3 of its turns, 5 plies (3 against 3, flying).
WON = position(white="g4 a4 d5", black="f4 e4 c3", fullmove=1)


def game_panel(solution: Solution, state_dir: Path | None) -> str:
    app = SimulatorApp(
        Config().with_overrides(game_mode="referee"),
        state_dir=state_dir,
        autoplay=False,
        solution=solution,
    )
    shown: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            app.advance(2.0)
            await pilot.pause()
            shown.append(app.panel_text("game"))

    asyncio.run(main())
    return shown[0]


def test_the_game_panel_says_the_solved_value(solved3: Path, tmp_path: Path) -> None:
    save_game(tmp_path, Board(WON))
    assert "Solved white wins in 3" in game_panel(Solution.load(solved3, 3), tmp_path)


def test_no_value_where_the_solution_does_not_cover_the_position(solved3: Path) -> None:
    assert "Solved" not in game_panel(Solution.load(solved3, 3), None)  # nine men to place
