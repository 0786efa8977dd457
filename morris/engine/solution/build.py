"""Build the solution of k men's morris as a Dask distributed task graph.

One task per :class:`~morris.engine.solution.sectors.Unit` (a placing sector, or a moving-phase
system), depending on the tasks of the sectors its turns reach. A task reads its dependencies'
files from the solution directory (memory-mapped: on a real cluster the directory must be shared)
and writes its own; it declares the memory it needs as the worker resource ``MEMORY`` (bytes), so
a worker never runs more at once than it has. A local cluster is started by default; give the
address of a running scheduler for a real one (its workers started with
``--resources MEMORY=<bytes>``).

Resumable: a sector whose file is complete and matches its checksum is never computed again; a
damaged file is removed and rebuilt. Files are written under a temporary name and renamed, and
hold nothing about the build, so the bytes are the same whatever the number of workers and however
often the build was killed.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from morris.engine.errors import SolutionError
from morris.engine.solution.sectors import SectorKey, Unit, build_units
from morris.engine.solution.storage import SectorInfo, finished, open_sector, write_sector
from morris.engine.solution.turns import index_of_key

logger = logging.getLogger(__name__)

#: The worker resource a task's memory is declared in, bytes.
MEMORY: Final = "MEMORY"
#: Topic of the progress events the tasks send to the client.
TOPIC: Final = "morris-solution-progress"
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


def run_unit(unit: Unit, directory: str, *_after: Any) -> list[SectorInfo]:
    """The task: solve ``unit`` into ``directory`` unless its files are already there and sound.

    ``_after`` are the results of the tasks it depends on (only their order matters).
    """
    where = Path(directory)
    found = _all_finished(where, unit)
    if found is not None:
        return found
    from morris.engine.solution.solve import solve_unit

    solved = {d: open_sector(where, d).dist for d in unit.dependencies()}
    codes = solve_unit(unit, solved, _task_progress())
    return [write_sector(where, k, codes[k]) for k in unit.keys]


def _all_finished(directory: Path, unit: Unit) -> list[SectorInfo] | None:
    """The headers of the unit's sectors if every file is complete and sound, else None."""
    infos = [finished(directory, k) for k in unit.keys]
    found = [i for i in infos if i is not None]
    return found if len(found) == len(infos) else None


def _task_progress() -> Progress | None:
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
        worker.log_event(TOPIC, {"name": name, "done": done, "total": total})

    return report


@dataclass(frozen=True)
class BuildResult:
    """What a build did: every sector's header, and the units solved now (not found built)."""

    infos: list[SectorInfo]
    solved: list[str]


def build_solution(
    directory: Path,
    men: int,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    memory: int | None = None,
    progress: Progress | None = None,
) -> BuildResult:
    """Solve every sector of ``men`` men's morris into ``directory`` on a Dask cluster.

    ``scheduler``: address of a running scheduler; else a local cluster of ``workers`` processes
    (default: the cores) sharing ``memory`` bytes (default: the available memory). Raises
    :class:`SolutionError` if a unit needs more memory than any worker has, or a task fails.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for stale in directory.glob(".sector-*.tmp"):
        # What a killed build was writing (one build per directory at a time).
        stale.unlink(missing_ok=True)
    units = build_units(men)
    built: dict[Unit, list[SectorInfo]] = {}
    for unit in units:
        found = _all_finished(directory, unit)
        if found is not None:
            built[unit] = found
    todo = [u for u in units if u not in built]
    total = sum(unit_entries(u) for u in units)
    done = sum(unit_entries(u) for u in built)
    if progress is not None:
        progress("build", done, total)
    if todo:
        with _client(workers, scheduler, memory) as client:
            capacity = _worker_memory(client)
            for unit in todo:
                if unit_memory(unit) > capacity:
                    raise SolutionError(
                        f"sector {unit.name} needs {unit_memory(unit) / 2**30:.1f} GiB, more than "
                        f"any worker has ({capacity / 2**30:.1f} GiB)"
                    )
            built.update(_run_graph(client, directory, units, todo, done, total, progress))
    infos = [i for u in units for i in built[u]]
    return BuildResult(infos, [u.name for u in todo])


def _run_graph(
    client: Any,
    directory: Path,
    units: list[Unit],
    todo: list[Unit],
    done: int,
    total: int,
    progress: Progress | None,
) -> dict[Unit, list[SectorInfo]]:
    as_completed = _distributed().as_completed
    unit_of: dict[SectorKey, Unit] = {k: u for u in units for k in u.keys}
    tag = hashlib.sha256(str(directory.resolve()).encode()).hexdigest()[:12]
    futures: dict[Unit, Any] = {}
    totals: dict[str, int] = {}  # what each unit's bar counts (the tables' solver: placements)
    if progress is not None:
        client.subscribe_topic(TOPIC, lambda event: _forward(event, progress, totals))
    for unit in todo:
        after = [futures[unit_of[d]] for d in unit.dependencies() if unit_of[d] in futures]
        futures[unit] = client.submit(
            run_unit,
            unit,
            str(directory),
            *after,
            key=f"solve-{tag}-{unit.keys[0].filename}",
            resources={MEMORY: unit_memory(unit)},
            pure=False,
            retries=0,
        )
    by_future = {f.key: u for u, f in futures.items()}
    out: dict[Unit, list[SectorInfo]] = {}
    try:
        for future in as_completed(list(futures.values())):
            unit = by_future[future.key]
            try:
                out[unit] = future.result()
            except SolutionError:
                raise
            except Exception as exc:
                raise SolutionError(f"sector {unit.name}: the task failed: {exc}") from exc
            done += unit_entries(unit)
            if progress is not None:
                bar = totals.get(unit.name, unit_entries(unit))
                progress(unit.name, bar, bar)
                progress("build", done, total)
    finally:
        if progress is not None:
            client.unsubscribe_topic(TOPIC)
    return out


def _forward(event: Any, progress: Progress, totals: dict[str, int]) -> None:
    _, msg = event
    totals[str(msg["name"])] = int(msg["total"])
    progress(str(msg["name"]), int(msg["done"]), int(msg["total"]))


def _worker_memory(client: Any) -> int:
    workers = client.scheduler_info(n_workers=-1)["workers"].values()
    amounts = [int(w.get("resources", {}).get(MEMORY, 0)) for w in workers]
    if not amounts or max(amounts) <= 0:
        raise SolutionError(
            f"no worker of the scheduler declares the resource {MEMORY} (start them with "
            f"--resources {MEMORY}=<bytes>)"
        )
    return max(amounts)


def _distributed() -> Any:
    """The Dask distributed module (an optional dependency), untyped."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise SolutionError(
            "the build needs Dask distributed: pip install 'morris-board[solve]'"
        ) from None


@contextmanager
def _client(workers: int | None, scheduler: str | None, memory: int | None) -> Iterator[Any]:
    dist = _distributed()
    Client, LocalCluster = dist.Client, dist.LocalCluster
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=10)
        except (OSError, TimeoutError, ValueError) as exc:
            raise SolutionError(f"cannot reach the scheduler {scheduler!r}: {exc}") from None
        try:
            yield client
        finally:
            client.close()
        return
    n = workers or os.cpu_count() or 1
    if n < 1:
        raise SolutionError(f"--workers must be at least 1, not {n}")
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
