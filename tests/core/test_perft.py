"""perft: the number of turn sequences, checked against an independent move generator.

The values for depths 5 and 6 were derived with :mod:`tests.core.reference`, written from RULES.md
with sets of point names and the links of the docs/RULES.md diagram, sharing nothing with the core.
(The same generator gives perft(7) = 1873562112.)
"""

from __future__ import annotations

import pytest

from morris.core import BLACK, WHITE, Board, perft
from tests.core import reference
from tests.core.games import StrongGame, position_after, strong_games

START_PERFT = {1: 24, 2: 552, 3: 12144, 4: 255024, 5: 5140800, 6: 99274176}


def state_of(board: Board) -> reference.State:
    pieces = board.pieces()
    return reference.State(
        frozenset(p for p, c in pieces.items() if c == WHITE),
        frozenset(p for p, c in pieces.items() if c == BLACK),
        board.pieces_in_hand(WHITE),
        board.pieces_in_hand(BLACK),
        board.turn == WHITE,
    )


def without_draw_rules(board: Board, flying: bool = True) -> Board:
    """The same position where only wins and losses end the game, as in the reference."""
    return Board(board.position(), flying=flying, threefold_repetition=False, no_removal_limit=None)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_perft_from_the_start(depth: int) -> None:
    assert perft(Board(), depth) == START_PERFT[depth]


def test_no_mill_is_possible_before_the_fifth_turn() -> None:
    assert START_PERFT[4] == 24 * 23 * 22 * 21
    assert START_PERFT[5] > START_PERFT[4] * 20  # mills with their choice of removal


def test_perft_5_from_the_start() -> None:
    board = Board()
    assert perft(board, 5) == START_PERFT[5]
    assert board == Board() and board.move_stack == []


def test_the_reference_agrees_on_perft_1_to_5() -> None:
    for depth in range(1, 6):
        assert reference.perft(reference.start(), depth) == START_PERFT[depth]


@pytest.mark.slow
def test_perft_6_from_the_start() -> None:
    # START_PERFT[6] was derived with the independent generator of tests/core/reference.py
    # (about two minutes there, so not repeated on every run; depths 1-5 are).
    assert perft(Board(), 6) == START_PERFT[6]


def test_perft_0_is_one_and_negative_depths_are_refused() -> None:
    assert perft(Board(), 0) == 1
    with pytest.raises(ValueError, match="depth must be at least 0, not -1"):
        perft(Board(), -1)


def test_perft_of_a_finished_game_is_zero() -> None:
    game = strong_games()[0]
    assert perft(position_after(game, len(game.turns)), 1) == 0


@pytest.mark.parametrize("game", strong_games(), ids=lambda g: f"line{g.lineno}")
def test_the_moves_of_every_strong_game_position_match_the_reference(game: StrongGame) -> None:
    board = Board()
    for text in game.turns:
        for flying in (True, False):
            board.flying = flying
            expected = set(reference.turns(state_of(board), flying=flying))
            assert {str(m) for m in board.generate_moves()} == expected, board.position()
        board.flying = True
        board.push_notation(text)


@pytest.mark.parametrize(
    ("game_index", "plies", "depth"),
    [(0, 16, 3), (0, 30, 3), (3, 60, 3), (6, 100, 3), (9, 22, 3), (13, 150, 3)],
)
def test_perft_in_the_middle_of_strong_games_matches_the_reference(
    game_index: int, plies: int, depth: int
) -> None:
    board = without_draw_rules(position_after(strong_games()[game_index], plies))
    assert perft(board, depth) == reference.perft(state_of(board), depth)
