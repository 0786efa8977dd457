"""``morris config``: print the documented configuration template, or check a file."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``morris config template`` and ``morris config check FILE``."""
    parser = sub.add_parser("config", help="print the configuration template or check a file")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    template = actions.add_parser("template", help="print the documented default configuration")
    template.set_defaults(run=_template)
    check = actions.add_parser("check", help="check a configuration file (exit code 2 if bad)")
    check.add_argument("file", help="the TOML file")
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
        print(f"morris: {exc}", file=sys.stderr)
        return 2
    problem = engine_command_problem(config.engine.command)
    if problem is not None:
        print(f"morris: {args.file}: {problem}", file=sys.stderr)
        return 2
    print(f"{args.file}: OK (mode {config.game.mode}, backend {config.hardware.backend})")
    return 0
