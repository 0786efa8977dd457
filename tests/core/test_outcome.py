"""How games end: outcome(), is_game_over(), result(), the draw settings (docs/RULES.md 4-8)."""

from __future__ import annotations

import pytest

from morris.core import BLACK, WHITE, Board, Outcome, Termination, TwelveMensMorris
from tests.core.games import make_board, position_after, strong_games

SHUFFLE = ("a1-a4", "g7-d7", "a4-a1", "d7-g7")  # back to the same position after four turns
SHUFFLE_WHITE, SHUFFLE_BLACK = "a1 b6 f2 e4", "d1 g7 c5 d3"


def shuffled(board: Board, turns: int) -> Board:
    for i in range(turns):
        board.push_notation(SHUFFLE[i % 4])
    return board


def test_a_game_in_progress_has_no_outcome() -> None:
    board = Board()
    assert board.outcome() is None
    assert not board.is_game_over()
    assert board.result() == "*"


def test_blocked_is_a_loss_for_the_side_to_move() -> None:
    board = make_board("a1 a4 a7", "d1 b4 d7 g7 g1", flying=False)
    assert board.outcome() == Outcome(Termination.BLOCKED, BLACK)
    assert board.is_game_over()
    assert board.result() == "0-1"
    black_blocked = make_board("d1 b4 d7 g7 g1", "a1 a4 a7", turn="b", flying=False)
    assert black_blocked.outcome() == Outcome(Termination.BLOCKED, WHITE)
    assert black_blocked.result() == "1-0"


def test_too_few_pieces_is_a_loss() -> None:
    board = make_board("a1 d1 g4", "a7 d7")
    assert board.outcome() == Outcome(Termination.TOO_FEW_PIECES, WHITE)
    assert board.result() == "1-0"


def test_the_third_occurrence_of_a_position_is_a_draw() -> None:
    board = shuffled(make_board(SHUFFLE_WHITE, SHUFFLE_BLACK), 4)
    assert board.is_repetition(2)
    assert not board.is_repetition(3)
    assert board.outcome() is None
    shuffled(board, 3)
    assert board.outcome() is None
    board.push_notation(SHUFFLE[3])
    assert board.is_repetition(3)
    assert board.outcome() == Outcome(Termination.THREEFOLD_REPETITION, None)
    assert board.result() == "1/2-1/2"
    assert not board.legal_moves


def test_a_position_repeats_only_with_the_same_side_to_move() -> None:
    # White flies one piece round a triangle while black steps out and back: the pieces stand
    # as at the start, but with black to move, which is not the same position.
    board = make_board("a1 d7 g4", "b2 d2 c5 e3 f6")
    for turn in ("a1-e4", "c5-d5", "e4-a4", "d5-c5", "a4-a1"):
        board.push_notation(turn)
    assert board.pieces() == make_board("a1 d7 g4", "b2 d2 c5 e3 f6").pieces()
    assert not board.is_repetition(2)


def test_a_removal_starts_the_repetition_count_afresh() -> None:
    board = make_board("a1 d1 g4 b6", "b2 d6 f4 c5 a7")
    board.push_notation("g4-g1xf4")
    for turn in ("a7-d7", "g1-g4", "d7-a7", "g4-g1xc5", "a7-d7", "g1-g4", "d7-a7"):
        board.push_notation(turn)
    assert not board.is_repetition(3)


def test_threefold_repetition_can_be_switched_off() -> None:
    board = shuffled(make_board(SHUFFLE_WHITE, SHUFFLE_BLACK, threefold_repetition=False), 12)
    assert board.is_repetition(3)
    assert board.outcome() is None


def test_a_hundred_moving_turns_without_removal_is_a_draw() -> None:
    board = make_board(SHUFFLE_WHITE, SHUFFLE_BLACK, threefold_repetition=False)
    shuffled(board, 99)
    assert board.no_removal_count == 99
    assert board.outcome() is None
    board.push_notation(SHUFFLE[99 % 4])
    assert board.outcome() == Outcome(Termination.NO_REMOVAL, None)
    assert board.result() == "1/2-1/2"


def test_the_no_removal_limit_is_a_setting() -> None:
    board = shuffled(make_board(SHUFFLE_WHITE, SHUFFLE_BLACK, no_removal_limit=3), 2)
    assert board.outcome() is None
    board.push_notation(SHUFFLE[2])
    assert board.outcome() == Outcome(Termination.NO_REMOVAL, None)


def test_the_no_removal_rule_can_be_switched_off() -> None:
    board = make_board(
        SHUFFLE_WHITE, SHUFFLE_BLACK, threefold_repetition=False, no_removal_limit=None
    )
    shuffled(board, 200)
    assert board.no_removal_count == 200
    assert board.outcome() is None


@pytest.mark.parametrize("limit", [0, -5])
def test_the_no_removal_limit_must_be_positive(limit: int) -> None:
    with pytest.raises(ValueError, match="no_removal_limit must be positive or None"):
        Board(no_removal_limit=limit)


def test_a_removal_resets_the_no_removal_count() -> None:
    board = make_board("a1 d1 g4 b6", "b2 d6 f4 c5", no_removal_count=99)
    assert board.outcome() is None
    board.push_notation("g4-g1xf4")
    assert board.no_removal_count == 0
    assert board.outcome() is None


def test_placing_turns_do_not_count_towards_the_no_removal_limit() -> None:
    board = position_after(strong_games()[0], 18)
    assert board.no_removal_count == 0
    board.push_notation(strong_games()[0].turns[18])
    assert board.no_removal_count == 1


def test_a_full_board_at_the_end_of_placing_is_a_draw_in_twelve_mens_morris() -> None:
    board = make_board(
        "a1 b6 c4 d3 d5 d6 e4 e5 f2 f4 g1 g7",
        "a4 a7 b2 b4 c3 c5 d1 d2 d7 e3 f6 g4",
        board_class=TwelveMensMorris,
    )
    assert board.outcome() == Outcome(Termination.FULL_BOARD, None)
    assert board.result() == "1/2-1/2"


def test_losses_are_decided_before_draws() -> None:
    too_few = make_board("a1 d1 g4", "a7 d7", no_removal_count=100)
    assert too_few.outcome() == Outcome(Termination.TOO_FEW_PIECES, WHITE)
    blocked = make_board("a1 a4 a7", "d1 b4 d7 g7 g1", no_removal_count=100, flying=False)
    assert blocked.outcome() == Outcome(Termination.BLOCKED, BLACK)


@pytest.mark.parametrize(("winner", "result"), [(WHITE, "1-0"), (BLACK, "0-1"), (None, "1/2-1/2")])
def test_outcome_result_strings(winner: bool | None, result: str) -> None:
    assert Outcome(Termination.BLOCKED, winner).result() == result


def test_settings_report_the_keyword_settings() -> None:
    assert Board().settings() == {
        "flying": True,
        "threefold_repetition": True,
        "no_removal_limit": 100,
        "remove_from_mills": False,
        "double_mill_removes_two": False,
    }
    board = Board(
        flying=False,
        threefold_repetition=False,
        no_removal_limit=None,
        remove_from_mills=True,
        double_mill_removes_two=True,
    )
    assert board.settings() == {
        "flying": False,
        "threefold_repetition": False,
        "no_removal_limit": None,
        "remove_from_mills": True,
        "double_mill_removes_two": True,
    }
    assert board.copy().settings() == board.settings()
    assert Board.from_position(board.position(), **board.settings()).settings() == board.settings()
