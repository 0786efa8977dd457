"""Fixtures shared by the whole suite."""

from __future__ import annotations

import sys
import time
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
def english_board() -> Iterator[None]:
    """Every test starts with the board in English (the texts the tests read), whatever an
    earlier test in the same process chose (``morris run`` called in-process sets the language
    from the environment); a test about languages sets its own."""
    from morris import i18n

    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture(autouse=True)
def english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts with an English locale in its environment, ``LANG=C.UTF-8`` with
    ``LC_ALL`` and ``LC_MESSAGES`` unset, whatever the machine's: ``morris`` chooses its
    language from them (in-process ``main()`` and the subprocesses the tests start), and the
    tests read English help and messages. A test of a language sets its own (``--lang``,
    ``monkeypatch.setenv("LANG", "fi_FI.UTF-8")``, or a subprocess's ``env=``)."""
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


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


def _no_sleep(seconds: float) -> None:
    raise AssertionError(
        f"time.sleep({seconds}) in a virtual-time test: move time on with the simulation's "
        "clock, or mark the test @pytest.mark.realtime if it needs real time"
    )


@pytest.fixture(autouse=True)
def virtual_time_only(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests run in virtual time: ``time.sleep`` fails, except in tests marked ``realtime``
    (a pseudo-terminal, a subprocess, a thread the test waits for)."""
    if request.node.get_closest_marker("realtime") is None:
        monkeypatch.setattr(time, "sleep", _no_sleep)


# The solved 3 and 4 men's morris (built once per run by the real Dask build), for the tests of
# every layer that shows or plays the solution, not only those in tests/solution.
from tests.solution.conftest import solved3, solved4  # noqa: E402, F401
