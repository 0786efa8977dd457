"""The 16 symmetries and the symmetry-reduced perfect hash."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from morris.core.points import MILL_MASKS, NEIGHBOURS, POINTS, points_of
from morris.engine.encoding import popcount
from morris.engine.solution.symmetry import (
    PERMS,
    SymmetricIndex,
    orbit_sizes,
    redundancy,
    transform_one,
)


def test_the_sixteen_symmetries_keep_links_and_mills() -> None:
    links = {frozenset((p, q)) for p in POINTS for q in points_of(NEIGHBOURS[p])}
    assert len(set(PERMS)) == 16
    for s, perm in enumerate(PERMS):
        assert {frozenset(perm[p] for p in link) for link in links} == links
        assert {transform_one(m, s) for m in MILL_MASKS} == set(MILL_MASKS)


@pytest.mark.parametrize(("mover", "other"), [(0, 0), (0, 3), (3, 3), (4, 3), (2, 5)])
def test_every_entry_decodes_to_a_position_that_indexes_back_to_it(mover: int, other: int) -> None:
    index = SymmetricIndex(mover, other)
    entries = np.arange(index.size, dtype=np.int64)
    m, o = index.decode(entries)
    assert not np.any(m & o)
    assert np.all(popcount(m) == mover) and np.all(popcount(o) == other)
    assert np.array_equal(index.index(m, o), entries)


# No deadline: the first example of each piece count builds that index's tables (seconds on a
# loaded machine), the rest take microseconds.
@settings(deadline=None)
@given(
    st.sets(st.integers(0, 23), min_size=3, max_size=6),
    st.lists(st.integers(0, 23), min_size=0, max_size=6, unique=True),
    st.integers(0, 15),
)
def test_symmetric_positions_index_to_the_same_class(
    mover_points: set[int], other_points: list[int], sym: int
) -> None:
    mover = sum(1 << p for p in mover_points)
    other = sum(1 << p for p in other_points if p not in mover_points)
    index = SymmetricIndex(mover.bit_count(), other.bit_count())
    i = index.index_one(mover, other)
    j = index.index_one(transform_one(mover, sym), transform_one(other, sym))
    bulk = index.index(np.array([mover], np.uint32), np.array([other], np.uint32))
    assert i == int(bulk[0])
    # Both entries decode to images of the position under some symmetry.
    for entry in (i, j):
        m, o = index.decode(np.array([entry], np.int64))
        images = {(transform_one(mover, s), transform_one(other, s)) for s in range(16)}
        assert (int(m[0]), int(o[0])) in images


@pytest.mark.parametrize("size", [0, 1, 3, 4, 8, 12])
def test_orbits_cover_every_point_set_once(size: int) -> None:
    assert int(orbit_sizes(size).sum()) == math.comb(24, size)
    assert set(np.unique(orbit_sizes(size))) <= {1, 2, 4, 8, 16}


def test_the_redundancy_is_small_and_comes_from_symmetric_mover_sets() -> None:
    figures = [redundancy(n, n) for n in range(3, 10)]
    assert figures == sorted(figures, reverse=True)  # fewer symmetric sets among larger ones
    assert figures[0] < 0.25 and 0 < figures[-1] < 0.02  # 3v3: 24 %, 9v9: 1.4 %
    assert redundancy(0, 0) == 0.0
    index = SymmetricIndex(3, 3)
    assert index.size < index.placements / 12  # a sixteenth, and 24 % for symmetric sets
