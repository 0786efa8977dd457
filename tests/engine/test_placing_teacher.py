"""The placing phase's teacher (benchmarks/placing_teacher.py): the positions it takes from game
records, its terms read off the evaluation, and its fit."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from morris import Board
from morris.core.record import GameRecord, write_game
from morris.engine.evaluate import PIECE, WEIGHTS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from placing_teacher import (
    PLACING_TERMS,
    features,
    fit,
    labels,
    positions,
    result_rows,
)

#: A game's first 14 placements (no mill), and one that reaches its position after 4 by another
#: order, then parts from it.
_TURNS = ["d6", "d2", "f4", "b4", "d3", "d5", "c4", "e4", "a7", "g7", "a1", "g1", "d7", "d1"]
_OTHER = ["f4", "d2", "d6", "b4", "e4"]


def _record(path: Path, turns: list[str]) -> Path:
    board = Board()
    for turn in turns:
        board.push_notation(turn)
    path.write_text(write_game(GameRecord.from_board(board)), encoding="utf-8")
    return path


def test_positions_are_taken_at_the_plies_asked_each_once(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    _record(games / "a.txt", _TURNS)
    _record(games / "b.txt", _OTHER)
    (games / "broken.txt").write_text("1. d6 d6\n", encoding="utf-8")
    found = positions([games], 4, 5)
    # Plies 4 and 5 of the first game; the second reaches the first's ply-4 position again
    # (d6 and f4 swapped), so only its ply 5 is new.
    assert found == [_TURNS[:4], _TURNS[:5], _OTHER[:5]]


def test_the_terms_read_off_the_evaluation_add_up_to_it() -> None:
    rows = [{"turns": _TURNS[:n], "score": 0} for n in range(2, 15)]
    x, _, now = features(rows)
    weights = np.array([PIECE] + [getattr(WEIGHTS, t) for t in PLACING_TERMS], float)
    assert list(x @ weights) == list(now)
    # The side to move while placing is ahead by the tempo alone on a symmetric board.
    assert features([{"turns": [], "score": 0}])[2][0] == WEIGHTS.placing_tempo


def test_the_fit_finds_the_weights_that_made_the_labels() -> None:
    rng = np.random.default_rng(3)
    x = np.column_stack(
        [rng.integers(-2, 3, 400)] + [rng.integers(-4, 5, 400) for _ in PLACING_TERMS]
    )
    made = replace(WEIGHTS, open_two=40, placing_one_exit=12, placing_tempo=25)
    true = np.array([180.0] + [1.8 * getattr(made, t) for t in PLACING_TERMS])
    found = fit(x.astype(float), x @ true, x @ true, 0.25, 1)
    assert found.piece == pytest.approx(180)
    assert {t: round(w) for t, (w, _) in found.weights.items()} == {
        t: getattr(made, t) for t in PLACING_TERMS
    }
    assert found.fitted_error == pytest.approx(0, abs=1e-6)


def test_labels_are_searched_once_and_kept(tmp_path: Path) -> None:
    cache = tmp_path / "labels.jsonl"
    turns = [_TURNS[:13], _TURNS[:14]]
    first = labels(turns, 3000, 1, cache)
    assert [r["turns"] for r in first] == turns
    kept = cache.read_text(encoding="utf-8")
    assert len(kept.splitlines()) == 2
    # Read back, not searched again: a label changed in the file is what comes back.
    changed = [dict(json.loads(line), score=12345) for line in kept.splitlines()]
    cache.write_text("".join(json.dumps(r) + "\n" for r in changed), encoding="utf-8")
    assert [r["score"] for r in labels(turns, 3000, 1, cache)] == [12345, 12345]


def test_results_label_each_position_for_its_side_to_move(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    for name, result in (("a.txt", "1-0"), ("b.txt", "1/2-1/2"), ("c.txt", "0-1")):
        board = Board()
        for turn in _TURNS:
            board.push_notation(turn)
        record = GameRecord.from_board(board, Result=result)
        (games / name).write_text(write_game(record), encoding="utf-8")
    (games / "unfinished.txt").write_text(
        write_game(GameRecord.from_board(Board())), encoding="utf-8"
    )
    rows = result_rows([games], 12, 13)
    # Ply 12: white to move; ply 13: black. Each game's positions are rows of their own.
    assert [(r["game"], r["score"]) for r in rows] == [
        (1, 1),
        (1, -1),
        (2, 0),
        (2, 0),
        (3, -1),
        (3, 1),
    ]
    assert [len(r["turns"]) for r in rows] == [12, 13] * 3


def test_rows_of_one_game_are_held_out_together() -> None:
    rng = np.random.default_rng(5)
    x = np.column_stack(
        [rng.integers(-2, 3, 300)] + [rng.integers(-4, 5, 300) for _ in PLACING_TERMS]
    ).astype(float)
    y = x @ np.array([2.0] + [0.02 * getattr(WEIGHTS, t) for t in PLACING_TERMS])
    # 30 games of 10 rows: a quarter of the games is 7 whole games, where a quarter of the rows
    # would be 75 rows.
    games = fit(x, y, y, 0.25, 1, np.repeat(np.arange(30), 10))
    rows = fit(x, y, y, 0.25, 1)
    assert (games.held_out, rows.held_out) == (70, 75)
    assert games.piece == pytest.approx(2) and games.fitted_error == pytest.approx(0, abs=1e-6)
