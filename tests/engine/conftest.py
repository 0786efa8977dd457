"""Fixtures shared by the engine tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def tables_3v3(tmp_path_factory: pytest.TempPathFactory) -> object:
    """Real endgame tables of 3 v 3 pieces, flying on (built once per test process)."""
    from morris.engine.tables import EndgameTables
    from morris.solver.tables import build_tables

    directory = tmp_path_factory.mktemp("tables")
    build_tables(directory, max_pieces=6, flying=(True,))
    return EndgameTables.load(directory)
