"""The compiled engine (``MORRIS_COMPILE=1``, see setup.py) plays exactly as the pure-Python one.

mypyc compiles the four engine modules into a scratch copy of the package; a child process imports
that copy and searches fixed positions with the Python inner loop (``native=False``: the C one,
``_native``, is compared in test_native.py). Same moves, scores, depths and node counts: a level's
strength does not depend on whether the engine was compiled, only its speed does.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from morris import Board
from morris.engine.engine import Engine

REPO = Path(__file__).resolve().parents[2]
#: Needs real time: a real compiler and subprocess.
pytestmark = pytest.mark.realtime

POSITIONS = [
    "......../......../........ w 9 9 0 1 -",
    "......B./B..BWWWW/........ w 5 5 0 5 -",
    "..B.B.WB/...BWBW./..WW.WWB w 0 0 3 16 d1-d2,e3-e4,d7-g7",
    "B..B...B/..W..W../W..B.... w 0 0 4 40 -",
]
SEARCH = """
import json, sys
import morris.engine.engine as engine
import morris.engine.search as search
from morris import Board
assert search.__file__.endswith(".so"), search.__file__
assert engine.__file__.endswith(".so"), engine.__file__
out = []
for text in json.loads(sys.argv[1]):
    r = engine.Engine(8, seed=3, native=False).play(Board(text), nodes=20_000)
    out.append([str(r.move), r.score, r.depth, r.nodes])
print(json.dumps(out))
"""


def _expected() -> list[list[object]]:
    out: list[list[object]] = []
    for text in POSITIONS:
        r = Engine(8, seed=3, native=False).play(Board(text), nodes=20_000)
        out.append([str(r.move), r.score, r.depth, r.nodes])
    return out


@pytest.mark.slow
def test_the_compiled_engine_plays_the_same_moves(tmp_path: Path) -> None:
    if shutil.which("gcc") is None and shutil.which("cc") is None:
        pytest.fail("no C compiler: the compiled engine cannot be checked on this machine")
    shutil.copytree(REPO / "morris", tmp_path / "morris")
    shutil.copy(REPO / "setup.py", tmp_path / "setup.py")
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")  # its mypy settings apply
    build = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=tmp_path,
        env=os.environ | {"MORRIS_COMPILE": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    run = subprocess.run(
        [sys.executable, "-c", SEARCH, json.dumps(POSITIONS)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert json.loads(run.stdout) == _expected()
