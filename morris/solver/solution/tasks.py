"""The tasks of a build of the solved game, as a worker runs them: a unit, a range of a split
placing sector, the assembly of one, a unit's removal files. Each reads its dependencies' files
from the solution directory (on a real cluster the directory must be shared),
writes its own, and does nothing if sound files are already there (a build is resumable). What
each task cost is appended to ``build-log.jsonl`` in the directory (:data:`BUILD_LOG`, one JSON
object a line: the task, its entries, wall and CPU seconds, threads).
"""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import numpy as np

from morris.engine.solution.removals import RemovalInfo
from morris.engine.solution.sectors import Unit
from morris.engine.solution.storage import SectorInfo, open_sector, read_info
from morris.engine.solution.symmetry import index_of_key
from morris.solver.solution.plan import unit_entries
from morris.solver.solution.ranges import (
    Range,
    read_part,
    release_dependencies,
    remove_parts,
    sector_dependencies,
    solve_range,
    write_part,
)
from morris.solver.solution.removals import (
    check_values,
    finished_removals,
    removal_leaves,
    solve_removals,
    write_removals,
)
from morris.solver.solution.write import finished, write_sector

logger = logging.getLogger(__name__)

#: Topic of the progress events the tasks send to the client.
TOPIC: Final = "morris-solution-progress"
#: The file in the solution directory each task appends what it cost to (JSON lines).
BUILD_LOG: Final = "build-log.jsonl"

#: Called with (sector unit name, entries done, entries in all); "build" for the whole.
Progress = Callable[[str, int, int], None]


@contextmanager
def _logged(
    directory: Path, task: str, name: str, entries: int, threads: int = 1
) -> Iterator[None]:
    """Append what the task in the block cost to the directory's :data:`BUILD_LOG` when it ends
    (not when it fails): wall seconds and the CPU seconds of its worker process, which runs one
    task at a time (its C threads included). A log that cannot be written is only warned of."""
    wall, cpu = time.monotonic(), time.process_time()
    yield
    line = {
        "task": task,
        "name": name,
        "entries": entries,
        "wall_s": round(time.monotonic() - wall, 3),
        "cpu_s": round(time.process_time() - cpu, 3),
        "threads": threads,
        "host": socket.gethostname(),
        "ended": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    try:
        with (directory / BUILD_LOG).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(line) + "\n")  # one write of one line: whole under O_APPEND
    except OSError as exc:
        logger.warning("%s: cannot log the task's cost: %s", directory / BUILD_LOG, exc)


def run_unit(
    unit: Unit, directory: str, *_after: Any, threads: int | None = None
) -> list[SectorInfo]:
    """The task: solve ``unit`` into ``directory`` unless its files are already there and sound.

    ``_after`` are the results of the tasks it depends on (only their order matters). A moving
    system runs on ``threads`` threads (default: every core of the machine the task runs on).
    """
    where = Path(directory)
    found = all_finished(where, unit)
    if found is not None:
        return found
    from morris.solver.solution.solve import machine_cores, solve_unit

    threads = (threads or machine_cores()) if unit.moving else 1
    release_dependencies()  # what the worker's last range tasks held: this task counts its own
    with _logged(where, "solve", unit.name, unit_entries(unit), threads):
        solved = {d: open_sector(where, d).dist for d in unit.dependencies()}
        codes = solve_unit(unit, solved, task_progress(), threads=threads)
        return [write_sector(where, k, codes[k]) for k in unit.keys]


def run_removals(
    unit: Unit, directory: str, limit: int, *_after: Any, threads: int | None = None
) -> list[RemovalInfo]:
    """The task of a unit's removal files under ``limit`` (after the unit's own task and the
    removal files of the sectors its turns reach; a moving system's on ``threads`` threads,
    default every core of the machine): their files, unless sound ones made from the sector files
    there are there. Every position they decide must have that value in the sector file."""
    where = Path(directory)
    # The sector files' SHA-256s from their headers: what a removal file is made from. Only
    # the unit's own values are read (and checked) below.
    found = removals_built(where, [read_info(where / k.filename) for k in unit.keys], limit)
    if found is not None:
        return found
    from morris.solver.solution.solve import machine_cores

    threads = (threads or machine_cores()) if unit.moving else 1
    release_dependencies()
    with _logged(where, "removals", unit.name, unit_entries(unit), threads):
        values = {k: open_sector(where, k) for k in unit.keys}
        leaves = removal_leaves(where, unit, limit)
        progress = task_progress({"removals": 1, "placing": int(not unit.moving)})
        own = None if unit.moving else values[unit.keys[0]]  # its draws need no step
        codes = solve_removals(unit, leaves, progress, own, threads=threads)
        out = []
        for k in unit.keys:
            drawn = check_values(values[k], codes[k], limit)
            out.append(write_removals(where, k, codes[k], values[k].info.sha256, limit, drawn))
        return out


def removals_built(
    directory: Path, infos: list[SectorInfo], limit: int
) -> list[RemovalInfo] | None:
    """The headers of the removal files under ``limit`` of the finished sectors ``infos`` (a
    moving system's) if they are all complete, sound and made from those files, else None."""
    found = [finished_removals(directory, i.key, i.sha256, limit) for i in infos]
    return [f for f in found if f is not None] if all(found) else None


def run_range(rng: Range, directory: str, *_after: Any) -> None:
    """The task of one range of a split placing sector: its part file, unless a sound one is
    there."""
    where = Path(directory)
    if read_part(where, rng) is not None:
        return
    with _logged(where, "range", f"{rng.key.name} {rng.start}..{rng.stop}", rng.size):
        solved = sector_dependencies(where, rng.key)
        extra = {"part": rng.start, "sector": index_of_key(rng.key).size}
        write_part(where, rng, solve_range(rng, solved, task_progress(extra)))


def run_assembly(ranges: tuple[Range, ...], directory: str, *_after: Any) -> list[SectorInfo]:
    """The last task of a split placing sector: the sector file from its parts (a part gone
    missing since its task is solved again here), then the parts removed."""
    where = Path(directory)
    key = ranges[0].key
    info = finished(where, key)
    if info is None:
        with _logged(where, "assemble", key.name, index_of_key(key).size):
            codes = np.empty(index_of_key(key).size, dtype=np.uint16)
            for rng in ranges:
                part = read_part(where, rng)
                if part is None:
                    part = solve_range(rng, sector_dependencies(where, key))
                codes[rng.start : rng.stop] = part
            info = write_sector(where, key, codes)
    release_dependencies()  # the sector's ranges are done
    remove_parts(where, ranges)
    return [info]


def all_finished(directory: Path, unit: Unit) -> list[SectorInfo] | None:
    """The headers of the unit's sectors if every file is complete and sound, else None."""
    infos = [finished(directory, k) for k in unit.keys]
    found = [i for i in infos if i is not None]
    return found if len(found) == len(infos) else None


def task_progress(extra: Mapping[str, int] | None = None) -> Progress | None:
    try:
        from distributed import get_worker

        worker = get_worker()
    except (ImportError, ValueError):
        return None
    last: dict[str, int] = {}

    def report(name: str, done: int, total: int) -> None:
        # A few events per sector: every 5 % and the end.
        if done < total and done - last.get(name, -total) < total // 20:
            return
        last[name] = done
        worker.log_event(TOPIC, {"name": name, "done": done, "total": total, **(extra or {})})

    return report
