"""The shipped unit, checked by systemd's own tools: ``verify`` and the offline security score.

These are CI's checks on the unit: a unit systemd would warn about, or one whose exposure is above
:data:`MAX_EXPOSURE`, fails the suite. ``systemd-analyze`` comes with Debian's ``systemd`` package;
``--offline=yes`` needs systemd >= 250 (Debian bookworm has 252). In CI a missing tool is a
failure, not a skip, so the checks cannot silently stop running.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from morris.daemon.install import InstallOptions, find_service_file, render_unit

#: Needs real time: systemd-analyze as a subprocess.
pytestmark = pytest.mark.realtime

MAX_EXPOSURE = 2.5
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")

if SYSTEMD_ANALYZE is None:
    if os.environ.get("CI"):
        pytest.fail("systemd-analyze is missing: apt-get install -y systemd", pytrace=False)
    pytest.skip(
        "systemd-analyze is not installed (apt-get install systemd)", allow_module_level=True
    )


def analyze(*args: str) -> subprocess.CompletedProcess[str]:
    assert SYSTEMD_ANALYZE is not None
    return subprocess.run(
        [SYSTEMD_ANALYZE, "--no-pager", *args], capture_output=True, text=True, timeout=120
    )


def install_unit(
    tmp_path: Path,
    web_listen: str | None = None,
    web_link: str | None = None,
    *,
    speech: bool = False,
) -> Path:
    """The unit as install-service writes it, for a venv that exists (verify checks ExecStart)."""
    morris = tmp_path / "venv" / "bin" / "morris"
    morris.parent.mkdir(parents=True, exist_ok=True)
    morris.write_text("#!/bin/sh\nexit 0\n")
    morris.chmod(0o755)
    options = InstallOptions(
        venv=tmp_path / "venv",
        config_dir=tmp_path / "etc",
        web_listen=web_listen,
        web_link=web_link,
        speech=speech,
    )
    unit = tmp_path / "unit" / "morris.service"
    unit.parent.mkdir(exist_ok=True)
    unit.write_text(render_unit(find_service_file("morris.service").read_text(), options))
    return unit


@pytest.fixture
def installed_unit(tmp_path: Path) -> Path:
    """The unit as install-service writes it, the web companion off."""
    return install_unit(tmp_path)


def verify_complaints(unit: Path) -> list[str]:
    """What ``systemd-analyze verify`` says about the unit (ignoring other units on the host)."""
    result = analyze("verify", str(unit))
    lines = [line for line in result.stderr.splitlines() if "morris" in line]
    if result.returncode != 0:
        lines.append(f"exit status {result.returncode}: {result.stderr.strip()}")
    return lines


def exposure(unit: Path) -> float:
    """The overall exposure of ``systemd-analyze security --offline=yes``, 0.0 (safe) to 10.0."""
    result = analyze("security", "--offline=yes", str(unit))
    match = re.search(r"Overall exposure level for \S+: (\d+(?:\.\d+)?)", result.stdout)
    assert match, f"no exposure in systemd-analyze output:\n{result.stdout}\n{result.stderr}"
    return float(match.group(1))


def test_installed_unit_verifies_cleanly(installed_unit: Path) -> None:
    assert verify_complaints(installed_unit) == []


def test_verify_would_catch_a_mistake(installed_unit: Path) -> None:
    text = installed_unit.read_text().replace(
        "Restart=on-failure", "Restart=on-failure\nRestrat=no"
    )
    installed_unit.write_text(text)
    assert any("Restrat" in line for line in verify_complaints(installed_unit))


@pytest.mark.parametrize("which", ["shipped", "installed"])
def test_exposure_is_within_bound(installed_unit: Path, which: str) -> None:
    unit = find_service_file("morris.service") if which == "shipped" else installed_unit
    assert exposure(unit) <= MAX_EXPOSURE


@pytest.mark.parametrize(
    ("listen", "link"),
    [("127.0.0.1:8700", None), ("0.0.0.0:8700", None), ("127.0.0.1:8700", "http://10.8.0.2:8700")],
)
def test_with_the_web_companion_on_the_unit_verifies_and_stays_within_bound(
    tmp_path: Path, listen: str, link: str | None
) -> None:
    unit = install_unit(tmp_path, web_listen=listen, web_link=link)
    assert verify_complaints(unit) == []
    assert exposure(unit) <= MAX_EXPOSURE


def test_a_speaking_unit_gets_the_sound_device_and_stays_within_bound(
    tmp_path: Path, installed_unit: Path
) -> None:
    """[speech] enabled: the audio group and ALSA's devices, and nothing else changes; without
    it the service has no sound device."""
    unit = install_unit(tmp_path / "speech", speech=True)
    text = unit.read_text()
    assert re.search(r"^SupplementaryGroups=gpio dialout audio$", text, flags=re.M)
    assert re.search(r"^DeviceAllow=char-alsa rw$", text, flags=re.M)
    assert "char-alsa" not in installed_unit.read_text()
    assert (
        "audio"
        not in re.findall(r"^SupplementaryGroups=(.*)$", installed_unit.read_text(), flags=re.M)[0]
    )
    assert verify_complaints(unit) == []
    assert exposure(unit) <= MAX_EXPOSURE


def test_exposure_check_would_catch_a_weakened_unit(installed_unit: Path) -> None:
    weakened = re.sub(
        r"^(NoNewPrivileges|CapabilityBoundingSet|ProtectSystem|ProtectHome|PrivateNetwork"
        r"|SystemCallFilter|RestrictAddressFamilies|RestrictNamespaces)=.*\n",
        "",
        installed_unit.read_text(),
        flags=re.M,
    )
    installed_unit.write_text(weakened)
    assert exposure(installed_unit) > MAX_EXPOSURE


def test_unit_speaks_the_daemons_protocol() -> None:
    """The points the daemon relies on: notify, a watchdog, restarts, and where it may write."""
    text = find_service_file("morris.service").read_text()
    settings = dict(
        line.split("=", 1) for line in text.splitlines() if "=" in line and line[0].isalpha()
    )
    assert settings["Type"] == "notify"
    assert int(settings["WatchdogSec"]) > 0
    assert settings["Restart"] == "on-failure"
    # The reload runs the venv's own morris, as ExecStart does: no binary beyond the one that
    # starts (a minimal Debian has no /bin/kill, and systemd 252 no ReloadSignal=).
    start, reload = settings["ExecStart"].split(), settings["ExecReload"].split()
    assert reload[0] == start[0]
    assert reload[1:] == ["reload", "--pid", "$MAINPID"]
    # lgpio makes its pipes in $LG_WD, else the working directory: both in the runtime directory.
    assert settings["RuntimeDirectory"] == "morris"
    assert settings["WorkingDirectory"] == "/run/morris"
    assert "Environment=LG_WD=/run/morris" in text.splitlines()
