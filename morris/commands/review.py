"""``morris review RECORD``: the engine's score and the tables' result for every turn of a game.

The review itself is :mod:`morris.app.review`; this module reads the record, prints one line per
turn and says which turn first threw a result away, and by whose judgement.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from morris.commands.options import add_tables_options, solution_from_args, tables_from_args
from morris.commands.words import error
from morris.i18n import N_, _, pgettext

if TYPE_CHECKING:
    from morris.app.review import Review, TurnReview
    from morris.engine.result import Result

__all__ = ["register", "run"]

#: The prefix of the command's errors on stderr.
COMMAND = "morris review"


def register(subparsers: Any) -> None:
    """Add ``morris review``."""
    from morris.app.review import REVIEW_DEPTH, REVIEW_NODES, THRESHOLD

    parser = subparsers.add_parser(
        "review",
        help=_("score every turn of a saved game and find the first that threw a result away"),
        # TRANSLATORS: {command} is a command, typed as it is; 'win N', 'loss N', 'white wins
        # in 6' and 'draw' are what the review's table shows (translate them as there).
        description=_(
            "Review a game record: for each turn the engine's score before and after it (the "
            "mover's, in pieces; 'win N' / 'loss N': a forced result the winner's N turns away), "
            "and where the endgame tables know the position, win/draw/loss before and after, and "
            "where the solved game ({command}) covers it, its value ('white wins in 6', 'draw') "
            "before and after. The first turn that threw a result away is marked: by the solved "
            "game or the tables where they know both sides of the turn, else by the engine's "
            "judgement (the mover's score fell by {pieces} pieces or more). Exit code 2 for a "
            "record that cannot be read, or a --solution or --tables directory that holds "
            "nothing to read."
        ).format(command="`morris tables build --men K`", pieces=f"{THRESHOLD / 100:g}"),
    )
    parser.add_argument(
        "record", metavar="RECORD", help=_("a game record file ('-': standard input)")
    )
    parser.add_argument(
        "--depth",
        type=int,
        default=REVIEW_DEPTH,
        help=_("turns the engine searches in each position (default %(default)s)"),
    )
    parser.add_argument(
        "--nodes",
        type=int,
        default=REVIEW_NODES,
        help=_("most nodes searched in each position (default %(default)s)"),
    )
    parser.add_argument("--json", action="store_true", help=_("print the review as JSON"))
    parser.add_argument(
        "--svg",
        metavar="FILE",
        type=Path,
        help=_(
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
        error(_("--depth and --nodes must be at least 1"), command=COMMAND)
        return 2
    try:
        text = read_record_text(args.record)
    except ReviewError as exc:
        error(str(exc), command=COMMAND)
        return 2
    from morris.commands.options import solution_problem, tables_problem

    problem = (None if args.no_solution else solution_problem(args.solution)) or (
        None if args.no_tables else tables_problem(args.tables)
    )
    if problem is not None:  # a directory named on purpose that holds nothing is no default
        error(problem, command=COMMAND)
        return 2
    tables = tables_from_args(args)
    solution = solution_from_args(args)
    try:
        review = review_text(
            text, tables=tables, solution=solution, depth=args.depth, nodes=args.nodes
        )
    except ReviewError as exc:
        error(f"{args.record}: {exc}", command=COMMAND)
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
        from morris.commands.render import cannot_write

        error(cannot_write(path, exc), command=COMMAND)
        return 2
    return 0


def read_record_text(name: str) -> str:
    """The text of the record file ``name`` (``-``: standard input).

    Raises :class:`~morris.app.errors.ReviewError` naming the file when it cannot be read.
    """
    from morris.app.errors import ReviewError
    from morris.commands.render import cannot_read, not_utf8

    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ReviewError(not_utf8(name)) from None
    except OSError as exc:
        raise ReviewError(cannot_read(name, exc)) from None


#: Whose judgement a turn threw a result away by (:attr:`TurnReview.threw`), in the mark column.
JUDGES = {
    # TRANSLATORS: the review's mark column: who judged that the turn threw a result away.
    "solution": N_("solution"),
    "tables": N_("tables"),
    "engine": N_("engine"),
}


def _mark(turn: TurnReview) -> str:
    if turn.threw is None:
        return ""
    judge = _(JUDGES[turn.threw]) if turn.threw in JUDGES else turn.threw
    if not turn.mistake:
        return f"< ({judge})"  # a later turn that threw a result away
    # TRANSLATORS: the mark of the first turn that threw a result away ("<< first (engine)");
    # {judge} says by whose judgement.
    return _("<< first ({judge})").format(judge=judge)


def _mover(turn: TurnReview) -> str:
    from morris.commands.tables import colour_word

    return colour_word(turn.mover)


def _column(name: str, width: int, align: str = "<") -> tuple[str, int, str]:
    return name, max(width, len(name)), align


def _wdl(result: Result | None) -> str:
    """An exact result of the tables for a column: ``win 4``, ``draw``; ``-`` where unknown."""
    from morris.app.review import result_words

    return "-" if result is None else result_words(result).render()


def format_review(review: Review) -> str:
    """The review as the lines ``morris review`` prints, in the board's language."""
    from morris.app.review import THRESHOLD, format_score
    from morris.app.values import describe_value

    solved = review.solution
    after = _("after")
    # TRANSLATORS: the columns of morris review's table: the turn's number, its move, the
    # engine's best move, the engine's score before and after the turn, the endgame tables'
    # win/draw/loss before and after, the solved game's value before and after, the mark.
    columns = [
        _column(pgettext("review column", "turn"), 6),
        _column(_("move"), 9),
        _column(_("best"), 9),
        _column(pgettext("review column", "score"), 8, ">"),
        _column(after, 8, ">"),
        _column(_("wdl"), 8, ">"),
        _column(after, 8, ">"),
    ]
    if solved:
        columns += [_column(_("solved"), 18), _column(after, 18)]
    header = " ".join(f"{name:{align}{width}}" for name, width, align in columns[:7])
    if solved:
        header += "  " + " ".join(f"{name:{align}{width}}" for name, width, align in columns[7:])
    lines = [header + "  " + _("mark")]
    widths = [width for _name, width, _align in columns]
    for t in review.turns:
        wdl_before, wdl_after = _wdl(t.wdl_before), _wdl(t.wdl_after)
        line = (
            f"{t.label:<{widths[0]}} {t.move:<{widths[1]}} {t.best or '-':<{widths[2]}} "
            f"{format_score(t.score_before):>{widths[3]}} "
            f"{format_score(t.score_after):>{widths[4]}} {wdl_before:>{widths[5]}} "
            f"{wdl_after:>{widths[6]}}"
        )
        if solved:
            line += (
                f"  {describe_value(t.solution_before):<{widths[7]}} "
                f"{describe_value(t.solution_after):<{widths[8]}}"
            )
        lines.append(f"{line}  {_mark(t)}".rstrip())
    lines.append("")
    first = review.first_mistake
    if first is None:
        lines.append(_("No turn threw a result away."))
    else:
        turn = {"label": first.label, "move": first.move, "mover": _mover(first)}
        if first.threw == "solution":
            lines.append(
                # TRANSLATORS: {label} is the turn's number ("12..."), {mover} its player.
                _(
                    "First result thrown away: {label} {move} ({mover}): {before} -> {after}, "
                    "by the solved game."
                ).format(
                    **turn,
                    before=describe_value(first.solution_before),
                    after=describe_value(first.solution_after),
                )
            )
        elif first.threw == "tables":
            lines.append(
                _(
                    "First result thrown away: {label} {move} ({mover}): {before} -> {after}, "
                    "by the endgame tables."
                ).format(**turn, before=_wdl(first.wdl_before), after=_wdl(first.wdl_after))
            )
        else:
            lines.append(
                _(
                    "First result thrown away: {label} {move} ({mover}): {before} -> {after}, "
                    "by the engine's judgement (a fall of {pieces} pieces or more)."
                ).format(
                    **turn,
                    before=format_score(first.score_before),
                    after=format_score(first.score_after),
                    pieces=f"{THRESHOLD / 100:g}",
                )
            )
    if review.tables and solved:
        # TRANSLATORS: the review's last line; 'solved' is the name of a column above.
        text = _(
            "Scores are the mover's, in pieces (win/loss N, wins in N: the winner's N turns to "
            "the end, as puzzles count); engine depth {depth}, at most {nodes} nodes a "
            "position; endgame tables; solved values ('solved') where the solution covers the "
            "position; {seconds} s."
        )
    elif review.tables:
        text = _(
            "Scores are the mover's, in pieces (win/loss N, wins in N: the winner's N turns to "
            "the end, as puzzles count); engine depth {depth}, at most {nodes} nodes a "
            "position; endgame tables; {seconds} s."
        )
    elif solved:
        text = _(
            "Scores are the mover's, in pieces (win/loss N, wins in N: the winner's N turns to "
            "the end, as puzzles count); engine depth {depth}, at most {nodes} nodes a "
            "position; no endgame tables; solved values ('solved') where the solution covers "
            "the position; {seconds} s."
        )
    else:
        text = _(
            "Scores are the mover's, in pieces (win/loss N, wins in N: the winner's N turns to "
            "the end, as puzzles count); engine depth {depth}, at most {nodes} nodes a "
            "position; no endgame tables; {seconds} s."
        )
    lines.append(
        text.format(depth=review.depth, nodes=review.nodes, seconds=f"{review.elapsed:.1f}")
    )
    return "\n".join(lines)
