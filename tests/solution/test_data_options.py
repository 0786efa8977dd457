"""One option for the solved game's directory on every command that reads it (``--solution DIR``,
also spelled ``--dir`` as ``morris tables build --men K --dir DIR`` takes it), messages that name
the real cause of a missing solution or file, and named directories that hold nothing refused
with exit code 2 rather than dropped in silence (issue 36, points 1, 6 and 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from morris.cli import main
from morris.commands import sim as sim_command
from morris.tui.app import SimulatorApp


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[SimulatorApp]:
    """The simulator apps ``morris sim`` started (their terminal UI not run); no default data
    directory holds a solution."""
    apps: list[SimulatorApp] = []
    monkeypatch.setattr(SimulatorApp, "run", lambda self: apps.append(self))
    monkeypatch.setattr(sim_command, "_log_to_file", lambda path: None)  # leave pytest's log
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("MORRIS_DATA_DIR", raising=False)
    return apps


@pytest.mark.parametrize("option", ["--solution", "--dir"])
def test_sim_puzzle_plays_the_solution_built_with_dir(
    solved3: Path, started: list[SimulatorApp], option: str
) -> None:
    # `morris tables build --men 3 --dir D` wrote solved3; the simulator takes the same D.
    assert main(["sim", "--puzzle", "3", "--no-save", option, str(solved3)]) == 0
    controller = started.pop().sim.controller
    assert controller.puzzle is not None
    assert controller.puzzle.puzzle.title == "white to move wins in 3"
    assert controller.values.solution is not None  # the values and hints of the game too


def test_sim_without_a_solution_names_the_option(
    started: list[SimulatorApp], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sim", "--puzzle", "3", "--no-save"]) == 1
    err = capsys.readouterr().err
    assert "--solution DIR" in err and "[engine] solution" in err
    assert not started


@pytest.mark.parametrize("command", ["sim", "run"])
def test_a_named_solution_directory_that_holds_none_exits_2(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = ["--no-save"] if command == "sim" else ["--sim", "--state-dir", str(tmp_path)]
    assert main([command, *extra, "--solution", str(tmp_path / "nope")]) == 2
    assert f"--solution {tmp_path / 'nope'}: no such directory" in capsys.readouterr().err
    assert main([command, *extra, "--solution", str(tmp_path)]) == 2
    assert "no solved game there" in capsys.readouterr().err


def test_tables_analyse_and_puzzle_take_solution_too(
    solved3: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tables", "info", "--men", "3", "--solution", str(solved3)]) == 0
    assert main(["analyse", "startpos", "--solution", str(solved3)]) == 0
    assert main(["puzzle", "--solution", str(solved3), "--wins-in", "2"]) == 0
    capsys.readouterr()
    assert main(["tables", "info", "--solution", str(solved3)]) == 2  # without --men
    assert "give --men K" in capsys.readouterr().out


# -- point 6: a path given on purpose is never dropped in silence ---------------------------


@pytest.mark.parametrize("option", ["--solution", "--tables"])
def test_review_refuses_a_directory_that_holds_nothing(
    tmp_path: Path, option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.txt"
    record.write_text("1. d6 f4 *\n", encoding="utf-8")
    assert main(["review", str(record), option, str(tmp_path / "NOPE")]) == 2
    assert f"{option} {tmp_path / 'NOPE'}: no such directory" in capsys.readouterr().err


def test_render_refuses_a_suffix_it_does_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    jpg = tmp_path / "x.jpg"
    assert main(["render", "startpos", "-o", str(jpg)]) == 2
    assert "cannot write .jpg; give a file ending .svg or .png" in capsys.readouterr().err
    assert not jpg.exists()
    assert main(["render", "startpos", "--format", "png", "-o", str(tmp_path / "x.svg")]) == 2
    assert main(["render", "startpos", "-o", str(tmp_path / "x.png")]) == 0
    assert (tmp_path / "x.png").read_bytes().startswith(b"\x89PNG")


# -- point 7: the message names the real cause ----------------------------------------------


def test_tables_info_on_a_missing_directory_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tables", "info", "--men", "3", "--dir", str(tmp_path / "NOPE")]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert f"{tmp_path / 'NOPE'}: no such directory" in out
    assert "not built" not in out


def test_tables_info_of_more_men_than_built_names_the_men_to_build(
    solved3: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tables", "info", "--men", "4", "--dir", str(solved3)]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "holds 3 men's morris, not 4 men's morris" in out
    assert "morris tables build --men 4" in out and "--men K" not in out


def test_analyse_of_a_missing_file_says_no_such_file(
    solved3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nofile.txt"
    assert main(["analyse", str(missing), "--solution", str(solved3)]) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert f"{missing}: no such file" in out and "neither" not in out


def test_sim_puzzle_0_says_the_length_is_bad(
    started: list[SimulatorApp], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sim", "--puzzle", "0", "--no-save"]) == 2
    err = capsys.readouterr().err
    assert "--puzzle must be 1 or more" in err and "no solved game" not in err


# -- point 2: one unit for "wins in N" -------------------------------------------------------


def test_a_puzzle_that_wins_in_2_is_reviewed_as_a_win_in_2(
    solved3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    assert main(["puzzle", "--solution", str(solved3), "--wins-in", "2", "--json"]) == 0
    puzzle = json.loads(capsys.readouterr().out)
    assert puzzle["title"] == "white to move wins in 2"
    record = tmp_path / "puzzle.txt"
    record.write_text(
        f'[Position "{puzzle["position"]}"]\n\n1. {puzzle["solutions"][0]} *\n', encoding="utf-8"
    )
    assert main(["review", str(record), "--solution", str(solved3), "--json"]) == 0
    before = json.loads(capsys.readouterr().out)["turns"][0]["solution_before"]
    assert before["text"] == "white wins in 2"
    assert (before["wins_in"], before["plies"]) == (2, 3)  # the field says which unit
    assert main(["review", str(record), "--solution", str(solved3)]) == 0
    out = capsys.readouterr().out
    assert "white wins in 2" in out and "the winner's N turns" in out
    assert main(["analyse", str(record), "--solution", str(solved3)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "before win in 2" in out and "the winner's N turns" in out
