"""Replaying the strong games of ``shared/games`` through the notation and the rules."""

from __future__ import annotations

import pytest

from morris.core import Board
from tests.core.games import (
    DATA_DIR,
    SHARED_GAMES_DIR,
    STRONG_GAMES_FILE,
    StrongGame,
    strong_games,
)

GAMES = strong_games()


def test_the_copy_is_the_shared_file() -> None:
    shared = SHARED_GAMES_DIR / STRONG_GAMES_FILE
    if not shared.exists():
        pytest.skip(f"no shared folder beside the repository ({shared})")
    assert (DATA_DIR / STRONG_GAMES_FILE).read_bytes() == shared.read_bytes()


def test_the_file_holds_the_games() -> None:
    assert len(GAMES) == 25
    assert {g.result for g in GAMES} == {"1-0", "0-1", "1/2-1/2"}


@pytest.mark.parametrize("game", GAMES, ids=[f"line{g.lineno}" for g in GAMES])
def test_replay_gives_the_recorded_result_and_termination(game: StrongGame) -> None:
    board = Board()
    for number, text in enumerate(game.turns, start=1):
        assert board.outcome() is None, f"game over before turn {number} ({text})"
        board.push_notation(text)
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is game.termination
    assert outcome.result() == game.result
    assert board.result() == game.result
