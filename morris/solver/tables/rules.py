"""The moves the solver follows, on arrays of positions: turns, removals, successors after a
whole turn and predecessors (unmoves), batched so that a batch makes a few million turns at most.

These are the rules of RULES.md for the moving phase with all pieces placed, written again for
numpy arrays; tests/engine/test_tables.py holds them to an independent brute-force search.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from morris.core.points import MILL_MASKS, MILLS_THROUGH, NEIGHBOURS, NUM_POINTS
from morris.engine.encoding import FULL, I64, U32, popcount
from morris.engine.tables.index import wide_decode, wide_index
from morris.engine.tables.keys import MIN_PIECES, TableKey

BIT: Final = np.array([1 << p for p in range(NUM_POINTS)], dtype=np.uint32)
_MILL_A: Final = np.array([MILLS_THROUGH[p][0] for p in range(NUM_POINTS)], dtype=np.uint32)
_MILL_B: Final = np.array([MILLS_THROUGH[p][1] for p in range(NUM_POINTS)], dtype=np.uint32)
ALL_SOURCES: Final = np.arange(NUM_POINTS, dtype=np.uint32)
NEIGHBOUR_LISTS: Final = tuple(
    np.array([q for q in range(NUM_POINTS) if NEIGHBOURS[p] >> q & 1], dtype=np.uint32)
    for p in range(NUM_POINTS)
)


def in_mill_at(bits: U32, point: int) -> npt.NDArray[np.bool_]:
    """Whether ``point`` is in a mill of ``bits`` (``point`` is assumed to be in ``bits``)."""
    a, b = _MILL_A[point], _MILL_B[point]
    result: npt.NDArray[np.bool_] = ((bits & a) == a) | ((bits & b) == b)
    return result


def _mill_points(bits: U32) -> U32:
    """The points of ``bits`` that are in one of its mills."""
    out = np.zeros_like(bits)
    for m in MILL_MASKS:
        mm = np.uint32(m)
        out |= np.where((bits & mm) == mm, mm, np.uint32(0))
    return out


@dataclass
class _Turns:
    """A batch of turns of the side to move, one row per turn."""

    rows: I64  # the position (row of the input arrays) the turn is played in
    target: U32  # the point moved to
    mover: U32  # the mover's bitboard after the turn (before any removal)
    mill: npt.NDArray[np.bool_]  # whether the turn closes a mill


def _turns(mover: U32, other: U32, flies: bool) -> Iterator[_Turns]:
    """Every slide (or fly) of the side to move, batched by the point moved from."""
    empty = ~(mover | other) & FULL
    for p in range(NUM_POINTS):
        rows = np.flatnonzero(mover & BIT[p])
        if rows.size == 0:
            continue
        targets = ALL_SOURCES if flies else NEIGHBOUR_LISTS[p]
        free = ((empty[rows][:, None] >> targets[None, :]) & 1).astype(bool)
        r, t = np.nonzero(free)
        rows = rows[r]
        target = targets[t]
        after = (mover[rows] ^ BIT[p]) | BIT[target]
        a, b = _MILL_A[target], _MILL_B[target]
        mill = ((after & a) == a) | ((after & b) == b)
        yield _Turns(rows, target, after, mill)


def closing_turns(mover: U32, other: U32, flies: bool) -> Iterator[_Turns]:
    """The turns of the side to move that close a mill, batched by the point moved to.

    Cheaper than :func:`_turns` because only positions with two pieces on a line through an empty
    point are looked at.
    """
    empty = ~(mover | other) & FULL
    for q in range(NUM_POINTS):
        a, b = _MILL_A[q] ^ BIT[q], _MILL_B[q] ^ BIT[q]  # the two other points of each mill
        near = ((mover & a) == a) | ((mover & b) == b)
        rows = np.flatnonzero(near & ((empty & BIT[q]) != 0))
        if rows.size == 0:
            continue
        sources = ALL_SOURCES if flies else NEIGHBOUR_LISTS[q]
        held = ((mover[rows][:, None] >> sources[None, :]) & 1).astype(bool)
        r, s = np.nonzero(held)
        rows = rows[r]
        after = (mover[rows] ^ BIT[sources[s]]) | BIT[q]
        mill = in_mill_at(after, q)
        yield _Turns(rows[mill], np.full(int(mill.sum()), q, np.uint32), after[mill], mill[mill])


def turn_counts(mover: U32, other: U32, flies: bool) -> I64:
    """Number of turns (slides or flies, removals not counted apart) of the side to move."""
    empty = ~(mover | other) & FULL
    if flies:
        flights: I64 = popcount(empty).astype(np.int64) * popcount(mover)
        return flights
    total = np.zeros(mover.size, dtype=np.int64)
    for p in range(NUM_POINTS):
        free = popcount(empty & np.uint32(NEIGHBOURS[p])).astype(np.int64)
        total += np.where((mover & BIT[p]) != 0, free, 0)
    return total


def removals(other: U32) -> Iterator[tuple[I64, U32]]:
    """For each removable piece of ``other``: (rows, bitboard of the piece), piece by piece.

    A piece in a mill may be removed only when every piece is in a mill.
    """
    in_mill = _mill_points(other)
    removable = other & ~in_mill
    removable = np.where(removable == 0, other, removable)
    while True:
        rows = np.flatnonzero(removable)
        if rows.size == 0:
            return
        rest = removable[rows]
        low = rest & (~rest + np.uint32(1))
        removable[rows] = rest ^ low
        yield rows, low


@dataclass
class Successors:
    """A batch of successor positions: rows of the input and where each successor is."""

    rows: I64
    key: TableKey | None  # None: the other side is down to two pieces, a LOSS(0) for them
    index: I64
    removes: bool  # whether the turns of the batch removed a piece


IndexFunction = Callable[[TableKey, U32, U32], I64]


def successors(
    key: TableKey, mover: U32, other: U32, index: IndexFunction, quiet: bool = True
) -> Iterator[Successors]:
    """Every successor (after one whole turn) of positions of table ``key``.

    With ``quiet`` False only the successors after a removal are given.
    """
    removal_key = TableKey(key.other - 1, key.mover, key.flying)
    flies = key.flies(key.mover)
    for turns in _turns(mover, other, flies) if quiet else closing_turns(mover, other, flies):
        plain = ~turns.mill
        rows = turns.rows[plain]
        if rows.size:
            where = index(key.partner, other[rows], turns.mover[plain])
            yield Successors(rows, key.partner, where, False)
        rows = turns.rows[turns.mill]
        if rows.size == 0:
            continue
        after = turns.mover[turns.mill]
        for sub, piece in removals(other[rows]):
            if removal_key.mover < MIN_PIECES:
                yield Successors(rows[sub], None, np.zeros(sub.size, np.int64), True)
            else:
                left = other[rows[sub]] ^ piece
                where = index(removal_key, left, after[sub])
                yield Successors(rows[sub], removal_key, where, True)


def predecessors(key: TableKey, index: I64) -> I64:
    """Wide indices in ``key.partner`` of the positions with a turn without removal to ``index``.

    The last turn was the other side's: a piece now on ``t`` came from an empty ``s`` (a
    neighbour, or any point when flying) and did not close a mill at ``t`` (else a piece would
    have been removed and the position would come from a table with more material).
    """
    mover, other = wide_decode(key, index)
    empty = ~(mover | other) & FULL
    sources_all = key.flies(key.other)
    out: list[I64] = []
    for t in range(NUM_POINTS):
        rows = np.flatnonzero(other & BIT[t])
        if rows.size == 0:
            continue
        rows = rows[~in_mill_at(other[rows], t)]
        sources = ALL_SOURCES if sources_all else NEIGHBOUR_LISTS[t]
        free = ((empty[rows][:, None] >> sources[None, :]) & 1).astype(bool)
        r, s = np.nonzero(free)
        rows = rows[r]
        before = (other[rows] ^ BIT[t]) | BIT[sources[s]]
        out.append(wide_index(key.partner, before, mover[rows]))
    return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)


def work_chunk(key: TableKey) -> int:
    """Positions per batch so that a batch makes a few million turns at most."""
    per = max(key.mover, key.other) * (NUM_POINTS if key.flying else 4)
    return max(1 << 12, (1 << 23) // per)
