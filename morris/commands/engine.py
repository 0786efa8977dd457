"""``morris engine``: the engine over stdin/stdout in the UCI-style protocol of Mill engines."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from morris.commands.options import add_tables_options, tables_from_args
from morris.commands.words import warning
from morris.i18n import _


def register(subparsers: Any) -> None:
    """Add ``morris engine``."""
    parser = subparsers.add_parser(
        "engine",
        help=_("run the engine over stdin/stdout (UCI-style protocol)"),
        # TRANSLATORS: the protocol's commands (uci, isready, ...) stay as they are.
        description=_(
            "Speak the UCI-style protocol of Mill engines (Sanmill's dialect) on stdin/stdout: "
            "uci, isready, setoption, ucinewgame, position, go, stop, quit. See docs/ENGINE.md."
        ),
    )
    add_tables_options(parser)
    parser.set_defaults(run=run)


def warn_if_slow_engine() -> None:
    """One line on stderr when the engine runs without its C search, saying how to fix it
    (``morris run``, ``morris sim`` and ``morris engine`` call it as they start)."""
    from morris.engine.search import native_warning

    text = native_warning()
    if text is not None:
        warning(text)


def run(args: argparse.Namespace) -> int:
    """Serve the protocol until ``quit`` or the end of input."""
    from morris.engine.uci import serve

    warn_if_slow_engine()
    tables = tables_from_args(args)
    serve(sys.stdin, sys.stdout, tables=tables)
    return 0
