"""How positions and their values are encoded on arrays: what the endgame tables and the solved
game share, at run time and in the solver.

Bitboards are 24-bit ints (one bit a point, as uint32 in the arrays). A set of ``k`` points is
ranked in colex order (the combinatorial number system: :func:`colex_rank` on arrays,
:func:`rank_one` for one bitboard, :func:`subsets` the inverse); :func:`pext` and :func:`pdep`
gather and scatter bits as the x86 instructions do, vectorised with byte tables. A value is kept
as a *code*, ``distance + 1`` for the side to move (0 a draw), so a WIN has an even code and a
LOSS an odd one; :func:`bellman_codes` takes one Bellman step over codes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from morris.core.points import ALL_POINTS, NUM_POINTS

U32 = npt.NDArray[np.uint32]
I64 = npt.NDArray[np.int64]
U16 = npt.NDArray[np.uint16]
U8 = npt.NDArray[np.uint8]

#: A code not known (yet): the solvers' mark for an undecided position.
UNKNOWN: Final = 0xFFFF

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


def chunks(total: int, size: int) -> Iterator[I64]:
    """The indices ``0 .. total - 1`` in batches of ``size``."""
    for start in range(0, total, size):
        yield np.arange(start, min(total, start + size), dtype=np.int64)


def bellman_codes(size: int, steps: Iterable[tuple[I64, I64]]) -> I64:
    """One Bellman step: the code of each of ``size`` positions from batches of (rows, the code
    of a successor of each row), codes ``distance + 1`` for the side to move there (0 a draw).

    The fastest win over successors lost for the other side, else a draw if one is drawn, else the
    slowest loss; a position without a turn is LOSS(0) (code 1).
    """
    win = np.full(size, UNKNOWN, dtype=np.int64)
    longest = np.zeros(size, dtype=np.int64)
    draw = np.zeros(size, dtype=bool)
    any_turn = np.zeros(size, dtype=bool)
    for rows, code in steps:
        any_turn[rows] = True
        odd = (code & 1) == 1
        np.minimum.at(win, rows[odd], code[odd])
        draw[rows[code == 0]] = True
        even = ~odd & (code > 0)
        np.maximum.at(longest, rows[even], code[even])
    out = np.where(draw, 0, longest + 1)
    out = np.where(win != UNKNOWN, win + 1, out)
    return np.where(any_turn, out, 1)
