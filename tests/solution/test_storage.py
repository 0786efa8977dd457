"""The sector file: block-compressed sections, the header, the checksums that refuse a damaged
file, the old format refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from morris.cli import main
from morris.engine.result import result_of
from morris.engine.solution import Solution, SolutionError
from morris.engine.solution.blocks import Section, table_crc
from morris.engine.solution.sectors import SectorKey
from morris.engine.solution.storage import (
    FORMAT_VERSION,
    HEADER_SIZE,
    open_sector,
    read_info,
    unpack,
)
from morris.engine.solution.symmetry import SymmetricIndex, index_of_key
from morris.solver.solution.write import encode_section, finished, pack, write_sector

KEY = SectorKey(1, 1, 2, 2)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["uint8", "uint16"]),
    st.integers(1, 3000),
    st.integers(1, 700),
    st.integers(0, 2**32 - 1),
)
def test_a_section_round_trips_and_each_block_decodes_alone(
    dtype: str, entries: int, block: int, seed: int
) -> None:
    top = 3 if seed % 3 == 0 else np.iinfo(dtype).max + 1  # runs of few values, or noise
    values = np.random.default_rng(seed).integers(0, top, entries).astype(dtype)
    encoded = encode_section(values, block, 100)
    crc = table_crc(encoded, entries, block)
    raw = b"x" * 100 + encoded
    section = Section.open("s", memoryview(raw), 100, len(encoded), entries, block, dtype, crc)
    assert np.array_equal(section.decode_all(), values)
    for b in sorted({0, section.blocks - 1, seed % section.blocks}):
        assert np.array_equal(section.decode(b), values[b * block : (b + 1) * block])


def _codes(longest: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, longest + 1, SymmetricIndex(KEY.mover_on, KEY.other_on).size)
    return codes.astype(np.int64)


def _write(tmp_path: Path, longest: int = 30, **blocks: int) -> tuple[SectorKey, np.ndarray]:
    codes = _codes(longest)
    write_sector(tmp_path, KEY, codes, **blocks)
    return KEY, codes


def test_a_written_sector_reads_back_with_its_header(tmp_path: Path) -> None:
    key, codes = _write(tmp_path)
    data = open_sector(tmp_path, key)
    assert np.array_equal(data.dist, codes) and data.dist.dtype == np.uint8
    info = read_info(tmp_path / key.filename)
    assert info.key == key and info.entries == codes.size and info.placements == 24 * 23
    assert info.won + info.drawn + info.lost == 24 * 23
    assert info.codec == "zstd-12" and info.nbytes == (tmp_path / key.filename).stat().st_size
    head = (tmp_path / key.filename).read_bytes()[:HEADER_SIZE]
    assert f'"format": {FORMAT_VERSION}'.encode() in head and b'"flying": true' in head
    assert np.array_equal(data.wdl == 1, codes == 0)  # draws
    assert np.array_equal(data.wdl == 0, codes % 2 == 1)  # losses: even distances
    assert np.array_equal(data.wdl == 2, (codes > 0) & (codes % 2 == 0))


@pytest.mark.parametrize("longest", [200, 700])
def test_the_probe_reads_every_entry_through_its_block(tmp_path: Path, longest: int) -> None:
    key, codes = _write(tmp_path, longest, wdl_block=64, dist_block=32)
    assert open_sector(tmp_path, key).dist.dtype == (np.uint8 if longest < 256 else np.uint16)
    solution = Solution.load(tmp_path, cache_bytes=256)  # a cache of a few blocks
    movers, others = index_of_key(key).decode(np.arange(codes.size))
    for i in np.random.default_rng(2).permutation(codes.size)[:300]:
        mover, other = int(movers[i]), int(others[i])
        assert solution.probe_key(key, mover, other) == result_of(int(codes[i]))
        assert solution.probe_wdl(key, mover, other) is result_of(int(codes[i])).value


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_the_values_of_any_range_come_from_its_blocks(
    tmp_path_factory: pytest.TempPathFactory, a: int, b: int
) -> None:
    directory = tmp_path_factory.mktemp("between")
    key, _ = _write(directory, 700, wdl_block=16, dist_block=8)  # 64 entries a block of values
    data = open_sector(directory, key)
    size = data.info.entries
    start, stop = sorted((a % (size + 1), b % (size + 1)))
    assert np.array_equal(data.wdl_between(start, stop), data.wdl[start:stop])
    with pytest.raises(ValueError, match=rf"entries 0\.\.{size + 1} outside 0\.\.{size}"):
        data.wdl_between(0, size + 1)


def test_the_probes_cache_is_bounded_by_its_bytes(tmp_path: Path) -> None:
    key, codes = _write(tmp_path, 700, wdl_block=16, dist_block=8)  # 16-byte blocks
    solution = Solution.load(tmp_path, cache_bytes=16 * 5)
    assert solution.cache_blocks == 5
    movers, others = index_of_key(key).decode(np.arange(codes.size))
    for mover, other in zip(movers.tolist(), others.tolist(), strict=True):
        solution.probe_key(key, mover, other)
        solution.probe_wdl(key, mover, other)
        assert solution.cached_blocks <= 5
    assert solution.cached_blocks == 5


def test_the_same_codes_give_the_same_bytes(tmp_path: Path) -> None:
    codes = _codes(700)
    for name, array in (("a", codes), ("b", codes.astype(np.uint16))):
        (tmp_path / name).mkdir()
        write_sector(tmp_path / name, KEY, array)
    assert (tmp_path / "a" / KEY.filename).read_bytes() == (
        tmp_path / "b" / KEY.filename
    ).read_bytes()


def test_a_damaged_file_is_refused_and_removed_for_rebuilding(tmp_path: Path) -> None:
    key, _ = _write(tmp_path)
    path = tmp_path / key.filename
    raw = bytearray(path.read_bytes())
    raw[-10] ^= 0x40
    path.write_bytes(bytes(raw))
    with pytest.raises(SolutionError, match="checksum mismatch"):
        open_sector(tmp_path, key)
    assert finished(tmp_path, key) is None
    assert not path.exists()


@settings(max_examples=40, deadline=None)
@given(st.floats(0, 1, exclude_max=True), st.integers(0, 7))
def test_a_flipped_byte_anywhere_after_the_header_is_caught(
    tmp_path_factory: pytest.TempPathFactory, where: float, bit: int
) -> None:
    tmp_path = tmp_path_factory.mktemp("flip")
    key, _ = _write(tmp_path, 700, wdl_block=64, dist_block=32)
    path = tmp_path / key.filename
    raw = bytearray(path.read_bytes())
    raw[HEADER_SIZE + int(where * (len(raw) - HEADER_SIZE))] ^= 1 << bit
    path.write_bytes(bytes(raw))
    with pytest.raises(SolutionError, match="checksum mismatch"):
        open_sector(tmp_path, key)
    # Not checked at load (as the daemon loads): the block or its table refuses it when read.
    with pytest.raises(SolutionError, match=f"{key.filename}.*(block|table)"):
        data = open_sector(tmp_path, key, check=False)
        assert data.wdl.size and data.dist.size
    shutil.rmtree(tmp_path)


def test_a_damaged_block_is_refused_by_the_probe_naming_the_file(tmp_path: Path) -> None:
    key, _ = _write(tmp_path)
    path = tmp_path / key.filename
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 0x01  # the last distance block
    path.write_bytes(bytes(raw))
    solution = Solution.load(tmp_path, check=False)
    movers, others = index_of_key(key).decode(np.array([index_of_key(key).size - 1]))
    with pytest.raises(SolutionError, match=f"{key.filename} \\(distances\\): block 0 damaged"):
        solution.probe_key(key, int(movers[0]), int(others[0]))


def test_a_missing_or_truncated_block_table_is_refused(tmp_path: Path) -> None:
    key, _ = _write(tmp_path)
    path = tmp_path / key.filename
    good = path.read_bytes()
    path.write_bytes(good[:HEADER_SIZE] + bytes(16) + good[HEADER_SIZE + 16 :])
    with pytest.raises(SolutionError, match="block table damaged"):
        open_sector(tmp_path, key, check=False)
    path.write_bytes(good[:HEADER_SIZE])
    with pytest.raises(SolutionError, match="its header says"):
        open_sector(tmp_path, key, check=False)
    assert finished(tmp_path, key) is None and not path.exists()


def test_a_file_of_the_old_format_is_refused_with_rebuild(tmp_path: Path) -> None:
    key, _ = _write(tmp_path)
    path = tmp_path / key.filename
    raw = path.read_bytes()
    head = raw[:HEADER_SIZE].replace(f'"format": {FORMAT_VERSION}'.encode(), b'"format": 1')
    path.write_bytes(head + raw[HEADER_SIZE:])
    with pytest.raises(SolutionError, match=r"format 1 is old.*rebuild it"):
        open_sector(tmp_path, key)
    assert finished(tmp_path, key) is None and not path.exists()  # the build solves it again


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


def test_info_prints_each_sectors_bytes_on_disk_and_the_sum(
    solved3: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tables", "info", "--men", "3", "--dir", str(solved3)]) == 0
    out = capsys.readouterr().out
    sizes = {p.name: p.stat().st_size for p in solved3.glob("sector-*.msol")}
    rows = [line.split() for line in out.splitlines() if line[:1] == " " and "," in line]
    assert rows and all(int(r[-1].replace(",", "")) in sizes.values() for r in rows)
    moving = next(r for r in rows if r[:5] == ["3", "3", "0", "0", "white"])
    assert int(moving[-1].replace(",", "")) == sizes["sector-3-3-0-0.msol"]
    assert f"{sum(sizes.values()):,} bytes on disk" in out.replace("\n", " ")


@given(st.lists(st.integers(0, 2), max_size=41))
def test_two_bit_values_round_trip(values: list[int]) -> None:
    array = np.array(values, dtype=np.uint8)
    packed = pack(array)
    assert packed.size == (len(values) + 3) // 4
    assert unpack(packed, len(values)).tolist() == values


def test_a_file_written_at_another_zstd_level_is_read_and_another_codec_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    import morris.solver.solution.write as write

    # What earlier builds wrote: level 19. It is read as it is, never rebuilt.
    monkeypatch.setattr(write, "LEVEL", 19)
    key, codes = _write(tmp_path)
    monkeypatch.undo()
    path = tmp_path / key.filename
    info = finished(tmp_path, key)
    assert info is not None and info.codec == "zstd-19"
    assert np.array_equal(open_sector(tmp_path, key).dist, codes)
    # A codec this version does not read: refused, named, and removed to be rebuilt.
    raw = path.read_bytes()
    header = raw[:HEADER_SIZE].rstrip(b" ")
    data = json.loads(header.removeprefix(b"MORRIS-SOLUTION\n"))
    data["codec"] = "lz4-1"
    text = b"MORRIS-SOLUTION\n" + json.dumps(data, sort_keys=True).encode()
    path.write_bytes(text.ljust(HEADER_SIZE, b" ") + raw[HEADER_SIZE:])
    with pytest.raises(SolutionError, match="unknown codec lz4-1"):
        open_sector(tmp_path, key)
    assert finished(tmp_path, key) is None and not path.exists()
