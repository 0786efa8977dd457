"""Debian bookworm userlands, built with mmdebstrap and kept in a cache outside the repository.

A userland is a directory tree ``CACHE/userlands/NAME`` next to its stamp ``NAME.json`` (the
architecture, the packages, when and how long it took). A stamp whose packages differ from the
spec's is stale: the userland is built again. Every run works on a fresh copy of it in
``CACHE/runs/NAME`` (a copy with reflinks where the file system has them), so the cached tree
stays as Debian made it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import platform
import shutil
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path

from tools.morris_pilab.errors import (
    EXIT_NO_CAPABILITY,
    EXIT_NO_DISK,
    EXIT_NO_REGISTRY,
    EXIT_NOT_BUILT,
    LabError,
)

__all__ = [
    "DEFAULT_CACHE",
    "MIN_FREE_BYTES",
    "USERLANDS",
    "Cache",
    "Spec",
    "build",
    "check_disk",
    "check_emulation",
    "host_arch",
    "require_root",
]

#: The cache's default place (``--cache DIR`` or ``$MORRIS_PILAB_CACHE`` choose another).
DEFAULT_CACHE = Path("/var/cache/morris-pilab")
#: Free space a build or a run needs: a userland (0.6-0.9 GB), its run copy and the venvs.
MIN_FREE_BYTES = 4 * 1024**3

#: What every userland has: systemd to boot, sudo (the docs' steps use it) and what docs/INSTALL.md
#: step 1 installs from Debian (python3-lgpio is Raspberry Pi OS's own package, not Debian's).
BASE_PACKAGES = (
    "systemd",
    "systemd-sysv",
    "dbus",
    "sudo",
    "git",
    "ca-certificates",
    "debian-archive-keyring",
    "python3",
    "python3-venv",
    "python3-dev",
    "build-essential",
)


@dataclasses.dataclass(frozen=True)
class Spec:
    """One userland: a name, Debian's architecture and the packages on top of the base."""

    name: str
    arch: str
    extra: tuple[str, ...] = ()
    why: str = ""

    @property
    def packages(self) -> tuple[str, ...]:
        """Every package mmdebstrap installs besides the essential ones."""
        return (*BASE_PACKAGES, *self.extra)


def host_arch() -> str:
    """This machine's architecture in Debian's words (``amd64``, ``arm64``, ...)."""
    machine = platform.machine()
    return {"x86_64": "amd64", "aarch64": "arm64", "armv7l": "armhf"}.get(machine, machine)


USERLANDS = {
    spec.name: spec
    for spec in (
        Spec("native", host_arch(), why="this machine's architecture: systemd as PID 1 at speed"),
        Spec("arm64", "arm64", why="Raspberry Pi OS 64-bit (Pi 3, 4, 5, Zero 2 W)"),
        # PyPI has no armv7 wheel of numpy: Raspberry Pi OS users take Debian's.
        Spec(
            "armhf",
            "armhf",
            ("python3-numpy",),
            why="Raspberry Pi OS 32-bit: 4-byte pointers, a 3 GB address space",
        ),
    )
}

#: binfmt_misc entries of qemu-user-static, by Debian architecture.
QEMU_BINFMT = {"arm64": "qemu-aarch64", "armhf": "qemu-arm"}


class Cache:
    """The lab's cache directory: userlands, their stamps, run copies and logs."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def userland(self, name: str) -> Path:
        """The cached tree of userland ``name``."""
        return self.root / "userlands" / name

    def stamp_path(self, name: str) -> Path:
        """The stamp of userland ``name``."""
        return self.root / "userlands" / f"{name}.json"

    def run_root(self, name: str) -> Path:
        """Where a run of userland ``name`` works on its copy."""
        return self.root / "runs" / name

    def log(self, name: str) -> Path:
        """A log file of the lab (``name`` like ``arm64-install.log``)."""
        path = self.root / "logs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def stamp(self, name: str) -> dict[str, object] | None:
        """The stamp of userland ``name``, or ``None`` if there is none or it cannot be read."""
        try:
            data = json.loads(self.stamp_path(name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def is_current(self, spec: Spec) -> bool:
        """Whether ``spec``'s userland is built with exactly its architecture and packages."""
        stamp = self.stamp(spec.name)
        return (
            stamp is not None
            and stamp.get("arch") == spec.arch
            and stamp.get("packages") == list(spec.packages)
            and (self.userland(spec.name) / "usr" / "bin").is_dir()
        )

    def require(self, spec: Spec) -> Path:
        """The cached tree of ``spec``; :class:`LabError` if it is missing or stale."""
        if not self.is_current(spec):
            raise LabError(
                f"the {spec.name} userland is not built (or was built with other packages): "
                f"run `tools/pilab build {spec.name}` first",
                EXIT_NOT_BUILT,
            )
        return self.userland(spec.name)

    def write_stamp(self, spec: Spec, seconds: float) -> None:
        """Record that ``spec``'s userland was built, taking ``seconds``."""
        stamp = {
            "name": spec.name,
            "arch": spec.arch,
            "suite": "bookworm",
            "packages": list(spec.packages),
            "built": datetime.now(UTC).isoformat(timespec="seconds"),
            "seconds": round(seconds, 1),
        }
        self.stamp_path(spec.name).write_text(json.dumps(stamp, indent=2) + "\n", "utf-8")

    def fresh_copy(self, spec: Spec) -> Path:
        """A fresh copy of ``spec``'s cached tree for one run (the last run's copy goes)."""
        source = self.require(spec)
        target = self.run_root(spec.name)
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cp", "-a", "--reflink=auto", str(source), str(target)], check=True)
        return target


def require_root() -> None:
    """The lab mounts, chroots and boots containers: it must run as root."""
    if os.geteuid() != 0:
        raise LabError(
            "tools/pilab must run as root (it builds and boots userlands)", EXIT_NO_CAPABILITY
        )


def check_disk(path: Path, need: int = MIN_FREE_BYTES) -> None:
    """:class:`LabError` (exit 5) unless the file system of ``path`` has ``need`` bytes free."""
    probe = path
    while not probe.exists():
        probe = probe.parent
    free = shutil.disk_usage(probe).free
    if free < need:
        raise LabError(
            f"not enough disk space in {probe}: {free / 1024**3:.1f} GiB free, "
            f"{need / 1024**3:.1f} GiB needed",
            EXIT_NO_DISK,
        )


def check_emulation(spec: Spec, binfmt_dir: Path = Path("/proc/sys/fs/binfmt_misc")) -> None:
    """:class:`LabError` (exit 3) unless this machine can run ``spec``'s programs: its own
    architecture, or a qemu-user-static binfmt entry with the F flag (the interpreter opened
    when it was registered, so it works inside a chroot or container)."""
    if spec.arch == host_arch():
        return
    entry = QEMU_BINFMT.get(spec.arch)
    if entry is None:
        raise LabError(f"no emulator known for {spec.arch}", EXIT_NO_CAPABILITY)
    if not (binfmt_dir / "status").exists():
        raise LabError(
            f"binfmt_misc is not mounted ({binfmt_dir}): `tools/pilab setup` mounts it and "
            "registers qemu-user-static",
            EXIT_NO_CAPABILITY,
        )
    path = binfmt_dir / entry
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        raise LabError(
            f"no binfmt entry {entry} for {spec.arch} programs: `tools/pilab setup` installs "
            "qemu-user-static and binfmt-support",
            EXIT_NO_CAPABILITY,
        ) from None
    lines = text.splitlines()
    flags = next((line.split(":", 1)[1].strip() for line in lines if line.startswith("flags:")), "")
    if not lines or lines[0].strip() != "enabled" or "F" not in flags:
        raise LabError(
            f"binfmt entry {entry} is disabled or lacks the F flag (flags: {flags or 'none'}): "
            f"`update-binfmts --enable {entry}` with Debian's qemu-user-static",
            EXIT_NO_CAPABILITY,
        )


#: Words of apt's and mmdebstrap's output that mean the mirror could not be reached.
_NETWORK_FAILURES = (
    "Temporary failure resolving",
    "Could not resolve",
    "Failed to fetch",
    "Could not connect",
    "Connection timed out",
    "Network is unreachable",
)


def build(spec: Spec, cache: Cache, sources: Path, log: Path) -> float:
    """Build ``spec``'s userland with mmdebstrap from this machine's apt sources; the seconds.

    The tree is made under ``NAME.partial`` and renamed when complete, so an interrupted build
    never looks cached. Raises :class:`LabError`: exit 3 without mmdebstrap or emulation, 4 when
    the mirror does not answer, 5 without disk, 1 for any other failure (the log has it).
    """
    if shutil.which("mmdebstrap") is None:
        raise LabError(
            "mmdebstrap is not installed: `tools/pilab setup` (apt-get install mmdebstrap)",
            EXIT_NO_CAPABILITY,
        )
    check_emulation(spec)
    check_disk(cache.root)
    if not sources.is_file():
        raise LabError(f"no apt sources file {sources} (--sources FILE)", EXIT_NO_CAPABILITY)
    target = cache.userland(spec.name)
    partial = target.with_name(f"{spec.name}.partial")
    for path in (partial, target):
        if path.exists():
            shutil.rmtree(path)
    partial.parent.mkdir(parents=True, exist_ok=True)
    argv = [
        "mmdebstrap",
        "--variant=apt",
        f"--architectures={spec.arch}",
        f"--include={','.join(spec.packages)}",
        # The mirror may be a dated snapshot, whose Release files have expired.
        '--aptopt=Acquire::Check-Valid-Until "false"',
        "bookworm",
        str(partial),
        str(sources),
    ]
    start = time.monotonic()
    with log.open("w", encoding="utf-8") as out:
        out.write("$ " + " ".join(argv) + "\n")
        out.flush()
        result = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT)
    seconds = time.monotonic() - start
    if result.returncode != 0:
        text = log.read_text(encoding="utf-8", errors="replace")
        if any(word in text for word in _NETWORK_FAILURES):
            raise LabError(
                f"Debian's mirror did not answer while building {spec.name} (see {log})",
                EXIT_NO_REGISTRY,
            )
        raise LabError(f"mmdebstrap failed for {spec.name} (see {log})", 1)
    partial.rename(target)
    cache.write_stamp(spec, seconds)
    return seconds
