"""Build the solution of k men's morris as a Dask distributed task graph.

One task per :class:`~morris.engine.solution.sectors.Unit` (a moving-phase system, or a placing
sector of at most ``split`` entries); a larger placing sector is solved by range tasks, one per
range of its entries, and one task that assembles its file (:mod:`~morris.solver.solution.ranges`).
Each unit has one more task, after it and after those of the sectors its turns reach: its
removal file (:mod:`~morris.engine.solution.removals`: a moving system's distances to the next
removal, a placing sector's values under the no-removal rule), which no sector task waits for.
Each task waits for the tasks that finish the sectors its turns reach (:func:`plan_graph`). A
task reads its dependencies' files from the solution directory (memory-mapped: on a real cluster
the directory must be shared) and writes its own; it declares the memory it needs as the worker
resource ``MEMORY`` (bytes), so a worker never runs more at once than it has. A local cluster is
started by default; give the address of a running scheduler for a real one (its workers started
with ``--resources MEMORY=<bytes>``).

Resumable: a sector whose file is complete and matches its checksum is never computed again, nor
a range whose part file does; a damaged file is removed and rebuilt. Files are written under a
temporary name and renamed, and hold nothing about the build, so the bytes are the same whatever
the number of workers, the split, and however often the build was killed.

What each task cost is appended to ``build-log.jsonl`` in the directory (:data:`BUILD_LOG`, one
JSON object a line: the task, its entries, wall and CPU seconds, threads), the measured figures
behind the extrapolations of docs/TABLES-MEASUREMENTS.md; the sector files do not depend on it.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np

from morris.core.rules import DEFAULT_NO_REMOVAL_LIMIT
from morris.engine.errors import SolutionError
from morris.engine.solution.removals import RemovalInfo
from morris.engine.solution.sectors import SectorKey, Unit, build_units
from morris.engine.solution.storage import SectorInfo, finished, open_sector, read_info
from morris.engine.solution.symmetry import index_of_key
from morris.i18n import msg
from morris.solver.solution.ranges import (
    DEFAULT_SPLIT,
    RANGE_BYTES_PER_ENTRY,
    Range,
    plan_ranges,
    range_split,
    read_part,
    release_dependencies,
    remove_parts,
    sector_dependencies,
    solve_range,
    sweep_parts,
    write_part,
)
from morris.solver.solution.removals import (
    check_values,
    finished_removals,
    removal_leaves,
    removals_bar,
    solve_removals,
    write_removals,
)
from morris.solver.solution.write import write_sector

logger = logging.getLogger(__name__)

#: The worker resource a task's memory is declared in, bytes.
MEMORY: Final = "MEMORY"
#: Topic of the progress events the tasks send to the client.
TOPIC: Final = "morris-solution-progress"
#: The file in the solution directory each task appends what it cost to (JSON lines).
BUILD_LOG: Final = "build-log.jsonl"
#: What every task needs besides its arrays: the bulk index tables and work batches.
_BASE_MEMORY: Final = 768 << 20

#: Called with (sector unit name, entries done, entries in all); "build" for the whole.
Progress = Callable[[str, int, int], None]


def unit_memory(unit: Unit) -> int:
    """Bytes a unit's task needs at most (an estimate checked by benchmarks/bench_solution.py).

    A moving system holds 3 work bytes an entry (solve.solve_moving) and its codes, 4 in all,
    and the pages of the files a removal leads to; a placing sector its output and the pages of
    its dependencies' files.
    """
    deps = unit.dependencies()
    if unit.moving:
        own = 4 * unit_entries(unit)
        return _BASE_MEMORY + own + sum(2 * index_of_key(d).size for d in deps)
    own = 4 * index_of_key(unit.keys[0]).size
    return _BASE_MEMORY + own + sum(2 * index_of_key(d).size for d in deps)


def unit_entries(unit: Unit) -> int:
    """Entries (symmetry-reduced) of the sectors of a unit."""
    return sum(index_of_key(k).size for k in unit.keys)


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
    found = _all_finished(where, unit)
    if found is not None:
        return found
    from morris.solver.solution.solve import machine_cores, solve_unit

    threads = (threads or machine_cores()) if unit.moving else 1
    release_dependencies()  # what the worker's last range tasks held: this task counts its own
    with _logged(where, "solve", unit.name, unit_entries(unit), threads):
        solved = {d: open_sector(where, d).dist for d in unit.dependencies()}
        codes = solve_unit(unit, solved, _task_progress(), threads=threads)
        return [write_sector(where, k, codes[k]) for k in unit.keys]


def removals_memory(unit: Unit) -> int:
    """Bytes a unit's removal file task needs at most: a moving system's work arrays and each
    sector a removal reaches reduced to a byte an entry (one decoded at a time); a placing
    sector's codes and the codes of the sectors its turns reach (2 bytes an entry at most)."""
    deps = [index_of_key(d).size for d in unit.dependencies()]
    if not unit.moving:
        return _BASE_MEMORY + 4 * unit_entries(unit) + 2 * sum(deps)
    return _BASE_MEMORY + 4 * unit_entries(unit) + sum(deps) + 2 * max(deps, default=0)


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
    found = _removals_built(where, [read_info(where / k.filename) for k in unit.keys], limit)
    if found is not None:
        return found
    from morris.solver.solution.solve import machine_cores

    threads = (threads or machine_cores()) if unit.moving else 1
    release_dependencies()
    with _logged(where, "removals", unit.name, unit_entries(unit), threads):
        values = {k: open_sector(where, k) for k in unit.keys}
        captures = removal_leaves(where, unit, limit)
        progress = _task_progress({"removals": 1, "placing": int(not unit.moving)})
        own = None if unit.moving else values[unit.keys[0]]  # its draws need no step
        codes = solve_removals(unit, captures, progress, own, threads=threads)
        out = []
        for k in unit.keys:
            drawn = check_values(values[k], codes[k], limit)
            out.append(write_removals(where, k, codes[k], values[k].info.sha256, limit, drawn))
        return out


def _removals_built(
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
        write_part(where, rng, solve_range(rng, solved, _task_progress(extra)))


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


def _all_finished(directory: Path, unit: Unit) -> list[SectorInfo] | None:
    """The headers of the unit's sectors if every file is complete and sound, else None."""
    infos = [finished(directory, k) for k in unit.keys]
    found = [i for i in infos if i is not None]
    return found if len(found) == len(infos) else None


def _task_progress(extra: Mapping[str, int] | None = None) -> Progress | None:
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


def range_memory(rng: Range) -> int:
    """Bytes a range task needs at most: its dependencies' pages and its own codes."""
    return _BASE_MEMORY + _dependencies_memory(rng.key) + RANGE_BYTES_PER_ENTRY * rng.size


def assembly_memory(key: SectorKey) -> int:
    """Bytes the assembly of a split sector needs at most: the sector's codes and its file's
    sections (as for a sector solved in one task, without the dependencies)."""
    return _BASE_MEMORY + 4 * index_of_key(key).size


def _dependencies_memory(key: SectorKey) -> int:
    return sum(2 * index_of_key(d).size for d in Unit((key,)).dependencies())


@dataclass(frozen=True)
class Task:
    """One task of the build's graph: a whole unit, a range of a split placing sector, the
    assembly of one (``ranges`` set), or a unit's removal files (``removals``)."""

    name: str  # the Dask key
    unit: Unit
    after: tuple[str, ...]  # the tasks it waits for
    memory: int
    rng: Range | None = None
    ranges: tuple[Range, ...] = ()
    removals: bool = False

    @property
    def entries(self) -> int:
        """What the whole build's bar counts when the task ends (an assembly: nothing new)."""
        if self.rng is not None:
            return self.rng.size
        return 0 if self.ranges else unit_entries(self.unit)

    @property
    def cost(self) -> int:
        """A rough measure of the task's work, to run the longest chains first."""
        if self.ranges:
            return unit_entries(self.unit) // 8  # writing, not solving
        entries = self.entries
        return 4 * entries if self.unit.moving else entries


def plan_graph(
    units: list[Unit],
    todo: list[Unit],
    split: int,
    capacity: int,
    tag: str = "",
    removals: list[Unit] | None = None,
) -> list[Task]:
    """The tasks that solve ``todo`` (units of ``units`` not yet built), each after the tasks
    it waits for: a moving system or a placing sector of at most ``split`` entries is one task,
    a larger placing sector ranges of at most ``split`` entries (fewer if a worker of
    ``capacity`` bytes could not hold them) and their assembly; and the removal distances of the
    units of ``removals`` (default: ``todo``), each after its unit and the removal files of the
    sectors its turns reach. The same
    arguments give the same graph."""
    unit_of = {k: u for u in units for k in u.keys}
    last: dict[Unit, str] = {}  # the task whose end means the unit is built
    distances: dict[Unit, str] = {}  # the task of a unit's removal files
    tasks: list[Task] = []
    wanted = set(todo) if removals is None else set(removals)
    planned = set(todo)
    for unit in units:
        deps = [unit_of[d] for d in unit.dependencies()]
        if unit not in planned:
            if unit in wanted:  # its sectors are built
                after = tuple(distances[d] for d in deps if d in distances)
                distances[unit] = _removals_task(unit, after, tag, tasks)
            continue
        after = tuple(last[d] for d in deps if d in last)
        stem = f"{tag}-{unit.keys[0].filename}"
        ranges = [] if unit.moving else _ranges(unit.keys[0], split, capacity)
        if len(ranges) <= 1:
            tasks.append(Task(f"solve-{stem}", unit, after, unit_memory(unit)))
        else:
            parts = [
                Task(f"range-{stem}-{r.start}", unit, after, range_memory(r), rng=r) for r in ranges
            ]
            tasks += parts
            names = tuple(t.name for t in parts)
            memory = assembly_memory(unit.keys[0])
            tasks.append(Task(f"assemble-{stem}", unit, names, memory, ranges=tuple(ranges)))
        last[unit] = tasks[-1].name
        if unit in wanted:
            waits = (last[unit], *(distances[d] for d in deps if d in distances))
            distances[unit] = _removals_task(unit, waits, tag, tasks)
    return tasks


def _removals_task(unit: Unit, after: tuple[str, ...], tag: str, tasks: list[Task]) -> str:
    name = f"removals-{tag}-{unit.keys[0].filename}"
    tasks.append(Task(name, unit, after, removals_memory(unit), removals=True))
    return name


def _ranges(key: SectorKey, split: int, capacity: int) -> list[Range]:
    room = capacity - _BASE_MEMORY
    return plan_ranges(key, range_split(split, room, _dependencies_memory(key)))


def priorities(tasks: list[Task]) -> dict[str, int]:
    """Each task's priority: the work on the longest chain of tasks from it to the end, so a
    worker free to choose starts what the most work waits for (the moving systems' chain)."""
    waiting: dict[str, list[str]] = {t.name: [] for t in tasks}
    for task in tasks:
        for name in task.after:
            waiting[name].append(task.name)
    out: dict[str, int] = {}
    for task in reversed(tasks):  # the graph is in order: what waits comes later
        out[task.name] = task.cost + max((out[n] for n in waiting[task.name]), default=0)
    return out


@dataclass(frozen=True)
class BuildResult:
    """What a build did: every sector's header, and the units solved now (not found built)."""

    infos: list[SectorInfo]
    solved: list[str]
    removals: list[RemovalInfo]  # of every sector


def build_solution(
    directory: Path,
    men: int,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    memory: int | None = None,
    split: int = DEFAULT_SPLIT,
    removal_limit: int = DEFAULT_NO_REMOVAL_LIMIT,
    threads: int | None = None,
    progress: Progress | None = None,
) -> BuildResult:
    """Solve every sector of ``men`` men's morris into ``directory`` on a Dask cluster.

    ``scheduler``: address of a running scheduler; else a local cluster of ``workers`` processes
    (default: the cores) sharing ``memory`` bytes (default: the available memory). A placing
    sector of more than ``split`` entries is solved in ranges of at most that many, by tasks of
    their own. A moving system's task runs on ``threads`` threads (default: every core of the
    machine it runs on, see docs/TABLES-MEASUREMENTS.md). The removal files (the moving-phase
    sectors' distances to the next removal, the placing sectors' values under the rule) are for
    the no-removal limit ``removal_limit``. Raises :class:`SolutionError` if a task needs
    more memory than any worker has, or a task fails.
    """
    if threads is not None and threads < 1:
        raise SolutionError(msg("threads must be at least 1, not {n}", n=threads))
    if split < 1:
        raise SolutionError(msg("the split must be at least 1 entry, not {n}", n=split))
    if removal_limit < 1:
        raise SolutionError(
            msg("the no-removal limit must be at least 1, not {n}", n=removal_limit)
        )
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for stale in directory.glob(".sector-*.tmp"):
        # What a killed build was writing (one build per directory at a time).
        stale.unlink(missing_ok=True)
    units = build_units(men)
    own = [k for u in units for k in u.keys]
    built: dict[Unit, list[SectorInfo]] = {}
    distances: dict[Unit, list[RemovalInfo]] = {}
    for unit in units:
        found = _all_finished(directory, unit)
        if found is None:
            continue
        built[unit] = found
        removal = _removals_built(directory, found, removal_limit)
        if removal is not None:
            distances[unit] = removal
    todo = [u for u in units if u not in built]
    removals = [u for u in units if u not in distances]
    total = 2 * sum(unit_entries(u) for u in units)  # the sectors, then their removal files
    done = sum(unit_entries(u) for u in built) + sum(unit_entries(u) for u in distances)
    if progress is not None:
        progress("build", done, total)
    if not todo and not removals:
        sweep_parts(directory, (), own)  # a killed build's parts of sectors finished since
    else:
        with _client(workers, scheduler, memory) as client:
            capacity = _worker_memory(client)
            tag = hashlib.sha256(str(directory.resolve()).encode()).hexdigest()[:12]
            tasks = plan_graph(units, todo, split, capacity, tag, removals)
            for task in tasks:
                if task.memory > capacity:
                    raise SolutionError(
                        msg(
                            "sector {sector} needs {need} GiB, more than any worker has"
                            " ({have} GiB)",
                            sector=task.unit.name,
                            need=format(task.memory / 2**30, ".1f"),
                            have=format(capacity / 2**30, ".1f"),
                        )
                    )
            # Parts of its sectors cut by another split, or finished since, are no use to it.
            sweep_parts(directory, [t.rng for t in tasks if t.rng is not None], own)
            bars = _Bars(progress, done, total)
            ended, made = _run_graph(client, directory, tasks, bars, removal_limit, threads)
            built.update(ended)
            distances.update(made)
    infos = [i for u in units for i in built[u]]
    removal_infos = [i for u in units for i in distances[u]]
    return BuildResult(infos, [u.name for u in todo], removal_infos)


def _submit(
    client: Any,
    task: Task,
    directory: Path,
    futures: dict[str, Any],
    priority: int,
    limit: int,
    threads: int | None,
) -> Any:
    after = [futures[n] for n in task.after]
    func: Callable[..., Any] = run_unit
    head: tuple[Any, ...] = (task.unit,)
    tail: tuple[Any, ...] = ()
    extra: dict[str, Any] = {"threads": threads}
    if task.rng is not None:
        func, head, extra = run_range, (task.rng,), {}
    elif task.removals:
        func, tail = run_removals, (limit,)
    elif task.ranges:
        func, head, extra = run_assembly, (task.ranges,), {}
    return client.submit(
        func,
        *head,
        str(directory),
        *tail,
        *after,
        key=task.name,
        resources={MEMORY: task.memory},
        priority=priority,
        pure=False,
        retries=0,
        **extra,
    )


def _run_graph(
    client: Any,
    directory: Path,
    tasks: list[Task],
    bars: _Bars,
    limit: int,
    threads: int | None,
) -> tuple[dict[Unit, list[SectorInfo]], dict[Unit, list[RemovalInfo]]]:
    as_completed = _distributed().as_completed
    ranks = priorities(tasks)
    futures: dict[str, Any] = {}
    if bars.progress is not None:
        client.subscribe_topic(TOPIC, bars.event)
    for task in tasks:
        futures[task.name] = _submit(
            client, task, directory, futures, ranks[task.name], limit, threads
        )
    by_key = {t.name: t for t in tasks}
    out: dict[Unit, list[SectorInfo]] = {}
    removals: dict[Unit, list[RemovalInfo]] = {}
    try:
        for future in as_completed(list(futures.values())):
            task = by_key[future.key]
            try:
                result = future.result()
            except SolutionError:
                raise
            except Exception as exc:
                raise SolutionError(
                    msg(
                        "sector {sector}: the task failed: {reason}",
                        sector=task.unit.name,
                        reason=str(exc),
                    )
                    if task.rng is None
                    else msg(
                        "sector {sector} (entries {start}..{stop}): the task failed: {reason}",
                        sector=task.unit.name,
                        start=task.rng.start,
                        stop=task.rng.stop,
                        reason=str(exc),
                    )
                ) from exc
            if task.removals:
                removals[task.unit] = result
            elif task.rng is None:
                out[task.unit] = result
            bars.ended(task)
    finally:
        if bars.progress is not None:
            client.unsubscribe_topic(TOPIC)
    return out, removals


class _Bars:
    """The bars of the sectors and of the whole build, from the tasks' events (on the client's
    event thread) and their ends (on the caller's): a split sector's bar sums its ranges."""

    def __init__(self, progress: Progress | None, done: int, total: int) -> None:
        self.progress = progress
        self._done, self._total = done, total
        self._lock = threading.Lock()
        self._parts: dict[str, dict[int, int]] = {}
        self._totals: dict[str, int] = {}  # what a unit's bar counts (the tables': placements)

    def event(self, event: Any) -> None:
        """A task's progress event."""
        _, report = event
        name, done, total = str(report["name"]), int(report["done"]), int(report["total"])
        if "removals" in report:
            name = removals_bar(name, bool(report.get("placing")))
        with self._lock:
            if "part" in report:
                self._part(name, int(report["part"]), done, int(report["sector"]))
            else:
                self._totals[name] = total
                self._report(name, done, total)

    def ended(self, task: Task) -> None:
        """A task has ended."""
        name = (
            removals_bar(task.unit.name, not task.unit.moving) if task.removals else task.unit.name
        )
        with self._lock:
            if task.rng is not None:
                self._part(name, task.rng.start, task.rng.size, unit_entries(task.unit))
            elif not task.ranges:
                bar = self._totals.get(name, unit_entries(task.unit))
                self._report(name, bar, bar)
            self._done += task.entries
            self._report("build", self._done, self._total)

    def _part(self, name: str, start: int, done: int, total: int) -> None:
        parts = self._parts.setdefault(name, {})
        parts[start] = max(parts.get(start, 0), done)  # an event may come after the end
        self._report(name, sum(parts.values()), total)

    def _report(self, name: str, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(name, done, total)


def _worker_memory(client: Any) -> int:
    workers = client.scheduler_info(n_workers=-1)["workers"].values()
    amounts = [int(w.get("resources", {}).get(MEMORY, 0)) for w in workers]
    if not amounts or max(amounts) <= 0:
        raise SolutionError(
            msg(
                "no worker of the scheduler declares the resource {resource} (start them with"
                " --resources {resource}=<bytes>)",
                resource=MEMORY,
            )
        )
    return max(amounts)


def _distributed() -> Any:
    """The Dask distributed module (an optional dependency), untyped."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise SolutionError(
            msg("the build needs Dask distributed: pip install 'morris-board[solve]'")
        ) from None


@contextmanager
def _client(workers: int | None, scheduler: str | None, memory: int | None) -> Iterator[Any]:
    dist = _distributed()
    # Dask sets its loggers to INFO on import: a build would print every worker's start and stop
    # over the progress bars. They follow the command's level instead (``-v`` shows them).
    logging.getLogger("distributed").setLevel(logging.getLogger().getEffectiveLevel())
    Client, LocalCluster = dist.Client, dist.LocalCluster
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=10)
        except (OSError, TimeoutError, ValueError) as exc:
            raise SolutionError(
                msg(
                    "cannot reach the scheduler {scheduler}: {reason}",
                    scheduler=repr(scheduler),
                    reason=str(exc),
                )
            ) from None
        try:
            yield client
        finally:
            client.close()
        return
    n = workers or os.cpu_count() or 1
    if n < 1:
        raise SolutionError(msg("--workers must be at least 1, not {n}", n=n))
    if memory is None:
        import psutil

        memory = int(psutil.virtual_memory().available * 0.9)
    per_worker = memory // n
    cluster = LocalCluster(
        n_workers=n,
        threads_per_worker=1,
        processes=True,
        resources={MEMORY: per_worker},
        memory_limit=0,
        dashboard_address=":0",  # a free port: never clash with another cluster
        silence_logs=logging.ERROR,
    )
    try:
        with Client(cluster) as client:
            yield client
    finally:
        cluster.close()
