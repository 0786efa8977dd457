"""Where the project keeps its data on disk (the app layer resolves environment variables).

The endgame tables in the user's data directory; the state (the unfinished game, the status
file, finished games) in systemd's state directory for the service, else the user's.
"""

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


def solution_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where the solved game lives unless configured (``engine.solution``): ``solution`` in the
    tables' directory (:func:`tables_dir`)."""
    return tables_dir(environ) / "solution"


#: The state directory of the installed service (systemd's ``StateDirectory=morris``).
SERVICE_STATE_DIR = Path("/var/lib/morris")


def systemd_state_dir(environ: Mapping[str, str] | None = None) -> Path | None:
    """The first directory of systemd's ``$STATE_DIRECTORY`` (set inside the service), or
    ``None``."""
    env = os.environ if environ is None else environ
    value = env.get("STATE_DIRECTORY", "").split(":")[0]
    return Path(value) if value else None


def user_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where a daemon or simulator run by hand keeps its state: ``$XDG_STATE_HOME/morris``
    (``$XDG_STATE_HOME`` defaults to ``~/.local/state``)."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base).expanduser() / "morris"


def sim_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where ``morris sim`` keeps its unfinished game unless told otherwise: ``sim`` in the
    user's state directory (apart from a hand-run daemon's game)."""
    return user_state_dir(environ) / "sim"


def daemon_state_dirs(environ: Mapping[str, str] | None = None) -> list[Path]:
    """Every place a running daemon may keep its status, in the order ``morris status`` looks:
    systemd's ``$STATE_DIRECTORY`` (inside the service), the installed service's directory, and
    the user's state directory (a ``morris run`` started by hand)."""
    env = os.environ if environ is None else environ
    systemd = systemd_state_dir(env)
    dirs = [] if systemd is None else [systemd]
    dirs += [SERVICE_STATE_DIR, user_state_dir(env)]
    return list(dict.fromkeys(dirs))
