"""The engine plays by the rules data (morris.core.rules.Rules) and refuses boards beyond it.

A board class that overrides a rules method plays by its own rules in the core; the engine cannot
know them, so every entry of the engine refuses it (UnsupportedVariant) instead of searching it by
the data's rules. Twelve men's morris, which is data only, is generated as the core plays it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from morris import STANDARD, TWELVE, Board, Move, TwelveMensMorris, UnsupportedVariant
from morris.engine.client import UciEngine
from morris.engine.engine import Engine
from morris.engine.movegen import decode, generate, has_moves
from morris.engine.movegen import perft as fast_perft
from morris.engine.search import NATIVE_AVAILABLE
from morris.engine.tables import EndgameTables
from tests.engine.helpers import random_board


class _NoRemovals(TwelveMensMorris):
    """A made-up variant whose mills remove nothing: rules the engine's data cannot say."""

    def generate_moves(self) -> Iterator[Move]:
        return (m.without_removal() for m in super().generate_moves())


class _NeverOver(Board):
    """A made-up variant that never ends."""

    def outcome(self) -> None:
        return None


@pytest.mark.parametrize("cls", [_NoRemovals, _NeverOver])
def test_the_search_refuses_a_board_overriding_a_rules_method(cls: type[Board]) -> None:
    with pytest.raises(UnsupportedVariant, match=f"{cls.__name__} overrides"):
        Engine(level=1).play(cls())
    with pytest.raises(UnsupportedVariant, match=f"{cls.__name__} overrides"):
        Engine(level=3, native=False).play(cls())


def test_the_move_generator_refuses_it() -> None:
    with pytest.raises(UnsupportedVariant, match="overrides generate_moves"):
        fast_perft(_NoRemovals(), 1)


def test_an_external_engine_is_not_asked_about_it() -> None:
    # The check comes before the engine process is even started.
    engine = UciEngine([sys.executable, "-c", "raise SystemExit(1)"])
    with pytest.raises(UnsupportedVariant, match="overrides outcome"):
        engine.play(_NeverOver())


def test_the_endgame_tables_refuse_another_board() -> None:
    tables = EndgameTables({}, {})
    assert tables.supports(STANDARD)
    assert tables.supports(Board(flying=False, no_removal_limit=None).rules)
    assert not tables.supports(TWELVE)


def _random_twelve(seed: int, plies: int, flying: bool) -> Board:
    settings = {"flying": flying, "threefold_repetition": False, "no_removal_limit": None}
    return random_board(seed, plies, TwelveMensMorris, **settings)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 80), flying=st.booleans())
def test_twelve_mens_morris_is_generated_as_the_core_plays_it(
    seed: int, plies: int, flying: bool
) -> None:
    board = _random_twelve(seed, plies, flying)
    rules = board.rules
    turn = board.turn
    us, them = board.occupied_co(turn), board.occupied_co(not turn)
    uh = board.pieces_in_hand(turn)
    mills, quiet = generate(rules, us, them, uh)
    assert sorted(map(str, map(decode, mills + quiet))) == sorted(map(str, board.generate_moves()))
    assert has_moves(rules, us, them, uh) == board.has_moves()


def test_twelve_mens_morris_is_searched_to_a_legal_turn() -> None:
    board = _random_twelve(5, 30, flying=True)
    for native in (False, True) if NATIVE_AVAILABLE else (False,):
        assert Engine(level=3, seed=1, native=native).play(board).move in board.legal_moves
