"""The file of one solved sector: a header, the win/draw/loss values and the distances that let
the engine make progress in won positions, each section block-compressed for random access.

Layout (all offsets in bytes)::

    0      4096   header: b"MORRIS-SOLUTION\\n", then JSON (format, rules, sector, counts,
                  codec, the sections' offsets, sizes and block sizes, the CRC-32 of each
                  section's block table, SHA-256 of everything after the header), padded with
                  spaces
    4096   W      values: a block-compressed section (:mod:`~morris.engine.solution.blocks`) of
                  2-bit values, entry i in bits 2(i % 4) .. 2(i % 4) + 1 of byte i // 4, 0 LOSS,
                  1 DRAW, 2 WIN for the side to move
    4096+W D      distances: a block-compressed section of one code an entry, ``distance + 1``
                  (0 a draw), uint8 or uint16

The file holds nothing that depends on how it was built (no time, no worker count): a sector
solved again gives the same bytes. It is written to a temporary name and renamed, so a build
killed at any moment leaves either the old state or a complete file.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Final, TypeVar

import numpy as np

from morris.engine.errors import SolutionError
from morris.engine.solution.blocks import (
    Section,
    SolutionFile,
    readable_codec,
)
from morris.engine.solution.sectors import SectorKey
from morris.i18n import Message, msg

logger = logging.getLogger(__name__)

InfoT = TypeVar("InfoT")

MAGIC: Final = b"MORRIS-SOLUTION\n"
HEADER_SIZE: Final = 4096
FORMAT_VERSION: Final = 2
#: The rules every sector is solved by (the standard board, flying on, no draw rules).
RULES: Final = {"board": "standard", "flying": True, "draw_rules": False}
#: 2-bit values.
LOSS, DRAW, WIN = 0, 1, 2


@dataclass(frozen=True)
class SectorInfo:
    """A sector file's header: what it holds and its checksum."""

    key: SectorKey
    entries: int
    placements: int
    won: int  # counted over every placement, for the side to move
    drawn: int
    lost: int
    longest_win: int
    longest_loss: int
    dist_dtype: str
    codec: str  # of every block, with its level: "zstd-12" (earlier builds "zstd-19")
    wdl_offset: int  # each section: where it starts, its bytes (table and blocks), entries a
    wdl_bytes: int  # block, the CRC-32 of its block table
    wdl_block: int
    wdl_table_crc: int
    dist_offset: int
    dist_bytes: int
    dist_block: int
    dist_table_crc: int
    sha256: str

    @property
    def nbytes(self) -> int:
        """Size of the file."""
        return self.dist_offset + self.dist_bytes

    def to_json(self) -> dict[str, Any]:
        """The header's JSON."""
        data = asdict(self)
        data["key"] = asdict(self.key)
        return {"format": FORMAT_VERSION, "rules": RULES, **data}


def unpack(data: Any, count: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """The ``count`` 2-bit values of packed bytes."""
    raw = np.frombuffer(data, dtype=np.uint8, count=(count + 3) // 4)
    out = np.empty((raw.size, 4), dtype=np.uint8)
    for j in range(4):
        out[:, j] = (raw >> (2 * j)) & 3
    return out.reshape(-1)[:count]


def read_header(path: Path, magic: bytes, kind: Message) -> dict[str, Any]:
    """The JSON of the header of a file of the solution (``kind``: what it is, for messages);
    :class:`SolutionError` naming the file if it cannot be read or is not one."""
    try:
        with path.open("rb") as fh:
            head = fh.read(HEADER_SIZE)
    except OSError as exc:
        raise SolutionError(
            msg("{path}: unreadable {kind}: {reason}", path=str(path), kind=kind, reason=str(exc))
        ) from None
    if not head.startswith(magic) or len(head) < HEADER_SIZE:
        raise SolutionError(msg("{path}: not a {kind}", path=str(path), kind=kind))
    try:
        data = json.loads(head[len(magic) :].decode())
    except (ValueError, UnicodeDecodeError) as exc:
        raise SolutionError(
            msg("{path}: malformed header: {reason}", path=str(path), reason=str(exc))
        ) from None
    if not isinstance(data, dict):
        raise SolutionError(msg("{path}: malformed header: not a JSON object", path=str(path)))
    return data


def info_from(
    cls: Callable[..., InfoT], names: Iterable[str], path: Path, data: dict[str, Any]
) -> InfoT:
    """The header dataclass ``cls`` of fields ``names`` (``key`` a :class:`SectorKey`) of a
    header's JSON; :class:`SolutionError` naming the file for a field missing or of the wrong
    kind."""
    try:
        key = SectorKey(**data["key"])
        fields = {k: data[k] for k in names if k != "key"}
        return cls(key=key, **fields)
    except (KeyError, TypeError, ValueError) as exc:
        raise SolutionError(
            msg("{path}: malformed header: {reason}", path=str(path), reason=str(exc))
        ) from None


def read_info(path: Path) -> SectorInfo:
    """The header of a sector file; :class:`SolutionError` naming the file if it is not one."""
    data = read_header(path, MAGIC, msg("solution sector file"))
    if data.get("format") != FORMAT_VERSION:
        old = isinstance(data.get("format"), int) and data["format"] < FORMAT_VERSION
        params = {"path": str(path), "found": str(data.get("format")), "version": FORMAT_VERSION}
        raise SolutionError(
            msg(
                "{path}: sector file format {found} is old (before block compression), this"
                " version reads format {version}; rebuild it (morris tables build --men K)",
                **params,
            )
            if old
            else msg(
                "{path}: sector file format {found} is unknown, this version reads format"
                " {version}; rebuild it (morris tables build --men K)",
                **params,
            )
        )
    if not readable_codec(data.get("codec")):
        raise SolutionError(
            msg(
                "{path}: unknown codec {codec}; rebuild it",
                path=str(path),
                codec=str(data.get("codec")),
            )
        )
    if data.get("rules") != RULES:
        raise SolutionError(
            msg(
                "{path}: solved by other rules {rules}",
                path=str(path),
                rules=str(data.get("rules")),
            )
        )
    info = info_from(SectorInfo, SectorInfo.__dataclass_fields__, path, data)
    if info.key.filename != path.name:
        raise SolutionError(
            msg(
                "{path}: holds sector {sector}, not what its name says",
                path=str(path),
                sector=info.key.name,
            )
        )
    return info


def checksum_ok(path: Path, info: SectorInfo) -> bool:
    """Whether the file has its header's size and SHA-256."""
    return file_matches(path, info.nbytes, info.sha256)


def file_matches(path: Path, nbytes: int, sha256: str) -> bool:
    """Whether the file at ``path`` has ``nbytes`` bytes and the SHA-256 ``sha256`` of all that
    follows its header."""
    try:
        if path.stat().st_size != nbytes:
            return False
        digest = hashlib.sha256()
        with path.open("rb") as fh:
            fh.seek(HEADER_SIZE)
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return False
    return digest.hexdigest() == sha256


class SectorData:
    """An open sector file: its header and its two block-compressed sections, read by block.

    ``wdl`` and ``dist`` are every entry's value and distance code, decompressed when first
    asked for (what the build and the verifier read); a probe reads one block of a section.
    """

    def __init__(self, info: SectorInfo, wdl_section: Section, dist_section: Section) -> None:
        self.info = info
        self.wdl_section = wdl_section
        self.dist_section = dist_section

    @property
    def sections(self) -> tuple[Section, Section]:
        """The values' section and the distances'."""
        return (self.wdl_section, self.dist_section)

    @cached_property
    def wdl(self) -> np.ndarray[Any, np.dtype[np.uint8]]:
        """Every entry's value (0 LOSS, 1 DRAW, 2 WIN for the side to move)."""
        return unpack(self.wdl_section.decode_all(), self.info.entries)

    def wdl_between(self, start: int, stop: int) -> np.ndarray[Any, np.dtype[np.uint8]]:
        """The values of entries ``start .. stop - 1``, from the blocks that hold them only."""
        if not 0 <= start <= stop <= self.info.entries:
            raise ValueError(f"entries {start}..{stop} outside 0..{self.info.entries}")
        section = self.wdl_section
        per = section.block * 4  # entries a block of packed values
        first, last = start // per, -(-stop // per)
        entries = self.info.entries
        parts = [unpack(section.decode(b), min(per, entries - b * per)) for b in range(first, last)]
        values = np.concatenate(parts) if parts else np.empty(0, dtype=np.uint8)
        return values[start - first * per : stop - first * per]

    @cached_property
    def dist(self) -> np.ndarray[Any, Any]:
        """Every entry's distance code (``distance + 1``, 0 a draw)."""
        return self.dist_section.decode_all()


def open_sector(directory: Path, key: SectorKey, *, check: bool = True) -> SectorData:
    """Open a sector file; :class:`SolutionError` naming the file if it is missing,
    damaged (its block tables always, with ``check`` its SHA-256 too) or not what it should
    be."""
    path = Path(directory) / key.filename
    if not path.exists():
        raise SolutionError(
            msg(
                "{path}: sector {sector} not built (morris tables build --men K)",
                path=str(path),
                sector=key.name,
            )
        )
    info = read_info(path)
    if path.stat().st_size != info.nbytes:
        raise SolutionError(
            msg(
                "{path}: {size} bytes, its header says {expected}",
                path=str(path),
                size=path.stat().st_size,
                expected=info.nbytes,
            )
        )
    if check and not checksum_ok(path, info):
        raise SolutionError(
            msg("{path}: checksum mismatch, the file is damaged; rebuild it", path=str(path))
        )
    view = SolutionFile(path)
    wdl = Section.open(
        f"{path} (values)", view, info.wdl_offset, info.wdl_bytes, -(-info.entries // 4),
        max(0, info.wdl_block // 4), "uint8", info.wdl_table_crc,
    )  # fmt: skip
    dist = Section.open(
        f"{path} (distances)", view, info.dist_offset, info.dist_bytes, info.entries,
        info.dist_block, info.dist_dtype, info.dist_table_crc,
    )  # fmt: skip
    return SectorData(info, wdl, dist)
