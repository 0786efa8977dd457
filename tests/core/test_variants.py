"""Variants: twelve men's morris on the same board, and finding variants by name."""

from __future__ import annotations

import pytest

from morris.core import (
    VARIANTS,
    WHITE,
    Board,
    GameRecord,
    InvalidPositionError,
    Outcome,
    Termination,
    TwelveMensMorris,
    find_variant,
    read_game,
    write_game,
)
from tests.core.games import make_board

#: A colouring of all 24 points, 12 each, with no line of three of one colour (diagonals included).
FULL_WHITE = ["a1", "b6", "c4", "d3", "d5", "d6", "e4", "e5", "f2", "f4", "g1", "g7"]
FULL_BLACK = ["a4", "a7", "b2", "b4", "c3", "c5", "d1", "d2", "d7", "e3", "f6", "g4"]


def test_twelve_mens_morris_has_twelve_pieces_each() -> None:
    board = TwelveMensMorris()
    assert board.pieces_in_hand(WHITE) == 12
    assert board.position() == "......../......../........ w 12 12 0 1 -"
    assert board.variant_name == "twelve"


def test_twelve_mens_morris_slides_along_the_diagonals() -> None:
    board = make_board("a1 d6 f4 e3", "d1 g7 c5 d3", board_class=TwelveMensMorris)
    moves = {str(m) for m in board.legal_moves if str(m).startswith("a1-")}
    assert moves == {"a1-a4", "a1-b2"}
    standard = make_board("a1 d6 f4 e3", "d1 g7 c5 d3")
    assert "a1-b2" not in standard.legal_moves


def test_twelve_mens_morris_has_mills_on_the_diagonals() -> None:
    board = make_board("a1 b2", "d1 g7 c5 d3", hands=(10, 8), board_class=TwelveMensMorris)
    assert {str(m) for m in board.legal_moves if str(m).startswith("c3")} == {
        "c3xd1", "c3xg7", "c3xc5", "c3xd3"
    }  # fmt: skip
    standard = make_board("a1 b2", "d1 g7 c5 d3", hands=(7, 5))
    assert "c3" in {str(m) for m in standard.legal_moves}


def test_a_full_board_at_the_end_of_placing_is_a_draw() -> None:
    board = TwelveMensMorris()
    for white, black in zip(FULL_WHITE, FULL_BLACK, strict=True):
        board.push_notation(white)
        assert board.outcome() is None
        board.push_notation(black)
    assert board.occupied == (1 << 24) - 1
    assert board.outcome() == Outcome(Termination.FULL_BOARD, None)
    assert board.result() == "1/2-1/2"
    assert not board.legal_moves


def test_the_standard_board_never_fills() -> None:
    assert Board.full_board_is_draw is False
    assert Board().pieces_in_hand(WHITE) * 2 < 24


def test_a_twelve_mens_morris_record_round_trips() -> None:
    board = TwelveMensMorris()
    for white, black in zip(FULL_WHITE[:3], FULL_BLACK[:3], strict=True):
        board.push_notation(white)
        board.push_notation(black)
    record = read_game(write_game(GameRecord.from_board(board)))
    assert record.tags["Variant"] == "twelve"
    assert type(record.board()) is TwelveMensMorris
    assert record.board() == board


def test_variant_copies_and_positions_keep_the_variant() -> None:
    board = TwelveMensMorris(flying=False)
    board.push_notation("a1")
    assert type(board.copy()) is TwelveMensMorris
    assert type(board.copy(stack=False)) is TwelveMensMorris
    assert TwelveMensMorris.from_position(board.position()) == board
    with pytest.raises(InvalidPositionError, match="more than 9 pieces"):
        Board.from_position(board.position())  # too many pieces for the standard game


@pytest.mark.parametrize(
    ("name", "cls"),
    [
        ("standard", Board),
        ("nine", Board),
        ("Nine-Mens-Morris", Board),
        (" twelve ", TwelveMensMorris),
        ("twelve-mens-morris", TwelveMensMorris),
    ],
)
def test_find_variant_by_name_or_alias(name: str, cls: type[Board]) -> None:
    assert find_variant(name) is cls


def test_every_variant_name_is_found() -> None:
    for name, cls in VARIANTS.items():
        assert find_variant(name) is cls
        assert find_variant(cls.variant_name) is cls


@pytest.mark.parametrize("name", ["morabaraba", "", "chess"])
def test_find_variant_errors_name_the_variant_and_the_known_ones(name: str) -> None:
    with pytest.raises(ValueError) as info:
        find_variant(name)
    assert f"unknown variant {name!r}" in str(info.value)
    assert "known: standard, twelve" in str(info.value)
