"""``--web``, ``--listen`` and the ``[web]`` keys: off unless asked, bad values exit 2."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from morris.app.config import DEFAULT_LISTEN, ConfigError, parse_config, parse_listen
from morris.cli import main
from tests.loaded import loaded_after


def test_the_companion_is_off_unless_asked() -> None:
    config = parse_config("")
    assert config.web.enabled is False and config.web.listen == DEFAULT_LISTEN == "127.0.0.1:8700"


def test_web_keys_are_read_and_checked() -> None:
    config = parse_config('[web]\nenabled = true\nlisten = "0.0.0.0:8080"\n')
    assert config.web.enabled and config.web.listen == "0.0.0.0:8080"
    with pytest.raises(ConfigError, match=r"web\.listen must be HOST:PORT"):
        parse_config('[web]\nlisten = "8080"\n')
    with pytest.raises(ConfigError, match=r"web\.enabled: expected true or false"):
        parse_config('[web]\nenabled = "yes"\n')
    with pytest.raises(ConfigError, match=r"unknown key web\.port"):
        parse_config("[web]\nport = 80\n")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1:8700", ("127.0.0.1", 8700)),
        ("[::1]:80", ("::1", 80)),
        ("pi.local:1", ("pi.local", 1)),
    ],
)
def test_listen_addresses(text: str, expected: tuple[str, int]) -> None:
    assert parse_listen(text) == expected


@pytest.mark.parametrize("text", ["", "8700", "host:", ":8700", "a b:1", "[nope]:1", "h:70000"])
def test_bad_listen_addresses_name_themselves(text: str) -> None:
    with pytest.raises(ConfigError, match="listen address"):
        parse_listen(text)


@pytest.mark.parametrize("command", ["run", "sim"])
def test_a_bad_listen_flag_exits_2_with_a_clear_message(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--listen", "everywhere"])
    assert exit_info.value.code == 2
    assert "listen address 'everywhere' is not HOST:PORT" in capsys.readouterr().err


def test_run_web_on_a_port_in_use_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        code = main(["run", "--sim", "--state-dir", str(tmp_path), "--listen", f"127.0.0.1:{port}"])
    assert code == 2
    assert f"cannot listen on 127.0.0.1:{port}: the port is in use" in capsys.readouterr().err


def test_a_bad_web_key_in_the_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[web]\nlisten = "localhost"\n')
    assert main(["run", "--sim", "--config", str(config)]) == 2
    assert "web.listen" in capsys.readouterr().err


@pytest.mark.realtime
def test_the_web_modules_are_not_loaded_without_web() -> None:
    statement = "import morris.cli, morris.commands.run, morris.commands.sim, morris.daemon"
    assert loaded_after(statement, ["morris.web", "starlette", "uvicorn", "segno"]) == []
