"""The ``morris`` command: one entry point, one subcommand module per job.

Each module in :data:`COMMAND_MODULES` has ``register(subparsers)``, which adds its subcommand(s)
with ``set_defaults(run=function)``; ``function(args)`` returns the exit code. Modules import their
heavy dependencies inside the run functions, so ``morris --help`` stays fast.

The language is chosen before the parser is built (:func:`preread_language`), so the help, the
usage errors and every message of the command are in it: ``--lang CODE`` (a global option,
``morris --lang fi status``; ``morris sim --lang fi`` and ``morris run --lang fi`` take it too),
else the ``[ui] language`` of the ``--config FILE`` given, else ``LC_ALL``/``LC_MESSAGES``/``LANG``
(:func:`morris.i18n.choose_language`). argparse's own words are translated through
:func:`morris.commands.words.translate_argparse`.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Mapping, Sequence

from morris import i18n
from morris.i18n import _

COMMAND_MODULES: tuple[str, ...] = (
    "morris.commands.play",
    "morris.commands.run",
    "morris.commands.sim",
    "morris.commands.config",
    "morris.commands.service",
    "morris.commands.selftest",
    "morris.commands.engine",
    "morris.commands.match",
    "morris.commands.tables",
    "morris.commands.review",
    "morris.commands.render",
    "morris.commands.analyse",
    "morris.commands.puzzle",
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered, its texts in the board's language
    (:func:`morris.i18n.language`, as it is when this is called)."""
    from morris.commands.words import translate_argparse

    translate_argparse()
    parser = argparse.ArgumentParser(
        prog="morris", description=_("Nine Men's Morris on a physical board.")
    )
    parser.add_argument(
        "-v", "--verbose", action="count", default=0, help=_("more log output (-vv for debug)")
    )
    parser.add_argument(
        "--lang",
        dest="global_lang",
        metavar="LANG",
        help=_(
            "the language of the help, the messages and the board: {languages} (default: the "
            "configuration's [ui] language, else LC_ALL, LC_MESSAGES, LANG; else English)"
        ).format(languages=", ".join(i18n.LANGUAGES)),
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def _option(argv: Sequence[str], name: str) -> str | None:
    """The value of ``name`` (``--lang``) in ``argv`` as argparse would take it, ``--lang fi`` or
    ``--lang=fi``, the last one given; ``None`` when it is not there. Nothing after ``--``."""
    value = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == name and i + 1 < len(argv):
            value = argv[i + 1]
        elif word.startswith(name + "="):
            value = word[len(name) + 1 :]
    return value


def _configured_language(path: str | None) -> str:
    """The ``[ui] language`` of the configuration ``path`` ("" without one). A file that cannot
    be read counts as none here: the command itself loads it and says what is wrong."""
    if path is None:
        return ""
    from morris.app.config import load_config
    from morris.app.errors import ConfigError

    try:
        return load_config(path).ui.language
    except (ConfigError, OSError, ValueError):
        return ""


def preread_language(
    argv: Sequence[str], environ: Mapping[str, str] = os.environ
) -> tuple[str, str | None]:
    """The language ``morris`` runs in, chosen from ``argv`` before it is parsed: the
    ``--lang`` given, else the ``[ui] language`` of the ``--config`` given, else the
    environment's. Returns the language and a warning for a language without a catalog (English
    is then used), or ``None``."""
    option = _option(argv, "--lang")
    configured = _configured_language(_option(argv, "--config")) if not option else ""
    return i18n.choose_language(option, configured, environ)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``morris`` command line; return the exit code."""
    from morris.commands.words import forget_notices, notice_once

    words = list(sys.argv[1:] if argv is None else argv)
    forget_notices()
    code, warning = preread_language(words)
    if warning is not None:
        notice_once(warning)
    i18n.set_language(code)
    parser = build_parser()
    args = parser.parse_args(words)
    if getattr(args, "lang", None) is None:
        # The global --lang, for the commands that take --lang themselves (run, sim).
        args.lang = args.global_lang
    # A command may choose its own default (the daemon logs its turns at INFO for the journal).
    level = max(logging.DEBUG, getattr(args, "log_level", logging.WARNING) - 10 * args.verbose)
    logging.basicConfig(
        level=level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
    )
    try:
        result: int = args.run(args)
    except KeyboardInterrupt:
        return 130
    return result


if __name__ == "__main__":
    sys.exit(main())
