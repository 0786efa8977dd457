"""``morris engine``: the engine over stdin/stdout in the UCI-style protocol of Mill engines."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add ``morris engine``."""
    parser = subparsers.add_parser(
        "engine",
        help="run the engine over stdin/stdout (UCI-style protocol)",
        description=(
            "Speak the UCI-style protocol of Mill engines (Sanmill's dialect) on stdin/stdout: "
            "uci, isready, setoption, ucinewgame, position, go, stop, quit. See docs/ENGINE.md."
        ),
    )
    parser.add_argument(
        "--tables",
        type=Path,
        default=None,
        metavar="DIR",
        help="endgame table directory (default: the data directory, if tables are there)",
    )
    parser.add_argument("--no-tables", action="store_true", help="do not use endgame tables")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Serve the protocol until ``quit`` or the end of input."""
    from morris.app.search import load_tables
    from morris.engine.uci import serve

    tables = None if args.no_tables else load_tables(args.tables)
    serve(sys.stdin, sys.stdout, tables=tables)
    return 0
