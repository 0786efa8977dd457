"""Build the solution of k men's morris as a Dask distributed task graph: the driver, which
plans the graph (:mod:`~morris.solver.solution.plan`), submits the tasks
(:mod:`~morris.solver.solution.tasks`) to a cluster and follows their progress.

A local cluster is started by default; give the address of a running scheduler for a real one
(its workers started with ``--resources MEMORY=<bytes>``: each task declares the memory it needs
as that worker resource, so a worker never runs more at once than it has).

Resumable: a sector whose file is complete and matches its checksum is never computed again, nor
a range whose part file does; a damaged file is removed and rebuilt. Files are written under a
temporary name and renamed, and hold nothing about the build, so the bytes are the same whatever
the number of workers, the split, and however often the build was killed. What each task
cost is appended to the directory's ``build-log.jsonl``
(:data:`~morris.solver.solution.tasks.BUILD_LOG`), the measured figures behind the extrapolations
of docs/TABLES.md.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from morris.core.rules import DEFAULT_NO_REMOVAL_LIMIT
from morris.engine.errors import SolutionError
from morris.engine.solution.removals import RemovalInfo
from morris.engine.solution.sectors import Unit, build_units
from morris.engine.solution.storage import SectorInfo
from morris.i18n import msg
from morris.solver.solution.plan import Task, plan_graph, priorities, unit_entries
from morris.solver.solution.ranges import (
    DEFAULT_SPLIT,
    sweep_parts,
)
from morris.solver.solution.removals import (
    removals_bar,
)
from morris.solver.solution.tasks import (
    TOPIC,
    Progress,
    all_finished,
    removals_built,
    run_assembly,
    run_range,
    run_removals,
    run_unit,
)

logger = logging.getLogger(__name__)

#: The worker resource a task's memory is declared in, bytes.
MEMORY: Final = "MEMORY"


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
        found = all_finished(directory, unit)
        if found is None:
            continue
        built[unit] = found
        removal = removals_built(directory, found, removal_limit)
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
