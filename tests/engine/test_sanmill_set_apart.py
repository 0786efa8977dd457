"""Setting apart the losses the yardstick also suffers (benchmarks/sanmill_set_apart.py), on
real saved game records."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from morris import Board
from morris.core.record import GameRecord, write_game

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from sanmill_set_apart import main

#: Game n (from 0) opens with OPENINGS[n // 2], colours swapped in the odd games.
OPENINGS = [("d2", "g1"), ("b4", "a7")]


def _save(directory: Path, results: dict[int, str], *, openings: list[tuple[str, str]]) -> Path:
    """Game records as ``sanmill_match.py --out`` writes them: game n ended ``results[n]``."""
    directory.mkdir()
    for i, (number, result) in enumerate(sorted(results.items()), start=1):
        board = Board()
        for placement in openings[number // 2]:
            board.push_notation(placement)
        record = GameRecord.from_board(board, Round=str(number + 1), Result=result)
        (directory / f"game-{i:04d}.txt").write_text(write_game(record), encoding="utf-8")
    return directory


def test_a_loss_the_reference_also_suffered_is_set_apart_and_the_others_are_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Ours: white in game 0 lost (0-1), black in game 1 lost (1-0), game 2 won, game 3 drawn.
    ours = _save(tmp_path / "ours", {0: "0-1", 1: "1-0", 2: "1-0", 3: "1/2-1/2"}, openings=OPENINGS)
    # Sanmill in our seat lost game 0 too, and drew game 1.
    ref = _save(tmp_path / "ref", {0: "0-1", 1: "1/2-1/2", 2: "1-0", 3: "1-0"}, openings=OPENINGS)
    assert main([str(ours), "--reference", str(ref)]) == 0
    out = capsys.readouterr().out
    assert "| ours | 4 | 1-1-2 | 2 | 1 | 1 |" in out
    assert "game 0 (d2 g1, our seat white): Sanmill in our seat lost 1 of 1: set apart" in out
    assert "game 1 (d2 g1, our seat black): Sanmill in our seat lost 0 of 1: left" in out
    assert "4 games of Sanmill in our seat, 2 lost" in out


def test_at_least_two_asks_that_the_reference_lost_every_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ours = _save(tmp_path / "ours", {0: "0-1", 1: "1-0"}, openings=OPENINGS)
    first = _save(tmp_path / "r1", {0: "0-1", 1: "1-0"}, openings=OPENINGS)
    second = _save(tmp_path / "r2", {0: "0-1", 1: "1/2-1/2"}, openings=OPENINGS)
    argv = [str(ours), "--reference", str(first), str(second), "--at-least", "2"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "| ours | 2 | 0-0-2 | 2 | 1 | 1 |" in out
    assert "game 0 (d2 g1, our seat white): Sanmill in our seat lost 2 of 2: set apart" in out
    assert "game 1 (d2 g1, our seat black): Sanmill in our seat lost 1 of 2: left" in out


def test_runs_of_other_openings_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ours = _save(tmp_path / "ours", {0: "0-1"}, openings=OPENINGS)
    ref = _save(tmp_path / "ref", {0: "0-1"}, openings=[("g7", "a1")])
    assert main([str(ours), "--reference", str(ref)]) == 2
    err = capsys.readouterr().err
    assert "game 0 opens d2 g1 in our run and g7 a1 in the reference" in err


def test_a_directory_without_games_or_with_a_broken_record_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ours = _save(tmp_path / "ours", {0: "0-1"}, openings=OPENINGS)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main([str(ours), "--reference", str(empty)]) == 2
    assert f"{empty}: no game records" in capsys.readouterr().err
    (empty / "game-0001.txt").write_text('[Round "1"]\n[Result "1-0"]\n\n1. z9 1-0\n')
    assert main([str(ours), "--reference", str(empty)]) == 2
    assert "game-0001.txt" in capsys.readouterr().err
    (empty / "game-0001.txt").write_text('[Round "x"]\n[Result "1-0"]\n\n1. d2 1-0\n')
    assert main([str(ours), "--reference", str(empty)]) == 2
    assert "no Round tag" in capsys.readouterr().err
