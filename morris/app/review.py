"""Reviewing a game record: the engine's score and the endgame tables' result for each turn.

For every turn of a record, :func:`review_record` gives the built-in engine's score before and
after the turn, both from the point of view of the player who made it, and, where the endgame
tables know the position, its exact result (a :class:`~morris.engine.result.Result`: win,
draw or loss, and the turns to the end) before and after. The first turn that threw a result away
is marked (each judged by :func:`~morris.engine.result.threw_away` where the result is
exact, as ``morris analyse RECORD`` judges):

- by the solved game (:mod:`morris.engine.solution`, ``solution=``), where it covers both sides
  of the turn, placing phase included: the class of the mover's value fell (a win to a draw or a
  loss, a draw to a loss). Exact in the same sense as the tables'. Each turn also carries the
  solution's value before and after it (``solution_before``, ``solution_after``: the mover's, as
  :mod:`morris.app.values` objects with their words, "white wins in 12").
- by the tables, where they know both sides of the turn (or the turn ended the game): a win that
  became a draw or a loss, or a draw that became a loss. That is exact (up to the draw rules the
  tables leave out, which are checked the way the search checks them).
- otherwise by the engine's judgement: the mover's score fell by :data:`THRESHOLD` centi-pieces
  (two pieces) or more, to less than that (a turn that leaves the mover two pieces up threw
  nothing away), from a game the engine did not already see lost. A judgement, not a proof, and
  labelled so (``threw == "engine"``).

A turn with only one legal move is never marked: nothing else could be played.

The engine searches each position once, :data:`REVIEW_DEPTH` turns deep with at most
:data:`REVIEW_NODES` nodes, so a review is deterministic: the same record gives the same review
on any machine. A 60-turn game takes 1.2 CPU seconds (2.5 at most) on the project's machine with
the C search, and 16 MiB more memory while it runs (``python benchmarks/bench_review.py``); a Pi
Zero 2 W, some ten times slower, should need 10 to 25 s, so front ends review away from their main
loop. The clock only enters as a safety cap (:data:`REVIEW_MOVETIME` per position), for the
pure-Python search.

>>> from morris.core import read_game
>>> review = review_record(read_game("1. d6 f4 2. d7 b4 *"))
>>> [(t.label, t.move) for t in review.turns]
[('1.', 'd6'), ('1...', 'f4'), ('2.', 'd7'), ('2...', 'b4')]
>>> review.first_mistake is None
True
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final

from morris.app.errors import ReviewError
from morris.app.values import (
    ResultJson,
    ValueJson,
    plain_value,
    result_json,
    result_of_board,
    value_json,
    winner_turns,
)
from morris.core import (
    BLACK,
    COLOR_NAMES,
    WHITE,
    Board,
    GameRecord,
    GameRecordError,
    UnsupportedVariant,
    engine_rules,
    read_game,
)
from morris.engine.result import Result, Value, first_threw_away, threw_away
from morris.i18n import Message, msg, plain

if TYPE_CHECKING:
    from morris.engine.engine import Engine
    from morris.engine.solution import Solution
    from morris.engine.tables import EndgameTables

logger = logging.getLogger(__name__)

#: How deep the engine searches each position of a review, in turns.
REVIEW_DEPTH: Final = 8
#: The most nodes the engine searches in one position of a review: the depth ends the search first
#: in 98% of the positions of the strong games' first 60 turns (at 100,000 only 87% finished depth
#: 8, and a search a depth short scores a placing position with the other sign). It also sizes
#: the search's transposition table: some 16 MiB while a review runs.
REVIEW_NODES: Final = 300_000
#: Seconds one position may take at most: a safety cap that the node budget makes unreachable
#: with the C search, and that bounds a review with the pure-Python search.
REVIEW_MOVETIME: Final = 2.0
#: A fall of the mover's score by this many centi-pieces (two pieces) is the engine's judgement
#: that the turn threw a result away.
THRESHOLD: Final = 200


class WdlJson(ResultJson):
    """An exact result of a review's turn as JSON (``wdl_before``, ``wdl_after``): a
    :class:`~morris.app.values.ResultJson` and its ``source``, ``tables`` (the endgame tables) or
    ``end`` (the game is over)."""

    source: str


def wdl_json(result: Result, source: str) -> WdlJson:
    """``result`` as the review's JSON says it, from ``source`` (``tables`` or ``end``)."""
    return {**result_json(result), "source": source}


@dataclass(frozen=True)
class TurnReview:
    """One turn of a reviewed game; scores and results are the mover's.

    ``ply`` counts the turns of the record from 1; ``label`` is its number as the record writes it
    (``12.`` for white, ``12...`` for black). Scores are centi-pieces, or ``±(MATE - n)`` for a game
    won or lost in ``n`` turns (:func:`format_score` writes them), ``None`` where the engine cannot
    play the variant. ``best`` is the engine's choice in the position before. ``wdl_before`` and
    ``wdl_after`` are the exact results for the mover where the endgame tables know the position
    (or the game is over after the turn: ``ends_game``). ``solution_before`` and
    ``solution_after`` are the solved game's values for the mover (None where it does not cover
    the position). ``threw`` says that this turn threw a result away and who judged it
    (``solution``, ``tables`` or ``engine``); ``mistake`` marks only the first such turn.
    """

    ply: int
    label: str
    move: str
    mover: str
    before: str
    after: str
    best: str | None
    score_before: int | None
    score_after: int | None
    wdl_before: Result | None
    wdl_after: Result | None
    threw: str | None
    mistake: bool = False
    solution_before: ValueJson | None = None
    solution_after: ValueJson | None = None
    ends_game: bool = False

    @property
    def threw_away(self) -> bool:
        """Whether the turn threw a result away, by any judge (:attr:`threw`)."""
        return self.threw is not None

    def to_json(self, code: str | None = None) -> dict[str, Any]:
        """The turn as a JSON object; the solved values' words in language ``code`` (default:
        the board's)."""
        return {
            "ply": self.ply,
            "label": self.label,
            "move": self.move,
            "mover": self.mover,
            "before": self.before,
            "after": self.after,
            "best": self.best,
            "score_before": self.score_before,
            "score_after": self.score_after,
            "wdl_before": None if self.wdl_before is None else wdl_json(self.wdl_before, "tables"),
            "wdl_after": None
            if self.wdl_after is None
            else wdl_json(self.wdl_after, "end" if self.ends_game else "tables"),
            "threw": self.threw,
            "mistake": self.mistake,
            "solution_before": plain_value(self.solution_before, code),
            "solution_after": plain_value(self.solution_after, code),
        }


@dataclass(frozen=True)
class Review:
    """A reviewed game: its tags, its start and final positions, and every turn."""

    tags: dict[str, str]
    start: str
    end: str
    turns: tuple[TurnReview, ...]
    depth: int
    nodes: int
    tables: bool
    elapsed: float
    #: Whether a solved game was given and covers some position of the game.
    solution: bool = False

    @property
    def first_mistake(self) -> TurnReview | None:
        """The first turn that threw a result away, or ``None``
        (:func:`~morris.engine.result.first_threw_away`)."""
        return first_threw_away(self.turns)

    def to_json(self, code: str | None = None) -> dict[str, Any]:
        """The review as a JSON object (the page's ``/api/games/{id}/review``); its words (the
        solved values' ``text``) in language ``code`` (default: the board's)."""
        first = self.first_mistake
        return {
            "tags": dict(self.tags),
            "result": self.tags.get("Result", "*"),
            "start": self.start,
            "end": self.end,
            "turns": [t.to_json(code) for t in self.turns],
            "first_mistake": None if first is None else first.ply,
            "engine": {"depth": self.depth, "nodes": self.nodes, "threshold": THRESHOLD},
            "tables": self.tables,
            "solution": self.solution,
            "elapsed": round(self.elapsed, 3),
        }


def result_words(result: Result) -> Message:
    """A result for the mover, short for a table's column: ``win 4`` / ``loss 2`` (the winner's
    turns to the end, the distance being plies), ``draw``.

    >>> result_words(Result(Value.WIN, 7)).render("en")
    'win 4'
    >>> result_words(Result(Value.LOSS, 3)).render("de")
    'Verlust 2'
    """
    if result.value is Value.DRAW:
        return msg("draw")
    turns = winner_turns(result.distance or 0)
    # TRANSLATORS: a column of the review's table: the mover wins in {n} of the winner's turns.
    # Keep it short (8 letters or so): "win 4".
    return msg("win {n}", n=turns) if result.value is Value.WIN else msg("loss {n}", n=turns)


def format_score(score: int | None) -> str:
    """A score for people: ``+1.25`` (pieces), ``win 4`` / ``loss 2`` (the winner's turns to
    the end, as puzzles count them; in the board's language), ``-`` unknown.

    >>> from morris.engine.search import MATE
    >>> format_score(125), format_score(-40), format_score(None), format_score(MATE - 7)
    ('+1.25', '-0.40', '-', 'win 4')
    """
    return score_words(score).render()


def score_words(score: int | None) -> Message:
    """:func:`format_score` as a message, to render in any language."""
    if score is None:
        return plain("-")
    from morris.engine.engine import win_distance

    distance = win_distance(score)
    if distance is None:
        return plain(f"{score / 100:+.2f}")
    return result_words(Result(Value.WIN if score > 0 else Value.LOSS, distance))


def review_text(text: str, **options: Any) -> Review:
    """Review the one game of a record's text (see :func:`review_record` for ``options``).

    Raises :class:`ReviewError` naming the problem when the text is not one valid game record.
    """
    try:
        record = read_game(text)
    except GameRecordError as exc:
        raise ReviewError(f"not a valid game record: {exc}") from None
    return review_record(record, **options)


def review_record(
    record: GameRecord,
    *,
    tables: EndgameTables | None = None,
    solution: Solution | None = None,
    depth: int = REVIEW_DEPTH,
    nodes: int = REVIEW_NODES,
    movetime: float | None = REVIEW_MOVETIME,
    progress: Callable[[int, int], None] | None = None,
    stop: Callable[[], bool] | None = None,
    search: bool = True,
) -> Review:
    """Review every turn of ``record`` (see the module's docstring for what is judged).

    ``search=False`` gives the turns and positions at once, without the engine (no scores but
    those of the game's end, no marks): an outline to show while the review runs.
    ``tables`` are the endgame tables to ask (and to search with), ``solution`` the solved game
    (its values are given with or without the search); ``progress(done, total)`` is
    called after each position searched; ``stop()`` is polled between positions and raises
    :class:`ReviewError` when it returns true. Raises :class:`ReviewError` for a record whose
    turns do not follow the rules of its tags.
    """
    started = time.monotonic()
    try:
        board = record.start_board()
    except GameRecordError as exc:
        raise ReviewError(f"not a valid game record: {exc}") from None
    boards = [board.copy()]
    for ply, move in enumerate(record.moves, start=1):
        reason = board.illegal_reason(move)
        if reason is not None:
            raise ReviewError(f"turn {ply} ({move}) is illegal: {reason}")
        board.push(move)
        boards.append(board.copy())
    engine = _engine(boards[0], tables) if search else None
    scores: list[int | None] = []
    bests: list[str | None] = []
    for index, position in enumerate(boards):
        if stop is not None and stop():
            raise ReviewError("the review was stopped")
        score, best = _search(engine, position, depth, nodes, movetime)
        scores.append(score)
        bests.append(best)
        if progress is not None:
            progress(index + 1, len(boards))
    # A position with one legal move was not searched (the engine answers at once with its
    # static evaluation): it is worth what the position after that move is worth.
    for index in range(len(record.moves) - 1, -1, -1):
        if scores[index] is not None and boards[index].legal_moves.count() == 1:
            after = scores[index + 1]
            scores[index] = None if after is None else -after
    turns = _turns(record, boards, scores, bests, tables, solution)
    return Review(
        tags=dict(record.tags),
        start=boards[0].position(),
        end=boards[-1].position(),
        turns=turns,
        depth=depth,
        nodes=nodes,
        tables=tables is not None and tables.supports(boards[0].rules),
        elapsed=time.monotonic() - started,
        solution=any(t.solution_before is not None for t in turns),
    )


def _engine(board: Board, tables: EndgameTables | None) -> Engine | None:
    """The engine of the review, or ``None`` when it cannot play the record's variant."""
    from morris.engine.engine import Engine
    from morris.engine.levels import MAX_LEVEL

    try:
        engine_rules(board)
    except UnsupportedVariant as exc:
        logger.warning("no engine scores in this review: %s", exc)
        return None
    # The top level has no randomness and uses the tables; the depth and nodes are the review's.
    return Engine(MAX_LEVEL, seed=0, tables=tables)


def _search(
    engine: Engine | None, board: Board, depth: int, nodes: int, movetime: float | None
) -> tuple[int | None, str | None]:
    """The score of ``board`` for its side to move and the engine's turn; at the end of the game
    the score the result gives and no turn."""
    from morris.engine.search import MATE

    outcome = board.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return 0, None
        return (MATE if outcome.winner == board.turn else -MATE), None
    if engine is None:
        return None, None
    result = engine.play(board, depth=depth, nodes=nodes, movetime=movetime)
    return result.score, str(result.move)


def _table_result(board: Board, tables: EndgameTables | None) -> Result | None:
    """The exact result for the side to move of ``board`` (by its end or the tables), where it
    is known."""
    outcome = board.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return Result(Value.DRAW, 0)
        return Result(Value.WIN if outcome.winner == board.turn else Value.LOSS, 0)
    if tables is None or not tables.supports(board.rules):
        return None
    if board.pieces_in_hand(WHITE) or board.pieces_in_hand(BLACK):
        return None
    res = tables.probe(
        board.occupied_co(WHITE), board.occupied_co(BLACK), board.turn == WHITE, board.flying
    )
    if res is None:
        return None
    limit = board.no_removal_limit
    # The tables ignore the no-removal draw: a win that needs longer than the turns left before
    # the limit may be a draw (the search trusts them under the same condition).
    distance = res.distance or 0
    if (
        res.value is not Value.DRAW
        and limit is not None
        and board.no_removal_count + distance >= limit
    ):
        return None
    return res


def engine_threw(before: int, after: int) -> bool:
    """The engine's judgement that a turn scored ``before`` and ``after`` (the mover's scores)
    threw a result away: the score fell by :data:`THRESHOLD` or more, to less than
    :data:`THRESHOLD` (a turn that leaves the mover two pieces up, or still winning, threw nothing
    away), from a game the engine did not already see lost.

    >>> engine_threw(50, -160), engine_threw(50, -100), engine_threw(99_990, 788)
    (True, False, False)
    """
    from morris.engine.search import MATE_BOUND

    if before < -MATE_BOUND or after >= THRESHOLD:
        return False
    return before - after >= THRESHOLD


def _threw(
    board: Board,
    score_before: int | None,
    score_after: int | None,
    wdl_before: Result | None,
    wdl_after: Result | None,
    solved: tuple[Result | None, Result | None] = (None, None),
) -> str | None:
    """Who judged that the turn from ``board`` threw a result away, or ``None``; ``solved`` is
    the solution's result for the mover before and after it."""
    if solved[0] is not None and solved[1] is not None:
        return "solution" if threw_away(*solved) else None
    if wdl_before is not None and wdl_after is not None:
        return "tables" if threw_away(wdl_before, wdl_after) else None
    if board.legal_moves.count() == 1 or score_before is None or score_after is None:
        return None
    return "engine" if engine_threw(score_before, score_after) else None


def _turns(
    record: GameRecord,
    boards: list[Board],
    scores: list[int | None],
    bests: list[str | None],
    tables: EndgameTables | None,
    solution: Solution | None = None,
) -> tuple[TurnReview, ...]:
    exact = [_table_result(b, tables) for b in boards]
    solved = [result_of_board(solution, b) for b in boards]
    turns: list[TurnReview] = []
    for index, move in enumerate(record.moves):
        before = boards[index]
        after_score = scores[index + 1]
        score_after = None if after_score is None else -after_score
        after = exact[index + 1]
        wdl_after = None if after is None else after.other_side()
        solved_after = solved[index + 1]
        solution_after = None if solved_after is None else solved_after.other_side()
        threw = _threw(
            before,
            scores[index],
            score_after,
            exact[index],
            wdl_after,
            (solved[index], solution_after),
        )
        number = before.fullmove_number
        mover = COLOR_NAMES[before.turn]
        turns.append(
            TurnReview(
                ply=index + 1,
                label=f"{number}." if before.turn == WHITE else f"{number}...",
                move=str(move),
                mover=mover,
                before=before.position(),
                after=boards[index + 1].position(),
                best=bests[index],
                score_before=scores[index],
                score_after=score_after,
                wdl_before=exact[index],
                wdl_after=wdl_after,
                threw=threw,
                solution_before=_json(solved[index], mover),
                solution_after=_json(solution_after, mover),
                ends_game=boards[index + 1].outcome() is not None,
            )
        )
    first = first_threw_away(turns)
    return tuple(replace(t, mistake=True) if t is first else t for t in turns)


def _json(result: Result | None, side: str) -> ValueJson | None:
    return None if result is None else value_json(result, side)


__all__ = [
    "REVIEW_DEPTH",
    "REVIEW_MOVETIME",
    "REVIEW_NODES",
    "THRESHOLD",
    "Review",
    "TurnReview",
    "WdlJson",
    "engine_threw",
    "format_score",
    "result_words",
    "review_record",
    "review_text",
    "score_words",
    "wdl_json",
]
