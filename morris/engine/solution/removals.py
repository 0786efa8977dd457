"""A sector's removal file, read: its distance to the next removal under the no-removal rule
(a placing sector's values under the rule), what the engine needs to win within the draw rules.

What the codes mean and how they are solved: :mod:`morris.solver.solution.removals`, which writes
the files. A position at no-removal count ``c`` with removal distance ``d`` is won (lost) within
the limit ``L`` when its code says win (loss) and ``c + d <= L``; otherwise the rule draws it.
The engine keeps that true (:mod:`~morris.engine.solution.play`).

File ``removals-M-O-MH-OH.msol`` (a moving-phase sector's hands are 0-0): a header
(``MORRIS-REMOVALS``, JSON: format, rules, the limit, sector, the longest distance of a position
decided under the rule, the SHA-256 of the sector file it was made from, codec, the section's
offset, size, block and table CRC-32, SHA-256 of everything after the header), then one
block-compressed section of codes (``distance + 1``, 0 a draw), uint8 (uint16 if one passes
254).
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Final

import numpy as np

from morris.engine.errors import SolutionError
from morris.engine.solution.blocks import Section, SolutionFile, readable_codec
from morris.engine.solution.sectors import SectorKey
from morris.engine.solution.storage import (
    RULES,
    file_matches,
    info_from,
    read_header,
)
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


def rule_decided(
    key: SectorKey, codes: np.ndarray[Any, Any], limit: int
) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Which codes of a sector's removal file decide their position under the rule from a count
    of 0: a moving-phase sector's within ``limit`` (:func:`within_limit`), a placing sector's
    wherever they are not a draw (their distances are to the moving phase, not counted)."""
    return codes > 0 if key.placing else within_limit(codes, limit)


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


class RemovalData:
    """An open removal file: its header and its block-compressed section, read by block."""

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
    """Open a sector's removal file made for the sector file of SHA-256 ``values_sha256``;
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
    section = Section.open(
        f"{path} (removal distances)", SolutionFile(path), info.offset, info.nbytes_section,
        info.entries, info.block, info.dtype, info.table_crc,
    )  # fmt: skip
    return RemovalData(info, section)


__all__ = [
    "RemovalData",
    "RemovalInfo",
    "open_removals",
    "read_removal_info",
    "removal_filename",
    "rule_decided",
    "within_limit",
]
