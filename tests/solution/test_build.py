"""The distributed build: identical bits with one or two workers, resumed after being killed,
damaged files rebuilt; and the commands on a built solution."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from morris.cli import main
from morris.engine.solution import SolutionError, build_solution, sector_keys
from morris.engine.solution.storage import open_sector

pytestmark = [pytest.mark.realtime, pytest.mark.slow]


def _files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.glob("sector-*.msol"))}


def test_one_and_two_workers_write_identical_files(solved3: Path, tmp_path: Path) -> None:
    result = build_solution(tmp_path, 3, workers=2, memory=4 << 30)
    assert len(result.solved) == 7
    assert _files(tmp_path) == _files(solved3)
    assert len(_files(tmp_path)) == len(sector_keys(3))


def test_a_killed_build_resumes_to_identical_files(solved3: Path, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "morris", "tables", "build", "--men", "3", "--dir",
               str(tmp_path), "--workers", "1", "--memory", "4", "--quiet"]  # fmt: skip
    proc = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not list(tmp_path.glob("sector-*.msol")) and time.monotonic() < deadline:
            assert proc.poll() is None, "the build ended before it could be killed"
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)  # the build, its cluster and its workers
    finally:
        proc.wait()
    assert 0 < len(_files(tmp_path)) < len(sector_keys(3))
    result = build_solution(tmp_path, 3, workers=1, memory=4 << 30)
    assert 0 < len(result.solved) < len(sector_keys(3))  # what was finished was kept
    assert _files(tmp_path) == _files(solved3)
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_damaged_sector_is_refused_then_rebuilt(solved3: Path, tmp_path: Path) -> None:
    for name, data in _files(solved3).items():
        (tmp_path / name).write_bytes(data)
    victim = tmp_path / "sector-2-3-1-0.msol"
    raw = bytearray(victim.read_bytes())
    raw[-1] ^= 1
    victim.write_bytes(bytes(raw))
    from morris.engine.solution.sectors import SectorKey

    with pytest.raises(SolutionError, match="checksum mismatch"):
        open_sector(tmp_path, SectorKey(2, 3, 1, 0))
    result = build_solution(tmp_path, 3, workers=1, memory=4 << 30)
    assert result.solved == ["2v3 h1/0"]
    assert _files(tmp_path) == _files(solved3)


def test_a_sector_larger_than_any_worker_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SolutionError, match=r"sector 3v3 needs .* more than any worker has"):
        build_solution(tmp_path, 3, workers=1, memory=100 << 20)


def test_info_lists_every_sector_by_colour_and_the_start(
    solved3: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tables", "info", "--men", "3", "--dir", str(solved3)]) == 0
    out = capsys.readouterr().out
    assert "The start position: win for white in 23 turns." in out
    rows = [line.split() for line in out.splitlines()]
    moving = ["3", "3", "0", "0", "white", "2,691,920", "2,232,160", "4,112", "455,648", "25"]
    rows = [r[:10] for r in rows]  # the 11th column: the file's bytes (test_storage.py)
    assert moving in rows and [*moving[:4], "black", *moving[5:]] in rows
    assert ["3", "2", "0", "1", "black"] in [r[:5] for r in rows]


def test_verify_checks_every_position(solved3: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tables", "verify", "--men", "3", "--dir", str(solved3), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.count("ok") == 7 and "(all)" in out


def test_analyse_lists_every_turn_of_a_position(
    solved3: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", "startpos", "--dir", str(solved3)]) == 0
    out = capsys.readouterr().out
    assert "white to move: win in 23" in out
    turns = [line.split() for line in out.splitlines() if line.startswith("  ")]
    assert len(turns) == 24  # every placement, best first
    assert turns[0][1:] == ["win", "in", "23"] and all(t[1] == "win" for t in turns)


def test_analyse_finds_the_first_turn_that_threw_a_result_away(
    solved3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from morris.engine.solution import Solution
    from morris.engine.solution.analyse import new_board, turn_values

    solution = Solution.load(solved3, 3)
    board = new_board(3)
    moves = []
    # White keeps the win for two turns, black defends; then white plays its worst turn.
    for ply in range(4):
        scored = turn_values(solution, board)
        move = scored[-1][0] if ply == 2 else scored[0][0]
        board.push(move)
        moves.append(str(move))
    record = tmp_path / "game.txt"
    record.write_text('[Result "*"]\n\n1. ' + moves[0] + " " + moves[1] + " 2. " + moves[2]
                      + " " + moves[3] + " *\n")  # fmt: skip
    assert main(["analyse", str(record), "--men", "3", "--dir", str(solved3)]) == 0
    out = capsys.readouterr().out
    assert "First turn that threw a result away: 3. white" in out
    assert out.count("<- threw a result away") >= 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["analyse", "not-a-thing"], "neither startpos"),
        (["analyse", "......../......../........ x 3 3 0 1 -"], "side to move"),
        (["analyse", "startpos", "--men", "2"], "--men must be 3..9"),
        (["tables", "info", "--men", "11"], "--men must be 3..9"),
        (["tables", "build", "--workers", "2"], "need --men"),
        (["tables", "build", "--men", "3", "--workers", "0"], "at least 1"),
        (["tables", "build", "--men", "3", "--flying", "off"], "not --men"),
        (["tables", "verify", "--men", "3", "--sample", "0"], "at least 1"),
    ],
)
def test_bad_input_exits_2_naming_the_problem(
    solved3: Path, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--dir", str(solved3)]) == 2
    assert message in capsys.readouterr().out
