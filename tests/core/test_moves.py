"""Turns and their notation (docs/RULES.md, settled point 9)."""

from __future__ import annotations

import pytest

from morris.core import InvalidMoveError, MorrisError, Move, parse_point


def test_a_placement_is_the_point() -> None:
    move = Move.parse("d6")
    assert move == Move(None, parse_point("d6"))
    assert move.is_placement
    assert str(move) == "d6"


def test_a_slide_is_from_dash_to() -> None:
    move = Move.parse("a1-a4")
    assert move == Move(parse_point("a1"), parse_point("a4"))
    assert not move.is_placement
    assert str(move) == "a1-a4"


@pytest.mark.parametrize("text", ["d6xg7", "a1-a4xg7"])
def test_a_removal_is_appended_with_x(text: str) -> None:
    move = Move.parse(text)
    assert move.remove == parse_point("g7")
    assert str(move) == text
    assert str(move.without_removal()) == text.partition("x")[0]


@pytest.mark.parametrize(("text", "expected"), [("D6XG7", "d6xg7"), ("  a1-A4 ", "a1-a4")])
def test_parsing_ignores_case_and_surrounding_space(text: str, expected: str) -> None:
    assert str(Move.parse(text)) == expected


def test_moves_are_hashable_values_with_a_parseable_repr() -> None:
    moves = {Move.parse("d6"), Move.parse("d6"), Move.parse("a1-a4xg7")}
    assert len(moves) == 2
    assert repr(Move.parse("a1-a4xg7")) == "Move.parse('a1-a4xg7')"
    with pytest.raises(AttributeError):
        Move.parse("d6").to_point = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "invalid move ''"),
        ("d4", "invalid move 'd4'"),
        ("d6x", "no point after 'x' in move 'd6x'"),
        ("a1-", "a slide needs two points: 'a1-'"),
        ("-a4", "a slide needs two points: '-a4'"),
        ("a1-a1", "a move cannot end where it starts: 'a1-a1'"),
        ("a1-a4-a7", "invalid move 'a1-a4-a7'"),
        ("d6xg7xa1xb2", "at most two removals"),
        ("d6xg7xg7", "removed twice"),
        ("d6xz9", "invalid move 'd6xz9'"),
        ("xg7", "invalid move 'xg7'"),
    ],
)
def test_parse_errors_name_the_text(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Move.parse(text)
    assert message in str(info.value)


def test_parse_errors_are_value_errors_of_the_core() -> None:
    with pytest.raises(ValueError):
        Move.parse("nonsense")
    with pytest.raises(MorrisError):
        Move.parse("nonsense")


def test_parse_rejects_what_is_not_text() -> None:
    with pytest.raises(InvalidMoveError, match="must be text, not int"):
        Move.parse(9)  # type: ignore[arg-type]
