"""The options several commands share, each added by one function, and what they mean.

- :func:`add_game_options` (``--mode``, ``--human``, ``--level``, ``--variant``, ``--flying``,
  the removal switches, ``--seed``), :func:`add_web_options` (``--web``, ``--listen``,
  ``--link``, ``--link-token``), :func:`add_voice_options` (``--lang``, ``--speak``) and
  :func:`add_data_options` (``--solution``, ``--tables``): the flags of ``morris run`` and
  ``morris sim`` over the configuration's keys, turned into :meth:`Config.with_overrides`
  arguments by the ``*_overrides`` functions.
- :func:`add_tables_options` (``--tables``, ``--no-tables``, ``--solution``, ``--no-solution``)
  for the commands that run the engine, read by :func:`tables_from_args` and
  :func:`solution_from_args`; :func:`add_config_option` (``--config FILE``) for those that take
  their directories from a configuration file.

A directory named on the command line that holds nothing to read is said before the command
starts (:func:`data_problem`, :func:`solution_problem`, :func:`tables_problem`).
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from morris.app.mode import Mode
from morris.commands.words import variants_help
from morris.core.variant import VARIANT_NAMES
from morris.engine.levels import MAX_LEVEL
from morris.i18n import N_, _

if TYPE_CHECKING:
    from morris.app.config import Config
    from morris.engine.solution import Solution
    from morris.engine.tables import EndgameTables

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


def web_overrides(args: argparse.Namespace) -> dict[str, object]:
    """The :meth:`Config.with_overrides` arguments of :func:`add_web_options`' flags."""
    enabled = True if args.web or args.listen else None
    return {
        "web_enabled": enabled,
        "web_listen": args.listen,
        "web_link": args.link,
        "web_link_token": args.link_token,
    }


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


def default_tables_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where the tables live (see :func:`morris.app.paths.tables_dir`)."""
    from morris.app.paths import tables_dir

    return tables_dir(environ)


def _config_file(path: str) -> Config:
    """``--config FILE`` read at once: a bad file is argparse's error (exit code 2)."""
    from morris.app.config import load_config
    from morris.app.errors import ConfigError

    try:
        return load_config(path)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_config_option(parser: argparse.ArgumentParser) -> None:
    """``--config FILE``: the default directories from a configuration file (``engine.tables``,
    ``engine.solution``) instead of the data directory."""
    parser.add_argument(
        "--config",
        type=_config_file,
        default=None,
        metavar="FILE",
        # TRANSLATORS: engine.tables and engine.solution are configuration keys.
        help=_(
            "take the default directory from this configuration (engine.tables; with --men "
            "engine.solution)"
        ),
    )


#: Where a person is told to point a command at a solved game built elsewhere (every command
#: that reads it takes the same option; the configuration's key is ``[engine] solution``).
SOLUTION_OPTION = "--solution DIR"


def no_solution_text(directory: Path) -> str:
    """Why ``directory`` gives no solved game, and the option that points elsewhere."""
    if not directory.exists():
        why = _("{path}: no such directory").format(path=directory)
    elif not directory.is_dir():
        why = _("{path} is not a directory").format(path=directory)
    else:
        why = _("no solved game in {path}").format(path=directory)
    # TRANSLATORS: {why} is what is wrong with the directory; {command} a command, {option} an
    # option (typed as they are); "[engine] solution" is a configuration key.
    return _(
        "{why}: build one with {command} and give {option} (or set [engine] solution in the "
        "configuration)"
    ).format(why=why, command="`morris tables build --men K --dir DIR`", option=SOLUTION_OPTION)


def solution_problem(directory: Path | None) -> str | None:
    """Why a solved game named on the command line (``--solution DIR``) is none, or ``None``
    when ``directory`` holds sector files (or none was named)."""
    if directory is None or (directory.is_dir() and any(directory.glob("sector-*.msol"))):
        return None
    option = f"--solution {directory}"
    if not directory.exists():
        return _("{option}: no such directory").format(option=option)
    if not directory.is_dir():
        return _("{option}: not a directory").format(option=option)
    return _("{option}: no solved game there (build one with {command})").format(
        option=option, command=f"`morris tables build --men K --dir {directory}`"
    )


def tables_problem(directory: Path | None) -> str | None:
    """Why endgame tables named on the command line (``--tables DIR``) are none, or ``None``
    when ``directory`` holds a table manifest (or none was named)."""
    from morris.engine.tables import MANIFEST_NAME

    if directory is None or (directory / MANIFEST_NAME).is_file():
        return None
    option = f"--tables {directory}"
    if not directory.exists():
        return _("{option}: no such directory").format(option=option)
    return _("{option}: no endgame tables there (build them with {command})").format(
        option=option, command=f"`morris tables build --dir {directory}`"
    )


def add_data_options(parser: argparse.ArgumentParser) -> None:
    """``--solution DIR`` (also spelled ``--dir``, as in ``morris tables build --men K --dir
    DIR``) and ``--tables DIR`` for the commands that play (``morris sim``, ``morris run``):
    over the ``[engine] solution`` and ``tables`` keys."""
    parser.add_argument(
        "--solution",
        "--dir",
        dest="solution",
        metavar="DIR",
        # TRANSLATORS: {command} is a command; "[engine] solution" a configuration key, and
        # "solution" the name of a directory.
        help=_(
            "the solved game's directory (what {command} made): the Pi's play, the hints, the "
            "values shown and the puzzles; default: [engine] solution, else solution in the "
            "tables' data directory"
        ).format(command="`morris tables build --men K --dir DIR`"),
    )
    parser.add_argument(
        "--tables",
        metavar="DIR",
        help=_("the endgame tables' directory (default: [engine] tables, else the data directory)"),
    )


def data_overrides(args: argparse.Namespace) -> dict[str, object]:
    """The :meth:`Config.with_overrides` arguments of :func:`add_data_options`' flags."""
    return {"engine_solution": args.solution, "engine_tables": args.tables}


def data_problem(args: argparse.Namespace) -> str | None:
    """Why a directory :func:`add_data_options` named holds nothing to read, or ``None``."""
    solution = None if args.solution is None else Path(args.solution).expanduser()
    tables = None if args.tables is None else Path(args.tables).expanduser()
    return solution_problem(solution) or tables_problem(tables)


def add_tables_options(parser: argparse.ArgumentParser, *, solution: bool = False) -> None:
    """``--tables DIR`` and ``--no-tables``, for the commands that run the engine; with
    ``solution`` also ``--solution DIR`` and ``--no-solution`` (the solved game)."""
    texts = {
        "tables": (
            _("endgame table directory (default: the data directory's, if built there)"),
            _("do not use the tables"),
        ),
        "solution": (
            _("the solved game's directory (default: the data directory's, if built there)"),
            _("do not use the solution"),
        ),
    }
    for name in ("tables", "solution") if solution else ("tables",):
        where, without = texts[name]
        parser.add_argument(f"--{name}", type=Path, default=None, metavar="DIR", help=where)
        parser.add_argument(f"--no-{name}", action="store_true", help=without)


def tables_from_args(args: argparse.Namespace) -> EndgameTables | None:
    """The tables ``--tables``/``--no-tables`` ask for (``None``: none)."""
    from morris.app.jobs import load_tables

    return None if args.no_tables else load_tables(args.tables)


def solution_from_args(args: argparse.Namespace) -> Solution | None:
    """The solved game ``--solution``/``--no-solution`` ask for (``None``: none)."""
    from morris.app.jobs import load_solution

    return None if args.no_solution else load_solution(args.solution)
