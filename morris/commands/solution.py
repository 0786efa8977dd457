"""The solved game's side of ``morris tables build|info|verify --men K`` (see
:mod:`morris.commands.tables`): build every sector as a Dask task graph, print each sector's
counts, check local consistency."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import Any

from morris.commands.tables import (
    colour_word,
    headings,
    print_reports,
    progress_bar,
    progress_callback,
    say_error,
)
from morris.i18n import N_, _, ngettext

logger = logging.getLogger(__name__)

#: Exit code of bad input (an option, a position, a record).
BAD_INPUT = 2


def solution_dir(args: argparse.Namespace) -> Path:
    """The solution directory: ``--solution`` (or its older spelling ``--dir``), else the
    configuration's (``--config``: ``engine.solution``, or ``solution`` in ``engine.tables``),
    else ``solution`` in the data directory."""
    from morris.app.paths import solution_dir as default_solution_dir

    given = getattr(args, "solution", None) or args.dir
    if given:
        return Path(given)
    config = getattr(args, "config", None)
    return config.solution_dir() if config is not None else default_solution_dir()


def missing_solution(directory: Path, men: int | None = None) -> str | None:
    """Why ``directory`` holds no solved game of ``men`` men's morris (any, for ``None``), in
    words that name what to do: no such directory, nothing built there, or fewer men built
    than asked (with the ``--men`` to build). ``None`` when the sectors are there (each is
    still checked as it is opened)."""
    from morris.commands.options import no_solution_text
    from morris.engine.solution.sectors import sector_keys

    if not directory.is_dir() or not any(directory.glob("sector-*.msol")):
        return no_solution_text(directory)
    if men is None:
        return None
    missing = [k for k in sector_keys(men) if not (directory / k.filename).exists()]
    if not missing:
        return None
    from morris.commands.analyse import built_men

    built = built_men(directory)
    words = {
        "path": directory,
        "built": built,
        "men": men,
        "n": len(missing),
        "first": missing[0].name,
        "command": f"`morris tables build --men {men} --dir {directory}`",
    }
    if built is not None:
        # TRANSLATORS: {first} is a sector's name ("3v3 h1/0"), {command} a command.
        return ngettext(
            "{path} holds {built} men's morris, not {men} men's morris ({n} of its sectors is "
            "missing, {first} the first): build it with {command} (it adds only what is missing)",
            "{path} holds {built} men's morris, not {men} men's morris ({n} of its sectors are "
            "missing, {first} the first): build it with {command} (it adds only what is missing)",
            len(missing),
        ).format(**words)
    return ngettext(
        "{path} holds only some sectors, not {men} men's morris ({n} of its sectors is "
        "missing, {first} the first): build it with {command} (it adds only what is missing)",
        "{path} holds only some sectors, not {men} men's morris ({n} of its sectors are "
        "missing, {first} the first): build it with {command} (it adds only what is missing)",
        len(missing),
    ).format(**words)


def _check_men(console: Any, men: int) -> bool:
    from morris.engine.solution.sectors import MAX_MEN, MIN_MEN

    if MIN_MEN <= men <= MAX_MEN:
        return True
    say_error(console, men_range_text(men))
    return False


def men_range_text(men: int) -> str:
    """Why ``--men`` cannot be ``men``, in the board's language."""
    from morris.engine.solution.sectors import MAX_MEN, MIN_MEN

    return _("--men must be {low}..{high}, not {men}").format(low=MIN_MEN, high=MAX_MEN, men=men)


def _at_least_one(console: Any, option: str, value: int | None) -> bool:
    if value is None or value >= 1:
        return True
    say_error(
        console, _("{option} must be at least 1, not {value}").format(option=option, value=value)
    )
    return False


def run_solution_build(args: argparse.Namespace) -> int:
    """Build every sector of ``--men`` men's morris (resuming what is there)."""
    from rich.console import Console

    from morris.core.rules import DEFAULT_NO_REMOVAL_LIMIT
    from morris.engine.solution import SolutionError
    from morris.solver.solution import build_solution
    from morris.solver.solution.ranges import DEFAULT_SPLIT

    console = Console()
    if not _check_men(console, args.men):
        return BAD_INPUT
    if not (
        _at_least_one(console, "--workers", args.workers)
        and _at_least_one(console, "--split", args.split)
        and _at_least_one(console, "--no-removal-limit", args.no_removal_limit)
        and _at_least_one(console, "--threads", args.threads)
    ):
        return BAD_INPUT
    if args.flying != "both" or args.max_pieces != 7:
        say_error(console, _("--flying and --max-pieces are for the endgame tables, not --men"))
        return BAD_INPUT
    if args.memory is not None and args.memory <= 0:
        say_error(console, _("--memory must be positive, not {memory}").format(memory=args.memory))
        return BAD_INPUT
    directory = solution_dir(args)
    memory = None if args.memory is None else int(args.memory * 2**30)
    if args.force:
        from morris.engine.solution import sector_keys
        from morris.engine.solution.removals import removal_filename

        for key in sector_keys(args.men):
            (directory / key.filename).unlink(missing_ok=True)
            (directory / removal_filename(key)).unlink(missing_ok=True)
    try:
        with progress_bar(args.quiet) as progress:
            update = progress_callback(progress)

            def report(name: str, done: int, total: int) -> None:
                update("all sectors" if name == "build" else name, done, total)

            result = build_solution(
                directory,
                args.men,
                workers=args.workers,
                scheduler=args.scheduler,
                memory=memory,
                split=DEFAULT_SPLIT if args.split is None else args.split,
                removal_limit=args.no_removal_limit or DEFAULT_NO_REMOVAL_LIMIT,
                threads=args.threads,
                progress=report,
            )
    except SolutionError as exc:
        say_error(console, str(exc.message))
        return 1
    size = sum(i.nbytes for i in result.infos)
    wdl = sum(i.wdl_bytes for i in result.infos)
    moving = sum(i.nbytes for i in result.removals if not i.key.placing)
    placing = sum(i.nbytes for i in result.removals if i.key.placing)
    console.print(
        ngettext(
            "{n} sector of {men} men's morris in {path} ({solved} solved now): {size} MB, of "
            "which {wdl} MB win/draw/loss; removal distances {moving} MB, placing values under "
            "the rule {placing} MB",
            "{n} sectors of {men} men's morris in {path} ({solved} solved now): {size} MB, of "
            "which {wdl} MB win/draw/loss; removal distances {moving} MB, placing values under "
            "the rule {placing} MB",
            len(result.infos),
        ).format(
            n=len(result.infos),
            men=args.men,
            path=directory,
            solved=len(result.solved),
            size=f"{size / 1e6:.1f}",
            wdl=f"{wdl / 1e6:.2f}",
            moving=f"{moving / 1e6:.1f}",
            placing=f"{placing / 1e6:.1f}",
        ),
        markup=False,
    )
    return 0


#: A value of the solved game for the side to move, in a word ("win", "draw", "loss").
VALUE_WORDS = {"win": N_("win"), "draw": N_("draw"), "loss": N_("loss")}


def start_text(value: str, distance: int | None) -> str:
    """The solved value of the start position, white to move, in the board's language: "win
    for white in 12 of white's turns (23 plies)", "draw for white"."""
    from morris.app.values import winner_turns

    if value == "draw" or distance is None:
        return {
            "win": _("The start position: win for white"),
            "loss": _("The start position: loss for white"),
            "draw": _("The start position: draw for white"),
        }[value]
    turns = winner_turns(distance)
    plies = ngettext("{n} ply", "{n} plies", distance).format(n=distance)
    if value == "win":
        # TRANSLATORS: {turns} of the winner's own turns; {plies} says them as plies ("23
        # plies"), white's and black's together.
        text = ngettext(
            "The start position: win for white in {turns} of white's turns ({plies})",
            "The start position: win for white in {turns} of white's turns ({plies})",
            turns,
        )
    else:
        text = ngettext(
            "The start position: loss for white in {turns} of black's turns ({plies})",
            "The start position: loss for white in {turns} of black's turns ({plies})",
            turns,
        )
    return text.format(turns=turns, plies=plies)


def run_solution_info(args: argparse.Namespace) -> int:
    """Print each sector (by colour) with its positions and won/drawn/lost, and the start."""
    from rich.console import Console

    from morris.engine.solution import Solution, SolutionError, start_sector

    console = Console()
    if not _check_men(console, args.men):
        return BAD_INPUT
    directory = solution_dir(args)
    missing = missing_solution(directory, args.men)
    if missing is not None:
        say_error(console, missing)
        return 1
    try:
        solution = Solution.load(directory, args.men, check=False)
    except SolutionError as exc:
        say_error(console, str(exc.message))
        return 1
    console.print(
        _("{men} men's morris, solved, in {path}").format(men=args.men, path=directory),
        markup=False,
    )
    line, widths = headings(
        # TRANSLATORS: the columns of morris tables info --men K: white's and black's pieces on
        # the board, then in hand, the side to move, the counts of positions, the longest win,
        # the longest distance to the next removal, the sector file's size.
        (_("white"), 5),
        (_("black"), 5),
        (_("w hand"), 6),
        (_("b hand"), 6),
        (_("to move"), 7),
        (_("positions"), 14),
        (_("won"), 14),
        (_("drawn"), 14),
        (_("lost"), 14),
        (_("longest win"), 11),
        (_("to removal"), 10),
        (_("bytes"), 11),
    )
    console.print(line, highlight=False, soft_wrap=True, markup=False)
    rows: list[tuple[tuple[int, int, int, int, str], Any]] = []
    for key in solution.keys:
        info = solution.info(key)
        rows.extend((colours, info) for colours in key.colour_sectors())
    rows.sort(key=lambda r: (-(r[0][2] + r[0][3]), r[0][0] + r[0][1], r[0][0], r[0][4]))
    for (white, black, white_hand, black_hand, side), info in rows:
        removals = None if info.key.placing else solution.removal_data(info.key)
        to_removal = "-" if removals is None else str(removals.info.longest)
        cells = (
            str(white),
            str(black),
            str(white_hand),
            str(black_hand),
            colour_word(side),
            f"{info.placements:,}",
            f"{info.won:,}",
            f"{info.drawn:,}",
            f"{info.lost:,}",
            str(info.longest_win),
            to_removal,
            f"{info.nbytes:,}",
        )
        console.print(
            " ".join(f"{cell:>{width}}" for cell, width in zip(cells, widths, strict=True)),
            highlight=False,
            soft_wrap=True,
            markup=False,
        )
    start = solution.probe_key(start_sector(args.men), 0, 0)
    entries = sum(solution.info(k).entries for k in solution.keys)
    placements = sum(solution.info(k).placements for k in solution.keys)
    size = sum(solution.info(k).nbytes for k in solution.keys)
    wdl = sum(solution.info(k).wdl_bytes for k in solution.keys)
    found = [r for k in solution.keys if (r := solution.removal_data(k)) is not None]
    moving = [r for r in found if not r.info.key.placing]
    placing = [r for r in found if r.info.key.placing]
    # TRANSLATORS: the summary under the table: {rows} the table's rows (a sector for each
    # colour to move), the rest counts of positions, entries, bytes and sectors.
    summary = ngettext(
        "{n} stored sector ({rows} by colour), {positions} positions over every placement, "
        "{entries} stored entries (symmetry-reduced), {size} bytes on disk, of which {wdl} "
        "win/draw/loss; removal distances of {moving} moving-phase sectors, {moving_size} "
        "bytes; values under the rule of {placing} placing sectors, {placing_size} bytes.",
        "{n} stored sectors ({rows} by colour), {positions} positions over every placement, "
        "{entries} stored entries (symmetry-reduced), {size} bytes on disk, of which {wdl} "
        "win/draw/loss; removal distances of {moving} moving-phase sectors, {moving_size} "
        "bytes; values under the rule of {placing} placing sectors, {placing_size} bytes.",
        len(solution.keys),
    )
    console.print(
        summary.format(
            n=len(solution.keys),
            rows=len(rows),
            positions=f"{placements:,}",
            entries=f"{entries:,}",
            size=f"{size:,}",
            wdl=f"{wdl:,}",
            moving=len(moving),
            moving_size=f"{sum(r.info.nbytes for r in moving):,}",
            placing=len(placing),
            placing_size=f"{sum(r.info.nbytes for r in placing):,}",
        ),
        markup=False,
    )
    if found:
        limit = found[0].info.limit
        for these in (moving, placing):
            drawn = sum(r.info.rule_drawn for r in these)
            if not these:
                continue
            if these is moving:
                # TRANSLATORS: 'to removal' is the name of a column of the table above.
                text = ngettext(
                    "Under the {limit}-turn no-removal rule {n} stored moving-phase entry that "
                    "the solution wins or loses is a draw from a count of 0 (see 'to removal').",
                    "Under the {limit}-turn no-removal rule {n} stored moving-phase entries that "
                    "the solution wins or loses are draws from a count of 0 (see 'to removal').",
                    drawn,
                )
            else:
                text = ngettext(
                    "Under the {limit}-turn no-removal rule {n} stored placing-phase entry that "
                    "the solution wins or loses is a draw from a count of 0.",
                    "Under the {limit}-turn no-removal rule {n} stored placing-phase entries that "
                    "the solution wins or loses are draws from a count of 0.",
                    drawn,
                )
            console.print(text.format(limit=limit, n=f"{drawn:,}"), highlight=False, markup=False)
    if start is not None:
        line = start_text(start.value.value, start.distance)
        rule = solution.placing_rule_value(start_sector(args.men), 0, 0)
        if rule is not None:
            line += " " + _("(under the no-removal rule: {value})").format(
                value=_(VALUE_WORDS[rule.value])
            )
        console.print(line + ".", markup=False)
    console.print(
        _(
            "Counts are over every placement of the pieces, for the side to move; the longest win"
            " is in turns (plies); 'to removal' is the longest distance to the next removal"
            " (moving phase: what the no-removal rule counts); bytes are the sector file's on"
            " disk (a moving-phase sector's file serves both colours' rows). The draw rules are"
            " not part of the solution."
        ),
        markup=False,
    )
    return 0


def run_solution_verify(args: argparse.Namespace) -> int:
    """Check local consistency of every sector; exit 1 on any disagreement."""
    from rich.console import Console

    from morris.engine.solution import Solution, SolutionError
    from morris.solver.solution import verify_solution

    console = Console()
    if not (_check_men(console, args.men) and _at_least_one(console, "--sample", args.sample)):
        return BAD_INPUT
    directory = solution_dir(args)
    missing = missing_solution(directory, args.men)
    if missing is not None:
        say_error(console, missing)
        return 1
    try:
        solution = Solution.load(directory, args.men)
    except SolutionError as exc:
        say_error(console, str(exc.message))
        return 1
    keys = None
    if args.new_only:
        from morris.engine.solution import new_sector_keys

        keys = set(new_sector_keys(args.men))
    with progress_bar(args.quiet) as progress:
        reports = verify_solution(
            solution,
            sample=args.sample,
            seed=args.seed,
            progress=progress_callback(progress),
            keys=keys,
        )
    lines = [
        f"{r.name or r.key.name:<24} "
        + ngettext("{n} entry checked", "{n} entries checked", r.checked).format(
            n=f"{r.checked:>12,}"
        )
        + " "
        + (
            # TRANSLATORS: after "N entries checked": all of the sector's, or a sample of them.
            _("(all)")
            if r.complete
            else ngettext("(sample of {n})", "(sample of {n})", r.entries).format(
                n=f"{r.entries:,}"
            )
        )
        for r in reports
    ]
    return print_reports(console, reports, lines)
