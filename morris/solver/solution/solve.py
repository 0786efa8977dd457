"""Solve one build unit: a moving-phase system by retrograde analysis in the symmetry-reduced
index (the C extension ``_retro``), a placing sector from its successors' values."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from typing import Final

import numpy as np

from morris.core.points import MILL_MASKS, NEIGHBOURS, NUM_POINTS
from morris.engine.errors import SolutionError
from morris.engine.solution.sectors import SectorKey, Unit
from morris.engine.solution.symmetry import IMAGES, index_of_key, representatives
from morris.engine.tables.keys import MIN_PIECES, Codes, ProgressCallback
from morris.i18n import msg
from morris.solver.solution.ranges import Range, solve_range

logger = logging.getLogger(__name__)

#: Entries per call of the setup pass (a progress report after each).
_SETUP_CHUNK: Final = 1 << 22


def machine_cores() -> int:
    """The cores this process may run on: the default threads of a build's moving systems."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _codes(out: Codes) -> Codes:
    """uint16 codes as uint8 where every one fits (what the tables' solver gives)."""
    longest = int(out.max(initial=0))
    return out.astype(np.uint8) if longest <= 0xFF else out


def solve_moving(
    unit: Unit,
    solved: Mapping[SectorKey, Codes],
    progress: ProgressCallback | None = None,
    *,
    threads: int = 1,
) -> dict[SectorKey, Codes]:
    """Retrograde analysis of a moving-phase unit, ``(m, o)`` with ``(o, m)`` or ``(m, m)``.

    3 work bytes an entry (a uint16 word and a uint8 counter, in numpy arrays the C code fills);
    the codes are those of the endgame tables' solver (morris/solver/tables/solve.py). Each pass
    runs on ``threads`` threads of the C code: the same codes for any number.
    """
    if threads < 1:
        raise SolutionError(msg("threads must be at least 1, not {n}", n=threads))
    try:
        from morris.solver.solution import _retro
    except ImportError as exc:
        raise SolutionError(
            msg(
                "the moving phase is solved by the C extension morris.solver.solution._retro,"
                " which is not built ({reason}): reinstall with a C compiler (pip install -e .)",
                reason=str(exc),
            )
        ) from None
    keys = unit.keys
    first = keys[0]
    sizes = [index_of_key(k).size for k in keys]
    work = [np.empty(n, dtype=np.uint16) for n in sizes]
    counts = [np.empty(n, dtype=np.uint8) for n in sizes]
    removal_targets = []
    for k in keys:
        target = k.removal_successor()
        removal_targets.append(None if target is None else np.ascontiguousarray(solved[target]))
    needed = {k.mover_on for k in keys} | {k.other_on - 1 for k in keys}
    reps = [
        representatives(n) if n in needed and n >= MIN_PIECES else None
        for n in range(NUM_POINTS + 1)
    ]
    system = _retro.System(
        first.mover_on,
        first.other_on,
        IMAGES,
        np.array(NEIGHBOURS, dtype=np.uint32),
        np.array(MILL_MASKS, dtype=np.uint32),
        reps,
        work,
        counts,
        removal_targets,
        threads=threads,
    )
    total = sum(sizes)
    for part, size in enumerate(sizes):
        for start in range(0, size, _SETUP_CHUNK):
            system.set_up(part, start, min(size, start + _SETUP_CHUNK))
    decided = level = 0
    while True:
        found, later = system.level(level)
        decided += found
        if progress is not None:
            progress(unit.name, decided, total)
        logger.debug("%s: level %d, %d decided", unit.name, level, decided)
        if found == 0 and not later:
            break
        level += 1
        if level >= _retro.MAX_LEVEL:
            raise OverflowError(f"{unit.name}: distances beyond {_retro.MAX_LEVEL}")
    system.finish()
    del counts
    out = {k: _codes(w) for k, w in zip(keys, work, strict=True)}
    if progress is not None:
        progress(unit.name, total, total)
    return out


def solve_unit(
    unit: Unit,
    solved: Mapping[SectorKey, Codes],
    progress: ProgressCallback | None = None,
    *,
    threads: int = 1,
) -> dict[SectorKey, Codes]:
    """The codes (``distance + 1``, 0 a draw) of every sector of ``unit``.

    ``solved`` holds the codes of the unit's dependencies (memory-mapped files will do); a
    moving system's retrograde analysis runs on ``threads`` threads (a placing sector on one:
    the build splits the large ones into range tasks).
    """
    if unit.moving:
        return solve_moving(unit, solved, progress, threads=threads)
    (key,) = unit.keys
    whole = Range(key, 0, index_of_key(key).size)  # the one range of an unsplit sector
    return {key: _codes(solve_range(whole, solved, progress, unit.name))}
