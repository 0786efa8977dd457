"""The one judgement of a turn that threw a result away, and the one search for the first such
turn that ``morris analyse RECORD`` and ``morris review`` both use."""

from __future__ import annotations

import pytest

from morris.core.moves import Move
from morris.engine.result import Result, Value, first_threw_away, threw_away
from morris.engine.solution.analyse import GameTurn

WIN_IN_7 = Result(Value.WIN, 7)
WIN_IN_21 = Result(Value.WIN, 21)
DRAW = Result(Value.DRAW, 0)
LOSS_IN_4 = Result(Value.LOSS, 4)


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (WIN_IN_7, DRAW, True),
        (WIN_IN_7, LOSS_IN_4, True),
        (DRAW, LOSS_IN_4, True),
        (WIN_IN_7, WIN_IN_21, False),  # slower, but still a win
        (LOSS_IN_4, DRAW, False),
        (DRAW, DRAW, False),
        (None, LOSS_IN_4, False),
        (WIN_IN_7, None, False),
    ],
)
def test_a_turn_threw_away_only_a_class_of_value(
    before: Result | None, after: Result | None, expected: bool
) -> None:
    assert threw_away(before, after) is expected


def _turn(ply: int, before: Result | None, after: Result | None) -> GameTurn:
    return GameTurn(ply, "white" if ply % 2 else "black", Move.parse("d6"), before, after)


def test_the_first_turn_that_threw_a_result_away_is_found_not_a_later_one() -> None:
    turns = [
        _turn(1, DRAW, DRAW),
        _turn(2, WIN_IN_7, WIN_IN_21),
        _turn(3, None, LOSS_IN_4),  # not covered: not judged
        _turn(4, WIN_IN_7, DRAW),
        _turn(5, DRAW, LOSS_IN_4),
    ]
    first = first_threw_away(turns)
    assert first is turns[3]
    assert first_threw_away(iter(turns[4:])) is turns[4]


def test_a_game_that_threw_nothing_away_has_no_first_turn() -> None:
    assert first_threw_away([_turn(1, WIN_IN_7, WIN_IN_21), _turn(2, DRAW, DRAW)]) is None
    assert first_threw_away([]) is None
