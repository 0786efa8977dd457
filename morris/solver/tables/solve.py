"""Retrograde analysis: solve the tables that reach each other by turns without removal, level
by level of distance, from the solved tables with less material."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from morris.engine.encoding import I64, U8, U16, UNKNOWN, chunks
from morris.engine.tables.index import stored_decode, wide_decode, wide_index, wide_size
from morris.engine.tables.keys import MIN_PIECES, Codes, ProgressCallback, TableKey
from morris.solver.tables.rules import (
    Successors,
    closing_turns,
    predecessors,
    successors,
    turn_counts,
    work_chunk,
)

logger = logging.getLogger(__name__)

# A distance not yet known (UNKNOWN) is a draw if it stays so.
_NO_LOSS: Final = 0xFFFE  # a removal reaches a draw or a loss for the other side: never a LOSS


@dataclass
class _Solving:
    """Work arrays of one table while its system is solved."""

    key: TableKey
    dist: U16  # distance, or UNKNOWN
    count: U8  # turns without removal whose successor is not yet known to be a WIN
    floor: U16  # least LOSS distance forced by removals, or _NO_LOSS
    sched: U16  # distance at which a removal decides the position, or UNKNOWN


def successor_codes(succ: Successors, solved: dict[TableKey, Codes]) -> I64:
    """Stored codes of successors (terminal: the other side has LOSS(0), code 1)."""
    if succ.key is None:
        return np.ones(succ.rows.size, dtype=np.int64)
    return solved[succ.key][succ.index].astype(np.int64)


def _start(key: TableKey, solved: dict[TableKey, Codes]) -> _Solving:
    """Count the quiet turns of every position and settle what its removals give.

    Works in the wide layout; ``solved`` holds the wide codes of the tables with less material.
    """
    n = wide_size(key)
    state = _Solving(
        key,
        np.full(n, UNKNOWN, dtype=np.uint16),
        np.zeros(n, dtype=np.uint8),
        np.zeros(n, dtype=np.uint16),
        np.full(n, UNKNOWN, dtype=np.uint16),
    )
    for idx in chunks(n, work_chunk(key)):
        mover, other = wide_decode(key, idx)
        valid = (mover & other) == 0
        idx, mover, other = idx[valid], mover[valid], other[valid]
        m = idx.size
        count = turn_counts(mover, other, key.flies(key.mover))
        win = np.full(m, UNKNOWN, dtype=np.int64)  # fastest win by a removal
        longest = np.zeros(m, dtype=np.int64)  # slowest loss over removals
        no_loss = np.zeros(m, dtype=bool)
        has_removal = np.zeros(m, dtype=bool)
        for turns in closing_turns(mover, other, key.flies(key.mover)):
            count -= np.bincount(turns.rows, minlength=m)
        for succ in successors(key, mover, other, wide_index, quiet=False):
            code = successor_codes(succ, solved)
            has_removal[succ.rows] = True
            odd = (code & 1) == 1  # the other side loses: a win in `code` turns
            np.minimum.at(win, succ.rows[odd], code[odd])
            no_loss[succ.rows[~odd & (code == 0)]] = True
            no_loss[succ.rows[odd]] = True
            even = ~odd & (code > 0)
            np.maximum.at(longest, succ.rows[even], code[even])
        state.count[idx] = count
        state.floor[idx] = np.where(no_loss, _NO_LOSS, longest)
        sched = np.where(win != UNKNOWN, win, UNKNOWN)
        stuck = (count == 0) & (win == UNKNOWN) & ~no_loss
        sched = np.where(stuck, np.where(has_removal, longest, 0), sched)
        state.sched[idx] = sched
    return state


def solve_system(
    keys: Sequence[TableKey],
    solved: dict[TableKey, Codes],
    progress: ProgressCallback | None,
    label: str,
) -> dict[TableKey, Codes]:
    """Solve tables that reach each other by turns without removal (``4v3`` and ``3v4``)."""
    total = sum(k.size for k in keys)
    logger.debug("%s: wide layout of %d entries", label, sum(wide_size(k) for k in keys))
    states = {k: _start(k, solved) for k in keys}
    decided = 0
    horizon = max(int(s.sched[s.sched != UNKNOWN].max(initial=0)) for s in states.values())
    level = 0
    while True:
        found = False
        for s in states.values():
            due = np.flatnonzero((s.sched == level) & (s.dist == UNKNOWN))
            s.dist[due] = level
        for s in states.values():
            frontier = np.flatnonzero(s.dist == level)
            if frontier.size == 0:
                continue
            found = True
            decided += frontier.size
            partner = states[s.key.partner]
            step = work_chunk(s.key)
            for start in range(0, frontier.size, step):
                preds = predecessors(s.key, frontier[start : start + step])
                if level % 2 == 0:  # a LOSS here: a WIN one turn longer for a predecessor
                    preds = preds[partner.dist[preds] == UNKNOWN]
                    partner.dist[preds] = level + 1
                    continue
                np.subtract.at(partner.count, preds, np.uint8(1))
                done = preds[(partner.count[preds] == 0) & (partner.dist[preds] == UNKNOWN)]
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
        longest = int(s.dist[s.dist != UNKNOWN].max(initial=0))
        dtype = np.uint8 if longest < 0xFF else np.uint16
        codes: Codes = s.dist.astype(dtype)
        codes += dtype(1)  # UNKNOWN wraps round to 0 (a draw) in either type
        out[k] = codes
    if progress is not None:
        progress(label, total, total)
    return out


def to_stored(key: TableKey, wide: Codes) -> Codes:
    """The stored (dense) layout of wide codes."""
    out = np.empty(key.size, dtype=wide.dtype)
    for idx in chunks(key.size, 1 << 22):
        out[idx] = wide[wide_index(key, *stored_decode(key, idx))]
    return out


def to_wide(key: TableKey, codes: Codes) -> Codes:
    """The wide layout of stored codes (overlapping placements 0)."""
    out = np.zeros(wide_size(key), dtype=codes.dtype)
    for idx in chunks(key.size, 1 << 22):
        out[wide_index(key, *stored_decode(key, idx))] = codes[idx]
    return out


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
        keys, key=lambda k: (k.mover + k.other, not k.flying, max(k.mover, k.other), k.mover)
    )


def systems(keys: Sequence[TableKey]) -> list[list[TableKey]]:
    """``keys`` grouped into systems: a table with its partner (they are solved together)."""
    out: list[list[TableKey]] = []
    seen: set[TableKey] = set()
    for k in keys:
        if k in seen:
            continue
        group = [k] if k.partner == k else [k, k.partner]
        seen.update(group)
        out.append(group)
    return out
