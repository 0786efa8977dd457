"""``morris install-service`` / ``uninstall-service``: the plan, the dry run, files under --root."""

from __future__ import annotations

import argparse
import io
import subprocess
import tomllib
from collections.abc import Sequence
from pathlib import Path

import pytest

from morris.app.errors import InstallError
from morris.daemon.install import (
    Host,
    InstallOptions,
    Note,
    RunCommand,
    WriteFile,
    apply,
    find_service_file,
    plan_install,
    plan_uninstall,
    render_unit,
)

TEMPLATE = find_service_file("morris.service").read_text()


def host(groups: set[str] = frozenset({"gpio", "dialout"}), users: set[str] = frozenset()) -> Host:  # type: ignore[assignment]
    return Host(lambda g: g in groups, lambda u: u in users, has_systemctl=True)


def commands(steps: Sequence[object]) -> list[tuple[str, ...]]:
    return [step.argv for step in steps if isinstance(step, RunCommand)]


def unit_lines(text: str, key: str) -> list[str]:
    return [line.split("=", 1)[1] for line in text.splitlines() if line.startswith(f"{key}=")]


def test_render_fills_in_venv_config_and_user() -> None:
    options = InstallOptions(venv=Path("/srv/m/venv"), config_dir=Path("/etc/m"), user="board")
    unit = render_unit(TEMPLATE, options)
    assert unit_lines(unit, "ExecStart") == [
        "/srv/m/venv/bin/morris run --config /etc/m/config.toml"
    ]
    assert unit_lines(unit, "User") == ["board"]
    assert unit_lines(unit, "Group") == ["board"]
    assert unit_lines(unit, "SupplementaryGroups") == ["gpio dialout"]
    # Everything else is the shipped unit, untouched.
    assert unit_lines(unit, "WatchdogSec") == unit_lines(TEMPLATE, "WatchdogSec")


def test_render_extra_groups_allow_their_devices() -> None:
    unit = render_unit(TEMPLATE, InstallOptions(venv=Path("/v"), extra_groups=("spi", "i2c")))
    assert unit_lines(unit, "SupplementaryGroups") == ["gpio dialout spi i2c"]
    assert {"char-spi rw", "char-i2c rw"} <= set(unit_lines(unit, "DeviceAllow"))


@pytest.mark.parametrize("venv", ["relative/venv", "/opt/my venv", "/opt/$HOME", "/opt/100%"])
def test_render_refuses_paths_exec_start_would_mangle(venv: str) -> None:
    with pytest.raises(InstallError, match="absolute path"):
        render_unit(TEMPLATE, InstallOptions(venv=Path(venv)))


def test_plan_on_a_fresh_pi_creates_user_then_enables() -> None:
    steps = plan_install(InstallOptions(venv=Path("/opt/morris/venv")), host())
    assert commands(steps) == [
        (
            "useradd", "--system", "--user-group", "--no-create-home", "--home-dir",
            "/var/lib/morris", "--shell", "/usr/sbin/nologin", "--comment",
            "morris board daemon", "morris",
        ),
        ("systemctl", "daemon-reload"),
        ("systemctl", "enable", "morris"),
        ("systemctl", "restart", "morris"),
    ]  # fmt: skip
    writes = {step.path: step for step in steps if isinstance(step, WriteFile)}
    assert writes[Path("/etc/systemd/system/morris.service")].overwrite
    assert not writes[Path("/etc/morris/config.toml")].overwrite


def test_plan_creates_missing_gpio_group_and_says_what_else_is_needed() -> None:
    steps = plan_install(InstallOptions(start=False), host(groups={"dialout"}, users={"morris"}))
    assert commands(steps) == [
        ("groupadd", "--system", "gpio"),
        ("systemctl", "daemon-reload"),
        ("systemctl", "enable", "morris"),
    ]
    notes = " ".join(step.text for step in steps if isinstance(step, Note))
    assert "udev rule" in notes and "user morris exists" in notes


def test_plan_without_systemctl_writes_files_only() -> None:
    no_systemd = Host(lambda g: True, lambda u: True, has_systemctl=False)
    steps = plan_install(InstallOptions(), no_systemd)
    assert commands(steps) == []
    assert any("no systemctl" in step.text for step in steps if isinstance(step, Note))


def test_bad_user_name_is_refused() -> None:
    with pytest.raises(InstallError, match="not a user name"):
        plan_install(InstallOptions(user="root;rm"), host())


def test_apply_runs_commands_and_stops_at_a_failure(tmp_path: Path) -> None:
    ran: list[Sequence[str]] = []

    def run(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
        ran.append(argv)
        if argv[0] == "false":
            raise subprocess.CalledProcessError(1, argv, stderr="no such thing\n")
        return subprocess.CompletedProcess(argv, 0)

    steps = [RunCommand(("true",), "one"), RunCommand(("false",), "two"), RunCommand(("x",), "3")]
    with pytest.raises(InstallError, match="false failed: no such thing"):
        apply(steps, out=io.StringIO(), run=run)
    assert ran == [("true",), ("false",)]


def test_dry_run_changes_nothing(
    morris_service: argparse.ArgumentParser, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = morris_service.parse_args(
        ["install-service", "--dry-run", "--venv", str(tmp_path / "venv"), "--config-dir",
         str(tmp_path / "etc")]
    )  # fmt: skip
    assert args.run(args) == 0
    out = capsys.readouterr().out
    assert "would install the unit: /etc/systemd/system/morris.service" in out
    assert f"would write the default configuration: {tmp_path}/etc/config.toml" in out
    assert (
        "would start now (a running service restarts on the new unit): systemctl restart morris"
        in out
    )
    assert "Nothing was changed" in out
    assert list(tmp_path.iterdir()) == []


def test_install_under_root_writes_the_files(
    morris_service: argparse.ArgumentParser, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    root = tmp_path / "root"
    args = morris_service.parse_args(
        ["install-service", "--root", str(root), "--venv", "/opt/morris/venv"]
    )
    assert args.run(args) == 0
    unit = (root / "etc/systemd/system/morris.service").read_text()
    assert unit_lines(unit, "ExecStart") == [
        "/opt/morris/venv/bin/morris run --config /etc/morris/config.toml"
    ]
    config = root / "etc/morris/config.toml"
    assert config.read_text() == find_service_file("config.toml").read_text()
    assert (
        "skipped (--root): start now (a running service restarts on the new unit): "
        "systemctl restart morris"
    ) in capsys.readouterr().out


def install_with_config(parser: argparse.ArgumentParser, root: Path, text: str) -> Path:
    """``install-service --root root`` over a configuration of the user's holding ``text``."""
    config = root / "etc/morris/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(text)
    args = parser.parse_args(["install-service", "--root", str(root)])
    assert args.run(args) == 0
    return config


def test_install_never_overwrites_the_users_config(
    morris_service: argparse.ArgumentParser, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = install_with_config(morris_service, tmp_path, '[hardware]\nbackend = "serial"\n')
    assert config.read_text() == '[hardware]\nbackend = "serial"\n'
    assert "kept /etc/morris/config.toml" in capsys.readouterr().out


def test_uninstall_keeps_config_and_games_unless_purged(
    morris_service: argparse.ArgumentParser, tmp_path: Path
) -> None:
    install = morris_service.parse_args(["install-service", "--root", str(tmp_path)])
    install.run(install)
    (tmp_path / "var/lib/morris").mkdir(parents=True)
    (tmp_path / "var/lib/morris/game.json").write_text("{}")

    keep = morris_service.parse_args(["uninstall-service", "--root", str(tmp_path)])
    assert keep.run(keep) == 0
    assert not (tmp_path / "etc/systemd/system/morris.service").exists()
    assert (tmp_path / "etc/morris/config.toml").exists()
    assert (tmp_path / "var/lib/morris/game.json").exists()

    purge = morris_service.parse_args(["uninstall-service", "--root", str(tmp_path), "--purge"])
    assert purge.run(purge) == 0
    assert not (tmp_path / "etc/morris").exists()
    assert not (tmp_path / "var/lib/morris").exists()


def test_uninstall_plan_removes_the_user_only_when_purging() -> None:
    users = host(users={"morris"})
    assert ("userdel", "morris") not in commands(plan_uninstall(users))
    assert ("userdel", "morris") in commands(plan_uninstall(users, purge=True))
    assert commands(plan_uninstall(users))[0] == ("systemctl", "disable", "--now", "morris")


def test_refuses_without_root(
    morris_service: argparse.ArgumentParser,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    for command in ("install-service", "uninstall-service"):
        args = morris_service.parse_args([command])
        assert args.run(args) == 1
        assert f"sudo morris {command}" in capsys.readouterr().err


def test_default_config_names_a_profile_the_hardware_package_has() -> None:
    from hardware.profiles import load_profile

    config = tomllib.loads(find_service_file("config.toml").read_text())
    assert config["hardware"]["backend"] in {"gpio", "serial"}
    assert load_profile(config["hardware"]["profile"]).name == config["hardware"]["profile"]


def test_without_the_web_companion_the_unit_has_no_network() -> None:
    unit = render_unit(TEMPLATE, InstallOptions(venv=Path("/v")))
    assert unit_lines(unit, "PrivateNetwork") == ["yes"]
    assert unit_lines(unit, "RestrictAddressFamilies") == ["AF_UNIX"]
    assert unit_lines(unit, "IPAddressAllow") == [] and unit_lines(unit, "SocketBindAllow") == []


def test_a_loopback_companion_opens_the_network_to_its_listener_only() -> None:
    unit = render_unit(TEMPLATE, InstallOptions(venv=Path("/v"), web_listen="127.0.0.1:8700"))
    assert unit_lines(unit, "ExecStart") == [
        "/v/bin/morris run --config /etc/morris/config.toml --listen 127.0.0.1:8700"
    ]
    assert unit_lines(unit, "PrivateNetwork") == ["no"]  # its own namespace's loopback is no use
    assert unit_lines(unit, "IPAddressDeny") == ["any"]
    assert unit_lines(unit, "IPAddressAllow") == ["localhost"]
    assert unit_lines(unit, "SocketBindAllow") == ["tcp:8700"]
    assert unit_lines(unit, "SocketBindDeny") == ["any"]
    assert unit_lines(unit, "RestrictAddressFamilies") == ["AF_UNIX AF_INET AF_INET6"]


def test_a_home_network_companion_takes_requests_from_private_ranges_only() -> None:
    unit = render_unit(TEMPLATE, InstallOptions(venv=Path("/v"), web_listen="0.0.0.0:8080"))
    allowed = unit_lines(unit, "IPAddressAllow")[0].split()
    assert {"localhost", "192.168.0.0/16", "10.0.0.0/8", "fc00::/7"} <= set(allowed)
    assert "any" not in allowed
    assert unit_lines(unit, "SocketBindAllow") == ["tcp:8080"]


@pytest.mark.parametrize("listen", ["127.0.0.1:0", "nowhere", "1.2.3.4:99999"])
def test_a_listener_the_unit_cannot_have_is_refused(listen: str) -> None:
    with pytest.raises(InstallError, match="listen address"):
        render_unit(TEMPLATE, InstallOptions(venv=Path("/v"), web_listen=listen))


def test_install_reads_the_web_keys_of_the_configuration(
    morris_service: argparse.ArgumentParser, tmp_path: Path
) -> None:
    install_with_config(
        morris_service, tmp_path, '[web]\nenabled = true\nlisten = "0.0.0.0:8700"\n'
    )
    unit = (tmp_path / "etc/systemd/system/morris.service").read_text()
    assert unit_lines(unit, "ExecStart")[0].endswith("--listen 0.0.0.0:8700")
    assert unit_lines(unit, "SocketBindAllow") == ["tcp:8700"]


def test_install_listen_flag_and_a_bad_one(
    morris_service: argparse.ArgumentParser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = morris_service.parse_args(
        ["install-service", "--root", str(tmp_path), "--listen", "127.0.0.1:9000"]
    )
    assert args.run(args) == 0
    unit = (tmp_path / "etc/systemd/system/morris.service").read_text()
    assert unit_lines(unit, "SocketBindAllow") == ["tcp:9000"]
    with pytest.raises(SystemExit) as exit_info:
        morris_service.parse_args(["install-service", "--listen", "port 80"])
    assert exit_info.value.code == 2
    assert "listen address 'port 80'" in capsys.readouterr().err


def test_a_linked_board_may_reach_the_other_boards_address_and_nothing_else() -> None:
    options = InstallOptions(venv=Path("/v"), web_link="http://10.8.0.2:8700")
    unit = render_unit(TEMPLATE, options)
    assert unit_lines(unit, "PrivateNetwork") == ["no"]
    assert unit_lines(unit, "IPAddressAllow") == ["localhost 10.8.0.2"]
    assert unit_lines(unit, "SocketBindAllow") == [] and unit_lines(unit, "SocketBindDeny") == [
        "any"
    ]
    both = render_unit(
        TEMPLATE,
        InstallOptions(
            venv=Path("/v"), web_listen="127.0.0.1:8700", web_link="http://10.8.0.2:8700"
        ),
    )
    assert unit_lines(both, "IPAddressAllow") == ["localhost 10.8.0.2"]
    assert unit_lines(both, "SocketBindAllow") == ["tcp:8700"]
    with pytest.raises(InstallError, match="by its IP address only"):
        render_unit(TEMPLATE, InstallOptions(venv=Path("/v"), web_link="http://far.example:8700"))


def test_install_reads_the_link_of_the_configuration(
    morris_service: argparse.ArgumentParser, tmp_path: Path
) -> None:
    config = tmp_path / "etc/morris/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[game]\nmode = "remote"\n[web]\nlink = "http://10.8.0.2:8700"\n')
    args = morris_service.parse_args(["install-service", "--root", str(tmp_path)])
    assert args.run(args) == 0
    unit = (tmp_path / "etc/systemd/system/morris.service").read_text()
    assert unit_lines(unit, "IPAddressAllow") == ["localhost 10.8.0.2"]


def test_a_speaking_service_joins_the_audio_group_made_if_missing() -> None:
    options = InstallOptions(start=False, speech=True)
    steps = plan_install(options, host(users={"morris"}))
    assert ("groupadd", "--system", "audio") in commands(steps)
    assert options.groups == ("gpio", "dialout", "audio")
    assert InstallOptions(extra_groups=("audio",), speech=True).groups.count("audio") == 1
    assert "audio" not in InstallOptions().groups
