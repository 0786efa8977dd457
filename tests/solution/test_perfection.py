"""Perfection, measured: the engine with the solution against the solution's best defence, from
sampled positions of every value, under the real draw rules (threefold repetition, 100 turns
without removal): every won position won, no drawn position lost."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from morris.engine.search import Engine
from morris.engine.solution import Solution
from morris.engine.solution.analyse import turn_values
from morris.engine.solution.probe import preference, result_of
from morris.engine.solution.turns import index_of_key
from morris.engine.tables.keys import Value
from tests.solution.brute import men_board

pytestmark = [pytest.mark.realtime, pytest.mark.slow]


def _position_text(key, mover: int, other: int) -> str:  # type: ignore[no-untyped-def]
    white_to_move = key.white_to_move is not False
    white, black = (mover, other) if white_to_move else (other, mover)
    hands = (key.mover_hand, key.other_hand) if white_to_move else (key.other_hand, key.mover_hand)
    cells = []
    for p in range(24):
        cells.append("W" if white >> p & 1 else "B" if black >> p & 1 else ".")
        if p in (7, 15):
            cells.append("/")
    return f"{''.join(cells)} {'w' if white_to_move else 'b'} {hands[0]} {hands[1]} 0 1 -"


def _play_out(solution: Solution, men: int, text: str, seed: int) -> str | None:
    """Engine (side to move) against the solution's best defence; the winner's colour or None."""
    board = men_board(men)(text)  # the draw rules on
    engine_side = board.turn
    engine = Engine(7, seed=seed, solution=solution)
    rng = random.Random(seed)
    for _ in range(400):
        if board.outcome() is not None:
            break
        if board.turn == engine_side:
            board.push(engine.play(board).move)
        else:
            scored = [(m, r) for m, r in turn_values(solution, board) if r is not None]
            best = max(preference(r) for _, r in scored)
            board.push(rng.choice([m for m, r in scored if preference(r) == best]))
    outcome = board.outcome()
    if outcome is None or outcome.winner is None:
        return None
    return "engine" if outcome.winner == engine_side else "defender"


@pytest.mark.parametrize("men", [3, 4])
def test_the_engine_wins_every_won_position_and_loses_no_drawn_one(
    solved3: Path, solved4: Path, men: int
) -> None:
    solution = Solution.load(solved3 if men == 3 else solved4, men)
    rng = np.random.default_rng(men)
    games = {Value.WIN: 0, Value.DRAW: 0}
    for key in solution.keys:
        codes = np.asarray(solution.data(key).dist)
        for value, pool in (
            (Value.WIN, np.flatnonzero((codes > 0) & (codes % 2 == 0))),
            (Value.DRAW, np.flatnonzero(codes == 0)),
        ):
            if pool.size == 0:
                continue
            picked = rng.choice(pool, size=min(3, pool.size), replace=False)
            movers, others = index_of_key(key).decode(picked.astype(np.int64))
            for i, m, o in zip(picked, movers, others, strict=True):
                text = _position_text(key, int(m), int(o))
                result = _play_out(solution, men, text, int(i))
                assert result_of(int(codes[i])).value is value
                if value is Value.WIN:
                    assert result == "engine", (key.name, text)
                else:
                    assert result != "defender", (key.name, text)
                games[value] += 1
    assert games[Value.WIN] >= 10 and games[Value.DRAW] >= 10


def test_levels_with_tables_play_the_solution_and_lower_levels_search(solved3: Path) -> None:
    from morris.engine.search import MATE
    from morris.engine.solution.analyse import new_board

    solution = Solution.load(solved3, 3)
    board = new_board(3)
    best = {str(m) for m, r in turn_values(solution, board) if r is not None and r.distance == 23}
    top = Engine(7, solution=solution).play(board)
    assert str(top.move) in best and top.score == MATE - 23 and top.nodes == 0
    assert Engine(3, solution=solution).play(board).nodes > 0


def test_the_daemon_finds_the_solution_beside_the_tables(solved3: Path, tmp_path: Path) -> None:
    from morris.app.jobs import load_solution

    assert load_solution(tmp_path) is None
    (tmp_path / "solution").symlink_to(solved3)
    solution = load_solution(tmp_path)
    assert solution is not None and len(solution.keys) == 7
