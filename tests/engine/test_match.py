"""Matches, players and the Elo estimate."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from morris import Board, Move, read_game
from morris.engine import Engine, GreedyPlayer, Player, RandomPlayer
from morris.engine.match import (
    OPENINGS,
    MatchResult,
    format_elo,
    make_player,
    play_game,
    run_match,
    save_games,
)
from tests.engine.helpers import position


def test_every_player_kind_plays_a_legal_whole_turn() -> None:
    board = position("a7 d7 g4 b2", "c5 e3 f2 d1")  # white can close a mill: a turn with removal
    players: list[Player] = [Engine(1), RandomPlayer(1), GreedyPlayer(1)]
    for player in players:
        move = player.play(board.copy()).move
        assert move in board.legal_moves, (player, move)


def test_player_names() -> None:
    assert isinstance(make_player("level:3"), Engine)
    assert isinstance(make_player("random"), RandomPlayer)
    assert isinstance(make_player("greedy"), GreedyPlayer)
    for bad in ("level:0", "level:x", "genius", "cmd:"):
        with pytest.raises(ValueError):
            make_player(bad)


def test_greedy_closes_a_mill_and_does_not_hand_one_over() -> None:
    board = position("a7 d7 g4 b2", "c5 e3 f2 d1")
    assert GreedyPlayer().play(board).move.without_removal() == Move.parse("g4-g7")
    # Black threatens b6-d6 (the mill d7-d6-d5); only f6-d6 blocks it.
    board = position("f6 b2 e3 g4", "d7 d5 b6 g1")
    move = GreedyPlayer().play(board).move
    assert move == Move.parse("f6-d6")
    board.push(move)
    assert not any(m.remove is not None for m in board.legal_moves)


def test_openings_are_varied_and_legal() -> None:
    assert len(set(OPENINGS)) == len(OPENINGS) >= 50
    for opening in OPENINGS:
        board = Board()
        for text in opening:
            board.push_notation(text)


def test_a_game_between_players_is_recorded() -> None:
    record = play_game(GreedyPlayer(1), RandomPlayer(2), opening=OPENINGS[0])
    assert record.tags["White"] == "greedy" and record.tags["Black"] == "random"
    assert record.result in ("1-0", "0-1", "1/2-1/2")
    assert read_game_text_round_trips(record)


def read_game_text_round_trips(record: object) -> bool:
    from morris import write_game

    return read_game(write_game(record)).moves == record.moves  # type: ignore[arg-type,attr-defined]


def test_colours_alternate_and_games_are_saved(tmp_path: Path) -> None:
    result = run_match(Engine(2, seed=1), RandomPlayer(3), games=4)
    assert result.games_played == 4
    assert [g.first_is_white for g in result.games] == [True, False, True, False]
    assert result.wins == 4
    paths = save_games(result, tmp_path / "games")
    assert len(paths) == 4
    assert read_game(paths[1].read_text()).tags["Black"] == "morris level 2"


def test_a_failing_player_loses_the_game() -> None:
    class Broken:
        name = "broken"

        def play(self, board: Board, **_: object) -> object:
            raise RuntimeError("boom")

    record = play_game(Broken(), RandomPlayer(1))  # type: ignore[arg-type]
    assert record.result == "0-1"
    assert "boom" in record.tags["Termination"]


def test_level_ordering_on_a_small_match() -> None:
    result = run_match(Engine(4, seed=1), Engine(1, seed=2), games=4)
    assert result.score > 0.5


@pytest.mark.slow
def test_level_5_beats_greedy() -> None:
    result = run_match(Engine(5, seed=1), GreedyPlayer(2), games=6)
    assert result.score >= 5 / 6


def test_elo_from_the_score() -> None:
    even = MatchResult("a", "b", wins=5, draws=10, losses=5)
    diff, margin = even.elo()
    assert diff == pytest.approx(0.0) and 0 < margin < 200
    better = MatchResult("a", "b", wins=15, draws=3, losses=2)
    assert better.elo()[0] > 100
    assert math.isinf(MatchResult("a", "b", wins=3).elo()[0])
    assert format_elo(*MatchResult("a", "b", wins=3).elo()) == "+inf"
    assert format_elo(*even.elo()).startswith("+0 ± ")


def test_the_match_command_names_an_engine_that_cannot_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from morris.cli import main

    missing = tmp_path / "no-such-engine"
    assert main(["match", "level:1", f"cmd:{missing}", "--games", "1", "--quiet"]) == 2
    out = capsys.readouterr().out
    assert "cannot start engine" in out and "no-such-engine" in out


def test_a_match_played_in_parts_is_the_whole_match() -> None:
    # Engines pick by position and seed, so the same game is the same moves in both.
    whole = run_match(Engine(2, seed=1), Engine(1, seed=2), games=4)
    part = run_match(Engine(2, seed=1), Engine(1, seed=2), games=2, first_game=2)
    assert [g.record.tags["Round"] for g in part.games] == ["3", "4"]
    assert [g.first_is_white for g in part.games] == [True, False]
    assert [g.record.moves for g in part.games] == [g.record.moves for g in whole.games[2:]]
    first = run_match(Engine(2, seed=1), Engine(1, seed=2), games=2)
    combined = MatchResult.combined([first, part])
    assert (combined.wins, combined.draws, combined.losses) == (
        whole.wins, whole.draws, whole.losses,
    )  # fmt: skip
    assert [g.record.tags["Round"] for g in combined.games] == ["1", "2", "3", "4"]
