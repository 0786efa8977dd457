"""Distance to the next removal under the no-removal rule: what the engine needs to win within
the draw rules.

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
0 (:func:`capture_codes`), a placing one for its own code. Those codes are values with the turns
to the moving phase (not to a removal), every one decided (:func:`rule_decided`); they are what
the engine keeps in the placing phase, so that the wins it plays for are wins within the rule.

File ``removals-M-O-MH-OH.msol`` (a moving-phase sector's hands are 0-0): a header
(``MORRIS-REMOVALS``, JSON: format, rules, the limit, sector, the longest distance of a position
decided under the rule, the SHA-256 of the sector file it was made from, codec, the section's
offset, size, block and table CRC-32, SHA-256 of everything after the header), then one
block-compressed section of codes (``distance + 1``, 0 a draw), uint8 (uint16 if one passes
254).
"""

from __future__ import annotations

import hashlib
import json
import logging
import mmap
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Final

import numpy as np

from morris.core.rules import DEFAULT_NO_REMOVAL_LIMIT
from morris.engine.errors import SolutionError
from morris.engine.solution.blocks import (
    CODEC,
    DIST_BLOCK,
    LEVEL,
    Section,
    encode_section,
    readable_codec,
)
from morris.engine.solution.blocks import table_crc as section_crc
from morris.engine.solution.sectors import SectorKey, Unit
from morris.engine.solution.storage import (
    DRAW,
    HEADER_SIZE,
    RULES,
    SectorData,
    file_matches,
    info_from,
    read_header,
    read_info,
    wdl_of,
    write_file,
)
from morris.engine.solution.symmetry import SymmetricIndex
from morris.engine.tables.keys import Codes, ProgressCallback
from morris.i18n import msg

logger = logging.getLogger(__name__)

MAGIC: Final = b"MORRIS-REMOVALS\n"
FORMAT_VERSION: Final = 1
#: Entries converted at a time (the temporaries of the largest sectors stay small).
_STEP: Final = 1 << 22


def removal_filename(key: SectorKey) -> str:
    """The file of a sector's removal distances (a placing sector's values under the rule)."""
    return f"removals-{key.mover_on}-{key.other_on}-{key.mover_hand}-{key.other_hand}.msol"


@dataclass(frozen=True)
class RemovalInfo:
    """A removal file's header."""

    key: SectorKey
    entries: int
    limit: int  # the no-removal limit they are for
    longest: int  # the longest distance of a position decided under the rule (a placing
    # sector's: to the moving phase; a moving-phase sector's: to the next removal)
    rule_drawn: int  # entries the sector file decides and the rule draws (from a count of 0)
    values_sha256: str  # of the sector file whose values these distances share
    dtype: str
    codec: str
    offset: int
    nbytes_section: int
    block: int
    table_crc: int
    sha256: str

    @property
    def nbytes(self) -> int:
        """Size of the file."""
        return self.offset + self.nbytes_section

    def to_json(self) -> dict[str, Any]:
        """The header's JSON."""
        data = asdict(self)
        data["key"] = asdict(self.key)
        return {"format": FORMAT_VERSION, "rules": RULES, **data}


def within_limit(codes: np.ndarray[Any, Any], limit: int) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Which removal distance codes decide their position (a win or a loss) within ``limit``
    from a count of 0; the others the rule draws (or the solution does)."""
    return (codes > 0) & (codes <= limit + 1)


def removals_bar(name: str, placing: bool = False) -> str:
    """The bar of a unit's removal files: a moving system's distances to the next removal, a
    placing sector's values under the rule."""
    return f"{name} under the rule" if placing else f"{name} to removals"


def rule_decided(
    key: SectorKey, codes: np.ndarray[Any, Any], limit: int
) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Which codes of a sector's removal file decide their position under the rule from a count
    of 0: a moving-phase sector's within ``limit`` (:func:`within_limit`), a placing sector's
    wherever they are not a draw (their distances are to the moving phase, not counted)."""
    return codes > 0 if key.placing else within_limit(codes, limit)


def rule_leaves(key: SectorKey, removals: Codes, limit: int) -> Codes:
    """A sector's removal file codes as the sectors whose turns reach it read them: a moving-phase
    sector reduced to its values under the rule (:func:`capture_codes`), a placing sector's as
    they are (every one decided)."""
    return removals if key.placing else capture_codes(removals, limit)


def capture_codes(removals: Codes, limit: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
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
    captures: Mapping[SectorKey, Codes],
    progress: ProgressCallback | None = None,
    values: SectorData | None = None,
    **options: Any,
) -> dict[SectorKey, Codes]:
    """The removal file codes of every sector of ``unit``: a moving system's removal distances
    by its retrograde analysis (``options`` go to the solver), a placing sector's values under
    the rule by one Bellman step. ``captures`` holds each sector its turns reach as
    :func:`rule_leaves` gives it (a moving system reaches moving-phase sectors only by
    removals: the others are its own).

    ``values``, a placing sector's own file, spares the step its draws: the rule can only
    draw a position, never decide a drawn one (:func:`check_values` checks what it decides),
    so where the file says a draw the rule's value is a draw too, and most placing positions
    of the larger games are draws."""
    from morris.engine.solution.solve import solve_moving

    if unit.moving:
        return solve_moving(unit, captures, progress, **options)
    from morris.engine.solution.ranges import Range, solve_range

    (key,) = unit.keys
    whole = Range(key, 0, SymmetricIndex(key.mover_on, key.other_on).size)
    if values is None:
        return {key: solve_range(whole, captures, progress, unit.name)}
    if values.info.key != key:
        raise SolutionError(f"{unit.name}: the values given are {values.info.key.name}'s")

    def draws(start: int, stop: int) -> np.ndarray[Any, np.dtype[np.bool_]]:
        drawn: np.ndarray[Any, np.dtype[np.bool_]] = values.wdl_between(start, stop) == DRAW
        return drawn

    return {key: solve_range(whole, captures, progress, unit.name, draws)}


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


def read_removal_info(path: Path) -> RemovalInfo:
    """The header of a removal file; :class:`SolutionError` naming the file if it is not one."""
    data = read_header(path, MAGIC, msg("removal distance file"))
    if data.get("format") != FORMAT_VERSION:
        raise SolutionError(
            msg(
                "{path}: removal file format {found} is unknown, this version reads format"
                " {version}; rebuild it (morris tables build --men K)",
                path=str(path),
                found=str(data.get("format")),
                version=FORMAT_VERSION,
            )
        )
    if not readable_codec(data.get("codec")) or data.get("rules") != RULES:
        raise SolutionError(msg("{path}: another codec or rules; rebuild it", path=str(path)))
    info = info_from(RemovalInfo, RemovalInfo.__dataclass_fields__, path, data)
    if removal_filename(info.key) != path.name:
        raise SolutionError(
            msg(
                "{path}: holds sector {sector}, not what its name says",
                path=str(path),
                sector=info.key.name,
            )
        )
    return info


def finished_removals(
    directory: Path, key: SectorKey, values_sha256: str, limit: int = DEFAULT_NO_REMOVAL_LIMIT
) -> RemovalInfo | None:
    """The header of a complete, undamaged removal file under ``limit`` made from the sector
    file of SHA-256 ``values_sha256``, or None (missing, damaged or stale: such a file is logged
    and removed, so it is rebuilt and never used)."""
    path = Path(directory) / removal_filename(key)
    if not path.exists():
        return None
    try:
        info = read_removal_info(path)
    except SolutionError as exc:
        logger.warning("%s; it will be rebuilt", exc)
        path.unlink(missing_ok=True)
        return None
    if not file_matches(path, info.nbytes, info.sha256):
        logger.warning("%s: checksum mismatch, the file is damaged; it will be rebuilt", path)
        path.unlink(missing_ok=True)
        return None
    if info.values_sha256 != values_sha256 or info.limit != limit:
        logger.warning("%s: made for another build or limit; it will be rebuilt", path)
        path.unlink(missing_ok=True)
        return None
    return info


class RemovalData:
    """An open removal file: its header and its block-compressed section, memory-mapped."""

    def __init__(self, info: RemovalInfo, section: Section) -> None:
        self.info = info
        self.section = section

    @cached_property
    def dist(self) -> np.ndarray[Any, Any]:
        """Every entry's removal distance code (``distance + 1``, 0 a draw)."""
        return self.section.decode_all()


def open_removals(
    directory: Path, key: SectorKey, values_sha256: str, *, check: bool = True
) -> RemovalData | None:
    """Memory-map a sector's removal file made for the sector file of SHA-256 ``values_sha256``;
    None if there is none. :class:`SolutionError` naming the file if it is damaged (its block
    table always, with ``check`` its SHA-256 too) or belongs to another build of the sector."""
    path = Path(directory) / removal_filename(key)
    if not path.exists():
        return None
    info = read_removal_info(path)
    if path.stat().st_size != info.nbytes:
        raise SolutionError(
            msg(
                "{path}: {size} bytes, its header says {expected}",
                path=str(path),
                size=path.stat().st_size,
                expected=info.nbytes,
            )
        )
    if check and not file_matches(path, info.nbytes, info.sha256):
        raise SolutionError(
            msg("{path}: checksum mismatch, the file is damaged; rebuild it", path=str(path))
        )
    if info.values_sha256 != values_sha256:
        raise SolutionError(
            msg(
                "{path}: made for another build of sector {sector}; rebuild it",
                path=str(path),
                sector=key.name,
            )
        )
    with path.open("rb") as fh:
        mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    section = Section.open(
        f"{path} (removal distances)", memoryview(mapped), info.offset, info.nbytes_section,
        info.entries, info.block, info.dtype, info.table_crc,
    )  # fmt: skip
    return RemovalData(info, section)


__all__ = [
    "RemovalData",
    "RemovalInfo",
    "capture_codes",
    "check_values",
    "finished_removals",
    "longest_within",
    "open_removals",
    "read_removal_info",
    "removal_filename",
    "removal_leaves",
    "removals_bar",
    "rule_decided",
    "rule_leaves",
    "solve_removals",
    "within_limit",
    "write_removals",
]
