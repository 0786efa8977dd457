"""The distributed build: identical bits with one or two workers and with placing sectors split
into range tasks, resumed after being killed (among its sectors or its ranges), damaged files and
parts solved again; and the commands on a built solution."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from morris.cli import main
from morris.engine.solution import SolutionError, sector_keys
from morris.engine.solution.storage import open_sector
from morris.solver.solution import build_solution

pytestmark = [pytest.mark.realtime, pytest.mark.slow]


def _files(directory: Path) -> dict[str, bytes]:
    """The sector files and the moving sectors' removal distances."""
    return {p.name: p.read_bytes() for p in sorted(directory.glob("*.msol"))}


def _leftovers(directory: Path) -> list[str]:
    """Temporaries and part files: what a finished build leaves none of."""
    return sorted(p.name for p in directory.iterdir() if p.name.startswith("."))


def test_two_workers_split_sectors_and_threads_write_the_files_of_one_task_each(
    solved3: Path, tmp_path: Path
) -> None:
    calls: list[tuple[str, int, int]] = []
    result = build_solution(
        tmp_path, 3, workers=2, memory=4 << 30, split=4096, threads=2,
        progress=lambda name, done, total: calls.append((name, done, total)),
    )  # fmt: skip
    assert len(result.solved) == 7
    assert _files(tmp_path) == _files(solved3)  # one worker, one task a sector, one thread
    assert len(_files(tmp_path)) == 2 * len(sector_keys(3))  # and their removal files
    assert _leftovers(tmp_path) == []
    # 2v3 h1/0 (46,200 entries) ran as 12 ranges: its bar fills as they end, up to its entries.
    bar = [done for name, done, total in calls if name == "2v3 h1/0" and total == 46200]
    assert len(bar) >= 12 and bar == sorted(bar) and bar[-1] == 46200 and bar[0] < 46200
    whole = [(done, total) for name, done, total in calls if name == "build"]
    assert [d for d, _ in whole] == sorted(d for d, _ in whole)
    # Every entry of every sector, and once more for their removal files.
    assert whole[-1] == (2 * 264399, 2 * 264399) and len(whole) > 7 + 12


def test_each_task_logs_what_it_cost_and_a_resumed_build_logs_nothing_new(tmp_path: Path) -> None:
    import json

    from morris.engine.solution.sectors import build_units
    from morris.solver.solution.plan import unit_entries
    from morris.solver.solution.tasks import BUILD_LOG

    build_solution(tmp_path, 3, workers=1, memory=4 << 30, split=4096, threads=2)
    lines = [json.loads(x) for x in (tmp_path / BUILD_LOG).read_text().splitlines()]
    by_task: dict[str, list[dict[str, object]]] = {}
    for line in lines:
        by_task.setdefault(str(line["task"]), []).append(line)
        assert set(line) == {"task", "name", "entries", "wall_s", "cpu_s", "threads", "host",
                             "ended"}  # fmt: skip
        assert isinstance(line["cpu_s"], float) and line["cpu_s"] >= 0
        assert isinstance(line["wall_s"], float) and line["wall_s"] > 0
    units = build_units(3)
    whole = [u for u in units if u.moving or unit_entries(u) <= 4096]
    assert sorted((str(x["name"]), x["entries"]) for x in by_task["solve"]) == sorted(
        (u.name, unit_entries(u)) for u in whole
    )
    removals = sorted((str(x["name"]), x["threads"]) for x in by_task["removals"])
    assert removals == sorted((u.name, 2 if u.moving else 1) for u in units)
    moving = next(x for x in by_task["solve"] if x["name"] == "3v3")
    assert moving["threads"] == 2 and moving["entries"] == 210140
    # 2v3 h1/0 (46,200 entries): 12 ranges whose entries add up to it, then its assembly.
    ranges = [x for x in by_task["range"] if str(x["name"]).startswith("2v3 h1/0 ")]
    assert len(ranges) == 12 and sum(int(str(x["entries"])) for x in ranges) == 46200
    split = sorted(u.name for u in units if not u.moving and unit_entries(u) > 4096)
    assert sorted(str(x["name"]) for x in by_task["assemble"]) == split  # 2v3 h1/0 among them
    before = (tmp_path / BUILD_LOG).read_text()
    build_solution(tmp_path, 3, workers=1, memory=4 << 30, split=4096)
    assert (tmp_path / BUILD_LOG).read_text() == before  # nothing was solved again


def test_split_sectors_of_four_men_are_those_of_one_task(solved4: Path, tmp_path: Path) -> None:
    from morris.engine.solution.sectors import build_units
    from morris.solver.solution.plan import unit_entries
    from morris.solver.solution.solve import solve_unit
    from morris.solver.solution.write import write_sector
    from tests.solution.conftest import SPLIT4

    split = sorted((u for u in build_units(4) if unit_entries(u) > SPLIT4 and not u.moving),
                   key=unit_entries)[-3:]  # fmt: skip
    assert [u.name for u in split][-1] == "3v4 h1/0"  # 945,630 entries: 29 ranges
    for unit in split:
        (key,) = unit.keys
        solved = {d: open_sector(solved4, d).dist for d in unit.dependencies()}
        write_sector(tmp_path, key, solve_unit(unit, solved)[key])
        assert (tmp_path / key.filename).read_bytes() == (solved4 / key.filename).read_bytes()
    assert _leftovers(solved4) == []


def _kill_build_when(directory: Path, seen: Callable[[], bool], *options: str) -> None:
    """Run ``morris tables build --men 3`` into ``directory`` and kill it (with its cluster)
    as soon as ``seen()``."""
    command = [sys.executable, "-m", "morris", "tables", "build", "--men", "3", "--dir",
               str(directory), "--workers", "1", "--memory", "4", "--quiet", *options]  # fmt: skip
    proc = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 180
        while not seen() and time.monotonic() < deadline:
            assert proc.poll() is None, "the build ended before it could be killed"
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGKILL)  # the build, its cluster and its workers
    finally:
        proc.wait()


def test_a_killed_build_resumes_to_identical_files(solved3: Path, tmp_path: Path) -> None:
    # The first sector, 3v3, is solved by the command on three threads, the rest on the cores.
    _kill_build_when(tmp_path, lambda: bool(list(tmp_path.glob("sector-*.msol"))), "--threads", "3")
    assert "sector-3-3-0-0.msol" in _files(tmp_path)
    assert 0 < len(_files(tmp_path)) < len(sector_keys(3))
    result = build_solution(tmp_path, 3, workers=1, memory=4 << 30)
    assert 0 < len(result.solved) < len(sector_keys(3))  # what was finished was kept
    assert _files(tmp_path) == _files(solved3)
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_build_killed_among_its_ranges_resumes_to_identical_files(
    solved3: Path, tmp_path: Path
) -> None:
    _kill_build_when(tmp_path, lambda: any(".part-" in n for n in _leftovers(tmp_path)),
                     "--split", "4096")  # fmt: skip
    assert "sector-3-3-0-0.msol" in _files(tmp_path)  # what the placing sectors wait for
    result = build_solution(tmp_path, 3, workers=1, memory=4 << 30, split=4096)
    assert "3v3" not in result.solved and "2v3 h1/0" in result.solved
    assert _files(tmp_path) == _files(solved3)
    assert _leftovers(tmp_path) == []


def test_sound_parts_are_used_and_damaged_ones_solved_again(solved3: Path, tmp_path: Path) -> None:
    from morris.engine.solution.sectors import SectorKey
    from morris.solver.solution.ranges import plan_ranges, read_part, write_part
    from morris.solver.solution.tasks import run_assembly

    for name, data in _files(solved3).items():
        if name != "sector-2-3-1-0.msol":
            (tmp_path / name).write_bytes(data)
    key = SectorKey(2, 3, 1, 0)
    ranges = plan_ranges(key, 10_000)
    assert [(r.start, r.stop) for r in ranges][:2] == [(0, 9240), (9240, 18480)]
    codes = open_sector(solved3, key).dist
    for rng in ranges:
        write_part(tmp_path, rng, codes[rng.start : rng.stop])
    # A part whose checksum is right is taken as it is: one with other codes shows in the file.
    write_part(tmp_path, ranges[0], np.zeros(ranges[0].size, dtype=np.uint16))
    damaged = tmp_path / ranges[1].filename
    raw = bytearray(damaged.read_bytes())
    raw[7] ^= 1
    damaged.write_bytes(bytes(raw))
    assert read_part(tmp_path, ranges[1]) is None and not damaged.exists()
    write_part(tmp_path, ranges[1], codes[ranges[1].start : ranges[1].stop])
    damaged.write_bytes(damaged.read_bytes()[:-1])  # cut short: solved again by the assembly
    (info,) = run_assembly(tuple(ranges), str(tmp_path))
    made = open_sector(tmp_path, key).dist
    assert np.all(made[: ranges[0].size] == 0)
    assert np.array_equal(made[ranges[0].size :], codes[ranges[0].size :])
    assert info.entries == 46200 and _leftovers(tmp_path) == []


def test_stale_parts_and_temporaries_are_swept(solved3: Path, tmp_path: Path) -> None:
    for name, data in _files(solved3).items():
        (tmp_path / name).write_bytes(data)
    stale = [".sector-2-3-1-0.msol.part-000000000000-000000004096",  # its sector is finished
             ".sector-2-3-1-0.msol.part-000000004096-000000008192.123.tmp"]  # fmt: skip
    for name in stale:
        (tmp_path / name).write_bytes(b"left by a killed build")
    result = build_solution(tmp_path, 3, workers=1, memory=4 << 30, split=4096)
    assert result.solved == [] and _leftovers(tmp_path) == []


def test_a_smaller_game_built_in_a_larger_games_directory_leaves_its_parts(
    solved3: Path, tmp_path: Path
) -> None:
    # 3v3 h1/0 is a sector of 4 men's morris, not of 3 men's: a build of 4 men's that was
    # stopped left this range solved, and a build of 3 men's in the same directory must keep it.
    for name, data in _files(solved3).items():
        (tmp_path / name).write_bytes(data)
    larger = ".sector-3-3-1-0.msol.part-000000000000-000000004096"
    own = ".sector-2-3-1-0.msol.part-000000000000-000000004096"  # of 3 men's, finished
    for name in (larger, own):
        (tmp_path / name).write_bytes(b"a range solved by a stopped build")
    result = build_solution(tmp_path, 3, workers=1, memory=4 << 30, split=4096)
    assert result.solved == [] and _leftovers(tmp_path) == [larger]


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
    # The start is won with or without the rule: no win of 3 men's morris lasts 100 moves.
    assert (
        "The start position: win for white in 12 of white's turns (23 plies) (under the "
        "no-removal rule: win)."
    ) in (" ".join(out.split()))
    rows = [line.split() for line in out.splitlines()]
    moving = ["3", "3", "0", "0", "white", "2,691,920", "2,232,160", "4,112", "455,648", "25"]
    full = {tuple(r[:5]): r for r in rows}
    # Then the longest distance to a removal (moving sectors: a loss in 26, 3v3's longest) and
    # the file's bytes (test_storage.py).
    assert full["3", "3", "0", "0", "white"][10] == "26"
    assert full["3", "2", "0", "1", "black"][10] == "-"
    # No win of 3 men's morris is 100 moves from its removal.
    assert "Under the 100-turn no-removal rule 0 stored moving-phase entries" in " ".join(
        out.split()
    )
    rows = [r[:10] for r in rows]
    assert moving in rows and [*moving[:4], "black", *moving[5:]] in rows
    assert ["3", "2", "0", "1", "black"] in [r[:5] for r in rows]


def test_verify_checks_every_position(solved3: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tables", "verify", "--men", "3", "--dir", str(solved3), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.count("ok") == 7 + 7 and "(all)" in out  # the sectors, their removal files
    assert "3v3 to removals" in out and "0v0 h3/3 under the rule" in out


def test_verify_new_only_checks_the_sectors_the_smaller_game_lacks(
    solved4: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 4 men's morris has 31 sectors, 7 of them 3 men's: a game verified k by k checks 24 at k = 4.
    argv = ["tables", "verify", "--men", "4", "--dir", str(solved4), "--quiet", "--new-only"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    names = [
        line.split(" entries checked")[0].rsplit(None, 1)[0] for line in out if "checked" in line
    ]
    assert len(names) == 2 * 24  # each sector, then its removal file
    assert {"4v4", "3v4", "3v3 h1/0", "4v4 to removals"} <= set(names)
    assert "3v3" not in names and "2v3 h1/0" not in names  # 3 men's sectors: checked at k = 3


def test_analyse_lists_every_turn_of_a_position(
    solved3: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", "startpos", "--dir", str(solved3)]) == 0
    out = capsys.readouterr().out
    assert "white to move: win in 12" in out  # the winner's turns: 23 plies
    turns = [line.split() for line in out.splitlines() if line.startswith("  ")]
    assert len(turns) == 24  # every placement, best first
    assert turns[0][1:] == ["win", "in", "12"] and all(t[1] == "win" for t in turns)
    assert "removal" not in out  # placing: the rule does not count


def test_analyse_gives_the_distance_to_the_next_removal_in_the_moving_phase(
    solved3: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 3v3: every removal ends the game, so the next removal is the end.
    position = "WWW....B/..BB..../........ w 0 0 0 1 -"  # a win in 9 plies
    assert main(["analyse", position, "--men", "3", "--dir", str(solved3)]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = next(line for line in lines if line.startswith("white to move"))
    value = head.split(": ", 1)[1].split()
    assert value == ["win", "in", "5", "removal", "in", "9", "plies"]  # 5 of white's turns
    turns = [line.split() for line in lines if line.startswith("  ")]
    winning = [t for t in turns if t[1] == "win"]
    # Every removal ends 3 men's morris: the removal comes with the win, its plies 2N - 1.
    assert winning and all(t[-4:-1] == ["removal", "in", str(2 * int(t[3]) - 1)] for t in winning)


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


def test_analyse_names_a_records_illegal_turn_and_exits_2(
    solved3: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = '[Result "*"]\n\n1. a1 d2 2. a1 *\n'  # white places on its own piece
    assert main(["analyse", record, "--men", "3", "--dir", str(solved3)]) == 2
    out = capsys.readouterr().out
    assert "move 3 ('a1') is illegal" in out and "Traceback" not in out
    assert "before" not in out  # nothing of the record is printed as if analysed


def test_analyse_refuses_a_damaged_block_naming_the_file(
    solved3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # analyse does not hash whole files (gigabytes for 9 men's): the damaged block it reads is
    # refused by its CRC-32, with the file's name and exit 1, not a traceback or a wrong value.
    copy = tmp_path / "solution"
    shutil.copytree(solved3, copy)
    start = copy / "sector-0-0-3-3.msol"  # the start: no piece on the board, 3 in hand each
    raw = bytearray(start.read_bytes())
    raw[-1] ^= 0x01  # its last block (of distances)
    start.write_bytes(bytes(raw))
    assert main(["analyse", "startpos", "--men", "3", "--dir", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "sector-0-0-3-3.msol" in out and "damaged" in out and "Traceback" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["analyse", "not-a-thing"], "not-a-thing: no such file"),
        (["analyse", "......../......../........ x 3 3 0 1 -"], "side to move"),
        (["analyse", "startpos", "--men", "2"], "--men must be 3..9"),
        (["tables", "info", "--men", "11"], "--men must be 3..9"),
        (["tables", "build", "--workers", "2"], "need --men"),
        (["tables", "build", "--men", "3", "--workers", "0"], "at least 1"),
        (["tables", "build", "--men", "3", "--split", "0"], "--split must be at least 1"),
        (["tables", "build", "--split", "4096"], "need --men"),
        (["tables", "build", "--men", "3", "--no-removal-limit", "0"], "limit must be at least 1"),
        (["tables", "build", "--no-removal-limit", "50"], "need --men"),
        (["tables", "build", "--threads", "2"], "need --men"),
        (["tables", "build", "--men", "3", "--threads", "0"], "--threads must be at least 1"),
        (["tables", "build", "--men", "3", "--flying", "off"], "not --men"),
        (["tables", "verify", "--men", "3", "--sample", "0"], "at least 1"),
        (["tables", "verify", "--new-only"], "give --men K"),
    ],
)
def test_bad_input_exits_2_naming_the_problem(
    solved3: Path, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--dir", str(solved3)]) == 2
    assert message in capsys.readouterr().out


def test_the_build_command_prints_no_dask_chatter(solved3: Path, tmp_path: Path) -> None:
    # Dask logs every worker's start and stop at INFO; a person sees the bars and the summary.
    for name, data in _files(solved3).items():
        if name != "sector-0-0-3-3.msol":  # the start sector is left to solve
            (tmp_path / name).write_bytes(data)
    command = [sys.executable, "-m", "morris", "tables", "build", "--men", "3", "--dir",
               str(tmp_path), "--workers", "1", "--memory", "4", "--quiet"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "(1 solved now)" in " ".join(done.stdout.split())  # the summary wraps at 80 columns
    assert _files(tmp_path) == _files(solved3)
