"""The solved game's size on disk: per sector raw and block-compressed bytes of the win/draw/loss
values and of the distances, the ratio by kind of sector, probe times, the codec and block size
compared, and an extrapolation to the whole of nine men's morris.

    python benchmarks/bench_solution_size.py [--men 3 4] [--dir DIR] [--probes N] [--codecs]

Without ``--dir`` it builds the solution of each ``--men`` in a temporary directory (one local
Dask worker); with ``--dir`` it reads the sectors there (a directory holding the sectors of 5
men's morris gives the figures of 5 too). "Raw" is what the sections would take uncompressed:
2 bits an entry for the values, one code (uint8, or uint16 past distance 254) for the distances.

The extrapolation to k = 9 weighs the bits an entry measured on the largest k given, by kind
(placing or moving phase, over all its sectors, so the largest sectors weigh most), with the
entries nine men's morris has of each kind; and, as a pessimistic bound, the worst bits an entry
of any sector of at least 100,000 entries applied to every entry of k = 9. Both assume k = 9's
sectors compress like the smaller games' (their share of draws, their runs): the smaller games
are mostly draws, k = 9's moving sectors have more decided positions, so the first figure is the
likely one only if that holds; the second shows what the most decided sector measured would give.
"""

from __future__ import annotations

import argparse
import lzma
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import zstandard

from morris.engine.solution import Solution, sector_keys
from morris.engine.solution.blocks import DIST_BLOCK, LEVEL, WDL_BLOCK, Section
from morris.engine.solution.sectors import SectorKey
from morris.engine.solution.storage import DRAW
from morris.engine.solution.symmetry import index_of_key
from morris.solver.solution import build_solution
from morris.solver.solution.write import pack

PROBES_PER_SECTOR = 2_000
CODEC_SAMPLE = 1 << 21  # entries of each sector the codecs are compared on (its start)
PI_SLOWER = (8, 10)  # a Pi Zero 2 W runs this kind of Python 8 to 10 times slower
TARGET_GB = 2.2


@dataclass(frozen=True)
class Row:
    """One sector's sizes."""

    key: SectorKey
    entries: int
    drawn: float  # fraction of entries
    entropy: float  # order-0 entropy of the values, bits an entry
    wdl_raw: int
    wdl: int
    dist_raw: int
    dist: int

    @property
    def kind(self) -> str:
        """placing or moving."""
        return "placing" if self.key.placing else "moving"


def rows_of(solution: Solution) -> list[Row]:
    """Every loaded sector's sizes."""
    out = []
    for key in solution.keys:
        info = solution.info(key)
        shares = value_counts(solution, key) / max(1, info.entries)
        drawn = float(shares[DRAW])
        entropy = abs(float(-sum(p * np.log2(p) for p in shares if p > 0)))
        itemsize = np.dtype(info.dist_dtype).itemsize
        out.append(
            Row(key, info.entries, drawn, entropy, -(-info.entries // 4), info.wdl_bytes,
                info.entries * itemsize, info.dist_bytes)
        )  # fmt: skip
    return out


#: Entries whose values are counted at a time: the values of a 9-men sector decoded whole would
#: take up to 1 GB each, and held for every sector (``SectorData.wdl`` keeps them) tens of GB.
COUNT_STEP = 1 << 22


def value_counts(solution: Solution, key: SectorKey) -> np.ndarray[Any, np.dtype[np.int64]]:
    """How many of a sector's entries are lost, drawn and won, read a few blocks at a time."""
    data = solution.data(key)
    entries = data.info.entries
    counts = np.zeros(3, dtype=np.int64)
    for start in range(0, entries, COUNT_STEP):
        part = data.wdl_between(start, min(entries, start + COUNT_STEP))
        counts += np.bincount(part, minlength=3)[:3]
    return counts


def _first_entries(solution: Solution, key: SectorKey, dist: bool) -> np.ndarray[Any, Any]:
    """The values (or distance codes) of a sector's first :data:`CODEC_SAMPLE` entries, from
    the blocks that hold them only."""
    data = solution.data(key)
    count = min(CODEC_SAMPLE, data.info.entries)
    if not dist:
        return data.wdl_between(0, count)
    section = data.dist_section
    blocks = [section.decode(b) for b in range(-(-count // section.block))]
    return np.concatenate(blocks)[:count]


def _band(drawn: float) -> str:
    if drawn >= 0.999:
        return "all drawn"
    if drawn >= 0.9:
        return ">= 90 % drawn"
    if drawn >= 0.5:
        return "50-90 % drawn"
    return "< 50 % drawn"


def print_rows(men: int, rows: list[Row]) -> None:
    """The per-sector table and the sums by kind and share of draws."""
    print(f"\n{men} men's morris: {len(rows)} sectors")
    print(
        f"{'sector':<16} {'kind':<7} {'entries':>11} {'drawn':>6} {'H':>5} {'wdl raw':>10}"
        f" {'wdl':>9}"
        f" {'ratio':>6} {'dist raw':>11} {'dist':>9} {'ratio':>6}"
    )
    for r in sorted(rows, key=lambda r: -r.entries):
        print(
            f"{r.key.name:<16} {r.kind:<7} {r.entries:>11,} {r.drawn:>6.1%} {r.entropy:>5.2f}"
            f" {r.wdl_raw:>10,}"
            f" {r.wdl:>9,} {r.wdl_raw / r.wdl:>6.1f} {r.dist_raw:>11,} {r.dist:>9,}"
            f" {r.dist_raw / r.dist:>6.1f}"
        )
    groups: dict[str, list[Row]] = {}
    for r in rows:
        groups.setdefault(r.kind, []).append(r)
        groups.setdefault(f"{r.kind}, {_band(r.drawn)}", []).append(r)
    groups["all"] = rows
    print(f"{'group':<28} {'sectors':>7} {'entries':>12} {'wdl ratio':>9} {'bits/entry':>10}"
          f" {'dist ratio':>10} {'bits/entry':>10} {'on disk':>12}")  # fmt: skip
    for name in sorted(groups, key=lambda g: (g == "all", g)):
        g = groups[name]
        entries = sum(r.entries for r in g)
        wdl, dist = sum(r.wdl for r in g), sum(r.dist for r in g)
        print(
            f"{name:<28} {len(g):>7} {entries:>12,} {sum(r.wdl_raw for r in g) / wdl:>9.1f}"
            f" {8 * wdl / entries:>10.3f} {sum(r.dist_raw for r in g) / dist:>10.1f}"
            f" {8 * dist / entries:>10.3f} {wdl + dist + 4096 * len(g):>12,}"
        )


def extrapolate(rows: list[Row], men: int) -> None:
    """The k = 9 sizes from the bits an entry of ``rows`` (the sectors of ``men``)."""
    entries9: dict[str, int] = {"placing": 0, "moving": 0}
    for key in sector_keys(9):
        entries9["placing" if key.placing else "moving"] += index_of_key(key).size
    total9 = sum(entries9.values())
    print(f"\nk = 9 from the ratios of k = {men}: {total9:,} entries "
          f"({entries9['moving']:,} moving, {entries9['placing']:,} placing); "
          f"raw {total9 / 4e9:.2f} GB win/draw/loss")  # fmt: skip
    for section in ("wdl", "dist"):
        by_kind = 0.0
        for kind, n in entries9.items():
            g = [r for r in rows if r.kind == kind]
            bits = 8 * sum(getattr(r, section) for r in g) / sum(r.entries for r in g)
            by_kind += bits * n / 8
            print(f"  {section:<4} {kind:<7}: {bits:.3f} bits an entry -> {bits * n / 8e9:.2f} GB")
        big = [r for r in rows if r.entries >= 100_000] or rows
        worst = max(big, key=lambda r: getattr(r, section) / r.entries)
        worst_bits = 8 * getattr(worst, section) / worst.entries
        print(f"  {section:<4} by kind: {by_kind / 1e9:.2f} GB; with the worst large sector's "
              f"{worst_bits:.3f} bits an entry ({worst.key.name}, {worst.drawn:.0%} drawn) "
              f"everywhere: {worst_bits * total9 / 8e9:.2f} GB")  # fmt: skip
    target_bits = 8 * TARGET_GB * 1e9 / total9
    print(f"  target for win/draw/loss: {TARGET_GB} GB ({target_bits:.2f} bits an entry)")
    # The compressed bits over the values' order-0 entropy, on the sectors whose values are
    # mixed enough (H >= 0.3) that the blocks' fixed costs do not decide it.
    mixed = [r for r in rows if r.entropy >= 0.3 and r.entries >= 10_000]
    if mixed:
        worst = max(mixed, key=lambda r: 8 * r.wdl / (r.entropy * r.entries))
        factor = 8 * worst.wdl / (worst.entropy * worst.entries)
        mean = sum(r.entropy * r.entries for r in rows) / sum(r.entries for r in rows)
        print(
            f"  the values take at most {factor:.2f} x their order-0 entropy ({worst.key.name}, "
            f"of the {len(mixed)} sectors with H >= 0.3 bits): k = 9 meets {TARGET_GB} GB if its "
            f"values average at most {target_bits / factor:.2f} bits of entropy an entry "
            f"(k = {men}: {mean:.2f}; at most log2(3) = 1.58)"
        )


def _positions(solution: Solution, rng: np.random.Generator) -> list[tuple[SectorKey, int, int]]:
    out: list[tuple[SectorKey, int, int]] = []
    for key in solution.keys:
        index = index_of_key(key)
        picked = rng.integers(0, index.size, min(PROBES_PER_SECTOR, index.size))
        movers, others = index.decode(picked.astype(np.int64))
        out.extend((key, int(m), int(o)) for m, o in zip(movers, others, strict=True))
    order = rng.permutation(len(out))
    return [out[i] for i in order]


def _time(probe: Callable[[SectorKey, int, int], Any], positions: list[Any]) -> float:
    # CPU time of this thread: the machine is shared, and wall time counts the others' work.
    t0 = time.thread_time()
    for key, mover, other in positions:
        probe(key, mover, other)
    return (time.thread_time() - t0) / len(positions) * 1e6


def probe_times(directory: Path, men: int) -> None:
    """CPU microseconds a probe, random positions of every sector, first read and read again."""
    rng = np.random.default_rng(men)
    solution = Solution.load(directory, men, check=False)
    positions = _positions(solution, rng)
    print(f"\nprobe, {len(positions):,} random positions over every sector of {men} men's morris:")
    for name in ("probe_wdl", "probe_key"):
        fresh = Solution.load(directory, men, check=False)
        cold = _time(getattr(fresh, name), positions)
        warm = _time(getattr(fresh, name), positions)
        what = "value" if name == "probe_wdl" else "value+distance"
        print(f"  {what:<15} {cold:6.1f} us first read, {warm:6.1f} us again (cache of "
              f"{fresh.cache_blocks} blocks); a Pi Zero 2 W: about {cold * PI_SLOWER[0] / 1000:.2f}"
              f" to {cold * PI_SLOWER[1] / 1000:.2f} ms")  # fmt: skip
    # Every probe a miss: a cache of one block.
    for name in ("probe_wdl", "probe_key"):
        what = "value" if name == "probe_wdl" else "value+distance"
        miss = _time(getattr(Solution.load(directory, men, check=False, cache_bytes=1), name),
                     positions)  # fmt: skip
        print(
            f"  {what:<15} {miss:6.1f} us with every block decompressed (a Pi: about "
            f"{miss * PI_SLOWER[0] / 1000:.2f} to {miss * PI_SLOWER[1] / 1000:.2f} ms)"
        )
    rows = rows_of(solution)
    largest = max(rows, key=lambda r: r.entries)
    decided = max(rows, key=lambda r: r.entropy * min(r.entries, 100_000))
    for row in dict.fromkeys([largest, decided]):
        for section in solution.data(row.key).sections:
            each = min(_decode_time(section) for _ in range(3))
            print(
                f"  one block of {row.key.name} ({section.name.rsplit('(')[-1][:-1]}, "
                f"{section.block * section.dtype.itemsize:,} bytes uncompressed, "
                f"H {row.entropy:.2f}): {each:.1f} us to decompress"
            )


def _decode_time(section: Section) -> float:
    blocks = range(min(section.blocks, 64))
    t0 = time.thread_time()
    for b in blocks:
        section.decode(b)
    return (time.thread_time() - t0) / len(blocks) * 1e6


def _lzma(data: bytes) -> bytes:
    return lzma.compress(data, format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2}])


def _unlzma(data: bytes) -> bytes:
    return lzma.decompress(data, format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2}])


def compare_codecs(solution: Solution) -> None:
    """zlib, lzma and zstd at three block sizes on the largest sectors and the most decided one."""
    zc = zstandard.ZstdCompressor(level=19, write_content_size=False)
    zd = zstandard.ZstdDecompressor()
    codecs: dict[str, tuple[Callable[[bytes], bytes], Callable[[bytes], bytes]]] = {
        "zlib-9": (lambda b: zlib.compress(b, 9), zlib.decompress),
        "lzma-6": (_lzma, _unlzma),
        "zstd-19": (zc.compress, lambda b: zd.decompress(b, max_output_size=1 << 20)),
    }
    rows = rows_of(solution)
    big = sorted(rows, key=lambda r: -r.entries)[:3]
    decided = min((r for r in rows if r.entries >= 100_000), key=lambda r: r.drawn, default=None)
    picked = big + ([decided] if decided and decided not in big else [])
    names = ", ".join(r.key.name for r in picked)
    print(f"\ncodecs, blocks compressed one by one, the first {CODEC_SAMPLE:,} entries of {names}:")
    print(f"{'section':<12} {'entries/block':>13} {'codec':<8} {'bytes':>10} {'us/block':>9}")
    for section in ("wdl 1-byte", "wdl 2-bit", "dist"):
        for block in (4096, 16384, 65536):
            for name, (compress, decompress) in codecs.items():
                size, seconds, count = 0, 0.0, 0
                for r in picked:
                    array = _first_entries(solution, r.key, section == "dist")
                    raw = (array if section != "wdl 2-bit" else pack(array)).tobytes()
                    step = block * array.itemsize if section != "wdl 2-bit" else block // 4
                    for i in range(0, len(raw), step):
                        frame = compress(raw[i : i + step])
                        size += len(frame)
                        t0 = time.thread_time()
                        decompress(frame)
                        seconds += time.thread_time() - t0
                        count += 1
                print(f"{section:<12} {block:>13,} {name:<8} {size:>10,} "
                      f"{seconds / count * 1e6:>9.1f}")  # fmt: skip
    print(f"(stored: zstd-{LEVEL}, {WDL_BLOCK:,} entries a values block, 2 bits each, "
          f"{DIST_BLOCK:,} a distances block)")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--men", type=int, nargs="+", default=[3, 4])
    parser.add_argument("--dir", type=Path, help="a solution directory (else built in a temp)")
    parser.add_argument("--codecs", action="store_true", help="compare codecs and block sizes")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.dir or Path(tmp)
        rows: list[Row] = []
        for men in sorted(args.men):
            if args.dir is None:
                build_solution(directory, men, workers=1)
            solution = Solution.load(directory, men, check=False)
            rows = rows_of(solution)
            print_rows(men, rows)
            probe_times(directory, men)
        extrapolate(rows, max(args.men))
        if args.codecs:
            compare_codecs(Solution.load(directory, max(args.men), check=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
