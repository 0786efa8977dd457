"""The runtime never loads the solver: the daemon, the app's search jobs and the engine's search
start without ``morris.solver``, Dask or distributed in the interpreter (the import-linter
contract in pyproject.toml checks the imports; this checks what a fresh interpreter loads)."""

from __future__ import annotations

import pytest

from tests.loaded import loaded_after

#: Needs real time: a fresh interpreter per module.
pytestmark = pytest.mark.realtime


def _loaded(module: str) -> list[str]:
    return loaded_after(f"import {module}", ["dask", "distributed", "morris.solver"])


@pytest.mark.parametrize(
    "module",
    [
        "morris.daemon.loop",
        "morris.app.jobs",
        "morris.engine.search",
        "morris.engine.solution",
        "morris.engine.tables",
        "morris.sim",
    ],
)
def test_the_runtime_loads_no_solver_nor_dask(module: str) -> None:
    assert _loaded(module) == []


def test_the_solver_is_found_where_the_build_commands_import_it() -> None:
    """The check above could pass with a solver that does not import at all."""
    assert "morris.solver.solution.driver" in _loaded("morris.solver.solution")
