"""The points, links and mills of the board agree with the diagram of docs/RULES.md."""

from __future__ import annotations

import pytest

from morris.core import NUM_POINTS, POINT_NAMES, POINTS, parse_point, point_name
from morris.core.points import (
    DIAGONAL_LINKS,
    DIAGONAL_MILLS,
    DIAGONAL_NEIGHBOURS,
    LINKS,
    MILL_MASKS,
    MILLS,
    MILLS_THROUGH,
    NEIGHBOURS,
    points_of,
    position_of,
    ring_of,
)
from tests.core import reference


def names(points: object) -> frozenset[str]:
    assert isinstance(points, (list, tuple))
    return frozenset(POINT_NAMES[p] for p in points)


def test_there_are_24_points_with_the_names_of_the_diagram() -> None:
    assert NUM_POINTS == 24
    assert len(set(POINT_NAMES)) == 24
    assert frozenset(POINT_NAMES) == reference.POINTS
    assert tuple(range(24)) == POINTS


@pytest.mark.parametrize("name", sorted(reference.POINTS))
def test_parse_point_and_point_name_are_inverse(name: str) -> None:
    assert point_name(parse_point(name)) == name
    assert parse_point(name.upper()) == parse_point(name)
    assert parse_point(f" {name} ") == parse_point(name)


@pytest.mark.parametrize("text", ["", "d4", "h1", "a0", "a8", "a", "a1-a4", "11"])
def test_parse_point_rejects_what_is_not_a_point(text: str) -> None:
    with pytest.raises(ValueError, match="not a point of the board") as info:
        parse_point(text)
    assert repr(text) in str(info.value)


def test_the_links_are_the_32_lines_of_the_diagram() -> None:
    assert {names(link) for link in LINKS} == {
        frozenset((a, b)) for a, near in reference.ADJACENT.items() for b in near
    }
    assert len(LINKS) == 32


def test_the_neighbour_tables_match_the_links() -> None:
    for p in POINTS:
        assert names(points_of(NEIGHBOURS[p])) == reference.ADJACENT[POINT_NAMES[p]]


def test_the_mills_are_the_16_lines_of_three_of_the_diagram() -> None:
    assert {names(mill) for mill in MILLS} == set(reference.MILLS)
    assert {names(points_of(mask)) for mask in MILL_MASKS} == set(reference.MILLS)


def test_every_point_lies_on_two_mills() -> None:
    for p in POINTS:
        through = [names(points_of(m)) for m in MILLS_THROUGH[p]]
        assert len(through) == 2
        assert all(POINT_NAMES[p] in mill for mill in through)


def test_the_diagonal_board_adds_the_four_corner_lines() -> None:
    added_links = {names(link) for link in DIAGONAL_LINKS} - {names(link) for link in LINKS}
    expected_links = set()
    for a, b, c in reference.DIAGONAL_LINES:
        expected_links |= {frozenset((a, b)), frozenset((b, c))}
    assert added_links == expected_links
    added_mills = {names(m) for m in DIAGONAL_MILLS} - {names(m) for m in MILLS}
    assert added_mills == {frozenset(line) for line in reference.DIAGONAL_LINES}
    assert names(points_of(DIAGONAL_NEIGHBOURS[parse_point("b6")])) == {
        "a7", "c5", "d6", "b4"
    }  # fmt: skip


def test_rings_and_positions_follow_the_matrix_numbering() -> None:
    assert [ring_of(parse_point(n)) for n in ("a7", "b6", "c5")] == [0, 1, 2]
    # A quarter turn clockwise adds 2 to the position within the ring.
    assert position_of(parse_point("a7")) + 2 == position_of(parse_point("g7"))
    assert position_of(parse_point("d7")) + 2 == position_of(parse_point("g4"))
