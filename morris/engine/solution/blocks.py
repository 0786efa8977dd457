"""Block-compressed sections of a sector file: an array of small values cut into fixed-size blocks
of entries, each compressed on its own, behind a table of the blocks' offsets and checksums, so
one entry is read by decompressing one block.

A section at offset ``S`` with ``n`` blocks::

    S               (n + 1) uint64, little-endian: where each block starts in the file, then
                    where the last one ends
    S + 8(n + 1)    n uint32: the CRC-32 of each compressed block
    S + 12n + 8     the blocks, one zstd frame each

The codec is zstd (level 19, no frame header fields that vary): it compressed the solution's
values 10 to 25 % smaller than zlib at level 9 and decompresses a block three to ten times faster
(``benchmarks/bench_solution_size.py``), and it is deterministic: the same array gives the same
bytes. A block's CRC-32 is checked each time it is decompressed, so a damaged block is refused
even when the file's SHA-256 was not checked at load.

A loaded file is read by byte range (:class:`SolutionFile`, ``os.pread``), neither mapped nor
held open: 9 men's morris is some 1,100 files and more than 10 GB. Mapped, each file would keep
a descriptor (Python's ``mmap`` holds one), more than the 1,024 a service or a shell may open by
default, and every descriptor the serial port or a pin opened after them would be numbered above
1,023, where ``select()`` (pyserial's read) cannot watch it; and a 32-bit Raspberry Pi OS process
has 3 GB of addresses for all of it. A few descriptors of the files last read stay open
(:data:`OPEN_FILES`), so reading a block costs one ``pread`` of a few kilobytes beside its
decompression, and the pages stay in the kernel's page cache either way.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

import numpy as np
import zstandard

from morris.engine.errors import SolutionError
from morris.i18n import msg

logger = logging.getLogger(__name__)

CODEC: Final = "zstd"
#: The level blocks are written at. Any zstd level is read (decompression does not depend on
#: it): files of earlier builds, written at 19, stay good. 12 compresses 3 times faster than 19
#: for 1 % more bytes (12 MB/s against 3.8 on the distances of 9 men's 7v7, ratio 2.87 against
#: 2.91; values 1.99 against 2.01), where level 19 took a fifth of a 9-men moving task's time.
LEVEL: Final = 12


def readable_codec(codec: object) -> bool:
    """Whether a file's header names a codec this version reads: ``zstd-N``, N a zstd level."""
    if not isinstance(codec, str) or not codec.startswith(f"{CODEC}-"):
        return False
    level = codec.removeprefix(f"{CODEC}-")
    return level.isdigit() and 1 <= int(level) <= 22


#: Entries a block: of the win/draw/loss section (2 bits each: a block is 16 KiB before
#: compression) and of the distance section (16 or 32 KiB). Larger blocks compress better and
#: decompress slower; these keep a probe that decompresses a block under 50 us here
#: (benchmarks/bench_solution_size.py measures both).
WDL_BLOCK: Final = 1 << 16
DIST_BLOCK: Final = 1 << 14

#: The block table's types: where each block starts, and its CRC-32.
OFFSET_DTYPE: Final = np.dtype("<u8")
CRC_DTYPE: Final = np.dtype("<u4")


#: Descriptors of the solution's files kept open at most (the files read last).
OPEN_FILES: Final = 32


class Readable(Protocol):
    """Bytes a section is read from: a loaded file (:class:`SolutionFile`), or a buffer."""

    def __len__(self) -> int: ...

    def __getitem__(self, key: slice, /) -> bytes | memoryview: ...


class _Descriptors:
    """The open descriptors of the files last read, the least recently read closed first; one
    lock around opening and reading, so no thread reads a descriptor another has closed."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._open: OrderedDict[Path, int] = OrderedDict()

    def read(self, path: Path, start: int, size: int) -> bytes:
        """``size`` bytes of ``path`` from ``start`` (fewer at its end)."""
        with self._lock:
            fd = self._open.pop(path, None)
            if fd is None:
                fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
                while len(self._open) >= self.limit:
                    os.close(self._open.popitem(last=False)[1])
            self._open[path] = fd
            return os.pread(fd, size, start)

    def close_all(self) -> None:
        """Close every descriptor."""
        with self._lock:
            while self._open:
                os.close(self._open.popitem()[1])

    def forget(self) -> None:
        """In a forked child: a new lock (the parent's may have been held by another thread);
        the inherited descriptors are the child's own copies, closed."""
        self._lock = threading.Lock()
        for fd in self._open.values():
            os.close(fd)
        self._open.clear()


_descriptors = _Descriptors(OPEN_FILES)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_descriptors.forget)


def close_files() -> None:
    """Close the descriptors kept open: a file replaced or removed after this is read anew by
    its name at the next block (a test's directory about to go, a file gone from the card)."""
    _descriptors.close_all()


class SolutionFile:
    """A file of the solved game, read by byte range: ``file[a:b]`` is bytes ``a .. b - 1`` as
    they are on disk now. :class:`SolutionError` naming the file if it cannot be read (gone,
    or unreadable); a short read (a truncated file) gives fewer bytes, which the checksums
    refuse."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.size = self.path.stat().st_size

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, key: slice, /) -> bytes:
        start, stop, step = key.indices(self.size)
        if step != 1:
            raise ValueError("a solution file is read by contiguous ranges")
        try:
            return _descriptors.read(self.path, start, max(0, stop - start))
        except OSError as exc:
            raise SolutionError(
                msg("{path}: cannot be read ({reason})", path=str(self.path), reason=exc.strerror)
            ) from None


_local = threading.local()


def _decompressor() -> zstandard.ZstdDecompressor:
    # One a thread: making one costs more than decompressing a block, and one is not to be used
    # by two threads at once.
    d: zstandard.ZstdDecompressor | None = getattr(_local, "d", None)
    if d is None:
        d = _local.d = zstandard.ZstdDecompressor()
    return d


def table_bytes(blocks: int) -> int:
    """Size of the table of a section of ``blocks`` blocks."""
    return OFFSET_DTYPE.itemsize * (blocks + 1) + CRC_DTYPE.itemsize * blocks


def table_crc(section: bytes, entries: int, block: int) -> int:
    """The CRC-32 of the block table of an encoded section (kept in the file's header)."""
    return zlib.crc32(section[: table_bytes(-(-entries // block))])


@dataclass(frozen=True, eq=False)
class Section:
    """One block-compressed section of a file (hashed by identity: a cache key)."""

    name: str  # the file and section, for messages
    data: Readable  # the whole file
    entries: int
    block: int
    dtype: np.dtype[Any]
    starts: np.ndarray[Any, np.dtype[np.uint64]]
    crcs: np.ndarray[Any, np.dtype[np.uint32]]

    @classmethod
    def open(
        cls, name: str, data: Readable, offset: int, size: int, entries: int, block: int,
        dtype: str, table_crc: int,
    ) -> Section:  # fmt: skip
        """The section at ``offset`` of ``size`` bytes; :class:`SolutionError` naming the file
        if its table is missing, truncated or damaged."""
        count = -(-entries // block) if block > 0 else -1
        need = table_bytes(count)
        if count < 0 or offset + need > len(data) or need > size:
            raise SolutionError(
                msg("{name}: block table missing or truncated; rebuild it", name=name)
            )
        table = data[offset : offset + need]
        if zlib.crc32(table) != table_crc:
            raise SolutionError(
                msg("{name}: block table damaged (checksum); rebuild it", name=name)
            )
        starts = np.frombuffer(table, dtype=OFFSET_DTYPE, count=count + 1).astype(np.uint64)
        crcs = np.frombuffer(table, dtype=CRC_DTYPE, offset=OFFSET_DTYPE.itemsize * (count + 1))
        if starts[0] != offset + need or starts[-1] != offset + size or np.any(np.diff(starts) < 0):
            raise SolutionError(
                msg("{name}: block table does not fit its section; rebuild it", name=name)
            )
        return cls(name, data, entries, block, np.dtype(dtype), starts, crcs.astype(np.uint32))

    @property
    def blocks(self) -> int:
        """Blocks in the section."""
        return len(self.crcs)

    def decode(self, b: int) -> np.ndarray[Any, Any]:
        """Block ``b`` decompressed (native byte order); :class:`SolutionError` naming the file
        and the block if it is damaged."""
        frame = self.data[int(self.starts[b]) : int(self.starts[b + 1])]
        length = min(self.block, self.entries - b * self.block)
        try:
            if zlib.crc32(frame) != int(self.crcs[b]):
                raise ValueError("checksum mismatch")
            raw = _decompressor().decompress(frame, max_output_size=length * self.dtype.itemsize)
            if len(raw) != length * self.dtype.itemsize:
                raise ValueError(f"{len(raw)} bytes, not {length * self.dtype.itemsize}")
        except (ValueError, zstandard.ZstdError) as exc:
            raise SolutionError(
                msg(
                    "{name}: block {block} damaged ({reason}); rebuild it",
                    name=self.name,
                    block=b,
                    reason=str(exc),
                )
            ) from None
        out = np.frombuffer(raw, dtype=self.dtype.newbyteorder("<"))
        if sys.byteorder == "little":
            return out.view(self.dtype.name)  # the same bytes in the native dtype: no copy
        return out.astype(self.dtype.name)

    def decode_all(self) -> np.ndarray[Any, Any]:
        """Every entry of the section, decompressed."""
        out = np.empty(self.entries, dtype=self.dtype.name)
        for b in range(self.blocks):
            out[b * self.block : (b + 1) * self.block] = self.decode(b)
        return out
