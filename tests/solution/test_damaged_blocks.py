"""A solved game's file damaged on the card while the board plays (the daemon reads the files
without hashing them: gigabytes for the larger games): the first block that fails its CRC-32
takes its file out of the loaded solution, with a warning naming it, and play goes on: the
engine searches the position, no value is shown there, a puzzle in progress ends with the
reason on the event line. Nothing raises into the daemon's loop."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from morris.app.values import plain_value, value_of_board
from morris.engine.engine import Engine
from morris.engine.errors import SolutionError
from morris.engine.result import Result, Value
from morris.engine.solution import Solution
from morris.engine.solution.analyse import new_board, turn_values
from morris.engine.solution.removals import open_removals, removal_filename
from morris.engine.solution.sectors import SectorKey, sector_keys, start_sector
from morris.engine.solution.storage import open_sector
from morris.sim import Simulation
from tests.app.scenario_kit import SETTLE, lit, make_turn
from tests.solution.damage_kit import spoil, spoil_sector


@pytest.fixture
def copy3(solved3: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "solution"
    shutil.copytree(solved3, copy)
    return copy


def test_the_engine_searches_where_the_solution_meets_a_damaged_block(
    copy3: Path, caplog: pytest.LogCaptureFixture
) -> None:
    start = start_sector(3)
    after = start.quiet_successor()  # every placement of white's first piece lands here
    solution = Solution.load(copy3, 3, check=False)  # as the daemon loads it
    spoil_sector(copy3, after)
    board = new_board(3)
    with caplog.at_level(logging.WARNING):
        result = Engine(7, solution=solution).play(board)
    assert result.move in board.legal_moves and result.nodes > 0  # searched, not looked up
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and after.filename in warnings[0] and "no longer used" in warnings[0]
    assert not solution.covers(after) and solution.covers(start)
    # The file is out for good: the next turn searches without reading it or warning again.
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        again = Engine(7, solution=solution).play(board)
    assert again.nodes > 0 and not caplog.records
    # The rest of the solution still answers.
    assert solution.probe_key(start, 0, 0) == Result(Value.WIN, 23)


def test_a_position_in_a_damaged_sector_has_no_value_and_the_others_keep_theirs(
    copy3: Path,
) -> None:
    solution = Solution.load(copy3, 3, check=False)
    board = new_board(3)
    # Its words are a message, rendered in the reader's language (here English).
    assert plain_value(value_of_board(solution, board), "en") == {
        "value": "win", "distance": 23, "plies": 23, "wins_in": 12, "for": "white",
        "text": "white wins in 12",
    }  # fmt: skip
    spoil_sector(copy3, start_sector(3))
    solution = Solution.load(copy3, 3, check=False)  # nothing of the file in its cache
    assert value_of_board(solution, board) is None
    assert not solution.covers(start_sector(3))
    board.push(next(iter(board.legal_moves)))
    assert value_of_board(solution, board) is not None  # another sector


def test_a_damaged_removal_file_is_dropped_alone(copy3: Path) -> None:
    key = SectorKey(3, 3, 0, 0)
    sector = open_sector(copy3, key, check=False)
    removals = open_removals(copy3, key, sector.info.sha256, check=False)
    assert removals is not None
    spoil(copy3 / removal_filename(key), [removals.section])
    solution = Solution.load(copy3, 3, check=False)
    white, black = 0b111, 0b111 << 8  # three points each: an entry of 3v3
    with pytest.raises(SolutionError, match="removal distances"):
        solution.removal_result(key, white, black)
    assert solution.removal_data(key) is None and solution.covers(key)
    assert solution.probe_key(key, white, black) is not None  # its values are still read
    assert not solution.removals_complete  # so no win is trusted beyond the rule's limit


def test_a_puzzle_ends_when_its_solution_fails_and_the_game_goes_on(copy3: Path) -> None:
    # One block of cache: each probe reads the file, as a large game's would.
    solution = Solution.load(copy3, 3, check=False, cache_bytes=1)
    with Simulation(mode="referee", solution=solution) as sim:
        puzzle = sim.puzzle(3, seed=1)
        for name in sorted(lit(sim, "on") + lit(sim, "slow")):  # set it up as the lights ask
            sim.place(name)
        sim.wait(1.5)
        assert sim.board.position() == puzzle.position
        move = min(
            (r.distance, str(m), m)
            for m, r in turn_values(solution, sim.board)
            if r is not None and r.value is Value.WIN
        )[2]
        for key in sector_keys(3):
            spoil_sector(copy3, key)
        make_turn(sim, move)
        sim.wait(SETTLE)
        line = sim.describe()
        assert "puzzle ended" in line and "damaged" in line
        assert sim.controller.puzzle is None and sim.controller.mode == "referee"
        assert str(move) in [str(m) for m in sim.board.move_stack]  # the turn stands
