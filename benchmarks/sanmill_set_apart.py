"""Which of our losses to Sanmill came in games the yardstick itself loses from our seat.

    python benchmarks/sanmill_set_apart.py OURS_DIR [...] --reference REF_DIR [...]
    python benchmarks/sanmill_set_apart.py OURS_DIR [...] --solution DIR

Issue 34's rule: "an opening that Sanmill in our seat also loses is shown to be lost, and set
apart". ``OURS_DIR`` holds the games of ``sanmill_match.py ... --out OURS_DIR`` (our top level
against Sanmill), ``REF_DIR`` those of the same match played with ``--reference`` (Sanmill in
our seat, the same game numbers: the same opening and the same colour). For each of our losses
this names how many of the reference games of that number Sanmill lost from our seat; a loss is
set apart when that is at least ``--at-least`` (1: the issue's words; ``--at-least 2`` with two
reference runs asks that the yardstick lost it every time). Prints a markdown row per run of
ours: its W-D-L, its losses, how many are set apart and how many are left, then each loss.
With ``--solution DIR`` (a solved game, ``morris tables build --men K``) each loss also says
where the solution reaches it: the pieces when the placing ended, and the first position of the
game in the solution's moving-phase sectors with its value for our seat (a loss already there
was thrown away before the sectors reach), or that the game never came within them. Where the
solution knows values under the game's draw rules from the opening on (9 men's morris solved,
placing phase and all), it also names the value of the opening for our seat and the first turn
of ours that threw a value away; a loss whose opening the solution shows lost for our seat is
set apart (the proof the issue's rule stands in for), with or without reference runs. And a
last line per run says whose turn first threw a value away in each of its games (ours or
Sanmill's, while placing or moving, or none), with Sanmill's turns' numbers: where our wins
came from.

Exit codes: 0 done; 2 a directory without game records, a record that cannot be read, a game
number whose opening differs between the runs (they were not played with the same ``--pairs``
seed or openings), or a solution directory that holds no solved game; neither ``--reference``
nor ``--solution`` is a usage error (2).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from morris.core.board import Board  # noqa: E402
from morris.core.record import GameRecord, GameRecordError, read_game  # noqa: E402
from morris.core.variant import engine_rules  # noqa: E402
from morris.engine.errors import SolutionError  # noqa: E402
from morris.engine.result import Result, Value, threw_away  # noqa: E402
from morris.engine.solution import Solution  # noqa: E402
from morris.engine.solution.play import known_value, solved_rules  # noqa: E402


class SetApartError(Exception):
    """A run that cannot be read or compared, with what is wrong."""


@dataclass(frozen=True)
class Game:
    """One saved game of a match, seen from our seat."""

    number: int  # from 0: our seat is white in the even games
    opening: tuple[str, ...]  # its first two turns: the opening of one placement each
    points: float  # our seat's: 1, 0.5 or 0
    record: GameRecord | None = field(default=None, compare=False, repr=False)

    @property
    def seat(self) -> str:
        return "white" if self.number % 2 == 0 else "black"


def seat_points(number: int, result: str) -> float:
    """Our seat's points in game ``number`` (white in the even games) that ended ``result``."""
    white = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
    if white is None:
        raise SetApartError(f"game {number}: result {result!r} is not 1-0, 0-1 or 1/2-1/2")
    return white if number % 2 == 0 else 1.0 - white


def game_of(record: GameRecord, where: str) -> Game:
    """The game a saved record holds; ``where`` names the file in errors."""
    try:
        number = int(record.tags["Round"]) - 1
    except (KeyError, ValueError):
        raise SetApartError(f"{where}: no Round tag with the game's number") from None
    try:
        points = seat_points(number, record.result)
    except SetApartError as exc:
        raise SetApartError(f"{where}: {exc}") from None
    return Game(number, tuple(str(m) for m in record.moves[:2]), points, record)


def read_run(directory: Path) -> list[Game]:
    """The games saved in ``directory`` (``game-*.txt``, as ``--out`` writes them)."""
    paths = sorted(directory.glob("game-*.txt"))
    if not paths:
        raise SetApartError(f"{directory}: no game records (game-*.txt) in it")
    games = []
    for path in paths:
        try:
            record = read_game(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, GameRecordError) as exc:
            raise SetApartError(f"{path}: {exc}") from None
        games.append(game_of(record, str(path)))
    return games


def check_opening(game: Game, opening: tuple[str, ...], here: str, there: str) -> None:
    """Refuse ``game`` when its opening is not ``opening``, that of its number ``there``."""
    if opening != game.opening:
        raise SetApartError(
            f"game {game.number} opens {' '.join(game.opening)} in {here} and "
            f"{' '.join(opening)} in {there}: not the same openings"
        )


def reference_losses(runs: list[list[Game]]) -> dict[int, tuple[int, int, tuple[str, ...]]]:
    """For each game number: (reference games lost from our seat, reference games, opening)."""
    seen: dict[int, tuple[int, int, tuple[str, ...]]] = {}
    for run in runs:
        for game in run:
            lost, played, opening = seen.get(game.number, (0, 0, game.opening))
            check_opening(game, opening, "one reference run", "another")
            seen[game.number] = (lost + (game.points == 0), played + 1, opening)
    return seen


@dataclass(frozen=True)
class Loss:
    """One loss of ours, with the reference's record in the game of its number."""

    game: Game
    lost: int  # the reference games of that number Sanmill lost from our seat
    played: int  # the reference games of that number
    set_apart: bool
    by_solution: bool = False  # set apart because the solution shows the opening lost


@dataclass(frozen=True)
class Tally:
    """One run of ours against the reference."""

    wins: int
    draws: int
    losses: list[Loss]


def tally(
    ours: list[Game], reference: dict[int, tuple[int, int, tuple[str, ...]]], at_least: int
) -> Tally:
    """Our run's result, its losses each with the reference's record in that game: set apart
    where the reference lost at least ``at_least`` of its games of that number."""
    losses = []
    for game in sorted(ours, key=lambda g: g.number):
        if game.points != 0:
            continue
        lost, played, opening = reference.get(game.number, (0, 0, game.opening))
        check_opening(game, opening, "our run", "the reference")
        losses.append(Loss(game, lost, played, lost >= at_least))
    wins = sum(g.points == 1 for g in ours)
    draws = sum(g.points == 0.5 for g in ours)
    return Tally(wins, draws, losses)


def load(directory: Path) -> Solution:
    """The solved game in ``directory``."""
    try:
        solution = Solution.load(directory, check=False)
    except (SolutionError, OSError) as exc:
        raise SetApartError(f"{directory}: the solved game cannot be read: {exc}") from None
    if not solution.keys:
        raise SetApartError(f"{directory}: no solved game (sector-*.msol) in it")
    return solution


def _named(result: Result) -> str:
    """A value for our seat in words: "won in 7", "drawn", "lost" (no distance known)."""
    what = {Value.WIN: "won", Value.LOSS: "lost", Value.DRAW: "drawn"}[result.value]
    if result.value is Value.DRAW or result.distance is None:
        return what
    return f"{what} in {result.distance}"


def start_of(game: Game) -> tuple[GameRecord, Board]:
    """The record of ``game`` and the board at its start."""
    record = game.record
    assert record is not None
    try:
        return record, record.start_board()
    except GameRecordError as exc:
        raise SetApartError(f"game {game.number}: {exc}") from None


def where_decided(game: Game, solution: Solution) -> str:
    """Where ``solution`` reaches the lost ``game``: the pieces (white v black) when the placing
    ended, and the first position in its moving-phase sectors with its value for our seat."""
    record, board = start_of(game)
    if not solved_rules(engine_rules(board)):
        return "not the solved game's rules"
    ours = game.number % 2 == 0  # our seat is white in the even games
    ended = ""
    for turn in range(len(record.moves) + 1):
        if turn:
            board.push(record.moves[turn - 1])
        if board.pieces_in_hand(True) or board.pieces_in_hand(False):
            continue
        white, black = board.occupied_co(True), board.occupied_co(False)
        if not ended:
            ended = f"placing ended {white.bit_count()}v{black.bit_count()} at turn {turn}"
        mover, other = (white, black) if board.turn else (black, white)
        found = solution.probe_moving(mover, other)
        if found is None:
            continue
        result = found if board.turn == ours else found.other_side()
        return (
            f"{ended}; first in the solution's sectors at turn {turn}, "
            f"{white.bit_count()}v{black.bit_count()}: {_named(result)} for our seat"
        )
    return f"{ended or 'the placing never ended'}; never in the solution's sectors"


@dataclass(frozen=True)
class Verdict:
    """The solution's word on one lost game, for our seat, under the draw rules it was played
    with (:func:`~morris.engine.solution.play.known_value`): the first position from the end of
    the opening on whose value it knows, and the first turn of ours from there that threw a
    value away (a win to a draw or a loss, a draw to a loss)."""

    opening: int  # the turns of the opening: the position after them is the opening's
    known_at: int | None  # turns played before the first position with a known value
    known: Result | None  # that position's value for our seat
    thrown_at: int | None = None  # the number (from 1) of our turn that threw a value away
    move: str = ""
    before: Result | None = None  # our value before that turn
    after: Result | None = None  # and after it

    @property
    def opening_lost(self) -> bool:
        """Whether the solution shows the position after the opening lost for our seat."""
        return (
            self.known_at == self.opening
            and self.known is not None
            and self.known.value is Value.LOSS
        )

    def text(self) -> str:
        if self.known_at is None or self.known is None:
            return "the solution knows no position of the game from the opening on"
        if self.opening_lost:
            return f"the solution: the opening is {_named(self.known)} for our seat: set apart"
        where = "the opening" if self.known_at == self.opening else f"turn {self.known_at}"
        first = f"the solution: {_named(self.known)} for our seat after {where}"
        if self.thrown_at is None or self.before is None or self.after is None:
            return f"{first}; no turn of ours threw a value away where it knows both"
        return (
            f"{first}; turn {self.thrown_at} ({self.move}, ours) threw the "
            f"{'win' if self.before.value is Value.WIN else 'draw'} away: "
            f"{_named(self.after)}"
        )


@dataclass(frozen=True)
class Judged:
    """A position of a game from the end of its opening on, with the solution's value there
    under the game's draw rules (:func:`~morris.engine.solution.play.known_value`), and the
    turn played from it with its value for the side that played it."""

    turn: int  # the turns played before this position
    value: Result | None  # for the side to move here
    mine: bool  # our seat is to move here
    placing: bool  # the side to move still has a piece in hand
    move: str = ""  # the turn played from here ("": the game ended here)
    after: Result | None = None  # that turn's value for the side that played it


def positions(game: Game, solution: Solution) -> Iterator[Judged]:
    """Each position of ``game`` from the end of its opening to its end, judged by ``solution``:
    every position is probed once, its value serving as the value after the turn before it."""
    record, board = start_of(game)
    ours = game.number % 2 == 0  # our seat is white in the even games
    moves = record.moves
    opening = min(2, len(moves))
    for move in moves[:opening]:
        board.push(move)
    value = known_value(solution, board)
    for turn in range(opening, len(moves) + 1):
        mine, placing = board.turn == ours, board.pieces_in_hand(board.turn) > 0
        if turn == len(moves) or board.outcome() is not None:
            yield Judged(turn, value, mine, placing)
            return
        board.push(moves[turn])
        after = known_value(solution, board)
        mover_after = None if after is None else after.for_last_mover()
        yield Judged(turn, value, mine, placing, str(moves[turn]), mover_after)
        value = after


def verdict(game: Game, solution: Solution) -> Verdict:
    """What ``solution`` says of the lost ``game``, played from its record's start."""
    assert game.record is not None
    opening = min(2, len(game.record.moves))
    known_at: int | None = None
    known: Result | None = None
    for here in positions(game, solution):
        if here.value is not None and known_at is None:
            known_at, known = here.turn, here.value if here.mine else here.value.other_side()
        if here.mine and here.move and threw_away(here.value, here.after):
            return Verdict(
                opening, known_at, known, here.turn + 1, here.move, here.value, here.after
            )
    return Verdict(opening, known_at, known)


@dataclass(frozen=True)
class Thrown:
    """The first turn of a game, from the end of its opening on, that threw a value away by the
    solution under the game's draw rules, whichever side played it."""

    turn: int  # its number, from 1
    ours: bool  # played by our seat (else by Sanmill)
    placing: bool  # a placement (its player still had a piece in hand)


def first_thrown(game: Game, solution: Solution) -> Thrown | None:
    """The first turn of ``game`` that threw a value away (a win to a draw or a loss, a draw to
    a loss) where ``solution`` knows the value before and after it, or None."""
    for here in positions(game, solution):
        if here.move and threw_away(here.value, here.after):
            return Thrown(here.turn + 1, here.mine, here.placing)
    return None


def thrown_line(name: str, games: list[Game], solution: Solution) -> str:
    """Who first threw a value away in each of a run's ``games``, in a line: how many games
    each side's turn was the first, while placing or moving, and Sanmill's turns' numbers."""
    found = [first_thrown(game, solution) for game in games]
    theirs = sorted(t.turn for t in found if t is not None and not t.ours)
    counts = []
    for side, ours in (("ours", True), ("Sanmill's", False)):
        sided = [t for t in found if t is not None and t.ours == ours]
        placing = sum(t.placing for t in sided)
        counts.append(f"{side} in {len(sided)} ({placing} placing, {len(sided) - placing} moving)")
    none = sum(t is None for t in found)
    return (
        f"{name}: the first turn to throw a value away (the solution, draw rules counted): "
        f"{', '.join(counts)}, none in {none}; Sanmill's turns {' '.join(map(str, theirs)) or '-'}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ours", nargs="+", type=Path, help="our runs' game directories (--out)")
    parser.add_argument(
        "--reference", nargs="+", type=Path, default=[],
        help="the same match's game directories played with --reference (Sanmill in our seat)",
    )  # fmt: skip
    parser.add_argument(
        "--at-least", type=int, default=1, metavar="K",
        help="set a loss apart when Sanmill in our seat lost at least K of its games of that "
        "number (default 1)",
    )  # fmt: skip
    parser.add_argument(
        "--solution", type=Path, default=None, metavar="DIR",
        help="also say where this solved game reaches each loss, the opening's value and the "
        "turn of ours that threw a value away; set apart a loss whose opening it shows lost",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.at_least < 1:
        parser.error(f"--at-least must be at least 1, not {args.at_least}")
    if not args.reference and args.solution is None:
        parser.error("give --reference REF_DIR ..., --solution DIR, or both")
    try:
        reference_runs = [read_run(d) for d in args.reference]
        reference = reference_losses(reference_runs)
        runs = [(d, read_run(d)) for d in args.ours]
        tallies = [(d, tally(run, reference, args.at_least)) for d, run in runs]
        decided: dict[tuple[Path, int], str] = {}
        thrown: list[str] = []
        if args.solution is not None:
            solution = load(args.solution)
            tallies = [(d, judged(d, t, solution, decided)) for d, t in tallies]
            thrown = [thrown_line(d.name, run, solution) for d, run in runs]
    except SetApartError as exc:
        print(f"sanmill_set_apart: {exc}", file=sys.stderr)
        return 2
    try:
        report(args.at_least, reference_runs, reference, tallies, decided)
        if thrown:
            print()
            print("\n".join(thrown))
    except BrokenPipeError:  # read by `head`: the rest is not wanted
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - stays open until exit
    return 0


def judged(
    directory: Path, t: Tally, solution: Solution, decided: dict[tuple[Path, int], str]
) -> Tally:
    """``t`` with each loss whose opening ``solution`` shows lost for our seat set apart; what
    the solution says of each loss goes into ``decided``."""
    losses = []
    for loss in t.losses:
        said = verdict(loss.game, solution)
        decided[directory, loss.game.number] = (
            f"{where_decided(loss.game, solution)}\n    {said.text()}"
        )
        if said.opening_lost:
            loss = dataclasses.replace(loss, set_apart=True, by_solution=True)
        losses.append(loss)
    return Tally(t.wins, t.draws, losses)


def report(
    at_least: int,
    reference_runs: list[list[Game]],
    reference: dict[int, tuple[int, int, tuple[str, ...]]],
    tallies: list[tuple[Path, Tally]],
    decided: dict[tuple[Path, int], str],
) -> None:
    """The markdown row per run of ours, then a line per loss (with where the solution reaches
    it, from ``decided``, when it is there)."""
    ref_games = sum(len(run) for run in reference_runs)
    ref_lost = sum(lost for lost, _, _ in reference.values())
    if reference_runs:
        print(
            f"reference: {ref_games} games of Sanmill in our seat, {ref_lost} lost; a loss of "
            f"ours is set apart where it lost at least {at_least} of its games of that number"
        )
    else:
        print("no reference runs: a loss is set apart only where the solution shows it lost")
    print()
    print("| run | games | W-D-L | losses | set apart | left |")
    print("|---|---:|---|---:|---:|---:|")
    for directory, t in tallies:
        games = t.wins + t.draws + len(t.losses)
        set_apart = sum(loss.set_apart for loss in t.losses)
        print(
            f"| {directory.name} | {games} | {t.wins}-{t.draws}-{len(t.losses)} | "
            f"{len(t.losses)} | {set_apart} | {len(t.losses) - set_apart} |"
        )
    for directory, t in tallies:
        print()
        print(f"{directory.name}:")
        for loss in t.losses:
            game = loss.game
            status = "set apart" if loss.set_apart else "left"
            if loss.by_solution:
                status += " (the solution: the opening is lost)"
            yardstick = (
                f"Sanmill in our seat lost {loss.lost} of {loss.played}: " if reference_runs else ""
            )
            print(
                f"  game {game.number} ({' '.join(game.opening)}, our seat {game.seat}): "
                f"{yardstick}{status}"
            )
            if (directory, game.number) in decided:
                print(f"    {decided[directory, game.number]}")


if __name__ == "__main__":
    sys.exit(main())
