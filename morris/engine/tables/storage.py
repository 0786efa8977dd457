"""The file format of a data directory: one ``.npy`` file per table (the stored layout, codes
``distance + 1``, 0 a draw) and ``manifest.json`` with each table's summary, size and SHA-256."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np

from morris.engine.errors import TableError
from morris.engine.tables.keys import (
    Codes,
    TableKey,
)
from morris.i18n import msg

FORMAT_VERSION: Final = 1
MANIFEST_NAME: Final = "manifest.json"


@dataclass(frozen=True)
class TableInfo:
    """Summary of one stored table, relative to the side to move; kept in the manifest."""

    key: TableKey
    won: int
    drawn: int
    lost: int
    longest_win: int
    longest_loss: int
    file: str
    dtype: str
    sha256: str
    nbytes: int

    def to_json(self) -> dict[str, Any]:
        """The manifest entry (its ``opponent`` is the key's :attr:`~TableKey.other`: the
        manifest's field keeps the name it was written with)."""
        return {
            "mover": self.key.mover,
            "opponent": self.key.other,
            "flying": self.key.flying,
            "positions": self.key.size,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "longest_win": self.longest_win,
            "longest_loss": self.longest_loss,
            "file": self.file,
            "dtype": self.dtype,
            "sha256": self.sha256,
            "bytes": self.nbytes,
        }

    @classmethod
    def from_json(cls, entry: dict[str, Any], where: Path) -> TableInfo:
        """Read a manifest entry; raises :class:`TableError` naming ``where`` if it is malformed."""
        try:
            key = TableKey(int(entry["mover"]), int(entry["opponent"]), bool(entry["flying"]))
            info = cls(
                key,
                int(entry["won"]),
                int(entry["drawn"]),
                int(entry["lost"]),
                int(entry["longest_win"]),
                int(entry["longest_loss"]),
                str(entry["file"]),
                str(entry["dtype"]),
                str(entry["sha256"]),
                int(entry["bytes"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise TableError(
                msg(
                    "{where}: malformed manifest entry {entry}: {reason}",
                    where=str(where),
                    entry=repr(entry),
                    reason=str(exc),
                )
            ) from None
        if int(entry.get("positions", key.size)) != key.size:
            raise TableError(
                msg("{where}: wrong position count for {table}", where=str(where), table=key.name)
            )
        return info


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file, read a MiB at a time (what the manifest keeps of a table)."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_manifest(directory: Path) -> dict[TableKey, TableInfo]:
    """The tables listed in ``directory``'s manifest (empty if there is none).

    Raises :class:`TableError` naming the manifest if it is unreadable or of another format.
    """
    path = Path(directory) / MANIFEST_NAME
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise TableError(
            msg("{path}: unreadable manifest: {reason}", path=str(path), reason=str(exc))
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT_VERSION:
        raise TableError(
            msg(
                "{path}: not a format {version} table manifest",
                path=str(path),
                version=FORMAT_VERSION,
            )
        )
    infos = [TableInfo.from_json(e, path) for e in data.get("tables", [])]
    return {i.key: i for i in infos}


def load_codes(directory: Path, info: TableInfo, check: bool) -> Codes:
    """The codes of the table ``info`` describes, memory-mapped; with ``check`` its SHA-256 is
    verified. Raises :class:`TableError` naming the file if it does not match the manifest."""
    path = Path(directory) / info.file
    if not path.exists():
        raise TableError(
            msg(
                "{path}: table file missing (listed in {manifest})",
                path=str(path),
                manifest=MANIFEST_NAME,
            )
        )
    if path.stat().st_size != info.nbytes:
        raise TableError(
            msg(
                "{path}: size {size} bytes, manifest says {expected}",
                path=str(path),
                size=path.stat().st_size,
                expected=info.nbytes,
            )
        )
    if check and file_sha256(path) != info.sha256:
        raise TableError(
            msg(
                "{path}: checksum mismatch, the file is corrupt; rebuild the tables", path=str(path)
            )
        )
    try:
        codes = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise TableError(
            msg("{path}: unreadable table: {reason}", path=str(path), reason=str(exc))
        ) from None
    if codes.shape != (info.key.size,) or str(codes.dtype) != info.dtype:
        raise TableError(
            msg(
                "{path}: shape {shape} {dtype} does not match {table}",
                path=str(path),
                shape=str(codes.shape),
                dtype=str(codes.dtype),
                table=info.key.name,
            )
        )
    result: Codes = codes
    return result
