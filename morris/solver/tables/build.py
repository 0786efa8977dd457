"""Build the tables into a data directory: solve each system in turn, from the least material up,
reusing the tables already there."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from morris.engine.tables.keys import (
    DEFAULT_MAX_PIECES,
    Codes,
    ProgressCallback,
    TableKey,
)
from morris.engine.tables.storage import TableInfo, load_codes, read_manifest
from morris.solver.tables.solve import solve_system, systems, table_keys, to_stored, to_wide
from morris.solver.tables.write import save_table, write_manifest

logger = logging.getLogger(__name__)


def build_tables(
    directory: Path,
    *,
    flying: Sequence[bool] = (True, False),
    max_pieces: int = DEFAULT_MAX_PIECES,
    force: bool = False,
    progress: ProgressCallback | None = None,
) -> list[TableInfo]:
    """Build every table with at most ``max_pieces`` pieces on the board into ``directory``.

    Tables already listed in the manifest are loaded (and their checksum checked) instead of
    rebuilt unless ``force``. Returns the infos of the tables built or found, in build order.
    ``progress(description, done, total)`` is called as positions are decided.
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    infos = read_manifest(directory)
    solved: dict[TableKey, Codes] = {}
    out: list[TableInfo] = []
    for system in systems(table_keys(max_pieces, flying)):
        label = " + ".join(k.name.split(" ", 1)[0] for k in system) + (
            " flying" if system[0].flying else " no flying"
        )
        if not force and all(k in infos for k in system):
            for k in system:
                solved[k] = to_wide(k, load_codes(directory, infos[k], check=True))
                out.append(infos[k])
            if progress is not None:
                total = sum(k.size for k in system)
                progress(label, total, total)
            continue
        logger.info("solving %s (%d positions)", label, sum(k.size for k in system))
        codes = solve_system(system, solved, progress, label)
        for k in system:
            infos[k] = save_table(directory, k, to_stored(k, codes[k]))
            solved[k] = codes[k]
            out.append(infos[k])
        write_manifest(directory, infos)
    return out
