"""The project's own checks, run as part of the suite: lint, types and the layer contracts.

They run the same tools a developer runs (ruff, mypy --strict on the rules core, import-linter),
so a change that breaks the layers of docs/DESIGN.md or the core's typing fails the tests.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

#: Needs real time: the project's tools as subprocesses.
pytestmark = pytest.mark.realtime

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_finds_nothing() -> None:
    result = _run(
        "ruff", "check", "morris", "morris_device", "hardware", "firmware_bridge", "tests",
        "benchmarks", "tools",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_lab_passes_mypy() -> None:
    """tools/pilab's package (docs/PLATFORMS.md), typed like the product."""
    result = _run("mypy", "--explicit-package-bases", "tools/morris_pilab")
    assert result.returncode == 0, result.stdout + result.stderr


def test_rules_core_passes_mypy_strict() -> None:
    result = _run("mypy", "--strict", "morris/core", "morris/__init__.py")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_whole_project_passes_mypy() -> None:
    result = _run("mypy", "morris", "morris_device", "hardware", "firmware_bridge")
    assert result.returncode == 0, result.stdout + result.stderr


def test_layer_contracts_hold() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
