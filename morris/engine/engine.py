"""The in-process engine: what callers use of the search, at a level.

>>> from morris import Board
>>> engine = Engine(level=3, seed=1)
>>> result = engine.play(Board())
>>> result.move in Board().legal_moves
True

:class:`Engine` turns a level (:data:`~morris.engine.levels.LEVELS`) into budgets, runs the
iterative deepening at the root over a :class:`~morris.engine.search.Search` (which scores each
root move), hooks up the endgame tables and the solved game, and reports
:class:`SearchInfo` after each depth and a :class:`SearchResult` at the end.

Levels are depth and node budgets, never wall-clock time, so a level, a seed and a position
always give the same move on any machine. ``movetime`` is an extra safety cap: the only thing the
clock is read for. The engine keeps nothing between calls: each :meth:`Engine.play` starts with
an empty transposition table, so the move does not depend on what was searched before.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Final

from morris.core.board import Board
from morris.core.moves import Move
from morris.core.variant import engine_rules
from morris.engine.errors import SolutionError
from morris.engine.evaluate import Weights, weights_for
from morris.engine.levels import CAREFUL_LEVEL, LEVELS, MAX_DEPTH, MAX_LEVEL, MIN_LEVEL
from morris.engine.movegen import decode, encode, generate
from morris.engine.search import (
    MATE,
    MATE_BOUND,
    NATIVE_AVAILABLE,
    SECTORS_CACHE_BYTES,
    Search,
    native_enabled,
    native_sectors,
)
from morris.engine.slips import choose_slip

if TYPE_CHECKING:
    from morris.engine import _native
    from morris.engine.solution import Solution
    from morris.engine.tables import EndgameTables

logger = logging.getLogger(__name__)


def win_distance(score: int) -> int | None:
    """For a won (positive) or lost (negative) score, the turns to the end of the game."""
    if abs(score) <= MATE_BOUND:
        return None
    return MATE - abs(score)


def format_score(score: int) -> str:
    """A score as the protocol writes it: ``cp N`` or ``mate N`` (N in moves, negative if lost)."""
    plies = win_distance(score)
    if plies is None:
        return f"cp {score}"
    moves = (plies + 1) // 2
    return f"mate {moves if score > 0 else -moves}"


@dataclass(frozen=True)
class SearchInfo:
    """Progress of a search, reported after each completed depth."""

    depth: int
    score: int
    nodes: int
    elapsed: float
    pv: list[Move] = field(default_factory=list)

    @property
    def nps(self) -> int:
        """Nodes per second."""
        return int(self.nodes / self.elapsed) if self.elapsed > 0 else 0


@dataclass(frozen=True)
class SearchResult:
    """What :meth:`Engine.play` found: the turn to play (with its removal) and how.

    ``score`` is for the side to move in centi-pieces, or ``±(MATE - n)`` for a game won or lost in
    ``n`` turns (see :func:`win_distance`).
    """

    move: Move
    score: int
    depth: int
    nodes: int
    pv: list[Move]
    elapsed: float

    @property
    def nps(self) -> int:
        """Nodes per second."""
        return int(self.nodes / self.elapsed) if self.elapsed > 0 else 0


#: With ``solved_search``: the most a solved draw scores above or below the draw's value, in
#: centi-pieces (Weights.solved_draw): half a piece, a quarter of the evaluation up to there.
SOLVED_DRAW: Final = 50


class Engine:
    """The built-in engine at a level, with a seed for its randomness.

    ``clock`` is read only to honour ``movetime`` (inject a fake one in tests); ``tables`` are the
    endgame tables, used from level 7 up when given, and so is ``solution`` (the solved k men's
    game, :mod:`morris.engine.solution`): where it covers a position the engine plays a turn that
    keeps its value, without searching (below level 7 with the believable mistakes of
    :func:`~morris.engine.solution.play.believable_turn`). ``solved_search`` (off by default):
    elsewhere the search of levels 7 and up also scores the positions of the solution's
    moving-phase sectors exactly, as it does the tables', a solved draw by a quarter of the
    evaluation within :data:`SOLVED_DRAW` (docs/ENGINE.md, "The solved game inside the search":
    each probe costs, so at equal time it plays no better yet); the C search reads those sectors
    itself through a cache of ``sector_cache`` bytes of decompressed blocks, kept from turn to
    turn (8 MB by default, for a Pi Zero 2 W; a few hundred MB on a desktop spare most of the
    blocks' decompressions). ``native`` picks the C inner
    loop (the default where it is built, unless ``MORRIS_NATIVE=0``) or the Python one: the same
    moves and node counts either way, the C one many times faster. ``weights`` replaces the
    evaluation's weights of the board's variant (:func:`~morris.engine.evaluate.weights_for`;
    for tuning them).
    ``traps`` (the default): from a drawn position the solution covers, the top levels play the
    drawing turn that sets the opponent the most traps
    (:func:`~morris.engine.solution.play.drawing_traps`); without it, any drawing turn.
    """

    def __init__(
        self,
        level: int = 5,
        *,
        seed: int = 0,
        clock: Callable[[], float] = time.monotonic,
        tables: EndgameTables | None = None,
        solution: Solution | None = None,
        native: bool | None = None,
        weights: Weights | None = None,
        traps: bool = True,
        solved_search: bool = False,
        sector_cache: int = SECTORS_CACHE_BYTES,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be {MIN_LEVEL}..{MAX_LEVEL}, not {level!r}")
        if native is None:
            native = native_enabled()
        elif native and not NATIVE_AVAILABLE:
            raise ValueError("native=True, but the C search (morris.engine._native) is not built")
        self.level = level
        self.seed = seed
        self.clock = clock
        self.tables = tables
        self.solution = solution
        self.native = native
        self.weights = weights
        self.traps = traps
        self.solved_search = solved_search
        self.sector_cache = sector_cache
        # The solution's answers met by the searches (search.py, Search.table_value): exact,
        # so they serve every later turn; bounded by the search.
        self._solved: dict[tuple[int, int], tuple[int, int] | None] = {}
        # ... and the C search's reader of the same sectors, with its cache of blocks.
        self._sectors: tuple[Solution, _native.Sectors] | None = None

    @property
    def name(self) -> str:
        """A name for game records and match tables."""
        return f"morris level {self.level}"

    def __repr__(self) -> str:
        return f"Engine(level={self.level}, seed={self.seed})"

    def play(
        self,
        board: Board,
        *,
        movetime: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        stop: Callable[[], bool] | None = None,
        info: Callable[[SearchInfo], None] | None = None,
        searchmoves: Collection[Move] | None = None,
    ) -> SearchResult:
        """Search ``board`` and return the turn to play (a whole turn, removal included).

        ``depth`` and ``nodes`` replace the level's budget; ``movetime`` (seconds) caps the search
        by the clock; ``stop()`` is polled and ends the search early (the best move so far is
        returned); ``info`` is called after each completed depth; ``searchmoves`` restricts the
        turns considered at the root. The board is not changed.

        Raises :class:`~morris.core.rules.UnsupportedVariant` if the board's class overrides a
        rules method (see :func:`~morris.core.variant.engine_rules`), :class:`ValueError` if the
        game is over, a budget is not positive or no legal turn is in ``searchmoves``.
        """
        engine_rules(board)  # before asking the board anything
        outcome = board.outcome()
        if outcome is not None:
            raise ValueError(
                f"the game is over ({outcome.termination.value}, {outcome.result()}): "
                f"no move to search in {board.position()}"
            )
        if depth is not None and depth < 1:
            raise ValueError(f"depth must be at least 1, not {depth}")
        if nodes is not None and nodes < 1:
            raise ValueError(f"nodes must be at least 1, not {nodes}")
        if movetime is not None and movetime < 0:
            raise ValueError(f"movetime must not be negative, not {movetime}")
        level = LEVELS[self.level]
        if self.solution is not None and searchmoves is None:
            perfect = self._perfect(board, level.tables)
            if perfect is not None:
                return perfect
        max_depth = min(depth if depth is not None else level.depth, MAX_DEPTH)
        node_limit = level.nodes if depth is None and nodes is None else nodes
        start = self.clock()
        deadline = None if movetime is None else start + movetime
        position = board.position()
        rng = random.Random(f"{self.seed}:{self.level}:{position}")
        solved = self._solution_for_search(board) if level.tables else None
        search = Search(
            board,
            tables=self.tables if level.tables else None,
            solution=solved,
            solved=self._solved,
            sectors=self._native_sectors(solved),
            node_limit=node_limit,
            deadline=deadline,
            clock=self.clock,
            stop=stop,
            native=self.native,
            weights=self.weights if solved is None else self._solved_weights(board),
        )
        root = None if searchmoves is None else {encode(m) for m in searchmoves}
        if root is None and level.slip:
            # A draw of its own, so that where no slip comes the margin's choice is as before.
            slip_rng = random.Random(f"slip:{self.seed}:{self.level}:{position}")
            slip = choose_slip(board, level.slip, slip_rng, careful=self.level >= CAREFUL_LEVEL)
            if slip is not None:
                root = {encode(m) for m in slip.turns}
        try:
            best_mv, score, reached = self._iterate(
                search, max_depth, level.margin, rng, info, start, root
            )
            elapsed = max(self.clock() - start, 0.0)
            pv = [decode(m) for m in search.pv(best_mv, max(reached, 1))]
        finally:
            search.release()
        logger.debug(
            "level %d: %s score %d depth %d nodes %d", self.level, decode(best_mv), score, reached,
            search.nodes,
        )  # fmt: skip
        return SearchResult(decode(best_mv), score, reached, search.nodes, pv, elapsed)

    def _solution_for_search(self, board: Board) -> Solution | None:
        """The solution, where its game is the board's: the search then scores the positions
        of its moving-phase sectors exactly wherever it reaches them, as it does the tables'."""
        from morris.engine.solution.play import solved_rules

        if not self.solved_search or self.solution is None:
            return None
        if not solved_rules(engine_rules(board)):
            return None
        return self.solution

    def _native_sectors(self, solution: Solution | None) -> _native.Sectors | None:
        """The C search's reader of the solution's sectors, made once and kept: its cache of
        blocks serves every turn (None without the solution in the search, or in Python)."""
        if solution is None or not self.native:
            return None
        if self._sectors is None or self._sectors[0] is not solution:
            self._sectors = (solution, native_sectors(solution, self.sector_cache))
        return self._sectors[1]

    def _solved_weights(self, board: Board) -> Weights:
        """The weights of a search with the solution in it: a solved draw scores a quarter of
        the evaluation within :data:`SOLVED_DRAW` (unless the weights given set a band of their
        own), so that the search keeps pressing inside a draw."""
        weights = weights_for(engine_rules(board)) if self.weights is None else self.weights
        return weights if weights.solved_draw else replace(weights, solved_draw=SOLVED_DRAW)

    def _perfect(self, board: Board, top: bool) -> SearchResult | None:
        """The solution's turn, when it covers the position: :func:`perfect_turn` at the levels
        with tables (``top``), :func:`believable_turn` (now and then a mistake) below them."""
        from morris.engine.solution.play import believable_turn, perfect_turn

        assert self.solution is not None
        start = self.clock()
        rng = random.Random(f"{self.seed}:{self.level}:{board.position()}")
        try:
            if top:
                found = perfect_turn(self.solution, board, rng, traps=self.traps)
            else:
                found = believable_turn(self.solution, board, self.level, rng)
        except SolutionError:  # a damaged block: the solution has dropped its file (logged)
            return None
        if found is None:
            return None
        move, result = found
        distance = result.distance or 0
        score = {"win": MATE - distance, "loss": -(MATE - distance)}.get(result.value.value, 0)
        return SearchResult(move, score, 0, 0, [move], max(self.clock() - start, 0.0))

    def _iterate(
        self,
        search: Search,
        max_depth: int,
        margin: int,
        rng: random.Random,
        info: Callable[[SearchInfo], None] | None,
        start: float,
        root: set[int] | None,
    ) -> tuple[int, int, int]:
        """Iterative deepening at the root, one :meth:`Search.search_depth` a depth, within the
        level's margin; returns (move, score, depth completed)."""
        mills, quiet = generate(search.rules, search.us, search.them, search.uh, search.bar)
        moves = mills + quiet
        if root is not None:
            moves = [m for m in moves if m in root]
        if not moves:
            raise ValueError("none of the moves to search is legal")
        best_mv, best_score, reached = moves[0], 0, 0
        if len(moves) == 1:
            return best_mv, search.evaluate(search.us, search.them, search.uh, search.th), 0
        scores: dict[int, int] = {}
        for d in range(1, max_depth + 1):
            iter_scores, iter_best, iter_score, complete = search.search_depth(moves, d, margin)
            if not complete:
                # The first move searched is the previous best, so a completed move of the
                # unfinished depth is the previous best or a move that beat it.
                if iter_best >= 0 and (not margin or reached == 0):
                    best_mv, best_score = iter_best, iter_score
                break
            scores = iter_scores
            best_mv, best_score, reached = iter_best, iter_score, d
            # Best first next time; the others by this depth's (bounded) scores.
            moves.sort(key=lambda m: (m != iter_best, -iter_scores[m]))
            if info is not None:
                elapsed = max(search.clock() - start, 0.0)
                pv = [decode(m) for m in search.pv(best_mv, d)]
                info(SearchInfo(d, best_score, search.nodes, elapsed, pv))
            if abs(best_score) > MATE_BOUND and MATE - abs(best_score) <= d:
                break  # a forced result seen to its end: deeper changes nothing
            if search.is_spent():
                break
        if margin and scores:
            top = max(scores.values())
            if top <= MATE_BOUND:
                candidates = sorted(m for m, s in scores.items() if s >= top - margin)
                if candidates:
                    best_mv = rng.choice(candidates)
                    best_score = scores[best_mv]
        return best_mv, best_score, reached


__all__ = ["Engine", "SearchInfo", "SearchResult", "format_score", "win_distance"]
