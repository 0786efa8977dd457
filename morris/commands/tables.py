"""``morris tables``: build, summarise and check the endgame tables.

``morris tables build`` solves the tables by retrograde analysis into the data directory,
``morris tables info`` prints what each table holds (won, drawn and lost positions for the side to
move, over every placement of the pieces) and ``morris tables verify`` checks every stored value
against the values of its successors. With ``--men K`` each of them works on the whole solved
game of K men's morris instead (every sector, placing phase included), built as a Dask task graph
(:mod:`morris.engine.solution`).
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from morris.commands.options import add_config_option, default_tables_dir
from morris.i18n import _, ngettext

logger = logging.getLogger(__name__)

_FLYING = {"both": (True, False), "on": (True,), "off": (False,)}


def tables_dir_of(args: argparse.Namespace) -> Path:
    """The tables' directory: ``--tables`` (or its older spelling ``--dir``), else the
    configuration's (``--config``), else the data directory."""
    given = getattr(args, "tables", None) or args.dir
    if given:
        return Path(given)
    config = getattr(args, "config", None)
    return config.tables_dir() if config is not None else default_tables_dir()


def register(subparsers: Any) -> None:
    """Add ``morris tables build|info|verify``."""
    from morris.core.rules import DEFAULT_NO_REMOVAL_LIMIT

    parser = subparsers.add_parser(
        "tables",
        # TRANSLATORS: build, info and verify are the actions' names, typed as they are.
        help=_("endgame tables: build, info, verify"),
        description=_(
            "Endgame tables (3v3, 4v3, 3v4 and up): exact values by retrograde analysis."
        ),
    )
    sub = parser.add_subparsers(dest="tables_command", metavar="ACTION", required=True)

    def add_dir(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--dir",
            type=Path,
            default=None,
            # TRANSLATORS: $MORRIS_DATA_DIR and $XDG_DATA_HOME are environment variables;
            # "solution" is the name of a directory.
            help=_(
                "table directory; with --men the solution's (default: $MORRIS_DATA_DIR or "
                "$XDG_DATA_HOME/morris/tables, and solution in it; or --config's)"
            ),
        )
        p.add_argument(
            "--solution",
            type=Path,
            default=None,
            metavar="DIR",
            help=_(
                "with --men: the solution's directory (the same as --dir; the name every "
                "command that reads the solved game takes)"
            ),
        )
        p.add_argument(
            "--tables",
            type=Path,
            default=None,
            metavar="DIR",
            help=_("without --men: the tables' directory (the same as --dir)"),
        )

    build = sub.add_parser("build", help=_("solve the tables (skips those already built)"))
    add_dir(build)
    add_config_option(build)
    build.add_argument("--flying", choices=sorted(_FLYING), default="both", help=_("flying rule"))
    build.add_argument(
        "--max-pieces",
        type=int,
        default=7,
        metavar="N",
        help=_("most pieces on the board in all (7: 3v3, 4v3, 3v4; 8 adds 4v4, 5v3, 3v5)"),
    )
    build.add_argument(
        "--force",
        action="store_true",
        help=_("rebuild tables (or with --men, sectors) already built"),
    )
    build.add_argument("--quiet", action="store_true", help=_("no progress bar"))
    add_men(build)
    where = build.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        # TRANSLATORS: Dask is the name of the library that spreads the work.
        help=_("with --men: local Dask workers (default: one per core)"),
    )
    where.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        # TRANSLATORS: "--resources MEMORY=bytes" is typed as it is.
        help=_(
            "with --men: a running Dask scheduler (its workers declare --resources MEMORY=bytes)"
        ),
    )
    build.add_argument(
        "--memory",
        type=float,
        default=None,
        metavar="GIB",
        help=_("with --men --workers: memory the local workers share (default: what is available)"),
    )
    build.add_argument(
        "--split",
        type=int,
        default=None,
        metavar="ENTRIES",
        help=_(
            "with --men: a placing sector of more entries is solved in ranges of at most this "
            "many, each a task (default: {split})"
        ).format(split=4194304),  # morris.solver.solution.ranges.DEFAULT_SPLIT, not imported
    )
    build.add_argument(
        "--no-removal-limit",
        type=int,
        default=None,
        metavar="N",
        help=_(
            "with --men: the no-removal limit the removal files are for (the moving phase's "
            "distances to the next removal, the placing phase's values under the rule; default: "
            "{limit}, the rules' default; games with another limit use the solution without them)"
        ).format(limit=DEFAULT_NO_REMOVAL_LIMIT),
    )
    build.add_argument(
        "--threads",
        type=int,
        default=None,
        metavar="N",
        help=_(
            "with --men: threads of each moving-phase task (default: every core of the machine "
            "the task runs on)"
        ),
    )
    build.set_defaults(run=run_build)

    info = sub.add_parser("info", help=_("won/drawn/lost counts and the longest win of each table"))
    add_dir(info)
    add_config_option(info)
    add_men(info)
    info.add_argument(
        "--variant",
        default=None,
        metavar="NAME",
        help=_("say only whether the tables serve this variant, and why not (exit 1 if not)"),
    )
    info.set_defaults(run=run_info)

    verify = sub.add_parser("verify", help=_("check every value against its successors"))
    add_dir(verify)
    add_config_option(verify)
    add_men(verify)
    verify.add_argument(
        "--sample",
        type=int,
        default=None,
        metavar="N",
        help=_("check N random positions per table"),
    )
    verify.add_argument("--seed", type=int, default=0, help=_("seed of the sample"))
    verify.add_argument(
        "--new-only",
        action="store_true",
        help=_("with --men K: check only the sectors that K - 1 men's morris does not have"),
    )
    verify.add_argument("--quiet", action="store_true", help=_("no progress bar"))
    verify.set_defaults(run=run_verify)


def add_men(parser: argparse.ArgumentParser) -> None:
    """``--men K``: work on the solved game of K men's morris."""
    parser.add_argument(
        "--men",
        type=int,
        default=None,
        metavar="K",
        # TRANSLATORS: "solution" is the name of a directory.
        help=_(
            "the whole solved game of K (3..9) men's morris, in --dir (default: solution in "
            "the tables' directory)"
        ),
    )


def wrong_dir_option(args: argparse.Namespace) -> str | None:
    """Why the directory options of ``morris tables build|info|verify`` do not go together:
    ``--solution`` without ``--men``, ``--tables`` with it, or two of them at once."""
    given = [f"--{name}" for name in ("dir", "solution", "tables") if getattr(args, name)]
    if len(given) > 1:
        # TRANSLATORS: {options} are two or three options ("--dir and --solution").
        return _("{options} name the same directory: give one").format(options=both(given))
    if args.solution and args.men is None:
        return _("--solution DIR is the solved game's directory: give --men K too")
    if args.tables and args.men is not None:
        return _("--tables DIR is the endgame tables' directory: with --men K give --solution DIR")
    return None


def both(items: Sequence[str]) -> str:
    """``items`` all together in the board's language: ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    # TRANSLATORS: all of several things: "{items}" is the first ones joined by ", ", then the
    # last ("--dir, --solution and --tables").
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def say_error(console: Any, text: str) -> None:
    """Print ``text`` (translated; a path in it may hold brackets) in red, in one line."""
    console.print(text, style="red", markup=False, highlight=False, soft_wrap=True)


def progress_bar(quiet: bool) -> Any:
    """A rich progress display (disabled with ``quiet``) for builds and checks."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    return Progress(
        TextColumn("{task.description:<24}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        disable=quiet,
    )


def progress_callback(progress: Any) -> Any:
    """A ``(description, done, total)`` callback that keeps one bar per description."""
    tasks: dict[str, Any] = {}

    def update(description: str, done: int, total: int) -> None:
        if description not in tasks:
            tasks[description] = progress.add_task(progress_label(description), total=total)
        progress.update(tasks[description], completed=done, total=total)

    return update


def progress_label(description: str) -> str:
    """A progress bar's label in the board's language: the engine's ``verify 3v3`` (a table's
    or a sector's name, which stays as it is), the solved game's ``all sectors``."""
    if description.startswith("verify "):
        # TRANSLATORS: a progress bar's label: checking the table or sector {name} ("3v3").
        return _("verify {name}").format(name=description.removeprefix("verify "))
    if description == "all sectors":
        # TRANSLATORS: a progress bar's label: the build of the solved game's sectors.
        return _("all sectors")
    return description


def run_build(args: argparse.Namespace) -> int:
    """Build the tables; print where they went and how big they are."""
    from rich.console import Console

    from morris.engine.tables import TableError
    from morris.solver.tables import build_tables

    console = Console()
    wrong = wrong_dir_option(args)
    if wrong is not None:
        say_error(console, wrong)
        return 2
    if args.men is not None:
        from morris.commands.solution import run_solution_build

        return run_solution_build(args)
    options = ("workers", "scheduler", "memory", "split", "threads", "no_removal_limit")
    if any(getattr(args, o) is not None for o in options):
        names = ["--workers", "--scheduler", "--memory", "--split", "--threads"]
        # One line however narrow the terminal (say_error): it names them all.
        say_error(
            console,
            _("{options} need --men K").format(options=both([*names, "--no-removal-limit"])),
        )
        return 2
    directory = tables_dir_of(args)
    if args.max_pieces < 6:
        say_error(console, _("--max-pieces must be at least 6 (3 against 3)"))
        return 2
    try:
        with progress_bar(args.quiet) as progress:
            infos = build_tables(
                directory,
                flying=_FLYING[args.flying],
                max_pieces=args.max_pieces,
                force=args.force,
                progress=progress_callback(progress),
            )
    except TableError as exc:
        say_error(console, str(exc.message))
        return 1
    size = sum(i.nbytes for i in infos)
    console.print(
        ngettext(
            "{n} table, {size} MB in {path}", "{n} tables, {size} MB in {path}", len(infos)
        ).format(n=len(infos), size=f"{size / 1e6:.1f}", path=directory),
        markup=False,
        highlight=False,
    )
    return 0


def variant_lines() -> list[str]:
    """One line per variant: whether the endgame tables serve it, and why not."""
    from morris.core.variant import BOARD_CLASSES
    from morris.engine.tables import table_refusal

    lines = []
    for cls in BOARD_CLASSES:
        why = table_refusal(cls.variant)
        name = cls.variant.name
        if why is None:
            # TRANSLATORS: {variant} is a variant's name as --variant takes it ("lasker").
            lines.append(_("{variant}: used").format(variant=name))
        else:
            # TRANSLATORS: {why} is the engine's reason (English).
            lines.append(_("{variant}: not used ({why})").format(variant=name, why=why))
    return lines


def unknown_variant(name: str) -> str:
    """Why ``name`` is no variant, with the names there are (as :func:`find_variant` says it),
    in the board's language."""
    from morris.core import VARIANT_NAMES

    return _("unknown variant {name} (known: {names})").format(
        name=repr(name), names=", ".join(VARIANT_NAMES)
    )


def _run_variant(name: str) -> int:
    """``morris tables info --variant NAME``: whether the tables serve it (exit 0) or why not."""
    from rich.console import Console

    from morris.core.variant import find_variant
    from morris.engine.tables import table_refusal

    console = Console(highlight=False, soft_wrap=True)
    try:
        rules = find_variant(name).variant
    except ValueError:
        say_error(console, unknown_variant(name))
        return 2
    why = table_refusal(rules)
    if why is not None:
        console.print(
            _("the endgame tables are not used for {variant}: {why}").format(
                variant=rules.name, why=why
            ),
            markup=False,
        )
        return 1
    console.print(
        _("the endgame tables are used for {variant} (from its moving phase on)").format(
            variant=rules.name
        ),
        markup=False,
    )
    return 0


def headings(*columns: tuple[str, int]) -> tuple[str, list[int]]:
    """A table's heading line of translated ``(name, width)`` columns, right-aligned, and each
    column's width: at least its name's (a translation may be longer than the English)."""
    widths = [max(width, len(name)) for name, width in columns]
    line = " ".join(
        f"{name:>{width}}" for (name, _width), width in zip(columns, widths, strict=True)
    )
    return line, widths


def colour_word(side: str) -> str:
    """``"white"`` or ``"black"`` in the board's language."""
    from morris.app.narration import COLOUR_WORDS
    from morris.core import BLACK, WHITE

    return _(COLOUR_WORDS[WHITE if side == "white" else BLACK])


def run_info(args: argparse.Namespace) -> int:
    """Print one row per table and side to move (a stored table answers for both colours)."""
    from rich.console import Console

    from morris.engine.tables import TableError, read_manifest

    console = Console()
    wrong = wrong_dir_option(args)
    if wrong is not None:
        say_error(console, wrong)
        return 2
    if args.men is not None:
        from morris.commands.solution import run_solution_info

        return run_solution_info(args)
    if args.variant is not None:
        return _run_variant(args.variant)
    directory = tables_dir_of(args)
    try:
        infos = read_manifest(directory)
    except TableError as exc:
        say_error(console, str(exc.message))
        return 1
    if not infos:
        console.print(
            _("no tables in {path} (build them with {command})").format(
                path=directory, command="`morris tables build`"
            ),
            markup=False,
        )
        return 1
    console.print(_("Endgame tables in {path}").format(path=directory), markup=False)
    line, widths = headings(
        # TRANSLATORS: the columns of morris tables info: the pieces ("4v3"), whether flying
        # is on, the side to move, then the counts of positions and the longest win.
        (_("pieces"), 6),
        (_("flying"), 6),
        (_("to move"), 7),
        (_("positions"), 12),
        (_("won"), 12),
        (_("drawn"), 12),
        (_("lost"), 12),
        (_("longest win"), 11),
    )
    console.print(line, highlight=False, soft_wrap=True, markup=False)
    rows = []
    for info in infos.values():
        k = info.key
        # The stored table is for the side to move: white to move with white having k.mover
        # pieces, or black to move with black having them.
        rows.append((k.mover, k.other, k.flying, "white", info))
        rows.append((k.other, k.mover, k.flying, "black", info))
    on, off = _("on"), _("off")
    for white, black, flying, side, info in sorted(
        rows, key=lambda r: (not r[2], r[0] + r[1], -r[0], r[3])
    ):
        cells = (
            f"{white}v{black}",
            on if flying else off,
            colour_word(side),
            f"{info.key.size:,}",
            f"{info.won:,}",
            f"{info.drawn:,}",
            f"{info.lost:,}",
            str(info.longest_win),
        )
        console.print(
            " ".join(f"{cell:>{width}}" for cell, width in zip(cells, widths, strict=True)),
            highlight=False,
            soft_wrap=True,
            markup=False,
        )
    console.print(
        _(
            "pieces: white v black. Counts are over every placement of the pieces (no symmetry"
            " reduction), for the side to move; the longest win is in turns (plies). The draw"
            " rules are not part of the tables."
        ),
        markup=False,
    )
    console.print(
        _("Variants: {variants}").format(variants="; ".join(variant_lines())),
        highlight=False,
        soft_wrap=True,
        markup=False,
    )
    return 0


def run_verify(args: argparse.Namespace) -> int:
    """Check the tables; exit 1 if any value disagrees with its successors."""
    from rich.console import Console

    from morris.engine.tables import EndgameTables, TableError
    from morris.solver.tables import verify_tables

    console = Console()
    wrong = wrong_dir_option(args)
    if wrong is not None:
        say_error(console, wrong)
        return 2
    if args.men is not None:
        from morris.commands.solution import run_solution_verify

        return run_solution_verify(args)
    if args.new_only:
        say_error(console, _("--new-only is for the solved game: give --men K"))
        return 2
    directory = tables_dir_of(args)
    try:
        tables = EndgameTables.load(directory)
    except TableError as exc:
        say_error(console, str(exc.message))
        return 1
    if not tables.keys:
        console.print(_("no tables in {path}").format(path=directory), markup=False)
        return 1
    with progress_bar(args.quiet) as progress:
        reports = verify_tables(
            tables, sample=args.sample, seed=args.seed, progress=progress_callback(progress)
        )
    lines = [
        f"{r.key.name:<16} "
        + ngettext("{n} position checked", "{n} positions checked", r.checked).format(
            n=f"{r.checked:>12,}"
        )
        for r in reports
    ]
    return print_reports(console, reports, lines)


def print_reports(console: Any, reports: Sequence[Any], lines: Sequence[str]) -> int:
    """Print each verify report's line with its status and examples; the exit code (1: errors)."""
    from rich.markup import escape

    ok = True
    for report, line in zip(reports, lines, strict=True):
        if report.ok:
            # TRANSLATORS: a table or sector checked without an error.
            passed = _("ok")
            status = f"[green]{escape(passed)}[/green]"
        else:
            errors = ngettext("{n} error", "{n} errors", report.errors).format(n=report.errors)
            status = f"[red]{escape(errors)}[/red]"
        console.print(f"{escape(line)}  {status}")
        for example in report.examples:
            console.print(f"  {example}", markup=False)
        ok = ok and report.ok
    return 0 if ok else 1
