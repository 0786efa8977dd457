"""The placing sectors' Bellman step in C (morris.solver.solution._retro.Placing): the codes of
the numpy step it replaces (turns.expected_codes), for every placing sector of 4 men's morris and
over ranges that start and stop anywhere; bad input refused with a message naming it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from morris.core.points import MILL_MASKS, NEIGHBOURS, NUM_POINTS
from morris.engine.solution import SectorKey, Solution, sector_keys
from morris.engine.solution.sectors import Unit
from morris.engine.solution.symmetry import IMAGES, index_of_key, representatives
from morris.solver.solution._retro import Placing
from morris.solver.solution.ranges import Range, _native_placing, solve_range
from morris.solver.solution.turns import expected_codes

PLACING4 = [k for k in sector_keys(4) if k.placing]


@pytest.mark.realtime
@pytest.mark.slow
@pytest.mark.parametrize("key", PLACING4, ids=lambda k: k.name)
def test_every_code_of_every_placing_sector_is_the_numpy_steps(
    solved4: Path, key: SectorKey
) -> None:
    solution = Solution.load(solved4, 4)
    solved = {d: solution.data(d).dist for d in Unit((key,)).dependencies()}
    size = index_of_key(key).size
    want = expected_codes(key, np.arange(size, dtype=np.int64), solved)
    got = solve_range(Range(key, 0, size), solved)  # the C step: the extension is built
    assert got.dtype == np.uint16
    assert np.array_equal(got, want)
    assert np.array_equal(got, solution.data(key).dist)  # what the fixture's build stored


@pytest.mark.realtime
@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PLACING4), st.floats(0, 1), st.floats(0, 1))
def test_a_range_anywhere_has_the_sectors_codes(
    solved4: Path, key: SectorKey, a: float, b: float
) -> None:
    solution = Solution.load(solved4, 4)
    solved = {d: solution.data(d).dist for d in Unit((key,)).dependencies()}
    size = index_of_key(key).size
    start, stop = sorted((int(a * size), int(b * size)))
    out = np.full(stop - start, 0xFFFF, dtype=np.uint16)
    placing = _native_placing(key, solved)
    assert placing is not None  # the extension is built
    placing.solve(start, stop, out)
    assert np.array_equal(out, np.asarray(solution.data(key).dist)[start:stop])


def _placing(**change: object) -> Placing:
    """The C step of 1v1 h3/3 (placements to 1v2 h2/2, no mill possible yet), one argument
    replaced."""
    args: dict[str, object] = {
        "mover": 1,
        "other": 1,
        "wins_at_once": False,
        "images": IMAGES,
        "neighbours": np.array(NEIGHBOURS, dtype=np.uint32),
        "mill_masks": np.array(MILL_MASKS, dtype=np.uint32),
        "representatives": [representatives(n) for n in range(NUM_POINTS + 1)],
        "quiet": np.zeros(index_of_key(SectorKey(1, 2, 2, 2)).size, np.uint8),
        "removal": np.zeros(index_of_key(SectorKey(0, 2, 2, 2)).size, np.uint8),
    }
    args.update(change)
    return Placing(**args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"mover": -1}, "a placing sector of -1v1 on the board does not exist"),
        ({"mover": 12, "other": 12}, "a placing sector of 12v12"),
        ({"quiet": np.zeros(5, np.uint8)}, r"quiet \(1v2\): 5 items, not \d+"),
        ({"quiet": np.zeros(24 * 23 // 2, np.uint32)}, r"quiet \(1v2\): codes of 1 or 2 bytes"),
        ({"removal": None}, "removal: the codes of the sector a removal leads to are needed"),
        (
            {"other": 0, "quiet": np.zeros(276, np.uint8), "removal": np.zeros(3, np.uint8)},
            "removal: must be None",  # the other side has no piece on the board to remove
        ),
        ({"mill_masks": np.zeros(16, np.uint32)}, "mill_masks: mill 0 is not three points"),
        ({"images": np.zeros((16, 3, 256), np.uint32)}, "images: symmetry 0 moves point 0"),
    ],
)
def test_bad_input_is_refused_naming_it(change: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _placing(**change)


def test_a_range_outside_the_sector_or_a_wrong_out_array_is_refused() -> None:
    placing = _placing()
    size = index_of_key(SectorKey(1, 1, 3, 3)).size
    assert placing.size == size
    with pytest.raises(ValueError, match=rf"entries 0\.\.{size + 1} outside 0\.\.{size}"):
        placing.solve(0, size + 1, np.empty(size + 1, np.uint16))
    with pytest.raises(ValueError, match="out: 3 items of 2 bytes, not 4 of 2"):
        placing.solve(0, 4, np.empty(3, np.uint16))
    with pytest.raises(ValueError, match="out: not a contiguous writable buffer"):
        placing.solve(0, 4, b"12345678")
    # No mill can close with two pieces, so every turn is a placement to the quiet sector: where
    # each is lost for the other side (LOSS(0), code 1) every entry is a WIN(1) (code 2).
    won = _placing(quiet=np.ones(index_of_key(SectorKey(1, 2, 2, 2)).size, np.uint8))
    out = np.full(size, 7, np.uint16)
    won.solve(0, size, out)
    assert set(out.tolist()) == {2}
    placing.solve(0, size, out)  # every successor drawn (code 0): every entry drawn
    assert set(out.tolist()) == {0}


def test_entries_skipped_are_draws_and_the_others_are_solved_as_without_a_skip() -> None:
    size = index_of_key(SectorKey(1, 1, 3, 3)).size
    won = _placing(quiet=np.ones(index_of_key(SectorKey(1, 2, 2, 2)).size, np.uint8))
    skip = np.zeros(size, np.uint8)
    skip[::3] = 1
    out = np.full(size, 7, np.uint16)
    won.solve(0, size, out, skip)
    assert set(out[::3].tolist()) == {0}  # skipped: a draw, though the step would say won
    assert set(np.delete(out, np.s_[::3]).tolist()) == {2}
    part = np.full(10, 7, np.uint16)
    won.solve(5, 15, part, skip=skip[5:15].astype(np.bool_))  # bytes of any kind, by keyword
    assert np.array_equal(part, out[5:15])
    with pytest.raises(ValueError, match="skip: 3 items of 1 bytes, not 4 of 1"):
        won.solve(0, 4, np.empty(4, np.uint16), np.zeros(3, np.uint8))
    with pytest.raises(ValueError, match="skip: 4 items of 2 bytes, not 4 of 1"):
        won.solve(0, 4, np.empty(4, np.uint16), np.zeros(4, np.uint16))
