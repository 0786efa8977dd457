"""The C search's own reader of the solved game's sectors (``morris/engine/native/sectors.c``,
``search.native_sectors``): the same answer as the solution's probe for every position, a block
fetched once while the cache holds it, a damaged block dropped as the probe drops it, and shapes
or blocks that do not fit refused with a message naming them."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from morris.engine.result import Value
from morris.engine.search import NATIVE_AVAILABLE, native_sectors
from morris.engine.solution import Solution
from morris.engine.solution.sectors import SectorKey
from morris.engine.solution.symmetry import IMAGES
from tests.solution.damage_kit import spoil_sector

pytestmark = pytest.mark.skipif(not NATIVE_AVAILABLE, reason="the C search is not built")

if NATIVE_AVAILABLE:
    from morris.engine import _native


@pytest.fixture(scope="module")
def solution(solved4: Path) -> Solution:
    return Solution.load(solved4, 4)


def stored_code(solution: Solution, mover: int, other: int) -> int | None:
    """The distance code the solution's own probe reads (distance + 1, 0 a draw)."""
    result = solution.probe_moving(mover, other)
    if result is None:
        return None
    return 0 if result.value is Value.DRAW else (result.distance or 0) + 1


def moving_keys(solution: Solution) -> list[SectorKey]:
    return [k for k in solution.keys if not k.placing]


def placed(points: np.ndarray, mover: int, other: int) -> tuple[int, int]:
    """Bitboards of the first ``mover`` points of a permutation and the ``other`` after them."""
    bits = [1 << int(p) for p in points[: mover + other]]
    return sum(bits[:mover]), sum(bits[mover:])


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_every_position_reads_as_the_solutions_probe_reads_it(
    solution: Solution, data: st.DataObject
) -> None:
    """Any placement of the pieces of any moving-phase sector, in any of the board's symmetric
    forms: the C index and block give the stored code the Python probe gives."""
    sectors = native_sectors(solution)
    key = data.draw(st.sampled_from(moving_keys(solution)))
    points = data.draw(st.permutations(range(24)))
    mover = sum(1 << p for p in points[: key.mover_on])
    other = sum(1 << p for p in points[key.mover_on : key.mover_on + key.other_on])
    assert sectors.code(mover, other) == stored_code(solution, mover, other)


def test_every_moving_sector_is_read_and_its_results_are_mixed(solution: Solution) -> None:
    """Seeded positions of each moving-phase sector of 4 men's morris: every one is answered,
    as the probe answers it, and the answers are wins, draws and losses, not one value."""
    sectors = native_sectors(solution)
    rng = np.random.default_rng(34)
    codes = []
    for key in moving_keys(solution):
        for _ in range(300):
            mover, other = placed(rng.permutation(24), key.mover_on, key.other_on)
            code = sectors.code(mover, other)
            assert code is not None and code == stored_code(solution, mover, other)
            codes.append(code)
    assert len(moving_keys(solution)) >= 4  # 3v3, 3v4, 4v3, 4v4
    assert 0 in codes  # draws
    assert any(c % 2 == 0 and c > 0 for c in codes)  # wins: odd distances, even codes
    assert any(c % 2 == 1 for c in codes)  # losses


def test_a_position_of_no_sector_is_not_answered(solution: Solution) -> None:
    """Pieces of no loaded sector (5 v 3 in 4 men's morris) or overlapping sets: None."""
    sectors = native_sectors(solution)
    assert sectors.code(0b11111, 0b111 << 8) is None
    assert sectors.code(0b1111, 0b1111) is None
    assert sectors.probes == 0


def test_a_block_is_fetched_once_while_the_cache_holds_it(
    solution: Solution, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Positions read again are answered from the cache, without asking the solution; a cache
    of one set of slots still answers every position right, fetching again as it must."""
    fetched: list[tuple[SectorKey, int]] = []
    block = solution.distance_block

    def counted(key: SectorKey, b: int) -> object:
        fetched.append((key, b))
        return block(key, b)

    monkeypatch.setattr(solution, "distance_block", counted)
    rng = np.random.default_rng(7)
    positions = [placed(rng.permutation(24), 4, 4) for _ in range(200)]  # 4 v 4
    sectors = native_sectors(solution)
    first = [sectors.code(m, o) for m, o in positions]
    assert len(fetched) == sectors.misses > 0
    assert sectors.cached() == sectors.misses  # the cache (8 MB) holds every block read
    assert [sectors.code(m, o) for m, o in positions] == first
    assert len(fetched) == sectors.misses  # nothing fetched the second time
    assert sectors.probes == 2 * len(positions)
    small = native_sectors(solution, cache_bytes=1)  # one set of four slots
    assert [small.code(m, o) for m, o in positions] == first
    assert small.cached() <= 4
    assert small.misses > sectors.misses


def test_a_damaged_block_drops_the_sector_as_the_probe_would(
    solved3: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A card gone bad under the daemon: the first read into the damaged sector takes its file
    out of the solution (one warning naming it), the reader answers None there from then on
    and does not ask again; the other sectors still answer."""
    copy = tmp_path / "solution"
    shutil.copytree(solved3, copy)
    solution = Solution.load(copy, 3, check=False)
    sectors = native_sectors(solution)
    spoil_sector(copy, SectorKey(3, 3, 0, 0))
    mover, other = 0b111, 0b111 << 8
    with caplog.at_level(logging.WARNING):
        assert sectors.code(mover, other) is None
    assert not solution.covers(SectorKey(3, 3, 0, 0))
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and SectorKey(3, 3, 0, 0).filename in warnings[0]
    misses = sectors.misses
    assert sectors.code(0b111 << 1, other) is None
    assert sectors.misses == misses  # the dropped sector is not asked again


def shapes(solution: Solution) -> list[tuple[int, int, bytes, int, int, int, int]]:
    """The shapes native_sectors gives, rebuilt here to spoil one of them."""
    from morris.engine.solution.symmetry import index_of_key, representatives

    out = []
    for key in moving_keys(solution):
        section = solution.data(key).dist_section
        out.append(
            (
                key.mover_on,
                key.other_on,
                representatives(key.mover_on).astype("=u4").tobytes(),
                index_of_key(key).block,
                section.entries,
                section.block,
                section.dtype.itemsize,
            )
        )
    return out


def test_shapes_and_blocks_that_do_not_fit_are_refused(solution: Solution) -> None:
    """Wrong symmetry tables, a sector whose size is not its index's, a block of the wrong
    length from the host: errors naming what is wrong, never a crash or a wrong answer."""
    images = IMAGES.astype("=u4").tobytes()
    good = shapes(solution)

    def fetch(i: int, b: int) -> object:
        return solution.distance_block(moving_keys(solution)[i], b)

    with pytest.raises(ValueError, match="images"):
        _native.Sectors(images=images[:-4], sectors=good, fetch=fetch, cache_bytes=1 << 20)
    m, o, reps, per_rep, entries, block, itemsize = good[0]
    for spoilt, words in (
        ((m, o, reps, per_rep + 1, entries, block, itemsize), "C\\(24 - mover, other\\)"),
        ((m, o, reps, per_rep, entries - 1, block, itemsize), "canonical sets"),
        ((m, o, reps, per_rep, entries, block, 3), "1 or 2 bytes"),
        ((m, 22, reps, per_rep, entries, block, itemsize), "more pieces than the board"),
    ):
        with pytest.raises(ValueError, match=words):
            _native.Sectors(
                images=images, sectors=[spoilt, *good[1:]], fetch=fetch, cache_bytes=1 << 20
            )
    with pytest.raises(TypeError, match="fetch"):
        _native.Sectors(images=images, sectors=good, fetch=None, cache_bytes=1 << 20)
    short = _native.Sectors(
        images=images, sectors=good, fetch=lambda i, b: b"\0" * 5, cache_bytes=1 << 20
    )
    with pytest.raises(ValueError, match="5 bytes"):
        short.code(0b111, 0b111 << 8)
    with pytest.raises(ValueError, match="not a position"):
        short.code(1 << 24, 0)
