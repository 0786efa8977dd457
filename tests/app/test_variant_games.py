"""Whole games against the Pi in every variant, on the simulated board in virtual time: the
person's turns from a seeded RNG, the Pi's carried out from the lights alone, until the game
ends by the variant's rules; the game kept is the one played."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from morris.app.store import GameStore
from morris.core import read_game
from morris.core.variant import VARIANT_NAMES, find_variant
from morris.sim import Simulation
from tests.app.scenario_kit import play_against_the_pi

#: The variants, and the standard game with both removal switches on.
GAMES = [(name, {}) for name in VARIANT_NAMES] + [
    ("standard", {"remove_from_mills": True, "double_mill_removes_two": True})
]


@pytest.mark.parametrize(
    ("variant", "switches"), GAMES, ids=[f"{v}{'+switches' * bool(s)}" for v, s in GAMES]
)
def test_a_whole_game_against_the_pi(
    tmp_path: Path, variant: str, switches: dict[str, bool]
) -> None:
    rng = random.Random(21)
    human = "white" if len(variant) % 2 else "black"
    with Simulation(
        mode="vs-ai", human=human, level=3, seed=21, variant=variant, state_dir=tmp_path,
        **switches,
    ) as sim:  # fmt: skip
        mine, done = play_against_the_pi(sim, rng)
        board = sim.board
        assert type(board) is find_variant(variant)
        assert all(getattr(board, k) == v for k, v in switches.items())
        outcome = board.outcome()
        assert outcome is not None, sim.describe()
        assert sim.status()["game_over"] == "on"
        assert sim.sensed == frozenset(board.pieces())
        person_first = human == "white"
        played = board.move_stack
        assert [str(m) for m in played[0 if person_first else 1 :: 2]] == mine
        assert [str(m) for m in played[1 if person_first else 0 :: 2]] == done
        # Every piece stood on a point in play (six men's morris: the middle and inner squares).
        assert all(board.points_in_play >> m.to_point & 1 for m in played)
    records = list(GameStore(tmp_path).games_dir.glob("*.txt"))
    assert len(records) == 1
    record = read_game(records[0].read_text(encoding="utf-8"))
    assert [str(m) for m in record.moves] == [str(m) for m in played]
    assert record.result == outcome.result()
