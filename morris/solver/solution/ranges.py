"""Large placing sectors split into ranges of entries, each solved by a task of its own.

The placing phase is acyclic: an entry's code is one Bellman step over its successors' codes
(:func:`~morris.solver.solution.turns.expected_codes`) and depends on no other entry of its
sector. So a large placing sector is cut into ranges of entries (:func:`plan_ranges`); each range
is a task that writes its codes to a *part file* in the solution directory, and one more task
assembles the parts into the sector file with :func:`~morris.solver.solution.write.write_sector`
(the same bytes as a sector solved in one task) and removes them.

A part file, ``.sector-M-O-MH-OH.part-START-STOP``, holds the range's codes (uint16, little
endian) followed by their SHA-256. It is written under a temporary name and renamed, so a build
killed at any moment leaves either no part or a complete one; a part whose size and checksum are
right is never computed again. Parts no build needs any more (their sector finished, or cut at
other boundaries) are swept at the start of a build (:func:`sweep_parts`).
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from morris.core.points import MILL_MASKS, NEIGHBOURS, NUM_POINTS
from morris.engine.solution.sectors import SectorKey, Unit
from morris.engine.solution.storage import open_sector
from morris.engine.solution.symmetry import IMAGES, index_of_key, representatives
from morris.engine.tables.keys import Codes, ProgressCallback
from morris.solver.solution.turns import expected_codes, work_chunk

if TYPE_CHECKING:
    from morris.solver.solution._retro import Placing

logger = logging.getLogger(__name__)

#: Entries of a range task by default: a few seconds of work, a few MB of output.
DEFAULT_SPLIT: Final = 1 << 22
#: The fewest entries a range holds, whatever the memory (smaller ranges cost more than they
#: spread).
MIN_RANGE: Final = 1 << 12
#: Bytes a range task holds per entry of its range: its uint16 codes.
RANGE_BYTES_PER_ENTRY: Final = 2
_DIGEST: Final = 32
_PART: Final = re.compile(r"^\.(sector-\d+-\d+-\d+-\d+\.msol)\.part-(\d+)-(\d+)$")


@dataclass(frozen=True, order=True)
class Range:
    """Entries ``start .. stop - 1`` of a placing sector: what one range task solves."""

    key: SectorKey
    start: int
    stop: int

    @property
    def size(self) -> int:
        """Entries in the range."""
        return self.stop - self.start

    @property
    def filename(self) -> str:
        """The part file of the range in the solution directory."""
        return f".{self.key.filename}.part-{self.start:012d}-{self.stop:012d}"


def plan_ranges(key: SectorKey, split: int) -> list[Range]:
    """The ranges a placing sector is solved in: one when it has at most ``split`` entries,
    else the fewest ranges of at most ``split`` entries, of sizes as equal as they can be.

    The plan depends on nothing but the sector and ``split``, so the graph is the same on every
    run and a resumed build finds the parts of the one it resumes.
    """
    if split < 1:
        raise ValueError(f"split must be at least 1 entry, not {split}")
    size = index_of_key(key).size
    count = max(1, -(-size // split))
    bounds = [size * i // count for i in range(count + 1)]
    return [Range(key, a, b) for a, b in itertools.pairwise(bounds)]


def range_split(split: int, capacity: int, dependencies_memory: int) -> int:
    """Entries per range: ``split``, or fewer when a worker of ``capacity`` bytes could not hold
    a range that large beside the dependencies' ``dependencies_memory`` (never under
    :data:`MIN_RANGE`)."""
    room = (capacity - dependencies_memory) // RANGE_BYTES_PER_ENTRY
    return max(MIN_RANGE, min(split, room))


def solve_range(
    rng: Range,
    solved: Mapping[SectorKey, Codes],
    progress: ProgressCallback | None = None,
    name: str | None = None,
    draws: Callable[[int, int], np.ndarray[Any, np.dtype[np.bool_]]] | None = None,
) -> np.ndarray[Any, np.dtype[np.uint16]]:
    """The codes (``distance + 1``, 0 a draw) of the range's entries, uint16.

    ``solved`` holds the codes of the sector's successors; ``progress`` gets (``name``, entries
    done, entries of the range); ``draws(start, stop)``, where given, says which entries of
    ``start .. stop - 1`` are known to be draws: they get 0 without the step. The step runs in
    the C extension (``_retro.Placing``, a few times faster) where it is built, else in numpy
    (:func:`~morris.solver.solution.turns.expected_codes`, the reference it is tested against):
    the same codes either way.
    """
    label = name or rng.key.name
    out = np.empty(rng.size, dtype=np.uint16)
    placing = _native_placing(rng.key, solved)
    step = _NATIVE_CHUNK if placing is not None else work_chunk(rng.key)
    for first in range(rng.start, rng.stop, step):
        last = min(first + step, rng.stop)
        part = out[first - rng.start : last - rng.start]
        known = None if draws is None else np.ascontiguousarray(draws(first, last), np.bool_)
        if placing is not None:
            placing.solve(first, last, part, None if known is None else known.view(np.uint8))
        elif known is None:
            part[:] = expected_codes(rng.key, np.arange(first, last, dtype=np.int64), solved)
        else:
            idx = np.flatnonzero(~known) + first
            part[:] = 0
            part[idx - first] = expected_codes(rng.key, idx.astype(np.int64), solved)
        if progress is not None:
            progress(label, last - rng.start, rng.size)
    return out


#: Entries per call of the C step (a progress report after each; a second or two).
_NATIVE_CHUNK: Final = 1 << 22


def _native_placing(key: SectorKey, solved: Mapping[SectorKey, Codes]) -> Placing | None:
    """The C step of a placing sector, or None where the extension is not built."""
    try:
        from morris.solver.solution._retro import Placing
    except ImportError:
        return None
    quiet = key.quiet_successor()
    removal = key.removal_successor()
    return Placing(
        key.mover_on,
        key.other_on,
        key.other_on > 0 and removal is None,
        IMAGES,
        np.array(NEIGHBOURS, dtype=np.uint32),
        np.array(MILL_MASKS, dtype=np.uint32),
        _placing_representatives(key),
        np.ascontiguousarray(solved[quiet]),
        None if removal is None else np.ascontiguousarray(solved[removal]),
    )


def _placing_representatives(key: SectorKey) -> list[Any]:
    """The canonical sets the C step reads: of the sector's mover, of its successors' movers."""
    needed = {key.mover_on, key.other_on, key.other_on - 1}
    return [representatives(n) if n in needed else None for n in range(NUM_POINTS + 1)]


def write_part(directory: Path, rng: Range, codes: np.ndarray[Any, Any]) -> None:
    """Write a range's codes atomically (a temporary name, then renamed)."""
    data = np.asarray(codes, dtype="<u2").tobytes()
    if len(data) != RANGE_BYTES_PER_ENTRY * rng.size:
        raise ValueError(f"{rng.filename}: {len(data) // 2} codes for {rng.size} entries")
    path = Path(directory) / rng.filename
    tmp = path.with_name(f"{rng.filename}.{os.getpid()}.tmp")
    with tmp.open("wb") as fh:
        fh.write(data)
        fh.write(hashlib.sha256(data).digest())
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def read_part(directory: Path, rng: Range) -> np.ndarray[Any, np.dtype[np.uint16]] | None:
    """A range's codes from its part file, or None if it is missing or damaged (a damaged part
    is removed, to be solved again)."""
    path = Path(directory) / rng.filename
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    data, digest = raw[:-_DIGEST], raw[-_DIGEST:]
    if len(raw) != RANGE_BYTES_PER_ENTRY * rng.size + _DIGEST or (
        hashlib.sha256(data).digest() != digest
    ):
        logger.warning("%s: damaged part file; the range will be solved again", path)
        path.unlink(missing_ok=True)
        return None
    return np.frombuffer(data, dtype="<u2").astype(np.uint16)


def remove_parts(directory: Path, ranges: Iterable[Range]) -> None:
    """Remove the part files of ``ranges`` (those there are)."""
    for rng in ranges:
        (Path(directory) / rng.filename).unlink(missing_ok=True)


def sweep_parts(directory: Path, keep: Iterable[Range], sectors: Iterable[SectorKey]) -> int:
    """Remove the part files in ``directory`` of ``sectors`` (a build's own) but those of
    ``keep``; how many went. The parts of any other sector are left alone: a directory can hold
    the build of a larger game (a build of 7 men's morris in the directory of an unfinished
    9 men's must not take away the 9 men's ranges solved so far)."""
    wanted = {r.filename for r in keep}
    mine = {k.filename for k in sectors}
    gone = 0
    for path in Path(directory).glob(".sector-*.part-*"):
        found = _PART.match(path.name)
        if found and found.group(1) in mine and path.name not in wanted:
            path.unlink(missing_ok=True)
            gone += 1
    return gone


def sector_dependencies(directory: Path, key: SectorKey) -> dict[SectorKey, Codes]:
    """The codes of the finished sectors ``key``'s turns reach, decoded and checked once per
    process: the range tasks of one sector, run one after another on a worker, share them.

    A worker holds one sector's at a time (what a range task's memory counts): those of
    another sector, or of files rebuilt since, are let go before these are read."""
    deps = Unit((key,)).dependencies()
    identity = (str(directory), key, tuple(_identity(Path(directory) / d.filename) for d in deps))
    if identity not in _held:
        release_dependencies()
        _held[identity] = {d: open_sector(directory, d).dist for d in deps}  # errors name a file
    return _held[identity]


def release_dependencies() -> None:
    """Let go of the successors' codes :func:`sector_dependencies` holds (a task that is not a
    range of the same sector needs the memory)."""
    _held.clear()


#: What :func:`sector_dependencies` holds: one sector's successors' codes, under the identity of
#: the directory, the sector and its successors' files.
_held: dict[tuple[Any, ...], dict[SectorKey, Codes]] = {}


def _identity(path: Path) -> tuple[int, int, int] | None:
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    return (stat.st_ino, stat.st_mtime_ns, stat.st_size)
