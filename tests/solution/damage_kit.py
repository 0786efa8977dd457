"""Damaging a solved game's files in place, as a card that goes bad under a running daemon."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from morris.engine.solution.blocks import Section
from morris.engine.solution.sectors import SectorKey
from morris.engine.solution.storage import open_sector


def spoil(path: Path, sections: Iterable[Section]) -> None:
    """Flip the first byte of every block of ``sections`` in the file ``path``, in place (the
    file stays open to the daemon, as on a card that went bad under a running daemon)."""
    offsets = [int(s.starts[b]) for s in sections for b in range(s.blocks)]
    with path.open("r+b") as fh:
        for offset in offsets:
            fh.seek(offset)
            byte = fh.read(1)[0]
            fh.seek(offset)
            fh.write(bytes([byte ^ 0xFF]))


def spoil_sector(directory: Path, key: SectorKey) -> None:
    spoil(directory / key.filename, open_sector(directory, key, check=False).sections)
