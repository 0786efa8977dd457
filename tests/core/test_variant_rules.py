"""The rules of morabaraba, Lasker and six men's morris and the removal switches (docs/RULES.md)."""

from __future__ import annotations

import pytest

from morris.core import (
    BLACK,
    VARIANT_NAMES,
    WHITE,
    Board,
    GameRecord,
    GameRecordError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    LaskerMorris,
    Morabaraba,
    Move,
    Outcome,
    Phase,
    SixMensMorris,
    Termination,
    find_variant,
    read_game,
    write_game,
)
from tests.core.games import make_board, play_random_game
from tests.core.test_variants import FULL_BLACK, FULL_WHITE


def legal(board: Board) -> set[str]:
    return {str(m) for m in board.legal_moves}


@pytest.mark.parametrize(
    ("name", "pieces", "flying"),
    [("standard", 9, True), ("twelve", 12, True), ("morabaraba", 12, True),
     ("lasker", 10, True), ("six", 6, False)],
)  # fmt: skip
def test_each_variant_starts_with_its_pieces_in_hand(name: str, pieces: int, flying: bool) -> None:
    board = find_variant(name)()
    assert board.position() == f"......../......../........ w {pieces} {pieces} 0 1 -"
    assert board.flying is flying
    assert board.variant_name == name


# -- two removals -----------------------------------------------------------------------------


def test_a_double_mill_removes_two_pieces_with_the_switch_on() -> None:
    board = make_board("d1 g1 a4 a7", "b2 d2 d6 f4", hands=(5, 5), double_mill_removes_two=True)
    assert board.removals_due(Move.parse("a1")) == 2
    closing = {m for m in legal(board) if m.startswith("a1")}
    assert closing == {"a1xd2xb2", "a1xd6xb2", "a1xd6xd2", "a1xd6xf4", "a1xf4xb2", "a1xf4xd2"}
    with pytest.raises(IllegalMoveError, match="closes two mills: two removals must be given"):
        board.push_notation("a1xb2")
    board.push_notation("a1 xb2 xd2")  # either order, spaces allowed
    assert board.peek() == Move.parse("a1xd2xb2")
    assert board.pieces_on_board(BLACK) == 2
    assert board.piece_at("b2") is None and board.piece_at("d2") is None


def test_a_single_mill_still_removes_one_with_the_switch_on() -> None:
    board = make_board("d1 g1 a4", "b2 d2 d6 f4", hands=(5, 5), double_mill_removes_two=True)
    assert board.removals_due(Move.parse("a1")) == 1
    with pytest.raises(IllegalMoveError, match="removes only one piece"):
        board.push_notation("a1xb2xd2")


def test_a_double_mill_against_one_piece_removes_that_one() -> None:
    board = make_board("d1 g1 a4 a7", "b2", hands=(5, 7), double_mill_removes_two=True)
    assert {m for m in legal(board) if m.startswith("a1")} == {"a1xb2"}


def test_the_second_removal_follows_the_mill_rule_after_the_first() -> None:
    # Black's only piece outside a mill is f4; once it is gone, every black piece stands in a
    # mill, so the second removal may take any of them.
    board = make_board("d1 g1 a4 a7", "b6 d6 f6 f4", hands=(5, 5), double_mill_removes_two=True)
    assert {m for m in legal(board) if m.startswith("a1")} == {"a1xb6xf4", "a1xd6xf4", "a1xf6xf4"}
    with pytest.raises(IllegalMoveError, match="b6 and d6 cannot both be removed"):
        board.push_notation("a1xb6xd6")


def test_two_removals_are_written_in_point_order() -> None:
    move = Move.parse("d6xa1xg7")
    assert str(move) == "d6xg7xa1" and move.removals == (2, 6)
    assert Move(None, 9, 6, 2) == move  # d6 (9) taking a1 (6) and g7 (2), in point order
    with pytest.raises(InvalidMoveError, match="removed twice"):
        Move.parse("d6xg7xg7")


# -- removal from mills -----------------------------------------------------------------------


def test_remove_from_mills_lets_a_mill_piece_be_taken() -> None:
    protected = make_board("d1 g1", "b6 d6 f6 f4", hands=(5, 5))
    assert {m for m in legal(protected) if m.startswith("a1")} == {"a1xf4"}
    with pytest.raises(IllegalMoveError, match="d6 stands in a mill and black has pieces outside"):
        protected.push_notation("a1xd6")
    free = make_board("d1 g1", "b6 d6 f6 f4", hands=(5, 5), remove_from_mills=True)
    assert {m for m in legal(free) if m.startswith("a1")} == {
        "a1xb6", "a1xd6", "a1xf6", "a1xf4"
    }  # fmt: skip
    free.push_notation("a1xd6")
    assert free.piece_at("d6") is None


# -- Lasker morris ----------------------------------------------------------------------------


def test_lasker_may_slide_instead_of_placing() -> None:
    board = make_board("d1", "f4", hands=(5, 5), board_class=LaskerMorris)
    assert board.phase is Phase.PLACING
    assert {m for m in legal(board) if "-" in m} == {"d1-a1", "d1-d2", "d1-g1"}
    board.push_notation("d1-d2")
    assert board.pieces_in_hand(WHITE) == 5 and board.piece_at("d2") == WHITE
    standard = make_board("d1", "f4", hands=(5, 5))
    with pytest.raises(IllegalMoveError, match="still has pieces in hand and must place one"):
        standard.push_notation("d1-d2")


def test_lasker_does_not_fly_with_pieces_in_hand() -> None:
    board = make_board("d1 a7 g7", "f4 b4 c4 e3", hands=(2, 0), board_class=LaskerMorris)
    with pytest.raises(IllegalMoveError, match="not adjacent"):
        board.push_notation("a7-e4")


def test_lasker_slide_during_placing_closes_a_mill() -> None:
    board = make_board("a7 g7 d6", "f4 b4", hands=(6, 7), board_class=LaskerMorris)
    assert {m for m in legal(board) if m.startswith("d6-d7")} == {"d6-d7xf4", "d6-d7xb4"}


# -- six men's morris -------------------------------------------------------------------------


def test_six_mens_morris_has_no_outer_square() -> None:
    board = SixMensMorris()
    assert board.legal_moves.count() == 16
    with pytest.raises(IllegalMoveError, match="a7 is not in play in Six men's morris"):
        board.push_notation("a7")
    with pytest.raises(InvalidPositionError, match="a piece on a7, which is not in play"):
        SixMensMorris("W......./......../........ w 5 6 0 1 -")


def test_six_mens_morris_mills_are_the_sides_of_the_two_squares() -> None:
    # d6 d5 (a cross line cut short) is no mill; b6 d6 f6 is.
    board = make_board("d6 b6", "c3 e3", hands=(4, 4), board_class=SixMensMorris)
    assert "d5" in legal(board)
    assert {m for m in legal(board) if m.startswith("f6")} == {"f6xc3", "f6xe3"}


def test_six_mens_morris_does_not_fly_by_default() -> None:
    board = make_board("b6 d6 b2", "f4 e3 c4 d3", board_class=SixMensMorris)
    assert board.can_fly(WHITE) is False
    assert "b6-e4" not in legal(board)
    flying = make_board("b6 d6 b2", "f4 e3 c4 d3", board_class=SixMensMorris, flying=True)
    assert "b6-e4" in legal(flying)


# -- morabaraba -------------------------------------------------------------------------------


def test_morabaraba_bars_going_straight_back_into_a_mill() -> None:
    board = make_board("a7 d7 g7 b6 f6", "a1 g1 d1 c3 e3 a4", board_class=Morabaraba)
    board.push_notation("d7-d6xa4")  # leaves a7 d7 g7, closes b6 d6 f6
    assert board.barred_return(WHITE) == Move.parse("d6-d7")
    assert board.position().endswith(" d6-d7")
    board.push_notation("e3-e4")
    assert {m for m in legal(board) if m.startswith("d6-")} == {"d6-d5"}
    with pytest.raises(IllegalMoveError, match="goes straight back into a mill"):
        board.push_notation("d6-d7xe4")
    board.push_notation("d6-d5")
    assert board.barred_return(WHITE) is None
    board.push_notation("e4-e3")
    board.push_notation("d5-d6xc3")
    assert board.barred_return(WHITE) is None  # d5 stood in no mill: nothing is barred
    board.push_notation("g1-g4")
    assert "d6-d7xg4" in legal(board)


def test_morabaraba_positions_carry_the_barred_return() -> None:
    text = "W.W.BBB./WWW...../....B.B. b 0 0 0 20 - d6-d7"
    board = Morabaraba(text)
    assert board.position() == text
    assert board.barred_return(WHITE) == Move.parse("d6-d7") and board.barred_return(BLACK) is None
    with pytest.raises(InvalidPositionError, match="no piece on its point"):
        Morabaraba("W.W.BBB./WWW...../....B.B. b 0 0 0 20 - d5-d7")
    with pytest.raises(InvalidPositionError, match="a position has 7 fields"):
        Board(text)


def test_a_full_morabaraba_board_leaves_white_blocked() -> None:
    board = Morabaraba()
    for white, black in zip(FULL_WHITE, FULL_BLACK, strict=True):
        board.push_notation(white)
        board.push_notation(black)
    assert board.outcome() == Outcome(Termination.BLOCKED, BLACK)


# -- records ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_a_record_of_every_variant_round_trips(name: str) -> None:
    import random

    board = find_variant(name)(remove_from_mills=True, double_mill_removes_two=True)
    play_random_game(board, random.Random(name))
    record = GameRecord.from_board(board, Event="test")
    text = write_game(record)
    assert f'[Variant "{name}"]' in text
    assert '[RemoveFromMills "true"]' in text and '[DoubleMillRemovesTwo "true"]' in text
    again = read_game(text)
    assert again == record
    replay = again.board()
    assert type(replay) is type(board) and replay.position() == board.position()
    assert replay.settings() == board.settings()


def test_a_record_of_an_unknown_variant_is_refused() -> None:
    with pytest.raises(GameRecordError, match="tag Variant: unknown variant 'shax'"):
        read_game('[Variant "shax"]\n\n1. d6 *').start_board()


def test_the_drawing_shows_the_variants_lines_and_points() -> None:
    twelve = str(find_variant("twelve")()).splitlines()
    assert twelve[1] == "   | \\         |         / |"
    assert twelve[11] == "   | /         |         \\ |"
    assert "\\" not in str(Board()) and "/" not in str(Board())
    six = str(SixMensMorris("......../W......./.B...... w 5 5 0 1 -")).splitlines()
    assert six[0] == "7" and six[12] == "1"  # the outer square is not drawn
    assert six[2] == "6      W-------.-------."
    assert six[6] == "4      .---.       .---."
