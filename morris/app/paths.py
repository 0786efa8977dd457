"""Where the project keeps its data on disk (the app layer resolves environment variables)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def tables_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where the endgame tables live: ``$MORRIS_DATA_DIR``, else ``$XDG_DATA_HOME/morris/tables``.

    ``$XDG_DATA_HOME`` defaults to ``~/.local/share``.
    """
    env = os.environ if environ is None else environ
    if env.get("MORRIS_DATA_DIR"):
        return Path(env["MORRIS_DATA_DIR"]).expanduser()
    base = env.get("XDG_DATA_HOME") or str(Path("~/.local/share").expanduser())
    return Path(base).expanduser() / "morris" / "tables"
