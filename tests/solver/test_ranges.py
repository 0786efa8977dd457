"""The build's graph: which placing sectors are split, into which ranges, what each task waits
for and the memory it declares (planned without a cluster)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from morris.engine.solution.sectors import SectorKey, build_units, sector_keys
from morris.solver.solution.plan import (
    assembly_memory,
    plan_graph,
    priorities,
    range_memory,
    unit_entries,
    unit_memory,
)
from morris.solver.solution.ranges import MIN_RANGE, plan_ranges, range_split

GIB = 1 << 30


@settings(deadline=None)
@given(st.sampled_from([k for k in sector_keys(5) if k.placing]), st.integers(1 << 10, 1 << 20))
def test_ranges_cover_the_sector_once_in_order_none_larger_than_the_split(
    key: SectorKey, split: int
) -> None:
    from morris.engine.solution.symmetry import index_of_key

    size = index_of_key(key).size
    ranges = plan_ranges(key, split)
    assert ranges[0].start == 0 and ranges[-1].stop == size
    assert all(a.stop == b.start for a, b in itertools.pairwise(ranges))
    assert all(0 < r.size <= split for r in ranges)
    assert len(ranges) == max(1, -(-size // split))  # the fewest that do
    assert max(r.size for r in ranges) - min(r.size for r in ranges) <= 1


def test_a_split_of_zero_entries_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1 entry, not 0"):
        plan_ranges(SectorKey(3, 4, 1, 0), 0)


def test_small_sectors_stay_one_task_and_large_ones_become_ranges_and_an_assembly() -> None:
    units = build_units(4)
    tasks = plan_graph(units, units, 1 << 15, 8 * GIB)
    by_name = {t.name: t for t in tasks}
    big = next(u for u in units if u.name == "3v4 h1/0")  # 945,630 entries
    ranges = [t for t in tasks if t.unit == big and t.rng is not None]
    (assembly,) = [t for t in tasks if t.unit == big and t.ranges]
    assert len(ranges) == 29 and assembly.after == tuple(t.name for t in ranges)
    assert sum(t.entries for t in ranges) == unit_entries(big) and assembly.entries == 0
    # Each range waits for the sectors the placements reach (4v4 and 4v3 + 3v4), not the others.
    waits = {by_name[n].unit.name for n in ranges[0].after}
    assert waits == {"4v4", "3v4 + 4v3"}
    assert all(t.after == ranges[0].after for t in ranges)
    # A sector after a split one waits for its assembly.
    after_big = [t for t in tasks if assembly.name in t.after and t is not assembly]
    assert after_big and all(t.unit.keys[0].placing for t in after_big)
    # Moving systems and small placing sectors: one task each.
    singles = [t for t in tasks if t.rng is None and not t.ranges and not t.removals]
    assert {t.unit for t in singles} | {t.unit for t in tasks if t.ranges} == set(units)
    assert all(unit_entries(t.unit) <= 1 << 15 for t in singles if not t.unit.moving)
    # The whole build's bar ends at every entry twice (the removal files: one task a unit,
    # after the unit, which no sector task waits for).
    removals = [t for t in tasks if t.removals]
    assert sorted(t.unit.name for t in removals) == sorted(u.name for u in units)
    unit_done = {t.unit: t.name for t in tasks if not t.removals and t.rng is None}
    assert all(unit_done[t.unit] in t.after for t in removals)  # after its own unit's task
    # Only removal files wait for removal files (those of the sectors the turns reach).
    names = {r.name for r in removals}
    assert all(t.removals for t in tasks if names & set(t.after))
    by_name = {t.name: t for t in tasks}
    three = next(t for t in removals if t.unit.name == "3v4 + 4v3")
    assert {by_name[n].unit.name for n in three.after} == {"3v4 + 4v3", "3v3"}
    split = next(t for t in removals if t.unit == big)  # after its assembly and its successors'
    assert {by_name[n].unit.name for n in split.after} == {big.name, "4v4", "3v4 + 4v3"}
    assert sum(t.entries for t in tasks) == 2 * sum(unit_entries(u) for u in units)


def test_a_range_and_the_assembly_each_declare_less_memory_than_the_whole_sector() -> None:
    units = build_units(9)
    big = max((u for u in units if not u.moving), key=unit_entries)  # 603 M entries
    (key,) = big.keys
    ranges = plan_ranges(key, 1 << 22)
    assert len(ranges) == 144
    assert range_memory(ranges[0]) < 0.6 * unit_memory(big)
    assert assembly_memory(key) < unit_memory(big)


def test_a_worker_with_little_memory_gets_smaller_ranges() -> None:
    assert range_split(1 << 22, 8 * GIB, GIB) == 1 << 22
    assert range_split(1 << 22, 2 * GIB + (1 << 20), 2 * GIB) == (1 << 20) // 2
    assert range_split(1 << 22, GIB, 2 * GIB) == MIN_RANGE  # refused later, by its memory


def test_the_graph_is_the_same_every_time_and_the_moving_chain_goes_first() -> None:
    units = build_units(4)
    first = plan_graph(units, units, 1 << 15, 8 * GIB, "tag")
    assert first == plan_graph(build_units(4), build_units(4), 1 << 15, 8 * GIB, "tag")
    assert len({t.name for t in first}) == len(first)
    ranks = priorities(first)
    whole = [t for t in first if t.rng is None and not t.ranges and not t.removals]
    by_unit = {t.unit.name: ranks[t.name] for t in whole}
    # 3v3 starts the longest chain: it outranks everything that could run beside it.
    assert by_unit["3v3"] == max(ranks.values())
    for task in first:
        for name in task.after:
            assert ranks[name] > ranks[task.name]  # what a task waits for ranks above it


def test_only_what_is_left_is_planned() -> None:
    units = build_units(3)
    todo = [u for u in units if u.name in ("2v3 h1/0", "0v0 h3/3")]
    tasks = plan_graph(units, todo, 4096, 8 * GIB)
    assert {t.unit.name for t in tasks} == {"2v3 h1/0", "0v0 h3/3"}
    assert all(t.after == () for t in tasks if t.rng is not None)  # 3v3 is built
    (start,) = [t for t in tasks if t.unit.name == "0v0 h3/3" and not t.removals]
    assert start.after == ()  # 0v1 h3/2 is built, not waited for
    # Its removal file waits for the start's own task, and for 0v1 h3/2's where that is planned.
    (rule,) = [t for t in tasks if t.unit.name == "0v0 h3/3" and t.removals]
    assert rule.after == (start.name,)
    units3 = [u for u in units if u.name in ("0v1 h3/2", "0v0 h3/3")]
    more = plan_graph(units, todo, 4096, 8 * GIB, removals=units3)
    (rule,) = [t for t in more if t.unit.name == "0v0 h3/3" and t.removals]
    (before,) = [t for t in more if t.unit.name == "0v1 h3/2"]  # only its removal file
    assert before.removals and rule.after == (start.name, before.name)


@pytest.mark.realtime
@pytest.mark.slow
def test_a_worker_holds_one_sectors_dependencies_at_a_time(solved3: Path, tmp_path: Path) -> None:
    # The range tasks of a sector share its successors' decoded codes; the next sector's, a
    # rebuilt file or a task of another kind let them go, so a worker's memory stays what the
    # task declares (one sector's dependencies), not every sector's it ever split.
    import gc
    import os
    import shutil
    import weakref

    import numpy as np

    from morris.solver.solution.ranges import release_dependencies, sector_dependencies

    directory = tmp_path / "sol"
    shutil.copytree(solved3, directory)
    first, second = [k for k in sector_keys(3) if k.placing and k.other_on > 0][:2]
    held = sector_dependencies(directory, first)
    assert sector_dependencies(directory, first) is held  # decoded once for its ranges
    gone = [weakref.ref(np.asarray(c)) for c in held.values()]
    del held
    other = sector_dependencies(directory, second)
    gc.collect()
    assert all(ref() is None for ref in gone)  # the first sector's are let go
    quiet = directory / second.quiet_successor().filename
    was = quiet.stat()
    quiet.write_bytes(quiet.read_bytes())  # rebuilt: another file at the same name
    os.utime(quiet, ns=(was.st_atime_ns, was.st_mtime_ns + 10**9))  # a second later
    assert sector_dependencies(directory, second) is not other
    release_dependencies()
    assert sector_dependencies(directory, second) is not other
