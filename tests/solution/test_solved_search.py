"""The solved game inside the search: the search scores the positions of the solution's
moving-phase sectors exactly wherever it reaches them, in C and in Python alike."""

from __future__ import annotations

import logging
import shutil
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from morris.core.board import Board
from morris.core.variant import engine_rules
from morris.engine.engine import SOLVED_DRAW, Engine
from morris.engine.evaluate import WEIGHTS, Weights, make_evaluator
from morris.engine.movegen import decode, generate
from morris.engine.result import Value
from morris.engine.search import (
    MATE,
    NATIVE_AVAILABLE,
    SECTOR_DEPTH,
    Search,
    native_sectors,
    solved_draw_score,
)
from morris.engine.solution import Solution
from morris.engine.solution.analyse import board_class, turn_values
from morris.engine.solution.sectors import SectorKey
from morris.solver.solution.perfection import sample_positions
from tests.solution.damage_kit import spoil_sector

if TYPE_CHECKING:
    from morris.engine._native import Sectors

SEARCHES = [False, True] if NATIVE_AVAILABLE else [False]


@pytest.fixture(scope="module")
def solution(solved4: Path) -> Solution:
    return Solution.load(solved4, 4)


def moving_samples(solution: Solution, per_sector: int) -> list[str]:
    """Won and drawn positions of every moving-phase sector, seeded."""
    return [
        s.position
        for s in sample_positions(solution, per_sector, np.random.default_rng(34))
        if not s.key.mover_hand + s.key.other_hand
    ]


def root_scores(
    board: Board,
    solution: Solution | None,
    native: bool,
    weights: Weights | None = None,
    depth: int = 1 + SECTOR_DEPTH,
    sectors: Sectors | None = None,
) -> dict[str, int]:
    """The score of every turn of ``board`` by a search ``depth`` plies deep (every turn
    searched in a full window), by the turn's text. By default the positions the turns lead to
    are as far from the horizon as the search asks the sectors: their scores are the probes'."""
    search = Search(
        board, tables=None, node_limit=None, deadline=None, clock=lambda: 0.0, stop=None,
        native=native, solution=solution, weights=weights, sectors=sectors,
    )  # fmt: skip
    try:
        mills, quiet = generate(search.rules, search.us, search.them, search.uh, search.bar)
        scores, _, _, complete = search.search_depth(mills + quiet, depth, margin=1)
    finally:
        search.release()
    assert complete
    return {str(decode(mv)): score for mv, score in scores.items()}


@pytest.mark.parametrize("native", SEARCHES, ids=lambda n: "C" if n else "Python")
def test_a_one_turn_search_scores_every_turn_as_the_solution_does(
    solution: Solution, native: bool
) -> None:
    """Each turn's score is the solution's value of the position it leads to: a win or a loss
    in exactly the solution's turns, a draw 0; without the solution the same search sees only
    the evaluation."""
    positions = moving_samples(solution, 3)
    assert len(positions) >= 20  # won and drawn ones of 3v3, 3v4, 4v3 and 4v4
    exact = evaluated = 0
    for text in positions:
        board = board_class(4)(text)
        with_solution = root_scores(board, solution, native)
        without = root_scores(board, None, native)
        for move, result in turn_values(solution, board):
            assert result is not None
            score = with_solution[str(move)]
            distance = result.distance or 0
            expected = {Value.WIN: MATE - distance, Value.LOSS: -(MATE - distance)}.get(
                result.value, 0
            )
            assert score == expected, (text, str(move), result)
            exact += 1
            evaluated += without[str(move)] != expected
    # The searches differ where it matters: most turns are not scored exactly without it.
    assert evaluated > exact // 2


@pytest.mark.parametrize("native", SEARCHES, ids=lambda n: "C" if n else "Python")
def test_a_solved_draw_keeps_the_evaluations_preference_inside_its_band(
    solution: Solution, native: bool
) -> None:
    """With a band for solved draws, a drawing turn scores a quarter of the evaluation of the
    position it leads to (within the band), so the search can tell a draw that presses from
    one that does not; wins and losses keep their exact scores, above and below every draw."""
    band = 30
    weights = replace(WEIGHTS, solved_draw=band)
    positions = moving_samples(solution, 3)
    drawing = pressing = 0
    for text in positions:
        board = board_class(4)(text)
        evaluate = make_evaluator(engine_rules(board), weights)
        scores = root_scores(board, solution, native, weights)
        for move, result in turn_values(solution, board):
            assert result is not None
            score = scores[str(move)]
            if result.value is Value.DRAW:
                after = board.copy()
                after.push(move)
                us = after.occupied_co(after.turn)
                them = after.occupied_co(not after.turn)
                # The turn's score is the opponent's score of the position, negated.
                assert score == -solved_draw_score(evaluate(us, them, 0, 0), band)
                assert -band <= score <= band
                drawing += 1
                pressing += score != 0
            else:
                distance = result.distance or 0
                sign = 1 if result.value is Value.WIN else -1
                assert score == sign * (MATE - distance)
    assert drawing >= 20
    # Not a flat 0: most drawing turns are told apart by the evaluation.
    assert pressing > drawing // 2


@pytest.mark.parametrize("native", SEARCHES, ids=lambda n: "C" if n else "Python")
def test_the_sectors_are_not_asked_at_the_horizon(
    solution: Solution, native: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A probe into a sector can cost a block's decompression, so the search asks the sectors
    only :data:`SECTOR_DEPTH` plies or more from the horizon, not at its leaves (most of its
    nodes): one turn deep it asks nothing, a ply deeper it asks. The C search reads them
    itself (its Sectors count the positions read), the Python one asks the solution."""
    asked = []
    probe = solution.probe_moving

    def counted(us: int, them: int) -> object:
        asked.append((us, them))
        return probe(us, them)

    monkeypatch.setattr(solution, "probe_moving", counted)
    sectors = native_sectors(solution) if native else None

    def read() -> int:
        return len(asked) + (0 if sectors is None else sectors.probes)

    board = board_class(4)(moving_samples(solution, 1)[0])
    root_scores(board, solution, native, depth=SECTOR_DEPTH, sectors=sectors)
    assert read() == 0
    root_scores(board, solution, native, depth=SECTOR_DEPTH + 1, sectors=sectors)
    assert read() > 0
    if native:
        assert asked == []  # the C search never went through Python for a sector


def test_the_engine_searches_with_the_solution_only_when_asked(solution: Solution) -> None:
    """Off by default (at equal time it played worse: docs/ENGINE.md), so a turn is searched
    as without the solution; with ``solved_search`` the search knows the sectors, and only
    under the solution's own rules (no flying: a side with three pieces only steps, so its
    values are not the game's)."""
    text = moving_samples(solution, 1)[0]
    board = board_class(4)(text)
    assert Engine(8, solution=solution)._solution_for_search(board) is None
    asked = Engine(8, solution=solution, solved_search=True)
    assert asked._solution_for_search(board) is solution
    # With the solution in the search, a solved draw keeps the evaluation's preference, by
    # the engine's band unless the weights given set one of their own.
    assert asked._solved_weights(board).solved_draw == SOLVED_DRAW
    own = Engine(8, solution=solution, solved_search=True, weights=replace(WEIGHTS, solved_draw=9))
    assert own._solved_weights(board).solved_draw == 9
    assert WEIGHTS.solved_draw == 0  # the default engine's draws stay flat
    assert asked._solution_for_search(board_class(4)(text, flying=False)) is None


@pytest.mark.parametrize("native", SEARCHES, ids=lambda n: "C" if n else "Python")
def test_a_damaged_sector_met_in_the_search_is_dropped_and_the_search_goes_on(
    solved3: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture, native: bool
) -> None:
    """A card gone bad under the daemon: the first probe into the damaged sector takes its file
    out (one warning naming it) and the search scores those positions by its evaluation."""
    copy = tmp_path / "solution"
    shutil.copytree(solved3, copy)
    solution = Solution.load(copy, 3, check=False)
    moving = SectorKey(3, 3, 0, 0)
    text = moving_samples(solution, 1)[0]
    spoil_sector(copy, moving)
    with caplog.at_level(logging.WARNING):
        scores = root_scores(board_class(3)(text), solution, native)
    assert scores and not solution.covers(moving)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and moving.filename in warnings[0]


@pytest.mark.parametrize("native", SEARCHES, ids=lambda n: "C" if n else "Python")
def test_the_engine_keeps_the_solutions_answers_for_its_next_turns(
    solution: Solution, native: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each probe into a sector costs microseconds (a block's decompression, where it is not
    held) and the next turn's search meets the same positions: the engine asks the solution once
    per position (Python) or per block (C, whose blocks the engine keeps), not once per search."""
    asked: list[object] = []
    probe = solution.probe_moving
    block = solution.distance_block

    def counted(us: int, them: int) -> object:
        asked.append((us, them))
        return probe(us, them)

    def fetched(key: SectorKey, b: int) -> object:
        asked.append((key, b))
        return block(key, b)

    monkeypatch.setattr(solution, "probe_moving", counted)
    monkeypatch.setattr(solution, "distance_block", fetched)
    # A 4v4 position: the search goes deep there (from a smaller one it may find a win at once).
    text = min(moving_samples(solution, 1), key=lambda t: t.split()[0].count("."))
    board = board_class(4)(text)
    engine = Engine(8, solution=solution, solved_search=True, native=native)
    # Searched: with the root's turns given the engine does not play the solution's turn.
    turns = list(board.generate_legal_moves())
    first_search = engine.play(board, nodes=5_000, searchmoves=turns)
    first = len(asked)
    assert first > 0
    again = engine.play(board, nodes=5_000, searchmoves=turns)
    assert (again.move, again.score, again.nodes) == (
        first_search.move, first_search.score, first_search.nodes,
    )  # fmt: skip
    assert len(asked) == first  # every answer the second search needed was kept
    other = Engine(8, solution=solution, solved_search=True, native=native)
    other.play(board, nodes=5_000, searchmoves=turns)
    assert len(asked) == 2 * first  # a new engine asks again: the answers are the engine's


@pytest.mark.skipif(not NATIVE_AVAILABLE, reason="the C search is not built")
def test_the_engines_block_cache_is_the_size_it_is_given(solution: Solution) -> None:
    """``sector_cache`` bounds the blocks the C search keeps: a cache of one set holds at most
    four blocks and plays the same turns as the default one, fetching more often."""
    boards = [board_class(4)(text) for text in moving_samples(solution, 3)]
    played = {}
    for cache in (1, 8 << 20):
        engine = Engine(8, solution=solution, solved_search=True, sector_cache=cache)
        turns = []
        for board in boards:
            # Searched: with the root's turns given the engine does not play the solution's.
            found = engine.play(board, nodes=20_000, searchmoves=list(board.generate_legal_moves()))
            turns.append((found.move, found.nodes))
        assert engine._sectors is not None
        sectors = engine._sectors[1]
        played[cache] = (turns, sectors.cached(), sectors.misses)
    assert played[1][0] == played[8 << 20][0]
    assert played[1][1] <= 4 < played[8 << 20][1]
    assert played[1][2] > played[8 << 20][2]
