"""Position strings, copies, the legal-move view and playing turns by notation."""

from __future__ import annotations

import pytest

from morris.core import (
    BLACK,
    STARTING_POSITION,
    WHITE,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    LegalMoveView,
    Move,
    Outcome,
    Termination,
)
from tests.core.games import make_board, position_after, strong_games

#: White a1 b6 f2 e4, black d1 g7 c5 d3, white to move in the moving phase.
SHUFFLE_BOARD = "..B..BW./W...W.../B..W.B.."
SHUFFLE_POSITION = f"{SHUFFLE_BOARD} w 0 0 0 20 -"
SHUFFLE = ("a1-a4", "g7-d7", "a4-a1", "d7-g7")


# -- position strings ------------------------------------------------------------------------


def test_the_starting_position() -> None:
    assert Board().position() == STARTING_POSITION
    assert Board(STARTING_POSITION) == Board()
    assert Board.from_position(STARTING_POSITION).legal_moves.count() == 24


def test_the_position_string_names_every_field() -> None:
    board = Board()
    for text in ("a7", "d6", "c5"):
        board.push_notation(text)
    assert board.position() == "W......./.B....../W....... b 7 8 0 2 -"


def test_position_strings_read_back_to_the_same_board() -> None:
    game = strong_games()[1]
    for plies in (0, 5, 18, 25, len(game.turns)):
        board = position_after(game, plies)
        again = Board(board.position())
        assert again == board
        assert again.position() == board.position()
        assert again.turn == board.turn
        assert again.fullmove_number == board.fullmove_number
        assert again.outcome() == board.outcome()


def test_a_position_with_black_to_move_reads_back_with_black_to_move() -> None:
    board = Board()
    board.push_notation("d6")
    assert Board(board.position()).turn == BLACK
    assert Board(board.position()).legal_moves.count() == 23


def test_the_history_field_lists_the_reversible_turns() -> None:
    board = Board(SHUFFLE_POSITION)
    board.push_notation("a1-a4")
    board.push_notation("g7-d7")
    assert board.position().endswith(" 2 21 a1-a4,g7-d7")


def test_from_position_with_history_detects_threefold_repetition() -> None:
    board = Board(SHUFFLE_POSITION)
    for i in range(7):
        board.push_notation(SHUFFLE[i % 4])
    text = board.position()
    assert text.endswith("a1-a4,g7-d7,a4-a1,d7-g7,a1-a4,g7-d7,a4-a1")
    again = Board.from_position(text)
    assert again.outcome() is None
    again.push_notation("d7-g7")
    assert again.outcome() == Outcome(Termination.THREEFOLD_REPETITION, None)
    # Without the history the same placement is new: no draw.
    fresh = Board.from_position(text.rsplit(" ", 1)[0] + " -")
    fresh.push_notation("d7-g7")
    assert fresh.outcome() is None


def test_from_position_passes_the_settings() -> None:
    board = Board.from_position(SHUFFLE_POSITION, flying=False, no_removal_limit=None)
    assert board.flying is False
    assert board.no_removal_limit is None


def test_position_six_fields_mean_no_history() -> None:
    board = Board(f"{SHUFFLE_BOARD} w 0 0 0 20")
    assert board.position() == SHUFFLE_POSITION


BAD_POSITIONS = [
    ("", "a position has 7 fields"),
    ("......../......../........ w 9 9 0", "a position has 7 fields"),
    ("......../......../........ w 9 9 0 1 - extra", "a position has 7 fields"),
    ("......../......../....... w 9 9 0 1 -", "board field must be three rings of 8 points"),
    ("......../........ w 9 9 0 1 -", "board field must be three rings of 8 points"),
    ("X......./......../........ w 9 9 0 1 -", "board field: 'X' at a7 is not W, B or '.'"),
    ("......../......../........ x 9 9 0 1 -", "side to move must be 'w' or 'b', not 'x'"),
    ("......../......../........ w nine 9 0 1 -", "white hand must be a number, not 'nine'"),
    ("......../......../........ w 9 -1 0 1 -", "black hand must be a number, not '-1'"),
    ("W......./......../........ w 9 9 0 1 -", "white hand: 9 in hand and 1 on the board"),
    ("B......./......../........ w 9 9 0 1 -", "black hand: 9 in hand and 1 on the board"),
    ("......../......../........ w 9 9 many 1 -", "no-removal count must be a number"),
    ("......../......../........ w 9 9 0 0 -", "turn number must be a number from 1, not '0'"),
    ("......../......../........ w 9 9 0 x -", "turn number must be a number from 1, not 'x'"),
    (SHUFFLE_POSITION[:-1] + "a1-zz", "history: invalid move 'a1-zz'"),
    (SHUFFLE_POSITION[:-1] + "d6", "history: 'd6' is not a slide without removal"),
    (SHUFFLE_POSITION[:-1] + "a1-a4xg7", "history: 'a1-a4xg7' is not a slide without removal"),
    (f"{SHUFFLE_BOARD} w 0 0 1 20 a1-a4,g7-d7", "history: 2 turns are more than"),
    (f"{SHUFFLE_BOARD} w 0 0 5 20 a1-a4", "history: a1-a4 does not fit the board"),
    (f"{SHUFFLE_BOARD} b 0 0 5 20 a7-a1", "history: a7-a1 is not legal"),
]


@pytest.mark.parametrize(("text", "message"), BAD_POSITIONS)
def test_malformed_positions_name_the_field(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError) as info:
        Board(text)
    assert message in str(info.value)
    with pytest.raises(ValueError, match=r"history|field|hand|side|count|number"):
        Board.from_position(text)


def test_a_position_must_be_text() -> None:
    with pytest.raises(InvalidPositionError, match="a position must be text, not int"):
        Board(42)  # type: ignore[arg-type]


# -- copies ----------------------------------------------------------------------------------


def test_copy_is_independent_of_the_original() -> None:
    board = position_after(strong_games()[0], 20)
    copy = board.copy()
    assert copy == board
    assert copy.move_stack == board.move_stack
    copy.pop()
    assert copy != board
    assert len(board.move_stack) == 20


def test_copy_without_stack_has_no_turns_to_pop() -> None:
    board = position_after(strong_games()[0], 20)
    copy = board.copy(stack=False)
    assert copy == board
    assert copy.move_stack == []
    with pytest.raises(IndexError):
        copy.pop()


def test_copy_without_stack_keeps_what_repetition_needs() -> None:
    board = Board(SHUFFLE_POSITION)
    for i in range(7):
        board.push_notation(SHUFFLE[i % 4])
    copy = board.copy(stack=False)
    assert copy.position() == board.position()
    copy.push_notation("d7-g7")
    assert copy.outcome() == Outcome(Termination.THREEFOLD_REPETITION, None)


def test_copy_keeps_the_variant_and_settings() -> None:
    board = Board(flying=False, no_removal_limit=50)
    assert board.copy(stack=False).settings() == board.settings()


# -- playing by notation ---------------------------------------------------------------------


def test_push_notation_returns_the_move_played() -> None:
    board = Board()
    assert board.push_notation("d6") == Move.parse("d6")
    assert board.peek() == Move.parse("d6")
    assert board.move_stack == [Move.parse("d6")]


def test_push_notation_errors_name_the_move_the_reason_and_the_position() -> None:
    board = Board()
    board.push_notation("d6")
    before = board.position()
    with pytest.raises(IllegalMoveError) as info:
        board.push_notation("d6")
    message = str(info.value)
    assert "illegal move 'd6'" in message
    assert "d6 is occupied" in message
    assert before in message
    assert board.position() == before


def test_push_notation_syntax_errors_are_invalid_move_errors() -> None:
    with pytest.raises(InvalidMoveError, match="'z9'"):
        Board().push_notation("z9")


def test_parse_notation_checks_without_playing() -> None:
    board = Board()
    assert board.parse_notation("a1") == Move.parse("a1")
    assert board.move_stack == []
    with pytest.raises(IllegalMoveError):
        board.parse_notation("a1-a4")


def test_pop_undoes_the_last_turn() -> None:
    board = Board()
    board.push_notation("d6")
    assert board.pop() == Move.parse("d6")
    assert board == Board()
    assert board.position() == STARTING_POSITION
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


def test_reset_goes_back_to_the_empty_board_keeping_the_settings() -> None:
    board = position_after(strong_games()[0], 10)
    board.flying = False
    board.reset()
    assert board.position() == STARTING_POSITION
    assert board.move_stack == []
    assert board.flying is False


# -- the legal-move view ---------------------------------------------------------------------


def test_legal_moves_view_iterates_counts_and_contains() -> None:
    board = make_board("a1 d1 g4 b6", "b2 d6 f4 c5")
    view = board.legal_moves
    assert isinstance(view, LegalMoveView)
    moves = list(view)
    assert len(moves) == len(set(moves)) == view.count() == len(view)
    assert bool(view)
    assert Move.parse("g4-g1xb2") in view
    assert Move.parse("g4-g1") not in view
    assert Move.parse("a1-a7") not in view
    assert "a1-a4" not in view  # text is not a move
    assert "g4-g1xb2" in repr(view)


def test_legal_moves_view_follows_the_board() -> None:
    board = Board()
    view = board.legal_moves
    assert view.count() == 24
    board.push_notation("d6")
    assert view.count() == 23
    assert len(list(view)) == 23
    assert Move.parse("d6") not in list(view)
    board.pop()
    assert len(view) == 24


def test_legal_moves_view_follows_the_settings() -> None:
    board = make_board("a1 d7 g4", "b2 d2 c5 e3 f6")
    view = board.legal_moves
    assert len(view) == 48
    board.flying = False
    assert len(view) == len(list(view)) == 8  # a1, d7 and g4 slide to their empty neighbours


def test_legal_moves_view_is_empty_once_the_game_is_over() -> None:
    board = make_board("a1 d1 g4", "a7 d7")
    assert not board.legal_moves
    assert len(board.legal_moves) == 0
    assert list(board.legal_moves) == []
    # generate_moves ignores the end of the game (the search may want it).
    assert any(True for _ in board.generate_moves())


def test_every_generated_move_is_legal_and_every_legal_move_is_generated() -> None:
    board = position_after(strong_games()[2], 4)
    generated = set(board.legal_moves)
    for frm in (None, *range(24)):
        for to in range(24):
            for remove in (None, *range(24)):
                if frm == to:
                    continue
                move = Move(frm, to, remove)
                assert (move in board.legal_moves) == (move in generated), str(move)


# -- looking at the board --------------------------------------------------------------------


def test_piece_at_takes_points_and_names() -> None:
    board = make_board("a1", "d6", hands=(8, 8))
    assert board.piece_at("a1") == WHITE
    assert board.piece_at(9) == BLACK
    assert board.piece_at("g7") is None
    assert board.pieces() == {"a1": WHITE, "d6": BLACK}
    with pytest.raises(ValueError, match="not a point"):
        board.piece_at("z9")
    with pytest.raises(ValueError, match="not a point"):
        board.piece_at(24)


def test_str_draws_the_board_of_rules_md() -> None:
    board = make_board("a1 g7", "d6", hands=(7, 8))
    lines = str(board).splitlines()
    assert lines[0] == "7  .-----------.-----------W"
    assert lines[2] == "6  |   .-------B-------.   |"
    assert lines[12] == "1  W-----------.-----------."
    assert lines[13] == "   a   b   c   d   e   f   g"


def test_repr_carries_the_position() -> None:
    assert repr(Board()) == f"Board({STARTING_POSITION!r})"


def test_boards_are_not_hashable() -> None:
    with pytest.raises(TypeError):
        hash(Board())
