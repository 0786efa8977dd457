"""Playing the Pi: its turn shown, carried out by hand, committed only once it is on the board."""

from __future__ import annotations

from morris.core import BLACK, WHITE, Move
from morris.referee import Flagged, MillClosed, OpponentToMove, Resolved, TurnAccepted
from tests.referee.table import MILL_B, MILL_W, SETTLE, Table, mask, position


def pi_mill_table() -> Table:
    """The Pi (black) to move; its g4-g7 closes a mill and may remove c4 or e4."""
    return Table(position(MILL_B, MILL_W, "b"), opponent_color=BLACK)


def test_the_persons_turn_hands_over_to_the_pi() -> None:
    table = Table(opponent_color=BLACK)
    events = table.play("d6")
    assert events == [TurnAccepted(Move.parse("d6"), WHITE, False), OpponentToMove()]
    assert table.referee.opponent_to_move
    assert table.status()["turn"] == "off"


def test_the_pis_placement_is_on_until_carried_out() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    table.expect("a7")
    assert table.shown() == {"on": {"a7"}}
    assert table.referee.expected == Move.parse("a7")
    table.place("a7")
    events = table.wait(SETTLE)
    assert events == [TurnAccepted(Move.parse("a7"), BLACK, True)]
    assert table.referee.expected is None
    assert table.shown() == {}
    assert table.status()["turn"] == "on"


def test_the_pi_playing_white_starts() -> None:
    table = Table(opponent_color=WHITE)
    assert table.referee.opponent_to_move  # the daemon checks this after construction
    events = table.new_game()
    assert events[-1] == OpponentToMove()


def test_the_pis_slide_and_removal_are_shown_in_order() -> None:
    table = pi_mill_table()
    table.expect("g4-g7xe4")
    assert table.shown() == {"slow": {"g4"}, "on": {"g7"}}  # the removal waits
    table.lift("g4")
    table.wait(0.3)
    assert table.shown() == {"on": {"g7"}}
    table.place("g7")
    table.wait(0.3)
    assert table.shown() == {"slow": {"e4"}}  # now the piece to clear
    assert table.accepted() == []
    table.lift("e4")
    table.wait(SETTLE)
    assert table.accepted() == ["g4-g7xe4"]
    assert table.events[-1] == TurnAccepted(Move.parse("g4-g7xe4"), BLACK, True)


def test_the_pis_removal_may_be_done_first() -> None:
    table = pi_mill_table()
    table.expect("g4-g7xe4")
    table.lift("e4")
    table.wait(0.5)
    assert table.shown() == {"slow": {"g4"}, "on": {"g7"}}
    table.move("g4-g7")
    table.wait(SETTLE)
    assert table.accepted() == ["g4-g7xe4"]


def test_the_pis_turn_carried_out_wrongly_is_flagged_with_the_difference() -> None:
    table = pi_mill_table()
    table.expect("g4-g7xe4")
    table.move("g4-g7xc4")  # the wrong piece removed
    table.wait(SETTLE)
    assert table.accepted() == []
    table.wait(5.0)
    (flag,) = table.of(Flagged)
    assert isinstance(flag, Flagged)
    assert (flag.missing, flag.unexpected) == (mask("c4"), mask("e4"))
    assert table.shown() == {"on": {"c4"}, "slow": {"e4"}}  # e4 is still the Pi's removal
    assert table.status()["error"] == "fast"
    table.place("c4")
    table.wait(0.2)
    assert table.of(Resolved) == [Resolved()]
    table.lift("e4")
    table.wait(SETTLE)
    assert table.accepted() == ["g4-g7xe4"]


def test_the_pis_slide_to_the_wrong_point_is_flagged() -> None:
    table = pi_mill_table()
    table.expect("g4-g1")
    table.move("g4-f4")
    table.wait(5.7)
    (flag,) = table.of(Flagged)
    assert isinstance(flag, Flagged)
    assert (flag.missing, flag.unexpected) == (mask("g1"), mask("f4"))
    assert table.shown() == {"on": {"g1"}, "fast": {"f4"}}


def test_the_pis_turn_left_half_done_is_flagged_after_the_flag_delay() -> None:
    table = pi_mill_table()
    table.expect("g4-g7xe4")
    table.move("g4-g7")
    table.wait(5.0)
    assert table.of(Flagged) == []
    table.wait(0.7)
    (flag,) = table.of(Flagged)
    assert isinstance(flag, Flagged)
    assert (flag.missing, flag.unexpected) == (0, mask("e4"))
    assert table.shown() == {"slow": {"e4"}}  # the request is unchanged


def test_the_pis_shown_turn_is_never_flagged_while_nobody_touches_the_board() -> None:
    table = pi_mill_table()
    table.expect("g4-g1")
    table.wait(600.0)
    assert table.of(Flagged) == []
    assert table.shown() == {"slow": {"g4"}, "on": {"g1"}}


def test_the_board_changed_while_the_pi_thinks_is_flagged() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    table.place("a7")  # the person does not wait for the Pi
    table.wait(5.7)
    (flag,) = table.of(Flagged)
    assert isinstance(flag, Flagged)
    assert flag.unexpected == mask("a7")
    assert "thinks" in flag.reason.render("en")


def test_the_person_closes_a_mill_against_the_pi_and_removes_a_pi_piece() -> None:
    table = Table(position(MILL_W, MILL_B), opponent_color=BLACK)
    table.move("g4-g7")
    table.wait(SETTLE)
    assert table.of(MillClosed) == [MillClosed(Move.parse("g4-g7"), mask("c4", "e4"))]
    assert table.of(OpponentToMove) == []
    table.lift("c4")
    events = table.wait(SETTLE)
    assert events == [TurnAccepted(Move.parse("g4-g7xc4"), WHITE, False), OpponentToMove()]


def test_expect_on_a_board_already_showing_the_move_accepts_it() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    table.wait(2.0)
    events = table.expect("a7")
    assert events == []
    table.place("a7")
    assert table.wait(0.61) == [TurnAccepted(Move.parse("a7"), BLACK, True)]
