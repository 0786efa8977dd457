"""The engine follows every variant's rules data: its move generator and C search generate what
the core plays, the C search and the Python one agree move for move, and the top level beats a
random mover and a greedy player in every game of a seeded set."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from morris import POINT_NAMES, Board, perft
from morris.core.variant import VARIANT_NAMES, find_variant
from morris.engine import search
from morris.engine.engine import Engine, SearchResult
from morris.engine.levels import MAX_LEVEL
from morris.engine.match import run_match
from morris.engine.movegen import board_bar, decode, generate, has_moves
from morris.engine.movegen import perft as fast_perft
from morris.engine.players import GreedyPlayer, Player, RandomPlayer
from morris.engine.search import NATIVE_AVAILABLE
from tests.engine.helpers import random_board

#: Every game the engine must follow: the variants, and the standard game's switches (on twelve
#: men's morris too, whose corners can close three mills at once).
GAMES: dict[str, Callable[..., Board]] = {
    **{name: find_variant(name) for name in VARIANT_NAMES},
    "standard+from-mills": functools.partial(Board, remove_from_mills=True),
    "standard+double": functools.partial(Board, double_mill_removes_two=True),
    "twelve+double+from-mills": functools.partial(
        find_variant("twelve"), double_mill_removes_two=True, remove_from_mills=True
    ),
}


def _game(name: str, **settings: object) -> Board:
    return GAMES[name](**settings)  # type: ignore[arg-type]


def _random_game(name: str, seed: int, plies: int, flying: bool = True) -> Board:
    settings = {"flying": flying, "threefold_repetition": False, "no_removal_limit": None}
    return random_board(seed, plies, GAMES[name], **settings)  # type: ignore[arg-type]


names = st.sampled_from(sorted(GAMES))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(name=names, seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 90), flying=st.booleans())
def test_the_move_generator_generates_what_the_core_plays(
    name: str, seed: int, plies: int, flying: bool
) -> None:
    _assert_generated_as_the_core(_random_game(name, seed, plies, flying))


def _assert_generated_as_the_core(board: Board) -> None:
    rules = board.rules
    turn = board.turn
    us, them = board.occupied_co(turn), board.occupied_co(not turn)
    uh, bar = board.pieces_in_hand(turn), board_bar(board, turn)
    mills, quiet = generate(rules, us, them, uh, bar)
    assert sorted(map(str, map(decode, mills + quiet))) == sorted(
        map(str, board.generate_moves())
    ), board.position()
    assert has_moves(rules, us, them, uh, bar) == board.has_moves()


def _set_up(name: str, seed: int, flying: bool) -> Board:
    """A position of game ``name`` with pieces on random points in play, often around a point
    where the side to move closes two mills at once (so that double mills come up), random hands
    and, in Morabaraba, a random barred return; drawn with ``seed``."""
    rng = random.Random(seed)
    cls = GAMES[name]
    rules = cls().rules
    n = rules.pieces_per_side
    turn = rng.choice("wb")
    own, other = ("W", "B") if turn == "w" else ("B", "W")
    cells = ["."] * 24
    free = [p for p in range(24) if rules.points_in_play >> p & 1]
    crossings = [p for p in free if len(rules.mills_through[p]) >= 2]
    if rng.random() < 0.6:
        target = rng.choice(crossings)
        for mill in rng.sample(rules.mills_through[target], 2):
            for q in range(24):
                if mill >> q & 1 and q != target:
                    cells[q] = own
        step = [q for q in free if rules.neighbours[target] >> q & 1 and cells[q] == "."]
        if step:
            cells[rng.choice(step)] = own
        free.remove(target)
    free = [p for p in free if cells[p] == "."]
    rng.shuffle(free)
    for colour in (own, other):
        want = rng.randint(2, n) - cells.count(colour)
        for _ in range(max(0, min(want, len(free) - 1))):
            cells[free.pop()] = colour
    counts = [cells.count("W"), cells.count("B")]
    hands = [0, 0] if rng.random() < 0.5 else [rng.randint(0, max(0, n - c)) for c in counts]
    rings = "/".join("".join(cells[r * 8 : r * 8 + 8]) for r in range(3))
    text = f"{rings} {turn} {hands[0]} {hands[1]} 0 20 -"
    if rules.return_mill_barred and rng.random() < 0.7:
        frm = rng.choice([p for p in range(24) if cells[p] != "."])
        targets = [q for q in range(24) if rules.neighbours[frm] >> q & 1]
        if targets:
            text += f" {POINT_NAMES[frm]}-{POINT_NAMES[rng.choice(targets)]}"
    settings = {"flying": flying, "threefold_repetition": False, "no_removal_limit": None}
    return cls(text, **settings)  # type: ignore[call-arg]


@settings(max_examples=600, deadline=None, derandomize=True)
@given(name=names, seed=st.integers(0, 2**32 - 1), flying=st.booleans())
def test_set_up_positions_are_generated_as_the_core_plays_them(
    name: str, seed: int, flying: bool
) -> None:
    _assert_generated_as_the_core(_set_up(name, seed, flying))


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", range(4))
def test_perft_through_the_engine_equals_the_core(name: str, seed: int) -> None:
    board = _random_game(name, seed, plies=4 + 9 * seed)
    depth = 3 if seed < 2 else 2
    assert fast_perft(board, depth) == perft(board, depth)


# -- the C search and the Python search ----------------------------------------------------------


def _seen(result: SearchResult) -> tuple[object, ...]:
    return (str(result.move), result.score, result.depth, result.nodes, [str(m) for m in result.pv])


@pytest.mark.skipif(not NATIVE_AVAILABLE, reason="the C search is not built")
@settings(max_examples=40, deadline=None, derandomize=True)
@given(name=names, seed=st.integers(0, 10**6), plies=st.integers(0, 100))
def test_the_c_search_plays_as_the_python_search(name: str, seed: int, plies: int) -> None:
    board = random_board(seed, plies, GAMES[name])
    if board.is_game_over():
        return
    py = Engine(6, seed=5, native=False).play(board, nodes=3000)
    c = Engine(6, seed=5, native=True).play(board, nodes=3000)
    assert _seen(py) == _seen(c), board.position()


@pytest.mark.skipif(not NATIVE_AVAILABLE, reason="the C search is not built")
@settings(max_examples=300, deadline=None, derandomize=True)
@given(name=names, seed=st.integers(0, 2**32 - 1), flying=st.booleans())
def test_the_c_search_generates_and_evaluates_as_python(name: str, seed: int, flying: bool) -> None:
    board = _set_up(name, seed, flying)
    s = search.Search(
        board, tables=None, node_limit=1000, deadline=None, clock=lambda: 0.0, stop=None,
        native=True,
    )  # fmt: skip
    assert s.core is not None
    turn = board.turn
    us, them = board.occupied_co(turn), board.occupied_co(not turn)
    uh, th = board.pieces_in_hand(turn), board.pieces_in_hand(not turn)
    bar = board_bar(board, turn)
    assert s.core.generate(us, them, uh, bar) == generate(board.rules, us, them, uh, bar)
    assert s.core.evaluate(us, them, uh, th) == s.evaluate(us, them, uh, th)
    s.release()


@pytest.mark.skipif(not NATIVE_AVAILABLE, reason="the C search is not built")
@settings(max_examples=60, deadline=None, derandomize=True)
@given(name=names, seed=st.integers(0, 2**32 - 1))
def test_the_c_search_plays_set_up_positions_as_python(name: str, seed: int) -> None:
    board = _set_up(name, seed, flying=True)
    if board.is_game_over():
        return
    py = Engine(6, seed=5, native=False).play(board, nodes=2000)
    c = Engine(6, seed=5, native=True).play(board, nodes=2000)
    assert _seen(py) == _seen(c), board.position()
    assert py.move in board.legal_moves


# -- strength: the top level against a random mover and a greedy player ---------------------------


class _TopLevel(Engine):
    """The top level with a fixed node budget instead of its own, so the games are the same on
    any machine and short enough for the suite: 100 000 nodes, about what 30 ms a move gives it
    (benchmarks/ladder.py plays it at 100 ms a move; docs/ENGINE.md, "Variants")."""

    def __init__(self, nodes: int) -> None:
        super().__init__(MAX_LEVEL, seed=3)
        self.nodes = nodes

    def play(self, board: Board, **_: object) -> SearchResult:  # type: ignore[override]
        return super().play(board, nodes=self.nodes)


#: The games of the strength test: the variants, and the standard game with each switch. (Twelve
#: men's morris with both switches is left out: a greedy player that blocks every line held a
#: full-board draw there in one game of six; docs/ENGINE.md, "Variants".)
STRENGTH_GAMES = [*VARIANT_NAMES, "standard+from-mills", "standard+double"]


@pytest.mark.slow
@pytest.mark.parametrize("opponent", ["random", "greedy"])
@pytest.mark.parametrize("name", STRENGTH_GAMES)
def test_the_top_level_wins_every_game(name: str, opponent: str) -> None:
    other: Player = RandomPlayer(seed=7) if opponent == "random" else GreedyPlayer(seed=7)
    result = run_match(_TopLevel(nodes=100_000), other, games=6, board_factory=GAMES[name])
    lost = [
        (g.record.tags.get("Result"), g.record.tags.get("Termination"))
        for g in result.games
        if g.score < 1
    ]
    assert result.wins == 6, f"{name} against {opponent}: {lost}"
