"""The in-process engine: tactics, draw rules, budgets, determinism and legality."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from morris import STANDARD, Board, Move, Rules, TwelveMensMorris
from morris.core.points import POINT_NAMES
from morris.engine import LEVELS, MATE, MAX_LEVEL, Engine, SearchInfo, search, win_distance
from morris.engine.evaluate import WEIGHTS
from morris.engine.movegen import generate
from morris.engine.result import Result, Value
from morris.engine.search import MATE_BOUND
from morris.engine.tables import TableKey
from tests.engine.helpers import position, sampled_position


def _has_mill_turn(board: Board) -> bool:
    return any(m.remove is not None for m in board.legal_moves)


def _forces_mill(board: Board, move: Move) -> bool:
    """After ``move``, every reply of the opponent leaves a mill-closing turn."""
    board.push(move)
    try:
        for reply in list(board.legal_moves):
            board.push(reply)
            ok = _has_mill_turn(board)
            board.pop()
            if not ok:
                return False
        return True
    finally:
        board.pop()


def test_takes_a_mill_that_is_there() -> None:
    board = position("a7 d7 g4 b2", "c5 e3 f2 d1", no_removal=3)
    result = Engine(5).play(board, depth=2)
    assert result.move.without_removal() == Move.parse("g4-g7")
    assert result.move.remove is not None


def test_finds_a_forced_mill_with_a_double_threat() -> None:
    # Placing a7 threatens both a7-d7-g7 and a7-a4-a1: black can block only one.
    board = position("d7 a4", "c3 e5", white_hand=7, black_hand=7)
    result = Engine(5).play(board, depth=3)
    assert _forces_mill(board, result.move)
    assert result.score > 50


def test_blocks_a_mill_that_would_lose_the_game() -> None:
    # White has three pieces: if black closes a7-d7-g7 with g4-g7, white is down to two.
    board = position("b2 d3 f4", "a7 d7 g4 c5 e3", turn="w")
    losing = []
    for move in board.legal_moves:
        board.push(move)
        if any(
            r.remove is not None and (board.push(r) or True) and _pop_outcome(board)
            for r in list(board.legal_moves)
        ):
            losing.append(move)
        board.pop()
    g7 = Move.parse("g7").to_point
    # Only a piece flown to g7 saves white.
    assert {m for m in board.legal_moves if m not in losing} == {
        m for m in board.legal_moves if m.to_point == g7
    }
    for level in (3, 5):  # levels 1 and 2 slip as beginners do: they may miss it
        result = Engine(level).play(board)
        assert result.move.to_point == g7


def _pop_outcome(board: Board) -> bool:
    outcome = board.outcome()
    board.pop()
    return outcome is not None and outcome.winner is not None


def test_placements_are_searched_blocks_first_then_new_twos_then_linked_points() -> None:
    # Black threatens a7-d7-g7; white has b4, so a4, c4, b6 and b2 would make a two of its own.
    board = position("b4", "a7 d7", white_hand=8, black_hand=7)
    s = search.Search(
        board, tables=None, node_limit=None, deadline=None, clock=lambda: 0.0, stop=None
    )
    mills, quiet = generate(s.rules, s.us, s.them, s.uh)
    assert not mills
    quiet.sort(key=s._placing_order(s.us, s.them), reverse=True)
    order = [POINT_NAMES[mv >> 5 & 31] for mv in quiet]
    assert order[0] == "g7"
    assert set(order[1:5]) == {"a4", "c4", "b6", "b2"}
    assert order[1:3] == ["a4", "c4"]  # three links each, against two for b6 and b2
    rest = order[5:]
    assert set(rest[:3]) == {"d6", "d2", "f4"}  # the free cross points, four links
    assert all(p in ("a1", "g1", "f6", "f2", "c5", "c3", "e5", "e3") for p in rest[-8:])


def test_mill_turns_are_searched_open_twos_broken_first_then_the_freest_piece() -> None:
    # White closes a7-d7-g7 at g7 and may take any black piece: d1 and a1 are black's open two
    # on the bottom row (g1 empty), b4 a cross point with four free steps, f2 a corner with two.
    board = position("a7 d7", "a1 d1 b4 f2", white_hand=7, black_hand=5)
    s = search.Search(
        board, tables=None, node_limit=None, deadline=None, clock=lambda: 0.0, stop=None
    )
    mills, _ = generate(s.rules, s.us, s.them, s.uh)
    assert {POINT_NAMES[mv >> 5 & 31] for mv in mills} == {"g7"}
    mills.sort(key=s._removal_order(s.us, s.them), reverse=True)
    # d1 breaks the two and had two free steps (d2, g1), a1 one (a4); then b4's four, f2's two.
    assert [POINT_NAMES[mv >> 10 & 31] for mv in mills] == ["d1", "a1", "b4", "f2"]


def test_late_placements_are_searched_shallower_the_deeper_the_search() -> None:
    table = search.placing_reductions(search._REDUCE_BASE, search._REDUCE_DIV)
    assert table[3][4] == 1  # shallow: a ply, as in the moving phase
    assert table[12][5] == 2 and table[12][20] == 4
    for d in range(1, 63):
        for k in range(1, 63):
            assert table[d][k] <= table[d + 1][k] and table[d][k] <= table[d][k + 1]


@pytest.mark.parametrize("native", [False, *([True] if search.NATIVE_AVAILABLE else [])])
def test_the_reductions_while_placing_buy_depth(native: bool) -> None:
    # The same node budget reaches further into the placing phase than with one ply's
    # reduction for every late placement (the rule before, and twelve men's morris's).
    board = position("d6 b4 f4", "d2 d7 a1", white_hand=6, black_hand=6)
    deeper = Engine(9, native=native).play(board, nodes=40_000)
    one_ply = replace(WEIGHTS, placing_reductions=0)
    before = Engine(9, native=native, weights=one_ply).play(board, nodes=40_000)
    assert deeper.depth > before.depth


def test_sees_a_win_and_reports_its_distance() -> None:
    # Black has three pieces; white closes a mill at once and wins the game.
    board = position("a7 d7 g4 b2", "c5 e3 f2", no_removal=5)
    result = Engine(5).play(board, depth=3)
    assert result.score == MATE - 1
    assert win_distance(result.score) == 1


def test_knows_the_no_removal_draw() -> None:
    # One turn before the limit and no mill in reach: every line is a draw.
    board = position("a7 d6 f4 e3", "g1 b2 c5", no_removal=99)
    assert not _has_mill_turn(board)
    result = Engine(5).play(board, depth=4)
    assert result.score == 0


def test_search_does_not_change_the_board() -> None:
    board = Board()
    for text in ("d6", "f4", "d2", "b4", "d7"):
        board.push_notation(text)
    before = (board.position(), list(board.move_stack))
    Engine(4).play(board)
    assert (board.position(), list(board.move_stack)) == before


def test_a_finished_game_raises_a_clear_error() -> None:
    board = position("a7 d7 g7", "c5 e3")
    with pytest.raises(ValueError, match="game is over"):
        Engine(3).play(board)


@pytest.mark.parametrize("level", sorted(LEVELS)[:5])
def test_same_seed_same_move(level: int) -> None:
    rng = random.Random(level)
    board = Board()
    for _ in range(12):
        board.push(rng.choice(list(board.legal_moves)))
    a = Engine(level, seed=42).play(board)
    b = Engine(level, seed=42).play(board)
    assert a.move == b.move and a.nodes == b.nodes and a.score == b.score


def test_what_was_searched_before_does_not_change_the_move() -> None:
    engine = Engine(5, seed=1)
    board = Board()
    first = engine.play(board).move
    engine.play(position("a7 d7 g4 b2", "c5 e3 f2 d1"))
    assert engine.play(board).move == first


def test_low_levels_vary_with_the_seed() -> None:
    board = Board()
    moves = {Engine(1, seed=s).play(board).move for s in range(8)}
    assert len(moves) > 1


def test_stop_ends_the_search_with_a_legal_move() -> None:
    board = Board()
    result = Engine(MAX_LEVEL).play(board, stop=lambda: True)
    assert result.move in board.legal_moves
    assert result.nodes <= 1100


def test_stop_later_keeps_the_last_completed_depth() -> None:
    calls = itertools.count()
    board = Board()
    infos: list[SearchInfo] = []
    result = Engine(MAX_LEVEL).play(board, stop=lambda: next(calls) > 40, info=infos.append)
    assert result.move in board.legal_moves
    assert infos and result.depth >= infos[-1].depth


@dataclass
class FakeClock:
    """Virtual time: each reading advances by ``step`` seconds."""

    now: float = 0.0
    step: float = 0.001

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_movetime_caps_the_search_by_the_clock() -> None:
    clock = FakeClock()
    board = Board()
    result = Engine(MAX_LEVEL, clock=clock).play(board, movetime=0.05)
    assert result.move in board.legal_moves
    # About one clock reading per 256 nodes: 50 readings.
    assert result.nodes <= 60 * 256
    assert result.elapsed <= 0.05 + 0.01


def test_depth_and_nodes_replace_the_level_budget() -> None:
    board = Board()
    assert Engine(1).play(board, depth=3).depth == 3
    assert Engine(MAX_LEVEL).play(board, nodes=2000).nodes <= 2000 + 1


def test_plays_twelve_mens_morris() -> None:
    board = TwelveMensMorris()
    engine = Engine(3, seed=5)
    for _ in range(30):
        if board.is_game_over():
            break
        move = engine.play(board).move
        assert board.is_legal(move)
        board.push(move)


def test_without_flying_three_pieces_only_slide() -> None:
    board = position("a7 d7 b2", "c5 e3 f2 d1", flying=False)
    move = Engine(4).play(board).move
    assert move.from_point is not None
    assert Board.neighbours[move.from_point] >> move.to_point & 1


class _FakeTables:
    """Tables that say every 3v3 position is won for the side to move in 7 turns."""

    keys = (TableKey(3, 3, True),)

    def supports(self, rules: Rules) -> bool:
        return rules.same_board(STANDARD)

    def probe(self, white: int, black: int, white_to_move: bool, flying: bool) -> object:
        if white.bit_count() == 3 and black.bit_count() == 3:
            return Result(Value.WIN, 7)
        return None


def test_uses_table_scores_when_given() -> None:
    board = position("a7 d6 f4 e3", "g1 b2 c5", no_removal=10)
    result = Engine(7, tables=_FakeTables()).play(board, depth=2)  # type: ignore[arg-type]
    # A removal leads to 3v3, lost for black (the side to move there) in 7: a win in 8 at best.
    assert result.score <= MATE - 1
    assert result.score > MATE_BOUND or not any(m.remove for m in board.legal_moves)


def test_table_wins_past_the_no_removal_limit_are_not_trusted() -> None:
    board = position("a7 d7 g7", "g1 b2 c5", turn="b", no_removal=97)
    result = Engine(7, tables=_FakeTables()).play(board, depth=1)  # type: ignore[arg-type]
    assert result.score < MATE_BOUND


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 80), level=st.sampled_from([1, 2, 3, 4]))
def test_never_an_illegal_move(seed: int, plies: int, level: int) -> None:
    rng = random.Random(seed)
    board = Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    if board.is_game_over():
        return
    result = Engine(level, seed=seed).play(board, nodes=3000)
    assert board.is_legal(result.move)
    assert all(isinstance(m, Move) for m in result.pv)


@pytest.mark.slow
def test_with_real_tables_the_engine_plays_a_perfect_turn(tables_3v3: object) -> None:
    rng = random.Random(7)
    checked = 0
    while checked < 12:
        board = sampled_position(rng, 3, 3)
        if board.is_game_over():
            continue
        best = tables_3v3.best_turns(  # type: ignore[attr-defined]
            board.occupied_co(True), board.occupied_co(False), True, True
        )
        result = Engine(7, tables=tables_3v3).play(board)  # type: ignore[arg-type]
        turn = (
            result.move.from_point,
            result.move.to_point,
            result.move.remove,
        )
        # Win fastest, lose slowest, or keep the draw: one of the tables' best turns.
        assert turn in best, (board.position(), result, best)
        checked += 1
