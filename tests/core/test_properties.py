"""Properties over random games of every variant (hypothesis): undo, notation, positions, counts.

Each property draws the variant (standard, twelve, morabaraba, lasker, six) and the removal
switches (remove_from_mills, double_mill_removes_two) along with the game's seed.
"""

from __future__ import annotations

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from morris.core import COLORS, VARIANT_NAMES, Board, Move, Phase, find_variant
from tests.core.games import play_random_game

seeds = st.integers(0, 2**32 - 1)
variants = st.sampled_from(VARIANT_NAMES)
#: The settings a game is drawn with: the removal switches and flying (None: the variant's).
game_settings = st.fixed_dictionaries(
    {
        "remove_from_mills": st.booleans(),
        "double_mill_removes_two": st.booleans(),
        "flying": st.sampled_from([None, True, False]),
    }
)


def new_board(variant: str, settings: dict[str, bool | None]) -> Board:
    """The empty board of ``variant`` with ``settings``."""
    return find_variant(variant)(**settings)  # type: ignore[arg-type]


def random_game(seed: int, variant: str = "standard", **settings: bool | None) -> Board:
    board = new_board(variant, settings)
    play_random_game(board, random.Random(seed))
    return board


@settings(max_examples=60, deadline=None)
@given(seed=seeds, variant=variants, chosen=game_settings)
def test_every_random_game_ends(seed: int, variant: str, chosen: dict[str, bool | None]) -> None:
    board = random_game(seed, variant, **chosen)
    outcome = board.outcome()
    assert outcome is not None
    assert board.is_game_over()
    assert board.result() == outcome.result()
    # At most 100 moving turns between removals, and at most one removal per piece.
    assert len(board.move_stack) <= 2 * board.pieces_per_side + (2 * board.pieces_per_side) * 100


@settings(max_examples=40, deadline=None)
@given(seed=seeds, variant=variants, chosen=game_settings)
def test_pop_restores_the_position_exactly(
    seed: int, variant: str, chosen: dict[str, bool | None]
) -> None:
    board = random_game(seed, variant, **chosen)
    positions = []
    replay = new_board(variant, chosen)
    for move in board.move_stack:
        positions.append((replay.position(), replay.outcome(), replay.legal_moves.count()))
        replay.push(move)
    while board.move_stack:
        board.pop()
        position, outcome, count = positions.pop()
        assert board.position() == position
        assert board.outcome() == outcome
        assert board.legal_moves.count() == count
    assert board == new_board(variant, chosen)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, variant=variants, chosen=game_settings)
def test_push_then_pop_of_every_legal_move_changes_nothing(
    seed: int, variant: str, chosen: dict[str, bool | None]
) -> None:
    board = random_game(seed, variant, **chosen)
    rng = random.Random(seed)
    while len(board.move_stack) > rng.randrange(len(board.move_stack) + 1):
        board.pop()
    before = board.position()
    repetition = board.is_repetition(2)
    for move in list(board.legal_moves):
        board.push(move)
        assert board.pop() == move
        assert board.position() == before
        assert board.is_repetition(2) == repetition


@settings(max_examples=40, deadline=None)
@given(seed=seeds, variant=variants, chosen=game_settings)
def test_notation_and_position_strings_round_trip(
    seed: int, variant: str, chosen: dict[str, bool | None]
) -> None:
    board = random_game(seed, variant, **chosen)
    cls = type(board)
    replay = new_board(variant, chosen)
    for move in board.move_stack:
        for legal in replay.legal_moves:
            assert Move.parse(str(legal)) == legal
            assert replay.is_legal(legal)
        assert replay.push_notation(str(move)) == move
        again = cls.from_position(replay.position(), **replay.settings())
        assert again == replay
        assert again.position() == replay.position()
        assert again.outcome() == replay.outcome()
        assert set(again.legal_moves) == set(replay.legal_moves)


@settings(max_examples=60, deadline=None)
@given(seed=seeds, variant=variants, chosen=game_settings)
def test_piece_counts_stay_consistent(
    seed: int, variant: str, chosen: dict[str, bool | None]
) -> None:
    board = random_game(seed, variant, **chosen)
    cls = type(board)
    replay = new_board(variant, chosen)
    removed = {color: 0 for color in COLORS}
    for move in board.move_stack:
        mover = replay.turn
        assert len(move.removals) == replay.removals_due(move)
        replay.push(move)
        removed[not mover] += len(move.removals)
        assert not replay.occupied & ~cls.points_in_play  # never a piece off the points in play
        for color in COLORS:
            on_board = replay.pieces_on_board(color)
            assert on_board == sum(1 for c in replay.pieces().values() if c == color)
            assert on_board + replay.pieces_in_hand(color) + removed[color] == cls.pieces_per_side
        assert replay.occupied.bit_count() == len(replay.pieces())
        in_hand = replay.pieces_in_hand(True) + replay.pieces_in_hand(False)
        assert (replay.phase is Phase.PLACING) == (in_hand > 0)


# Texts near a real position: numbers in any script, huge numbers, odd tokens in every field.
_numbers = st.one_of(
    st.sampled_from(["0", "1", "9", "12", "²", "١٢", "٣", "①", "-1", "+3", "0x9", ""]),
    st.text(alphabet="0123456789", min_size=1, max_size=6000),
    st.text(max_size=4),
)
_positions = st.tuples(
    st.sampled_from(["WB....../......../........", "......../......../........"]) | st.text(),
    st.sampled_from(["w", "b"]) | st.text(max_size=2),
    _numbers,
    _numbers,
    _numbers,
    _numbers,
    st.sampled_from(["-", "a1-a4", "d7-d6,a1-a4", "x"]) | st.text(max_size=8),
).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=80) | _positions)
def test_no_position_text_raises_anything_but_invalid_position(text: str) -> None:
    from morris.core import InvalidPositionError

    with contextlib.suppress(InvalidPositionError):
        Board.from_position(text)


def test_unicode_digits_and_huge_numbers_are_invalid_positions() -> None:
    import pytest

    from morris.core import InvalidPositionError

    empty = "......../......../........"
    for text in (
        f"{empty} w ² 9 0 1 -",
        f"{empty} w 9 9 {'9' * 5000} 1 -",
        f"{empty} w 9 9 0 ١ -",
    ):
        with pytest.raises(InvalidPositionError, match="digits 0-9"):
            Board.from_position(text)
