"""The turns of any sector on arrays of entries, and one Bellman step over their values.

Moving-phase turns are the endgame tables' (:func:`morris.solver.tables.rules.successors`), only
indexed by the symmetry-reduced hash; placements are written here with the same helpers: a piece
goes to any empty point, and a placement that closes a mill removes a piece of the other side (one
outside mills unless all are in mills; nothing when the other side has no piece on the board).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from morris.core.points import NUM_POINTS
from morris.engine.encoding import FULL, I64, U32, bellman_codes
from morris.engine.solution.sectors import SectorKey
from morris.engine.solution.symmetry import index_of_key, sym_index
from morris.engine.tables.keys import MIN_PIECES, Codes, TableKey
from morris.solver.tables.rules import BIT, in_mill_at, removals
from morris.solver.tables.rules import successors as table_successors


@dataclass
class Step:
    """Successors of a batch of entries: the rows they come from and where they are."""

    rows: I64
    key: SectorKey | None  # None: the other side is left with two pieces (a LOSS(0) for them)
    index: I64


def _table_index(key: TableKey, mover: U32, other: U32) -> I64:
    return sym_index(key.mover, key.other).index(mover, other)


def successors(key: SectorKey, mover: U32, other: U32) -> Iterator[Step]:
    """Every successor (after one whole turn) of positions of sector ``key``."""
    if not key.placing:
        for succ in table_successors(key.table, mover, other, _table_index):
            target = None if succ.key is None else SectorKey(succ.key.mover, succ.key.other, 0, 0)
            yield Step(succ.rows, target, succ.index)
        return
    quiet = key.quiet_successor()
    quiet_index = index_of_key(quiet)
    removal = SectorKey(quiet.mover_on - 1, quiet.other_on, quiet.mover_hand, quiet.other_hand)
    wins_at_once = key.other_on - 1 + key.other_hand < MIN_PIECES
    empty = ~(mover | other) & FULL
    for q in range(NUM_POINTS):
        rows = np.flatnonzero(empty & BIT[q])
        if rows.size == 0:
            continue
        after = mover[rows] | BIT[q]
        mill = in_mill_at(after, q)
        if key.other_on == 0:
            mill[:] = False  # nothing to remove: the placement stands
        plain = ~mill
        if plain.any():
            yield Step(rows[plain], quiet, quiet_index.index(other[rows[plain]], after[plain]))
        if not mill.any():
            continue
        rows, after = rows[mill], after[mill]
        for sub, piece in removals(other[rows]):
            if wins_at_once:
                yield Step(rows[sub], None, np.zeros(sub.size, np.int64))
            else:
                left = other[rows[sub]] ^ piece
                yield Step(rows[sub], removal, index_of_key(removal).index(left, after[sub]))


def expected_codes(key: SectorKey, index: I64, codes: Mapping[SectorKey, Codes]) -> I64:
    """Each entry's code given its successors' codes (one Bellman step).

    A WIN(d) needs a turn to a LOSS(d - 1) and none to a shorter one; a LOSS(d) needs every turn
    to reach a WIN, the longest being WIN(d - 1); a blocked position is LOSS(0); a DRAW has no turn
    to a LOSS and one to a DRAW. The placing phase is acyclic, so this *is* its solution.
    """
    mover, other = index_of_key(key).decode(index)
    return bellman_codes(index.size, _step_codes(successors(key, mover, other), codes))


def _step_codes(
    steps: Iterator[Step], codes: Mapping[SectorKey, Codes]
) -> Iterator[tuple[I64, I64]]:
    for step in steps:
        if step.key is None:  # the other side is left with two: LOSS(0) for them
            yield step.rows, np.ones(step.rows.size, dtype=np.int64)
        else:
            yield step.rows, np.asarray(codes[step.key])[step.index].astype(np.int64)


def work_chunk(key: SectorKey) -> int:
    """Entries per batch so a batch makes a few million successors at most."""
    per = (NUM_POINTS if key.placing else 4) * max(key.mover_on, key.other_on, 1)
    return max(1 << 12, (1 << 22) // per)
