"""The referee in the variants: two removals, slides while placing, points not in play."""

from __future__ import annotations

from morris.core import (
    WHITE,
    Board,
    LaskerMorris,
    Move,
    SixMensMorris,
)
from morris.referee import Flagged, IllegalRemoval, MillClosed
from tests.referee.table import SETTLE, Table, mask

#: White closes a1-d1-g1 and a7-a4-a1 at once with a1; black has b2 d2 d6 f4 outside mills.
DOUBLE = "W...WW.W/.B.B.BB./........ w 5 5 0 20 -"


def double_table(**settings: bool) -> Table:
    return Table(Board(DOUBLE, **settings))


def test_a_double_mill_asks_for_two_removals_one_after_the_other() -> None:
    table = double_table(double_mill_removes_two=True)
    table.place("a1")
    table.wait(SETTLE)
    assert table.of(MillClosed) == [MillClosed(Move.parse("a1"), mask("b2", "d2", "d6", "f4"), 2)]
    assert table.shown() == {"slow": {"b2", "d2", "d6", "f4"}}
    table.lift("d6")
    table.wait(SETTLE)
    assert table.accepted() == []  # one more to go
    assert table.shown() == {"slow": {"b2", "d2", "f4"}}
    table.lift("f4")
    table.wait(SETTLE)
    assert table.accepted() == ["a1xd6xf4"]
    assert table.shown() == {}


def test_without_the_switch_a_double_mill_removes_one() -> None:
    table = double_table()
    table.place("a1")
    table.wait(SETTLE)
    assert table.of(MillClosed) == [MillClosed(Move.parse("a1"), mask("b2", "d2", "d6", "f4"), 1)]
    table.lift("d6")
    table.wait(SETTLE)
    assert table.accepted() == ["a1xd6"]


def test_a_protected_second_removal_is_flagged() -> None:
    # Black: b6 d6 f6 is a mill, f4 and d2 stand outside; after f4 the mill is still protected.
    table = Table(Board("W...WW.W/BBBB.B../........ w 5 4 0 20 -", double_mill_removes_two=True))
    table.place("a1")
    table.wait(SETTLE)
    table.lift("f4")
    table.wait(SETTLE)
    assert table.shown() == {"slow": {"d2"}}
    table.lift("d6")
    table.wait(SETTLE)
    assert table.of(IllegalRemoval) == [IllegalRemoval(mask("d6").bit_length() - 1)]
    assert table.accepted() == []
    table.place("d6")
    table.lift("d2")
    table.wait(SETTLE)
    assert table.accepted() == ["a1xf4xd2"]


def test_both_removals_may_come_before_the_action() -> None:
    table = double_table(double_mill_removes_two=True)
    table.lift("b2")
    table.wait(0.3)
    table.lift("d2")
    table.wait(SETTLE)
    assert table.shown() == {"on": {"a1"}}
    table.place("a1")
    table.wait(SETTLE)
    assert table.accepted() == ["a1xd2xb2"]


def test_a_piece_in_a_mill_may_be_taken_with_remove_from_mills() -> None:
    position = "......WW/BBBB..../........ w 5 5 0 20 -"  # black's b6 d6 f6 is a mill
    protected = Table(Board(position))
    protected.place("a7")
    protected.wait(SETTLE)
    assert protected.shown() == {"slow": {"f4"}}
    free = Table(Board(position, remove_from_mills=True))
    free.place("a7")
    free.wait(SETTLE)
    assert free.shown() == {"slow": {"b6", "d6", "f6", "f4"}}
    free.lift("d6")
    free.wait(SETTLE)
    assert free.accepted() == ["a7xd6"]


def test_lasker_slide_while_pieces_are_in_hand() -> None:
    table = Table(LaskerMorris("......W./......../.B...... w 9 9 0 1 -"))
    table.lift("a1")
    table.wait(SETTLE)
    assert table.shown() == {"on": {"a4", "d1"}}  # its neighbours, while others are in hand
    table.place("d1")
    table.wait(SETTLE)
    assert table.accepted() == ["a1-d1"]
    assert table.referee.board.pieces_in_hand(WHITE) == 9


def test_a_slide_while_placing_is_flagged_in_the_standard_game() -> None:
    table = Table(Board("......W./......../.B...... w 8 8 0 1 -"))
    table.move("a1-d1")
    table.wait(6.0)
    assert len(table.of(Flagged)) == 1
    assert table.accepted() == []


def test_six_mens_morris_lights_its_points_at_the_start_and_flags_an_outer_piece() -> None:
    table = Table(SixMensMorris())
    assert table.lit("on") == {
        "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4",
        "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4",
    }  # fmt: skip
    table.place("a7")
    table.wait(6.0)
    (flag,) = table.of(Flagged)
    assert isinstance(flag, Flagged)
    assert flag.unexpected == mask("a7")
    assert "a7 not in play in Six men's morris" in flag.reason.render("en")
    assert table.shown() == {"fast": {"a7"}}
    table.lift("a7")
    table.place("d6")
    table.wait(SETTLE)
    assert table.accepted() == ["d6"]
    assert table.shown() == {}
