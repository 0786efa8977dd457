"""``tools/pilab platform NAME``: the product on an emulated Pi (arm64 or 32-bit armhf).

In a fresh copy of the userland (a container around each command, arm code run by
qemu-user-static): docs/INSTALL.md's steps 1 and 2, both C extensions, fixed-node searches of
``morris engine`` against this machine's, endgame tables and a 5 men's solved game built here read
there (``morris tables verify``, identical probes), ``morris sim --web`` and ``morris run --sim``
played through the HTTP API, ``morris selftest --sim``, README's install line, and a stated
subset of the test suite. Results go to ``CACHE/logs/NAME-platform-results.json``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tools.morris_pilab import container, docsteps, userland
from tools.morris_pilab.errors import EXIT_CHECK_FAILED, EXIT_NO_CAPABILITY, EXIT_OK, LabError

__all__ = [
    "ARMHF_TEST_NEEDS",
    "ENGINE_NODES",
    "STEPS",
    "TEST_SUBSET",
    "armhf_test_install",
    "engine_script",
    "guest_rss",
    "parse_engine",
    "run",
    "run_memory",
]

REPO = Path(__file__).resolve().parents[2]
#: ``morris engine`` as the lab runs it, here and there: without endgame tables, which it would
#: otherwise take from the data directory where this machine has built some, so that the sample
#: game and the searches of few pieces cannot depend on what this machine holds.
ENGINE = ("engine", "--no-tables")
#: The node budget of each fixed-node search.
ENGINE_NODES = 30_000
#: Positions of each endgame table ``morris tables verify --sample`` checks on an emulated Pi.
TABLES_SAMPLE = 200_000
#: Plies of the game the dozen positions are taken from (every third ply).
ENGINE_PLIES = 36
VENV = "/opt/morris/venv/bin"
#: The test suite on an emulated Pi: (pytest arguments, why the rest is left out).
TEST_SUBSET = (
    "tests/core tests/engine tests/solution tests/solver -m 'not browser and not slow'"
    " -p no:cacheprovider",
    "the rules core, the engine (its C inner loop against the Python search) and the solved game "
    "(its C solver, file format and probes): what word size, byte order and the compiler can "
    "change on a Pi. Left out: the browser tests (no chromium in the userland; Playwright has no "
    "armv7 wheel), tests marked slow, and the rest (referee, daemon, bridge, front ends), pure "
    "Python that runs as on x86-64 and takes hours under emulation on this shared machine",
)

#: What the test subset needs of README's dev extra, by name: the bounds are
#: ``pyproject.toml``'s. (The rest of the extra is for other tests and the checks; of it
#: Playwright has no armv7 wheel at all, and the browser tests need chromium anyway.)
ARMHF_TEST_NEEDS = ("dask", "pytest", "pytest-xdist", "hypothesis")


def armhf_test_install(repo: Path = REPO) -> tuple[tuple[str, str], str]:
    """How the test subset is installed on armhf, and why not by README's lines: those make a
    plain venv, in which pip builds numpy (and psutil, Pillow, zstandard) from source where PyPI
    has no armv7 wheel; a Raspberry Pi's pip takes them from piwheels, which this machine cannot
    reach, and under qemu the numpy build alone did not end in 85 minutes. So on armhf:
    docs/INSTALL.md's 32-bit venv (Debian's numpy, seen through ``--system-site-packages``), the
    product, and :data:`ARMHF_TEST_NEEDS` as the dev extra of ``pyproject.toml`` asks them."""
    import shlex
    import tomllib

    project = tomllib.loads((repo / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    dev = [
        req
        for req in project["optional-dependencies"]["dev"]
        if re.split(r"[\[<>=!~; ]", req, maxsplit=1)[0].lower() in ARMHF_TEST_NEEDS
    ]
    return (
        (
            "python3.11 -m venv --system-site-packages .venv",
            ".venv/bin/pip install -q -e . " + " ".join(shlex.quote(req) for req in dev),
        ),
        "PyPI has no armv7 wheels of numpy, Pillow or zstandard (a Pi's pip takes them from "
        "piwheels), and none at all of Playwright; the venv is docs/INSTALL.md's 32-bit one "
        "(Debian's numpy), with what the subset needs of the dev extra",
    )


def engine_script(positions: list[list[str]], nodes: int = ENGINE_NODES) -> str:
    """The ``morris engine`` input: one fixed-node search from each position."""
    lines = ["uci", "setoption name Seed value 0", "isready"]
    for moves in positions:
        position = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        lines += ["ucinewgame", position, f"go nodes {nodes}"]
    # ``quit`` stops a running search at once, as UCI asks, and ``isready`` is answered during
    # one: the last search would end wherever ``quit`` caught it, a node count that depends on
    # timing (the sample game then changed from run to run). ``ucinewgame`` waits for it.
    lines += ["ucinewgame", "isready", "quit"]
    return "\n".join(lines) + "\n"


def parse_engine(output: str) -> list[tuple[str, int]]:
    """(best move, nodes of the last ``info`` line) of each search in ``morris engine``'s output."""
    found: list[tuple[str, int]] = []
    nodes = -1
    for line in output.splitlines():
        match = re.search(r"\bnodes (\d+)", line)
        if line.startswith("info ") and match:
            nodes = int(match.group(1))
        elif line.startswith("bestmove "):
            found.append((line.split()[1], nodes))
            nodes = -1
    return found


def _host_morris(*args: str, stdin: str | None = None, timeout: float = 1800) -> str:
    """``morris`` of this checkout's venv on this machine; its stdout."""
    morris = REPO / ".venv" / "bin" / "morris"
    if not morris.exists():
        raise LabError(f"no {morris}: install the checkout first (README)", EXIT_NO_CAPABILITY)
    done = subprocess.run(
        [str(morris), *args], input=stdin, capture_output=True, text=True, timeout=timeout
    )
    if done.returncode != 0:
        raise LabError(f"morris {' '.join(args)} failed here: {done.stderr[-500:]}", 1)
    return done.stdout


def dozen_positions() -> list[list[str]]:
    """Twelve positions of one game the engine plays against itself here (every third ply)."""
    moves: list[str] = []
    positions: list[list[str]] = []
    for ply in range(ENGINE_PLIES):
        if ply % 3 == 0:
            positions.append(list(moves))
        out = _host_morris(*ENGINE, stdin=engine_script([moves], nodes=2000), timeout=120)
        best = parse_engine(out)
        if not best or best[0][0] in ("(none)", "0000"):
            break
        moves.append(best[0][0])
    return positions


class Platform:
    """The checks in one userland; :attr:`results` collects the figures."""

    def __init__(self, spec: userland.Spec, cache: userland.Cache, say: Callable[[str], None]):
        self.spec = spec
        self.cache = cache
        self.say = say
        self.log = cache.log(f"{spec.name}-platform.log")
        self.log.write_text("", encoding="utf-8")
        self.results: dict[str, Any] = {"userland": spec.name, "arch": spec.arch}
        self.root = Path()
        self.binds: list[Path] = []

    def sh(self, command: str, what: str, timeout: float = 1800) -> container.Result:
        """A command inside; :class:`LabError` naming ``what`` if it fails."""
        result = container.run_in(
            self.root, command, binds=self.binds, log=self.log, timeout=timeout
        )
        return result.require(what)

    def prepare(self) -> None:
        """A fresh copy with this machine's registry settings and the working tree."""
        from tools.morris_pilab.cli import copy_tree

        self.root = self.cache.fresh_copy(self.spec)
        self.binds = container.carry_in(self.root)
        copy_tree(self.root / docsteps.SOURCE_INSIDE.lstrip("/"))
        self.sh("update-ca-certificates >/dev/null", "update-ca-certificates")
        self.sh(
            f"cd {docsteps.SOURCE_INSIDE} && git init -q && git add -A && "
            "git -c user.name=pilab -c user.email=pilab@localhost commit -qm 'working tree'",
            "committing the working tree inside",
        )
        dpkg = self.sh("dpkg --print-architecture", "dpkg").output.split()[-1]
        machine = self.sh("uname -m", "uname").output.split()[-1]
        self.say(f"  {self.spec.name}: dpkg {dpkg}, uname -m {machine} (qemu-user-static)")

    def install(self) -> None:
        """docs/INSTALL.md sections 1 and 2, read from the document."""
        total = 0.0
        for step in docsteps.install_steps(REPO, self.spec.arch):
            if not step.command:
                self.say(f"  skipped `{step.written}`: {step.note}")
                continue
            self.say(f"  $ {step.command}" + (f"   ({step.note})" if step.note else ""))
            result = self.sh(step.command, f"`{step.written}` ({step.source})", timeout=5400)
            out = [line.strip() for line in result.output.splitlines()]
            if step.expected is not None and step.expected not in out:
                raise LabError(
                    f"`{step.written}` printed {out[-3:]}, not {step.expected}", EXIT_CHECK_FAILED
                )
            total += result.seconds
        self.results["install_seconds"] = round(total, 1)
        self.say(f"  installed in {total / 60:.1f} min")
        out = self.sh(
            f"{VENV}/python -c 'import struct, sys, morris.engine._native, "
            'morris.solver.solution._retro; print(struct.calcsize("P"), sys.byteorder)\'',
            "importing both C extensions",
        ).output.split()
        self.results["pointer_bytes"], self.results["byteorder"] = int(out[-2]), out[-1]
        self.say(f"  both C extensions import; pointers {out[-2]} bytes, {out[-1]}-endian")

    def engine(self) -> None:
        """The same best move and node count from a dozen positions as on this machine."""
        positions = dozen_positions()
        script = engine_script(positions)
        (self.root / "root/engine-script.txt").write_text(script, encoding="utf-8")
        here = parse_engine(_host_morris(*ENGINE, stdin=script))
        start = time.monotonic()
        there = parse_engine(
            self.sh(
                f"{VENV}/morris {' '.join(ENGINE)} < /root/engine-script.txt", "morris engine"
            ).output
        )
        self.results["engine"] = {
            "positions": len(positions),
            "nodes_budget": ENGINE_NODES,
            "here": here,
            "there": there,
            "seconds_there": round(time.monotonic() - start, 1),
        }
        if here != there or len(here) != len(positions):
            raise LabError(
                f"fixed-node searches differ: x86-64 {here} vs {self.spec.name} {there}",
                EXIT_CHECK_FAILED,
            )
        self.say(
            f"  morris engine: {len(here)} fixed-node searches ({ENGINE_NODES} nodes), the "
            "same best moves and node counts as on x86-64"
        )

    def tables(self, data: Path) -> None:
        """Tables and a 5 men's solved game built here: verified and probed the same there."""
        tables = data / "tables"
        if not any((tables / "solution").glob("sector-*.msol")):
            # Built once on this machine and kept in the cache (2 min here, 54 MB and 2.8 MB);
            # both builds are resumable, and skip what an earlier run built.
            self.say(f"  building the endgame tables and a 5 men's solved game here in {tables}")
            _host_morris("tables", "build", "--quiet", "--tables", str(tables), timeout=3600)
            _host_morris(
                "tables", "build", "--quiet", "--men", "5", "--workers", "2",
                "--solution", str(tables / "solution"), timeout=3600,
            )  # fmt: skip
        inside = self.root / "root/tables"
        if inside.exists():
            shutil.rmtree(inside)
        shutil.copytree(tables, inside)
        commands = [
            # A seeded sample of every table: the full check is 1.7 CPU min on x86-64 and did
            # not end within 30 min under qemu on the shared machine.
            f"tables verify --quiet --dir {{t}} --sample {TABLES_SAMPLE} --seed 0",
            "tables verify --quiet --men 5 --dir {t}/solution --sample 2000 --seed 0",
            "analyse startpos --men 5 --solution {t}/solution",
            "puzzle --men 5 --seed 1 --count 3 --answers --solution {t}/solution",
        ]
        for command in commands:
            here = _host_morris(*command.format(t=tables).split())
            there = self.sh(
                f"{VENV}/morris " + command.format(t="/root/tables"), f"morris {command}"
            ).output
            if here.replace(str(tables), "T") != there.replace("/root/tables", "T"):
                raise LabError(
                    f"`morris {command}` differs from x86-64:\n{there[-800:]}", EXIT_CHECK_FAILED
                )
            self.say(f"  morris {command.format(t='DIR')}: identical to x86-64")
        self.results["tables"] = "identical"

    def front_ends(self) -> None:
        """``morris sim --web`` and ``morris run --sim`` played; ``morris selftest --sim``."""
        client = f"{docsteps.SOURCE_INSIDE}/tools/morris_pilab/play_client.py"
        for name, command in (
            ("sim --web", f"{VENV}/morris sim --web --listen 127.0.0.1:{{p}} --no-save --level 1"),
            (
                "run --sim",
                f"{VENV}/morris run --sim --listen 127.0.0.1:{{p}} --state-dir /root/run-state "
                "--level 1",
            ),
        ):
            from tools.morris_pilab.service import free_port

            port = free_port()
            out = self.sh(
                f"{VENV}/python {client} --port {port} -- " + command.format(p=port),
                f"morris {name} played through the HTTP API",
                timeout=900,
            ).output.strip()
            self.say(f"  morris {name}: {out.splitlines()[-1]} (through the HTTP API)")
        result = self.sh(f"{VENV}/morris selftest --sim", "morris selftest --sim", timeout=900)
        self.say(f"  morris selftest --sim: exit 0 ({result.seconds:.0f} s)")

    def readme_and_tests(self) -> None:
        """README's install line (without the interactive simulator), then its test line on the
        stated subset, in the working tree's copy; on armhf the 32-bit way instead
        (:func:`armhf_test_install`)."""
        src = docsteps.SOURCE_INSIDE
        if self.spec.arch == "armhf":
            commands, why = armhf_test_install()
            self.say(f"  not README's lines on armhf: {why}")
            installs = [(command, "the 32-bit test install") for command in commands]
        else:
            first, test_line = docsteps.readme_steps(REPO)
            install = first.replace(" && .venv/bin/morris sim", "")
            dev = test_line.split(" && .venv/bin/pytest")[0]
            dev = dev.replace("python3.11 -m venv .venv && ", "")
            installs = [(install, "README's install line"), (dev, "README's dev install")]
        for command, what in installs:
            result = self.sh(f"cd {src} && {command}", what, timeout=5400)
            self.say(f"  {what}: `{command}` ({result.seconds / 60:.1f} min)")
        args, why = TEST_SUBSET
        start = time.monotonic()
        out = container.run_in(
            self.root,
            f"cd {src} && MORRIS_REQUIRE_NATIVE=1 .venv/bin/pytest -n 2 -q {args}",
            binds=self.binds,
            log=self.log,
            timeout=5400,
        )
        seconds = time.monotonic() - start
        summary = next(
            (line for line in reversed(out.output.splitlines()) if " in " in line), "no summary"
        )
        self.results["tests"] = {"args": args, "why": why, "summary": summary, "seconds": seconds}
        self.say(f"  pytest {args}: {summary} ({seconds / 60:.1f} min)")
        out.require("the test subset")


#: The steps of a platform run, in order: (what it prints, the method).
STEPS: dict[str, tuple[str, Callable[[Platform], None]]] = {
    "install": ("install (docs/INSTALL.md 1, 2):", Platform.install),
    "engine": ("the engine:", Platform.engine),
    "tables": ("tables and the solved game:", lambda lab: lab.tables(lab.cache.root / "data")),
    "front-ends": ("front ends:", Platform.front_ends),
    "tests": ("README and the tests:", Platform.readme_and_tests),
}


def run(args: argparse.Namespace, cache: userland.Cache, say: Callable[[str], None]) -> int:
    """``tools/pilab platform NAME``."""
    from tools.morris_pilab.cli import _write_results

    userland.require_root()
    spec = userland.USERLANDS[args.name]
    userland.check_emulation(spec)
    userland.check_disk(cache.root)
    lab = Platform(spec, cache, say)
    say(f"{spec.name}: {spec.why}; log {lab.log}")
    steps = set(args.steps.split(",")) if args.steps else set(STEPS)
    unknown = steps - set(STEPS)
    if unknown:
        raise LabError(f"unknown steps {sorted(unknown)} (known: {', '.join(STEPS)})", 2)
    if args.skip_tests:
        steps.discard("tests")
    if args.reuse:
        # The copy an earlier run installed: later steps without the install again.
        lab.root = cache.run_root(spec.name)
        if not (lab.root / VENV.lstrip("/") / "morris").exists():
            raise LabError(f"no install in {lab.root} to reuse: run without --reuse", 6)
        lab.binds = container.carry_in(lab.root)
    else:
        lab.prepare()
        steps.add("install")
    for step in STEPS:
        if step in steps:
            title, method = STEPS[step]
            say(title)
            method(lab)
    path = _write_results(cache, f"{spec.name}-platform", lab.results)
    say(f"passed; results in {path}")
    print(file=sys.stderr, end="")
    return EXIT_OK


#: Mappings of a qemu-user process that are the emulator's own, not the guest program's.
_QEMU_OWN = ("[heap]", "[stack]", "[vvar]", "[vdso]", "[vsyscall]")


def guest_rss(smaps: str) -> tuple[int, int]:
    """(bytes resident in the guest's mappings, bytes resident in qemu's own) from the text of
    ``/proc/PID/smaps`` of a qemu-user process: qemu's own are its binary, its heap and stack,
    the kernel's vdso pages and its translated-code buffer (the one mapping both writable and
    executable); everything else is the guest program's memory."""
    guest = own = 0
    mine = False
    for line in smaps.splitlines():
        fields = line.split()
        if fields and re.fullmatch(r"[0-9a-f]+-[0-9a-f]+", fields[0]):
            perms = fields[1]
            path = fields[5] if len(fields) > 5 else ""
            mine = "qemu" in path or path in _QEMU_OWN or perms.startswith("rwx")
        elif fields[:1] == ["Rss:"]:
            size = int(fields[1]) * 1024
            if mine:
                own += size
            else:
                guest += size
    return guest, own


def _qemu_pid_of(marker: str) -> int | None:
    """The host pid of the emulated process whose command line holds ``marker``."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            exe = os.readlink(proc / "exe")
        except OSError:
            continue
        if marker in cmdline and "qemu" in exe:
            return int(proc.name)
    return None


def run_memory(args: argparse.Namespace, cache: userland.Cache, say: Callable[[str], None]) -> int:
    """``tools/pilab memory NAME``: the idle daemon's memory on an emulated Pi, without qemu's.

    Uses the run copy a ``platform`` run installed; starts ``morris run --sim`` there, lets it
    settle, and reads its qemu process's smaps from this machine (:func:`guest_rss`).
    """
    userland.require_root()
    spec = userland.USERLANDS[args.name]
    if spec.arch == userland.host_arch():
        raise LabError("memory is measured on an emulated userland (arm64, armhf)", 2)
    root = cache.run_root(spec.name)
    if not (root / VENV.lstrip("/") / "morris").exists():
        raise LabError(f"no install in {root}: run `tools/pilab platform {spec.name}` first", 6)
    marker = f"/root/memory-{os.getpid()}"
    # A plain chroot: systemd-nspawn locks the tree while a platform run uses it, and the
    # daemon on the simulated board needs nothing a chroot lacks.
    argv = ["chroot", str(root), "/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=/root"]
    argv += ["LANG=C.UTF-8", f"{VENV}/morris", "run", "--sim", "--level", "5"]
    argv += ["--state-dir", marker]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        pid = None
        while pid is None and time.monotonic() < deadline and process.poll() is None:
            time.sleep(1)
            pid = _qemu_pid_of(marker)
        if pid is None:
            raise LabError("the emulated daemon did not start", EXIT_CHECK_FAILED)
        time.sleep(args.settle)
        samples = []
        for _ in range(5):
            samples.append(guest_rss(Path(f"/proc/{pid}/smaps").read_text()))
            time.sleep(2)
    finally:
        process.terminate()
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
    guest = max(g for g, _ in samples) / 1024**2
    own = max(o for _, o in samples) / 1024**2
    say(
        f"{spec.name}: morris run --sim idle, resident {guest:.1f} MiB of its own "
        f"(qemu's binary, heap and translated code, {own:.1f} MiB more, left out)"
    )
    from tools.morris_pilab.cli import _write_results

    _write_results(
        cache, f"{spec.name}-memory", {"daemon_mib": round(guest, 1), "qemu_mib": round(own, 1)}
    )
    return EXIT_OK
