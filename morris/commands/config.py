"""``morris config``: print the documented configuration template, or check a file."""

from __future__ import annotations

import argparse
import sys

from morris.commands.words import error
from morris.i18n import _


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``morris config template`` and ``morris config check FILE``."""
    parser = sub.add_parser(
        "config",
        help=_("print the configuration template or check a file"),
        description=_(
            "Print the documented configuration template (its comments are in English, as the "
            "keys are), or check a configuration file."
        ),
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    template = actions.add_parser(
        "template",
        help=_("print the documented default configuration"),
        description=_("Print the documented default configuration (TOML) on stdout."),
    )
    template.set_defaults(run=_template)
    check = actions.add_parser(
        "check",
        help=_("check a configuration file (exit code 2 if bad)"),
        description=_(
            "Check a configuration file: exit code 0 and a line saying it is OK, or 2 and "
            "what is wrong."
        ),
    )
    check.add_argument("file", help=_("the TOML file"))
    check.set_defaults(run=_check)


def _template(args: argparse.Namespace) -> int:
    from morris.app.config import TEMPLATE

    sys.stdout.write(TEMPLATE)
    return 0


def _check(args: argparse.Namespace) -> int:
    from morris.app.config import load_config
    from morris.app.errors import ConfigError
    from morris.app.jobs import engine_command_problem

    try:
        config = load_config(args.file)
    except ConfigError as exc:
        error(str(exc))
        return 2
    problem = engine_command_problem(config.engine.command)
    if problem is not None:
        error(f"{args.file}: {problem}")
        return 2
    print(
        # TRANSLATORS: mode and backend are the configuration's keys, their values as written.
        _("{path}: OK (mode {mode}, backend {backend})").format(
            path=args.file, mode=config.game.mode, backend=config.hardware.backend
        )
    )
    return 0
