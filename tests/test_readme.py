"""The README does what it says: its two commands and its examples.

The first command installs the project and starts ``morris sim``: run here through the installed
script's entry point with the README's own arguments, headless, it draws the board's 24 points and
a point typed on the input line gets a piece. The second runs the whole suite with the tools the
``dev`` extra installs, and is the command CI runs. Every Python example runs and prints what its
comments promise.
"""

from __future__ import annotations

import asyncio
import importlib
import re
import shlex
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)


def _commands() -> list[str]:
    return re.findall(r"```sh\n(.*?)\n```", README, flags=re.DOTALL)


def _steps(command: str) -> list[list[str]]:
    return [shlex.split(step) for step in command.split("&&")]


@pytest.mark.parametrize("block", _python_blocks())
def test_python_examples_run(block: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(block, "README.md", "exec"), {})
    assert capsys.readouterr().out  # every example prints what it shows


def test_the_simulator_example_shows_the_lights_it_promises(
    capsys: pytest.CaptureFixture[str],
) -> None:
    [block] = [b for b in _python_blocks() if "Simulation" in b]
    exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out
    promised = re.search(r'"(\w\d)": "on"', block)
    assert promised is not None
    assert f"'{promised.group(1)}': 'on'" in out


def test_the_library_example_prints_a_fresh_games_turns_and_position(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from morris import Board

    [block] = [b for b in _python_blocks() if "push_notation" in b]
    exec(compile(block, "README.md", "exec"), {})
    board = Board()
    board.push_notation("d6")
    assert capsys.readouterr().out.split() == [
        str(board.legal_moves.count()),
        "None",
        *board.position().split(),
    ]


@pytest.mark.realtime  # the app as the command starts it: its real-time loop and search thread
def test_the_first_command_installs_the_project_and_starts_the_simulator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from morris.commands import sim as sim_command
    from morris.tui.app import SimulatorApp
    from morris.tui.board import BoardView
    from morris_device import POINT_NAMES

    venv, install, start = _steps(_commands()[0])
    assert venv == ["python3.11", "-m", "venv", ".venv"]
    assert install == [".venv/bin/pip", "install", "-e", "."]
    program, *argv = start
    assert program == ".venv/bin/morris"
    # The installed script is the project's entry point, run with the README's arguments.
    module, _, function = PYPROJECT["project"]["scripts"]["morris"].partition(":")
    main = getattr(importlib.import_module(module), function)

    seen: dict[str, object] = {}

    def run_headless(app: SimulatorApp) -> None:
        async def drive() -> None:
            async with app.run_test(size=(100, 32)) as pilot:
                await pilot.pause()
                board = app.query_one(BoardView)
                seen["points"] = set(board.views)
                await pilot.press("d", "6", "enter")
                for _ in range(200):  # the real-time loop reads the turn; at most ~10 s
                    await pilot.pause(0.05)
                    if board.views["d6"].piece == "white":
                        break
                seen["d6"] = board.views["d6"].piece
                seen["on the wood"] = app.sim.hardware.on_wood()

        asyncio.run(drive())

    monkeypatch.setattr(SimulatorApp, "run", run_headless)
    monkeypatch.setattr(sim_command, "_log_to_file", lambda path: None)  # leave pytest's log
    for variable in ("XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.setenv(variable, str(tmp_path / variable))
    monkeypatch.delenv("MORRIS_DATA_DIR", raising=False)

    assert main(argv) == 0
    assert seen["points"] == set(POINT_NAMES)  # the whole board is drawn
    assert "d6" in seen["on the wood"]  # typing a point put a piece there
    assert seen["d6"] == "white"  # read as your first turn


def test_the_second_command_runs_the_whole_suite_with_the_dev_tools() -> None:
    venv, install, run = _steps(_commands()[1])
    assert venv == ["python3.11", "-m", "venv", ".venv"]
    assert install[:2] == [".venv/bin/pip", "install"] and install[-2:] == ["-e", ".[dev]"]
    assert run == [".venv/bin/pytest", "-n", "2"]
    # No path given: pytest's test paths, the whole suite; -n is pytest-xdist's, from [dev].
    assert PYPROJECT["tool"]["pytest"]["ini_options"]["testpaths"] == ["tests"]
    dev = {re.split(r"[<>=\[ ]", requirement)[0] for requirement in PYPROJECT["project"][
        "optional-dependencies"]["dev"]}  # fmt: skip
    assert {"pytest", "pytest-xdist"} <= dev


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert _commands()[1].strip() in ci
