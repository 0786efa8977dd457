"""The search: a principal-variation alpha-beta scoring the root's moves, one depth at a time.

:class:`~morris.engine.engine.Engine` (levels, time, the tables and the solution: what callers
use) drives one :class:`Search` a turn. The search is a negamax PVS with a transposition table
on Zobrist keys, move ordering (transposition move, mill turns by the piece removed, killers,
then history while moving or a static order of placements while placing), a mild late-move
reduction, and the draw rules of the board (threefold repetition, the no-removal count).
Positions are plain ints passed down the recursion (:mod:`morris.engine.movegen`); the caller's
board is only read. Below the root the search runs in C where ``morris/engine/_native.c`` is
built (:data:`NATIVE_AVAILABLE`): a line-for-line port of :meth:`Search.negamax`
(``morris/engine/native/search.c``) with the same moves, scores and node counts, called once per
root move, given this module's constants.

One concept, one module, though near 700 lines: the negamax with its move ordering, the
endgame-table probes and the hand-over to C share one set of constants and one transposition
table, and the C port mirrors this file line for line.
"""

from __future__ import annotations

import functools
import logging
import math
import os
import random
from collections.abc import Callable
from dataclasses import asdict, astuple
from typing import TYPE_CHECKING, Final

from morris.core.board import Board
from morris.core.points import ALL_POINTS, NUM_POINTS
from morris.core.rules import Rules
from morris.core.variant import engine_rules
from morris.engine.errors import SolutionError
from morris.engine.evaluate import (
    PIECE,
    WEIGHTS,
    Weights,
    make_evaluator,
    point_layers,
    weights_for,
)
from morris.engine.levels import MAX_DEPTH
from morris.engine.movegen import (
    MOVE_SPACE,
    NONE,
    SECOND_SHIFT,
    board_bar,
    generate,
    has_moves,
    next_bar,
)
from morris.engine.result import Result, Value

if TYPE_CHECKING:
    from morris.engine.solution import Solution
    from morris.engine.tables import EndgameTables

_NATIVE_MISSING = ""  # why the import failed
try:
    from morris.engine import _native
except ImportError as _exc:  # not built (no C compiler at install time): the search runs in Python
    _native = None  # type: ignore[assignment]
    _NATIVE_MISSING = str(_exc)

#: Whether the C inner loop (``morris/engine/_native.c``) is built. It plays the same moves with
#: the same node counts as the Python search, many times faster; ``MORRIS_NATIVE=0`` turns it off.
NATIVE_AVAILABLE: Final = _native is not None


def native_enabled() -> bool:
    """Whether engines use the C search by default: it is built and ``MORRIS_NATIVE`` is not 0."""
    return NATIVE_AVAILABLE and os.environ.get("MORRIS_NATIVE", "1") != "0"


def native_warning() -> str | None:
    """One line for a user when the engine runs without its C search (20-25 times slower, so
    each level searches far less in its time), saying how to fix it; ``None`` when it is used."""
    if native_enabled():
        return None
    if NATIVE_AVAILABLE:
        return "MORRIS_NATIVE=0: the engine runs its Python search, 20-25 times slower"
    why = f" ({_NATIVE_MISSING})" if _NATIVE_MISSING else ""
    return (
        f"the engine's C search is not built{why}: it runs 20-25 times slower. Fix: "
        "apt install build-essential python3-dev, then reinstall morris from its source "
        "(pip install --force-reinstall --no-deps .; docs/INSTALL.md)"
    )


logger = logging.getLogger(__name__)

#: The score of a won game at the root; a win in ``n`` turns scores ``MATE - n``.
MATE: Final = 100_000
#: Scores beyond this (in absolute value) are wins or losses, not evaluations.
MATE_BOUND: Final = MATE - 1_000
_INF: Final = 1_000_000
_TT_MAX: Final = 1_500_000
_EXACT, _LOWER, _UPPER = 0, 1, 2
#: The solution's answers kept (:meth:`Search.table_value`; the engine keeps them from one turn
#: to the next, since each costs microseconds and the same positions come again): about 16 MB
#: at most.
_SOLVED_MAX: Final = 1 << 17
#: The C search's cache of the solution's decompressed blocks (:func:`native_sectors`), as the
#: solution's own (solution/probe.py, CACHE_BYTES): 8 MB, for the daemon on a Pi Zero 2 W.
SECTORS_CACHE_BYTES: Final = 8 << 20
#: The solution's sectors are asked only this many plies or more from the horizon (the tables,
#: in memory, everywhere): a probe that decompresses a block costs 45-60 us against 0.25 us a
#: node, and most nodes are leaves (as chess engines probe their tablebases from a depth on).
SECTOR_DEPTH: Final = 1
#: Endgame-table values for the side to move, as the C search's probe callback returns them.
_DRAW, _WIN, _LOSS = 0, 1, 2
#: Within this many turns of the no-removal limit, the count becomes part of the hash key.
_NEAR_LIMIT: Final = 48
#: Late-move reduction: from this depth, the quiet turns after this many (killers excepted) are
#: searched a ply shallower first.
_REDUCE_DEPTH: Final = 3
_REDUCE_AFTER: Final = 4
#: ... and while either side still places, shallower the deeper the search and the later the
#: turn: _REDUCE_BASE + ln(depth) * ln(turn's index) / _REDUCE_DIV plies (in hundredths),
#: at least one, and a ply left to search (docs/ENGINE.md, "Deeper while placing").
_REDUCE_BASE: Final = 75
_REDUCE_DIV: Final = 200
#: The reduction table's size in depths and in turns (deeper or later: the last row, column).
_REDUCE_SPAN: Final = 64


def placing_reductions(base: int, div: int) -> tuple[tuple[int, ...], ...]:
    """The plies a late placement is reduced by, by depth and turn index, as search.c computes
    them (the same double arithmetic, so both searches reduce alike)."""
    return tuple(
        tuple(
            int(base / 100 + math.log(d) * math.log(k) / (div / 100)) if d and k else 0
            for k in range(_REDUCE_SPAN)
        )
        for d in range(_REDUCE_SPAN)
    )


_PLACING_REDUCTIONS: Final = placing_reductions(_REDUCE_BASE, _REDUCE_DIV)
#: The static order of quiet placements (:meth:`Search._placing_order`): a line blocked, a new
#: two of ours (and 1 for each link of the point).
_ORDER_BLOCK: Final = 16
_ORDER_TWO: Final = 4
#: The static order of mill turns (:meth:`Search._removal_order`): each open two of the
#: opponent's the removal breaks (and 1 for each free step the removed piece had).
_ORDER_TAKE_TWO: Final = 8


#: Mixers of the barred returns into the transposition table's key (odd, so no two small codes
#: collide; the C search multiplies the same way, modulo 2**64).
_BAR_MIX_US: Final = 0x9E37_79B9_7F4A_7C15
_BAR_MIX_THEM: Final = 0xC2B2_AE3D_27D4_EB4F
_MASK64: Final = (1 << 64) - 1


def bar_key(bar: int, obar: int) -> int:
    """What the barred returns of the side to move and of the other add to a table key."""
    return (bar * _BAR_MIX_US ^ obar * _BAR_MIX_THEM) & _MASK64


def _configure_native() -> None:
    """Give the C search the constants of this module, movegen.py, evaluate.py and the points:
    morris/engine/native/search.c has no copies of its own."""
    _native.configure(
        points=NUM_POINTS, all_points=ALL_POINTS, none=NONE, move_space=MOVE_SPACE,
        bar_mix_us=_BAR_MIX_US, bar_mix_them=_BAR_MIX_THEM,
        mate=MATE, mate_bound=MATE_BOUND, inf=_INF, max_depth=MAX_DEPTH,
        near_limit=_NEAR_LIMIT, tt_max=_TT_MAX, exact=_EXACT, lower=_LOWER, upper=_UPPER,
        draw=_DRAW, win=_WIN, loss=_LOSS, reduce_depth=_REDUCE_DEPTH,
        reduce_after=_REDUCE_AFTER, reduce_base=_REDUCE_BASE, reduce_div=_REDUCE_DIV,
        reduce_span=_REDUCE_SPAN, order_block=_ORDER_BLOCK, order_two=_ORDER_TWO,
        order_take_two=_ORDER_TAKE_TWO, sector_depth=SECTOR_DEPTH,
        piece=PIECE, **asdict(WEIGHTS),
    )  # fmt: skip


if _native is not None:
    _configure_native()


class _Abort(Exception):
    """Raised inside the search when the node budget, the time cap or ``stop()`` ends it."""


def _zobrist(rules: Rules) -> tuple[list[list[int]], list[list[int]], int, list[int]]:
    rng = random.Random(0x5EED_0F_B0A2D)
    pieces = [[rng.getrandbits(64) for _ in range(24)] for _ in range(2)]
    hands = [[rng.getrandbits(64) for _ in range(rules.pieces_per_side + 1)] for _ in range(2)]
    side = rng.getrandbits(64)
    limit = rules.no_removal_limit or 0
    counts = [rng.getrandbits(64) for _ in range(limit + 2)]
    return pieces, hands, side, counts


def solved_draw_score(evaluation: int, band: int) -> int:
    """What a position the tables or the solution call drawn adds to the draw's value, given
    the evaluation of it for the side to move: a quarter of it, within plus or minus ``band``
    (Weights.solved_draw), so that every solved draw stays below a solved win and above a solved
    loss, and among draws the search still prefers the one the evaluation likes."""
    return max(-band, min(band, evaluation // 4))


def _table_result(res: Result) -> tuple[int, int]:
    """A table's or the solution's result as the search's (value, distance in turns)."""
    value = res.value
    code = _DRAW if value is Value.DRAW else _WIN if value is Value.WIN else _LOSS
    return code, res.distance or 0


def native_sectors(solution: Solution, cache_bytes: int = SECTORS_CACHE_BYTES) -> _native.Sectors:
    """The solution's moving-phase sectors as the C search reads them itself
    (``morris/engine/native/sectors.c``): the entry of a position computed in C and read from a
    cache of ``cache_bytes`` of decompressed blocks, the solution asked only for a block the
    cache does not hold (:meth:`~morris.engine.solution.Solution.distance_block`). A probe that
    hits the cache costs a fraction of a microsecond; the Python probe, several
    (docs/ENGINE.md, "The solved game inside the search"). Needs the C search built."""
    from morris.engine.solution.symmetry import IMAGES, index_of_key

    if _native is None:
        raise RuntimeError("the C search (morris.engine._native) is not built")
    keys = [k for k in solution.keys if not k.placing]
    shapes = []
    for k in keys:
        index = index_of_key(k)
        section = solution.data(k).dist_section
        shapes.append(
            (
                k.mover_on,
                k.other_on,
                _representatives_bytes(k.mover_on),
                index.block,
                section.entries,
                section.block,
                section.dtype.itemsize,
            )
        )

    def fetch(i: int, b: int) -> object:
        return solution.distance_block(keys[i], b)

    return _native.Sectors(
        images=IMAGES.astype("=u4").tobytes(),
        sectors=shapes,
        fetch=fetch,
        cache_bytes=cache_bytes,
    )


@functools.cache
def _representatives_bytes(size: int) -> bytes:
    """The canonical sets of ``size`` points as the C search takes them (native uint32)."""
    from morris.engine.solution.symmetry import representatives

    return representatives(size).astype("=u4").tobytes()


def _table_cover(
    rules: Rules, tables: EndgameTables | None, solution: Solution | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Which moving-phase positions the tables answer, and which only the solution does, by
    the pieces of the side to move and of the other: entry ``m`` has bit ``o`` set for ``m``
    against ``o``. The search calls :meth:`Search.table_value` only there (from C a call into
    Python, too dear to make at every node with few pieces), and where only the solution
    answers, only :data:`SECTOR_DEPTH` plies or more from the horizon."""
    tables_cover = [0] * (NUM_POINTS + 1)
    for k in tables.keys if tables is not None else ():
        if k.flying == rules.flying:
            tables_cover[k.mover] |= 1 << k.other
    sector_cover = [0] * (NUM_POINTS + 1)
    for m, o in solution.moving_sectors() if solution is not None else ():
        if not tables_cover[m] >> o & 1:
            sector_cover[m] |= 1 << o
    return tuple(tables_cover), tuple(sector_cover)


class Search:
    """One search: the position of the root, the tables of the search and its budget."""

    def __init__(
        self,
        board: Board,
        *,
        tables: EndgameTables | None,
        node_limit: int | None,
        deadline: float | None,
        clock: Callable[[], float],
        stop: Callable[[], bool] | None,
        native: bool = False,
        weights: Weights | None = None,
        solution: Solution | None = None,
        solved: dict[tuple[int, int], tuple[int, int] | None] | None = None,
        sectors: _native.Sectors | None = None,
    ) -> None:
        # The search plays by the rules data alone (refusing a board that is more than its data).
        self.rules = rules = engine_rules(board)
        self.weights = weights = weights_for(rules) if weights is None else weights
        self.evaluate = make_evaluator(rules, weights)
        self.contempt = weights.contempt
        self.placing_reductions = weights.placing_reductions
        self.solved_draw = weights.solved_draw
        self.links = tuple(n.bit_count() for n in rules.neighbours)
        # Tables built for another board than this variant's are not asked (the search goes on).
        self.tables = tables if tables is not None and tables.supports(rules) else None
        # The solution's moving-phase sectors are asked after the tables (the caller gives a
        # solution only under its rules: solution.play.solved_rules).
        self.solution = solution
        self.table_cover, self.sector_cover = _table_cover(rules, self.tables, solution)
        # The solution's answers by position (a search meets the same few thousand again and
        # again, and each costs microseconds), emptied when full: ``solved``, the caller's (the
        # engine keeps them for the next turn), or the search's own.
        self._solved = {} if solved is None else solved
        self.node_limit = node_limit
        self.deadline = deadline
        self.clock = clock
        self.stop = stop
        self.nodes = 0
        self.check_at = 0
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.history = [0] * MOVE_SPACE
        self.killers = [[-1, -1] for _ in range(MAX_DEPTH + 2)]
        self.zp, self.zh, self.zside, self.zn = _zobrist(rules)
        turn = board.turn
        self.color = int(turn)
        self.us = board.occupied_co(turn)
        self.them = board.occupied_co(not turn)
        self.uh = board.pieces_in_hand(turn)
        self.th = board.pieces_in_hand(not turn)
        self.nrc = board.no_removal_count
        # Morabaraba: the returns barred for the side to move and the other (bar_code, 0: none).
        self.bar = board_bar(board, turn)
        self.obar = board_bar(board, not turn)
        self.key = self._key(self.us, self.them, self.uh, self.th, self.color)
        self.path = self._history(board)
        self.root_index = len(self.path) - 1
        self._check_every = 256 if deadline is not None else 1024
        self._schedule()
        self.core: _native.Core | None = None
        if native:
            if _native is None:
                raise RuntimeError("the C search (morris.engine._native) is not built")
            # The sectors only the solution answers are read by C itself (``sectors``, the
            # caller's, whose cache serves every turn, or the search's own).
            if not any(self.sector_cover):
                sectors = None
            elif sectors is None:
                assert solution is not None  # a sector is covered
                sectors = native_sectors(solution)
            self.core = _native.Core(
                neighbours=rules.neighbours,
                mill_masks=rules.mill_masks,
                mills_through=rules.mills_through,
                layers=point_layers(rules.neighbours),
                pieces_per_side=rules.pieces_per_side,
                flying=rules.flying,
                threefold=rules.threefold_repetition,
                limit=-1 if rules.no_removal_limit is None else rules.no_removal_limit,
                full_board_is_draw=rules.full_board_is_draw,
                return_mill_barred=rules.return_mill_barred,
                zp=self.zp,
                zh=self.zh,
                zside=self.zside,
                zn=self.zn,
                path=self.path,
                root_index=self.root_index,
                check=self._native_check,
                probe=self.table_value if any(self.table_cover + self.sector_cover) else None,
                table_cover=self.table_cover,
                sector_cover=self.sector_cover,
                sectors=sectors,
                # A hint: the table grows as needed, like the Python one (a dict), to at most
                # _TT_MAX entries; clamped here too, since a C ssize_t is 32 bits on a 32-bit Pi
                # and a node budget of 2**31 or more would not fit it.
                tt_size=4096 if node_limit is None else min(node_limit, _TT_MAX),
                in_play=rules.points_in_play,
                move_while_placing=rules.move_while_placing,
                remove_from_mills=rules.remove_from_mills,
                double_mill_removes_two=rules.double_mill_removes_two,
                weights=astuple(weights),
            )

    def _native_check(self, nodes: int) -> int:
        """The C search's call at ``check_at`` nodes: raises :class:`_Abort` or says when next."""
        self.nodes = nodes
        self.check()
        return self.check_at

    def _probed_here(self, us: int, them: int, depth: int) -> bool:
        """Whether :meth:`table_value` answers this moving-phase position (:func:`_table_cover`):
        the tables at any depth, the sectors only :data:`SECTOR_DEPTH` plies from the horizon
        on. The C search's twin is probed_here()."""
        m, o = us.bit_count(), them.bit_count()
        if self.table_cover[m] >> o & 1:
            return True
        return depth >= SECTOR_DEPTH and bool(self.sector_cover[m] >> o & 1)

    def table_value(self, us: int, them: int, c: int) -> tuple[int, int] | None:
        """The value for the side to move (:data:`_DRAW`, :data:`_WIN` or :data:`_LOSS`) and the
        distance in turns of a moving-phase position by the endgame tables, else by the solved
        game's sectors; None where neither has an answer. The Python search and the C one (as
        its callback) both ask here."""
        if self.tables is not None:
            flying = self.rules.flying
            if c:
                res = self.tables.probe(us, them, True, flying)
            else:
                res = self.tables.probe(them, us, False, flying)
            if res is not None:
                return _table_result(res)
        if self.solution is None:
            return None
        solved = self._solved
        position = (us, them)
        if position in solved:
            return solved[position]
        try:
            res = self.solution.probe_moving(us, them)
        except SolutionError:  # a damaged block: the solution has dropped its file (logged)
            res = None
        found = None if res is None else _table_result(res)
        if len(solved) >= _SOLVED_MAX:
            solved.clear()
        solved[position] = found
        return found

    def release(self) -> None:
        """Free the C search's tables at once (up to 64 MB) rather than when the garbage
        collector finds them (the core's callbacks are this object's methods: a cycle)."""
        if self.core is not None:
            self.core.release()
            self.core = None

    def tt_entry(self, key: int) -> tuple[int, int, int, int] | None:
        """The transposition table's (depth, flag, score, move) for ``key``, or None."""
        if self.core is not None:
            return self.core.tt_get(key)
        return self.tt.get(key)

    # -- keys and history -------------------------------------------------------------------

    def _key(self, us: int, them: int, uh: int, th: int, c: int) -> int:
        key = self.zh[c][uh] ^ self.zh[1 - c][th] ^ (self.zside if c else 0)
        for p in range(24):
            if us >> p & 1:
                key ^= self.zp[c][p]
            elif them >> p & 1:
                key ^= self.zp[1 - c][p]
        return key

    def _history(self, board: Board) -> list[int]:
        """Keys of the positions since the last irreversible turn, oldest first, root last."""
        occ = {True: board.occupied_co(True), False: board.occupied_co(False)}
        hand = {True: board.pieces_in_hand(True), False: board.pieces_in_hand(False)}
        keys = [self.key]
        mover = not board.turn
        for move in reversed(board.move_stack):
            if move.from_point is None or move.remove is not None:
                break
            occ[mover] ^= 1 << move.from_point | 1 << move.to_point
            c = int(mover)
            keys.append(self._key(occ[mover], occ[not mover], hand[mover], hand[not mover], c))
            mover = not mover
        keys.reverse()
        return keys

    # -- budget -----------------------------------------------------------------------------

    def _schedule(self) -> None:
        self.check_at = self.nodes + self._check_every
        if self.node_limit is not None:
            self.check_at = min(self.check_at, self.node_limit)

    def check(self) -> None:
        """End the search (raise :class:`_Abort`) if a budget is spent or a stop was asked."""
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _Abort
        if self.stop is not None and self.stop():
            raise _Abort
        if self.deadline is not None and self.clock() >= self.deadline:
            raise _Abort
        self._schedule()

    def is_spent(self) -> bool:
        """Whether a budget is spent or a stop was asked (:meth:`check`, without raising)."""
        try:
            self.check()
        except _Abort:
            return True
        return False

    def search_depth(
        self, moves: list[int], depth: int, margin: int
    ) -> tuple[dict[int, int], int, int, bool]:
        """One depth of iterative deepening over the root's ``moves``, in their order: the
        score of each move searched, the best move (-1 before the first is done) and its score,
        and whether the depth was completed before a budget ended it. With a ``margin`` (a level
        that picks among near-best turns) every move gets an exact score; without, the moves
        after the first are tried in a null window."""
        scores: dict[int, int] = {}
        alpha = -_INF
        best, best_score = -1, -_INF
        try:
            for i, mv in enumerate(moves):
                if margin or i == 0:
                    s = self.search_root_move(mv, depth, -_INF, _INF)
                else:
                    s = self.search_root_move(mv, depth, alpha, alpha + 1)
                    if s > alpha:
                        s = self.search_root_move(mv, depth, alpha, _INF)
                scores[mv] = s
                if s > best_score:
                    best, best_score = mv, s
                    alpha = max(alpha, s)
        except _Abort:
            return scores, best, best_score, False
        return scores, best, best_score, True

    # -- the search -------------------------------------------------------------------------

    def negamax(
        self,
        us: int,
        them: int,
        uh: int,
        th: int,
        c: int,
        key: int,
        nrc: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        rep_start: int,
        bar: int = 0,
        obar: int = 0,
    ) -> int:
        """The score of the position for the side to move (fail-soft alpha-beta); ``bar`` and
        ``obar`` are the barred returns of the side to move and of the other (Morabaraba)."""
        self.nodes += 1
        if self.nodes >= self.check_at:
            self.check()
        rules = self.rules
        limit = rules.no_removal_limit
        path = self.path
        # A draw's value for the side to move: the engine's (at even plies) is -contempt.
        drawn = self.contempt if ply & 1 else -self.contempt
        # Draws. A side to move that is blocked has lost even then (losses are checked first).
        if rules.full_board_is_draw and not uh and not th and us | them == rules.points_in_play:
            return drawn
        draw = limit is not None and nrc >= limit
        if not draw and rules.threefold_repetition:
            i = len(path) - 3
            if i >= rep_start:
                seen_before_root = 0
                root_index = self.root_index
                while i >= rep_start:
                    if path[i] == key:
                        if i > root_index:
                            draw = True  # repeated inside the search: the repeater can force it
                            break
                        seen_before_root += 1
                        if seen_before_root >= 2:
                            draw = True
                            break
                    i -= 2
        if draw:
            return drawn if has_moves(rules, us, them, uh, bar) else -(MATE - ply)
        # Endgame tables and the solved game's sectors: exact, unless the no-removal limit
        # could come first.
        if not uh and not th and self._probed_here(us, them, depth):
            found = self.table_value(us, them, c)
            if found is not None:
                value, dist = found
                if value == _DRAW:
                    band = self.solved_draw
                    if band:
                        return drawn + solved_draw_score(self.evaluate(us, them, 0, 0), band)
                    return drawn
                if limit is None or nrc + dist < limit:
                    return MATE - ply - dist if value == _WIN else -(MATE - ply - dist)
        if depth <= 0:
            if not has_moves(rules, us, them, uh, bar):
                return -(MATE - ply)
            return self.evaluate(us, them, uh, th)
        # Transposition table. A barred return changes the turns, so it is hashed in here (but
        # not in the repetition keys: the core's repetition compares pieces, side and hands).
        tkey = key if limit is None or nrc < limit - _NEAR_LIMIT else key ^ self.zn[nrc]
        if bar or obar:
            tkey ^= bar_key(bar, obar)
        entry = self.tt.get(tkey)
        tt_move = -1
        if entry is not None:
            e_depth, e_flag, e_score, tt_move = entry
            if e_depth >= depth:
                if e_score > MATE_BOUND:
                    e_score -= ply
                elif e_score < -MATE_BOUND:
                    e_score += ply
                if e_flag == _EXACT:
                    return e_score
                if e_flag == _LOWER:
                    if e_score >= beta:
                        return e_score
                elif e_score <= alpha:
                    return e_score
        mills, quiet = generate(rules, us, them, uh, bar)
        if not mills and not quiet:
            return -(MATE - ply)
        history = self.history
        killers = self.killers[ply]
        if len(quiet) > 1:
            if uh:
                quiet.sort(key=self._placing_order(us, them), reverse=True)
            else:
                quiet.sort(key=history.__getitem__, reverse=True)
            for k in (killers[1], killers[0]):
                if k >= 0 and k in quiet:
                    quiet.remove(k)
                    quiet.insert(0, k)
        # Mill turns by a static order: the history table holds quiet turns only.
        if len(mills) > 1:
            mills.sort(key=self._removal_order(us, them), reverse=True)
        moves = mills + quiet if mills else quiet
        if tt_move >= 0 and tt_move != moves[0] and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        n_mills = len(mills)
        zp_us = self.zp[c]
        zp_them = self.zp[1 - c]
        zh_us = self.zh[c]
        zside = self.zside
        nc = 1 - c
        best = -_INF
        best_move = moves[0]
        orig_alpha = alpha
        negamax = self.negamax
        th_left = them.bit_count() + th
        barring = rules.return_mill_barred
        nbar = 0
        for i, mv in enumerate(moves):
            frm = mv & 31
            to = mv >> 5 & 31
            rem = mv >> 10 & 31
            second = mv >> SECOND_SHIFT  # the second removal plus one, 0 for none
            if frm == NONE:
                nus = us | 1 << to
                nuh = uh - 1
                nkey = key ^ zp_us[to] ^ zh_us[uh] ^ zh_us[nuh] ^ zside
                nnrc = nrc
                irreversible = True
            else:
                nus = us ^ (1 << frm | 1 << to)
                nuh = uh
                nkey = key ^ zp_us[frm] ^ zp_us[to] ^ zside
                nnrc = nrc + 1
                irreversible = False
            if rem != NONE:
                if th_left <= (4 if second else 3):
                    # The opponent is down to two pieces: won at once, nothing can be better.
                    score = MATE - ply - 1
                    best = score
                    best_move = mv
                    break
                nthem = them & ~(1 << rem)
                nkey ^= zp_them[rem]
                if second:
                    nthem &= ~(1 << (second - 1))
                    nkey ^= zp_them[second - 1]
                nnrc = 0
                irreversible = True
            else:
                nthem = them
            if barring:
                nbar = next_bar(rules, us, frm, to, nus)
            path.append(nkey)
            nrs = len(path) - 1 if irreversible else rep_start
            if i == 0:
                score = -negamax(
                    nthem, nus, th, nuh, nc, nkey, nnrc, depth - 1, -beta, -alpha, ply + 1, nrs,
                    obar, nbar,
                )  # fmt: skip
            else:
                r = (
                    1
                    if depth >= _REDUCE_DEPTH
                    and i >= _REDUCE_AFTER
                    and i >= n_mills
                    and mv not in killers
                    else 0
                )
                if r and (uh or th) and self.placing_reductions:
                    late = _PLACING_REDUCTIONS[min(depth, _REDUCE_SPAN - 1)]
                    r = max(1, min(late[min(i, _REDUCE_SPAN - 1)], depth - 2))
                score = -negamax(
                    nthem, nus, th, nuh, nc, nkey, nnrc, depth - 1 - r,
                    -alpha - 1, -alpha, ply + 1, nrs, obar, nbar,
                )  # fmt: skip
                if score > alpha and r:
                    score = -negamax(
                        nthem, nus, th, nuh, nc, nkey, nnrc, depth - 1,
                        -alpha - 1, -alpha, ply + 1, nrs, obar, nbar,
                    )  # fmt: skip
                if alpha < score < beta:
                    score = -negamax(
                        nthem, nus, th, nuh, nc, nkey, nnrc, depth - 1,
                        -beta, -alpha, ply + 1, nrs, obar, nbar,
                    )  # fmt: skip
            path.pop()
            if score > best:
                best = score
                best_move = mv
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if rem == NONE:
                            history[mv] += depth * depth
                            if killers[0] != mv:
                                killers[1] = killers[0]
                                killers[0] = mv
                        break
        stored = best
        if stored > MATE_BOUND:
            stored += ply
        elif stored < -MATE_BOUND:
            stored -= ply
        flag = _UPPER if best <= orig_alpha else _LOWER if best >= beta else _EXACT
        tt = self.tt
        if len(tt) >= _TT_MAX:
            tt.clear()
        tt[tkey] = (depth, flag, stored, best_move)
        return best

    def _removal_order(self, us: int, them: int) -> Callable[[int], int]:
        """A static sort key for mill turns, higher first, by the (first) piece removed.

        Each line through it that holds two of the opponent's pieces and none of ours (an open
        two, which the removal breaks) counts :data:`_ORDER_TAKE_TWO`, and each empty neighbour
        of the piece after our turn 1 (the free steps it takes away). Against the removals in
        point order this cuts the nodes of a fixed-depth search by 6-16%, one flying endgame
        without tables aside (docs/ENGINE.md, "Removals ordered").
        """
        neighbours = self.rules.neighbours
        mills_through = self.rules.mills_through
        in_play = self.rules.points_in_play

        def order(mv: int) -> int:
            frm = mv & 31
            to = mv >> 5 & 31
            rem = mv >> 10 & 31
            nus = us | 1 << to if frm == NONE else us ^ (1 << frm | 1 << to)
            k = (neighbours[rem] & in_play & ~(nus | them)).bit_count()
            for m in mills_through[rem]:
                if not nus & m and (them & m).bit_count() == 2:
                    k += _ORDER_TAKE_TWO
            return k

        return order

    def _placing_order(self, us: int, them: int) -> Callable[[int], int]:
        """A static sort key for quiet placements, higher first.

        Blocking a line where the opponent has two pieces and we have none counts
        :data:`_ORDER_BLOCK`, starting a two of our own on an otherwise empty line
        :data:`_ORDER_TWO`, and each neighbour of the point 1. While
        placing this orders better than the history table, which mixes up moves from different
        parts of the tree (docs/ENGINE.md, "Tuning against Sanmill").
        """
        links = self.links
        mills_through = self.rules.mills_through

        def order(mv: int) -> int:
            to = mv >> 5 & 31
            k = links[to]
            for m in mills_through[to]:
                a = us & m
                b = them & m
                if not a and b.bit_count() == 2:
                    k += _ORDER_BLOCK
                elif not b and a.bit_count() == 1:
                    k += _ORDER_TWO
            return k

        return order

    def child(self, mv: int) -> tuple[int, int, int, int, int, int, int, bool, bool, int]:
        """The child of the root after ``mv``: its state, whether it is irreversible, whether
        the turn wins at once (the opponent is left with two pieces) and the return it bars."""
        us, them, uh, th, c, key, nrc = (
            self.us, self.them, self.uh, self.th, self.color, self.key, self.nrc,
        )  # fmt: skip
        frm, to, rem, second = mv & 31, mv >> 5 & 31, mv >> 10 & 31, mv >> SECOND_SHIFT
        if frm == NONE:
            nus, nuh = us | 1 << to, uh - 1
            key ^= self.zp[c][to] ^ self.zh[c][uh] ^ self.zh[c][nuh] ^ self.zside
            irreversible = True
        else:
            nus, nuh = us ^ (1 << frm | 1 << to), uh
            key ^= self.zp[c][frm] ^ self.zp[c][to] ^ self.zside
            nrc += 1
            irreversible = False
        nthem = them
        wins = False
        if rem != NONE:
            nthem = them & ~(1 << rem)
            key ^= self.zp[1 - c][rem]
            if second:
                nthem &= ~(1 << (second - 1))
                key ^= self.zp[1 - c][second - 1]
            nrc = 0
            irreversible = True
            wins = nthem.bit_count() + th < 3
        bar = next_bar(self.rules, us, frm, to, nus)
        return nthem, nus, th, nuh, key, nrc, 1 - c, irreversible, wins, bar

    def search_root_move(self, mv: int, depth: int, alpha: int, beta: int) -> int:
        """The score of root move ``mv`` searched ``depth`` turns deep in the window."""
        nthem, nus, th, nuh, key, nrc, nc, irreversible, wins, bar = self.child(mv)
        if wins:
            return MATE - 1
        core = self.core
        if core is not None:
            core.nodes = self.nodes
            core.check_at = self.check_at
            try:
                return core.root_move(
                    nthem, nus, th, nuh, nc, key, nrc, depth - 1, -beta, -alpha, irreversible,
                    self.obar, bar,
                )  # fmt: skip
            finally:
                self.nodes = core.nodes
                self.check_at = core.check_at
        self.path.append(key)
        rep_start = len(self.path) - 1 if irreversible else 0
        score = -self.negamax(
            nthem, nus, th, nuh, nc, key, nrc, depth - 1, -beta, -alpha, 1, rep_start,
            self.obar, bar,
        )  # fmt: skip
        self.path.pop()
        return score

    def pv(self, first: int, limit: int) -> list[int]:
        """The principal variation from the transposition table, starting with ``first``."""
        line = [first]
        nthem, nus, th2, nuh, key, _, nc, _, wins, nbar = self.child(first)
        us, them, uh, th, c, bar, obar = nthem, nus, th2, nuh, nc, self.obar, nbar
        seen = {key}
        while len(line) < limit and not wins:
            entry = self.tt_entry(key ^ bar_key(bar, obar) if bar or obar else key)
            if entry is None:
                break
            mv = entry[3]
            mills, quiet = generate(self.rules, us, them, uh, bar)
            if mv not in mills and mv not in quiet:
                break
            line.append(mv)
            before = us
            frm, to, rem, second = mv & 31, mv >> 5 & 31, mv >> 10 & 31, mv >> SECOND_SHIFT
            if frm == NONE:
                key ^= self.zp[c][to] ^ self.zh[c][uh] ^ self.zh[c][uh - 1] ^ self.zside
                us, uh = us | 1 << to, uh - 1
            else:
                key ^= self.zp[c][frm] ^ self.zp[c][to] ^ self.zside
                us ^= 1 << frm | 1 << to
            if rem != NONE:
                key ^= self.zp[1 - c][rem]
                them &= ~(1 << rem)
                if second:
                    key ^= self.zp[1 - c][second - 1]
                    them &= ~(1 << (second - 1))
                wins = them.bit_count() + th < 3
            nbar = next_bar(self.rules, before, frm, to, us)
            us, them, uh, th, c, bar, obar = them, us, th, uh, 1 - c, obar, nbar
            if key in seen:
                break
            seen.add(key)
        return line


__all__ = [
    "MATE",
    "MATE_BOUND",
    "NATIVE_AVAILABLE",
    "Search",
    "bar_key",
    "native_enabled",
    "native_warning",
]
