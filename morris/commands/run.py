"""``morris run``: the daemon on the configured board (``--sim``: on a simulated board)."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from morris.app.mode import Mode
from morris.commands.words import error, variants_help
from morris.core.variant import VARIANT_NAMES
from morris.engine.levels import MAX_LEVEL
from morris.i18n import N_, _

if TYPE_CHECKING:
    from morris.app.config import Config
    from morris.daemon import Daemon

logger = logging.getLogger(__name__)


#: The removal switches of the standard game (and every variant), as flags; their help is
#: translated where it is used (``_(text)``).
SWITCH_HELP = {
    "remove-from-mills": N_("a mill may take a piece that stands in a mill"),
    "double-mill-removes-two": N_("a turn closing two mills at once removes two pieces"),
}


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """The flags that override the ``[game]`` keys (shared by ``run`` and ``sim``)."""
    parser.add_argument(
        "--mode",
        choices=[mode.value for mode in Mode],
        help=_("play the Pi, referee two players, or play a remote player (the web companion)"),
    )
    parser.add_argument(
        "--human",
        choices=("white", "black"),
        help=_("your colour against the Pi or remote player"),
    )
    parser.add_argument(
        "--level",
        type=int,
        help=_("the Pi's level, 1 (beginner) to {max}").format(max=MAX_LEVEL),
    )
    parser.add_argument(
        "--variant",
        choices=VARIANT_NAMES,
        help=_("the game: {variants}").format(variants=variants_help()),
    )
    flying = parser.add_mutually_exclusive_group()
    flying.add_argument(
        "--flying",
        dest="flying",
        action="store_true",
        default=None,
        help=_("a player with three pieces left may fly (the variant's rule)"),
    )
    flying.add_argument(
        "--no-flying", dest="flying", action="store_false", help=_("no flying, in any variant")
    )
    for name, text in SWITCH_HELP.items():
        switch = parser.add_mutually_exclusive_group()
        dest = name.replace("-", "_")
        switch.add_argument(f"--{name}", dest=dest, action="store_true", default=None, help=_(text))
        switch.add_argument(f"--no-{name}", dest=dest, action="store_false")
    parser.add_argument("--seed", type=int, help=_("seed of the Pi's randomness"))


def listen_argument(text: str) -> str:
    """``--listen``'s value, checked: a bad one ends the command with exit code 2."""
    from morris.app.config import parse_listen
    from morris.app.errors import ConfigError

    try:
        parse_listen(text)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def add_web_options(parser: argparse.ArgumentParser) -> None:
    """``--web`` and ``--listen`` (shared by ``run`` and ``sim``), over the ``[web]`` keys."""
    parser.add_argument(
        "--web",
        action="store_true",
        default=None,
        help=_("serve the web companion (the game on a phone; docs/WEB.md)"),
    )
    parser.add_argument(
        "--listen",
        metavar="HOST:PORT",
        type=listen_argument,
        help=_(
            "where the web companion listens (implies --web; default 127.0.0.1:8700, this "
            "machine only; 0.0.0.0:8700 for the home network, with token links)"
        ),
    )
    parser.add_argument(
        "--link",
        metavar="URL",
        help=_(
            "board to board (with --mode remote): link to the other board's companion, "
            "http://HOST:PORT; each board's turns become the other's remote turns"
        ),
    )
    parser.add_argument(
        "--link-token",
        metavar="TOKEN",
        help=_("the other board's control token (beyond loopback)"),
    )


def add_voice_options(parser: argparse.ArgumentParser) -> None:
    """``--lang`` and ``--speak`` (shared by ``run`` and ``sim``), over ``[ui] language`` and
    ``[speech] enabled``."""
    from morris.i18n import LANGUAGES

    parser.add_argument(
        "--lang",
        metavar="LANG",
        help=_(
            "the board's language: {languages} (default: the configuration's [ui] language, "
            "else LC_ALL, LC_MESSAGES, LANG; else English)"
        ).format(languages=", ".join(LANGUAGES)),
    )
    parser.add_argument(
        "--speak",
        action="store_true",
        default=None,
        help=_("say the game aloud in the board's language through espeak-ng ([speech] enabled)"),
    )


def voice_overrides(args: argparse.Namespace) -> dict[str, object]:
    """The :meth:`Config.with_overrides` arguments of :func:`add_voice_options`' ``--speak``
    (``--lang`` is :func:`use_language`'s)."""
    return {"speech_enabled": True if args.speak else None}


def use_language(option: str | None, config: Config) -> str:
    """Make the board's language the one asked for (``--lang``, else ``[ui] language``, else
    the environment's); a language without a catalog is warned about on stderr and the log,
    and English is used. Returns the language."""
    from morris.commands.words import notice_once
    from morris.i18n import choose_language, set_language

    code, warning = choose_language(option, config.ui.language)
    if warning is not None:
        notice_once(warning)  # said once: the command line may have said it as it started
        logger.warning("%s", warning)
    return set_language(code)


def web_overrides(args: argparse.Namespace) -> dict[str, object]:
    """The :meth:`Config.with_overrides` arguments of :func:`add_web_options`' flags."""
    enabled = True if args.web or args.listen else None
    return {
        "web_enabled": enabled,
        "web_listen": args.listen,
        "web_link": args.link,
        "web_link_token": args.link_token,
    }


def serve_daemon(daemon: Daemon, config: Config, *, state_dir: Path | None) -> int:
    """Run ``daemon`` (with the web companion if the configuration asks); the exit code.

    The companion is imported only then; a listener it cannot open ends the command with code
    2 before the daemon starts.
    """
    if not config.web.enabled and not config.web.link:
        return daemon.run()
    from morris.web.host import DaemonHost
    from morris.web.link import start_link
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
    link = start_link(host, config)
    try:
        return daemon.run()
    finally:
        if link is not None:
            link.close()
        if server is not None:
            server.stop()


def game_overrides(args: argparse.Namespace) -> dict[str, object]:
    """The :meth:`Config.with_overrides` arguments of the flags :func:`add_game_options` adds."""
    return {
        "game_mode": args.mode,
        "game_human": args.human,
        "game_level": args.level,
        "game_variant": args.variant,
        "game_flying": args.flying,
        "game_remove_from_mills": args.remove_from_mills,
        "game_double_mill_removes_two": args.double_mill_removes_two,
        "engine_seed": args.seed,
    }


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
    from morris.commands.tables import add_data_options

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
    from morris.commands.tables import data_overrides, data_problem
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
