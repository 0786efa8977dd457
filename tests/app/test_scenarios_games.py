"""Complete games on the simulated board: the person against the Pi at several levels and both
colours (the person's turns from a seeded RNG, the Pi's carried out from the lights alone), and
referee-mode games replayed by hand from game records, ending with the recorded result."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from morris.app.store import GameStore
from morris.core import Board, GameRecord, read_game, write_game
from morris.sim import Simulation
from tests.app.scenario_kit import (
    carry_out_opponent_turn,
    make_turn,
    moves,
    play,
    play_against_the_pi,
    random_turn,
    strong_games,
)

#: The data file names the no-removal draw as some programs do.
TERMINATION = {"n-move": "no-removal"}

# -- against the Pi -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "human", "seed"),
    [
        (1, "white", 11),
        (1, "black", 12),
        pytest.param(3, "black", 13, marks=pytest.mark.slow),
        pytest.param(5, "white", 14, marks=pytest.mark.slow),
    ],
)
def test_a_whole_game_against_the_pi(tmp_path: Path, level: int, human: str, seed: int) -> None:
    rng = random.Random(seed)
    with Simulation(mode="vs-ai", human=human, level=level, seed=seed, state_dir=tmp_path) as sim:
        mine, done = play_against_the_pi(sim, rng)
        outcome = sim.board.outcome()
        assert outcome is not None, sim.describe()
        assert sim.status()["game_over"] == "on"
        assert all(s == "off" for s in sim.lights().values())
        # The board the person sees is the game the referee accepted ...
        assert sim.sensed == frozenset(sim.board.pieces())
        # ... made of the person's turns and the Pi's turns as its lights asked for them.
        person_first = human == "white"
        played = sim.board.move_stack
        assert [str(m) for m in played[0 if person_first else 1 :: 2]] == mine
        assert [str(m) for m in played[1 if person_first else 0 :: 2]] == done
    # The finished game is kept as a game record with its result.
    records = list(GameStore(tmp_path).games_dir.glob("*.txt"))
    assert len(records) == 1
    record = read_game(records[0].read_text(encoding="utf-8"))
    assert [str(m) for m in record.moves] == [str(m) for m in played]
    assert record.result == outcome.result()


# -- referee games replayed from records --------------------------------------------------------


def _replay(turns: list[str]) -> Simulation:
    sim = Simulation(mode="referee")
    play(sim, *turns, pause=0.2, settle=1.0)
    return sim


GAMES = strong_games()
SHORT = sorted(range(len(GAMES)), key=lambda i: len(GAMES[i][2]))


@pytest.mark.parametrize("index", SHORT[:4])
def test_a_recorded_game_replayed_by_hand_ends_with_its_result(index: int) -> None:
    result, termination, turns = GAMES[index]
    with _replay(turns) as sim:
        assert moves(sim) == turns
        outcome = sim.board.outcome()
        assert outcome is not None
        assert (outcome.result(), outcome.termination.value) == (
            result,
            TERMINATION.get(termination, termination),
        )
        assert sim.status()["game_over"] == "on"


@pytest.mark.slow
@pytest.mark.parametrize(
    "index", [i for i in range(len(GAMES)) if GAMES[i][0] == "1/2-1/2"][:1] + SHORT[4:7]
)
def test_a_long_recorded_game_replayed_by_hand_ends_with_its_result(index: int) -> None:
    result, termination, turns = GAMES[index]
    with _replay(turns) as sim:
        assert moves(sim) == turns
        outcome = sim.board.outcome()
        assert outcome is not None
        assert (outcome.result(), outcome.termination.value) == (
            result,
            TERMINATION.get(termination, termination),
        )


def test_a_game_record_written_and_read_back_replays_to_its_result() -> None:
    _, _, turns = GAMES[SHORT[0]]
    board = Board()
    for text in turns:
        board.push_notation(text)
    text = write_game(GameRecord.from_board(board, White="Ann", Black="Bo"))
    record = read_game(text)
    with _replay([str(m) for m in record.moves]) as sim:
        assert sim.board.result() == record.result != "*"
        outcome = sim.board.outcome()
        assert outcome is not None
        assert outcome.termination.value == record.tags["Termination"]


def test_the_same_seed_plays_the_same_game() -> None:
    def game(seed: int) -> list[str]:
        rng = random.Random(7)
        with Simulation(mode="vs-ai", human="white", level=2, seed=seed) as sim:
            for _ in range(6):
                make_turn(sim, random_turn(sim, rng))
                sim.wait(2.0)
                carry_out_opponent_turn(sim)
            return moves(sim)

    first = game(3)
    assert len(first) == 12
    assert game(3) == first
