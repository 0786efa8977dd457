"""Helpers for the scenario tests: a person's hands at the simulated board, positions to resume
from, and a Pi whose turns are scripted so a light can be checked against a known turn.

Everything here acts through :class:`morris.sim.Simulation` and reads what a person sees: the
point LEDs (``lights()``), the status LEDs (``status()``) and, to check the outcome, the game the
referee accepted (``board``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from morris.app.jobs import SearchJob
from morris.app.store import GameStore, SavedGame
from morris.core import POINT_NAMES, Board, Move
from morris.sim import Simulation

#: Long enough for a turn to be accepted, the Pi to answer and every blink to be decoded (the
#: LED decoder needs one slow blink period of a signal, see hardware.leddecoder.DECODE_WINDOW).
SETTLE = 2.0


def shown(sim: Simulation) -> dict[str, str]:
    """The point LEDs that are not off: what a person notices on the board."""
    return {name: signal for name, signal in sim.lights().items() if signal != "off"}


def moves(sim: Simulation) -> list[str]:
    """The accepted game as text."""
    return [str(m) for m in sim.board.move_stack]


def position(
    white: str | Iterable[str] = (),
    black: str | Iterable[str] = (),
    *,
    turn: str = "w",
    hands: tuple[int, int] = (0, 0),
    count: int = 0,
    fullmove: int = 20,
) -> str:
    """A position string (see :meth:`morris.core.Board.position`) from point lists."""
    whites = set(white.split() if isinstance(white, str) else white)
    blacks = set(black.split() if isinstance(black, str) else black)
    assert not whites & blacks
    cells = ["W" if p in whites else "B" if p in blacks else "." for p in POINT_NAMES]
    rings = "/".join("".join(cells[i : i + 8]) for i in (0, 8, 16))
    return f"{rings} {turn} {hands[0]} {hands[1]} {count} {fullmove} -"


def save_game(
    state_dir: Path,
    board: Board,
    *,
    mode: str = "referee",
    human: str = "white",
    level: int = 1,
) -> None:
    """Leave ``board`` in ``state_dir`` as the daemon's unfinished game."""
    GameStore(state_dir).save(SavedGame(board, mode, human, level))


def resumed(
    state_dir: Path,
    board: Board,
    *,
    mode: str = "referee",
    human: str = "white",
    level: int = 1,
    set_up: bool = True,
    **kwargs: object,
) -> Simulation:
    """A simulation resuming ``board`` (saved in ``state_dir``); with ``set_up`` the person then
    puts the pieces on the board as the game has them and the board settles."""
    save_game(state_dir, board, mode=mode, human=human, level=level)
    sim = Simulation(mode=mode, human=human, level=level, state_dir=state_dir, **kwargs)  # type: ignore[arg-type]
    if set_up:
        for point in sorted(board.pieces()):
            sim.place(point)
        sim.wait(SETTLE)
    return sim


def scripted(
    replies: Mapping[str, str] | Iterable[str],
    fallback: Callable[[SearchJob], Move | None] | None = None,
) -> Callable[[SearchJob], Move | None]:
    """A Pi that plays the given turns: a list played in order, or a map from the last accepted
    turn (``""`` at the start) to the reply. Hints are searched by ``fallback`` (else none)."""
    queue = list(replies) if not isinstance(replies, Mapping) else None
    table = replies if isinstance(replies, Mapping) else None
    searched: list[SearchJob] = []

    def search(job: SearchJob) -> Move | None:
        searched.append(job)
        if job.kind != "move":
            return fallback(job) if fallback is not None else None
        if table is not None:
            last = str(job.board.move_stack[-1]) if job.board.move_stack else ""
            text = table.get(last)
        else:
            assert queue is not None
            text = queue.pop(0) if queue else None
        if text is None:
            return fallback(job) if fallback is not None else None
        move = Move.parse(text)
        assert job.board.is_legal(move), f"scripted {text} is illegal in {job.board.position()}"
        return move

    search.searched = searched  # type: ignore[attr-defined]
    return search


def play(sim: Simulation, *turns: str, pause: float = 0.3, settle: float = SETTLE) -> None:
    """Carry out turns by hand (``d6``, ``a1-a4``, ``d2xf4``), each followed by ``settle``."""
    for text in turns:
        make_turn(sim, Move.parse(text), pause=pause)
        sim.wait(settle)


STRONG_GAMES = Path(__file__).resolve().parents[1] / "data" / "strong-games.txt"


def strong_games() -> list[tuple[str, str, list[str]]]:
    """tests/data/strong-games.txt: (result, termination, turns) per game."""
    games = []
    for line in STRONG_GAMES.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        result, termination, *turns = line.split()
        games.append((result, termination.strip("[]"), turns))
    return games


def lit(sim: Simulation, signal: str) -> list[str]:
    """The points showing ``signal``."""
    return sorted(name for name, value in sim.lights().items() if value == signal)


def carry_out_opponent_turn(sim: Simulation, *, pause: float = 0.3) -> str:
    """Do what the lights ask for the opponent's turn (the Pi's or the remote player's), reading
    nothing else; return it as notation.

    A steady light alone is a placement; a slow blink and a steady light a slide or fly from the
    blinking point. Once that is done, a single slow blink (and no steady light) is the removal.
    """
    on, slow = lit(sim, "on"), lit(sim, "slow")
    if len(on) == 1 and len(slow) == 1:
        sim.lift(slow[0])
        sim.wait(pause)
        sim.place(on[0])
        text = f"{slow[0]}-{on[0]}"
    elif len(on) == 1 and not slow:
        sim.place(on[0])
        text = on[0]
    else:
        raise AssertionError(f"the lights ask for no clear turn: on={on} slow={slow}")
    sim.wait(SETTLE)  # the removal is shown once the action stands, and must be decoded
    on, slow = lit(sim, "on"), lit(sim, "slow")
    if slow and len(slow) <= 2 and not on:  # one removal, or two for a double mill
        for point in slow:
            sim.lift(point)
            sim.wait(SETTLE)
            text += f"x{point}"
    else:
        assert not on and not slow, f"unclear lights after the Pi's turn: on={on} slow={slow}"
    return text


def make_turn(sim: Simulation, move: Move, *, pause: float = 0.3) -> None:
    """Carry out ``move`` by hand: place or slide the piece, then take the removed pieces."""
    if move.from_point is None:
        sim.place(POINT_NAMES[move.to_point])
    else:
        sim.lift(POINT_NAMES[move.from_point])
        sim.wait(pause)
        sim.place(POINT_NAMES[move.to_point])
    for removed in move.removals:
        sim.wait(pause)
        sim.lift(POINT_NAMES[removed])


def random_turn(sim: Simulation, rng: random.Random) -> Move:
    """A legal turn for the side to move, chosen with ``rng``."""
    moves = sorted(sim.board.legal_moves, key=str)
    return rng.choice(moves)


def play_against_the_pi(sim: Simulation, rng: random.Random) -> tuple[list[str], list[str]]:
    """Play until the game ends; return (the person's turns, what the lights made them do)."""
    mine: list[str] = []
    done: list[str] = []
    sim.wait(2.0)
    for _ in range(400):
        if sim.status()["game_over"] == "on":
            break
        if sim.status()["turn"] == "on":  # the person is to move
            move = random_turn(sim, rng)
            before = len(sim.board.move_stack)
            make_turn(sim, move)
            sim.wait(2.0)
            assert moves(sim)[before : before + 1] == [str(move)], sim.describe()
            mine.append(str(move))
        else:
            done.append(carry_out_opponent_turn(sim))
    return mine, done
