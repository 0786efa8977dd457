"""The plan of a build of the solved game: its tasks, the graph of what waits for what, and the
memory each task needs. Pure: it computes the same graph from the same arguments and runs nothing
(the tasks are :mod:`~morris.solver.solution.tasks`', the Dask driver
:mod:`~morris.solver.solution.driver`).

One task per :class:`~morris.engine.solution.sectors.Unit` (a moving-phase system, or a placing
sector of at most ``split`` entries); a larger placing sector is solved by range tasks, one per
range of its entries, and one task that assembles its file (:mod:`~morris.solver.solution.ranges`).
Each unit has one more task, after it and after those of the sectors its turns reach: its
removal file (:mod:`~morris.solver.solution.removals`), which no sector task waits for. Each task
declares the memory it needs (the worker resource ``MEMORY``), so a worker never runs more at once
than it has.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from morris.engine.solution.sectors import SectorKey, Unit
from morris.engine.solution.symmetry import index_of_key
from morris.solver.solution.ranges import RANGE_BYTES_PER_ENTRY, Range, plan_ranges, range_split

#: What every task needs besides its arrays: the bulk index tables and work batches.
BASE_MEMORY: Final = 768 << 20


def unit_memory(unit: Unit) -> int:
    """Bytes a unit's task needs at most (an estimate checked by benchmarks/bench_solution.py).

    A moving system holds 3 work bytes an entry (solve.solve_moving) and its codes, 4 in all,
    and the pages of the files a removal leads to; a placing sector its output and the pages of
    its dependencies' files.
    """
    deps = unit.dependencies()
    if unit.moving:
        own = 4 * unit_entries(unit)
        return BASE_MEMORY + own + sum(2 * index_of_key(d).size for d in deps)
    own = 4 * index_of_key(unit.keys[0]).size
    return BASE_MEMORY + own + sum(2 * index_of_key(d).size for d in deps)


def unit_entries(unit: Unit) -> int:
    """Entries (symmetry-reduced) of the sectors of a unit."""
    return sum(index_of_key(k).size for k in unit.keys)


def removals_memory(unit: Unit) -> int:
    """Bytes a unit's removal file task needs at most: a moving system's work arrays and each
    sector a removal reaches reduced to a byte an entry (one decoded at a time); a placing
    sector's codes and the codes of the sectors its turns reach (2 bytes an entry at most)."""
    deps = [index_of_key(d).size for d in unit.dependencies()]
    if not unit.moving:
        return BASE_MEMORY + 4 * unit_entries(unit) + 2 * sum(deps)
    return BASE_MEMORY + 4 * unit_entries(unit) + sum(deps) + 2 * max(deps, default=0)


def range_memory(rng: Range) -> int:
    """Bytes a range task needs at most: its dependencies' pages and its own codes."""
    return BASE_MEMORY + _dependencies_memory(rng.key) + RANGE_BYTES_PER_ENTRY * rng.size


def assembly_memory(key: SectorKey) -> int:
    """Bytes the assembly of a split sector needs at most: the sector's codes and its file's
    sections (as for a sector solved in one task, without the dependencies)."""
    return BASE_MEMORY + 4 * index_of_key(key).size


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
    room = capacity - BASE_MEMORY
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
