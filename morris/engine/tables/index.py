"""The perfect hash of a table: a position's index, by colex ranks of k-subsets of points.

Two layouts: the stored one (dense, ``rank(mover) * C(24 - m, o) + rank(compress(other))``,
what the files hold and the probe reads) and the wide one the build works in (both sides ranked
over all 24 points: twice as large, but an index is two lookups). No symmetry reduction: every
placement has its own entry. The bit-level helpers (colex ranks, pext, pdep) are
:mod:`morris.engine.encoding`'s, shared with the solved game's index.
"""

from __future__ import annotations

import math

import numpy as np

from morris.core.points import NUM_POINTS
from morris.engine.encoding import FULL, I64, U32, colex_rank, pdep, pext, rank24, rank_one, subsets
from morris.engine.tables.keys import TableKey


def stored_index(key: TableKey, mover: U32, other: U32) -> I64:
    """Table indices of positions given as bitboards of the side to move and the other side."""
    return colex_rank(mover) * key.block + colex_rank(pext(other, ~mover & FULL))


def wide_size(key: TableKey) -> int:
    """Entries of table ``key`` in the wide layout (overlapping placements included)."""
    return math.comb(NUM_POINTS, key.mover) * math.comb(NUM_POINTS, key.other)


def wide_index(key: TableKey, mover: U32, other: U32) -> I64:
    """Index in the wide layout the build works in: both sides ranked over all 24 points.

    Twice as large as the stored layout (placements that overlap are never touched), but an index
    costs two table lookups instead of a bit compression.
    """
    rank = rank24()
    return rank[mover].astype(np.int64) * math.comb(NUM_POINTS, key.other) + rank[other]


def wide_decode(key: TableKey, index: I64) -> tuple[U32, U32]:
    """Bitboards of wide indices (overlapping placements included)."""
    block = math.comb(NUM_POINTS, key.other)
    return subsets(NUM_POINTS, key.mover)[index // block], subsets(NUM_POINTS, key.other)[
        index % block
    ]


def stored_decode(key: TableKey, index: I64) -> tuple[U32, U32]:
    """Bitboards (side to move, other side) of stored indices: the inverse of
    :func:`stored_index`."""
    mover = subsets(NUM_POINTS, key.mover)[index // key.block]
    compressed = subsets(NUM_POINTS - key.mover, key.other)[index % key.block]
    return mover, pdep(compressed, ~mover & FULL)


def index_of(key: TableKey, mover: int, other: int) -> int:
    """The index in table ``key`` of the position with these bitboards (side to move first)."""
    return rank_one(mover) * key.block + rank_one(other, mover)
