"""``morris sim``: the interactive simulator in the terminal (no Raspberry Pi needed)."""

from __future__ import annotations

import argparse
import logging
import sys
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
    from morris.tui.app import SimulatorApp

logger = logging.getLogger(__name__)

#: The log file in the state directory (the terminal belongs to the board).
LOG_FILE_NAME = "sim.log"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``morris sim``."""
    parser = sub.add_parser(
        "sim",
        help=_("play on a simulated board in the terminal"),
        # TRANSLATORS: the keys (n, t, h, m, s, q) and the typed points (d6, a1-a4, xg7, clear)
        # stay as they are.
        description=_(
            "The board drawn with every point's light. Click a point (or type it: d6, "
            "a1-a4, xg7; clear) to put a piece there or take it off; keys n, t, h, m press the "
            "new-game, takeback, hint and mode buttons; s sets up a new game; q quits. With --web "
            "the same game is on a web page too; without a terminal (started by a script) only "
            "there."
        ),
    )
    parser.add_argument("--config", metavar="FILE", help=_("the TOML configuration file"))
    keep = parser.add_mutually_exclusive_group()
    keep.add_argument(
        "--state-dir",
        metavar="DIR",
        help=_(
            "keep the unfinished game here across runs, and the log sim.log "
            "(default: ~/.local/state/morris/sim, or $XDG_STATE_HOME/morris/sim)"
        ),
    )
    keep.add_argument(
        "--no-save",
        action="store_true",
        help=_("keep nothing: the game is gone when the simulator quits"),
    )
    parser.add_argument(
        "--log",
        metavar="FILE",
        help=_("write the log here (default: sim.log in the state directory; none with --no-save)"),
    )
    parser.add_argument(
        "--puzzle",
        type=int,
        metavar="N",
        help=_(
            "start with a training puzzle from the solved game: white to move wins in N "
            "turns (drawn with --seed; needs `morris tables build --men K`, or --solution DIR)"
        ),
    )
    add_data_options(parser)
    add_game_options(parser)
    add_web_options(parser)
    add_voice_options(parser)
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

    overrides = {
        **game_overrides(args),
        **web_overrides(args),
        **data_overrides(args),
        **voice_overrides(args),
        "hardware_backend": "sim",
    }
    if args.puzzle is not None and args.puzzle < 1:
        error(_("--puzzle must be 1 or more (turns), not {n}").format(n=args.puzzle))
        return 2
    problem = data_problem(args)
    if problem is not None:
        error(problem)
        return 2
    try:
        config = load_config(args.config).with_overrides(**overrides)
    except ConfigError as exc:
        error(str(exc))
        return 2
    use_language(args.lang, config)
    if args.no_save:
        state_dir = None
    else:
        state_dir = Path(args.state_dir).expanduser() if args.state_dir else sim_state_dir()
        try:
            state_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            error(
                _("cannot create the state directory {path}: {reason}").format(
                    path=state_dir, reason=exc
                )
            )
            return 2
    log_path = Path(args.log) if args.log else (state_dir / LOG_FILE_NAME if state_dir else None)
    try:
        _log_to_file(log_path)
    except OSError as exc:
        error(_("cannot write the log {path}: {reason}").format(path=log_path, reason=exc.strerror))
        return 2

    from morris.app.persistence import asked_settings
    from morris.commands.engine import warn_if_slow_engine

    warn_if_slow_engine()  # before the terminal UI takes the screen: seen once it ends
    logger.info("morris sim: %s", config.source)
    if config.web.enabled and not (sys.stdin.isatty() and sys.stdout.isatty()):
        if args.puzzle is not None:
            # TRANSLATORS: Puzzle is the page's button: its name as the page shows it.
            error(_("--puzzle needs the terminal; on the page press Puzzle"))
            return 2
        return _page_alone(config, state_dir, overrides)

    from morris.app.jobs import load_solution
    from morris.tui.app import SimulatorApp

    solution = load_solution(config.solution_dir())
    puzzle = None
    if args.puzzle is not None:
        from morris.app.errors import InputError
        from morris.app.puzzle import NoSolutionError, make_puzzle, solution_for

        try:
            solution = solution_for(solution, config)
            puzzle = make_puzzle(solution, args.puzzle, config.engine.seed)
        except NoSolutionError as exc:
            error(str(exc))
            return 1
        except InputError as exc:
            error(f"--puzzle: {exc}")
            return 2
    app = SimulatorApp(
        config, state_dir=state_dir, insist=asked_settings(overrides), solution=solution
    )
    if puzzle is not None:
        assert solution is not None  # make_puzzle had one
        try:
            app.sim.controller.start_puzzle(puzzle, solution, app.sim.now)
        except InputError as exc:
            error(f"--puzzle: {exc}")
            return 2
    from morris.app.speech import start_speech

    speaker = start_speech(config.speech, app.sim.controller, warn=_warn)
    try:
        return _run_app(app, config, state_dir)
    finally:
        if speaker is not None:
            speaker.close()


def _warn(text: str) -> None:
    """A warning before the terminal app takes the screen (seen once it ends)."""
    error(text)


def _run_app(app: SimulatorApp, config: Config, state_dir: Path | None) -> int:
    """Run the terminal app, with the web companion beside it when the configuration asks."""
    if not config.web.enabled:
        app.run()
        return 0
    from morris.web.host import TuiHost
    from morris.web.pairing import start_pairing
    from morris.web.security import TokenError
    from morris.web.server import ListenError, start_configured_companion

    host = TuiHost(app)
    try:
        server = start_configured_companion(host, config, state_dir=state_dir)
    except (ListenError, TokenError) as exc:
        error(str(exc))
        return 2
    app.notice = _("web companion on {url}").format(url=server.url)
    link = start_pairing(host, config)
    try:
        app.run()
    finally:
        if link is not None:
            link.close()
        server.stop()
        host.close()
    return 0


def _page_alone(config: Config, state_dir: Path | None, overrides: dict[str, object]) -> int:
    """``morris sim --web`` without a terminal: the daemon's loop on a simulated board in real
    time, served by the companion alone (the sim routes on); SIGTERM or SIGINT stop it."""
    from morris.app.errors import HardwareUnavailable
    from morris.app.store import GameStore
    from morris.commands.run import serve_daemon
    from morris.daemon import Daemon, open_hardware

    try:
        board = open_hardware(config)
    except HardwareUnavailable as exc:
        error(str(exc))
        return 2
    store = GameStore(state_dir) if state_dir is not None else None
    daemon = Daemon(config, board, store=store, overrides=overrides)
    return serve_daemon(daemon, config, state_dir=state_dir)
