"""What docs/INSTALL.md's plain ``pip install /opt/morris/src`` ships (not an editable install).

Found by ``tools/pilab service``: the web companion's manifest was left out of the package data,
so an installed service with the companion on failed at start while every editable checkout (the
tests, the simulator) worked.
"""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_every_file_the_web_page_serves_is_package_data() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["morris.web"]
    static = REPO / "morris" / "web" / "static"
    shipped = {
        path.name
        for path in static.iterdir()
        if any(fnmatch.fnmatch(f"static/{path.name}", p) for p in patterns)
    }
    assert sorted(p.name for p in static.iterdir() if p.is_file()) == sorted(shipped)
