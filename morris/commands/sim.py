"""``morris sim``: the interactive simulator in the terminal (no Raspberry Pi needed)."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from morris.commands.run import add_game_options, game_overrides

logger = logging.getLogger(__name__)

#: The log file in the state directory (the terminal belongs to the board).
LOG_FILE_NAME = "sim.log"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``morris sim``."""
    parser = sub.add_parser(
        "sim",
        help="play on a simulated board in the terminal",
        description="The board drawn with every point's light. Click a point (or type it: d6, "
        "a1-a4, xg7; clear) to put a piece there or take it off; keys n, t, h, m press the "
        "new-game, takeback, hint and mode buttons; s sets up a new game; q quits.",
    )
    parser.add_argument("--config", metavar="FILE", help="the TOML configuration file")
    keep = parser.add_mutually_exclusive_group()
    keep.add_argument(
        "--state-dir",
        metavar="DIR",
        help="keep the unfinished game here across runs, and the log sim.log "
        "(default: ~/.local/state/morris/sim, or $XDG_STATE_HOME/morris/sim)",
    )
    keep.add_argument(
        "--no-save",
        action="store_true",
        help="keep nothing: the game is gone when the simulator quits",
    )
    parser.add_argument(
        "--log",
        metavar="FILE",
        help="write the log here (default: sim.log in the state directory; none with --no-save)",
    )
    add_game_options(parser)
    parser.set_defaults(run=run)


def _log_to_file(path: Path | None) -> None:
    """Send the log to ``path`` (or nowhere), never to the terminal the app draws on."""
    root = logging.getLogger()
    level = root.level
    for handler in list(root.handlers):
        if isinstance(handler, logging.StreamHandler) and not isinstance(
            handler, logging.FileHandler
        ):
            root.removeHandler(handler)
    if path is None:
        root.addHandler(logging.NullHandler())
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(min(level, logging.INFO) if level else logging.INFO)


def run(args: argparse.Namespace) -> int:
    """Load the configuration, start the app; return the exit code."""
    from morris.app.config import load_config
    from morris.app.errors import ConfigError
    from morris.app.paths import sim_state_dir

    overrides = {**game_overrides(args), "hardware_backend": "sim"}
    try:
        config = load_config(args.config).with_overrides(**overrides)
    except ConfigError as exc:
        print(f"morris: {exc}", file=sys.stderr)
        return 2
    if args.no_save:
        state_dir = None
    else:
        state_dir = Path(args.state_dir).expanduser() if args.state_dir else sim_state_dir()
        try:
            state_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"morris: cannot create the state directory {state_dir}: {exc}", file=sys.stderr)
            return 2
    log_path = Path(args.log) if args.log else (state_dir / LOG_FILE_NAME if state_dir else None)
    try:
        _log_to_file(log_path)
    except OSError as exc:
        print(f"morris: cannot write the log {log_path}: {exc.strerror}", file=sys.stderr)
        return 2

    from morris.app.controller import asked_settings
    from morris.commands.engine import warn_if_slow_engine
    from morris.tui.app import SimulatorApp

    warn_if_slow_engine()  # before the terminal UI takes the screen: seen once it ends
    logger.info("morris sim: %s", config.source)
    app = SimulatorApp(config, state_dir=state_dir, insist=asked_settings(overrides))
    app.run()
    return 0
