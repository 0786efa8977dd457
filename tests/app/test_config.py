"""The configuration file: defaults, every key checked, clear errors naming the key, exit code 2."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from morris.app.config import TEMPLATE, Config, load_config, parse_config
from morris.app.errors import ConfigError
from morris.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_template_is_the_defaults() -> None:
    assert parse_config(TEMPLATE) == dataclasses.replace(Config(), source="<text>")


def test_template_documents_every_key() -> None:
    data = tomllib.loads(TEMPLATE)
    config = Config()
    for section in ("game", "engine", "referee", "hardware", "paths", "web"):
        fields = {f.name for f in dataclasses.fields(getattr(config, section))}
        assert set(data[section]) == fields, section


def test_docs_config_lists_every_key() -> None:
    text = (ROOT / "docs" / "CONFIG.md").read_text()
    data = tomllib.loads(TEMPLATE)
    for section, keys in data.items():
        for key in keys:
            assert f"{section}.{key}" in text, f"{section}.{key} is not documented"


def test_service_config_is_valid() -> None:
    config = load_config(ROOT / "systemd" / "config.toml")
    assert config.hardware.backend == "gpio"


def test_a_file_sets_keys_and_keeps_defaults(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[game]\nmode = "referee"\nlevel = 2\n[referee]\nflag_delay = 3\n')
    config = load_config(path)
    assert config.game.mode == "referee"
    assert config.game.level == 2
    assert config.referee.flag_delay == 3.0
    assert config.referee.debounce == 0.1
    assert config.hardware.backend == "gpio"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('[game]\nlevel = "hard"\n', "game.level"),
        ("[game]\nlevel = 11\n", "game.level"),
        ('[game]\nmode = "chess"\n', "game.mode"),
        ('[game]\nhuman = "red"\n', "game.human"),
        ("[game]\nflying = 1\n", "game.flying"),
        ('[game]\nremove_from_mills = "yes"\n', "game.remove_from_mills"),
        ("[game]\ndouble_mill_removes_two = 2\n", "game.double_mill_removes_two"),
        ("[game]\ncolour = 1\n", "game.colour"),
        ("[sound]\nvolume = 3\n", "[sound]"),
        ("[referee]\naccept_delay = 2.0\n", "referee.accept_delay"),
        ("[referee]\ndebounce = 0.6\n", "referee.debounce"),
        ('[hardware]\nbackend = "usb"\n', "hardware.backend"),
        ("game = 3\n", "game"),
        ("[game\n", "not valid TOML"),
    ],
)
def test_bad_keys_are_named(tmp_path: Path, text: str, named: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert named in str(info.value)
    assert str(path) in str(info.value)


def test_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "nope.toml")


def test_flags_override_keys() -> None:
    config = Config().with_overrides(game_level=7, game_mode=None, hardware_backend="sim")
    assert config.game.level == 7
    assert config.game.mode == "vs-ai"
    assert config.hardware.backend == "sim"
    with pytest.raises(ConfigError, match=r"game\.level"):
        Config().with_overrides(game_level=0)


def test_state_dir_prefers_key_then_systemd_then_xdg(tmp_path: Path) -> None:
    assert Config().state_dir({"STATE_DIRECTORY": "/var/lib/morris"}) == Path("/var/lib/morris")
    assert Config().state_dir({"XDG_STATE_HOME": str(tmp_path)}) == tmp_path / "morris"
    keyed = parse_config(f'[paths]\nstate_dir = "{tmp_path}"\n')
    assert keyed.state_dir({"STATE_DIRECTORY": "/x"}) == tmp_path
    assert keyed.games_dir({}) == tmp_path / "games"


def test_tables_dir_is_the_engine_key_else_the_data_directory(tmp_path: Path) -> None:
    # The daemon's search and the web companion's review read the tables from the same place.
    assert Config().tables_dir({"MORRIS_DATA_DIR": str(tmp_path)}) == tmp_path
    keyed = parse_config(f'[engine]\ntables = "{tmp_path / "t"}"\n')
    assert keyed.tables_dir({"MORRIS_DATA_DIR": "/elsewhere"}) == tmp_path / "t"


def test_bad_config_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[game]\nlevel = 99\n")
    assert main(["config", "check", str(path)]) == 2
    assert "game.level" in capsys.readouterr().err
    assert main(["run", "--config", str(path)]) == 2


def test_config_template_command_prints_a_valid_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "template"]) == 0
    parse_config(capsys.readouterr().out)


def test_a_profile_that_does_not_exist_is_refused_by_check_and_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "morris.toml"
    path.write_text('[hardware]\nbackend = "sim"\nprofile = "nonesuch"\n')
    state = ["--state-dir", str(tmp_path / "state")]
    assert main(["config", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "hardware.profile" in err and "unknown profile 'nonesuch'" in err
    assert main(["run", "--config", str(path), *state]) == 2
    assert "unknown profile 'nonesuch'" in capsys.readouterr().err
    assert main(["run", "--sim", "--profile", "nonesuch", *state]) == 2
    assert "unknown profile 'nonesuch'" in capsys.readouterr().err


def test_a_broken_profile_file_is_refused_by_check_and_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = tmp_path / "bad.toml"
    profile.write_text("[sensors]\na7 = 99\n")
    config = tmp_path / "morris.toml"
    config.write_text(f'[hardware]\nprofile = "{profile}"\n')
    assert main(["config", "check", str(config)]) == 2
    assert "sensors.a7: GPIO99 does not exist" in capsys.readouterr().err
    state = ["--state-dir", str(tmp_path / "state")]
    assert main(["run", "--sim", "--profile", str(profile), *state]) == 2
    assert "sensors.a7: GPIO99 does not exist" in capsys.readouterr().err
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize(
    ("profile", "problem"),
    [
        ("a" * 300, "unknown profile 'aaaa"),
        ("../nonesuch", "../nonesuch: cannot read profile"),
        ("a/b", "a/b: cannot read profile"),
    ],
)
def test_a_profile_name_too_long_or_a_bad_path_is_a_config_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], profile: str, problem: str
) -> None:
    text = f'[hardware]\nprofile = "{profile}"\n'
    with pytest.raises(ConfigError, match=r"hardware\.profile: ") as info:
        parse_config(text, source="c.toml")
    assert problem in str(info.value)
    path = tmp_path / "morris.toml"
    path.write_text(text)
    assert main(["config", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert problem in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert main(["selftest", "--sim", "--profile", profile]) == 2
    err = capsys.readouterr().err
    assert problem.split(": ")[0] in err and "Traceback" not in err


def test_a_profile_that_is_not_utf8_is_a_profile_error(tmp_path: Path) -> None:
    profile = tmp_path / "latin.toml"
    profile.write_bytes(b'name = "caf\xe9"\n')
    with pytest.raises(ConfigError, match="not UTF-8"):
        parse_config(f'[hardware]\nprofile = "{profile}"\n')


def test_a_good_profile_passes_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "morris.toml"
    path.write_text('[hardware]\nprofile = "matrix"\n')
    assert main(["config", "check", str(path)]) == 0


def test_a_link_needs_mode_remote_and_an_address() -> None:
    config = parse_config('[game]\nmode = "remote"\n[web]\nlink = "http://192.168.1.30:8700"\n')
    assert config.web.link == "http://192.168.1.30:8700"
    with pytest.raises(ConfigError, match="use --mode remote"):
        parse_config('[web]\nlink = "http://192.168.1.30:8700"\n')
    with pytest.raises(ConfigError, match=r"web\.link"):
        parse_config('[game]\nmode = "remote"\n[web]\nlink = "192.168.1.30"\n')


def test_the_removal_switches_and_flying_reach_the_board() -> None:
    from morris.app.config import board_from_config

    config = parse_config(
        '[game]\nvariant = "six"\nremove_from_mills = true\ndouble_mill_removes_two = true\n'
    )
    board = board_from_config(config)
    assert board.variant_name == "six"
    assert (board.remove_from_mills, board.double_mill_removes_two) == (True, True)
    assert board.flying is False  # flying = true keeps six men's morris's rule: no flying
    standard = board_from_config(parse_config("[game]\nflying = false\n"))
    assert standard.flying is False
    assert board_from_config(Config()).flying is True
