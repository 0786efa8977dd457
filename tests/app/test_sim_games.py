"""Whole games through the harness: the person plays with their hands, the Pi's turns are carried
out from the lights alone, and the referee's game is the one played on the board."""

from __future__ import annotations

import random

import pytest

from morris.sim import Simulation
from tests.app.sim_player import follow_lights, lit, make_turn, random_turn


def test_the_pi_answers_with_a_light_and_waits_for_it() -> None:
    with Simulation(mode="vs-ai", human="white", level=1, seed=0) as sim:
        sim.place("d6")
        sim.wait(2.0)
        assert [str(m) for m in sim.board.move_stack] == ["d6"]
        request = lit(sim, "on")
        assert len(request) == 1 and request[0] != "d6"
        assert lit(sim, "slow") == lit(sim, "fast") == []
        sim.wait(10.0)  # the Pi's turn counts only when it is carried out
        assert len(sim.board.move_stack) == 1
        sim.place(request[0])
        sim.wait(1.5)
        assert [str(m) for m in sim.board.move_stack] == ["d6", request[0]]
        assert lit(sim, "on") == []


def test_same_seed_same_game() -> None:
    def play(seed: int) -> list[str]:
        with Simulation(mode="vs-ai", human="white", level=2, seed=seed) as sim:
            rng = random.Random(7)
            for _ in range(6):
                make_turn(sim, random_turn(sim, rng))
                sim.wait(2.0)
                follow_lights(sim)
            return [str(m) for m in sim.board.move_stack]

    assert play(3) == play(3)


@pytest.mark.parametrize(("human", "seed"), [("white", 1), ("black", 2)])
def test_whole_game_against_the_pi_from_the_lights(human: str, seed: int) -> None:
    rng = random.Random(seed)
    with Simulation(mode="vs-ai", human=human, level=3, seed=seed) as sim:
        sim.wait(2.0)
        for _ in range(300):
            if sim.board.outcome() is not None:
                break
            if sim.controller.referee.pi_to_move:
                follow_lights(sim)
            else:
                before = len(sim.board.move_stack)
                make_turn(sim, random_turn(sim, rng))
                sim.wait(2.0)
                assert len(sim.board.move_stack) == before + 1, sim.describe()
        outcome = sim.board.outcome()
        assert outcome is not None, sim.describe()
        # The board the person sees is the game the referee accepted.
        assert sim.sensed == frozenset(sim.board.pieces())
        assert sim.status()["game_over"] != "off"
