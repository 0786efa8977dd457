"""The sector file: 2-bit packing, the header, the checksum that refuses a damaged file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from morris.engine.solution import SolutionError
from morris.engine.solution.sectors import SectorKey
from morris.engine.solution.storage import (
    FORMAT_VERSION,
    finished,
    open_sector,
    pack,
    read_info,
    unpack,
    write_sector,
)
from morris.engine.solution.symmetry import SymmetricIndex


@given(st.lists(st.integers(0, 2), max_size=41))
def test_two_bit_values_round_trip(values: list[int]) -> None:
    array = np.array(values, dtype=np.uint8)
    packed = pack(array)
    assert len(packed) == (len(values) + 3) // 4
    assert unpack(packed, len(values)).tolist() == values


def _write(tmp_path: Path) -> tuple[SectorKey, np.ndarray]:
    key = SectorKey(1, 1, 2, 2)
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 30, SymmetricIndex(1, 1).size).astype(np.uint8)
    write_sector(tmp_path, key, codes)
    return key, codes


def test_a_written_sector_reads_back_with_its_header(tmp_path: Path) -> None:
    key, codes = _write(tmp_path)
    data = open_sector(tmp_path, key)
    assert np.array_equal(data.dist, codes)
    info = read_info(tmp_path / key.filename)
    assert info.key == key and info.entries == codes.size and info.placements == 24 * 23
    assert info.won + info.drawn + info.lost == 24 * 23
    head = (tmp_path / key.filename).read_bytes()[:4096]
    assert f'"format": {FORMAT_VERSION}'.encode() in head and b'"flying": true' in head
    wdl = unpack(data.wdl, codes.size)
    assert np.array_equal(wdl == 1, codes == 0)  # draws
    assert np.array_equal(wdl == 0, codes % 2 == 1)  # losses: even distances


def test_a_damaged_file_is_refused_and_removed_for_rebuilding(tmp_path: Path) -> None:
    key, _ = _write(tmp_path)
    path = tmp_path / key.filename
    raw = bytearray(path.read_bytes())
    raw[5000] ^= 0x40
    path.write_bytes(bytes(raw))
    with pytest.raises(SolutionError, match="checksum mismatch"):
        open_sector(tmp_path, key)
    assert finished(tmp_path, key) is None
    assert not path.exists()


def test_a_truncated_or_foreign_file_is_refused(tmp_path: Path) -> None:
    key, _ = _write(tmp_path)
    path = tmp_path / key.filename
    path.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(SolutionError, match="its header says"):
        open_sector(tmp_path, key)
    path.write_bytes(b"hello")
    with pytest.raises(SolutionError, match="not a solution sector file"):
        open_sector(tmp_path, key)
    with pytest.raises(SolutionError, match="not built"):
        open_sector(tmp_path, SectorKey(3, 3, 0, 0))
