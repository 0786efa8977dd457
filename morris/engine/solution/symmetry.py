"""The board's 16 symmetries and the symmetry-reduced perfect hash of a sector.

The symmetries are the 8 of the square (quarter turns and a mirror) times the swap of the inner
and the outer ring; they keep links and mills. A position (mover's points, other side's points)
is indexed by the canonical representative of the mover's point set (the least bitboard of its
orbit) and the other side's points, moved by the same symmetry, ranked over the points the
canonical set leaves free::

    index = rank(canonical mover set) * C(24 - m, o) + colex rank(compress(other))

where ``rank`` is the position of the canonical set among the canonical sets of its size, in
numeric (= colex) order. When the mover's set has a non-trivial stabiliser (a set that some
symmetry maps onto itself), the entries of its block that are images of each other under that
stabiliser stand for the same position: they are all stored (and all solved, so they agree), which
is the index's redundancy (:func:`redundancy`).

Two ways to compute an index: in bulk with 2^24-entry tables of the symmetry and rank of every
bitboard (80 MB, a few seconds to make, for builds) and one at a time in pure Python (the probe).
"""

from __future__ import annotations

import bisect
import math
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from morris.core.points import NUM_POINTS
from morris.engine.encoding import (
    FULL,
    I64,
    U8,
    U32,
    colex_rank,
    pdep,
    pext,
    popcount,
    rank_one,
    subsets,
)
from morris.engine.solution.sectors import SectorKey

#: Number of symmetries of the board.
SYMMETRY_COUNT: Final = 16


def _permutations() -> tuple[tuple[int, ...], ...]:
    out = []
    for swap in (False, True):
        for mirror in (False, True):
            for turn in range(4):
                perm = []
                for p in range(NUM_POINTS):
                    ring, pos = divmod(p, 8)
                    if mirror:
                        pos = (2 - pos) % 8
                    pos = (pos + 2 * turn) % 8
                    perm.append((2 - ring if swap else ring) * 8 + pos)
                out.append(tuple(perm))
    return tuple(out)


#: The 16 permutations of the points, the identity first: point ``p`` goes to ``PERMS[s][p]``.
PERMS: Final = _permutations()


def _byte_images() -> npt.NDArray[np.uint32]:
    """``table[s, b, v]``: the image under symmetry ``s`` of byte ``b`` (bits 8b..8b+7) = ``v``."""
    table = np.zeros((SYMMETRY_COUNT, 3, 256), dtype=np.uint32)
    for s, perm in enumerate(PERMS):
        for b in range(3):
            for v in range(256):
                image = 0
                for i in range(8):
                    if v >> i & 1:
                        image |= 1 << perm[8 * b + i]
                table[s, b, v] = image
    return table


#: ``IMAGES[s, b, v]``: the image under symmetry ``s`` of byte ``b`` of a bitboard being ``v``.
IMAGES: Final = _byte_images()
_IMAGES_FLAT: Final = IMAGES.reshape(-1)
_IMAGES_PY: Final = tuple(tuple(tuple(int(x) for x in row) for row in sym) for sym in IMAGES)


def transform(bits: U32, sym: int | U8) -> U32:
    """The bitboards ``bits`` moved by symmetry ``sym`` (one for all, or one per bitboard)."""
    if isinstance(sym, int):
        t = IMAGES[sym]
        out = t[0][bits & 255] | t[1][(bits >> 8) & 255] | t[2][bits >> 16]
    else:
        base = sym.astype(np.intp) * 768
        out = (
            _IMAGES_FLAT[base + (bits & 255)]
            | _IMAGES_FLAT[base + 256 + ((bits >> 8) & 255)]
            | _IMAGES_FLAT[base + 512 + (bits >> 16)]
        )
    result: U32 = out.astype(np.uint32)
    return result


def transform_one(bits: int, sym: int) -> int:
    """One bitboard moved by symmetry ``sym``."""
    t = _IMAGES_PY[sym]
    return t[0][bits & 255] | t[1][(bits >> 8) & 255] | t[2][bits >> 16]


def canonical_one(bits: int) -> tuple[int, int]:
    """(canonical representative, the first symmetry giving it) of one bitboard."""
    best, best_sym = bits, 0
    for s in range(1, SYMMETRY_COUNT):
        t = _IMAGES_PY[s]
        image = t[0][bits & 255] | t[1][(bits >> 8) & 255] | t[2][bits >> 16]
        if image < best:
            best, best_sym = image, s
    return best, best_sym


def canonical(bits: U32) -> tuple[U32, U8]:
    """(canonical representatives, the first symmetry giving each) of bitboards."""
    best = bits.copy()
    best_sym = np.zeros(bits.shape, dtype=np.uint8)
    for s in range(1, SYMMETRY_COUNT):
        image = transform(bits, s)
        lower = image < best
        np.copyto(best, image, where=lower)
        best_sym[lower] = s
    return best, best_sym


@cache
def representatives(size: int) -> U32:
    """The canonical point sets of ``size`` points, sorted (their rank is their position)."""
    canon, _ = canonical(subsets(NUM_POINTS, size))
    return np.unique(canon)


@cache
def _representatives_py(size: int) -> list[int]:
    return [int(x) for x in representatives(size)]


@cache
def orbit_sizes(size: int) -> I64:
    """For each canonical set of ``size`` points (in rank order), how many sets it stands for."""
    canon, _ = canonical(subsets(NUM_POINTS, size))
    ranks = np.searchsorted(representatives(size), canon)
    return np.bincount(ranks, minlength=representatives(size).size).astype(np.int64)


@cache
def bulk_tables() -> tuple[U8, npt.NDArray[np.int32]]:
    """For every 24-bit bitboard: the symmetry making it canonical and its canonical rank."""
    every = np.arange(1 << NUM_POINTS, dtype=np.uint32)
    canon, sym = canonical(every)
    count = popcount(every)
    rank = np.zeros(every.size, dtype=np.int32)
    is_canon = canon == every
    for size in range(NUM_POINTS + 1):
        reps = np.flatnonzero(is_canon & (count == size))
        rank[reps] = np.arange(reps.size, dtype=np.int32)
    return sym, rank[canon]


class SymmetricIndex:
    """The symmetry-reduced perfect hash of the positions with ``mover`` and ``other`` pieces."""

    def __init__(self, mover: int, other: int) -> None:
        self.mover = mover
        self.other = other
        self.block = math.comb(NUM_POINTS - mover, other)
        self.size = representatives(mover).size * self.block

    @property
    def placements(self) -> int:
        """Positions counted over every placement (no symmetry reduction)."""
        return math.comb(NUM_POINTS, self.mover) * self.block

    def weights(self, index: I64) -> I64:
        """How many placements each entry stands for (the orbit size of its mover set)."""
        weights: I64 = orbit_sizes(self.mover)[index // self.block]
        return weights

    def index(self, mover: U32, other: U32) -> I64:
        """Entries of positions given as bitboards (bulk: uses :func:`bulk_tables`)."""
        sym_of, rank_of = bulk_tables()
        sym = sym_of[mover]
        canon = transform(mover, sym)
        moved = transform(other, sym)
        free = ~canon & FULL
        return rank_of[mover].astype(np.int64) * self.block + colex_rank(pext(moved, free))

    def decode(self, index: I64) -> tuple[U32, U32]:
        """Bitboards (canonical mover set, other side) of entries."""
        canon = representatives(self.mover)[index // self.block]
        compressed = subsets(NUM_POINTS - self.mover, self.other)[index % self.block]
        return canon, pdep(compressed, ~canon & FULL)

    def index_one(self, mover: int, other: int) -> int:
        """The entry of one position (pure Python, for the probe)."""
        canon, sym = canonical_one(mover)
        reps = _representatives_py(self.mover)
        rank = bisect.bisect_left(reps, canon)
        return rank * self.block + rank_one(transform_one(other, sym), canon)


@cache
def sym_index(mover: int, other: int) -> SymmetricIndex:
    """The (shared) index of the positions with this many pieces on the board."""
    return SymmetricIndex(mover, other)


def index_of_key(key: SectorKey) -> SymmetricIndex:
    """The index of a sector."""
    return sym_index(key.mover_on, key.other_on)


def redundancy(mover: int, other: int) -> float:
    """Entries of the index over the positions up to symmetry (Burnside's count), minus one.

    Entries exceed the classes only through mover sets with a non-trivial stabiliser.
    """
    index = SymmetricIndex(mover, other)
    classes = 0
    for perm in PERMS:
        # Positions fixed by a symmetry: each of its cycles is all mover, all other or empty.
        cycles = _cycle_lengths(perm)
        classes += _fixed_count(cycles, mover, other)
    return index.size / (classes / SYMMETRY_COUNT) - 1.0


@cache
def _cycle_lengths(perm: tuple[int, ...]) -> tuple[int, ...]:
    seen = [False] * len(perm)
    out = []
    for p in range(len(perm)):
        if seen[p]:
            continue
        length, q = 0, p
        while not seen[q]:
            seen[q] = True
            q = perm[q]
            length += 1
        out.append(length)
    return tuple(out)


def _fixed_count(cycles: tuple[int, ...], mover: int, other: int) -> int:
    # ways[a][b]: cycles so far coloured with a mover points and b other points
    ways = np.zeros((mover + 1, other + 1), dtype=object)
    ways[0, 0] = 1
    for length in cycles:
        nxt = ways.copy()
        if length <= mover:
            nxt[length:, :] += ways[: mover + 1 - length, :]
        if length <= other:
            nxt[:, length:] += ways[:, : other + 1 - length]
        ways = nxt
    return int(ways[mover, other])
