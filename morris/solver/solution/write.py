"""Writing the solved game's files: a sector's file (its 2-bit values and distances in
block-compressed sections) and any file of the solution atomically, and whether a file a build
wrote is finished (:func:`sound_file`, :func:`finished`). The formats and their readers are
:mod:`morris.engine.solution.storage` and :mod:`morris.engine.solution.blocks`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np
import zstandard

from morris.engine.encoding import chunks
from morris.engine.errors import SolutionError
from morris.engine.solution.blocks import (
    CODEC,
    CRC_DTYPE,
    DIST_BLOCK,
    LEVEL,
    OFFSET_DTYPE,
    WDL_BLOCK,
    table_bytes,
    table_crc,
)
from morris.engine.solution.sectors import SectorKey
from morris.engine.solution.storage import (
    DRAW,
    HEADER_SIZE,
    LOSS,
    MAGIC,
    WIN,
    SectorInfo,
    file_matches,
    read_info,
)
from morris.engine.solution.symmetry import SymmetricIndex

logger = logging.getLogger(__name__)


class _Header(Protocol):
    """What a file's header says of the whole file (a sector's, a removal file's)."""

    @property
    def nbytes(self) -> int: ...

    @property
    def sha256(self) -> str: ...


_H = TypeVar("_H", bound=_Header)


def wdl_of(codes: np.ndarray[Any, Any]) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """2-bit values of distance codes (``distance + 1``, 0 a draw)."""
    c = np.asarray(codes)
    loss, draw, win = (np.uint8(v) for v in (LOSS, DRAW, WIN))  # one byte an entry, not eight
    return np.where(c == 0, draw, np.where(c & 1 == 1, loss, win)).astype(np.uint8)


def pack(values: np.ndarray[Any, np.dtype[np.uint8]]) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """Four 2-bit values a byte, the first in the low bits."""
    padded = np.zeros((values.size + 3) // 4 * 4, dtype=np.uint8)
    padded[: values.size] = values
    quads = padded.reshape(-1, 4)
    return (quads[:, 0] | quads[:, 1] << 2 | quads[:, 2] << 4 | quads[:, 3] << 6).astype(np.uint8)


def _compressor() -> zstandard.ZstdCompressor:
    # No content size, no dictionary id, no frame checksum (the table's CRC-32 does that): the
    # frame depends on the bytes alone.
    return zstandard.ZstdCompressor(
        level=LEVEL, write_content_size=False, write_checksum=False, write_dict_id=False
    )


def encode_section(values: np.ndarray[Any, Any], block: int, offset: int) -> bytes:
    """The section of ``values`` (uint8 or uint16, stored little-endian) in blocks of ``block``
    entries, to be written at ``offset`` in the file."""
    flat = np.ascontiguousarray(values, dtype=values.dtype.newbyteorder("<"))
    count = -(-flat.size // block)
    compressor = _compressor()
    frames = [
        compressor.compress(flat[b * block : (b + 1) * block].tobytes()) for b in range(count)
    ]
    starts = np.empty(count + 1, dtype=OFFSET_DTYPE)
    starts[0] = offset + table_bytes(count)
    starts[1:] = starts[0] + np.cumsum([len(f) for f in frames], dtype=np.int64)
    crcs = np.array([zlib.crc32(f) for f in frames], dtype=CRC_DTYPE)
    return b"".join([starts.tobytes(), crcs.tobytes(), *frames])


def count_values(key: SectorKey, codes: np.ndarray[Any, Any]) -> tuple[int, int, int, int, int]:
    """(won, drawn, lost over every placement, longest win, longest loss) of a sector."""
    index = SymmetricIndex(key.mover_on, key.other_on)
    totals = np.zeros(3, dtype=np.int64)
    longest = [0, 0]
    for idx in chunks(index.size, 1 << 22):
        c = np.asarray(codes[idx]).astype(np.int64)
        totals += np.bincount(wdl_of(c), weights=index.weights(idx), minlength=3).astype(np.int64)
        wins = c[(c > 0) & (c & 1 == 0)]
        losses = c[c & 1 == 1]
        longest[0] = max(longest[0], int(wins.max(initial=1)) - 1)
        longest[1] = max(longest[1], int(losses.max(initial=1)) - 1)
    return int(totals[WIN]), int(totals[DRAW]), int(totals[LOSS]), longest[0], longest[1]


def write_sector(
    directory: Path,
    key: SectorKey,
    codes: np.ndarray[Any, Any],
    *,
    wdl_block: int = WDL_BLOCK,
    dist_block: int = DIST_BLOCK,
) -> SectorInfo:
    """Write a solved sector atomically (its values and distances in blocks of ``wdl_block``
    and ``dist_block`` entries); its header."""
    index = SymmetricIndex(key.mover_on, key.other_on)
    if codes.shape != (index.size,):
        raise SolutionError(f"{key.name}: {codes.shape} codes for {index.size} entries")
    longest = int(np.asarray(codes).max(initial=0))
    dist = np.asarray(codes).astype(np.uint8 if longest <= 0xFF else np.uint16)
    won, drawn, lost, longest_win, longest_loss = count_values(key, dist)
    wdl_offset = HEADER_SIZE
    if wdl_block % 4:
        raise SolutionError(f"{key.name}: {wdl_block} values a block, not a multiple of 4")
    packed = np.empty(-(-index.size // 4), dtype=np.uint8)
    step = 1 << 22  # a multiple of 4: the temporaries stay small in the largest sectors
    for start in range(0, index.size, step):
        packed[start // 4 : (start + step) // 4] = pack(wdl_of(dist[start : start + step]))
    wdl = encode_section(packed, wdl_block // 4, wdl_offset)
    dist_offset = wdl_offset + len(wdl)
    dist_bytes = encode_section(dist, dist_block, dist_offset)
    digest = hashlib.sha256()
    for part in (wdl, dist_bytes):
        digest.update(part)
    info = SectorInfo(
        key, index.size, index.placements, won, drawn, lost, longest_win, longest_loss,
        str(dist.dtype), f"{CODEC}-{LEVEL}",
        wdl_offset, len(wdl), wdl_block, table_crc(wdl, -(-index.size // 4), wdl_block // 4),
        dist_offset, len(dist_bytes), dist_block, table_crc(dist_bytes, index.size, dist_block),
        digest.hexdigest(),
    )  # fmt: skip
    header = MAGIC + json.dumps(info.to_json(), sort_keys=True).encode()
    if len(header) > HEADER_SIZE:
        raise SolutionError(f"{key.name}: header of {len(header)} bytes")
    write_file(Path(directory) / key.filename, header, (wdl, dist_bytes))
    return info


def write_file(path: Path, header: bytes, parts: tuple[bytes, ...]) -> None:
    """Write a file of the solution atomically: its header padded to :data:`HEADER_SIZE`, then
    ``parts``, under a temporary name (``.NAME.PID.tmp``, swept by the build) renamed at the
    end."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with tmp.open("wb") as fh:
        fh.write(header.ljust(HEADER_SIZE, b" "))
        for part in parts:
            fh.write(part)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def sound_file(path: Path, read_header: Callable[[Path], _H]) -> _H | None:
    """The header of the file at ``path`` (read by ``read_header``) if the file is there, its
    header readable and its size and SHA-256 those the header says; else None. A damaged file
    is logged and removed, so the build writes it again and nothing uses it."""
    if not path.exists():
        return None
    try:
        info = read_header(path)
    except SolutionError as exc:
        logger.warning("%s; it will be rebuilt", exc)
        path.unlink(missing_ok=True)
        return None
    if not file_matches(path, info.nbytes, info.sha256):
        logger.warning("%s: checksum mismatch, the file is damaged; it will be rebuilt", path)
        path.unlink(missing_ok=True)
        return None
    return info


def finished(directory: Path, key: SectorKey) -> SectorInfo | None:
    """The header of a complete, undamaged sector file, or None (missing or damaged: a damaged
    file is logged and removed, so it is rebuilt and never used)."""
    return sound_file(Path(directory) / key.filename, read_info)
