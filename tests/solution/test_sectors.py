"""Which sectors exist, their graph and the build units."""

from __future__ import annotations

import pytest

from morris.engine.solution.sectors import (
    SectorKey,
    build_units,
    check_men,
    sector_keys,
    start_sector,
)


def test_three_men_has_exactly_these_sectors() -> None:
    assert set(sector_keys(3)) == {
        SectorKey(0, 0, 3, 3),
        SectorKey(0, 1, 3, 2),
        SectorKey(1, 1, 2, 2),
        SectorKey(1, 2, 2, 1),
        SectorKey(2, 2, 1, 1),
        SectorKey(2, 3, 1, 0),
        SectorKey(3, 3, 0, 0),
    }


@pytest.mark.parametrize("men", range(3, 10))
def test_every_successor_of_a_sector_is_a_sector_of_the_same_game(men: int) -> None:
    keys = set(sector_keys(men))
    assert start_sector(men) in keys
    for key in keys:
        for succ in key.successors():
            assert succ in keys, (key, succ)
            assert succ.mover_hand + succ.other_hand <= key.mover_hand + key.other_hand


@pytest.mark.parametrize("men", range(3, 10))
def test_units_come_after_the_units_they_depend_on(men: int) -> None:
    seen: set[SectorKey] = set()
    for unit in build_units(men):
        assert all(d in seen for d in unit.dependencies()), unit.name
        seen.update(unit.keys)
    assert seen == set(sector_keys(men))


def test_placing_hands_say_who_moves_and_moving_keys_stand_for_both_colours() -> None:
    assert SectorKey(2, 2, 1, 1).colour_sectors() == [(2, 2, 1, 1, "white")]
    assert SectorKey(2, 3, 1, 0).colour_sectors() == [(3, 2, 0, 1, "black")]
    assert SectorKey(4, 3, 0, 0).colour_sectors() == [(4, 3, 0, 0, "white"), (3, 4, 0, 0, "black")]


def test_a_removal_leaving_two_pieces_wins_at_once() -> None:
    assert SectorKey(3, 3, 0, 0).removal_successor() is None
    assert SectorKey(4, 4, 0, 0).removal_successor() == SectorKey(3, 4, 0, 0)
    assert SectorKey(2, 2, 1, 1).removal_successor() is None  # 2 on the board + 1 in hand
    assert SectorKey(2, 3, 2, 2).removal_successor() == SectorKey(2, 3, 2, 1)


def test_sectors_that_break_the_counts_do_not_exist() -> None:
    assert not SectorKey(4, 3, 0, 0).exists(3)  # more pieces than men
    assert not SectorKey(2, 3, 0, 0).exists(4)  # two left: the game is over
    assert not SectorKey(1, 1, 1, 3).exists(4)  # hands two apart
    with pytest.raises(ValueError, match=r"men must be 3\.\.9, not 10"):
        check_men(10)
