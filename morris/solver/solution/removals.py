"""Solving and writing the removal files: the distance to the next removal under the no-removal
rule, what the engine needs to win within the draw rules (read by
:mod:`morris.engine.solution.removals`).

The sector files store the distance to the end of the game with no draw rules (the fastest win
against the slowest defence). A fastest win can run more than 100 moves without a removal
(RULES.md, point 8), and the game is then drawn; some wins cannot be won within the rule at all
(6 men's morris has 54,161 such entries, in 6v4, 6v5 and 6v6). Placements are not counted, so
the rule bites in the moving phase: for every moving-phase sector a second table holds, for each
position, its value under the rule and the turns until the next removal, the winner hurrying to
a removal that keeps the win within the rule and the loser delaying it (the endgame tablebases'
distance to zeroing, with their "cursed wins").

It is the retrograde analysis of the sector's system again, with the sectors a removal leads to
reduced to their value under the rule from a count of 0 (their own removal distances: decided
only where that distance is within the limit): a removal that wins ends the count in one turn,
one that loses in two (the removal and the winner's reply, one more than the count needs: a
conservative bound, since a loss's distance is even). A position at no-removal count ``c`` with
removal distance ``d`` is won (lost) within the limit ``L`` when its code says win (loss) and
``c + d <= L``: the ``d - 1`` moves before the removal leave the count at ``c + d - 1 < L``;
otherwise the rule draws it. The engine keeps that true (:mod:`~morris.engine.solution.play`).
Every win under the rule is a win of the solution, every loss a loss, which the build checks.

The placing phase has its values under the rule too, in the same kind of file for every placing
sector: placements are not counted, so the count is 0 when the moving phase starts, and a
placing position's value under the rule is one Bellman step over its successors' (the placing
phase is acyclic): a moving-phase successor stands for its value under the rule from a count of
0 (:func:`removal_target_codes`), a placing one for its own code. Those codes are values with
the turns to the moving phase (not to a removal), every one decided (:func:`rule_decided`); they
are what the engine keeps in the placing phase, so that the wins it plays for are wins within the
rule.

The file's format: :mod:`morris.engine.solution.removals`.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import numpy as np

from morris.core.rules import DEFAULT_NO_REMOVAL_LIMIT
from morris.engine.errors import SolutionError
from morris.engine.solution.blocks import CODEC, DIST_BLOCK, LEVEL
from morris.engine.solution.blocks import table_crc as section_crc
from morris.engine.solution.removals import (
    MAGIC,
    RemovalInfo,
    open_removals,
    read_removal_info,
    removal_filename,
    rule_decided,
    within_limit,
)
from morris.engine.solution.sectors import SectorKey, Unit
from morris.engine.solution.storage import (
    DRAW,
    HEADER_SIZE,
    SectorData,
    read_info,
)
from morris.engine.solution.symmetry import SymmetricIndex
from morris.engine.tables.keys import Codes, ProgressCallback
from morris.i18n import msg
from morris.solver.solution.write import encode_section, sound_file, wdl_of, write_file

logger = logging.getLogger(__name__)

#: Entries converted at a time (the temporaries of the largest sectors stay small).
_STEP: Final = 1 << 22


def removals_bar(name: str, placing: bool = False) -> str:
    """The bar of a unit's removal files: a moving system's distances to the next removal, a
    placing sector's values under the rule."""
    return f"{name} under the rule" if placing else f"{name} to removals"


def rule_leaves(key: SectorKey, removals: Codes, limit: int) -> Codes:
    """A sector's removal file codes as the sectors whose turns reach it read them: a moving-phase
    sector reduced to its values under the rule (:func:`removal_target_codes`), a placing
    sector's as they are (every one decided)."""
    return removals if key.placing else removal_target_codes(removals, limit)


def removal_target_codes(removals: Codes, limit: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """A removal's target sector reduced to its values under the rule from a count of 0 (its
    removal distance codes), as the retrograde analysis reads codes: 1 (LOSS(0)) where the side
    to move there loses within ``limit``, 2 (WIN(1)) where it wins, 0 where the rule draws."""
    out = np.empty(removals.shape[0], dtype=np.uint8)
    for start in range(0, out.size, _STEP):
        c = np.asarray(removals[start : start + _STEP])
        out[start : start + _STEP] = np.where(within_limit(c, limit), np.where(c & 1 == 1, 1, 2), 0)
    return out


def solve_removals(
    unit: Unit,
    leaves: Mapping[SectorKey, Codes],
    progress: ProgressCallback | None = None,
    values: SectorData | None = None,
    **options: Any,
) -> dict[SectorKey, Codes]:
    """The removal file codes of every sector of ``unit``: a moving system's removal distances
    by its retrograde analysis (``options`` go to the solver), a placing sector's values under
    the rule by one Bellman step. ``leaves`` holds each sector its turns reach as
    :func:`rule_leaves` gives it (a moving system reaches moving-phase sectors only by
    removals: the others are its own).

    ``values``, a placing sector's own file, spares the step its draws: the rule can only
    draw a position, never decide a drawn one (:func:`check_values` checks what it decides),
    so where the file says a draw the rule's value is a draw too, and most placing positions
    of the larger games are draws."""
    from morris.solver.solution.solve import solve_moving

    if unit.moving:
        return solve_moving(unit, leaves, progress, **options)
    from morris.solver.solution.ranges import Range, solve_range

    (key,) = unit.keys
    whole = Range(key, 0, SymmetricIndex(key.mover_on, key.other_on).size)
    if values is None:
        return {key: solve_range(whole, leaves, progress, unit.name)}
    if values.info.key != key:
        raise SolutionError(f"{unit.name}: the values given are {values.info.key.name}'s")

    def draws(start: int, stop: int) -> np.ndarray[Any, np.dtype[np.bool_]]:
        drawn: np.ndarray[Any, np.dtype[np.bool_]] = values.wdl_between(start, stop) == DRAW
        return drawn

    return {key: solve_range(whole, leaves, progress, unit.name, draws)}


def longest_within(codes: np.ndarray[Any, Any], limit: int, key: SectorKey) -> int:
    """The longest distance of a position that ``codes``, ``key``'s removal file codes, decide
    under the rule (:func:`rule_decided`)."""
    longest = 0
    for start in range(0, codes.shape[0], _STEP):
        c = np.asarray(codes[start : start + _STEP])
        c = c[rule_decided(key, c, limit)]
        longest = max(longest, int(c.max(initial=1)) - 1)
    return longest


def removal_leaves(directory: Path, unit: Unit, limit: int) -> dict[SectorKey, Codes]:
    """The codes of the sectors ``unit``'s turns reach as its removal file task reads them: each
    one's removal file under ``limit``, made from the sector file there, as :func:`rule_leaves`
    gives it; :class:`SolutionError` naming the first that is not built."""
    out = {}
    for d in unit.dependencies():
        target = open_removals(directory, d, read_info(Path(directory) / d.filename).sha256)
        if target is None or target.info.limit != limit:
            raise SolutionError(
                msg(
                    "{unit}: the removal file of {sector} is not built",
                    unit=unit.name,
                    sector=d.name,
                )
            )
        out[d] = rule_leaves(d, target.dist, limit)  # decoded: nothing left mapped
    return out


def check_values(values: SectorData, codes: Codes, limit: int) -> int:
    """The entries the sector file decides and the rule draws from a count of 0 (``codes`` are
    the sector's removal distance codes under ``limit``); :class:`SolutionError` unless every
    position that ``codes`` decide within the limit has that value in the sector file (the rule
    can only turn a win or a loss into a draw)."""
    per = values.wdl_section.block * 4  # entries a block of packed values: one block a step
    entries = values.info.entries
    drawn = 0
    for start in range(0, entries, per):
        want = values.wdl_between(start, min(start + per, entries))
        c = np.asarray(codes[start : start + want.size])
        have = np.where(rule_decided(values.info.key, c, limit), wdl_of(c), DRAW)
        bad = np.flatnonzero((want != have) & (have != DRAW))
        if bad.size:
            raise SolutionError(
                msg(
                    "{sector}: the removal distances give entry {entry} another value than the"
                    " sector file (a broken build)",
                    sector=values.info.key.name,
                    entry=start + int(bad[0]),
                )
            )
        drawn += int(np.count_nonzero((want != DRAW) & (have == DRAW)))
    return drawn


def write_removals(
    directory: Path,
    key: SectorKey,
    codes: Codes,
    values_sha256: str,
    limit: int = DEFAULT_NO_REMOVAL_LIMIT,
    rule_drawn: int = 0,
    *,
    block: int = DIST_BLOCK,
) -> RemovalInfo:
    """Write a sector's removal distances under ``limit`` atomically (``rule_drawn``: what
    :func:`check_values` counted); its header."""
    size = SymmetricIndex(key.mover_on, key.other_on).size
    if codes.shape != (size,):
        raise SolutionError(f"{key.name}: {codes.shape} removal distances for {size} entries")
    longest = int(np.asarray(codes).max(initial=0))
    dist = np.asarray(codes).astype(np.uint8 if longest <= 0xFF else np.uint16)
    section = encode_section(dist, block, HEADER_SIZE)
    info = RemovalInfo(
        key, size, limit, longest_within(dist, limit, key), rule_drawn, values_sha256,
        str(dist.dtype),
        f"{CODEC}-{LEVEL}",
        HEADER_SIZE, len(section), block, section_crc(section, size, block),
        hashlib.sha256(section).hexdigest(),
    )  # fmt: skip
    header = MAGIC + json.dumps(info.to_json(), sort_keys=True).encode()
    if len(header) > HEADER_SIZE:
        raise SolutionError(f"{key.name}: header of {len(header)} bytes")
    write_file(Path(directory) / removal_filename(key), header, (section,))
    return info


def finished_removals(
    directory: Path, key: SectorKey, values_sha256: str, limit: int = DEFAULT_NO_REMOVAL_LIMIT
) -> RemovalInfo | None:
    """The header of a complete, undamaged removal file under ``limit`` made from the sector
    file of SHA-256 ``values_sha256``, or None (missing, damaged or stale: such a file is logged
    and removed, so it is rebuilt and never used)."""
    path = Path(directory) / removal_filename(key)
    info = sound_file(path, read_removal_info)
    if info is None:
        return None
    if info.values_sha256 != values_sha256 or info.limit != limit:
        logger.warning("%s: made for another build or limit; it will be rebuilt", path)
        path.unlink(missing_ok=True)
        return None
    return info
