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


#: Ours: white lost game 0 (0-1) and black game 1 (1-0), game 2 won, game 3 drawn.
OURS = {0: "0-1", 1: "1-0", 2: "1-0", 3: "1/2-1/2"}


@pytest.mark.parametrize(
    ("references", "at_least", "row", "verdicts"),
    [
        # Sanmill in our seat lost game 0 too and drew game 1: the one loss is set apart.
        (
            [{0: "0-1", 1: "1/2-1/2", 2: "1-0", 3: "1-0"}], 1, "| 1-1-2 | 2 | 1 | 1 |",
            ["game 0 (d2 g1, our seat white): Sanmill in our seat lost 1 of 1: set apart",
             "game 1 (d2 g1, our seat black): Sanmill in our seat lost 0 of 1: left"],
        ),
        # Two reference runs and --at-least 2: only the game it lost every time is set apart.
        (
            [{0: "0-1", 1: "1-0"}, {0: "0-1", 1: "1/2-1/2"}], 2, "| 1-1-2 | 2 | 1 | 1 |",
            ["game 0 (d2 g1, our seat white): Sanmill in our seat lost 2 of 2: set apart",
             "game 1 (d2 g1, our seat black): Sanmill in our seat lost 1 of 2: left"],
        ),
    ],
)  # fmt: skip
def test_a_loss_is_set_apart_where_the_reference_lost_that_game_too(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    references: list[dict[int, str]],
    at_least: int,
    row: str,
    verdicts: list[str],
) -> None:
    ours = _save(tmp_path / "ours", OURS, openings=OPENINGS)
    refs = [_save(tmp_path / f"ref{i}", r, openings=OPENINGS) for i, r in enumerate(references)]
    argv = [str(ours), "--reference", *map(str, refs), "--at-least", str(at_least)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"| ours | 4 {row}" in out
    for verdict in verdicts:
        assert verdict in out
    lost = sum(r[n] == ("0-1" if n % 2 == 0 else "1-0") for r in references for n in r)
    assert f"of Sanmill in our seat, {lost} lost" in out


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


def test_output_cut_short_by_a_pager_ends_quietly(tmp_path: Path) -> None:
    import subprocess

    ours = _save(tmp_path / "ours", OURS, openings=OPENINGS)
    ref = _save(tmp_path / "ref", OURS, openings=OPENINGS)
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "sanmill_set_apart.py"
    reader = subprocess.Popen(["head", "-c", "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert reader.stdin is not None
    # Many runs, so that the output outlasts the pipe's buffer after the reader has gone.
    argv = [sys.executable, str(script), *[str(ours)] * 3000, "--reference", str(ref)]
    run = subprocess.run(argv, stdout=reader.stdin, stderr=subprocess.PIPE, text=True, check=False)
    reader.stdin.close()
    reader.wait()
    assert run.returncode == 0
    assert "Traceback" not in run.stderr
