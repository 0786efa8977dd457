"""A position's value costs no numpy: the daemon, its review pages and ``morris review`` name
results without loading numpy (16 MiB of a Pi Zero 2 W's 512), which only the tables' and the
solved game's readers need."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Needs real time: a fresh interpreter per module.
pytestmark = pytest.mark.realtime


def _loads_numpy(module: str) -> bool:
    code = f"import sys, {module}; print('numpy' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return result.stdout.strip() == "True"


@pytest.mark.parametrize(
    "module",
    ["morris.engine.result", "morris.app.values", "morris.app.review", "morris.daemon.loop"],
)
def test_naming_a_value_loads_no_numpy(module: str) -> None:
    assert not _loads_numpy(module)


def test_the_readers_do_load_numpy() -> None:
    """The check above could pass if the probe never loaded numpy at all."""
    assert _loads_numpy("morris.engine.tables.probe")
