"""A person's turns read from the board, in any order a person does them (referee mode)."""

from __future__ import annotations

import pytest

from morris.core import BLACK, WHITE, Move
from morris.referee import (
    Flagged,
    IllegalRemoval,
    MillClosed,
    OpponentToMove,
    Referee,
    RefereeConfig,
    RefereeError,
    Resolved,
    TurnAccepted,
)
from tests.referee.table import MILL_B, MILL_W, SETTLE, Table, board_of, mask, position


def mill_table() -> Table:
    return Table(position(MILL_W, MILL_B))


def test_a_placement_is_accepted_within_a_second_of_the_last_change() -> None:
    table = Table()
    table.place("d6")
    assert table.wait(0.59) == []
    assert table.wait(0.02) == [TurnAccepted(Move.parse("d6"), WHITE, False)]
    assert table.referee.board.turn == BLACK


def test_turns_alternate_between_the_colours() -> None:
    table = Table()
    events = table.play("d6", "a7", "g7")
    assert [(str(e.move), e.color) for e in events if isinstance(e, TurnAccepted)] == [
        ("d6", WHITE),
        ("a7", BLACK),
        ("g7", WHITE),
    ]
    assert all(not e.by_opponent for e in events if isinstance(e, TurnAccepted))


def test_a_slide_is_lift_then_place() -> None:
    table = mill_table()
    table.lift("d7")
    table.wait(0.5)
    assert table.accepted() == []
    table.place("d6")
    table.wait(SETTLE)
    assert table.accepted() == ["d7-d6"]


def test_a_lifted_piece_shows_its_legal_targets() -> None:
    table = mill_table()
    table.lift("g4")
    table.wait(0.2)
    assert table.shown() == {"on": {"g7", "g1", "f4"}}
    assert table.referee.lifted == mask("g4")


def test_a_piece_lifted_and_put_back_is_no_move_and_never_flagged() -> None:
    table = mill_table()
    table.lift("g4")
    table.wait(30.0)
    assert table.of(Flagged) == []
    table.place("g4")
    table.wait(SETTLE)
    assert table.accepted() == []
    assert table.shown() == {}


def test_a_mill_waits_for_its_removal_with_every_removable_piece_blinking() -> None:
    table = mill_table()
    table.move("g4-g7")
    table.wait(SETTLE)
    assert table.of(MillClosed) == [MillClosed(Move.parse("g4-g7"), mask("c4", "e4"))]
    assert table.shown() == {"slow": {"c4", "e4"}}
    assert table.referee.pending_action == Move.parse("g4-g7")
    table.wait(60.0)
    assert table.of(Flagged) == []
    table.lift("e4")
    table.wait(SETTLE)
    assert table.accepted() == ["g4-g7xe4"]
    assert table.shown() == {}


def test_the_removal_may_come_before_the_move() -> None:
    table = mill_table()
    table.lift("c4")
    table.wait(2.0)
    assert table.of(Flagged) == []
    assert table.shown() == {"on": {"g7"}}  # where the mill that removes c4 is closed
    table.lift("g4")
    table.wait(0.3)
    table.place("g7")
    table.wait(SETTLE)
    assert table.accepted() == ["g4-g7xc4"]


def test_removal_first_in_the_placing_phase() -> None:
    table = Table(board_of("a7", "b6", "d7", "f6"))
    table.lift("f6")
    table.wait(1.0)
    assert table.shown() == {"on": {"g7"}}
    table.place("g7")
    table.wait(SETTLE)
    assert table.accepted() == ["g7xf6"]


def test_lifting_an_opponent_piece_that_is_no_removal_is_flagged_after_the_flag_delay() -> None:
    table = mill_table()
    table.lift("d2")  # protected in black's mill
    table.wait(4.9)
    assert table.of(Flagged) == []
    table.wait(0.2)
    (flag,) = table.of(Flagged)
    assert isinstance(flag, Flagged)
    assert (flag.missing, flag.unexpected) == (mask("d2"), 0)
    assert table.shown() == {"on": {"d2"}}
    table.place("d2")
    table.wait(0.2)
    assert table.of(Resolved) == [Resolved()]
    assert table.shown() == {}


def test_an_unremovable_piece_lifted_after_a_mill_is_flagged_at_once() -> None:
    table = mill_table()
    table.move("g4-g7")
    table.wait(SETTLE)
    table.lift("d2")
    table.wait(0.5)
    assert table.of(IllegalRemoval) == []
    table.wait(0.2)
    assert table.of(IllegalRemoval) == [IllegalRemoval(mask("d2").bit_length() - 1)]
    assert table.shown() == {"slow": {"c4", "e4"}, "fast": {"d2"}}
    assert table.status()["error"] == "fast"
    table.place("d2")
    table.wait(0.2)
    assert table.of(Resolved) == [Resolved()]
    assert table.shown() == {"slow": {"c4", "e4"}}
    table.lift("c4")
    table.wait(SETTLE)
    assert table.accepted() == ["g4-g7xc4"]


def test_an_illegal_slide_is_flagged_with_the_difference_and_resolved_when_put_right() -> None:
    table = mill_table()
    table.move("a7-b6")  # not adjacent
    table.wait(SETTLE)
    assert table.shown() == {}
    table.wait(5.0)
    (flag,) = table.of(Flagged)
    assert isinstance(flag, Flagged)
    assert (flag.missing, flag.unexpected) == (mask("a7"), mask("b6"))
    assert table.shown() == {"on": {"a7"}, "fast": {"b6"}}
    assert table.referee.is_flagged
    table.lift("b6")
    table.wait(0.2)  # a piece in the hand again: explained
    assert table.of(Resolved) == [Resolved()]
    table.place("a4")
    table.wait(SETTLE)
    assert table.accepted() == ["a7-a4"]


def test_an_extra_piece_is_flagged_fast() -> None:
    table = mill_table()
    table.place("e5")
    table.wait(5.7)
    assert table.shown() == {"fast": {"e5"}}
    assert table.status()["error"] == "fast"


def test_a_blocked_piece_lifted_for_long_is_flagged() -> None:
    table = Table(position("a7 d7 g7 g4", "d6 a4 b2 d2 f2"))  # a7 cannot move: d7, a4 taken
    table.lift("a7")
    table.wait(0.2)
    assert table.shown() == {}
    table.wait(5.5)
    assert len(table.of(Flagged)) == 1
    assert table.shown() == {"on": {"a7"}}


def test_flying_shows_every_empty_point() -> None:
    board = position("a7 d7 g4", "b2 d2 f2 c4 e4 e5", "w")
    table = Table(board)
    table.lift("g4")
    table.wait(0.2)
    assert len(table.lit("on")) == 24 - 9  # every empty point
    table.place("b6")
    table.wait(SETTLE)
    assert table.accepted() == ["g4-b6"]


def test_expect_is_refused_when_it_is_not_the_pis_turn() -> None:
    referee = Referee(board_of(), opponent_color=BLACK)
    with pytest.raises(RefereeError):
        referee.expect(Move.parse("d6"), 0.0)
    referee.update(mask("d6"), 0.0)
    assert OpponentToMove() in referee.poll(1.0)
    with pytest.raises(RefereeError, match="occupied"):
        referee.expect(Move.parse("d6"), 1.0)


def test_config_rejects_negative_times() -> None:
    with pytest.raises(ValueError, match="flag_delay"):
        RefereeConfig(flag_delay=-1.0)


def test_timings_come_from_the_configuration() -> None:
    table = Table(config=RefereeConfig(debounce=0.05, accept_delay=0.2))
    table.place("d6")
    table.wait(0.24)
    assert table.accepted() == []
    table.wait(0.02)
    assert table.accepted() == ["d6"]
