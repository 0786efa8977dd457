"""The ``morris`` command: one entry point, one subcommand module per job.

Each module in :data:`COMMAND_MODULES` has ``register(subparsers)``, which adds its subcommand(s)
with ``set_defaults(run=function)``; ``function(args)`` returns the exit code. Modules import their
heavy dependencies inside the run functions, so ``morris --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

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
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="morris", description="Nine Men's Morris on a physical board."
    )
    parser.add_argument(
        "-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``morris`` command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    # A command may choose its own default (the daemon logs its turns at INFO for the journal).
    level = max(logging.DEBUG, getattr(args, "log_level", logging.WARNING) - 10 * args.verbose)
    logging.basicConfig(
        level=level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s"
    )
    try:
        code: int = args.run(args)
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
