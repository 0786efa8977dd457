"""Writing the endgame tables: a table's file and the manifest that lists them. The format and
its reader are :mod:`morris.engine.tables.storage`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from morris.engine.tables.keys import Codes, TableKey
from morris.engine.tables.storage import (
    FORMAT_VERSION,
    MANIFEST_NAME,
    TableInfo,
    file_sha256,
)


def summarize(key: TableKey, codes: Codes) -> tuple[int, int, int, int, int]:
    """(won, drawn, lost, longest win, longest loss) of a table, for the side to move."""
    c = np.asarray(codes).astype(np.int64)
    drawn = int(np.count_nonzero(c == 0))
    won = int(np.count_nonzero((c & 1) == 0)) - drawn
    lost = c.size - won - drawn
    wins = c[(c & 1) == 0]
    losses = c[(c & 1) == 1]
    longest_win = int(wins.max(initial=1)) - 1
    longest_loss = int(losses.max(initial=1)) - 1
    return won, drawn, lost, max(longest_win, 0), longest_loss


def write_manifest(directory: Path, infos: dict[TableKey, TableInfo]) -> None:
    """Write the manifest of ``infos`` into ``directory`` (atomically: a new file replaces it)."""
    path = directory / MANIFEST_NAME
    data = {
        "format": FORMAT_VERSION,
        "layout": "code = distance + 1 (0 = draw) for the side to move; index = colex rank of "
        "mover * C(24 - m, o) + colex rank of opponent over the points the mover leaves free",
        "tables": [infos[k].to_json() for k in sorted(infos)],
    }
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, path)


def save_table(directory: Path, key: TableKey, codes: Codes) -> TableInfo:
    """Write table ``key`` (stored layout) atomically into ``directory``; its manifest entry."""
    path = directory / key.filename
    tmp = directory / (key.filename + ".tmp")
    with tmp.open("wb") as fh:
        np.save(fh, codes, allow_pickle=False)
    os.replace(tmp, path)
    won, drawn, lost, longest_win, longest_loss = summarize(key, codes)
    return TableInfo(
        key, won, drawn, lost, longest_win, longest_loss, key.filename, str(codes.dtype),
        file_sha256(path), path.stat().st_size,
    )  # fmt: skip
