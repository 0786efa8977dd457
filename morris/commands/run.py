"""``morris run``: the daemon on the configured board (``--sim``: on a simulated board)."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from morris.commands.options import (
    add_data_options,
    add_game_options,
    add_voice_options,
    add_web_options,
    data_overrides,
    data_problem,
    game_overrides,
    use_language,
    voice_overrides,
    web_overrides,
)
from morris.commands.words import error
from morris.i18n import _

if TYPE_CHECKING:
    from morris.app.config import Config
    from morris.daemon import Daemon

logger = logging.getLogger(__name__)


def serve_daemon(daemon: Daemon, config: Config, *, state_dir: Path | None) -> int:
    """Run ``daemon`` (with the web companion if the configuration asks); the exit code.

    The companion is imported only then; a listener it cannot open ends the command with code
    2 before the daemon starts.
    """
    if not config.web.enabled and not config.web.link:
        return daemon.run()
    from morris.web.host import DaemonHost
    from morris.web.pairing import start_pairing
    from morris.web.security import TokenError
    from morris.web.server import ListenError, start_configured_companion

    host = DaemonHost(daemon)
    server = None
    if config.web.enabled:
        try:
            server = start_configured_companion(host, config, state_dir=state_dir)
        except (ListenError, TokenError) as exc:
            daemon.board.close()
            error(str(exc))
            return 2
    link = start_pairing(host, config)
    try:
        return daemon.run()
    finally:
        if link is not None:
            link.close()
        if server is not None:
            server.stop()


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``morris run``."""
    parser = sub.add_parser(
        "run",
        help=_("run the board daemon (what the systemd service starts)"),
        description=_(
            "Run the daemon on the configured hardware. Without a Raspberry Pi, use "
            "`morris sim` to play in the terminal."
        ),
    )
    parser.add_argument("--config", metavar="FILE", help=_("the TOML configuration file"))
    parser.add_argument(
        "--sim", action="store_true", help=_("run headless on a simulated board (no hardware)")
    )
    parser.add_argument("--backend", choices=("gpio", "serial", "sim"), help=_("hardware backend"))
    parser.add_argument("--profile", help=_("wiring profile name or file (backend gpio)"))
    parser.add_argument("--serial-url", help=_("serial port URL (backend serial)"))
    parser.add_argument("--state-dir", help=_("where the unfinished game and status are kept"))
    add_data_options(parser)
    add_game_options(parser)
    add_web_options(parser)
    add_voice_options(parser)
    parser.set_defaults(run=run, log_level=logging.INFO)


def run(args: argparse.Namespace) -> int:
    """Load the configuration, open the board, run the daemon; return the exit code."""
    from morris.app.config import load_config
    from morris.app.errors import ConfigError, HardwareUnavailable
    from morris.app.store import GameStore
    from morris.commands.engine import warn_if_slow_engine
    from morris.daemon import Daemon, open_hardware
    from morris.daemon.status_file import STATUS_FILE_NAME

    problem = data_problem(args)
    if problem is not None:
        error(problem)
        return 2
    warn_if_slow_engine()
    # Kept for reloads: SIGHUP rereads the file and applies the same flags on top of it.
    overrides = {
        **game_overrides(args),
        "hardware_backend": "sim" if args.sim else args.backend,
        "hardware_profile": args.profile,
        "hardware_serial_url": args.serial_url,
        "paths_state_dir": args.state_dir,
        **web_overrides(args),
        **data_overrides(args),
        **voice_overrides(args),
    }
    try:
        config = load_config(args.config).with_overrides(**overrides)
    except ConfigError as exc:
        error(str(exc))
        return 2
    use_language(args.lang, config)
    try:
        board = open_hardware(config)
    except HardwareUnavailable as exc:
        error(str(exc))
        return 2
    state_dir = config.state_dir()
    try:
        # systemd makes $STATE_DIRECTORY; by hand the default one may not exist yet.
        state_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        board.close()
        error(
            _("cannot create the state directory {path}: {reason}").format(
                path=state_dir, reason=exc
            )
        )
        return 2
    store = GameStore(state_dir, config.games_dir())
    daemon = Daemon(
        config,
        board,
        config_path=args.config,
        store=store,
        status_path=state_dir / STATUS_FILE_NAME,
        overrides=overrides,
    )
    return serve_daemon(daemon, config, state_dir=state_dir)
