"""``morris review RECORD``: the table of a reviewed game, and exit code 2 for a bad record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from morris.app.store import GameStore
from morris.cli import main
from morris.core import Board
from tests.core.games import strong_games

# Strong game 3 of tests/data/strong-games.txt: white lets a mill through on turn 15 (8. g4xd1).
BLUNDERED = strong_games()[2]


@pytest.fixture
def saved_game(tmp_path: Path) -> Path:
    board = Board()
    for text in BLUNDERED.turns:
        board.push_notation(text)
    return GameStore(tmp_path).finish(board, white="Ann", black="morris level 5")


def test_review_prints_every_turn_and_the_first_mistake(
    saved_game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(saved_game), "--no-tables"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == ["turn", "move", "best", "score", "after", "wdl", "after", "mark"]
    rows = [line.split() for line in lines[1 : 1 + len(BLUNDERED.turns)]]
    assert [row[1] for row in rows] == list(BLUNDERED.turns)
    marked = [line for line in lines if "<< first (engine)" in line]
    assert len(marked) == 1 and marked[0].split()[:2] == ["8.", "g4xd1"]
    assert "First result thrown away: 8. g4xd1 (white)" in out
    assert "engine's judgement" in out


def test_review_json_has_a_row_per_turn(
    saved_game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(saved_game), "--no-tables", "--json", "--depth", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [t["move"] for t in data["turns"]] == list(BLUNDERED.turns)
    assert data["engine"]["depth"] == 3
    assert data["tags"]["White"] == "Ann"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("1. d6 d6 *\n", "move 2 ('d6') is illegal: d6 is occupied"),
        ('[Result "1-0"\n\n1. d6 *\n', "line 1"),
        (b"\xff\xfe not text", "not UTF-8"),
    ],
)
def test_a_bad_record_exits_2_naming_the_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | bytes, message: str
) -> None:
    path = tmp_path / "game.txt"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    assert main(["review", str(path), "--no-tables"]) == 2
    err = capsys.readouterr().err
    assert message in err and str(path) in err
    assert "Traceback" not in err


def test_a_missing_record_or_bad_option_exits_2(
    tmp_path: Path, saved_game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(tmp_path / "nothing.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["review", str(saved_game), "--depth", "0"]) == 2
    assert "--depth" in capsys.readouterr().err
