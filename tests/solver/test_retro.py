"""The moving phase's retrograde analysis in the symmetric index (morris.solver.solution._retro):
the endgame tables' wide solver reproduced, duplicates of a position agreeing, every code the
Bellman value of its successors, bad input refused with a message naming it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from morris.core.points import MILL_MASKS, NEIGHBOURS, NUM_POINTS
from morris.engine.encoding import chunks
from morris.engine.solution import SectorKey, Solution, SolutionError
from morris.engine.solution.sectors import Unit, build_units
from morris.engine.solution.symmetry import IMAGES, index_of_key, representatives, transform
from morris.engine.tables.index import stored_decode, wide_index, wide_size
from morris.engine.tables.keys import Codes
from morris.solver.solution._retro import System
from morris.solver.solution.solve import solve_moving
from morris.solver.solution.turns import expected_codes
from morris.solver.tables.solve import solve_system

MOVING4 = [SectorKey(m, o, 0, 0) for m, o in ((3, 3), (4, 3), (3, 4), (4, 4))]


def _wide(key: SectorKey, codes: Codes) -> Codes:
    """A sector's codes in the tables' wide layout (what their solver reads and writes)."""
    table, index = key.table, index_of_key(key)
    out = np.zeros(wide_size(table), dtype=codes.dtype)
    for idx in chunks(table.size, 1 << 20):
        mover, other = stored_decode(table, idx)
        out[wide_index(table, mover, other)] = np.asarray(codes)[index.index(mover, other)]
    return out


def _from_wide(key: SectorKey, wide: Codes) -> Codes:
    index = index_of_key(key)
    mover, other = index.decode(np.arange(index.size, dtype=np.int64))
    return wide[wide_index(key.table, mover, other)]


@pytest.mark.realtime
@pytest.mark.slow
@pytest.mark.parametrize(("mover", "dependency"), [(3, None), (4, (3, 4))])
def test_the_tables_wide_solver_gives_the_same_codes(
    solved4: Path, mover: int, dependency: tuple[int, int] | None
) -> None:
    # 3v3 (flying on both sides) and 4v4 (from 3v4 by removals), each a system of its own.
    solution = Solution.load(solved4, 4)
    key = SectorKey(mover, mover, 0, 0)
    deps = {}
    if dependency is not None:
        dep = SectorKey(*dependency, 0, 0)
        deps[dep.table] = _wide(dep, np.asarray(solution.data(dep).dist))
    wide = solve_system([key.table], deps, None, key.name)[key.table]
    ours = solve_moving(
        Unit((key,)), {d: solution.data(d).dist for d in Unit((key,)).dependencies()}
    )
    assert ours[key].dtype == wide.dtype
    assert np.array_equal(ours[key], _from_wide(key, wide))
    assert np.array_equal(ours[key], solution.data(key).dist)


@pytest.mark.realtime
@pytest.mark.slow
@pytest.mark.parametrize("key", MOVING4, ids=lambda k: k.name)
def test_entries_of_the_same_position_have_the_same_code(solved4: Path, key: SectorKey) -> None:
    # A mover set with a non-trivial stabiliser stores its position once per image of the
    # other side under it: all those entries must hold one code.
    codes = np.asarray(Solution.load(solved4, 4).data(key).dist)
    index = index_of_key(key)
    reps = representatives(key.mover_on)
    checked = 0
    for rank, rep in enumerate(reps):
        stab = [s for s in range(1, 16) if int(transform(np.array([rep], np.uint32), s)[0]) == rep]
        if not stab:
            continue
        entries = np.arange(rank * index.block, (rank + 1) * index.block, dtype=np.int64)
        mover, other = index.decode(entries)
        for s in stab:
            image = index.index(mover, transform(other, s))
            assert np.array_equal(codes[image], codes[entries]), (key.name, hex(int(rep)), s)
            checked += int(np.count_nonzero(image != entries))
    assert checked > 0


@pytest.mark.realtime
@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.sampled_from(MOVING4), st.lists(st.floats(0, 1, exclude_max=True), min_size=50))
def test_each_code_is_the_bellman_value_of_its_successors(
    solved4: Path, key: SectorKey, where: list[float]
) -> None:
    solution = Solution.load(solved4, 4)
    codes = {k: solution.data(k).dist for k in solution.keys}
    size = index_of_key(key).size
    idx = np.unique((np.array(where) * size).astype(np.int64))
    have = np.asarray(codes[key])[idx].astype(np.int64)
    assert np.array_equal(expected_codes(key, idx, codes), have)


def _unit(men: int, name: str) -> Unit:
    """The build's unit of that name (its sectors in the build's order)."""
    return {u.name: u for u in build_units(men)}[name]


@pytest.mark.realtime
@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "threads"), [("3v3", 2), ("3v3", 3), ("3v4 + 4v3", 3), ("4v4", 2)]
)
def test_more_threads_give_the_codes_of_one(solved4: Path, name: str, threads: int) -> None:
    # The fixture's files were solved on one thread; flying on both sides, on one, and sliding.
    solution = Solution.load(solved4, 4)
    unit = _unit(4, name)
    solved = {d: solution.data(d).dist for d in unit.dependencies()}
    ours = solve_moving(unit, solved, threads=threads)
    for key in unit.keys:
        assert ours[key].dtype == solution.data(key).dist.dtype
        assert np.array_equal(ours[key], solution.data(key).dist), key.name


@pytest.mark.realtime
@pytest.mark.slow
def test_a_five_men_unit_on_two_threads_has_the_codes_of_one(solved4: Path) -> None:
    # 3v5 + 5v3 (6.0 M entries, a side flying in each), from 4v3 of the 4-men fixture.
    solution = Solution.load(solved4, 4)
    unit = _unit(5, "3v5 + 5v3")
    solved = {d: solution.data(d).dist for d in unit.dependencies()}
    one, two = (solve_moving(unit, solved, threads=n) for n in (1, 2))
    for key in unit.keys:
        assert one[key].dtype == two[key].dtype
        assert np.array_equal(one[key], two[key]), key.name


def test_no_threads_is_refused() -> None:
    with pytest.raises(SolutionError, match="threads must be at least 1, not 0"):
        solve_moving(Unit((SectorKey(3, 3, 0, 0),)), {}, threads=0)


def _system(**change: object) -> System:
    """A 3v3 system with its arrays, one argument replaced."""
    size = index_of_key(SectorKey(3, 3, 0, 0)).size
    args: dict[str, object] = {
        "mover": 3,
        "other": 3,
        "images": IMAGES,
        "neighbours": np.array(NEIGHBOURS, dtype=np.uint32),
        "mill_masks": np.array(MILL_MASKS, dtype=np.uint32),
        "representatives": [representatives(3) if n == 3 else None for n in range(NUM_POINTS + 1)],
        "work": [np.empty(size, np.uint16)],
        "counts": [np.empty(size, np.uint8)],
        "removal_targets": [None],
    }
    args.update(change)
    return System(**args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"mover": 2}, "pieces must be 3..12 a side, not 2v3"),
        ({"work": [np.empty(10, np.uint16)]}, r"work\[0\] \(3v3\): 10 items, not 210140"),
        ({"counts": [np.empty(210140, np.uint16)]}, r"counts\[0\] \(3v3\): items of 2 bytes"),
        ({"removal_targets": [np.zeros(5, np.uint8)]}, r"removal_targets\[0\]: must be None"),
        ({"work": []}, "work: one array per sector, 1 for 3v3"),
        ({"mill_masks": np.zeros(16, np.uint32)}, "mill_masks: mill 0 is not three points"),
        ({"neighbours": np.ones(24, np.uint32)}, "neighbours: point 0's links"),
        ({"images": np.zeros((16, 3, 256), np.uint32)}, "images: symmetry 0 moves point 0"),
        ({"threads": 0}, "threads must be at least 1, not 0"),
        (
            {"representatives": [representatives(3)[:-1] if n == 3 else None for n in range(25)]},
            r"representatives\[3\]: the orbit of 0x[0-9a-f]+ is missing",
        ),
        (
            {
                "representatives": [
                    np.ascontiguousarray(representatives(3)[::-1]) if n == 3 else None
                    for n in range(25)
                ]
            },
            r"representatives\[3\]: item 1 .* is not a canonical set of 3 points in order",
        ),
    ],
)
def test_bad_input_is_refused_naming_it(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _system(**change)


def test_a_system_refuses_bad_entries_levels_out_of_order_and_work_after_finishing() -> None:
    system = _system()
    with pytest.raises(ValueError, match=r"part must be 0\.\.0, not 1"):
        system.set_up(1, 0, 10)
    with pytest.raises(ValueError, match=r"entries 0\.\.210141 outside 0\.\.210140"):
        system.set_up(0, 0, 210141)
    with pytest.raises(ValueError, match="level 1: the next distance to decide is 0"):
        system.level(1)
    system.finish()
    with pytest.raises(RuntimeError, match="finished"):
        system.level(0)
