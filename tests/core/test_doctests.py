"""The examples in the docstrings of the core run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "morris",
    "morris.core.points",
    "morris.core.moves",
    "morris.core.rules",
    "morris.core.board",
    "morris.core.variant",
    "morris.core.record",
    "morris.core.perft",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0, f"{name} has no examples"
