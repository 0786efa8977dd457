"""tools/catalogs.py, the translators' tool (docs/TRANSLATING.md): what it reports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "catalogs.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(TOOL), *args], capture_output=True, text=True, cwd=ROOT, check=False
    )


@pytest.mark.realtime
def test_missing_lists_nothing_for_complete_catalogs_and_refuses_an_unknown_language() -> None:
    complete = _run("missing")
    assert complete.returncode == 0, complete.stdout
    assert complete.stdout == ""
    unknown = _run("missing", "xx")
    assert unknown.returncode == 2
    assert "no catalog for xx" in unknown.stderr and "fi" in unknown.stderr


@pytest.mark.realtime
def test_update_refuses_a_source_that_is_no_directory(tmp_path: Path) -> None:
    result = _run("update", "--from", str(tmp_path / "nowhere"))
    assert result.returncode == 2
    assert "not a directory" in result.stderr
