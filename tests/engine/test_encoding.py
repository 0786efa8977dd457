"""The encoding's popcount counts the same with and without numpy 2's ``bitwise_count``: a 32-bit
Raspberry Pi OS runs Debian's numpy 1.24, which has none (docs/PLATFORMS.md)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from morris.engine import encoding

BOARDS = st.lists(st.integers(min_value=0, max_value=(1 << 24) - 1), min_size=1, max_size=64)


@given(BOARDS)
def test_popcount_counts_the_points_of_every_bitboard(boards: list[int]) -> None:
    counted = encoding.popcount(np.array(boards, dtype=np.uint32))
    assert counted.tolist() == [bin(b).count("1") for b in boards]


@given(BOARDS)
def test_popcount_without_bitwise_count_counts_the_same(boards: list[int]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(encoding, "_BITWISE_COUNT", None)
        counted = encoding.popcount(np.array(boards, dtype=np.uint32))
    assert counted.dtype == np.uint32
    assert counted.tolist() == [bin(b).count("1") for b in boards]


def test_nothing_else_calls_numpy_2_s_bitwise_count() -> None:
    """Product and tests alike run on numpy 1.24 on a 32-bit Pi: two tests that called
    ``np.bitwise_count`` failed there while the product passed."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    allowed = root / "morris" / "engine" / "encoding.py"
    callers = [
        str(path.relative_to(root))
        for folder in ("morris", "tests", "benchmarks", "tools")
        for path in (root / folder).rglob("*.py")
        if path != allowed and path != Path(__file__).resolve()
        and "np.bitwise_count" in path.read_text(encoding="utf-8")
    ]  # fmt: skip
    assert callers == []
