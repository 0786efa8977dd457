"""A person at the simulated board, for scenario tests: makes turns with their hands and carries
out the Pi's requests by reading nothing but the lights."""

from __future__ import annotations

import random

from morris.core import Move, point_name
from morris.sim import Simulation


def lit(sim: Simulation, signal: str) -> list[str]:
    """The points showing ``signal``."""
    return sorted(name for name, value in sim.lights().items() if value == signal)


def make_turn(sim: Simulation, move: Move, *, pause: float = 0.3) -> None:
    """Carry out ``move`` by hand: place or slide the piece, then take the removed piece."""
    if move.from_point is None:
        sim.place(point_name(move.to_point))
    else:
        sim.lift(point_name(move.from_point))
        sim.wait(pause)
        sim.place(point_name(move.to_point))
    if move.remove is not None:
        sim.wait(pause)
        sim.lift(point_name(move.remove))


def follow_lights(sim: Simulation, *, pause: float = 0.3) -> str:
    """Do what the lights ask of the person for the Pi's turn; return what was done."""
    on, slow = lit(sim, "on"), lit(sim, "slow")
    done = []
    if len(on) == 1 and len(slow) == 1:  # a slide or fly: from the slow point to the on point
        sim.lift(slow[0])
        sim.wait(pause)
        sim.place(on[0])
        done.append(f"{slow[0]}-{on[0]}")
    elif len(on) == 1 and not slow:
        sim.place(on[0])
        done.append(on[0])
    elif len(slow) == 1 and not on:
        sim.lift(slow[0])
        done.append(f"x{slow[0]}")
    else:
        raise AssertionError(f"the lights ask for nothing clear: on={on} slow={slow}")
    sim.wait(1.0)
    # A removal by the Pi is shown once its move is carried out.
    slow = lit(sim, "slow")
    if len(slow) == 1 and not lit(sim, "on"):
        sim.lift(slow[0])
        sim.wait(1.0)
        done.append(f"x{slow[0]}")
    return " ".join(done)


def random_turn(sim: Simulation, rng: random.Random) -> Move:
    """A legal turn for the side to move, chosen with ``rng``."""
    moves = sorted(sim.board.legal_moves, key=str)
    return rng.choice(moves)
