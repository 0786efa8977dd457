"""Every variant's move generation and perft against the independent generator of the tests.

:mod:`tests.core.variant_reference` states the rules of docs/RULES.md with sets of point names and
shares nothing with the core; here the two must agree on the turns of every position of random
games (each variant, the removal switches on and off) and on perft from several positions.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from morris.core import BLACK, WHITE, Board, Move, find_variant, perft
from tests.core import variant_reference as ref
from tests.core.games import play_random_game
from tests.core.test_perft import state_of as standard_state_of

NAMES = tuple(ref.GAMES)
#: The removal switches: (remove_from_mills, double_mill_removes_two).
SWITCHES = [(False, False), (True, False), (False, True), (True, True)]


def board_of(name: str, **settings: bool | int | None) -> Board:
    """The core's board of variant ``name`` with the draw rules off, as in the reference."""
    cls = find_variant(name)
    return cls(threefold_repetition=False, no_removal_limit=None, **settings)  # type: ignore[arg-type]


def game_of(board: Board) -> ref.Game:
    """The reference's rules for ``board``'s variant and settings."""
    return dataclasses.replace(
        ref.GAMES[board.variant_name],
        flying=board.flying,
        remove_from_mills=board.remove_from_mills,
        double_removes_two=board.double_mill_removes_two,
    )


def state_of(board: Board) -> ref.State:
    """The reference's state for ``board``'s position, its barred returns included."""

    def bar(color: bool) -> tuple[str, str] | None:
        move = board.barred_return(color)
        if move is None:
            return None
        frm, _, to = str(move).partition("-")
        return (frm, to)

    return ref.State(**vars(standard_state_of(board)), white_bar=bar(WHITE), black_bar=bar(BLACK))


def turns_of(board: Board) -> set[ref.Turn]:
    """The core's legal turns as the reference writes them."""
    out = set()
    for move in board.legal_moves:
        action = str(Move(move.from_point, move.to_point))
        removals = frozenset(str(Move(None, r)) for r in move.removals)
        out.add((action, removals))
    return out


def test_the_reference_reads_each_variant_board_as_the_docs_describe_it() -> None:
    counts = {name: (len(g.points), len(g.links), len(g.mills)) for name, g in ref.GAMES.items()}
    assert counts == {
        "standard": (24, 32, 16),
        "twelve": (24, 40, 20),
        "morabaraba": (24, 40, 20),
        "lasker": (24, 32, 16),
        "six": (16, 20, 8),
    }


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(("from_mills", "double"), SWITCHES)
def test_every_position_of_random_games_has_the_reference_turns(
    name: str, from_mills: bool, double: bool
) -> None:
    rng = random.Random(f"{name}{from_mills}{double}")
    for _ in range(6):
        board = board_of(name, remove_from_mills=from_mills, double_mill_removes_two=double)
        game = game_of(board)
        for after in [board.copy(), *play_random_game(board, rng)]:
            assert turns_of(after) == ref.turns(game, state_of(after)), after.position()


@pytest.mark.parametrize("name", NAMES)
def test_perft_from_the_start_matches_the_reference(name: str) -> None:
    board = board_of(name)
    game = game_of(board)
    for depth in (1, 2, 3):
        assert perft(board, depth) == ref.perft(game, ref.start(game), depth)


#: A few positions per variant for perft (mills about to close, flying, pieces in hand).
POSITIONS = {
    "standard": [
        "WW.W..../.BB...../B....... w 5 6 0 4 -",
        "W...WW.W/.B.B.BB./........ w 5 5 0 20 -",
        "WWW.B.B./W..B...B/.W.B.... b 0 0 3 20 -",
    ],
    "twelve": [
        "W.W....B/WB...B../W.B..... w 8 8 0 5 -",
        "WW.W.B.B/BW.B.W.B/.B.W.W.B b 0 0 0 13 -",
    ],
    "morabaraba": [
        "W.W.BBB./WWW...../....B.B. b 0 0 0 20 - d6-d7",
        "WWW.BBBB/W.W...../....B.B. w 0 0 0 20 -",
        "W..B..W./.WB.B.../B.W..... w 8 8 0 5 -",
    ],
    "lasker": [
        "WW....../..B...../B.....W. b 7 8 0 4 -",
        "W.W.B.../.W.B..../B....... w 6 7 0 5 -",
    ],
    "six": [
        "......../WW..B.../B....... w 4 4 0 3 -",
        "......../W.WB.B.B/.W..W... w 0 0 2 12 -",
        "......../.WW...WW/BBB...B. w 2 2 0 5 -",
    ],
}


@pytest.mark.parametrize(("name", "position"), [(n, p) for n, ps in POSITIONS.items() for p in ps])
@pytest.mark.parametrize(("from_mills", "double"), [(False, False), (True, True)])
def test_perft_from_set_up_positions_matches_the_reference(
    name: str, position: str, from_mills: bool, double: bool
) -> None:
    cls = find_variant(name)
    board = cls(
        position,
        threefold_repetition=False,
        no_removal_limit=None,
        remove_from_mills=from_mills,
        double_mill_removes_two=double,
    )
    game = game_of(board)
    for depth in (1, 2, 3):
        assert perft(board, depth) == ref.perft(game, state_of(board), depth), depth
    assert board.position() == position
