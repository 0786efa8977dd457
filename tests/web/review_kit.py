"""A companion over a simulated board with saved games, for the review's and pictures' tests."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from morris.app.store import GameStore
from morris.core import Board
from morris.sim import Simulation
from morris.web.app import Companion
from morris.web.host import SimulationHost
from morris.web.review import Reviewer
from tests.core.games import StrongGame, strong_games

if TYPE_CHECKING:
    from starlette.testclient import TestClient

#: The loopback listener the tests' requests name (the security middleware checks the Host).
BASE_URL = "http://127.0.0.1:8700"

# Strong game 3 of tests/data/strong-games.txt: white lets a mill through on turn 15 (8. g4xd1)
# and black wins on turn 20.
BLUNDERED = strong_games()[2]


def board_of(game: StrongGame) -> Board:
    """The board after every turn of ``game``."""
    board = Board()
    for text in game.turns:
        board.push_notation(text)
    return board


def companion(state_dir: Path, reviewer: Reviewer | None = None) -> Companion:
    """The companion of a simulated board keeping its state (and games) in ``state_dir``, its
    games reviewed by ``reviewer`` (default: the companion's own)."""
    return Companion(SimulationHost(Simulation(state_dir=state_dir)), reviewer=reviewer)


def save(state_dir: Path, game: StrongGame = BLUNDERED, **names: str) -> str:
    """Save ``game`` as a finished game in ``state_dir``'s games; return its id."""
    path = GameStore(state_dir).finish(
        board_of(game), white=names.get("white", "Ann"), black=names.get("black", "Bob")
    )
    return path.stem


def client(web: Companion) -> TestClient:
    """A test client of ``web`` on the loopback listener."""
    from starlette.testclient import TestClient

    return TestClient(web.app, base_url=BASE_URL)
