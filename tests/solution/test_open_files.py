"""A solved game of more files than the process may open: 9 men's morris is some 1,100 files,
more than the 1,024 descriptors systemd gives a service and most shells a program by default.
The files are read by block, not mapped, so a loaded solution keeps only a few of them open:
the daemon loads it under that limit, and the serial port or a pin opened afterwards still gets
a descriptor below 1,024, which ``select()`` (pyserial's read) can watch. A file gone from under
a running daemon is taken out like a damaged one."""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from morris.engine.engine import Engine
from morris.engine.solution import Solution
from morris.engine.solution.analyse import new_board
from morris.engine.solution.blocks import OPEN_FILES, close_files
from morris.engine.solution.sectors import start_sector

#: The child's limit of open descriptors: fewer than the 4 men's files, more than Python needs.
LIMIT = 40

CHILD = """
import json, logging, os, resource, sys
from pathlib import Path
limit = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_NOFILE, (limit, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
logging.basicConfig(level=logging.INFO, stream=sys.stderr)
from morris.app.jobs import load_solution
solution = load_solution(Path(sys.argv[1]))
values = {}  # the loading read every file's block table; now a block of every sector
for key in solution.keys:
    section = solution.data(key).dist_section
    values[key.name] = section.decode(section.blocks // 2).tolist()
start = solution.probe(0, 0, 4, 4, True)
with open(os.devnull) as later:  # what the serial port would get now
    fd = later.fileno()
open_now = len(os.listdir("/proc/self/fd"))
print(json.dumps({"values": values, "start": str(start.value), "open": open_now, "fd": fd}))
"""


def test_a_solution_of_more_files_than_the_limit_loads_and_keeps_few_open(
    solved4: Path,
) -> None:
    files = list(solved4.glob("*.msol"))
    assert len(files) > LIMIT  # the child could not hold them all open
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(solved4), str(LIMIT)],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).parents[2],
    )
    assert child.returncode == 0, child.stderr
    assert f"{len(list(solved4.glob('sector-*.msol')))} solved sectors loaded" in child.stderr
    out = json.loads(child.stdout)
    own = Solution.load(solved4, 4, check=False)  # the same values read in this process
    sections = {k.name: own.data(k).dist_section for k in own.keys}
    assert out["values"] == {n: s.decode(s.blocks // 2).tolist() for n, s in sections.items()}
    assert out["start"] == "Value.DRAW"
    assert out["open"] <= OPEN_FILES + 8  # the standard streams, the pipe, the listing's own
    assert out["fd"] < LIMIT


def test_a_file_gone_from_under_the_board_is_taken_out_and_play_goes_on(
    solved3: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    copy = tmp_path / "solution"
    shutil.copytree(solved3, copy)
    start = start_sector(3)
    after = start.quiet_successor()
    solution = Solution.load(copy, 3, check=False)
    (copy / after.filename).unlink()
    close_files()  # as when the files read since have pushed it out of the descriptors kept
    board = new_board(3)
    with caplog.at_level(logging.WARNING):
        result = Engine(7, solution=solution).play(board)
    assert result.move in board.legal_moves and result.nodes > 0  # searched, not looked up
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert after.filename in warnings[0] and "cannot be read" in warnings[0]
    assert not solution.covers(after) and solution.covers(start)
