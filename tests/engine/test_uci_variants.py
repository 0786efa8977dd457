"""The engine protocol plays every variant: the Variant option and the removal switches, a double
mill's second removal as a token of its own, refusals that leave the engine as it was, and the
endgame tables' refusal said to the peer."""

from __future__ import annotations

import sys

import pytest

from morris import Board, Move
from morris.core.variant import VARIANT_NAMES, find_variant
from morris.engine.client import UciEngine
from morris.engine.tables import EndgameTables
from morris.engine.uci import apply_tokens, move_tokens
from tests.engine.helpers import Conversation, position

#: White places on d6 and closes b6-d6-f6 and d7-d6-d5 at once; black's four pieces are free.
DOUBLE = position("b6 f6 d7 d5", "a1 g1 c3 e3", white_hand=3, black_hand=3).position()


def test_the_handshake_offers_every_variant_and_the_switches() -> None:
    answer = " ".join(Conversation().send("uci"))
    assert (
        "option name Variant type combo default standard "
        + " ".join(f"var {name}" for name in VARIANT_NAMES)
        in answer
    )
    assert "option name RemoveFromMills type check default false" in answer
    assert "option name DoubleMillRemovesTwo type check default false" in answer


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_each_variant_is_played_after_setoption(name: str) -> None:
    conv = Conversation()
    conv.send(f"setoption name Variant value {name}", "ucinewgame", "position startpos")
    board = conv.server.board
    assert type(board) is find_variant(name)
    answer = conv.send("go depth 2")
    move = Move.parse(answer[-1].split()[1])
    assert move in board.legal_moves
    # Six men's morris is played on the middle and inner squares only.
    if name == "six":
        assert board.points_in_play >> move.to_point & 1


def test_an_unknown_variant_is_refused_and_the_engine_keeps_its_game() -> None:
    conv = Conversation()
    conv.send("setoption name Variant value lasker", "position startpos moves d6 f4")
    before = conv.server.board.position()
    answer = conv.send("setoption name Variant value chess")
    assert len(answer) == 1 and answer[0].startswith("info string error")
    assert "'chess'" in answer[0] and "lasker" in answer[0] and "six" in answer[0]
    assert type(conv.server.board) is find_variant("lasker")
    assert conv.server.board.position() == before
    assert conv.server.options.variant == "lasker"


def test_a_bad_switch_value_is_refused() -> None:
    conv = Conversation()
    answer = conv.send("setoption name DoubleMillRemovesTwo value maybe")
    assert answer[0].startswith("info string error") and "'maybe'" in answer[0]
    assert conv.server.options.double_mill_removes_two is None
    assert not conv.server.board.double_mill_removes_two


def test_a_double_mill_is_answered_one_token_at_a_time() -> None:
    conv = Conversation()
    conv.send("setoption name DoubleMillRemovesTwo value true", f"position fen {DOUBLE}")
    action = conv.send("go depth 2")[-1].split()[1]
    assert action == "d6"  # two pieces for one turn
    first = conv.send(f"position fen {DOUBLE} moves d6", "go depth 2")[-1].split()[1]
    assert first.startswith("x")
    second = conv.send(f"position fen {DOUBLE} moves d6 {first}", "go depth 2")[-1].split()[1]
    assert second.startswith("x") and second != first
    board = Board(DOUBLE, double_mill_removes_two=True)
    assert board.is_legal(Move.parse(f"d6{first}{second}"))


def test_the_second_removal_token_and_the_compound_are_accepted() -> None:
    board = Board(DOUBLE, double_mill_removes_two=True)
    assert apply_tokens(board.copy(), ["d6", "xa1"]) == Move.parse("d6xa1")  # still pending
    played = board.copy()
    assert apply_tokens(played, ["d6", "xa1", "xg1"]) is None
    assert str(played.peek()) == "d6xg1xa1"  # the removals in point order
    assert move_tokens(played.peek()) == ["d6", "xg1", "xa1"]
    compound = board.copy()
    assert apply_tokens(compound, ["d6xg1xa1"]) is None
    assert compound.peek() == played.peek()


def test_a_switch_the_game_so_far_breaks_is_refused_and_nothing_changes() -> None:
    conv = Conversation()
    conv.send("setoption name DoubleMillRemovesTwo value true")
    conv.send(f"position fen {DOUBLE} moves d6 xa1 xg1")
    before = conv.server.board.position()
    answer = conv.send("setoption name DoubleMillRemovesTwo value false")
    assert answer[0].startswith("info string error") and "d6xg1xa1" in answer[0]
    assert conv.server.board.position() == before
    assert conv.server.options.double_mill_removes_two is True


def test_the_engine_says_why_its_tables_do_not_serve_a_variant() -> None:
    conv = Conversation(tables=EndgameTables({}, {}))
    answer = conv.send("setoption name Variant value twelve")
    assert answer == [
        "info string endgame tables not used: twelve is played on other links and mills than "
        "the standard board the tables are built on"
    ]
    assert conv.send("setoption name Variant value lasker") == []  # the same moving phase
    answer = conv.send("setoption name RemoveFromMills value true")
    assert answer and "removal from mills" in answer[0]


@pytest.mark.realtime
def test_the_client_sends_the_variant_and_asks_for_both_removals() -> None:
    with UciEngine.spawn([sys.executable, "-m", "morris.engine.uci"], timeout=30) as engine:
        board = Board(DOUBLE, double_mill_removes_two=True)
        result = engine.play(board, depth=2)
        assert result.move.second_remove is not None and board.is_legal(result.move)
        six = find_variant("six")()
        move = engine.play(six, depth=2).move
        assert move in six.legal_moves
        # Back to the standard game: the variant and the switch are sent again.
        standard = Board()
        assert engine.play(standard, depth=1).move in standard.legal_moves
        assert engine._sent["Variant"] == "standard"
        assert engine._sent["DoubleMillRemovesTwo"] == "false"
