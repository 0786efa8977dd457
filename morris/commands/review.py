"""``morris review RECORD``: the engine's score and the tables' verdict for every turn of a game.

The review itself is :mod:`morris.app.review`; this module reads the record, prints one line per
turn and says which turn first threw a result away, and by whose judgement.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from morris.commands.tables import add_tables_options, solution_from_args, tables_from_args

if TYPE_CHECKING:
    from morris.app.review import Review, TurnReview

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add ``morris review``."""
    from morris.app.review import REVIEW_DEPTH, REVIEW_NODES, THRESHOLD

    parser = subparsers.add_parser(
        "review",
        help="score every turn of a saved game and find the first that threw a result away",
        description=(
            "Review a game record: for each turn the engine's score before and after it (the "
            "mover's, in pieces; 'win N' / 'loss N': a forced result the winner's N turns away), "
            "and where the "
            "endgame tables know the position, win/draw/loss before and after, and where the "
            "solved game (`morris tables build --men K`) covers it, its value ('white wins in "
            "6', 'draw') before and after. The first turn that threw a result away is marked: by "
            "the solved game or the tables where they know both sides of the turn, else by the "
            f"engine's judgement (the mover's score fell by {THRESHOLD / 100:g} "
            "pieces or more). Exit code 2 for a record that cannot be read, or a --solution or "
            "--tables directory that holds nothing to read."
        ),
    )
    parser.add_argument("record", metavar="RECORD", help="a game record file ('-': standard input)")
    parser.add_argument(
        "--depth",
        type=int,
        default=REVIEW_DEPTH,
        help=f"turns the engine searches in each position (default {REVIEW_DEPTH})",
    )
    parser.add_argument(
        "--nodes",
        type=int,
        default=REVIEW_NODES,
        help=f"most nodes searched in each position (default {REVIEW_NODES})",
    )
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument(
        "--svg",
        metavar="FILE",
        type=Path,
        help=(
            "also write the game's graph to FILE as SVG: White's score over the game, the solved "
            "result as a band where known, the turns that threw a result away marked (as on "
            "the companion's review page)"
        ),
    )
    add_tables_options(parser, solution=True)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Review the record; print the table (or JSON). Exit code 2 for a bad record or option."""
    from morris.app.errors import ReviewError
    from morris.app.review import review_text

    if args.depth < 1 or args.nodes < 1:
        print("morris review: --depth and --nodes must be at least 1", file=sys.stderr)
        return 2
    try:
        text = read_record_text(args.record)
    except ReviewError as exc:
        print(f"morris review: {exc}", file=sys.stderr)
        return 2
    from morris.commands.tables import solution_problem, tables_problem

    problem = (None if args.no_solution else solution_problem(args.solution)) or (
        None if args.no_tables else tables_problem(args.tables)
    )
    if problem is not None:  # a directory named on purpose that holds nothing is no default
        print(f"morris review: {problem}", file=sys.stderr)
        return 2
    tables = tables_from_args(args)
    solution = solution_from_args(args)
    try:
        review = review_text(
            text, tables=tables, solution=solution, depth=args.depth, nodes=args.nodes
        )
    except ReviewError as exc:
        print(f"morris review: {args.record}: {exc}", file=sys.stderr)
        return 2
    if args.svg is not None and (code := write_chart(review, args.svg)):
        return code
    if args.json:
        print(json.dumps(review.to_json(), indent=1))
    else:
        print(format_review(review))
    return 0


def write_chart(review: Review, path: Path) -> int:
    """Write the game's graph (:mod:`morris.web.chart`) to ``path``; 0, or 2 saying why not."""
    from morris.web.chart import chart_of_review, render_chart_svg

    try:
        path.write_text(render_chart_svg(chart_of_review(review.to_json())), encoding="utf-8")
    except OSError as exc:
        print(f"morris review: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


def read_record_text(name: str) -> str:
    """The text of the record file ``name`` (``-``: standard input).

    Raises :class:`~morris.app.errors.ReviewError` naming the file when it cannot be read.
    """
    from morris.app.errors import ReviewError

    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ReviewError(f"{name}: not a game record (not UTF-8 text)") from None
    except OSError as exc:
        raise ReviewError(f"cannot read {name}: {exc.strerror or exc}") from None


def _mark(turn: TurnReview) -> str:
    if turn.threw is None:
        return ""
    return f"{'<< first' if turn.mistake else '<'} ({turn.threw})"


def format_review(review: Review) -> str:
    """The review as the lines ``morris review`` prints."""
    from morris.app.review import THRESHOLD, format_score
    from morris.app.values import describe_value

    solved = review.solution
    header = (
        f"{'turn':<6} {'move':<9} {'best':<9} {'score':>8} {'after':>8} {'wdl':>8} {'after':>8}"
    )
    if solved:
        header += f"  {'solved':<18} {'after':<18}"
    lines = [header + "  mark"]
    for t in review.turns:
        wdl_before = "-" if t.wdl_before is None else str(t.wdl_before)
        wdl_after = "-" if t.wdl_after is None else str(t.wdl_after)
        line = (
            f"{t.label:<6} {t.move:<9} {t.best or '-':<9} {format_score(t.score_before):>8} "
            f"{format_score(t.score_after):>8} {wdl_before:>8} {wdl_after:>8}"
        )
        if solved:
            line += (
                f"  {describe_value(t.solution_before):<18} {describe_value(t.solution_after):<18}"
            )
        lines.append(f"{line}  {_mark(t)}".rstrip())
    lines.append("")
    first = review.first_mistake
    if first is None:
        lines.append("No turn threw a result away.")
    elif first.threw == "solution":
        lines.append(
            f"First result thrown away: {first.label} {first.move} ({first.mover}): "
            f"{describe_value(first.solution_before)} -> {describe_value(first.solution_after)}, "
            "by the solved game."
        )
    elif first.threw == "tables":
        lines.append(
            f"First result thrown away: {first.label} {first.move} ({first.mover}): "
            f"{first.wdl_before} -> {first.wdl_after}, by the endgame tables."
        )
    else:
        lines.append(
            f"First result thrown away: {first.label} {first.move} ({first.mover}): "
            f"{format_score(first.score_before)} -> {format_score(first.score_after)}, by the "
            f"engine's judgement (a fall of {THRESHOLD / 100:g} pieces or more)."
        )
    tables = "endgame tables" if review.tables else "no endgame tables"
    solution = "; solved values ('solved') where the solution covers the position" if solved else ""
    lines.append(
        f"Scores are the mover's, in pieces (win/loss N, wins in N: the winner's N turns to "
        f"the end, as puzzles count); engine depth "
        f"{review.depth}, at most {review.nodes} nodes a position; {tables}{solution}; "
        f"{review.elapsed:.1f} s."
    )
    return "\n".join(lines)
