"""Noise at the board: a person's hands with seeded random timing, contact bounce and weak
magnets never change the accepted game beyond the turns the person meant."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from morris.core import Move, point_name
from morris.sim import Simulation
from tests.app.scenario_kit import carry_out_opponent_turn, moves, scripted, shown, strong_games

#: A recorded game's opening: placements, mills and removals, then slides.
_, _, _TURNS = min(strong_games(), key=lambda game: len(game[2]))
OPENING = _TURNS[:20]


def _jittery_turn(sim: Simulation, text: str, rng: random.Random) -> None:
    """Carry out a turn with a human's uneven timing: lift, hesitate, place, take the removal."""
    move = Move.parse(text)
    if move.from_point is not None:
        sim.lift(point_name(move.from_point))
        sim.wait(rng.uniform(0.05, 0.45))
    sim.place(point_name(move.to_point))
    if move.remove is not None:
        sim.wait(rng.uniform(0.05, 0.45))
        sim.lift(point_name(move.remove))
    sim.wait(rng.uniform(0.75, 1.6))  # longer than debounce + accept delay, not much more


def _noisy(sim: Simulation, rng: random.Random) -> None:
    sim.hardware.set_bounce(rng.uniform(0.0, 0.05))


@settings(max_examples=4, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**16))
def test_a_recorded_opening_with_jitter_and_bounce_is_read_exactly(seed: int) -> None:
    rng = random.Random(seed)
    with Simulation(mode="referee") as sim:
        _noisy(sim, rng)
        for text in OPENING:
            _jittery_turn(sim, text, rng)
            # Now and then a weak magnet under a piece already on the board.
            if rng.random() < 0.2 and sim.sensed:
                sim.hardware.set_flicker(rng.choice(sorted(sim.sensed)), 0.25)
        sim.wait(2.0)
        assert moves(sim) == OPENING
        assert shown(sim) == {}


@settings(max_examples=3, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**16))
def test_random_turns_against_the_pi_with_jitter_and_bounce(seed: int) -> None:
    rng = random.Random(seed)
    with Simulation(mode="vs-ai", human="white", level=1, seed=seed % 7) as sim:
        _noisy(sim, rng)
        intended: list[str] = []
        for _ in range(10):
            move = rng.choice(sorted(sim.board.legal_moves, key=str))
            _jittery_turn(sim, str(move), rng)
            sim.wait(1.5)
            intended.append(str(move))
            if sim.board.outcome() is not None:
                break
            intended.append(carry_out_opponent_turn(sim))
        assert moves(sim) == intended
        assert sim.sensed == frozenset(sim.board.pieces())


@settings(max_examples=4, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**16),
    taps=st.lists(st.sampled_from(["a1", "d1", "g1", "b2", "f2", "c5"]), max_size=6),
)
def test_brief_touches_and_flicker_while_the_pi_waits_change_nothing(
    seed: int, taps: list[str]
) -> None:
    rng = random.Random(seed)
    with Simulation(mode="vs-ai", human="white", search=scripted(["g7", "a7"])) as sim:
        _noisy(sim, rng)
        _jittery_turn(sim, "d6", rng)
        sim.wait(1.0)
        sim.hardware.set_flicker("d6", rng.uniform(0.1, 0.4))
        for point in taps:  # a sleeve brushing empty points: each for less than the debounce
            sim.place(point)
            sim.wait(rng.uniform(0.01, 0.08))
            sim.lift(point)
            sim.wait(rng.uniform(0.05, 0.5))
        sim.wait(2.0)
        assert moves(sim) == ["d6"]
        assert shown(sim) == {"g7": "on"}
        assert sim.status()["error"] == "off"
        assert carry_out_opponent_turn(sim) == "g7"
        assert moves(sim) == ["d6", "g7"]
