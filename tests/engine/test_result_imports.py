"""A position's value costs no numpy: the daemon, its review pages and ``morris review`` name
results without loading numpy (16 MiB of a Pi Zero 2 W's 512), which only the tables' and the
solved game's readers need."""

from __future__ import annotations

import pytest

from tests.loaded import loaded_after

#: Needs real time: a fresh interpreter per module.
pytestmark = pytest.mark.realtime


def _loads_numpy(module: str) -> bool:
    return "numpy" in loaded_after(f"import {module}", ["numpy"])


@pytest.mark.parametrize(
    "module",
    ["morris.engine.result", "morris.app.values", "morris.app.review", "morris.daemon.loop"],
)
def test_naming_a_value_loads_no_numpy(module: str) -> None:
    assert not _loads_numpy(module)


def test_the_readers_do_load_numpy() -> None:
    """The check above could pass if the probe never loaded numpy at all."""
    assert _loads_numpy("morris.engine.tables.probe")
