"""The C inner loop (``morris/engine/_native.c``) plays exactly as the Python search.

A level is a node budget, so a level must play the same move with or without the C search; only
the speed may differ. Every test here runs a search both ways and compares what a player sees
(the move, its removal) and what decides it (score, depth, node count, principal variation), on
positions of the strong games, of random play, of the endgame tables, of twelve men's morris, with
flying off, near the no-removal limit and with repetitions in the history.
"""

from __future__ import annotations

import gc
import os
import random
import threading
import tracemalloc
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from morris import Board, TwelveMensMorris
from morris.core.points import ALL_POINTS, NEIGHBOURS
from morris.core.variant import engine_rules
from morris.engine import search
from morris.engine.engine import Engine, SearchResult
from morris.engine.evaluate import PIECE, WEIGHTS, make_evaluator
from morris.engine.levels import MAX_LEVEL
from morris.engine.movegen import NONE, encode, generate
from morris.engine.search import NATIVE_AVAILABLE
from tests.engine.helpers import position, random_board, sampled_position

STRONG_GAMES = Path(__file__).resolve().parents[1] / "data" / "strong-games.txt"

if not NATIVE_AVAILABLE:
    # The product works without it (the Python search), so on a machine without a C compiler the
    # suite still runs; CI (.ci/run) installs the compiler and sets MORRIS_REQUIRE_NATIVE=1.
    _WHY = (
        "morris.engine._native is not built: `pip install -e .` builds it where there is a C "
        "compiler and the Python headers (apt install build-essential python3-dev)"
    )
    if os.environ.get("MORRIS_REQUIRE_NATIVE") == "1":
        pytest.fail(_WHY, pytrace=False)
    pytest.skip(_WHY, allow_module_level=True)

from morris.engine import _native  # noqa: E402


def _seen(result: SearchResult) -> tuple[object, ...]:
    return (str(result.move), result.score, result.depth, result.nodes, [str(m) for m in result.pv])


def _both(board: Board, level: int, **kwargs: object) -> tuple[SearchResult, SearchResult]:
    tables = kwargs.pop("tables", None)
    py = Engine(level, seed=5, native=False, tables=tables).play(board, **kwargs)  # type: ignore[arg-type]
    c = Engine(level, seed=5, native=True, tables=tables).play(board, **kwargs)  # type: ignore[arg-type]
    return py, c


def _strong_positions(every: int) -> list[Board]:
    boards = []
    for line in STRONG_GAMES.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        turns = line.split()[2:]
        board = Board()
        for i, turn in enumerate(turns):
            if i % every == 3 and not board.is_game_over():
                boards.append(board.copy())
            board.push_notation(turn)
    return boards


def test_a_node_budget_beyond_any_c_integer_is_searched_as_in_python() -> None:
    """A node budget is no C integer: on a 32-bit Pi 2**31 nodes did not fit the C search's
    ssize_t ("Python int too large to convert to C ssize_t"), and 2**70 fits none anywhere."""
    for nodes in (2**31, 2**70):
        py, c = _both(Board(), 6, depth=3, nodes=nodes)
        assert _seen(py) == _seen(c) and c.depth == 3


def test_the_strong_games_get_the_same_moves_and_node_counts() -> None:
    boards = _strong_positions(every=9)
    assert len(boards) > 100
    for board in boards[::3]:
        py, c = _both(board, 6)
        assert _seen(py) == _seen(c), board.position()


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5, 7])
def test_every_level_plays_the_same_move(level: int) -> None:
    boards = _strong_positions(every=13)[:25]
    for board in boards:
        py, c = _both(board, level)
        assert _seen(py) == _seen(c), (level, board.position())


@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 120), flying=st.booleans())
def test_random_positions_the_same(seed: int, plies: int, flying: bool) -> None:
    board = random_board(seed, plies, flying=flying)
    if board.is_game_over():
        return
    py, c = _both(board, 6, nodes=4000)
    assert _seen(py) == _seen(c), board.position()


@settings(max_examples=15, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 60))
def test_twelve_mens_morris_the_same(seed: int, plies: int) -> None:
    board = random_board(seed, plies, TwelveMensMorris)
    if board.is_game_over():
        return
    py, c = _both(board, 6, nodes=4000)
    assert _seen(py) == _seen(c), board.position()


def test_the_no_removal_count_near_its_limit_the_same() -> None:
    # The count enters the hash key within 48 turns of the limit, and the limit ends the game.
    for count in (50, 60, 90, 97, 99):
        board = position("a7 d7 g4 b2 f4 c3", "c5 e3 f2 d1 g1 a1", no_removal=count)
        py, c = _both(board, 6, depth=7)
        assert _seen(py) == _seen(c), count


def test_repetitions_before_the_root_the_same() -> None:
    board = position("a7 d7 g4 b2 f4 c3", "c5 e3 f2 d1 g1 a1", no_removal=10)
    for turn in ["b2-b4", "e3-e4", "b4-b2", "e4-e3", "b2-b4", "e3-e4", "b4-b2"]:
        board.push_notation(turn)
    py, c = _both(board, 6, depth=6)
    assert _seen(py) == _seen(c)


def test_a_stop_and_a_clock_cut_the_search_at_the_same_node() -> None:
    board = _strong_positions(every=9)[40]
    polls = {"py": 0, "c": 0}

    def stopper(name: str) -> Callable[[], bool]:
        def stop() -> bool:
            polls[name] += 1
            return polls[name] > 7

        return stop

    py = Engine(9, native=False).play(board, stop=stopper("py"))
    c = Engine(9, native=True).play(board, stop=stopper("c"))
    assert _seen(py) == _seen(c)
    assert py.nodes <= 8 * 1024 + 1

    ticks = {"py": 0.0, "c": 0.0}

    def clock(name: str) -> Callable[[], float]:
        def now() -> float:
            ticks[name] += 0.01
            return ticks[name]

        return now

    py = Engine(9, native=False, clock=clock("py")).play(board, movetime=0.2)
    c = Engine(9, native=True, clock=clock("c")).play(board, movetime=0.2)
    assert _seen(py) == _seen(c)


@pytest.mark.slow
def test_with_endgame_tables_the_same(tables_3v3: object) -> None:
    rng = random.Random(11)
    compared = 0
    while compared < 12:
        board = sampled_position(rng, 4, 3, no_removal=rng.choice([0, 40, 95]))
        if board.is_game_over():
            continue
        py, c = _both(board, 7, tables=tables_3v3, depth=5)
        assert _seen(py) == _seen(c), board.position()
        compared += 1


def _core(board: Board) -> _native.Core:
    return search.Search(
        board, tables=None, node_limit=1000, deadline=None, clock=lambda: 0.0, stop=None,
        native=True,
    ).core  # type: ignore[return-value]  # fmt: skip


boards = st.sampled_from([Board, TwelveMensMorris])
bitboards = st.integers(0, ALL_POINTS)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(cls=boards, a=bitboards, b=bitboards, uh=st.integers(0, 12), th=st.integers(0, 12),
       flying=st.booleans())  # fmt: skip
def test_evaluation_and_turns_the_same(
    cls: type[Board], a: int, b: int, uh: int, th: int, flying: bool
) -> None:
    us, them = a & ~b, b
    board = cls(flying=flying)
    core = _core(board)
    rules = board.rules
    assert core.evaluate(us, them, uh, th) == make_evaluator(rules)(us, them, uh, th)
    assert core.generate(us, them, uh) == generate(rules, us, them, uh)


def test_the_c_search_takes_its_constants_from_the_python_source() -> None:
    # search.py configures the C search at import: one source. The weights a search evaluates
    # with (its variant's, evaluate.weights_for) are handed to its core by the Python search, so
    # a weight changed there changes the C evaluation exactly as the Python one.
    stored = _native.constants()
    assert (stored["mate"], stored["none"], stored["piece"]) == (search.MATE, NONE, PIECE)
    assert (stored["order_block"], stored["order_take_two"]) == (
        search._ORDER_BLOCK,
        search._ORDER_TAKE_TWO,
    )
    assert {k: stored[k] for k in asdict(WEIGHTS)} == asdict(WEIGHTS)
    changed = replace(
        WEIGHTS,
        open_two=21,
        open_two_per_hand=-2,
        point_link=3,
        point_cross=7,
        placing_one_exit=5,
        placing_tempo=9,
        threat=1,
        moving_blocked=33,
    )
    rng = random.Random(11)
    for cls in (Board, TwelveMensMorris):
        board = cls()
        core = search.Search(
            board, tables=None, node_limit=1000, deadline=None, clock=lambda: 0.0, stop=None,
            native=True, weights=changed,
        ).core  # fmt: skip
        assert core is not None
        evaluate = make_evaluator(engine_rules(board), changed)
        for _ in range(300):
            a, b = rng.getrandbits(24), rng.getrandbits(24)
            us, them, uh, th = a & ~b, b, rng.choice([0, 0, 3]), rng.choice([0, 0, 4])
            assert core.evaluate(us, them, uh, th) == evaluate(us, them, uh, th)
    assert _native.constants() == stored


def test_configure_refuses_what_the_c_code_cannot_hold() -> None:
    stored = _native.constants()
    with pytest.raises(ValueError, match="max_depth"):
        _native.configure(**{**stored, "max_depth": 1000})
    with pytest.raises(ValueError, match="none"):
        _native.configure(**{**stored, "none": 30})
    with pytest.raises(TypeError, match="keywords"):
        _native.configure(**{k: v for k, v in stored.items() if k != "threat"})
    assert _native.constants() == stored


def test_bad_input_is_refused_with_a_reason() -> None:
    core = _core(Board())
    with pytest.raises(ValueError, match="not a position"):
        core.root_move(1, 1, 0, 0, 0, 0, 0, 3, -100, 100, False)  # a point taken twice
    with pytest.raises(ValueError, match="not a position"):
        core.root_move(1 << 24, 0, 0, 0, 0, 0, 0, 3, -100, 100, False)  # no 25th point
    with pytest.raises(RuntimeError, match="already initialised"):
        core.__init__(  # type: ignore[misc]
            neighbours=Board.neighbours, mill_masks=Board.mill_masks,
            mills_through=Board.mills_through, layers=[], pieces_per_side=9, flying=True,
            threefold=True, limit=100, full_board_is_draw=False, zp=[[0] * 24] * 2,
            zh=[[0] * 10] * 2, zside=0, zn=[0] * 102, path=[], root_index=0,
            check=lambda n: n + 1, probe=None, table_cover=(), tt_size=10,
        )  # fmt: skip
    with pytest.raises(ValueError, match="neighbours"):
        _native.Core(
            neighbours=[1 << 25] * 24, mill_masks=Board.mill_masks,
            mills_through=Board.mills_through, layers=[], pieces_per_side=9, flying=True,
            threefold=True, limit=100, full_board_is_draw=False, zp=[[0] * 24] * 2,
            zh=[[0] * 10] * 2, zside=0, zn=[0] * 102, path=[], root_index=0,
            check=lambda n: n + 1, probe=None, table_cover=(), tt_size=10,
        )  # fmt: skip


def test_morris_native_0_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MORRIS_NATIVE", "0")
    assert Engine(5).native is False
    monkeypatch.setenv("MORRIS_NATIVE", "1")
    assert Engine(5).native is True  # where it is built, the default
    s = search.Search(
        Board(), tables=None, node_limit=5000, deadline=None, clock=lambda: 0.0, stop=None,
        native=True,
    )  # fmt: skip
    assert s.search_root_move(encode(Board().parse_notation("d2")), 4, -(10**6), 10**6) < 100
    assert s.core is not None and s.core.tt_entries > 0 and not s.tt  # the C search ran


def test_a_finished_search_gives_its_memory_back() -> None:
    # A search's tables are about half a megabyte here (64 MB at the top levels); a daemon plays
    # hundreds of turns. They must be freed when play() returns, without waiting for the garbage
    # collector (the C core and the Python search refer to each other).
    board = _strong_positions(every=9)[20]
    engine = Engine(9, native=True)
    engine.play(board, nodes=3000)
    gc.disable()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(8):
            engine.play(board, nodes=3000)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
        gc.enable()
    assert grown < 400_000, f"{grown} bytes kept after 8 searches"


def test_the_table_grows_like_a_dict_and_keeps_the_same_results() -> None:
    # A depth-bound search has no node budget to size its table by: it starts small and grows.
    board = _strong_positions(every=9)[5]  # early placing: 39 000 entries at depth 9
    s = search.Search(
        board, tables=None, node_limit=None, deadline=None, clock=lambda: 0.0, stop=None,
        native=True,
    )  # fmt: skip
    result = Engine(6, native=False)._iterate(s, 9, 0, random.Random(0), None, 0.0, None)
    assert s.core is not None and s.core.tt_entries > 16_384  # past its first size, twice
    py, c = _both(board, 6, depth=9)
    assert _seen(py) == _seen(c)
    assert result[0] == encode(c.move) and result[1] == c.score


# --- what the C loop's speed is for: the top level at its full budget ---------------------------


@pytest.mark.slow
@pytest.mark.parametrize("first", ["d2", "f4", "b4", "d6"])
def test_the_top_level_answers_a_cross_point_on_a_well_linked_point(first: str) -> None:
    """Black's first piece: on a corner it has two ways out when the moving begins.

    Before the placing phase weighed well-linked points, the top level answered f4 with a1 (and,
    at 1 s a move, d2 with a7 and b4 with c5); from the empty board it lost 11 of the 12 games
    against Sanmill in which it did (docs/ENGINE.md, "From the empty board").
    """
    board = Board()
    board.push_notation(first)
    reply = Engine(MAX_LEVEL, native=True).play(board).move
    assert NEIGHBOURS[reply.to_point].bit_count() >= 3, f"{first} answered with {reply}"


# --- the search in a thread: the daemon's board keeps its interpreter lock ---------------------


@pytest.mark.realtime
def test_the_c_search_runs_while_another_python_thread_does() -> None:
    # The daemon runs the built-in engine in a thread beside the board's scanning: the C search
    # must release the interpreter lock. Here one root move is searched 15 turns deep with no
    # callback at all (about half a second, 2.6 million nodes), and this thread counts to 300 000
    # meanwhile. Holding the lock, the search would let the count go on only after it returned
    # (or for one 5 ms switch interval before it entered C, far too short to finish).
    board = Board()
    for turn in ("d6", "d2", "b4", "f4", "d7", "d1"):
        board.push_notation(turn)
    s = search.Search(
        board, tables=None, node_limit=None, deadline=None, clock=lambda: 0.0, stop=None,
        native=True,
    )  # fmt: skip
    s.check_at = 10**15  # no check() callback: the whole search is C
    first = encode(next(iter(board.legal_moves)))
    started, done = threading.Event(), threading.Event()

    def run() -> None:
        started.set()
        try:
            s.search_root_move(first, 15, -(10**6), 10**6)
        finally:
            done.set()

    worker = threading.Thread(target=run)
    worker.start()
    started.wait()
    count = 0
    for _ in range(300_000):
        count += 1
    counted_while_searching = not done.is_set()
    worker.join()
    s.release()
    assert s.nodes > 1_000_000  # the search was long
    assert counted_while_searching, "this thread could count only after the search finished"
    assert count == 300_000


def test_a_core_refuses_other_threads_while_it_searches() -> None:
    # What the lock's release allows must not let two threads share one search's tables.
    s = search.Search(
        Board(), tables=None, node_limit=5000, deadline=None, clock=lambda: 0.0, stop=None,
        native=True,
    )  # fmt: skip
    assert s.core is not None
    seen: list[str] = []

    def check(nodes: int) -> int:  # called by the C search, in the middle of root_move
        assert s.core is not None
        for call in (s.core.release, lambda: s.core.tt_get(0)):  # type: ignore[union-attr]
            try:
                call()
            except RuntimeError as exc:
                seen.append(str(exc))
        return nodes + 1024

    s.core = _native.Core(
        neighbours=Board.neighbours, mill_masks=Board.mill_masks,
        mills_through=Board.mills_through, layers=[], pieces_per_side=9, flying=True,
        threefold=True, limit=100, full_board_is_draw=False, zp=s.zp, zh=s.zh, zside=s.zside,
        zn=s.zn, path=s.path, root_index=s.root_index, check=check, probe=None, table_cover=(),
        tt_size=4096,
    )  # fmt: skip
    s.search_root_move(encode(Board().parse_notation("d2")), 7, -(10**6), 10**6)  # 10 000 nodes
    assert seen and all("a search runs on it" in text for text in seen)
    s.release()
