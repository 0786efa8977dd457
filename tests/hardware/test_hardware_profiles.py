"""Wiring profiles: the built-in ones fit a Pi; bad input names the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware import ProfileError
from hardware.kinds import ChainOutput, Crossing
from hardware.profiles import DEFAULT_PROFILE, PROFILE_DIR, available_profiles, load_profile
from morris_device import POINT_NAMES, ButtonName, StatusLight


def test_builtin_profiles_are_shipped() -> None:
    assert set(available_profiles()) == {"direct", "matrix", "shift-register"}
    assert DEFAULT_PROFILE in available_profiles()


@pytest.mark.parametrize("name", ["direct", "matrix", "shift-register"])
def test_builtin_profile_fits_a_pi(name: str) -> None:
    profile = load_profile(name)
    pins = profile.pins()
    allowed = set(range(28)) if profile.allow_id_pins else set(range(2, 28))
    assert set(pins) <= allowed
    assert set(profile.sensors) == set(POINT_NAMES)
    assert set(profile.leds) == set(POINT_NAMES)


def test_default_profile_is_a_complete_build() -> None:
    profile = load_profile(DEFAULT_PROFILE)
    assert set(profile.status) == set(StatusLight)
    assert set(profile.buttons) == set(ButtonName)
    assert all(isinstance(w, Crossing) for w in profile.sensors.values())
    assert all(isinstance(w, ChainOutput) for w in profile.leds.values())
    assert profile.sensors["c4"] == Crossing("inner", "p7")  # matrix order: index = ring*8 + pos


def test_unknown_profile_name_lists_the_builtins() -> None:
    with pytest.raises(ProfileError, match="shift-register"):
        load_profile("nope")


@pytest.mark.parametrize("name", ["a" * 300, "..", "shift-register.toml.bak", "x\x00y"])
def test_a_profile_name_is_looked_up_never_opened(name: str) -> None:
    with pytest.raises(ProfileError, match=r"unknown profile .*: built-in profiles are direct"):
        load_profile(name)


@pytest.mark.parametrize("path", ["../nonesuch", "a/b", "a/" + "a" * 300])
def test_a_path_that_cannot_be_read_is_a_profile_error(path: str) -> None:
    with pytest.raises(ProfileError, match="cannot read profile"):
        load_profile(path)


def _edited(tmp_path: Path, old: str, new: str, base: str = DEFAULT_PROFILE) -> Path:
    text = (PROFILE_DIR / f"{base}.toml").read_text()
    assert old in text
    path = tmp_path / "mine.toml"
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(
    ("old", "new", "key", "problem"),
    [
        ("new = 23", "new = 17", "buttons.new", "duplicate pin GPIO17"),
        ('a7 = ["outer", "p0"]\n', "", "sensors.a7", "missing"),
        ('d7 = "Q1"', 'd7 = "Q0"', "leds.d7", "same place as leds.a7"),
        ("hint = 25", "hint = 28", "buttons.hint", "does not exist on a Raspberry Pi"),
        ("hint = 25", 'hint = "GPIO40"', "buttons.hint", "does not exist"),
        ("hint = 25", "hint = 0", "buttons.hint", "HAT ID EEPROM"),
        ("hint = 25", 'hint = "pin7"', "buttons.hint", "not a pin"),
        ('a7 = ["outer", "p0"]', 'a7 = ["outer", "p9"]', "sensors.a7", "'p9' has no column role"),
        ('a7 = ["outer", "p0"]', 'a7 = ["p1", "p0"]', "sensors.a7", "no row role"),
        ('turn = "Q24"', 'turn = "Q40"', "status.turn", "beyond the chain"),
        ("scan_hz = 100", "scan_hz = 0", "scan_hz", "must be a number"),
        ("scan_hz = 100", "scna_hz = 100", "scna_hz", "unknown key"),
        ("mode = 12", "menu = 12", "buttons.menu", "unknown name"),
        ("new = 23", 'new = "Q30"', "buttons.new", "an input cannot be on the 74HC595 chain"),
        ('a7 = "Q0"', 'a7 = ["outer", "p0"]', "leds.a7", "no [output_matrix]"),
        (
            'a7 = ["outer", "p0"]',
            'A7 = ["outer", "p0"]\na7 = ["outer", "p0"]',
            "sensors.a7",
            "named twice",
        ),
    ],
)
def test_bad_profile_names_file_and_key(
    tmp_path: Path, old: str, new: str, key: str, problem: str
) -> None:
    path = _edited(tmp_path, old, new)
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    message = str(info.value)
    assert str(path) in message
    assert f"{key}:" in message
    assert problem in message


def test_point_named_twice_in_toml_names_the_key(tmp_path: Path) -> None:
    path = _edited(tmp_path, 'd7 = ["outer", "p1"]', 'd7 = ["outer", "p1"]\nd7 = ["outer", "p1"]')
    with pytest.raises(ProfileError, match=r"mine\.toml: sensors\.d7: named twice"):
        load_profile(path)


def test_line_without_a_role(tmp_path: Path) -> None:
    path = _edited(tmp_path, "p7 = 21 }", "p7 = 21, p8 = 4 }")
    with pytest.raises(ProfileError, match=r"input_matrix\.columns\.p8: line without a role"):
        load_profile(path)


def test_id_pins_need_the_flag(tmp_path: Path) -> None:
    path = _edited(tmp_path, "allow_id_pins = true", "allow_id_pins = false", base="direct")
    with pytest.raises(ProfileError, match=r"chain\.latch: GPIO0 belongs to the HAT ID"):
        load_profile(path)


def test_unreadable_and_invalid_files(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="cannot read"):
        load_profile(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("name = \n")
    with pytest.raises(ProfileError, match=r"bad\.toml: not valid TOML"):
        load_profile(bad)
