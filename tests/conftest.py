"""Fixtures shared by the whole suite."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

# Test folders are named like the packages they test (tests/hardware, ...). Put the project root
# first on sys.path so ``import hardware`` finds the package, not the test folder.
_ROOT = str(Path(__file__).resolve().parent.parent)
if sys.path[:1] != [_ROOT]:
    sys.path.insert(0, _ROOT)


@pytest.fixture(autouse=True)
def mock_factory() -> Iterator[MockFactory]:
    """A fresh gpiozero MockFactory as the default pin factory of every test (gpiozero's pattern).

    No test ever touches real pins; tests that build devices without ``pin_factory=`` get mock pins.
    """
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        # reset() also clears what MockFactory keeps at class level between tests.
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
        Device.pin_factory = saved
