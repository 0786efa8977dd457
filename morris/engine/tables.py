"""Endgame tables: exact win/draw/loss with distance, built by retrograde analysis.

A table covers every position of the moving phase with all pieces placed and a given material:
``mover`` pieces for the side to move and ``opponent`` pieces for the other side, for one flying
setting. Tables are stored relative to the side to move (the game is colour-blind once all pieces
are placed), so the table ``4v3`` answers both "white 4, black 3, white to move" and "white 3,
black 4, black to move".

Values are for the side to move; distances count turns (plies) to the end of the game with perfect
play: the winner wins in the fewest turns, the loser loses in the most. The game ends when a player
is reduced to two pieces or is blocked on their turn. The draw rules (threefold repetition, 100
turns without removal) are *not* part of the tables: a DRAW means neither side can force a win, and
a WIN distance can exceed the 100-turn no-removal limit, which the search must check itself.

Layout of a table: one entry per placement, ``code = distance + 1`` for a decided position and
``0`` for a draw, so a WIN has an even code and a LOSS an odd one. A position is indexed as
``rank(mover) * C(24 - m, o) + rank(compress(opponent))`` where ``rank`` is the colex rank of a
k-subset of points (the combinatorial number system) and ``compress`` renumbers the opponent's
points over the ``24 - m`` points the mover does not hold. No symmetry reduction: every placement
has its own entry.

>>> tables = EndgameTables.load(directory)          # doctest: +SKIP
>>> tables.probe(white, black, white_to_move=True, flying=True)  # doctest: +SKIP
TableResult(value=<Value.WIN: 'win'>, distance=5)
"""

from __future__ import annotations

import enum
import hashlib
import json
import logging
import math
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from morris.core.points import ALL_POINTS, MILL_MASKS, MILLS_THROUGH, NEIGHBOURS, NUM_POINTS
from morris.engine.errors import TableError

logger = logging.getLogger(__name__)

FORMAT_VERSION: Final = 1
MANIFEST_NAME: Final = "manifest.json"
#: Fewest pieces a side can have in a table: with two the game is over.
MIN_PIECES: Final = 3
#: The basic set: 3v3, 4v3 and 3v4.
DEFAULT_MAX_PIECES: Final = 7

U32 = npt.NDArray[np.uint32]
I64 = npt.NDArray[np.int64]
U16 = npt.NDArray[np.uint16]
U8 = npt.NDArray[np.uint8]
Codes = npt.NDArray[np.unsignedinteger[Any]]

#: A turn as ``(from, to, remove)``; ``remove`` is None when the turn removes nothing.
Turn = tuple[int, int, int | None]
#: Called during a build with (table description, positions done, positions in all).
ProgressCallback = Callable[[str, int, int], None]

_UNKNOWN: Final = 0xFFFF  # distance not yet known (a draw if it stays so)
_NO_LOSS: Final = 0xFFFE  # a capture reaches a draw or a loss for the opponent: never a LOSS
_FULL: Final = np.uint32(ALL_POINTS)


class Value(enum.Enum):
    """Game-theoretic value for the side to move."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True)
class TableResult:
    """What a table says about a position: the value for the side to move and the distance.

    ``distance`` is the number of turns (plies) to the end of the game with perfect play (the
    winner hurries, the loser delays); it is 0 for a DRAW and for a side to move that is blocked.
    """

    value: Value
    distance: int


@dataclass(frozen=True, order=True)
class TableKey:
    """One table: the material of the side to move and of the other side, and the flying rule."""

    mover: int
    opponent: int
    flying: bool

    @property
    def size(self) -> int:
        """Number of positions (every placement of the pieces)."""
        return math.comb(NUM_POINTS, self.mover) * math.comb(NUM_POINTS - self.mover, self.opponent)

    @property
    def block(self) -> int:
        """Positions per placement of the mover's pieces."""
        return math.comb(NUM_POINTS - self.mover, self.opponent)

    @property
    def partner(self) -> TableKey:
        """The table after a turn without removal (the other side to move)."""
        return TableKey(self.opponent, self.mover, self.flying)

    @property
    def filename(self) -> str:
        """The file name of the table in a data directory."""
        return f"morris-{self.mover}v{self.opponent}-{'fly' if self.flying else 'nofly'}.npy"

    @property
    def name(self) -> str:
        """Short name, ``"4v3 flying"``."""
        return f"{self.mover}v{self.opponent} {'flying' if self.flying else 'no flying'}"

    def flies(self, pieces: int) -> bool:
        """Whether a side with ``pieces`` pieces (all placed) flies under this table's rule."""
        return self.flying and pieces == MIN_PIECES


@dataclass(frozen=True)
class TableInfo:
    """Summary of one stored table, relative to the side to move; kept in the manifest."""

    key: TableKey
    won: int
    drawn: int
    lost: int
    longest_win: int
    longest_loss: int
    file: str
    dtype: str
    sha256: str
    nbytes: int

    def to_json(self) -> dict[str, Any]:
        """The manifest entry."""
        return {
            "mover": self.key.mover,
            "opponent": self.key.opponent,
            "flying": self.key.flying,
            "positions": self.key.size,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "longest_win": self.longest_win,
            "longest_loss": self.longest_loss,
            "file": self.file,
            "dtype": self.dtype,
            "sha256": self.sha256,
            "bytes": self.nbytes,
        }

    @classmethod
    def from_json(cls, entry: dict[str, Any], where: Path) -> TableInfo:
        """Read a manifest entry; raises :class:`TableError` naming ``where`` if it is malformed."""
        try:
            key = TableKey(int(entry["mover"]), int(entry["opponent"]), bool(entry["flying"]))
            info = cls(
                key,
                int(entry["won"]),
                int(entry["drawn"]),
                int(entry["lost"]),
                int(entry["longest_win"]),
                int(entry["longest_loss"]),
                str(entry["file"]),
                str(entry["dtype"]),
                str(entry["sha256"]),
                int(entry["bytes"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise TableError(f"{where}: malformed manifest entry {entry!r}: {exc}") from None
        if int(entry.get("positions", key.size)) != key.size:
            raise TableError(f"{where}: wrong position count for {key.name}")
        return info


# --------------------------------------------------------------------------------------------
# Subset ranking (combinatorial number system) on bitboards, vectorised with byte tables.

_COMB: Final = tuple(tuple(math.comb(n, k) for k in range(NUM_POINTS + 2)) for n in range(25))


@cache
def _byte_tables() -> dict[str, U32]:
    """Lookup tables for popcount, pext and pdep, one byte at a time."""
    x = np.arange(256, dtype=np.uint32)
    pc8 = np.bitwise_count(x).astype(np.uint32)
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


@cache
def _rank24() -> npt.NDArray[np.int32]:
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
def _subsets(n: int, k: int) -> U32:
    """All k-subsets of points ``0..n-1`` as bitboards in colex (= numeric) order."""
    if k == 0:
        return np.zeros(1, dtype=np.uint32)
    if k > n:
        return np.zeros(0, dtype=np.uint32)
    return np.concatenate([_subsets(n - 1, k), _subsets(n - 1, k - 1) | np.uint32(1 << (n - 1))])


def _rank(bits: U32) -> I64:
    """Colex rank of each bitboard among the bitboards with as many points."""
    return _rank24()[bits].astype(np.int64)


def _pext(bits: U32, mask: U32) -> U32:
    """Gather the bits of ``bits`` selected by ``mask`` into the low bits (x86 PEXT)."""
    t = _byte_tables()
    pc8, pext = t["pc8"], t["pext"]
    m0, m1, m2 = mask & 255, (mask >> 8) & 255, mask >> 16
    out = pext[(m0 << 8) | (bits & 255)]
    out |= pext[(m1 << 8) | ((bits >> 8) & 255)] << pc8[m0]
    out |= pext[(m2 << 8) | (bits >> 16)] << (pc8[m0] + pc8[m1])
    result: U32 = out.astype(np.uint32)
    return result


def _pdep(bits: U32, mask: U32) -> U32:
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


def _index(key: TableKey, mover: U32, other: U32) -> I64:
    """Table indices of positions given as bitboards of the side to move and the other side."""
    return _rank(mover) * key.block + _rank(_pext(other, ~mover & _FULL))


def _wide_size(key: TableKey) -> int:
    return math.comb(NUM_POINTS, key.mover) * math.comb(NUM_POINTS, key.opponent)


def _wide_index(key: TableKey, mover: U32, other: U32) -> I64:
    """Index in the wide layout the build works in: both sides ranked over all 24 points.

    Twice as large as the stored layout (placements that overlap are never touched), but an index
    costs two table lookups instead of a bit compression.
    """
    rank = _rank24()
    return rank[mover].astype(np.int64) * math.comb(NUM_POINTS, key.opponent) + rank[other]


def _wide_decode(key: TableKey, index: I64) -> tuple[U32, U32]:
    """Bitboards of wide indices (overlapping placements included)."""
    block = math.comb(NUM_POINTS, key.opponent)
    return _subsets(NUM_POINTS, key.mover)[index // block], _subsets(NUM_POINTS, key.opponent)[
        index % block
    ]


def _decode(key: TableKey, index: I64) -> tuple[U32, U32]:
    """Bitboards (side to move, other side) of table indices: the inverse of :func:`_index`."""
    mover = _subsets(NUM_POINTS, key.mover)[index // key.block]
    compressed = _subsets(NUM_POINTS - key.mover, key.opponent)[index % key.block]
    return mover, _pdep(compressed, ~mover & _FULL)


def _rank_one(bits: int, skip: int = 0) -> int:
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
    return _rank_one(mover) * key.block + _rank_one(other, mover)


# --------------------------------------------------------------------------------------------
# Move and unmove generation on arrays of positions.

_BIT: Final = np.array([1 << p for p in range(NUM_POINTS)], dtype=np.uint32)
_MILL_A: Final = np.array([MILLS_THROUGH[p][0] for p in range(NUM_POINTS)], dtype=np.uint32)
_MILL_B: Final = np.array([MILLS_THROUGH[p][1] for p in range(NUM_POINTS)], dtype=np.uint32)
_ALL_SOURCES: Final = np.arange(NUM_POINTS, dtype=np.uint32)
_NEIGHBOUR_LISTS: Final = tuple(
    np.array([q for q in range(NUM_POINTS) if NEIGHBOURS[p] >> q & 1], dtype=np.uint32)
    for p in range(NUM_POINTS)
)


def _in_mill_at(bits: U32, point: int) -> npt.NDArray[np.bool_]:
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
    empty = ~(mover | other) & _FULL
    for p in range(NUM_POINTS):
        rows = np.flatnonzero(mover & _BIT[p])
        if rows.size == 0:
            continue
        targets = _ALL_SOURCES if flies else _NEIGHBOUR_LISTS[p]
        free = ((empty[rows][:, None] >> targets[None, :]) & 1).astype(bool)
        r, t = np.nonzero(free)
        rows = rows[r]
        target = targets[t]
        after = (mover[rows] ^ _BIT[p]) | _BIT[target]
        a, b = _MILL_A[target], _MILL_B[target]
        mill = ((after & a) == a) | ((after & b) == b)
        yield _Turns(rows, target, after, mill)


def _closing_turns(mover: U32, other: U32, flies: bool) -> Iterator[_Turns]:
    """The turns of the side to move that close a mill, batched by the point moved to.

    Cheaper than :func:`_turns` because only positions with two pieces on a line through an empty
    point are looked at.
    """
    empty = ~(mover | other) & _FULL
    for q in range(NUM_POINTS):
        a, b = _MILL_A[q] ^ _BIT[q], _MILL_B[q] ^ _BIT[q]  # the two other points of each mill
        near = ((mover & a) == a) | ((mover & b) == b)
        rows = np.flatnonzero(near & ((empty & _BIT[q]) != 0))
        if rows.size == 0:
            continue
        sources = _ALL_SOURCES if flies else _NEIGHBOUR_LISTS[q]
        held = ((mover[rows][:, None] >> sources[None, :]) & 1).astype(bool)
        r, s = np.nonzero(held)
        rows = rows[r]
        after = (mover[rows] ^ _BIT[sources[s]]) | _BIT[q]
        mill = _in_mill_at(after, q)
        yield _Turns(rows[mill], np.full(int(mill.sum()), q, np.uint32), after[mill], mill[mill])


def _turn_counts(mover: U32, other: U32, flies: bool) -> I64:
    """Number of turns (slides or flies, removals not counted apart) of the side to move."""
    empty = ~(mover | other) & _FULL
    if flies:
        flights: I64 = np.bitwise_count(empty).astype(np.int64) * np.bitwise_count(mover)
        return flights
    total = np.zeros(mover.size, dtype=np.int64)
    for p in range(NUM_POINTS):
        free = np.bitwise_count(empty & np.uint32(NEIGHBOURS[p])).astype(np.int64)
        total += np.where((mover & _BIT[p]) != 0, free, 0)
    return total


def _removals(other: U32) -> Iterator[tuple[I64, U32]]:
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
class _Successors:
    """A batch of successor positions: rows of the input and where each successor is."""

    rows: I64
    key: TableKey | None  # None: the opponent is down to two pieces, a LOSS(0) for them
    index: I64
    capture: bool


IndexFunction = Callable[[TableKey, U32, U32], I64]


def _successors(
    key: TableKey, mover: U32, other: U32, index: IndexFunction, quiet: bool = True
) -> Iterator[_Successors]:
    """Every successor (after one whole turn) of positions of table ``key``.

    With ``quiet`` False only the successors after a removal are given.
    """
    capture_key = TableKey(key.opponent - 1, key.mover, key.flying)
    flies = key.flies(key.mover)
    for turns in _turns(mover, other, flies) if quiet else _closing_turns(mover, other, flies):
        plain = ~turns.mill
        rows = turns.rows[plain]
        if rows.size:
            where = index(key.partner, other[rows], turns.mover[plain])
            yield _Successors(rows, key.partner, where, False)
        rows = turns.rows[turns.mill]
        if rows.size == 0:
            continue
        after = turns.mover[turns.mill]
        for sub, piece in _removals(other[rows]):
            if capture_key.mover < MIN_PIECES:
                yield _Successors(rows[sub], None, np.zeros(sub.size, np.int64), True)
            else:
                left = other[rows[sub]] ^ piece
                where = index(capture_key, left, after[sub])
                yield _Successors(rows[sub], capture_key, where, True)


def _predecessors(key: TableKey, index: I64) -> I64:
    """Wide indices in ``key.partner`` of the positions with a turn without removal to ``index``.

    The last turn was the other side's: a piece now on ``t`` came from an empty ``s`` (a
    neighbour, or any point when flying) and did not close a mill at ``t`` (else a piece would
    have been removed and the position would come from a table with more material).
    """
    mover, other = _wide_decode(key, index)
    empty = ~(mover | other) & _FULL
    sources_all = key.flies(key.opponent)
    out: list[I64] = []
    for t in range(NUM_POINTS):
        rows = np.flatnonzero(other & _BIT[t])
        if rows.size == 0:
            continue
        rows = rows[~_in_mill_at(other[rows], t)]
        sources = _ALL_SOURCES if sources_all else _NEIGHBOUR_LISTS[t]
        free = ((empty[rows][:, None] >> sources[None, :]) & 1).astype(bool)
        r, s = np.nonzero(free)
        rows = rows[r]
        before = (other[rows] ^ _BIT[t]) | _BIT[sources[s]]
        out.append(_wide_index(key.partner, before, mover[rows]))
    return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)


def _chunks(total: int, size: int) -> Iterator[I64]:
    for start in range(0, total, size):
        yield np.arange(start, min(total, start + size), dtype=np.int64)


def _work_chunk(key: TableKey) -> int:
    """Positions per batch so that a batch makes a few million turns at most."""
    per = max(key.mover, key.opponent) * (NUM_POINTS if key.flying else 4)
    return max(1 << 12, (1 << 23) // per)


# --------------------------------------------------------------------------------------------
# Retrograde analysis.


@dataclass
class _Solving:
    """Work arrays of one table while its system is solved."""

    key: TableKey
    dist: U16  # distance, or _UNKNOWN
    count: U8  # turns without removal whose successor is not yet known to be a WIN
    floor: U16  # least LOSS distance forced by removals, or _NO_LOSS
    sched: U16  # distance at which a removal decides the position, or _UNKNOWN


def _successor_codes(succ: _Successors, solved: dict[TableKey, Codes]) -> I64:
    """Stored codes of successors (terminal: the opponent has LOSS(0), code 1)."""
    if succ.key is None:
        return np.ones(succ.rows.size, dtype=np.int64)
    return solved[succ.key][succ.index].astype(np.int64)


def _start(key: TableKey, solved: dict[TableKey, Codes]) -> _Solving:
    """Count the quiet turns of every position and settle what its removals give.

    Works in the wide layout; ``solved`` holds the wide codes of the tables with less material.
    """
    n = _wide_size(key)
    state = _Solving(
        key,
        np.full(n, _UNKNOWN, dtype=np.uint16),
        np.zeros(n, dtype=np.uint8),
        np.zeros(n, dtype=np.uint16),
        np.full(n, _UNKNOWN, dtype=np.uint16),
    )
    for idx in _chunks(n, _work_chunk(key)):
        mover, other = _wide_decode(key, idx)
        valid = (mover & other) == 0
        idx, mover, other = idx[valid], mover[valid], other[valid]
        m = idx.size
        count = _turn_counts(mover, other, key.flies(key.mover))
        win = np.full(m, _UNKNOWN, dtype=np.int64)  # fastest win by a removal
        longest = np.zeros(m, dtype=np.int64)  # slowest loss over removals
        no_loss = np.zeros(m, dtype=bool)
        has_capture = np.zeros(m, dtype=bool)
        for turns in _closing_turns(mover, other, key.flies(key.mover)):
            count -= np.bincount(turns.rows, minlength=m)
        for succ in _successors(key, mover, other, _wide_index, quiet=False):
            code = _successor_codes(succ, solved)
            has_capture[succ.rows] = True
            odd = (code & 1) == 1  # the opponent loses: a win in `code` turns
            np.minimum.at(win, succ.rows[odd], code[odd])
            no_loss[succ.rows[~odd & (code == 0)]] = True
            no_loss[succ.rows[odd]] = True
            even = ~odd & (code > 0)
            np.maximum.at(longest, succ.rows[even], code[even])
        state.count[idx] = count
        state.floor[idx] = np.where(no_loss, _NO_LOSS, longest)
        sched = np.where(win != _UNKNOWN, win, _UNKNOWN)
        stuck = (count == 0) & (win == _UNKNOWN) & ~no_loss
        sched = np.where(stuck, np.where(has_capture, longest, 0), sched)
        state.sched[idx] = sched
    return state


def _solve_system(
    keys: Sequence[TableKey],
    solved: dict[TableKey, Codes],
    progress: ProgressCallback | None,
    label: str,
) -> dict[TableKey, Codes]:
    """Solve tables that reach each other by turns without removal (``4v3`` and ``3v4``)."""
    total = sum(k.size for k in keys)
    logger.debug("%s: wide layout of %d entries", label, sum(_wide_size(k) for k in keys))
    states = {k: _start(k, solved) for k in keys}
    decided = 0
    horizon = max(int(s.sched[s.sched != _UNKNOWN].max(initial=0)) for s in states.values())
    level = 0
    while True:
        found = False
        for s in states.values():
            due = np.flatnonzero((s.sched == level) & (s.dist == _UNKNOWN))
            s.dist[due] = level
        for s in states.values():
            frontier = np.flatnonzero(s.dist == level)
            if frontier.size == 0:
                continue
            found = True
            decided += frontier.size
            partner = states[s.key.partner]
            step = _work_chunk(s.key)
            for start in range(0, frontier.size, step):
                preds = _predecessors(s.key, frontier[start : start + step])
                if level % 2 == 0:  # a LOSS here: a WIN one turn longer for a predecessor
                    preds = preds[partner.dist[preds] == _UNKNOWN]
                    partner.dist[preds] = level + 1
                    continue
                np.subtract.at(partner.count, preds, np.uint8(1))
                done = preds[(partner.count[preds] == 0) & (partner.dist[preds] == _UNKNOWN)]
                floor = partner.floor[done].astype(np.int64)
                keep = floor != _NO_LOSS
                done, floor = done[keep], floor[keep]
                when = np.maximum(floor, level + 1)
                now = when == level + 1
                partner.dist[done[now]] = level + 1
                partner.sched[done[~now]] = when[~now]
                if (~now).any():
                    horizon = max(horizon, int(when.max()))
        if progress is not None:
            progress(label, decided, total)
        logger.debug("%s: level %d, %d decided", label, level, decided)
        if not found and level >= horizon:
            break
        level += 1
        if level >= _NO_LOSS:
            raise OverflowError(f"{label}: distances beyond {_NO_LOSS}")
    out: dict[TableKey, Codes] = {}
    for k, s in states.items():
        longest = int(s.dist[s.dist != _UNKNOWN].max(initial=0))
        dtype = np.uint8 if longest < 0xFF else np.uint16
        codes: Codes = s.dist.astype(dtype)
        codes += dtype(1)  # _UNKNOWN wraps round to 0 (a draw) in either type
        out[k] = codes
    if progress is not None:
        progress(label, total, total)
    return out


def _to_stored(key: TableKey, wide: Codes) -> Codes:
    """The stored (dense) layout of wide codes."""
    out = np.empty(key.size, dtype=wide.dtype)
    for idx in _chunks(key.size, 1 << 22):
        out[idx] = wide[_wide_index(key, *_decode(key, idx))]
    return out


def _to_wide(key: TableKey, codes: Codes) -> Codes:
    """The wide layout of stored codes (overlapping placements 0)."""
    out = np.zeros(_wide_size(key), dtype=codes.dtype)
    for idx in _chunks(key.size, 1 << 22):
        out[_wide_index(key, *_decode(key, idx))] = codes[idx]
    return out


def summarize(key: TableKey, codes: Codes) -> tuple[int, int, int, int, int]:
    """(won, drawn, lost, longest win, longest loss) of a table, for the side to move."""
    c = np.asarray(codes).astype(np.int64)
    drawn = int(np.count_nonzero(c == 0))
    won = int(np.count_nonzero((c & 1) == 0)) - drawn
    lost = c.size - won - drawn
    wins = c[(c & 1) == 0]
    losses = c[(c & 1) == 1]
    longest_win = int(wins.max(initial=1)) - 1
    longest_loss = int(losses.max(initial=1)) - 1
    return won, drawn, lost, max(longest_win, 0), longest_loss


def table_keys(max_pieces: int, flying: Sequence[bool]) -> list[TableKey]:
    """Every table with at most ``max_pieces`` pieces on the board, in build order."""
    keys = [
        TableKey(m, o, f)
        for f in flying
        for total in range(2 * MIN_PIECES, max_pieces + 1)
        for m in range(MIN_PIECES, total - MIN_PIECES + 1)
        for o in [total - m]
    ]
    return sorted(
        keys, key=lambda k: (k.mover + k.opponent, not k.flying, max(k.mover, k.opponent), k.mover)
    )


def _systems(keys: Sequence[TableKey]) -> list[list[TableKey]]:
    out: list[list[TableKey]] = []
    seen: set[TableKey] = set()
    for k in keys:
        if k in seen:
            continue
        group = [k] if k.partner == k else [k, k.partner]
        seen.update(group)
        out.append(group)
    return out


# --------------------------------------------------------------------------------------------
# Storage.


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_manifest(directory: Path) -> dict[TableKey, TableInfo]:
    """The tables listed in ``directory``'s manifest (empty if there is none).

    Raises :class:`TableError` naming the manifest if it is unreadable or of another format.
    """
    path = Path(directory) / MANIFEST_NAME
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise TableError(f"{path}: unreadable manifest: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT_VERSION:
        raise TableError(f"{path}: not a format {FORMAT_VERSION} table manifest")
    infos = [TableInfo.from_json(e, path) for e in data.get("tables", [])]
    return {i.key: i for i in infos}


def _write_manifest(directory: Path, infos: dict[TableKey, TableInfo]) -> None:
    path = directory / MANIFEST_NAME
    data = {
        "format": FORMAT_VERSION,
        "layout": "code = distance + 1 (0 = draw) for the side to move; index = colex rank of "
        "mover * C(24 - m, o) + colex rank of opponent over the points the mover leaves free",
        "tables": [infos[k].to_json() for k in sorted(infos)],
    }
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, path)


def _save(directory: Path, key: TableKey, codes: Codes) -> TableInfo:
    path = directory / key.filename
    tmp = directory / (key.filename + ".tmp")
    with tmp.open("wb") as fh:
        np.save(fh, codes, allow_pickle=False)
    os.replace(tmp, path)
    won, drawn, lost, longest_win, longest_loss = summarize(key, codes)
    return TableInfo(
        key, won, drawn, lost, longest_win, longest_loss, key.filename, str(codes.dtype),
        _sha256(path), path.stat().st_size,
    )  # fmt: skip


def _load_codes(directory: Path, info: TableInfo, check: bool) -> Codes:
    path = Path(directory) / info.file
    if not path.exists():
        raise TableError(f"{path}: table file missing (listed in {MANIFEST_NAME})")
    if path.stat().st_size != info.nbytes:
        raise TableError(f"{path}: size {path.stat().st_size} bytes, manifest says {info.nbytes}")
    if check and _sha256(path) != info.sha256:
        raise TableError(f"{path}: checksum mismatch, the file is corrupt; rebuild the tables")
    try:
        codes = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise TableError(f"{path}: unreadable table: {exc}") from None
    if codes.shape != (info.key.size,) or str(codes.dtype) != info.dtype:
        raise TableError(
            f"{path}: shape {codes.shape} {codes.dtype} does not match {info.key.name}"
        )
    result: Codes = codes
    return result


def build_tables(
    directory: Path,
    *,
    flying: Sequence[bool] = (True, False),
    max_pieces: int = DEFAULT_MAX_PIECES,
    force: bool = False,
    progress: ProgressCallback | None = None,
) -> list[TableInfo]:
    """Build every table with at most ``max_pieces`` pieces on the board into ``directory``.

    Tables already listed in the manifest are loaded (and their checksum checked) instead of
    rebuilt unless ``force``. Returns the infos of the tables built or found, in build order.
    ``progress(description, done, total)`` is called as positions are decided.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    infos = read_manifest(directory)
    solved: dict[TableKey, Codes] = {}
    out: list[TableInfo] = []
    for system in _systems(table_keys(max_pieces, flying)):
        label = " + ".join(k.name.split(" ", 1)[0] for k in system) + (
            " flying" if system[0].flying else " no flying"
        )
        if not force and all(k in infos for k in system):
            for k in system:
                solved[k] = _to_wide(k, _load_codes(directory, infos[k], check=True))
                out.append(infos[k])
            if progress is not None:
                total = sum(k.size for k in system)
                progress(label, total, total)
            continue
        logger.info("solving %s (%d positions)", label, sum(k.size for k in system))
        codes = _solve_system(system, solved, progress, label)
        for k in system:
            infos[k] = _save(directory, k, _to_stored(k, codes[k]))
            solved[k] = codes[k]
            out.append(infos[k])
        _write_manifest(directory, infos)
    return out


# --------------------------------------------------------------------------------------------
# Probing.


def _result(code: int) -> TableResult:
    if code == 0:
        return TableResult(Value.DRAW, 0)
    distance = code - 1
    return TableResult(Value.WIN if distance & 1 else Value.LOSS, distance)


_RESULTS: Final = tuple(_result(code) for code in range(512))


class EndgameTables:
    """Loaded endgame tables (memory-mapped) and the probe the search uses.

    >>> tables = EndgameTables.load(Path("tables"))  # doctest: +SKIP
    """

    def __init__(self, codes: dict[TableKey, Codes], infos: dict[TableKey, TableInfo]) -> None:
        self._codes = codes
        self._infos = infos
        # The probe's path: plain tuples and a memoryview, whose items are Python ints (indexing
        # a numpy memmap from Python costs several microseconds).
        self._fast: dict[tuple[int, int, bool], tuple[int, memoryview]] = {
            (k.mover, k.opponent, k.flying): (k.block, np.asarray(c).data) for k, c in codes.items()
        }

    @classmethod
    def load(cls, directory: Path, *, check: bool = True) -> EndgameTables:
        """Open every table listed in ``directory``'s manifest.

        ``check`` verifies each file's SHA-256 against the manifest. Raises :class:`TableError`
        naming the file if a file is missing, truncated, corrupt or does not match the manifest.
        A directory without a manifest gives tables that cover nothing.
        """
        directory = Path(directory)
        infos = read_manifest(directory)
        codes = {k: _load_codes(directory, i, check) for k, i in infos.items()}
        return cls(codes, infos)

    @property
    def keys(self) -> list[TableKey]:
        """The tables loaded."""
        return sorted(self._codes)

    def infos(self) -> list[TableInfo]:
        """The manifest summary of each loaded table."""
        return [self._infos[k] for k in sorted(self._infos)]

    def codes(self, key: TableKey) -> Codes:
        """The raw code array of a table (``distance + 1``, 0 for a draw)."""
        return self._codes[key]

    def covers(self, white_count: int, black_count: int, white_to_move: bool, flying: bool) -> bool:
        """Whether positions with this material (all pieces placed) are in the tables."""
        mover, other = (white_count, black_count) if white_to_move else (black_count, white_count)
        return TableKey(mover, other, flying) in self._codes

    def probe(
        self, white: int, black: int, white_to_move: bool, flying: bool
    ) -> TableResult | None:
        """The exact value of a position of the moving phase with all pieces placed.

        ``white`` and ``black`` are bitboards (bit ``p`` = point ``p``). Returns None if the
        material is not covered (or a side has fewer than three pieces: the game is over).
        """
        mover, other = (white, black) if white_to_move else (black, white)
        entry = self._fast.get((mover.bit_count(), other.bit_count(), flying))
        if entry is None:
            return None
        block, codes = entry
        code: int = codes[_rank_one(mover) * block + _rank_one(other, mover)]
        return _RESULTS[code] if code < len(_RESULTS) else _result(code)

    def _probe_mover(self, mover: int, other: int, flying: bool) -> TableResult | None:
        if other.bit_count() < MIN_PIECES:
            return TableResult(Value.LOSS, 0)  # not reached: removals are handled by callers
        return self.probe(mover, other, True, flying)

    def scored_turns(
        self, white: int, black: int, white_to_move: bool, flying: bool
    ) -> list[tuple[Turn, TableResult]] | None:
        """Every legal turn with the table result for the side to move after it.

        The result is from the mover's point of view (a turn to an opponent LOSS(k) is a
        WIN(k + 1)). None if the position or one of its successors is not covered.
        """
        mover, other = (white, black) if white_to_move else (black, white)
        if self.probe(white, black, white_to_move, flying) is None:
            return None
        flies = flying and mover.bit_count() == MIN_PIECES
        empty = ALL_POINTS & ~(mover | other)
        out: list[tuple[Turn, TableResult]] = []
        for p in _points(mover):
            for q in _points(empty if flies else NEIGHBOURS[p] & empty):
                after = mover ^ (1 << p) | (1 << q)
                if any(after & m == m for m in MILLS_THROUGH[q]):
                    removable = other & ~_mill_points_one(other) or other
                    for r in _points(removable):
                        left = other ^ (1 << r)
                        if left.bit_count() < MIN_PIECES:
                            res: TableResult | None = TableResult(Value.LOSS, 0)
                        else:
                            res = self.probe(left, after, True, flying)
                        if res is None:
                            return None
                        out.append(((p, q, r), _negate(res)))
                else:
                    res = self.probe(other, after, True, flying)
                    if res is None:
                        return None
                    out.append(((p, q, None), _negate(res)))
        return out

    def best_turns(
        self, white: int, black: int, white_to_move: bool, flying: bool
    ) -> list[Turn] | None:
        """The optimal turns: fastest win, else any draw, else slowest loss.

        Returns ``(from, to, remove)`` triples (``remove`` None when nothing is removed), an
        empty list when the side to move is blocked, None when the material is not covered.
        """
        scored = self.scored_turns(white, black, white_to_move, flying)
        if scored is None:
            return None
        if not scored:
            return []
        best = max(scored, key=lambda s: _preference(s[1]))[1]
        return [t for t, r in scored if r == best]


def _negate(res: TableResult) -> TableResult:
    if res.value is Value.DRAW:
        return res
    return TableResult(Value.WIN if res.value is Value.LOSS else Value.LOSS, res.distance + 1)


def _preference(res: TableResult) -> tuple[int, int]:
    if res.value is Value.WIN:
        return (2, -res.distance)
    if res.value is Value.DRAW:
        return (1, 0)
    return (0, res.distance)


def _points(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _mill_points_one(bits: int) -> int:
    out = 0
    for m in MILL_MASKS:
        if bits & m == m:
            out |= m
    return out


# --------------------------------------------------------------------------------------------
# Verification.


@dataclass(frozen=True)
class VerifyReport:
    """Outcome of :func:`verify_tables` for one table."""

    key: TableKey
    checked: int
    errors: int
    examples: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when every checked position is consistent with its successors."""
        return self.errors == 0


def expected_codes(key: TableKey, index: I64, codes: dict[TableKey, Codes]) -> I64:
    """What each position's code must be given its successors' codes (one Bellman step).

    A WIN(d) needs a turn to a LOSS(d - 1) and none to a shorter one; a LOSS(d) needs every turn
    to reach a WIN, the longest being WIN(d - 1); a blocked position is LOSS(0); a DRAW has no turn
    to a LOSS and at least one to a DRAW.
    """
    mover, other = _decode(key, index)
    m = index.size
    win = np.full(m, _UNKNOWN, dtype=np.int64)
    longest = np.zeros(m, dtype=np.int64)
    draw = np.zeros(m, dtype=bool)
    any_turn = np.zeros(m, dtype=bool)
    for succ in _successors(key, mover, other, _index):
        code = _successor_codes(succ, codes)
        any_turn[succ.rows] = True
        odd = (code & 1) == 1
        np.minimum.at(win, succ.rows[odd], code[odd])
        draw[succ.rows[code == 0]] = True
        even = ~odd & (code > 0)
        np.maximum.at(longest, succ.rows[even], code[even])
    out = np.where(draw, 0, longest + 1)
    out = np.where(win != _UNKNOWN, win + 1, out)
    return np.where(any_turn, out, 1)


def verify_tables(
    tables: EndgameTables,
    *,
    sample: int | None = None,
    seed: int = 0,
    progress: ProgressCallback | None = None,
) -> list[VerifyReport]:
    """Check every loaded table (or ``sample`` random positions of each) against its successors."""
    rng = np.random.default_rng(seed)
    reports: list[VerifyReport] = []
    all_codes = {k: tables.codes(k) for k in tables.keys}
    for key in tables.keys:
        needed = [key.partner, TableKey(key.opponent - 1, key.mover, key.flying)]
        missing = [k for k in needed if k.mover >= MIN_PIECES and k not in all_codes]
        if missing:
            reports.append(VerifyReport(key, 0, 1, (f"successor table {missing[0].name} missing",)))
            continue
        if sample is None or sample >= key.size:
            batches: Iterator[I64] = _chunks(key.size, _work_chunk(key))
            total = key.size
        else:
            picked = np.sort(rng.choice(key.size, size=sample, replace=False)).astype(np.int64)
            batches = iter(np.array_split(picked, max(1, sample // _work_chunk(key))))
            total = sample
        checked = errors = 0
        examples: list[str] = []
        for idx in batches:
            want = expected_codes(key, idx, all_codes)
            have = np.asarray(all_codes[key][idx]).astype(np.int64)
            bad = np.flatnonzero(want != have)
            errors += bad.size
            for b in bad[: max(0, 5 - len(examples))]:
                mv, ot = _decode(key, idx[b : b + 1])
                examples.append(
                    f"{key.name} #{idx[b]} mover={int(mv[0]):#08x} other={int(ot[0]):#08x}: "
                    f"stored {_result(int(have[b]))}, successors say {_result(int(want[b]))}"
                )
            checked += idx.size
            if progress is not None:
                progress(f"verify {key.name}", checked, total)
        reports.append(VerifyReport(key, checked, errors, tuple(examples)))
    return reports
