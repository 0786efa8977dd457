"""Local consistency of a built solution: every entry's stored distance code must be what one
Bellman step over its successors' stored codes gives, and its 2-bit value must match its code;
the same for the removal files (the moving-phase sectors' distances to the next removal, the
placing sectors' values under the no-removal rule)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Final

import numpy as np

from morris.engine.encoding import I64, chunks
from morris.engine.result import result_of
from morris.engine.solution.blocks import Section
from morris.engine.solution.probe import Solution
from morris.engine.solution.sectors import SectorKey
from morris.engine.solution.storage import DRAW, unpack
from morris.engine.solution.symmetry import index_of_key
from morris.engine.tables.keys import Codes, ProgressCallback
from morris.solver.solution.removals import removals_bar, rule_leaves
from morris.solver.solution.turns import expected_codes, work_chunk
from morris.solver.solution.write import wdl_of
from morris.solver.tables.verify import VerifyReport

#: Sectors with more entries than this are checked on a random sample by default.
FULL_CHECK_LIMIT: Final = 4_000_000
#: The default sample of such a sector.
DEFAULT_SAMPLE: Final = 200_000


@dataclass(frozen=True)
class SectorReport(VerifyReport[SectorKey]):
    """Outcome of :func:`verify_solution` for one sector: ``checked`` of its ``entries``."""

    entries: int = 0
    name: str = ""  # what was checked: the sector, or its removal distances

    @property
    def complete(self) -> bool:
        """Whether every entry was checked (else a random sample)."""
        return self.checked == self.entries


def verify_solution(
    solution: Solution,
    *,
    sample: int | None = None,
    full_limit: int = FULL_CHECK_LIMIT,
    seed: int = 0,
    progress: ProgressCallback | None = None,
    keys: Collection[SectorKey] | None = None,
) -> list[SectorReport]:
    """Check every loaded sector (or those of ``keys``: a game verified layer by layer, each k
    checking the sectors k - 1 men's morris does not have): all its entries when it has at most
    ``full_limit`` (and no ``sample`` is given), else ``sample`` (default
    :data:`DEFAULT_SAMPLE`) random entries; then the removal file of every such sector that has
    one, the same way (a turn that leaves a moving system stands for its target's value under
    the rule: :func:`~morris.solver.solution.removals.rule_leaves`). The successors are read
    whether they are checked or not."""
    rng = np.random.default_rng(seed)
    held = _Held(solution)
    reports = []
    checked = [k for k in solution.keys if keys is None or k in keys]
    for key in checked:
        codes = held.sectors([key, *key.successors()])
        reports.append(_check(key, key.name, codes, sample, full_limit, rng, progress, solution))
    for key in checked:
        own = solution.removal_data(key)
        if own is None:
            continue
        name = removals_bar(key.name, key.placing)
        removals = held.removals(key, own.info.limit)
        if isinstance(removals, str):
            reports.append(SectorReport(key, 0, 1, (removals,), own.info.entries, name))
        else:
            reports.append(
                _check(key, name, removals, sample, full_limit, rng, progress, solution, rule=True)
            )
    return reports


class _Held:
    """The decoded codes the check of one sector needs (it and the sectors its turns reach),
    and no more: every sector of 9 men's morris decoded at once would take tens of gigabytes.
    What the next check needs too is kept; the rest is let go."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution
        self._codes: dict[tuple[str, SectorKey], Codes] = {}

    def _keep(
        self, wanted: dict[tuple[str, SectorKey], Callable[[], Codes]]
    ) -> dict[tuple[str, SectorKey], Codes]:
        for name in [n for n in self._codes if n not in wanted]:
            del self._codes[name]
        for name, decode in wanted.items():
            if name not in self._codes:
                self._codes[name] = decode()
        return {n: self._codes[n] for n in wanted}

    def sectors(self, keys: list[SectorKey]) -> dict[SectorKey, Codes]:
        """The distance codes of those of ``keys`` that are loaded."""
        loaded = [k for k in dict.fromkeys(keys) if self.solution.covers(k)]
        wanted = {("sector", k): self.solution.data(k).dist_section.decode_all for k in loaded}
        return {k: c for (_, k), c in self._keep(wanted).items()}

    def removals(self, key: SectorKey, limit: int) -> dict[SectorKey, Codes] | str:
        """The removal file codes the check of ``key``'s needs: its own, a moving system's
        partner as they are, every other successor as its value under the rule
        (:func:`~morris.solver.solution.removals.rule_leaves`); or what is missing."""
        wanted: dict[tuple[str, SectorKey], Callable[[], Codes]] = {}
        for k in [key, *key.successors()]:
            found = self.solution.removal_data(k)
            if found is None:
                return f"removal file of {k.name} missing"
            own_system = k == key or (not key.placing and k == key.quiet_successor())
            if own_system:
                wanted[("removals", k)] = found.section.decode_all
            else:
                wanted[("leaves", k)] = partial(_leaves, k, found.section, limit)
        return {k: c for (_, k), c in self._keep(wanted).items()}


def _leaves(key: SectorKey, section: Section, limit: int) -> Codes:
    return rule_leaves(key, section.decode_all(), limit)


def _check(
    key: SectorKey,
    name: str,
    codes: Mapping[SectorKey, Codes],
    sample: int | None,
    full_limit: int,
    rng: np.random.Generator,
    progress: ProgressCallback | None,
    solution: Solution,
    *,
    rule: bool = False,
) -> SectorReport:
    """One Bellman step over ``codes`` for the entries of ``key`` (all or a sample) against the
    stored ``codes[key]``, and the sector's 2-bit values against them (with ``rule``, removal
    distances: where they decide a position, the value must be the sector's)."""
    size = index_of_key(key).size
    missing = [s for s in key.successors() if s not in codes]
    if missing:
        return SectorReport(key, 0, 1, (f"successor {missing[0].name} missing",), size, name)
    want = sample if sample is not None else (None if size <= full_limit else DEFAULT_SAMPLE)
    if want is None or want >= size:
        batches: Iterator[I64] = chunks(size, work_chunk(key))
        total = size
    else:
        picked = np.sort(rng.choice(size, size=want, replace=False)).astype(np.int64)
        batches = iter(np.array_split(picked, max(1, want // work_chunk(key))))
        total = want
    data = solution.data(key)
    wdl = unpack(data.wdl_section.decode_all(), data.info.entries)  # not kept (see _Held)
    checked = errors = 0
    examples: list[str] = []
    for idx in batches:
        expect = expected_codes(key, idx, codes)
        have = np.asarray(codes[key][idx]).astype(np.int64)
        values = wdl_of(have)
        bad = (expect != have) | ((wdl[idx] != values) & ((values != DRAW) | (not rule)))
        for b in np.flatnonzero(bad)[: max(0, 5 - len(examples))]:
            mover, other = index_of_key(key).decode(idx[b : b + 1])
            examples.append(
                f"{name} #{idx[b]} mover={int(mover[0]):#08x} other={int(other[0]):#08x}:"
                f" stored {result_of(int(have[b]))} (2-bit {int(wdl[idx[b]])}),"
                f" successors say {result_of(int(expect[b]))}"
            )
        errors += int(bad.sum())
        checked += idx.size
        if progress is not None:
            progress(f"verify {name}", checked, total)
    return SectorReport(key, checked, errors, tuple(examples), size, name)
