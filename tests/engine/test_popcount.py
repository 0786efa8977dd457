"""The tables' popcount counts the same with and without numpy 2's ``bitwise_count``: a 32-bit
Raspberry Pi OS runs Debian's numpy 1.24, which has none (docs/PLATFORMS.md)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from morris.engine.tables import index

BOARDS = st.lists(st.integers(min_value=0, max_value=(1 << 24) - 1), min_size=1, max_size=64)


@given(BOARDS)
def test_popcount_counts_the_points_of_every_bitboard(boards: list[int]) -> None:
    counted = index.popcount(np.array(boards, dtype=np.uint32))
    assert counted.tolist() == [bin(b).count("1") for b in boards]


@given(BOARDS)
def test_popcount_without_bitwise_count_counts_the_same(boards: list[int]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(index, "_BITWISE_COUNT", None)
        counted = index.popcount(np.array(boards, dtype=np.uint32))
    assert counted.dtype == np.uint32
    assert counted.tolist() == [bin(b).count("1") for b in boards]
