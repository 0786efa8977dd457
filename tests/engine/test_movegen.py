"""The search's own move generator agrees with the rules core."""

from __future__ import annotations

import pytest

from morris import Board, TwelveMensMorris, perft
from morris.engine.movegen import decode, encode, generate
from morris.engine.movegen import perft as fast_perft
from tests.engine.helpers import position, random_board


def _random_board(seed: int, plies: int, cls: type[Board] = Board) -> Board:
    return random_board(seed, plies, cls, threefold_repetition=False, no_removal_limit=None)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_from_the_start_matches_the_core(depth: int) -> None:
    assert fast_perft(Board(), depth) == perft(Board(), depth)


@pytest.mark.parametrize("seed", range(12))
def test_perft_from_random_games_matches_the_core(seed: int) -> None:
    board = _random_board(seed, plies=10 + 4 * seed)
    assert fast_perft(board, 2) == perft(board, 2)


@pytest.mark.parametrize("seed", range(4))
def test_perft_for_twelve_mens_morris_matches_the_core(seed: int) -> None:
    board = _random_board(seed, plies=6 + 8 * seed, cls=TwelveMensMorris)
    assert fast_perft(board, 2) == perft(board, 2)


def test_flying_and_no_flying_generate_what_the_core_does() -> None:
    for flying in (True, False):
        board = position("a7 d7 b2", "c5 e3 g1 d2", flying=flying)
        rules = board.rules
        mills, quiet = generate(rules, board.occupied_co(True), board.occupied_co(False), 0)
        assert {decode(m) for m in mills + quiet} == set(board.legal_moves)


def test_encoding_round_trips_every_kind_of_turn() -> None:
    board = _random_board(3, 30)
    for move in board.generate_moves():
        assert decode(encode(move)) == move
