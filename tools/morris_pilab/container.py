"""Running commands in a userland: systemd-nspawn, booted (systemd as PID 1) or not.

Both share this machine's network (no ``--private-network``): the registries answer there as
here, and a web companion listening on loopback inside answers on this machine's loopback. What
the registries need from this machine is carried in first (:func:`carry_in`): its CA certificates
and its pip settings, and any local package directory those settings name.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from tools.morris_pilab.errors import (
    EXIT_CHECK_FAILED,
    EXIT_NO_CAPABILITY,
    EXIT_NO_REGISTRY,
    LabError,
)

__all__ = [
    "Booted",
    "Result",
    "boot",
    "carry_in",
    "lab_environment",
    "pip_settings_files",
    "run_in",
]

PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
#: The environment variables of this machine that reach the registries, carried into each step.
CARRIED_PREFIXES = ("PIP_",)
#: What apt and pip print when a registry cannot be reached (not a failure of the product).
NETWORK_FAILURES = (
    "Temporary failure in name resolution",
    "Temporary failure resolving",
    "Failed to establish a new connection",
    "Network is unreachable",
    "Could not resolve",
    "Failed to fetch",
    "ConnectTimeoutError",
    "ReadTimeoutError",
)
NSPAWN_NOISE = 'Attempted to remove disk file system under "/run/systemd/nspawn/propagate/'
CARRIED_NAMES = ("SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS")


def pip_settings_files(
    home: Path | None = None, environ: Mapping[str, str] | None = None
) -> list[Path]:
    """pip's configuration files on this machine, in pip's order (site-wide, then the user's,
    then ``$PIP_CONFIG_FILE``): those that exist."""
    env = os.environ if environ is None else environ
    home = Path.home() if home is None else home
    xdg_dirs = env.get("XDG_CONFIG_DIRS", "/etc/xdg").split(":")
    candidates = [Path(d) / "pip" / "pip.conf" for d in xdg_dirs if d]
    candidates += [
        Path("/etc/pip.conf"),
        home / ".pip" / "pip.conf",
        Path(env.get("XDG_CONFIG_HOME") or home / ".config") / "pip" / "pip.conf",
    ]
    if env.get("PIP_CONFIG_FILE"):
        candidates.append(Path(env["PIP_CONFIG_FILE"]))
    return [path for path in dict.fromkeys(candidates) if path.is_file()]


def local_paths(texts: Sequence[str]) -> list[Path]:
    """Absolute paths (and ``file://`` URLs) named in pip settings: find-links directories,
    local indexes, constraint files, certificates."""
    found: list[Path] = []
    for text in texts:
        for match in re.finditer(r"(?:file://)?(/[^\s'\"]+)", text):
            path = Path(match.group(1))
            # An index URL names .../simple; bind its whole directory.
            found.append(path.parent if path.name == "simple" else path)
    return list(dict.fromkeys(found))


def lab_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a step inside: a clean one, plus this machine's registry settings."""
    env = os.environ if environ is None else environ
    out = {"PATH": PATH, "HOME": "/root", "LANG": "C.UTF-8", "TERM": "dumb"}
    for key, value in env.items():
        if key.startswith(CARRIED_PREFIXES) or key in CARRIED_NAMES:
            out[key] = value
    return out


def carry_in(root: Path, home: Path | None = None) -> list[Path]:
    """Copy this machine's CA certificates and pip settings into ``root``; the local directories
    the settings name, which must be bound into the container read-only (they may be large)."""
    home = Path.home() if home is None else home
    local_ca = Path("/usr/local/share/ca-certificates")
    if local_ca.is_dir():
        target = root / "usr/local/share/ca-certificates"
        target.mkdir(parents=True, exist_ok=True)
        for cert in local_ca.rglob("*.crt"):
            shutil.copy2(cert, target / cert.name)
    # The bundle itself too, so the certificates hold before update-ca-certificates runs.
    bundle = Path("/etc/ssl/certs/ca-certificates.crt")
    if bundle.is_file():
        (root / "etc/ssl/certs").mkdir(parents=True, exist_ok=True)
        shutil.copy2(bundle, root / "etc/ssl/certs/ca-certificates.crt")
    texts: list[str] = []
    for path in pip_settings_files(home):
        inside = Path("/root") / path.relative_to(home) if path.is_relative_to(home) else path
        (root / inside.relative_to("/")).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, root / inside.relative_to("/"))
        texts.append(path.read_text(encoding="utf-8", errors="replace"))
        # A constraints file or the like beside a site-wide pip/pip.conf comes along.
        if not path.is_relative_to(home) and path.parent.name == "pip":
            for sibling in path.parent.iterdir():
                if sibling.is_file() and sibling != path:
                    shutil.copy2(sibling, root / sibling.relative_to("/"))
    texts += [v for k, v in lab_environment().items() if k.startswith(CARRIED_PREFIXES)]
    binds = []
    for path in local_paths(texts):
        if path.is_dir() and not (root / path.relative_to("/")).exists():
            binds.append(path)
    hostname = root.name
    (root / "etc/hostname").write_text(f"pilab-{hostname}\n", encoding="utf-8")
    hosts = root / "etc/hosts"
    lines = hosts.read_text(encoding="utf-8").splitlines() if hosts.exists() else []
    if not any(f"pilab-{hostname}" in line for line in lines):
        # Booted, the host name is /etc/hostname's; a plain container takes the directory's.
        lines.append(f"127.0.1.1\tpilab-{hostname} {hostname}")
        hosts.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return binds


class Result:
    """A finished command: its exit code and what it printed (stdout and stderr together)."""

    def __init__(self, argv: Sequence[str], code: int, output: str, seconds: float) -> None:
        self.argv = list(argv)
        self.code = code
        self.output = output
        self.seconds = seconds

    @property
    def ok(self) -> bool:
        """Whether it exited 0."""
        return self.code == 0

    def require(self, what: str) -> Result:
        """This result if it succeeded, else :class:`LabError` naming ``what``: exit 4 when its
        output says a registry could not be reached, else 1."""
        if not self.ok:
            tail = "\n".join(self.output.strip().splitlines()[-15:])
            if any(words in self.output for words in NETWORK_FAILURES):
                raise LabError(f"{what}: a registry did not answer:\n{tail}", EXIT_NO_REGISTRY)
            raise LabError(f"{what} failed (exit {self.code}):\n{tail}", EXIT_CHECK_FAILED)
        return self


def _run(argv: Sequence[str], log: Path | None, timeout: float | None) -> Result:
    start = time.monotonic()
    try:
        done = subprocess.run(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            timeout=timeout,
        )
        code, output = done.returncode, done.stdout
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout
        code = 124
        output = (out.decode("utf-8", "replace") if isinstance(out, bytes) else out or "") + (
            f"\n[pilab: timed out after {timeout:g} s]"
        )
    seconds = time.monotonic() - start
    # systemd-nspawn 252 on a machine not booted with systemd says this after every command.
    output = "".join(
        line for line in output.splitlines(keepends=True) if not line.startswith(NSPAWN_NOISE)
    )
    if log is not None:
        with log.open("a", encoding="utf-8") as f:
            f.write(f"\n$ {shlex.join(argv)}\n{output}[exit {code}, {seconds:.1f} s]\n")
    return Result(argv, code, output, seconds)


def _nspawn_base(root: Path, binds: Sequence[Path]) -> list[str]:
    if shutil.which("systemd-nspawn") is None:
        raise LabError(
            "systemd-nspawn is not installed: `tools/pilab setup` (apt-get install "
            "systemd-container)",
            EXIT_NO_CAPABILITY,
        )
    argv = ["systemd-nspawn", "-q", "-D", str(root), "--register=no", "--keep-unit"]
    argv += [f"--bind-ro={path}" for path in binds]
    return argv


def run_in(
    root: Path,
    command: str,
    *,
    binds: Sequence[Path] = (),
    log: Path | None = None,
    timeout: float | None = None,
    environ: Mapping[str, str] | None = None,
) -> Result:
    """Run the shell ``command`` in userland ``root`` (not booted: a container around one
    process, emulated through binfmt for a foreign architecture)."""
    argv = [*_nspawn_base(root, binds), "--pipe", "--chdir=/root"]
    for key, value in lab_environment(environ).items():
        argv.append(f"--setenv={key}={value}")
    argv += ["/bin/sh", "-c", command]
    return _run(argv, log, timeout)


class Booted:
    """A userland booted by systemd-nspawn with systemd as PID 1; commands enter it by nsenter."""

    def __init__(self, process: subprocess.Popen[bytes], leader: int, log: Path) -> None:
        self.process = process
        self.leader = leader
        self.log = log

    def run(self, command: str, *, timeout: float | None = 120) -> Result:
        """Run the shell ``command`` inside, as root, in a clean environment."""
        env = [f"{k}={v}" for k, v in lab_environment().items()]
        argv = ["nsenter", "-t", str(self.leader), "-a", "--", "env", "-i", *env]
        argv += ["/bin/sh", "-c", f"cd /root && {command}"]
        return _run(argv, self.log, timeout)

    def stop(self, timeout: float = 30) -> None:
        """Shut the container down (SIGTERM to nspawn halts systemd inside), or kill it."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        out += [int(p) for p in task.read_text().split()]
    return out


@contextmanager
def boot(root: Path, binds: Sequence[Path], log: Path, timeout: float = 90) -> Iterator[Booted]:
    """Boot ``root`` with systemd as PID 1 and wait until it is up (``running`` or
    ``degraded``); :class:`LabError` (exit 3) if it does not boot on this machine."""
    if shutil.which("nsenter") is None:
        raise LabError("nsenter (util-linux) is not installed", EXIT_NO_CAPABILITY)
    argv = [*_nspawn_base(root, binds), "-b", "--console=passive", f"--machine=pilab-{root.name}"]
    with log.open("a", encoding="utf-8") as out:
        out.write(f"\n$ {shlex.join(argv)}\n")
    out_file = log.open("ab")
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out_file, stderr=out_file)
    booted: Booted | None = None
    try:
        deadline = time.monotonic() + timeout
        state = ""
        while time.monotonic() < deadline:
            if process.poll() is not None:
                break
            children = _children(process.pid)
            if children and booted is None:
                booted = Booted(process, children[0], log)
            if booted is not None:
                state = booted.run("systemctl is-system-running", timeout=20).output.strip()
                if state in ("running", "degraded"):
                    break
            time.sleep(0.5)
        else:
            process.poll()
        if booted is None or state not in ("running", "degraded"):
            code = process.returncode
            raise LabError(
                "systemd-nspawn could not boot the userland here "
                f"({'exit ' + str(code) if code is not None else 'state ' + (state or 'unknown')};"
                f" see {log})",
                EXIT_NO_CAPABILITY,
            )
        yield booted
    finally:
        if booted is not None:
            booted.stop()
        elif process.poll() is None:
            process.kill()
            process.wait()
        out_file.close()
