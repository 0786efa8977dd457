"""Whole games played by hand: the strong games of tests/data and random games with noisy timing."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from morris.core import BLACK, POINT_NAMES, WHITE, Board, Color, Move
from morris.referee import Flagged, GameOver, RefereeConfig, TakenBack
from tests.referee.table import Table

GAMES = Path(__file__).resolve().parent.parent / "data" / "strong-games.txt"
CONFIG = RefereeConfig()


def read_strong_games() -> list[tuple[str, list[Move]]]:
    """(result, turns) for each line of the games file."""
    games = []
    for line in GAMES.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        result, _termination, *turns = line.split()
        games.append((result, [Move.parse(t) for t in turns]))
    return games


def carry_out(
    table: Table, move: Move, rng: random.Random, *, max_gap: float = 1.5, noise: bool = False
) -> None:
    """Do ``move`` by hand: lift, put down, remove, sometimes the removal first; then wait."""
    steps: list[tuple[bool, int]] = []  # (place?, point)
    if move.from_point is not None:
        steps.append((False, move.from_point))
    steps.append((True, move.to_point))
    if move.remove is not None:
        removal = (False, move.remove)
        steps = [removal, *steps] if rng.random() < 0.3 else [*steps, removal]
    for i, (place, point) in enumerate(steps):
        if i:
            table.wait(rng.uniform(0.05, max_gap))
        bit = 1 << point
        table.set(table.sensed | bit if place else table.sensed & ~bit)
        if noise:
            _chatter(table, bit, rng)
    if noise:
        for _ in range(rng.randrange(3)):  # a weak magnet somewhere drops out for a moment
            table.wait(rng.uniform(0.0, 0.3))
            table.flicker(_name(rng.randrange(24)), rng.uniform(0.001, CONFIG.debounce * 0.9))


def _chatter(table: Table, bit: int, rng: random.Random) -> None:
    """Contact bounce on the point just changed: flips that end within the debounce time."""
    settled = table.sensed
    end = table.t + rng.uniform(0.0, CONFIG.debounce * 0.9)
    while True:
        step = rng.uniform(0.002, 0.03)
        if table.t + 2 * step > end:
            break
        table.wait(step)
        table.set(settled ^ bit)
        table.wait(step)
        table.set(settled)


def _name(point: int) -> str:
    return POINT_NAMES[point]


# -- the strong games, by hand, in referee mode --------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(read_strong_games())))
def test_strong_game_played_by_hand(index: int) -> None:
    result, moves = read_strong_games()[index]
    rng = random.Random(index)
    table = Table()
    for move in moves:
        carry_out(table, move, rng, noise=index % 2 == 1)
        table.wait(rng.uniform(0.7, 3.0))
    board = table.referee.board
    assert board.move_stack == moves
    assert board.result() == result
    assert table.of(GameOver) == [GameOver(board.outcome())]  # type: ignore[arg-type]
    assert table.of(Flagged) == [] and table.of(TakenBack) == []
    assert table.shown() == {}


def test_the_games_file_is_read() -> None:
    games = read_strong_games()
    assert len(games) >= 20
    assert all(result in ("1-0", "0-1", "1/2-1/2") for result, _ in games)


# -- random games with noisy timing ----------------------------------------------------------------


def random_game(rng: random.Random, plies: int) -> list[Move]:
    board = Board()
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        board.push(move)
        moves.append(move)
    return moves


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 70))
def test_random_games_by_hand_with_noise_give_exactly_their_turns(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    moves = random_game(rng, plies)
    table = Table()
    for move in moves:
        carry_out(table, move, rng, max_gap=3.0, noise=True)
        table.wait(rng.uniform(0.65, 4.0))
    assert table.referee.board.move_stack == moves
    assert table.of(Flagged) == []


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 60))
def test_random_games_against_the_pi_with_fast_replies(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    pi: Color = rng.choice([WHITE, BLACK])
    moves = random_game(rng, plies)
    table = Table(opponent_color=pi)
    game = Board()
    for i, move in enumerate(moves):
        by_opponent = game.turn == pi
        game.push(move)
        if by_opponent:
            assert table.referee.opponent_to_move
            table.expect(str(move))
        carry_out(table, move, rng, max_gap=1.0, noise=True)
        if by_opponent and i + 1 < len(moves) and rng.random() < 0.4:
            table.wait(rng.uniform(0.0, 0.3))  # the reply comes before the Pi's turn is confirmed
        else:
            table.wait(rng.uniform(0.65, 3.0))
    table.wait(1.0)
    assert table.referee.board.move_stack == moves
    assert table.of(Flagged) == []


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 40),
    bursts=st.lists(
        st.tuples(
            st.integers(0, 23),
            st.floats(0.0, CONFIG.debounce * 0.95),
            st.floats(0.0, 2.0),
        ),
        max_size=30,
    ),
)
def test_noise_shorter_than_the_debounce_never_changes_the_game(
    seed: int, plies: int, bursts: list[tuple[int, float, float]]
) -> None:
    rng = random.Random(seed)
    board = Board()
    for move in random_game(rng, plies):
        board.push(move)
    position = board.position()
    table = Table(board, opponent_color=rng.choice([None, WHITE, BLACK]))
    before = table.lights()
    for point, length, pause in bursts:
        table.flicker(_name(point), length)
        table.wait(pause)
    table.wait(10.0)
    assert table.events == []
    assert table.referee.board.position() == position
    assert all(lights == before for _, lights in table.history)
    assert table.referee.sensed == board.occupied
