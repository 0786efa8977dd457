"""Referee.set_up: a set-up position replaces the game, the lights guide the board to it (the
guidance of a resumed game), an emptied board waits, and play starts once the board matches."""

from __future__ import annotations

import pytest

from morris.core import BLACK, Board
from morris.referee import NewGame, OpponentToMove, RefereeError, SearchCancelled, SetUp, SetUpDone
from tests.referee.table import SETTLE, Table

POSITION = "WW....../......../B.B..... b 7 7 0 3 -"  # White a7 d7, Black c5 e5, Black to move


def test_the_lights_guide_the_board_to_the_position_and_the_pi_is_asked_once_it_matches() -> None:
    table = Table(opponent_color=BLACK)
    table.play("d6")
    board = Board(POSITION)
    table.take()
    events = table._record(table.referee.set_up(board, table.t))
    assert events == [SearchCancelled(), SetUp(POSITION)]  # the Pi was to move
    assert table.shown() == {"on": {"a7", "d7", "c5", "e5"}, "fast": {"d6"}}
    assert table.status()["error"] == "on"
    table.lift("d6")
    table.wait(SETTLE * 4)  # an emptied board: no new game while it is being set up
    assert table.of(NewGame) == [] and table.of(OpponentToMove) == []
    for name in ("a7", "d7", "c5"):
        table.place(name)
    table.wait(SETTLE)
    assert table.of(OpponentToMove) == []
    table.place("e5")
    table.wait(SETTLE)
    assert table.take()[-2:] == [SetUpDone(), OpponentToMove()]
    assert table.lights() == dict.fromkeys(table.lights(), "off")
    table.expect("d6")
    assert table.shown() == {"on": {"d6"}}
    table.place("d6")
    table.wait(SETTLE)
    assert table.accepted() == ["d6"]


def test_a_board_that_already_matches_plays_at_once_and_a_search_is_cancelled() -> None:
    table = Table(Board(), opponent_color=BLACK)
    table.play("d6")  # the Pi is to move
    table.take()
    table.lift("d6")
    table.wait(0.05)  # below the debounce: the referee has not seen it yet
    start = "......../......../........ w 9 9 0 1 -"
    events = table.referee.set_up(Board(start), table.t, 0)
    assert events == [SearchCancelled(), SetUp(start), SetUpDone()]


def test_a_finished_position_is_refused() -> None:
    table = Table()
    with pytest.raises(RefereeError, match="already over"):
        table.referee.set_up(Board("WWW...../......../B....... b 0 0 0 20 -"), table.t)
    assert table.referee.board.position() == Board().position()
