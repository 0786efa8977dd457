"""Replaying the strong games of ``tests/data/strong-games.txt`` through the notation and the rules.

The file holds 25 games of standard nine men's morris (flying on, both draw rules on), played by
a strong engine against itself from short random openings. It came with the project's original
spec, before the spec moved into ``docs/``, and was copied into ``tests/data`` unchanged (commit
4f595de); the repository's copy is now the only one. Its SHA-256 and game count are recorded
below, so an edit to the data (a turn changed, a game dropped) fails here instead of quietly
changing what the other tests replay.
"""

from __future__ import annotations

import hashlib

import pytest

from morris.core import Board
from tests.core.games import DATA_DIR, STRONG_GAMES_FILE, StrongGame, strong_games

#: The SHA-256 of the games file (line endings as LF), as it was copied into the repository.
STRONG_GAMES_SHA256 = "033cc15453345495400269744c841f736f2d1ea2c8e45078336a950aa4ab83e2"
STRONG_GAMES_COUNT = 25

GAMES = strong_games()


def test_the_games_file_is_the_one_recorded() -> None:
    data = (DATA_DIR / STRONG_GAMES_FILE).read_bytes().replace(b"\r\n", b"\n")
    assert hashlib.sha256(data).hexdigest() == STRONG_GAMES_SHA256, (
        f"{STRONG_GAMES_FILE} changed: if on purpose, record its new SHA-256 here"
    )


def test_the_file_holds_the_games() -> None:
    assert len(GAMES) == STRONG_GAMES_COUNT
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
