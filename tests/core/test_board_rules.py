"""One test per rule of docs/RULES.md ("Board", "Play" and the points settled there), through the
public API of :class:`morris.core.Board`."""

from __future__ import annotations

import pytest

from morris.core import (
    BLACK,
    COLOR_NAMES,
    WHITE,
    Board,
    IllegalMoveError,
    Move,
    Outcome,
    Phase,
    Termination,
)
from tests.core.games import make_board, position_after, strong_games

#: A placing order that closes no mill and leaves white blocked when placing ends.
BLOCKING_WHITE = ["a4", "a7", "b2", "b6", "c3", "c5", "d1", "d5", "g1"]
BLOCKING_BLACK = ["a1", "b4", "c4", "d2", "d3", "d6", "d7", "e5", "g4"]


def legal(board: Board) -> set[str]:
    return {str(m) for m in board.legal_moves}


def from_point(board: Board, name: str) -> set[str]:
    return {m for m in legal(board) if m.startswith(f"{name}-")}


def illegal_reason(board: Board, text: str) -> str:
    with pytest.raises(IllegalMoveError) as info:
        board.push_notation(text)
    return str(info.value)


# -- the board and the players -------------------------------------------------------------


def test_white_moves_first_from_an_empty_board_with_nine_pieces_each() -> None:
    board = Board()
    assert board.turn == WHITE
    assert COLOR_NAMES == {WHITE: "white", BLACK: "black"}
    assert board.pieces() == {}
    assert board.pieces_in_hand(WHITE) == board.pieces_in_hand(BLACK) == 9
    assert board.phase is Phase.PLACING


def test_a_piece_can_be_placed_on_any_of_the_24_empty_points() -> None:
    board = Board()
    assert len(legal(board)) == 24
    assert all(Move.parse(m).is_placement for m in legal(board))


def test_the_players_take_turns_placing_one_piece_from_hand() -> None:
    board = Board()
    board.push_notation("d6")
    assert board.turn == BLACK
    assert board.piece_at("d6") == WHITE
    assert board.pieces_in_hand(WHITE) == 8
    board.push_notation("f4")
    assert board.turn == WHITE
    assert board.piece_at("f4") == BLACK
    assert board.pieces_in_hand(BLACK) == 8
    assert len(legal(board)) == 22


def test_a_piece_cannot_be_placed_on_an_occupied_point() -> None:
    board = Board()
    board.push_notation("d6")
    assert "d6 is occupied" in illegal_reason(board, "d6")


def test_no_piece_moves_while_pieces_are_in_hand() -> None:
    board = Board()
    board.push_notation("d6")
    board.push_notation("f4")
    assert "white still has pieces in hand and must place one" in illegal_reason(board, "d6-d5")


def test_the_moving_phase_starts_when_all_eighteen_pieces_are_placed() -> None:
    game = strong_games()[0]
    assert position_after(game, 17).phase is Phase.PLACING
    board = position_after(game, 18)
    assert board.phase is Phase.MOVING
    assert board.pieces_in_hand(WHITE) == board.pieces_in_hand(BLACK) == 0
    assert "no piece in hand and must move" in illegal_reason(board, "e3")
    assert board.legal_moves
    assert all(not m.is_placement for m in board.legal_moves)


# -- moving --------------------------------------------------------------------------------


def test_a_piece_slides_along_a_line_to_an_adjacent_empty_point() -> None:
    board = make_board("a1 b6 f2 e4", "d1 g7 c5 d3")
    assert from_point(board, "a1") == {"a1-a4"}
    assert from_point(board, "b6") == {"b6-d6", "b6-b4"}
    assert "a1 and a7 are not adjacent" in illegal_reason(board, "a1-a7")
    assert "d1 is occupied" in illegal_reason(board, "a1-d1")
    assert "g7 holds no white piece" in illegal_reason(board, "g7-g4")
    assert "c4 holds no white piece" in illegal_reason(board, "c4-b4")


def test_a_piece_may_step_back_on_the_next_turn() -> None:
    board = make_board("a1 b6 f2 e4", "d1 g7 c5 d3")
    board.push_notation("a1-a4")
    board.push_notation("g7-d7")
    assert "a4-a1" in legal(board)
    board.push_notation("a4-a1")
    board.push_notation("d7-g7")
    assert board.outcome() is None


def test_a_player_with_pieces_in_hand_is_never_blocked() -> None:
    # White's only piece on the board is hemmed in, but white still places.
    board = make_board("a1", "d1 a4 b2 d2", turn="w", hands=(6, 5))
    assert board.outcome() is None
    assert len(legal(board)) == 19


# -- mills -----------------------------------------------------------------------------------


def test_a_placement_completing_a_mill_removes_an_opponent_piece() -> None:
    board = make_board("a1 d1", "b2 d6", hands=(7, 7))
    assert {m for m in legal(board) if m.startswith("g1")} == {"g1xb2", "g1xd6"}
    assert "g1 closes a mill: a removal must be given" in illegal_reason(board, "g1")
    board.push_notation("g1xd6")
    assert board.piece_at("d6") is None
    assert board.pieces_on_board(BLACK) == 1


def test_a_slide_completing_a_mill_removes_an_opponent_piece() -> None:
    board = make_board("a1 d1 g4 b6", "b2 d6 f4 c5")
    assert {m for m in legal(board) if m.startswith("g4-g1")} == {
        f"g4-g1x{p}" for p in ("b2", "d6", "f4", "c5")
    }
    board.push_notation("g4-g1xf4")
    assert board.pieces_on_board(BLACK) == 3
    assert board.no_removal_count == 0


def test_a_turn_that_closes_no_mill_removes_nothing() -> None:
    board = make_board("a1 d1 g1 b6", "b2 d6 f4 c5")
    # The mill a1-d1-g1 stands, but b6 is not part of it.
    assert "b6-b4xb2" not in legal(board)
    assert "b6-b4 closes no mill, so nothing may be removed" in illegal_reason(board, "b6-b4xb2")


def test_a_piece_in_a_mill_is_protected_while_the_opponent_has_pieces_outside_mills() -> None:
    board = make_board("a1 d1 g4 b6", "a7 d7 g7 e3 c5")
    assert {m for m in legal(board) if m.startswith("g4-g1")} == {"g4-g1xe3", "g4-g1xc5"}
    reason = illegal_reason(board, "g4-g1xa7")
    assert "a7 stands in a mill and black has pieces outside mills" in reason


def test_mill_protection_lapses_when_all_opponent_pieces_are_in_mills() -> None:
    board = make_board("a1 d1 g4 b6", "a7 d7 g7 b2 d2 f2")
    assert {m for m in legal(board) if m.startswith("g4-g1")} == {
        f"g4-g1x{p}" for p in ("a7", "d7", "g7", "b2", "d2", "f2")
    }
    board.push_notation("g4-g1xd7")
    assert board.piece_at("d7") is None


def test_a_removal_must_take_an_opponent_piece() -> None:
    board = make_board("a1 d1 g4 b6", "b2 d6 f4 c5")
    assert "b6 holds no black piece" in illegal_reason(board, "g4-g1xb6")
    assert "e4 holds no black piece" in illegal_reason(board, "g4-g1xe4")


def test_two_mills_closed_at_once_still_remove_one_piece() -> None:
    board = make_board("d1 g1 a4 a7", "b2 d2 d6 f4", hands=(5, 5))
    assert {m for m in legal(board) if m.startswith("a1")} == {
        f"a1x{p}" for p in ("b2", "d2", "d6", "f4")
    }
    with pytest.raises(IllegalMoveError, match="removes only one piece"):
        board.push_notation("a1xb2xd2")
    board.push_notation("a1xb2")
    assert board.pieces_on_board(BLACK) == 3
    assert board.turn == BLACK


def test_a_mill_is_formed_again_by_stepping_out_and_back() -> None:
    board = make_board("a1 d1 g1 b6", "b2 d6 f4 c5")
    board.push_notation("g1-g4")
    board.push_notation("c5-d5")
    assert "g4-g1" not in legal(board)
    assert "g4-g1 closes a mill" in illegal_reason(board, "g4-g1")
    board.push_notation("g4-g1xd5")
    assert board.pieces_on_board(BLACK) == 3


def test_a_mill_formed_when_the_opponent_has_no_piece_on_the_board_removes_nothing() -> None:
    board = make_board("a1 d1", "", hands=(5, 7))
    assert "g1" in legal(board)
    assert not any(m.startswith("g1x") for m in legal(board))
    assert "d2 holds no piece to remove" in illegal_reason(board, "g1xd2")
    board.push_notation("g1")
    assert board.pieces_in_hand(BLACK) == 7
    assert board.turn == BLACK


# -- flying ----------------------------------------------------------------------------------

FLYING_WHITE = "a1 d7 g4"  # no two of them share a mill, so no fly closes one
FLYING_BLACK = "b2 d2 c5 e3 f6"


def test_a_player_with_exactly_three_pieces_and_none_in_hand_flies() -> None:
    board = make_board(FLYING_WHITE, FLYING_BLACK)
    empty = {
        f"a1-{p}"
        for p in [
            "a4",
            "a7",
            "b4",
            "b6",
            "c3",
            "c4",
            "d1",
            "d3",
            "d5",
            "d6",
            "e4",
            "e5",
            "f2",
            "f4",
            "g1",
            "g7",
        ]
    }
    assert board.can_fly(WHITE)
    assert from_point(board, "a1") == empty
    assert len(legal(board)) == 3 * 16
    board.push_notation("a1-e4")
    assert board.piece_at("e4") == WHITE


def test_flying_applies_to_black_too() -> None:
    board = make_board(FLYING_BLACK, FLYING_WHITE, turn="b")
    assert board.can_fly(BLACK)
    assert not board.can_fly(WHITE)
    assert len(legal(board)) == 48


def test_a_player_with_four_pieces_does_not_fly() -> None:
    board = make_board(FLYING_WHITE + " a7", FLYING_BLACK)
    assert not board.can_fly(WHITE)
    assert from_point(board, "a1") == {"a1-a4", "a1-d1"}
    assert "a1 and e4 are not adjacent" in illegal_reason(board, "a1-e4")


def test_a_player_with_three_pieces_and_one_in_hand_places_instead_of_flying() -> None:
    board = make_board(FLYING_WHITE, FLYING_BLACK, hands=(1, 1))
    assert not board.can_fly(WHITE)
    assert all(Move.parse(m).is_placement for m in legal(board))
    assert "white still has pieces in hand" in illegal_reason(board, "a1-e4")


def test_without_flying_three_pieces_slide() -> None:
    board = make_board(FLYING_WHITE, FLYING_BLACK, flying=False)
    assert not board.can_fly(WHITE)
    assert from_point(board, "a1") == {"a1-a4", "a1-d1"}
    assert "a1 and e4 are not adjacent" in illegal_reason(board, "a1-e4")


# -- losing ----------------------------------------------------------------------------------


def test_a_player_reduced_to_two_pieces_loses() -> None:
    board = make_board("a1 d1 g4 b6", "a7 d7 g7")
    board.push_notation("g4-g1xg7")
    assert board.outcome() == Outcome(Termination.TOO_FEW_PIECES, WHITE)
    assert not board.legal_moves
    assert "the game is over (too-few-pieces, 1-0)" in illegal_reason(board, "a7-a4")


def test_pieces_in_hand_count_towards_the_three() -> None:
    assert make_board("a1", "b2 d2 d6 f4", hands=(2, 3)).outcome() is None
    assert make_board("", "b2 d2 d6 f4", hands=(3, 3)).outcome() is None
    assert make_board("a1", "b2 d2 d6 f4", hands=(1, 3)).outcome() == Outcome(
        Termination.TOO_FEW_PIECES, BLACK
    )


def test_loss_at_two_is_checked_for_the_side_not_to_move_too() -> None:
    board = make_board("a1 d1", "b2 d2 d6 f4", turn="b")
    assert board.outcome() == Outcome(Termination.TOO_FEW_PIECES, BLACK)


def test_a_blocked_player_loses() -> None:
    board = make_board("a1 a4 a7", "d1 b4 d7 g7 g1", turn="w", flying=False)
    assert board.outcome() == Outcome(Termination.BLOCKED, BLACK)
    assert not board.legal_moves


def test_a_player_can_be_blocked_at_the_start_of_the_moving_phase() -> None:
    board = Board()
    for white, black in zip(BLOCKING_WHITE, BLOCKING_BLACK, strict=True):
        board.push_notation(white)
        assert board.outcome() is None
        board.push_notation(black)
    assert board.phase is Phase.MOVING
    assert board.pieces_on_board(WHITE) == board.pieces_on_board(BLACK) == 9
    assert board.outcome() == Outcome(Termination.BLOCKED, BLACK)
    assert board.result() == "0-1"
    assert list(board.legal_moves) == []


def test_flying_saves_a_player_with_three_pieces_from_being_blocked() -> None:
    board = make_board("a1 a4 a7", "d1 b4 d7 g7 g1", turn="w")
    assert board.outcome() is None
    assert "a1-e4" in legal(board)
