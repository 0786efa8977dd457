"""The levels are readable without the search, and the engine package loads its parts lazily."""

from __future__ import annotations

import doctest
import importlib

import pytest

import morris.engine
from morris.engine import levels
from tests.loaded import loaded_after


def _loaded_after(statement: str, module: str) -> bool:
    return module in loaded_after(statement, [module])


@pytest.mark.parametrize("module", ["morris.engine.search", "numpy", "morris.engine._native"])
def test_the_configuration_does_not_load_the_search(module: str) -> None:
    assert not _loaded_after("import morris.app.config", module)
    assert not _loaded_after("import morris.engine.levels", module)


def test_an_engine_name_loads_its_module_when_asked_for() -> None:
    assert _loaded_after("from morris.engine import Engine", "morris.engine.search")
    assert morris.engine.MAX_LEVEL is levels.MAX_LEVEL
    assert set(morris.engine.__all__) <= set(dir(morris.engine))
    for name in morris.engine.__all__:
        assert getattr(morris.engine, name) is not None
    with pytest.raises(AttributeError, match="has no attribute 'Missing'"):
        _ = morris.engine.Missing  # type: ignore[attr-defined]


def test_the_levels_run_from_weakest_to_strongest() -> None:
    assert sorted(levels.LEVELS) == list(range(levels.MIN_LEVEL, levels.MAX_LEVEL + 1))
    assert all(level.depth <= levels.MAX_DEPTH for level in levels.LEVELS.values())


@pytest.mark.parametrize("name", ["morris.engine", "morris.engine.levels"])
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no examples"
