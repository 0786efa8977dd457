"""``morris match A B``: play engines against each other and estimate their Elo difference."""

from __future__ import annotations

import argparse
import functools
import logging
from pathlib import Path
from typing import Any

from morris.commands.options import SWITCH_HELP, add_tables_options, tables_from_args
from morris.commands.words import variants_help
from morris.core.variant import VARIANT_NAMES
from morris.engine.levels import MAX_LEVEL
from morris.i18n import _, ngettext

logger = logging.getLogger(__name__)


def register(subparsers: Any) -> None:
    """Add ``morris match``."""
    parser = subparsers.add_parser(
        "match",
        help=_("play two engines against each other"),
        # TRANSLATORS: level:N, random, greedy and cmd:COMMAND ARGS are typed as they are.
        description=_(
            "Play engines against each other, colours alternating, from varied short openings. "
            "A player is level:N (the built-in engine, 1..{max}), random, greedy, or "
            "'cmd:COMMAND ARGS' (an external engine speaking the UCI-style protocol)."
        ).format(max=MAX_LEVEL),
    )
    parser.add_argument("first", metavar="A", help=_("first player (the scores are its)"))
    parser.add_argument("second", metavar="B", help=_("second player"))
    parser.add_argument("--games", type=int, default=10, help=_("number of games (default 10)"))
    parser.add_argument(
        "--movetime",
        type=int,
        default=None,
        metavar="MS",
        help=_(
            "time per move in milliseconds (a cap for built-in levels; default: levels use "
            "their own budgets, external engines 1000 ms)"
        ),
    )
    parser.add_argument("--seed", type=int, default=0, help=_("seed of the players' randomness"))
    parser.add_argument(
        "--variant",
        choices=VARIANT_NAMES,
        default="standard",
        help=_("the game: {variants} (default: %(default)s)").format(variants=variants_help()),
    )
    for name, text in SWITCH_HELP.items():
        parser.add_argument(f"--{name}", action="store_true", help=_(text))
    parser.add_argument("--out", type=Path, default=None, metavar="DIR", help=_("save games here"))
    add_tables_options(parser)
    parser.add_argument("--quiet", action="store_true", help=_("no progress bar"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the match, print the table, save the games."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from rich.table import Table

    from morris.core.variant import find_variant
    from morris.engine.errors import ExternalEngineError
    from morris.engine.match import format_elo, make_player, run_match, save_games

    console = Console()
    if args.games < 1:
        console.print(_("--games must be at least 1"), style="red", markup=False)
        return 2
    tables = tables_from_args(args)
    movetime = None if args.movetime is None else args.movetime / 1000
    players = []
    try:
        for spec, seed in ((args.first, args.seed), (args.second, args.seed + 1)):
            players.append(make_player(spec, seed=seed, tables=tables))
    except (ValueError, OSError, ExternalEngineError) as exc:
        reason = exc.message if isinstance(exc, ExternalEngineError) else exc
        console.print(f"{spec}: {reason}", style="red", markup=False, soft_wrap=True)
        _close(players)
        return 2
    first, second = players
    board_factory = functools.partial(
        find_variant(args.variant),
        remove_from_mills=args.remove_from_mills or None,
        double_mill_removes_two=args.double_mill_removes_two or None,
    )
    try:
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[score]}"),
            console=console,
            disable=args.quiet,
            transient=False,
        ) as progress:
            task = progress.add_task(f"{first.name} vs {second.name}", total=args.games, score="")

            def advance(result: Any, _game: Any) -> None:
                progress.update(
                    task,
                    advance=1,
                    score=f"+{result.wins} ={result.draws} -{result.losses}",
                )

            result = run_match(
                first,
                second,
                games=args.games,
                movetime=movetime,
                progress=advance,
                board_factory=board_factory,
            )
    finally:
        _close(players)
    diff, margin = result.elo()
    table = Table(title=f"{result.first} vs {result.second}")
    columns = (
        # TRANSLATORS: the columns of morris match's table.
        _("games"),
        _("wins"),
        _("draws"),
        _("losses"),
        _("score"),
        _("Elo (95%)"),
    )
    for column in columns:
        table.add_column(column, justify="right")
    table.add_row(
        str(result.games_played),
        str(result.wins),
        str(result.draws),
        str(result.losses),
        f"{100 * result.score:.1f}%",
        format_elo(diff, margin),
    )
    console.print(table)
    if args.out is not None:
        paths = save_games(result, args.out)
        n = len(paths)
        console.print(
            ngettext("{n} game saved in {path}", "{n} games saved in {path}", n).format(
                n=n, path=args.out
            ),
            markup=False,
        )
    return 0


def _close(players: list[Any]) -> None:
    """Stop the external engines among ``players``."""
    for player in players:
        close = getattr(player, "close", None)
        if close is not None:
            close()
