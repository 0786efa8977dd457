"""The examples in every docstring of the project run as written.

Every module of the packages below is imported and its doctests run, so an example in a
docstring is a promise the suite keeps. The MicroPython firmware (``firmware_bridge.firmware``)
runs on the microcontroller, not here; its tests are in tests/firmware_bridge.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

PACKAGES = ("morris", "morris_device", "hardware", "firmware_bridge")
NOT_HERE = ("firmware_bridge.firmware",)
ROOT = Path(__file__).resolve().parents[1]


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        names.append(package)
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, prefix=f"{package}."):
            if not info.name.startswith(NOT_HERE):
                names.append(info.name)
    return sorted(names)


def _has_examples(name: str) -> bool:
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None
    return spec.origin.endswith(".py") and ">>> " in Path(spec.origin).read_text("utf-8")


MODULES = [name for name in _modules() if _has_examples(name)]


def test_the_examples_are_found() -> None:
    # A sample of modules known to carry examples: if discovery broke, this says so.
    for name in ("morris", "morris.core.board", "morris.referee", "hardware.simulated_board"):
        assert name in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for test in finder.find(module):
        examples += len(test.examples)
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} example(s) in {name} failed"
    assert examples > 0, f"{name} mentions '>>> ' but has no examples"
