"""The perfect hash of a table: a position's index, by colex ranks of k-subsets of points.

Two layouts: the stored one (dense, ``rank(mover) * C(24 - m, o) + rank(compress(opponent))``,
what the files hold and the probe reads) and the wide one the build works in (both sides ranked
over all 24 points: twice as large, but an index is two lookups). No symmetry reduction: every
placement has its own entry. Vectorised with byte tables for popcount, pext and pdep.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from morris.core.points import ALL_POINTS, NUM_POINTS
from morris.engine.tables.keys import (
    I64,
    U32,
    TableKey,
)

#: Every point, as the bitboards of the arrays.
FULL: Final = np.uint32(ALL_POINTS)
_COMB: Final = tuple(tuple(math.comb(n, k) for k in range(NUM_POINTS + 2)) for n in range(25))


@cache
def _byte_tables() -> dict[str, U32]:
    """Lookup tables for popcount, pext and pdep, one byte at a time."""
    x = np.arange(256, dtype=np.uint32)
    pc8 = np.zeros(256, dtype=np.uint32)
    for b in range(8):
        pc8 += (x >> b) & 1
    mask = np.repeat(x, 256)  # entry mask * 256 + value
    val = np.tile(x, 256)
    pext = np.zeros(65536, dtype=np.uint32)
    pdep = np.zeros(65536, dtype=np.uint32)
    k = np.zeros(65536, dtype=np.uint32)
    for b in range(8):
        sel = (mask >> b) & 1
        pext |= ((val >> b) & 1 & sel) << k
        pdep |= ((val >> k) & 1 & sel) << b
        k += sel
    return {"pc8": pc8, "pext": pext, "pdep": pdep}


#: numpy 2's popcount, or None on numpy 1.x.
_BITWISE_COUNT: Final = getattr(np, "bitwise_count", None)


def popcount(bits: U32) -> U32:
    """The number of points set in each bitboard of ``bits`` (24-bit, as uint32).

    numpy 2's ``bitwise_count`` where there is one; numpy 1.24 (Debian bookworm's, which a 32-bit
    Raspberry Pi OS takes because PyPI has no armhf wheel) counts a byte at a time.

    >>> popcount(np.array([0, 1, 0b1011, ALL_POINTS], dtype=np.uint32)).tolist()
    [0, 1, 3, 24]
    """
    if _BITWISE_COUNT is not None:
        counted: U32 = _BITWISE_COUNT(bits).astype(np.uint32)
        return counted
    pc8 = _byte_tables()["pc8"]
    bits = np.asarray(bits, dtype=np.uint32)
    low: U32 = pc8[bits & 255] + pc8[(bits >> 8) & 255]
    high: U32 = pc8[(bits >> 16) & 255] + pc8[bits >> 24]
    return low + high


@cache
def rank24() -> npt.NDArray[np.int32]:
    """Colex rank of every 24-bit bitboard among the bitboards with as many points (64 MB)."""
    rank = np.zeros(1, dtype=np.int32)
    count = np.zeros(1, dtype=np.int8)
    for n in range(1, NUM_POINTS + 1):
        # a subset whose highest point is n - 1 comes after all C(n - 1, k) subsets below it
        step = np.array(_COMB[n - 1][1:], dtype=np.int32)[count]
        rank = np.concatenate([rank, rank + step])
        count = np.concatenate([count, count + 1])
    return rank


@cache
def subsets(n: int, k: int) -> U32:
    """All k-subsets of points ``0..n-1`` as bitboards in colex (= numeric) order."""
    if k == 0:
        return np.zeros(1, dtype=np.uint32)
    if k > n:
        return np.zeros(0, dtype=np.uint32)
    return np.concatenate([subsets(n - 1, k), subsets(n - 1, k - 1) | np.uint32(1 << (n - 1))])


def colex_rank(bits: U32) -> I64:
    """Colex rank of each bitboard among the bitboards with as many points."""
    return rank24()[bits].astype(np.int64)


def pext(bits: U32, mask: U32) -> U32:
    """Gather the bits of ``bits`` selected by ``mask`` into the low bits (x86 PEXT)."""
    t = _byte_tables()
    pc8, pext = t["pc8"], t["pext"]
    m0, m1, m2 = mask & 255, (mask >> 8) & 255, mask >> 16
    out = pext[(m0 << 8) | (bits & 255)]
    out |= pext[(m1 << 8) | ((bits >> 8) & 255)] << pc8[m0]
    out |= pext[(m2 << 8) | (bits >> 16)] << (pc8[m0] + pc8[m1])
    result: U32 = out.astype(np.uint32)
    return result


def pdep(bits: U32, mask: U32) -> U32:
    """Scatter the low bits of ``bits`` onto the bits set in ``mask`` (x86 PDEP)."""
    t = _byte_tables()
    pc8, pdep = t["pc8"], t["pdep"]
    m0, m1, m2 = mask & 255, (mask >> 8) & 255, mask >> 16
    out = pdep[(m0 << 8) | (bits & 255)]
    bits = bits >> pc8[m0]
    out |= pdep[(m1 << 8) | (bits & 255)] << 8
    bits = bits >> pc8[m1]
    out |= pdep[(m2 << 8) | (bits & 255)] << 16
    result: U32 = out.astype(np.uint32)
    return result


def stored_index(key: TableKey, mover: U32, other: U32) -> I64:
    """Table indices of positions given as bitboards of the side to move and the other side."""
    return colex_rank(mover) * key.block + colex_rank(pext(other, ~mover & FULL))


def wide_size(key: TableKey) -> int:
    """Entries of table ``key`` in the wide layout (overlapping placements included)."""
    return math.comb(NUM_POINTS, key.mover) * math.comb(NUM_POINTS, key.opponent)


def wide_index(key: TableKey, mover: U32, other: U32) -> I64:
    """Index in the wide layout the build works in: both sides ranked over all 24 points.

    Twice as large as the stored layout (placements that overlap are never touched), but an index
    costs two table lookups instead of a bit compression.
    """
    rank = rank24()
    return rank[mover].astype(np.int64) * math.comb(NUM_POINTS, key.opponent) + rank[other]


def wide_decode(key: TableKey, index: I64) -> tuple[U32, U32]:
    """Bitboards of wide indices (overlapping placements included)."""
    block = math.comb(NUM_POINTS, key.opponent)
    return subsets(NUM_POINTS, key.mover)[index // block], subsets(NUM_POINTS, key.opponent)[
        index % block
    ]


def stored_decode(key: TableKey, index: I64) -> tuple[U32, U32]:
    """Bitboards (side to move, other side) of stored indices: the inverse of
    :func:`stored_index`."""
    mover = subsets(NUM_POINTS, key.mover)[index // key.block]
    compressed = subsets(NUM_POINTS - key.mover, key.opponent)[index % key.block]
    return mover, pdep(compressed, ~mover & FULL)


def rank_one(bits: int, skip: int = 0) -> int:
    """Colex rank of one bitboard, its points renumbered over the points not in ``skip``."""
    total, j = 0, 1
    while bits:
        low = bits & -bits
        point = low.bit_length() - 1
        total += _COMB[point - (skip & (low - 1)).bit_count()][j]
        j += 1
        bits ^= low
    return total


def index_of(key: TableKey, mover: int, other: int) -> int:
    """The index in table ``key`` of the position with these bitboards (side to move first)."""
    return rank_one(mover) * key.block + rank_one(other, mover)
