"""The endgame tables serve the games whose moving phase they hold (the standard game, with
flying on or off, and Lasker morris) and refuse every other one with a reason: never a value
computed by other rules."""

from __future__ import annotations

import random

import pytest

from morris import Board
from morris.cli import main
from morris.core.variant import VARIANT_NAMES, find_variant
from morris.engine.engine import Engine
from morris.engine.tables import EndgameTables, table_refusal
from tests.engine.helpers import sampled_position

#: Every game and whether the tables serve it.
SERVED = {
    "standard": True,
    "lasker": True,
    "twelve": False,
    "morabaraba": False,
    "six": False,
}


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_each_variant_is_served_or_refused_with_a_reason(name: str) -> None:
    rules = find_variant(name).variant
    tables = EndgameTables({}, {})
    assert tables.supports(rules) is SERVED[name]
    why = table_refusal(rules)
    assert (why is None) is SERVED[name]
    if why is not None:
        assert why.startswith(name)


def test_the_removal_switches_are_refused_and_flying_is_not() -> None:
    assert table_refusal(Board(flying=False).rules) is None
    from_mills = table_refusal(Board(remove_from_mills=True).rules)
    assert from_mills is not None and "removal from mills" in from_mills
    double = table_refusal(Board(double_mill_removes_two=True).rules)
    assert double is not None and "removing two" in double
    six = table_refusal(find_variant("six").variant)
    assert six is not None and "16 points" in six


def _moving_phase(cls: type[Board], seed: int, white: int = 4, **settings: object) -> Board:
    """A ``white`` v 3 position of the moving phase (standard points) as a game of ``cls``."""
    rng = random.Random(seed)
    board = sampled_position(rng, white, 3, **settings)
    return cls(board.position(), **settings)  # type: ignore[arg-type]


@pytest.mark.slow
def test_a_refused_game_is_searched_as_without_tables(tables_3v3: EndgameTables) -> None:
    # Tables of the standard game's removal rule must not answer for removals from mills.
    for seed in range(6):
        board = _moving_phase(Board, seed, remove_from_mills=True)
        if board.is_game_over():
            continue
        with_tables = Engine(7, tables=tables_3v3).play(board, depth=5)
        without = Engine(7).play(board, depth=5)
        assert (with_tables.move, with_tables.score, with_tables.nodes) == (
            without.move,
            without.score,
            without.nodes,
        )


@pytest.mark.slow
def test_lasker_morris_uses_the_tables(tables_3v3: EndgameTables) -> None:
    cls = find_variant("lasker")
    asked: list[int] = []
    probe = tables_3v3.probe

    def counting(*args: object) -> object:
        asked.append(1)
        return probe(*args)  # type: ignore[arg-type]

    tables_3v3.probe = counting  # type: ignore[method-assign]
    try:
        board = _moving_phase(cls, 3, white=3)
        Engine(7, tables=tables_3v3).play(board, depth=3)
    finally:
        del tables_3v3.probe  # type: ignore[attr-defined]
    assert asked


def test_morris_tables_info_says_which_variants_it_serves(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["tables", "info", "--variant", "lasker"]) == 0
    assert "used for lasker" in capsys.readouterr().out
    assert main(["tables", "info", "--variant", "six"]) == 1
    out = capsys.readouterr().out
    assert "not used for six" in out and "16 points" in out
    assert main(["tables", "info", "--variant", "chess"]) == 2
    assert "unknown variant 'chess'" in capsys.readouterr().out
