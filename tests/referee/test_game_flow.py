"""Takebacks, new games, game over, hints and resuming a game."""

from __future__ import annotations

import pytest

from morris.core import BLACK, WHITE, Board, Move, Termination
from morris.referee import (
    Flagged,
    GameOver,
    NewGame,
    OpponentToMove,
    RefereeError,
    SearchCancelled,
    TakenBack,
    TurnAccepted,
)
from tests.referee.table import MILL_B, MILL_W, SETTLE, Table, board_of, mask, position

# -- takeback by restoring the board -------------------------------------------------------------


def test_restoring_the_previous_position_takes_the_last_turn_back() -> None:
    table = Table()
    table.play("d6", "a7")
    table.lift("a7")
    table.wait(1.55)  # settled at 0.1, and 1.5 s more is needed
    assert table.of(TakenBack) == []
    table.wait(0.1)
    assert table.of(TakenBack) == [TakenBack([Move.parse("a7")])]
    assert table.referee.board.turn == BLACK
    table.play("g7")
    assert table.accepted()[-1] == "g7"


def test_restoring_a_slide_takes_it_back() -> None:
    table = Table(position(MILL_W, MILL_B))
    table.play("d7-d6")
    table.move("d6-d7")  # white's piece, black to move: no turn of black's explains it
    table.wait(1.6)
    assert table.of(TakenBack) == [TakenBack([Move.parse("d7-d6")])]
    assert table.referee.board.turn == WHITE


def test_a_restoration_shorter_than_the_takeback_delay_is_nothing() -> None:
    table = Table()
    table.play("d6", "a7")
    table.lift("a7")
    table.wait(1.3)
    table.place("a7")
    table.wait(10.0)
    assert table.of(TakenBack) == []
    assert table.of(Flagged) == []
    assert table.accepted() == ["d6", "a7"]


def test_a_legal_turn_wins_over_a_takeback_reading() -> None:
    # Black's g1 (closing a1-d1-g1, removing g7) leaves the board exactly as before white's g7xg1.
    board = position("a7 d7", "a1 d1 g1", "w", hands=(7, 6))
    table = Table(board)
    table.play("g7xg1")
    table.move("g1xg7")
    table.wait(3.0)
    assert table.accepted() == ["g7xg1", "g1xg7"]
    assert table.of(TakenBack) == []


def test_restoration_while_the_pi_thinks_undoes_the_persons_turn_and_cancels_the_search() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    table.lift("d6")
    events = table.wait(1.6)
    assert events == [SearchCancelled(), TakenBack([Move.parse("d6")])]
    assert not table.referee.opponent_to_move
    events = table.play("f4")
    assert events == [TurnAccepted(Move.parse("f4"), WHITE, False), OpponentToMove()]


def test_restoration_after_the_pis_reply_undoes_both() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    table.expect("g7")
    table.play("g7", "a1")
    table.expect("a7")
    table.play("a7")
    table.lift("a7")
    table.wait(0.3)
    table.lift("a1")
    events = table.wait(1.7)
    assert events == [TakenBack([Move.parse("a1"), Move.parse("a7")])]
    assert table.referee.board.move_stack == [Move.parse("d6"), Move.parse("g7")]
    assert not table.referee.opponent_to_move


# -- the takeback button -------------------------------------------------------------------------


def test_the_takeback_button_guides_the_board_back_at_once() -> None:
    table = Table()
    table.play("d6", "a7")
    assert table.takeback() == [TakenBack([Move.parse("a7")])]
    assert table.shown() == {"fast": {"a7"}}
    assert table.status()["error"] == "on"
    table.wait(30.0)  # no turn is read while the board is not back: a7 would be black's turn again
    assert table.accepted() == ["d6", "a7"]
    table.lift("a7")
    table.wait(0.2)
    assert table.shown() == {}
    assert table.status()["error"] == "off"
    assert table.of(Flagged) == []
    table.play("g7")
    assert table.accepted()[-1] == "g7"


def test_the_takeback_button_restores_a_removed_piece_with_on() -> None:
    table = Table(position(MILL_W, MILL_B))
    table.play("g4-g7xe4")
    table.takeback()
    assert table.shown() == {"fast": {"g7"}, "on": {"g4", "e4"}}


def test_the_takeback_button_during_the_pis_search_cancels_it() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    events = table.takeback()
    assert events == [SearchCancelled(), TakenBack([Move.parse("d6")])]
    with pytest.raises(RefereeError):  # a search result arriving late is refused, not obeyed
        table.expect("a7")
    table.lift("d6")
    table.wait(0.2)
    assert table.play("f4")[-1] == OpponentToMove()


def test_the_takeback_button_with_the_pis_move_shown_undoes_the_persons_turn() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    table.expect("a7")
    events = table.takeback()
    assert events == [SearchCancelled(), TakenBack([Move.parse("d6")])]
    assert table.referee.expected is None
    assert table.shown() == {"fast": {"d6"}}


def test_the_takeback_button_with_nothing_to_undo_does_nothing() -> None:
    table = Table()
    assert table.takeback() == []
    table = Table(opponent_color=WHITE)
    table.expect("d6")
    table.play("d6")
    assert table.takeback() == []  # only the Pi has moved


# -- new game ------------------------------------------------------------------------------------


def test_clearing_the_board_starts_a_new_game() -> None:
    table = Table(position(MILL_W, MILL_B))
    for name in ["a7", "d7", "g4", "c5", "b2", "d2", "f2", "c4", "e4"]:
        table.lift(name)
        table.wait(0.4)
    assert table.of(NewGame) == []
    table.wait(1.9)
    assert table.of(NewGame) == [NewGame()]
    assert table.accepted() == []
    assert table.referee.board.occupied == 0
    assert table.referee.board.pieces_in_hand(WHITE) == 9
    table.play("d6")
    assert table.accepted() == ["d6"]


def test_an_empty_board_at_the_start_is_just_the_start() -> None:
    table = Table()
    table.wait(60.0)
    assert table.events == []


def test_the_new_game_button_blinks_leftover_pieces_until_the_board_is_empty() -> None:
    table = Table()
    table.play("d6", "a7")
    assert table.new_game() == [NewGame()]
    assert table.shown() == {"fast": {"d6", "a7"}}
    table.lift("d6")
    table.wait(0.2)
    assert table.shown() == {"fast": {"a7"}}
    table.lift("a7")
    table.wait(0.2)
    assert table.shown() == {}
    table.play("g7")
    assert table.accepted() == ["d6", "a7", "g7"]


def test_the_new_game_button_keeps_the_variant_and_settings() -> None:
    table = Table(Board(flying=False, no_removal_limit=50, double_mill_removes_two=True))
    table.new_game()
    assert table.referee.board.settings() == {
        "flying": False,
        "threefold_repetition": True,
        "no_removal_limit": 50,
        "remove_from_mills": False,
        "double_mill_removes_two": True,
    }


def test_a_new_game_while_the_pi_thinks_cancels_the_search() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    assert table.new_game() == [SearchCancelled(), NewGame()]


def test_a_new_game_with_the_pi_as_white_hands_it_the_first_turn() -> None:
    table = Table(opponent_color=WHITE)
    table.expect("d6")
    table.play("d6", "a7")
    for name in ("d6", "a7"):
        table.lift(name)
    events = table.wait(2.2)
    assert events[-2:] == [NewGame(), OpponentToMove()]


# -- game over -----------------------------------------------------------------------------------


def winning_table() -> Table:
    """White to move; g4-g7 removes one of black's last three pieces."""
    return Table(position(MILL_W, "b2 d2 f2"))


def test_game_over_is_announced_once_and_the_lights_go_out() -> None:
    table = winning_table()
    events = table.play("g4-g7xd2")
    assert events[-1] == GameOver(table.referee.board.outcome())  # type: ignore[arg-type]
    outcome = table.referee.board.outcome()
    assert outcome is not None and outcome.termination is Termination.TOO_FEW_PIECES
    assert outcome.winner == WHITE
    table.lift("b2")
    table.place("e5")
    table.wait(30.0)
    assert table.of(GameOver) and len(table.of(GameOver)) == 1
    assert table.of(Flagged) == []
    assert table.shown() == {}
    assert table.status() == {"turn": "off", "thinking": "off", "error": "off", "game_over": "on"}


def test_clearing_the_board_after_game_over_starts_a_new_game() -> None:
    table = winning_table()
    table.play("g4-g7xd2")
    for name in ["a7", "d7", "g7", "c5", "b2", "f2"]:
        table.lift(name)
    table.wait(2.2)
    assert table.of(NewGame) == [NewGame()]
    assert not table.referee.is_game_over
    table.play("d6")
    assert table.accepted()[-1] == "d6"


def test_the_new_game_button_after_game_over() -> None:
    table = winning_table()
    table.play("g4-g7xd2")
    table.new_game()
    assert not table.referee.is_game_over
    assert table.lit("fast") == {"a7", "d7", "g7", "c5", "b2", "f2"}


def test_the_takeback_button_after_game_over_resumes_the_game() -> None:
    table = winning_table()
    table.play("g4-g7xd2")
    assert table.takeback() == [TakenBack([Move.parse("g4-g7xd2")])]
    assert not table.referee.is_game_over
    assert table.shown() == {"fast": {"g7"}, "on": {"g4", "d2"}}


# -- hint ----------------------------------------------------------------------------------------


def test_a_hint_shows_the_turn_for_a_few_seconds() -> None:
    table = Table(position(MILL_W, MILL_B))
    table.hint("g4-g7xe4", duration=4.0)
    assert table.shown() == {"slow": {"g4", "e4"}, "on": {"g7"}}
    assert table.referee.next_deadline() == pytest.approx(4.0)
    table.wait(3.9)
    assert table.shown() == {"slow": {"g4", "e4"}, "on": {"g7"}}
    table.wait(0.2)
    assert table.shown() == {}
    assert table.referee.next_deadline() is None


def test_a_hint_ends_when_the_board_changes() -> None:
    table = Table()
    table.hint("d6")
    assert table.shown() == {"on": {"d6"}}
    table.place("a1")
    table.wait(0.05)
    assert table.shown() == {"on": {"d6"}}  # a flicker is no change
    table.wait(0.1)
    assert table.shown() == {}


def test_a_hint_must_be_legal() -> None:
    table = Table()
    with pytest.raises(RefereeError):
        table.hint("a1-a4")


# -- resuming a game -----------------------------------------------------------------------------


def test_a_resumed_game_guides_the_board_to_its_position_then_play_goes_on() -> None:
    board = board_of("d6", "a7", "g7")
    table = Table(board, sensed=mask("d6", "a1"))
    assert table.shown() == {"on": {"a7", "g7"}, "fast": {"a1"}}
    assert table.status()["error"] == "on"
    table.lift("a1")
    table.place("g7")
    table.wait(0.2)
    assert table.shown() == {"on": {"a7"}}
    table.place("a7")
    table.wait(SETTLE)
    assert table.accepted() == []  # putting the game back is not a turn
    assert table.shown() == {}
    table.play("a1")
    assert table.accepted() == ["a1"]


def test_a_resumed_game_found_on_an_empty_board_waits_to_be_set_up() -> None:
    board = board_of("d6", "a7", "g7")
    table = Table(board, sensed=0)  # the pieces were put away while the daemon was down
    table.wait(30.0)
    assert table.shown() == {"on": {"d6", "a7", "g7"}}
    for point in ("d6", "a7", "g7"):
        table.place(point)
    table.wait(SETTLE)
    assert table.shown() == {}
    table.play("a1")
    assert table.accepted() == ["a1"]


def test_a_resumed_board_cleared_by_the_person_starts_a_new_game() -> None:
    table = Table(board_of("d6", "a7"), sensed=mask("d6"))
    table.lift("d6")
    table.wait(SETTLE + 2.0)
    assert table.referee.board.move_stack == []
    assert table.shown() == {}


def test_a_resumed_game_reads_no_turn_from_the_board_it_finds() -> None:
    board = board_of("d6")
    table = Table(board, sensed=mask("d6", "a7"))  # a7 would be black's legal placement
    table.wait(30.0)
    assert table.accepted() == []
    assert table.shown() == {"fast": {"a7"}}
