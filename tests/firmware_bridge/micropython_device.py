"""The firmware on real MicroPython (its WebAssembly port under node), served on a pty.

:class:`MicroPythonDevice` is what :class:`firmware_bridge.ptydevice.PtyDevice` is for the CPython
emulator: a pseudo-terminal whose other end is the firmware, a ``url`` symlink that follows it
across :meth:`unplug` / :meth:`replug`, and a ``board`` a test puts pieces on and reads the LEDs
of. Here the firmware files of ``firmware_bridge/firmware`` and ``protocol.py`` run unchanged on
MicroPython 1.27 (npm's ``@micropython/micropython-webassembly-pyscript``), on the MicroPython
stand-ins in ``tests/firmware_bridge/micropython`` for ``machine`` and ``neopixel``.

Where the package is: ``$MORRIS_MICROPYTHON_WASM`` (its ``micropython.mjs``, or the package's
directory), else the lab's npm cache (``tools/pilab firmware`` installs it there).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import threading
import tty
from pathlib import Path

import firmware_bridge

HERE = Path(__file__).resolve().parent / "micropython"
PACKAGE = Path(firmware_bridge.__file__).resolve().parent
#: The files flashed to a Pico (firmware_bridge/README.md), then the stand-ins.
FLASHED = [PACKAGE / "protocol.py", *sorted((PACKAGE / "firmware").glob("*.py"))]
STAND_INS = [HERE / "picoboard.py", HERE / "machine.py", HERE / "neopixel.py", HERE / "picohost.py"]
NPM_NAME = "@micropython/micropython-webassembly-pyscript"
DEFAULT_PACKAGE = Path("/var/cache/morris-pilab/npm/node_modules") / NPM_NAME
#: The MicroPython heap the firmware runs in: well under the RP2040's 264 KB of RAM.
HEAP_BYTES = 128 * 1024


def flashed_files() -> list[Path]:
    """The firmware's files as MicroPython gets them: the sources, or where
    ``$MORRIS_FIRMWARE_MPY_DIR`` names a directory of their ``mpy-cross`` output, the ``.mpy``
    bytecode a Pico would be flashed with (``tools/pilab firmware`` runs the checks both ways)."""
    mpy = os.environ.get("MORRIS_FIRMWARE_MPY_DIR")
    if not mpy:
        return list(FLASHED)
    files = [Path(mpy) / (p.stem + ".mpy") for p in FLASHED]
    missing = [str(p) for p in files if not p.is_file()]
    if missing:
        raise FileNotFoundError(f"no compiled firmware: {', '.join(missing)}")
    return files


def find_micropython() -> tuple[str, Path] | None:
    """``(node, micropython.mjs)`` if both are here, else ``None``."""
    node = shutil.which("node")
    where = Path(os.environ.get("MORRIS_MICROPYTHON_WASM") or DEFAULT_PACKAGE)
    mjs = where / "micropython.mjs" if where.is_dir() else where
    if node is None or not mjs.is_file():
        return None
    return node, mjs


class MicroPythonBoard:
    """The board as the test sees it: pieces and buttons go to MicroPython, LEDs come back."""

    def __init__(self, config: dict[str, object]) -> None:
        self.config = config
        self._lock = threading.Lock()
        self._on_wood: set[int] = set()
        self._lit = ""
        self._send = None  # type: ignore[var-annotated]

    # What a person does; kept here too, so a replug powers up with the pieces where they are.
    def _command(self, line: str) -> None:
        send = self._send
        if send is not None:
            send(line)

    def set_on_wood(self, points: set[int] | frozenset[int]) -> None:
        """Put pieces on exactly these points (before power-up, or now)."""
        with self._lock:
            old, self._on_wood = self._on_wood, set(points)
        for point in sorted(old - set(points)):
            self._command(f"lift {point}")
        for point in sorted(set(points) - old):
            self._command(f"place {point}")

    def place(self, point: int) -> None:
        with self._lock:
            self._on_wood.add(point)
        self._command(f"place {point}")

    def lift(self, point: int) -> None:
        with self._lock:
            self._on_wood.discard(point)
        self._command(f"lift {point}")

    def press(self, button: int) -> None:
        self._command(f"press {button}")

    def release(self, button: int) -> None:
        self._command(f"release {button}")

    @property
    def on_wood(self) -> frozenset[int]:
        with self._lock:
            return frozenset(self._on_wood)

    def lit(self, index: int) -> bool:
        """Whether LED ``index`` of the chain is lit now (as MicroPython last wrote it)."""
        with self._lock:
            return index < len(self._lit) and self._lit[index] == "1"

    def _shown(self, bits: str) -> None:
        with self._lock:
            self._lit = bits

    def _power_cycle(self) -> None:
        with self._lock:
            self._lit = ""


class MicroPythonDevice:
    """The firmware on MicroPython under node, on a pty; :attr:`heap_used` is its heap after
    boot (``gc.mem_alloc()`` after a collection)."""

    def __init__(self, node: str, mjs: Path, *, heap: int = HEAP_BYTES) -> None:
        from firmware_bridge.firmware.config import CONFIG

        self.node = node
        self.mjs = mjs
        self.heap = heap
        self.board = MicroPythonBoard(dict(CONFIG))
        self._tmpdir = tempfile.TemporaryDirectory(prefix="morris-mpy-")
        self.url = os.path.join(self._tmpdir.name, "morris-board")
        self.boots = 0
        self.heap_used: int | None = None
        self.heap_free: int | None = None
        self.errors: list[str] = []
        self._process: subprocess.Popen[bytes] | None = None
        self._fds: list[int] = []
        self._control: int | None = None
        self._booted = threading.Event()
        self._reader: threading.Thread | None = None
        self.replug()

    def replug(self) -> None:
        """Plug in (again): a fresh pty and MicroPython booted anew with the pieces in place."""
        self.unplug()
        master, slave = os.openpty()
        os.set_blocking(master, False)
        tty.setraw(slave)
        control_read, control_write = os.pipe()
        os.set_blocking(control_read, False)
        tmp = self.url + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.url)
        self.boots += 1
        self.board._power_cycle()
        on_wood = ",".join(str(p) for p in sorted(self.board.on_wood))
        argv = [
            self.node, str(HERE / "runner.mjs"), str(self.mjs), str(self.heap),
            str(0x3BED0000 + self.boots), on_wood, str(master), str(control_read),
            *[str(p) for p in flashed_files() + STAND_INS],
        ]  # fmt: skip
        self._booted.clear()
        self._process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=(master, control_read),
        )
        os.close(control_read)
        self._fds = [master, slave]
        self._control = control_write
        self.board._send = self._send
        process = self._process
        self._reader = threading.Thread(target=self._read, args=(process,), daemon=True)
        self._reader.start()
        if not self._booted.wait(30):
            err = process.stderr.read1(4000).decode("utf-8", "replace") if process.stderr else ""
            raise RuntimeError(f"MicroPython did not boot the firmware: {err}")

    def _send(self, line: str) -> None:
        if self._control is not None:
            with contextlib.suppress(OSError):
                os.write(self._control, (line + "\n").encode())

    def _read(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None
        for raw in process.stdout:
            words = raw.decode("utf-8", "replace").split()
            if words[:1] == ["leds"] and len(words) == 2:
                self.board._shown(words[1])
            elif words[:1] == ["mem"] and len(words) == 3:
                self.heap_used, self.heap_free = int(words[1]), int(words[2])
                self._booted.set()
            elif words:
                self.errors.append(" ".join(words))

    def memory(self) -> int:
        """The firmware's heap in use now, after a collection (bytes)."""
        self._booted.clear()
        self._send("mem")
        if not self._booted.wait(10):
            raise RuntimeError("MicroPython did not report its memory")
        assert self.heap_used is not None
        return self.heap_used

    def unplug(self) -> None:
        """Pull the cable: MicroPython stops, the pty and the link path go away."""
        self.board._send = None
        if self._control is not None:
            with contextlib.suppress(OSError):
                os.close(self._control)
            self._control = None
        process, self._process = self._process, None
        if process is not None:
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            for stream in (process.stdout, process.stderr):
                if stream is not None:
                    stream.close()
        if self._reader is not None:
            self._reader.join(5)
            self._reader = None
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.url)
        for fd in self._fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds = []

    def close(self) -> None:
        self.unplug()
        self._tmpdir.cleanup()

    def __enter__(self) -> MicroPythonDevice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
