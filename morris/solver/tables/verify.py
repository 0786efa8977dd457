"""Check stored tables against their successors: every position's code must follow from the codes
after each of its turns (one Bellman step)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

from morris.engine.encoding import I64, bellman_codes, chunks
from morris.engine.result import result_of
from morris.engine.tables.index import stored_decode, stored_index
from morris.engine.tables.keys import MIN_PIECES, Codes, ProgressCallback, TableKey
from morris.engine.tables.probe import EndgameTables
from morris.solver.tables.rules import successors, work_chunk
from morris.solver.tables.solve import successor_codes

KeyT = TypeVar("KeyT")


@dataclass(frozen=True)
class VerifyReport(Generic[KeyT]):
    """Outcome of :func:`verify_tables` for one table (or of the solution's check of a sector)."""

    key: KeyT
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
    mover, other = stored_decode(key, index)
    steps = (
        (succ.rows, successor_codes(succ, codes))
        for succ in successors(key, mover, other, stored_index)
    )
    return bellman_codes(index.size, steps)


def verify_tables(
    tables: EndgameTables,
    *,
    sample: int | None = None,
    seed: int = 0,
    progress: ProgressCallback | None = None,
) -> list[VerifyReport[TableKey]]:
    """Check every loaded table (or ``sample`` random positions of each) against its successors."""
    rng = np.random.default_rng(seed)
    reports: list[VerifyReport[TableKey]] = []
    all_codes = {k: tables.codes(k) for k in tables.keys}
    for key in tables.keys:
        needed = [key.partner, TableKey(key.other - 1, key.mover, key.flying)]
        missing = [k for k in needed if k.mover >= MIN_PIECES and k not in all_codes]
        if missing:
            reports.append(VerifyReport(key, 0, 1, (f"successor table {missing[0].name} missing",)))
            continue
        if sample is None or sample >= key.size:
            batches: Iterator[I64] = chunks(key.size, work_chunk(key))
            total = key.size
        else:
            picked = np.sort(rng.choice(key.size, size=sample, replace=False)).astype(np.int64)
            batches = iter(np.array_split(picked, max(1, sample // work_chunk(key))))
            total = sample
        checked = errors = 0
        examples: list[str] = []
        for idx in batches:
            want = expected_codes(key, idx, all_codes)
            have = np.asarray(all_codes[key][idx]).astype(np.int64)
            bad = np.flatnonzero(want != have)
            errors += bad.size
            for b in bad[: max(0, 5 - len(examples))]:
                mv, ot = stored_decode(key, idx[b : b + 1])
                examples.append(
                    f"{key.name} #{idx[b]} mover={int(mv[0]):#08x} other={int(ot[0]):#08x}: "
                    f"stored {result_of(int(have[b]))}, successors say {result_of(int(want[b]))}"
                )
            checked += idx.size
            if progress is not None:
                progress(f"verify {key.name}", checked, total)
        reports.append(VerifyReport(key, checked, errors, tuple(examples)))
    return reports
