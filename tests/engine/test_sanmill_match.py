"""The Sanmill match harness's reading of a match (benchmarks/sanmill_match.py)."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from morris import Board
from morris.core.points import POINT_NAMES
from morris.core.record import GameRecord
from morris.engine.engine import SearchResult
from morris.engine.match import GameOutcome, MatchResult
from morris.engine.players import GreedyPlayer

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from sanmill_match import (
    OwnTime,
    game_numbers,
    our_results,
    placement_pairs,
    same_colour_pairs,
    seat_of,
)


def _match(results: list[str]) -> MatchResult:
    """A match whose game ``i`` (from 0) ended ``results[i]``; we are white in the even games."""
    match = MatchResult("ours", "sanmill")
    for i, result in enumerate(results):
        record = GameRecord(tags={"Round": str(i + 1), "Result": result})
        ours_white = i % 2 == 0
        points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        match.games.append(GameOutcome(record, ours_white, points if ours_white else 1 - points))
    return match


def test_openings_won_by_the_same_colour_twice_are_named() -> None:
    # Openings 0..4: white both times, a split, black both times, draws, a win and a draw.
    results = ["1-0", "1-0", "1-0", "0-1", "0-1", "0-1", "1/2-1/2", "1/2-1/2", "1-0", "1/2-1/2"]
    assert same_colour_pairs(_match(results)) == [0, 2]


def test_a_match_started_later_counts_its_openings_from_the_rounds() -> None:
    match = _match(["1/2-1/2"] * 40 + ["0-1", "0-1"])
    match.games = match.games[40:]  # rounds 41 and 42: opening 20
    assert same_colour_pairs(match) == [20]


def test_an_unfinished_pair_is_not_counted() -> None:
    assert same_colour_pairs(_match(["1-0"])) == []


def test_game_numbers_are_read_from_a_comma_separated_list() -> None:
    assert game_numbers("2,19,150") == [2, 19, 150]


@pytest.mark.parametrize("text", ["2,x", "", "3,-1", "1;2"])
def test_bad_game_numbers_are_refused_with_the_text_named(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=re.escape(repr(text))):
        game_numbers(text)


def test_repeated_games_are_listed_side_by_side_under_their_number() -> None:
    match = _match(["1/2-1/2"] * 4 + ["1-0", "1/2-1/2", "0-1"])
    # Game 4 (opening 2, ours white) played twice: a win, then a loss; game 1 once, a draw.
    match.games = [match.games[4], match.games[1], match.games[6]]
    match.games[2].record.tags["Round"] = "5"
    assert our_results(match) == {1: [0.5], 4: [1.0, 0.0]}


def test_the_one_placement_openings_are_all_24_by_23_in_a_seeded_order() -> None:
    pairs = placement_pairs(34)
    assert len(pairs) == len(set(pairs)) == 24 * 23
    assert all(w != b and {w, b} <= set(POINT_NAMES) for w, b in pairs)
    assert placement_pairs(34) == pairs  # the same sample for the same seed
    assert placement_pairs(35)[:40] != pairs[:40]


def test_our_own_time_replaces_the_match_s() -> None:
    asked: list[float | None] = []

    class Recording(GreedyPlayer):
        def play(self, board: Board, **kwargs: Any) -> SearchResult:
            asked.append(kwargs.get("movetime"))
            return super().play(board)

    player = OwnTime(Recording(seed=1), 0.25)
    player.play(Board(), movetime=1.0)
    assert asked == [0.25] and player.name == Recording(seed=1).name


def test_a_game_s_seat_names_its_opening_and_our_colour() -> None:
    assert seat_of(7, None) == "opening 3, our seat black"
    white, black = placement_pairs(34)[3]
    assert seat_of(6, 34) == f"opening 3 {white} {black}, our seat white"
