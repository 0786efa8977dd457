"""The README's examples run as written (and its two commands are the ones CI runs)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)


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


def test_ci_runs_the_readme_test_command() -> None:
    commands = re.findall(r"```sh\n(.*?)\n```", README, flags=re.DOTALL)
    assert len(commands) >= 2
    ci = (ROOT / ".ci" / "run").read_text()
    assert commands[1].strip() in ci
