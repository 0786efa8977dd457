"""The lab's own code (tools/pilab): its errors, its cache, the steps it reads from the docs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tools.morris_pilab import cli, container, docsteps, platform_checks, service, userland
from tools.morris_pilab.errors import (
    EXIT_NO_CAPABILITY,
    EXIT_NO_DISK,
    EXIT_NOT_BUILT,
    LabError,
)

REPO = Path(__file__).resolve().parents[2]


def test_install_steps_are_the_documents_own() -> None:
    steps = docsteps.install_steps(REPO)
    commands = [s.command for s in steps if s.command]
    assert commands[:2] == [
        "sudo apt update",
        "sudo apt install -y git python3-venv python3-dev build-essential",
    ]
    assert f"sudo git clone {docsteps.SOURCE_INSIDE} /opt/morris/src" in commands
    assert "sudo python3 -m venv --system-site-packages /opt/morris/venv" in commands
    assert "sudo /opt/morris/venv/bin/pip install /opt/morris/src" in commands
    # Every difference from the document says why; the lgpio check is named as not run.
    assert all(s.note for s in steps if s.command != s.written)
    (skipped,) = [s for s in steps if not s.command]
    assert "import lgpio" in skipped.written and skipped.note.startswith("not run")
    # The engine check says what it must print.
    (check,) = [s for s in steps if "NATIVE_AVAILABLE" in s.written]
    assert check.expected == "True"
    # The optional mypyc build is a subsection of its own, not an install step.
    assert not any("MORRIS_COMPILE" in s.written for s in steps)
    # The 32-bit block is armhf's alone.
    armhf = [s.command for s in docsteps.install_steps(REPO, "armhf") if s.command]
    assert [c for c in armhf if c not in commands] == [
        "sudo apt install -y python3-numpy libffi-dev libjpeg-dev zlib1g-dev libfreetype-dev"
    ]


def test_service_steps_and_the_readme_lines() -> None:
    assert [s.command for s in docsteps.service_steps(REPO)] == [
        "sudo /opt/morris/venv/bin/morris install-service --dry-run",
        "sudo /opt/morris/venv/bin/morris install-service",
    ]
    first, tests = docsteps.readme_steps(REPO)
    assert first.endswith(".venv/bin/morris sim")
    assert tests == ci_test_line()


def ci_test_line() -> str:
    """The README's test command as .ci/run has it."""
    lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return next(line for line in lines if line.startswith("python3.11 -m venv .venv"))


def test_code_blocks_join_continuations_and_drop_comments() -> None:
    block = "# a comment\nsudo a \\\n    --flag b\n\nc   # a trailing comment stays\n"
    assert docsteps.commands(block) == ["sudo a --flag b", "c   # a trailing comment stays"]
    text = "## One\n```\nx\n```\n### Sub\n```\ny\n```\n## Two\n```\nz\n```\n"
    assert docsteps.section_blocks(text, "One") == ["x"]
    assert docsteps.section_blocks(text, "Two") == ["z"]
    tagged = "## One\n<!-- pilab: armhf -->\n```\nx\n```\n```\ny\n```\n"
    assert docsteps.section_blocks(tagged, "One") == ["y"]
    assert docsteps.section_blocks(tagged, "One", "armhf") == ["x", "y"]


def test_docs_give_the_exposure_the_lab_checks() -> None:
    plain, web = service.docs_exposure(REPO)
    assert 0 < plain < web < 2.5


def spec(name: str = "armhf") -> userland.Spec:
    return userland.USERLANDS[name]


def test_a_stamp_with_other_packages_is_stale(tmp_path: Path) -> None:
    cache = userland.Cache(tmp_path)
    armhf = spec()
    with pytest.raises(LabError, match="tools/pilab build armhf") as info:
        cache.require(armhf)
    assert info.value.code == EXIT_NOT_BUILT
    (cache.userland("armhf") / "usr" / "bin").mkdir(parents=True)
    cache.write_stamp(armhf, 12.5)
    assert cache.is_current(armhf) and cache.require(armhf) == cache.userland("armhf")
    stamp = json.loads(cache.stamp_path("armhf").read_text())
    assert stamp["packages"][-1] == "python3-numpy" and stamp["seconds"] == 12.5
    stamp["packages"] = stamp["packages"][:-1]
    cache.stamp_path("armhf").write_text(json.dumps(stamp))
    assert not cache.is_current(armhf)
    cache.stamp_path("armhf").write_text("{not json")
    assert cache.stamp("armhf") is None and not cache.is_current(armhf)


def write_binfmt(tmp_path: Path, entry: str, text: str) -> Path:
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / "status").write_text("enabled\n")
    (tmp_path / entry).write_text(text)
    return tmp_path


def test_emulation_is_checked_through_binfmt(tmp_path: Path) -> None:
    good = "enabled\ninterpreter /usr/libexec/qemu-binfmt/arm-binfmt-P\nflags: PF\n"
    userland.check_emulation(spec(), write_binfmt(tmp_path / "ok", "qemu-arm", good))
    cases = {
        "not mounted": tmp_path / "empty",
        "no binfmt entry qemu-arm": write_binfmt(tmp_path / "other", "qemu-aarch64", good),
        "lacks the F flag": write_binfmt(tmp_path / "noF", "qemu-arm", "enabled\nflags: P\n"),
        "disabled": write_binfmt(tmp_path / "off", "qemu-arm", "disabled\nflags: PF\n"),
    }
    (tmp_path / "empty").mkdir()
    for words, where in cases.items():
        with pytest.raises(LabError, match=words) as info:
            userland.check_emulation(spec(), where)
        assert info.value.code == EXIT_NO_CAPABILITY
    # This machine's own architecture needs no emulator.
    userland.check_emulation(spec("native"), tmp_path / "empty")


def test_too_little_disk_is_exit_5(tmp_path: Path) -> None:
    with pytest.raises(LabError, match="not enough disk space") as info:
        userland.check_disk(tmp_path / "not" / "yet", need=1 << 62)
    assert info.value.code == EXIT_NO_DISK
    userland.check_disk(tmp_path, need=1)


def test_pip_settings_and_the_local_directories_they_name(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".config" / "pip").mkdir(parents=True)
    conf = home / ".config" / "pip" / "pip.conf"
    conf.write_text(
        "[global]\nfind-links = /opt/wheels\nextra-index-url = file:///opt/pypi/simple\n"
    )
    env = {"XDG_CONFIG_DIRS": str(tmp_path / "none"), "PIP_CERT": "/etc/ssl/x.pem", "HOME": "x"}
    assert conf in container.pip_settings_files(home, env)
    assert container.local_paths([conf.read_text()]) == [Path("/opt/wheels"), Path("/opt/pypi")]
    clean = container.lab_environment({**env, "SECRET_TOKEN": "t", "PIP_INDEX_URL": "u"})
    assert clean["PIP_CERT"] == "/etc/ssl/x.pem" and clean["PIP_INDEX_URL"] == "u"
    assert "SECRET_TOKEN" not in clean and clean["HOME"] == "/root"


def test_engine_output_is_read_as_best_move_and_nodes() -> None:
    script = platform_checks.engine_script([[], ["d6", "f4"]], nodes=500)
    assert "position startpos\ngo nodes 500" in script
    assert "position startpos moves d6 f4\ngo nodes 500" in script
    output = (
        "info depth 1 score cp 1 nodes 21 nps 5 time 0 pv d7\n"
        "info depth 2 score cp 2 nodes 468 nps 5 time 0 pv d7 xf4\nbestmove d7\n"
        "info string error unknown command 'x'\n"
        "info depth 1 score cp 3 nodes 7 nps 1 time 0 pv xf4\nbestmove xf4\n"
    )
    assert platform_checks.parse_engine(output) == [("d7", 468), ("xf4", 7)]


@pytest.mark.realtime
def test_the_last_fixed_node_search_of_a_script_is_not_cut_by_quit() -> None:
    """The same position searched twice, the second search the script's last: ``quit`` stops a
    running search, so without a command that waits for it the last one ended wherever ``quit``
    caught it, and the lab's sample game changed from run to run."""
    import io

    from morris.engine.uci import UciServer

    outputs = []
    for _ in range(2):
        lines: list[str] = []
        UciServer(lines.append).run(io.StringIO(platform_checks.engine_script([[], []], 3000)))
        outputs.append(platform_checks.parse_engine("\n".join(lines)))
    first, last = outputs[0]
    assert first == last and first[1] > 100
    assert outputs[0] == outputs[1]


def pilab(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPO / "tools" / "pilab"), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.realtime
def test_command_line_errors_are_one_line_and_an_exit_code(tmp_path: Path) -> None:
    bad = pilab("build", "pi1")
    assert bad.returncode == 2 and "invalid choice: 'pi1'" in bad.stderr
    listing = pilab("--cache", str(tmp_path), "list")
    assert listing.returncode == 0 and "armhf   not built" in listing.stdout
    if os.geteuid() == 0:
        # As root: an unbuilt userland is exit 6, with the command that builds it.
        done = pilab("--cache", str(tmp_path), "service")
        assert done.returncode == EXIT_NOT_BUILT
        assert done.stderr.strip().splitlines() == [
            "pilab: the native userland is not built (or was built with other packages): "
            "run `tools/pilab build native` first"
        ]
    else:
        done = pilab("--cache", str(tmp_path), "build", "arm64")
        assert done.returncode == EXIT_NO_CAPABILITY
        assert done.stderr.strip() == (
            "pilab: tools/pilab must run as root (it builds and boots userlands)"
        )
    assert "Traceback" not in done.stderr


def test_main_turns_a_lab_error_into_its_code(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The host's own tools, as on a machine that has them (a fresh one may not: below).
    monkeypatch.setattr(cli.shutil, "which", lambda tool: f"/usr/bin/{tool}")
    code = cli.main(["--cache", "/proc/no/such/cache", "check", "native"])
    assert code == 0  # native always runs here; a missing cache is not needed to check
    out = capsys.readouterr().out
    assert "native" in out and "runs here (natively)" in out


def test_check_names_the_missing_host_tools_and_exits_3(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a fresh machine without mmdebstrap and systemd-nspawn (`pilab setup` installs them)
    a named userland cannot be built: check says which tool is missing, with the exit code."""
    monkeypatch.setattr(cli.shutil, "which", lambda tool: None)
    code = cli.main(["--cache", "/proc/no/such/cache", "check", "native"])
    assert code == EXIT_NO_CAPABILITY
    out = capsys.readouterr().out
    assert "mmdebstrap: MISSING" in out and "systemd-nspawn: MISSING" in out


def test_guest_memory_leaves_qemus_own_mappings_out() -> None:
    smaps = (
        "00400000-00500000 r-xp 00000000 08:01 12 /usr/libexec/qemu-binfmt/aarch64-binfmt-P\n"
        "Rss:                1000 kB\n"
        "7f0000000000-7f0040000000 rwxp 00000000 00:00 0 \n"
        "Rss:               30000 kB\n"
        "01000000-02000000 rw-p 00000000 00:00 0                          [heap]\n"
        "Rss:                5000 kB\n"
        "5500000000-5500100000 r-xp 00000000 08:01 99 /opt/morris/venv/bin/python3\n"
        "Rss:                2000 kB\n"
        "5500200000-5501000000 rw-p 00000000 00:00 0 \n"
        "Rss:               20000 kB\n"
        "Pss:               20000 kB\n"
    )
    guest, own = platform_checks.guest_rss(smaps)
    assert guest == 22000 * 1024 and own == 36000 * 1024


def test_the_armhf_test_install_takes_its_bounds_from_the_dev_extra() -> None:
    (venv, install), why = platform_checks.armhf_test_install()
    assert venv == "python3.11 -m venv --system-site-packages .venv"
    asked = install.removeprefix(".venv/bin/pip install -q -e . ").split()
    # Every package the subset needs, with pyproject.toml's bound; Playwright not among them.
    assert len(asked) == len(platform_checks.ARMHF_TEST_NEEDS)
    assert "'pytest>=8'" in asked and "'dask[distributed]>=2024.1'" in asked
    assert "playwright" not in install and "Playwright" in why
