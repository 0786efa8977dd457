"""What a fresh interpreter loads: the one helper of the tests that keep a module light (the
daemon without the solver, the device packages without each other's libraries, a value without
numpy). A subprocess each time, so the tests that call it are marked ``realtime``."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def loaded_after(statement: str, packages: Iterable[str]) -> list[str]:
    """The modules of ``packages`` (each a package or module and everything below it) that a
    fresh interpreter, started in the project's root, has loaded after running ``statement``;
    sorted."""
    names = tuple(packages)
    probe = (
        "import sys\n"
        f"{statement}\n"
        f"names = {names!r}\n"
        "print(*sorted(m for m in sys.modules\n"
        "    if any(m == n or m.startswith(n + '.') for n in names)))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return result.stdout.split()
