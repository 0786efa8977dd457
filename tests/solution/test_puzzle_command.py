"""``morris puzzle``: puzzles printed from the solved game, the same for the same seed; exit code
1 without a solved game (saying what to build), 2 for bad options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from morris.cli import main
from morris.core import Board
from morris.engine.solution import Solution
from morris.engine.solution.analyse import value_of


def test_puzzles_are_printed_with_their_length(
    solved3: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["puzzle", "--dir", str(solved3), "--wins-in", "4", "--count", "3", "--seed", "2"]
    assert main(args) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) == 3 and all(line.endswith("white to move wins in 4") for line in lines)
    solution = Solution.load(solved3, 3)
    for line in lines:
        position = " ".join(line.split()[1:8])
        result = value_of(solution, Board(position))
        assert result is not None and result.value.value == "win" and result.distance == 7
    assert main(args) == 0
    assert capsys.readouterr().out == out  # seeded


def test_json_and_answers(solved3: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "--dir", str(solved3), "--wins-in", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["wins_in"] == 2 and data["distance"] == 3 and data["solutions"]
    assert main(["puzzle", "--dir", str(solved3), "--wins-in", "2", "--answers"]) == 0
    assert f"(answer: {data['solutions'][0]}" in capsys.readouterr().out


def test_without_a_solved_game_the_command_says_what_to_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["puzzle", "--dir", str(tmp_path)]) == 1
    assert "morris tables build --men K" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        (["--wins-in", "0"], "--wins-in must be 1 or more"),
        (["--count", "0"], "--count must be 1 or more"),
        (["--men", "10"], "--men must be 3..9"),
        (["--wins-in", "14"], "no win in 14"),
    ],
)
def test_bad_options_exit_2(
    solved3: Path, capsys: pytest.CaptureFixture[str], options: list[str], problem: str
) -> None:
    assert main(["puzzle", "--dir", str(solved3), *options]) == 2
    assert problem in capsys.readouterr().err


def _config(tmp_path: Path, tables: Path) -> str:
    path = tmp_path / "morris.toml"
    path.write_text(f'[engine]\ntables = "{tables}"\n', encoding="utf-8")
    return str(path)


def test_sim_puzzle_without_a_solved_game_exits_1_before_the_terminal_ui(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _config(tmp_path, tmp_path / "nothing")
    assert main(["sim", "--puzzle", "3", "--no-save", "--config", config]) == 1
    assert "morris tables build --men K" in capsys.readouterr().err


def test_sim_puzzle_with_a_length_no_sector_holds_exits_2(
    solved3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = tmp_path / "tables"
    tables.mkdir()
    (tables / "solution").symlink_to(solved3)
    config = _config(tmp_path, tables)
    assert main(["sim", "--puzzle", "20", "--no-save", "--config", config]) == 2
    assert "--puzzle: no win in 20" in capsys.readouterr().err
