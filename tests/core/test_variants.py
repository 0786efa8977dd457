"""Variants: twelve men's morris on the same board, finding variants by name, and the contract.

The contract: a variant is a Rules value, and its board class sets only ``variant``; the engine
refuses (UnsupportedVariant) a board class that overrides a rules method.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from morris.core import (
    STANDARD,
    TWELVE,
    VARIANT_NAMES,
    VARIANTS,
    WHITE,
    Board,
    GameRecord,
    InvalidPositionError,
    InvalidRulesError,
    Move,
    Outcome,
    Rules,
    Termination,
    TwelveMensMorris,
    UnsupportedVariant,
    engine_rules,
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
    for name, rules in VARIANTS.items():
        cls = find_variant(name)
        assert cls.variant is rules
        assert find_variant(cls.variant_name) is cls
        assert cls.variant_name == rules.name and name in rules.names


def test_the_registry_names_each_variant_once_with_its_aliases() -> None:
    assert VARIANT_NAMES == ("standard", "twelve", "morabaraba", "lasker", "six")
    assert set(VARIANTS) == {
        "standard", "nine", "nine-mens-morris", "twelve", "twelve-mens-morris", "morabaraba",
        "umlabalaba", "lasker", "lasker-morris", "six", "six-mens-morris",
    }  # fmt: skip
    assert VARIANTS["standard"] is STANDARD is Board.variant
    assert VARIANTS["twelve"] is TWELVE is TwelveMensMorris.variant


def test_a_board_plays_by_its_variant_with_its_settings() -> None:
    board = TwelveMensMorris(flying=False, no_removal_limit=None)
    rules = board.rules
    assert (rules.name, rules.pieces_per_side, rules.full_board_is_draw) == ("twelve", 12, True)
    assert (rules.flying, rules.threefold_repetition, rules.no_removal_limit) == (False, True, None)
    assert rules.neighbours == TwelveMensMorris.neighbours
    assert rules.mills_through == TwelveMensMorris.mills_through
    board.flying = True  # the settings are read when asked for
    assert board.rules.flying is True
    assert Board().rules == STANDARD


class _NoRemovals(Board):
    """A made-up variant whose mills remove nothing: rules the engine cannot know of."""

    def generate_moves(self) -> Iterator[Move]:
        return (m.without_removal() for m in super().generate_moves())


def test_a_board_overriding_a_rules_method_is_refused_for_the_engine() -> None:
    board = _NoRemovals()
    assert len(list(board.generate_moves())) == 24  # the core plays it
    with pytest.raises(UnsupportedVariant, match="_NoRemovals overrides generate_moves"):
        engine_rules(board)
    assert engine_rules(TwelveMensMorris(flying=False)) == TwelveMensMorris(flying=False).rules


def test_a_variant_sets_its_rules_not_the_tables_of_the_board() -> None:
    with pytest.raises(UnsupportedVariant, match="_Diagonals sets neighbours"):

        class _Diagonals(Board):
            neighbours = TWELVE.neighbours

    with pytest.raises(UnsupportedVariant, match="keep the default draw settings"):

        class _NoRepetition(Board):
            variant = Rules(
                name="no-repetition",
                title="No repetition",
                summary="threefold repetition off",
                pieces_per_side=9,
                neighbours=STANDARD.neighbours,
                mill_masks=STANDARD.mill_masks,
                threefold_repetition=False,
            )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"pieces_per_side": 2}, "pieces_per_side must be 3..12, not 2"),
        ({"neighbours": STANDARD.neighbours[:23]}, "24 masks expected, got 23"),
        ({"neighbours": (1 << 1, *STANDARD.neighbours[1:])}, "7 links 0 but not back"),
        ({"mill_masks": (0b11,)}, "0x3 is not three points"),
        ({"name": "Nine Men"}, "name must be lower case"),
    ],
)
def test_rules_that_describe_no_game_are_refused(change: dict[str, object], message: str) -> None:
    fields: dict[str, object] = {
        "name": "test",
        "title": "Test",
        "summary": "a test",
        "pieces_per_side": 9,
        "neighbours": STANDARD.neighbours,
        "mill_masks": STANDARD.mill_masks,
    }
    with pytest.raises(InvalidRulesError, match=message):
        Rules(**(fields | change))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["three", "", "chess"])
def test_find_variant_errors_name_the_variant_and_the_known_ones(name: str) -> None:
    with pytest.raises(ValueError) as info:
        find_variant(name)
    assert f"unknown variant {name!r}" in str(info.value)
    assert "known: standard, twelve" in str(info.value)
