"""The static evaluation: its mobility count agrees with a plain count over the points, and its
placing-phase terms weigh what a player weighs."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from morris.core.points import ALL_POINTS, DIAGONAL_NEIGHBOURS, NEIGHBOURS
from morris.engine.evaluate import mobility_counter

#: A board that is not three rings with straight cross links (a4 is also linked to g1), so
#: the counter must fall back to a loop over the points.
_ODD = tuple(n | (1 << 4 if p == 7 else 1 << 7 if p == 4 else 0) for p, n in enumerate(NEIGHBOURS))


def _plain(neighbours: tuple[int, ...], side: int, empty: int) -> tuple[int, int, int]:
    steps = blocked = single = 0
    for p in range(24):
        if side >> p & 1:
            free = sum(1 for q in range(24) if neighbours[p] >> q & 1 and empty >> q & 1)
            steps += free
            blocked += free == 0
            single += free == 1
    return steps, blocked, single


_bitboards = st.tuples(st.integers(0, ALL_POINTS), st.integers(0, ALL_POINTS)).map(
    lambda t: (t[0], t[1] & ~t[0])
)


@given(_bitboards)
def test_mobility_on_the_standard_board(pos: tuple[int, int]) -> None:
    side, other = pos
    empty = ALL_POINTS & ~(side | other)
    assert mobility_counter(NEIGHBOURS)(side, empty) == _plain(NEIGHBOURS, side, empty)


@given(_bitboards)
def test_mobility_with_diagonal_links(pos: tuple[int, int]) -> None:
    side, other = pos
    empty = ALL_POINTS & ~(side | other)
    counter = mobility_counter(DIAGONAL_NEIGHBOURS)
    assert counter(side, empty) == _plain(DIAGONAL_NEIGHBOURS, side, empty)


@given(_bitboards)
def test_mobility_on_any_other_board(pos: tuple[int, int]) -> None:
    side, other = pos
    empty = ALL_POINTS & ~(side | other)
    assert mobility_counter(_ODD)(side, empty) == _plain(_ODD, side, empty)


def test_a_hemmed_in_piece_counts_as_blocked() -> None:
    # White on a7; black on d7 and a4: a7 cannot step.
    a7, d7, a4 = 1 << 0, 1 << 1, 1 << 7
    empty = ALL_POINTS & ~(a7 | d7 | a4)
    assert mobility_counter(NEIGHBOURS)(a7, empty) == (0, 1, 0)
    # With a4 gone, a7 has one way out.
    assert mobility_counter(NEIGHBOURS)(a7, empty | a4) == (1, 0, 1)
    # d6 in the middle of the board has four free steps.
    assert mobility_counter(NEIGHBOURS)(1 << 9, ALL_POINTS & ~(1 << 9)) == (4, 0, 0)
