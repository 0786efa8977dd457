"""Where the solved game reaches our losses to Sanmill (benchmarks/sanmill_set_apart.py
--solution), on real saved game records and a real solved game."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from morris import Board
from morris.core.record import GameRecord, write_game
from morris.engine.solution import Solution

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from sanmill_set_apart import main

#: A 3v3 moving-phase position of the standard game, white to move: in 3 men's sectors.
THREE_V_THREE = "W.W.B.B./W......./B....... w 0 0 0 20 -"


def _save(directory: Path, records: list[GameRecord]) -> Path:
    """Records as ``sanmill_match.py --out`` writes them."""
    directory.mkdir()
    for i, record in enumerate(records, start=1):
        (directory / f"game-{i:04d}.txt").write_text(write_game(record), encoding="utf-8")
    return directory


def _record(board: Board, number: int, result: str) -> GameRecord:
    return GameRecord.from_board(board, Round=str(number + 1), Result=result)


def test_each_loss_says_where_the_solution_first_reaches_it(
    solved3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Games 0 and 1 (our seat white, then black) start in a 3v3 position: the solution
    reaches it at once, with its value for our seat; game 2 ends in the placing, never within
    the sectors."""
    endgame = Board(THREE_V_THREE)
    endgame.push(next(iter(endgame.generate_legal_moves())))
    placing = Board()
    for placement in ("d2", "g1", "b4"):
        placing.push_notation(placement)
    records = [_record(endgame, 0, "0-1"), _record(endgame, 1, "1-0"), _record(placing, 2, "0-1")]
    ours = _save(tmp_path / "ours", records)
    ref = _save(tmp_path / "ref", records)
    assert main([str(ours), "--reference", str(ref), "--solution", str(solved3)]) == 0
    out = capsys.readouterr().out
    start = Board(THREE_V_THREE)
    solution = Solution.load(solved3, check=False)
    value = solution.probe(start.occupied_co(True), start.occupied_co(False), 0, 0, True)
    assert value is not None
    within = "" if value.value.name == "DRAW" else f" in {value.distance}"
    # Game 0, our seat white: white's value; game 1, our seat black: the other side of it.
    for number, names in ((0, ("won", "lost")), (1, ("lost", "won"))):
        what = {"WIN": names[0], "LOSS": names[1], "DRAW": "drawn"}[value.value.name]
        lines = out.splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith(f"  game {number} ("))
        assert lines[at + 1].strip() == (
            "placing ended 3v3 at turn 0; first in the solution's sectors at turn 0, 3v3: "
            f"{what}{within} for our seat"
        )
    assert "the placing never ended; never in the solution's sectors" in out


def test_a_solution_directory_without_a_solved_game_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = Board()
    board.push_notation("d2")
    ours = _save(tmp_path / "ours", [_record(board, 0, "0-1")])
    empty = tmp_path / "nothing"
    empty.mkdir()
    assert main([str(ours), "--reference", str(ours), "--solution", str(empty)]) == 2
    assert f"{empty}: no solved game (sector-*.msol) in it" in capsys.readouterr().err


#: A 3v3 position white wins at once; b2-a4 keeps the win, g4-a7 is black's answer, and a4-d7
#: then throws the win away: black wins in one (the solved 3 men's morris says so).
WON_3V3 = "...B..B./....B.WW/....W... w 0 0 0 20 -"
THROWN = ("b2-a4", "g4-a7", "a4-d7")


def test_the_turn_that_threw_the_value_away_and_a_lost_opening(
    solved3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where the solution knows the game from its opening on: game 0 (our seat white) names our
    turn that threw the win away; game 1 (our seat black, the same turns) starts lost after the
    opening, so that loss is set apart, with no reference runs at all."""
    board = Board(WON_3V3)
    for notation in THROWN:
        board.push_notation(notation)
    ours = _save(tmp_path / "ours", [_record(board, 0, "0-1"), _record(board, 1, "1-0")])
    assert main([str(ours), "--solution", str(solved3)]) == 0
    out = capsys.readouterr().out
    assert "no reference runs: a loss is set apart only where the solution shows it lost" in out
    assert "| ours | 2 | 0-0-2 | 2 | 1 | 1 |" in out
    lines = out.splitlines()
    white = next(i for i, line in enumerate(lines) if line.startswith("  game 0 ("))
    assert lines[white] == "  game 0 (b2-a4 g4-a7, our seat white): left"
    assert lines[white + 2].strip() == (
        "the solution: won in 1 for our seat after the opening; turn 3 (a4-d7, ours) threw "
        "the win away: lost in 2"
    )
    black = next(i for i, line in enumerate(lines) if line.startswith("  game 1 ("))
    assert lines[black] == (
        "  game 1 (b2-a4 g4-a7, our seat black): set apart (the solution: the opening is lost)"
    )
    assert (
        lines[black + 2].strip() == "the solution: the opening is lost in 1 for our seat: set apart"
    )


def test_without_reference_or_solution_it_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = Board()
    board.push_notation("d2")
    ours = _save(tmp_path / "ours", [_record(board, 0, "0-1")])
    with pytest.raises(SystemExit) as exc:
        main([str(ours)])
    assert exc.value.code == 2
    assert "give --reference REF_DIR ..., --solution DIR, or both" in capsys.readouterr().err


#: A placing position of the standard board inside 3 men's morris (a piece each on the board,
#: two each in hand), white to move; after e4 and g1 white wins, and white's last placement a7
#: throws the win away (the solved 3 men's morris says so).
PLACING_3 = ".......W/......../..B..... w 2 2 0 1 -"
PLACED = ("e4", "g1", "a7")


def test_each_run_names_whose_turn_first_threw_a_value_away(
    solved3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Our seat is white in the even games: the throws of games 0 and 2 are ours, those of 1
    and 3 Sanmill's; a7 is a placement, a4-d7 a move; game 4 throws nothing after its opening."""
    placing, moving = Board(PLACING_3), Board(WON_3V3)
    for notation in PLACED:
        placing.push_notation(notation)
    for notation in THROWN:
        moving.push_notation(notation)
    quiet = Board(WON_3V3)
    for notation in THROWN[:2]:
        quiet.push_notation(notation)
    records = [
        _record(placing, 0, "0-1"),
        _record(moving, 1, "1-0"),
        _record(moving, 2, "0-1"),
        _record(placing, 3, "0-1"),
        _record(quiet, 4, "1/2-1/2"),
    ]
    ours = _save(tmp_path / "ours", records)
    assert main([str(ours), "--solution", str(solved3)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "ours: the first turn to throw a value away (the solution, draw rules counted): "
        "ours in 2 (1 placing, 1 moving), Sanmill's in 2 (1 placing, 1 moving), none in 1; "
        "Sanmill's turns 3 3"
    )
