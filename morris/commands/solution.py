"""The solved game's side of ``morris tables build|info|verify --men K`` (see
:mod:`morris.commands.tables`): build every sector as a Dask task graph, print each sector's
counts, check local consistency."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import Any

from morris.commands.tables import (
    print_reports,
    progress_bar,
    progress_callback,
)

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
    from morris.commands.tables import no_solution_text
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
    has = f"{built} men's morris" if built is not None else "only some sectors"
    return (
        f"{directory} holds {has}, not {men} men's morris ({len(missing)} of its sectors are "
        f"missing, {missing[0].name} the first): build it with `morris tables build --men {men} "
        f"--dir {directory}` (it adds only what is missing)"
    )


def _check_men(console: Any, men: int) -> bool:
    from morris.engine.solution.sectors import MAX_MEN, MIN_MEN

    if MIN_MEN <= men <= MAX_MEN:
        return True
    console.print(f"[red]--men must be {MIN_MEN}..{MAX_MEN}, not {men}[/red]")
    return False


def _at_least_one(console: Any, option: str, value: int | None) -> bool:
    if value is None or value >= 1:
        return True
    console.print(f"[red]{option} must be at least 1, not {value}[/red]")
    return False


def run_solution_build(args: argparse.Namespace) -> int:
    """Build every sector of ``--men`` men's morris (resuming what is there)."""
    from rich.console import Console

    from morris.core.rules import DEFAULT_NO_REMOVAL_LIMIT
    from morris.engine.solution import SolutionError, build_solution
    from morris.engine.solution.ranges import DEFAULT_SPLIT

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
        console.print("[red]--flying and --max-pieces are for the endgame tables, not --men[/red]")
        return BAD_INPUT
    if args.memory is not None and args.memory <= 0:
        console.print(f"[red]--memory must be positive, not {args.memory}[/red]")
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
        console.print(f"[red]{exc}[/red]")
        return 1
    size = sum(i.nbytes for i in result.infos)
    wdl = sum(i.wdl_bytes for i in result.infos)
    moving = sum(i.nbytes for i in result.removals if not i.key.placing)
    placing = sum(i.nbytes for i in result.removals if i.key.placing)
    console.print(
        f"{len(result.infos)} sectors of {args.men} men's morris in {directory} "
        f"({len(result.solved)} solved now): {size / 1e6:.1f} MB, of which "
        f"{wdl / 1e6:.2f} MB win/draw/loss; removal distances {moving / 1e6:.1f} MB, "
        f"placing values under the rule {placing / 1e6:.1f} MB"
    )
    return 0


def run_solution_info(args: argparse.Namespace) -> int:
    """Print each sector (by colour) with its positions and won/drawn/lost, and the start."""
    from rich.console import Console
    from rich.markup import escape

    from morris.engine.solution import Solution, SolutionError, start_sector

    console = Console()
    if not _check_men(console, args.men):
        return BAD_INPUT
    directory = solution_dir(args)
    missing = missing_solution(directory, args.men)
    if missing is not None:
        console.print(f"[red]{escape(missing)}[/red]", soft_wrap=True)
        return 1
    try:
        solution = Solution.load(directory, args.men, check=False)
    except SolutionError as exc:
        console.print(f"[red]{exc}[/red]")
        return 1
    console.print(f"{args.men} men's morris, solved, in {directory}")
    console.print(
        f"{'white':>5} {'black':>5} {'w hand':>6} {'b hand':>6} {'to move':>7} {'positions':>14}"
        f" {'won':>14} {'drawn':>14} {'lost':>14} {'longest win':>11} {'to removal':>10}"
        f" {'bytes':>11}",
        highlight=False,
        soft_wrap=True,
    )
    rows: list[tuple[tuple[int, int, int, int, str], Any]] = []
    for key in solution.keys:
        info = solution.info(key)
        rows.extend((colours, info) for colours in key.colour_sectors())
    rows.sort(key=lambda r: (-(r[0][2] + r[0][3]), r[0][0] + r[0][1], r[0][0], r[0][4]))
    for (white, black, white_hand, black_hand, side), info in rows:
        removals = None if info.key.placing else solution.removal_data(info.key)
        to_removal = "-" if removals is None else str(removals.info.longest)
        console.print(
            f"{white:>5} {black:>5} {white_hand:>6} {black_hand:>6} {side:>7}"
            f" {info.placements:>14,} {info.won:>14,} {info.drawn:>14,} {info.lost:>14,}"
            f" {info.longest_win:>11} {to_removal:>10} {info.nbytes:>11,}",
            highlight=False,
            soft_wrap=True,
        )
    start = solution.probe_key(start_sector(args.men), 0, 0)
    entries = sum(solution.info(k).entries for k in solution.keys)
    placements = sum(solution.info(k).placements for k in solution.keys)
    size = sum(solution.info(k).nbytes for k in solution.keys)
    wdl = sum(solution.info(k).wdl_bytes for k in solution.keys)
    found = [r for k in solution.keys if (r := solution.removal_data(k)) is not None]
    moving = [r for r in found if not r.info.key.placing]
    placing = [r for r in found if r.info.key.placing]
    console.print(
        f"{len(solution.keys)} stored sectors ({len(rows)} by colour), {placements:,} positions "
        f"over every placement, {entries:,} stored entries (symmetry-reduced), "
        f"{size:,} bytes on disk, of which {wdl:,} win/draw/loss; removal distances of "
        f"{len(moving)} moving-phase sectors, {sum(r.info.nbytes for r in moving):,} bytes; "
        f"values under the rule of {len(placing)} placing sectors, "
        f"{sum(r.info.nbytes for r in placing):,} bytes."
    )
    if found:
        limit = found[0].info.limit
        for phase, these in (("moving-phase", moving), ("placing-phase", placing)):
            drawn = sum(r.info.rule_drawn for r in these)
            if these:
                console.print(
                    f"Under the {limit}-turn no-removal rule {drawn:,} stored {phase} entries "
                    "that the solution wins or loses are draws from a count of 0"
                    + (" (see 'to removal')." if phase == "moving-phase" else "."),
                    highlight=False,
                )
    if start is not None:
        tail = ""
        if start.value.value != "draw" and start.distance is not None:
            from morris.app.values import winner_turns

            winner = "white" if start.value.value == "win" else "black"
            tail = (
                f" in {winner_turns(start.distance)} of {winner}'s turns ({start.distance} plies)"
            )
        rule = solution.placing_rule_value(start_sector(args.men), 0, 0)
        under = "" if rule is None else f" (under the no-removal rule: {rule.value})"
        console.print(f"The start position: {start.value.value} for white{tail}{under}.")
    console.print(
        "Counts are over every placement of the pieces, for the side to move; the longest win is"
        " in turns (plies); 'to removal' is the longest distance to the next removal (moving"
        " phase: what the no-removal rule counts); bytes are the sector file's on disk (a"
        " moving-phase sector's file serves both colours' rows). The draw rules are not part of"
        " the solution."
    )
    return 0


def run_solution_verify(args: argparse.Namespace) -> int:
    """Check local consistency of every sector; exit 1 on any disagreement."""
    from rich.console import Console
    from rich.markup import escape

    from morris.engine.solution import Solution, SolutionError, verify_solution

    console = Console()
    if not (_check_men(console, args.men) and _at_least_one(console, "--sample", args.sample)):
        return BAD_INPUT
    directory = solution_dir(args)
    missing = missing_solution(directory, args.men)
    if missing is not None:
        console.print(f"[red]{escape(missing)}[/red]", soft_wrap=True)
        return 1
    try:
        solution = Solution.load(directory, args.men)
    except SolutionError as exc:
        console.print(f"[red]{exc}[/red]")
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
        f"{r.name or r.key.name:<24} {r.checked:>12,} entries checked "
        f"({'all' if r.complete else f'sample of {r.entries:,}'})"
        for r in reports
    ]
    return print_reports(console, reports, lines)
