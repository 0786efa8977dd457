"""Solve one build unit: a moving-phase system by the endgame tables' retrograde analysis, a
placing sector from its successors' values."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import numpy as np

from morris.engine.solution.sectors import SectorKey, Unit
from morris.engine.solution.turns import expected_codes, index_of_key, work_chunk
from morris.engine.tables.index import stored_decode, wide_index, wide_size
from morris.engine.tables.keys import Codes, ProgressCallback
from morris.engine.tables.rules import chunks
from morris.engine.tables.solve import solve_system

logger = logging.getLogger(__name__)


def sym_to_wide(key: SectorKey, codes: Codes) -> Codes:
    """A moving sector's codes in the tables' wide layout (what their solver reads)."""
    table = key.table
    index = index_of_key(key)
    out = np.zeros(wide_size(table), dtype=codes.dtype)
    for idx in chunks(table.size, 1 << 20):
        mover, other = stored_decode(table, idx)
        out[wide_index(table, mover, other)] = np.asarray(codes)[index.index(mover, other)]
    return out


def wide_to_sym(key: SectorKey, wide: Codes) -> Codes:
    """The symmetry-reduced codes of a moving sector solved in the wide layout."""
    index = index_of_key(key)
    out = np.empty(index.size, dtype=wide.dtype)
    for idx in chunks(index.size, 1 << 20):
        mover, other = index.decode(idx)
        out[idx] = wide[wide_index(key.table, mover, other)]
    return out


def solve_unit(
    unit: Unit, solved: Mapping[SectorKey, Codes], progress: ProgressCallback | None = None
) -> dict[SectorKey, Codes]:
    """The codes (``distance + 1``, 0 a draw) of every sector of ``unit``.

    ``solved`` holds the codes of the unit's dependencies (memory-mapped files will do).
    """
    if unit.moving:
        wide = {d.table: sym_to_wide(d, solved[d]) for d in unit.dependencies()}
        result = solve_system([k.table for k in unit.keys], wide, progress, unit.name)
        return {k: wide_to_sym(k, result[k.table]) for k in unit.keys}
    (key,) = unit.keys
    size = index_of_key(key).size
    out = np.empty(size, dtype=np.uint16)
    done = 0
    for idx in chunks(size, work_chunk(key)):
        out[idx] = expected_codes(key, idx, solved)
        done += idx.size
        if progress is not None:
            progress(unit.name, done, size)
    longest = int(out.max(initial=0))
    codes: Codes = out.astype(np.uint8) if longest <= 0xFF else out
    return {key: codes}
