"""``morris selftest`` where it cannot run: a message naming the problem and exit code 2."""

from __future__ import annotations

import warnings

import pytest
from gpiozero import Device

from morris.cli import main
from morris.daemon.loop import gpio_available

pytestmark = pytest.mark.skipif(gpio_available(), reason="this machine has GPIO chips")


def test_without_gpio_selftest_exits_2_pointing_to_sim(capsys: pytest.CaptureFixture[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # gpiozero's PinFactoryFallback must not even be reached
        assert main(["selftest"]) == 2
    err = capsys.readouterr().err
    assert "no GPIO" in err and "morris selftest --sim" in err


def test_pins_that_cannot_be_opened_are_one_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # As on a machine with GPIO chips but no usable gpiozero pin library.
    monkeypatch.setattr("morris.daemon.loop.gpio_available", lambda: True)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    assert main(["selftest"]) == 2
    err = capsys.readouterr().err
    assert "cannot open the board's pins" in err and "morris selftest --sim" in err


def test_an_unknown_profile_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selftest", "--profile", "nonesuch"]) == 2
    assert "unknown profile 'nonesuch'" in capsys.readouterr().err
