"""A puzzle at the board: a position from the solved game, set up by the lights, played against
the Pi's perfect defence (docs/PUZZLES.md).

The controller owns one :class:`PuzzleSession` while a puzzle lasts and tells it what the referee
reports; the session says what the event line shows, which turn the Pi answers with (the
solution's best defence: the longest loss) and which turn a hint shows (a winning one). How a
puzzle stands is a pure function of the turns played since it was set up, so a takeback simply
takes the puzzle back with the game:

- **setting up**: the lights guide the board to the position, a White piece's point ``on``, a
  Black piece's ``slow``, a piece that must go ``fast``;
- **playing**: the person (the side to move, which wins) has played only turns that keep a win
  within the puzzle's ``N`` turns (the Pi defends as long as it can, so each must be a fastest
  win);
- **solved**: the person won within ``N`` turns;
- **failed**: the first of the person's turns that did not keep a win within the turns left (a
  draw, a loss, or a win that takes longer); the session says which turns would have kept it.
  The game goes on (the Pi still plays from the solution); ``takeback`` takes the failing turn
  back (a retry, counted), ``new`` ends the puzzle.

Puzzles are made off the controller's thread (:func:`make_puzzle`: sampling takes a moment) from
the solution :func:`load_puzzle_solution` finds (the ``engine.solution`` directory).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from morris.app.errors import InputError, NotNowError
from morris.app.mode import Mode
from morris.core import COLOR_NAMES, WHITE, Board, Move
from morris.i18n import Message, joined, msg, nmsg, plain
from morris.referee import Event, GameOver, SetUp, SetUpDone, TakenBack, TurnAccepted

if TYPE_CHECKING:
    from morris.app.config import Config
    from morris.engine.result import Result
    from morris.engine.solution import Solution
    from morris.engine.solution.puzzles import Puzzle

logger = logging.getLogger(__name__)

#: What to build when no solution is there (every front end says it).
BUILD_HINT = (
    "puzzles need the solved game: build it with `morris tables build --men K` (K = 3 .. 9), "
    "or give --solution DIR where `morris tables build --men K --dir DIR` built it (the "
    "configuration's [engine] solution)"
)


class NoSolutionError(NotNowError):
    """No solved game is built where the service looks (the web companion answers 409)."""


def load_puzzle_solution(directory: Path | None = None) -> Solution:
    """The solved game in ``directory`` (default: the data directory's, what the engine plays
    from; the daemon gives :meth:`Config.solution_dir`).

    Raises :class:`NoSolutionError` saying what to build when none is there.
    """
    from morris.app.jobs import load_solution
    from morris.app.paths import solution_dir

    solution = load_solution(directory)
    if solution is None:
        raise NoSolutionError(f"no solved game in {directory or solution_dir()}: {BUILD_HINT}")
    return solution


def solution_for(solution: Solution | None, config: Config) -> Solution:
    """``solution`` if there is one, else the one of the configuration (``engine.solution``)."""
    if solution is not None:
        return solution
    return load_puzzle_solution(config.solution_dir())


def make_puzzle(
    solution: Solution, wins_in: object, seed: object = 0, men: object = None
) -> Puzzle:
    """One puzzle "white to move wins in ``wins_in``" (seeded), for a front end's request.

    Raises :class:`InputError` naming the bad input (a length that is no whole number from 1, a
    seed that is no whole number, no win that long in the solution).
    """
    from morris.engine.solution.puzzles import PuzzleError, generate_puzzles
    from morris.engine.solution.sectors import MAX_MEN, MIN_MEN

    length, seed_number = _whole("wins_in", wins_in), _whole("seed", seed)
    pieces = None if men is None else _whole("men", men)
    if pieces is not None and not MIN_MEN <= pieces <= MAX_MEN:
        raise InputError(f"men must be a whole number from {MIN_MEN} to {MAX_MEN}, not {men!r}")
    if length < 1:
        raise InputError(f"wins_in must be 1 or more, not {length}")
    try:
        puzzles = generate_puzzles(solution, length, seed=seed_number, men=pieces)
    except PuzzleError as exc:
        raise InputError(exc.message) from None
    if not puzzles:
        raise InputError(f"no puzzle wins in {length} was found for seed {seed}: try another seed")
    return puzzles[0]


def _whole(name: str, value: object) -> int:
    """``value`` as the whole number it must be; :class:`InputError` naming ``name`` if not."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{name} must be a whole number, not {value!r}")
    return value


@dataclass(frozen=True)
class Verdict:
    """How the puzzle stands after the turns played since it was set up."""

    #: ``"playing"``, ``"solved"`` or ``"failed"``.
    status: str
    #: The person's turns played.
    turns: int
    #: The person's turns still allowed (``wins_in - turns``) while playing.
    left: int
    #: The failing turn and why, and the turns that would have kept the win there.
    failed_turn: str | None = None
    why: Message | None = None
    would_win: tuple[str, ...] = ()


class PuzzleSession:
    """One puzzle being played at the board (the controller holds it while it lasts)."""

    def __init__(self, puzzle: Puzzle, solution: Solution, board: Board) -> None:
        self.puzzle = puzzle
        self.solution = solution
        #: The position set up, and the side that must win (the side to move there).
        self.start = board.copy()
        self.side = board.turn
        #: The person's colour and the mode before the puzzle, put back when it ends.
        self.before: tuple[Mode, str] = (Mode.VS_AI, "white")
        #: Whether the board shows the puzzle's position yet (the referee's ``SetUpDone``).
        self.is_set_up = False
        self.hints = 0
        self.retries = 0
        self._verdict = Verdict("playing", 0, puzzle.wins_in)

    @classmethod
    def board_for(cls, puzzle: Puzzle, game: Board) -> Board:
        """The puzzle's position on a standard board with ``game``'s draw rules.

        Raises :class:`InputError` when the game's rules are not the solved game's (no flying, a
        removal rule switched), which the solution's values would not fit.
        """
        from morris.core import find_variant

        if not game.flying or game.remove_from_mills or game.double_mill_removes_two:
            raise InputError(
                "puzzles are positions of the solved game (flying with three, removals from "
                "outside mills, one a mill): the configured rules differ (game.flying, "
                "game.remove_from_mills, game.double_mill_removes_two)"
            )
        return find_variant("standard")(
            puzzle.position,
            threefold_repetition=game.threefold_repetition,
            no_removal_limit=game.no_removal_limit,
        )

    # -- how it stands ----------------------------------------------------------------------

    @property
    def verdict(self) -> Verdict:
        """The puzzle's standing after the last change."""
        return self._verdict

    @property
    def status(self) -> str:
        """``"setting up"`` until the board matches, then the verdict's status."""
        return self._verdict.status if self.is_set_up else "setting up"

    def judge(self, board: Board) -> Verdict:
        """The verdict of the turns on ``board`` (played from the puzzle's position)."""
        from morris.engine.solution.analyse import value_after

        replay = self.start.copy()
        allowed = self.puzzle.wins_in
        turns = 0
        for move in board.move_stack:
            mine = replay.turn == self.side
            if mine:
                before = replay.copy()
            replay.push(move)
            if not mine:
                continue
            turns += 1
            result = value_after(self.solution, replay)
            left = allowed - turns
            if not _wins_within(result, left + 1):
                keep = tuple(str(m) for m in self.winning_turns(before, left + 1))
                return Verdict("failed", turns, 0, str(move), _why(result, left + 1), keep)
        outcome = board.outcome()
        if outcome is not None and outcome.winner == self.side:
            return Verdict("solved", turns, allowed - turns)
        return Verdict("playing", turns, allowed - turns)

    def winning_turns(self, board: Board, within: int) -> list[Move]:
        """The turns on ``board`` that win within ``within`` of the side's turns, fastest first."""
        from morris.engine.solution.analyse import turn_values

        return [m for m, r in turn_values(self.solution, board) if _wins_within(r, within)]

    # -- the controller's questions ---------------------------------------------------------

    def title(self) -> Message:
        """The puzzle's title in words (:attr:`Puzzle.title`'s English): "white to move wins in
        3"."""
        n = self.puzzle.wins_in
        if self.side == WHITE:
            return nmsg("white to move wins in {n}", "white to move wins in {n}", n)
        return nmsg("black to move wins in {n}", "black to move wins in {n}", n)

    def on_events(
        self, events: Iterable[Event], board: Board, expected: Move | None = None
    ) -> Message | None:
        """The referee reported ``events`` (``expected``: the Pi's answer now shown): the event
        line the puzzle wants shown, or None."""
        note: Message | None = None
        for event in events:
            if isinstance(event, SetUp):
                note = self.setup_line()
            elif isinstance(event, SetUpDone):
                self.is_set_up = True
                note = (
                    msg("puzzle: {title}: you play white, find the win", title=self.title())
                    if self.side == WHITE
                    else msg("puzzle: {title}: you play black, find the win", title=self.title())
                )
            elif isinstance(event, TakenBack):
                self.retries += 1
                self._verdict = self.judge(board)
                note = msg("taken back: {progress}", progress=self.progress())
            elif isinstance(event, TurnAccepted | GameOver):
                note = self._after_turn(board)
        if note is not None and expected is not None:
            note = msg("Pi plays {move}; {note}", move=expected, note=note)
        return note

    def _after_turn(self, board: Board) -> Message:
        was = self._verdict.status
        verdict = self._verdict = self.judge(board)
        if verdict.status == "solved":
            extra = []
            if self.hints:
                extra.append(nmsg("{n} hint", "{n} hints", self.hints))
            if self.retries:
                extra.append(nmsg("{n} takeback", "{n} takebacks", self.retries))
            solved = nmsg(
                "puzzle solved in {n} turn: new game to leave",
                "puzzle solved in {n} turns: new game to leave",
                verdict.turns,
            )
            if extra:
                solved = nmsg(
                    "puzzle solved in {n} turn (with {used}): new game to leave",
                    "puzzle solved in {n} turns (with {used}): new game to leave",
                    verdict.turns,
                    used=joined(extra, ", "),
                )
            return solved
        if verdict.status == "failed":
            if was == "failed" and board.outcome() is None:
                return msg(
                    "puzzle failed at {move}: {turn}",
                    move=verdict.failed_turn,
                    turn=board_turn(board),
                )
            why = verdict.why if verdict.why is not None else plain("")
            failed = msg(
                "puzzle failed: {move} {why}; {keep} would have won: takeback to try again, new "
                "game to leave",
                move=verdict.failed_turn,
                why=why,
                keep=" / ".join(verdict.would_win[:3]),
            )
            if not verdict.would_win:
                failed = msg(
                    "puzzle failed: {move} {why}: takeback to try again, new game to leave",
                    move=verdict.failed_turn,
                    why=why,
                )
            outcome = board.outcome()
            if outcome is not None:
                failed = msg(
                    "game over ({result}); {failed}", result=outcome.result(), failed=failed
                )
            return failed
        return self.progress()

    def progress(self) -> Message:
        """The event line while playing: how many turns are left."""
        verdict = self._verdict
        if verdict.status == "solved":
            return msg("puzzle solved")
        if verdict.status == "failed":
            return msg("puzzle failed")
        return nmsg(
            "puzzle: {title}: {turns} played, win in {n} more",
            "puzzle: {title}: {turns} played, win in {n} more",
            verdict.left,
            title=self.title(),
            turns=nmsg("{n} turn", "{n} turns", verdict.turns),
        )

    def setup_line(self) -> Message:
        """What to put where: the event line while the board is set up."""
        pieces = self.start.pieces()
        white = " ".join(p for p, c in pieces.items() if c == WHITE)
        black = " ".join(p for p, c in pieces.items() if c != WHITE)
        return msg(
            "puzzle: {title}: set it up: white {white}; black {black} (lit: a white piece, "
            "blinking slowly: a black one, blinking fast: take it away)",
            title=self.title(),
            white=white,
            black=black,
        )

    def pi_turn(self, board: Board) -> Move | None:
        """The Pi's answer: the solution's best turn (from a lost position the longest loss),
        the same for the same position; None where the solution cannot vouch for one."""
        from morris.engine.solution.play import perfect_turn

        found = perfect_turn(self.solution, board, random.Random(board.position()))
        return None if found is None else found[0]

    def hint_turn(self, board: Board) -> Move | None:
        """A turn for the person: a winning one within the turns left while playing (else the
        solution's best); counted as a used hint."""
        self.hints += 1
        verdict = self.judge(board)
        if verdict.status == "playing":
            turns = self.winning_turns(board, verdict.left)
            if turns:
                return turns[0]
        return self.pi_turn(board)

    def summary(self) -> dict[str, object]:
        """The puzzle for a display (the snapshot's ``puzzle``)."""
        v = self._verdict
        return {
            "position": self.puzzle.position,
            "title": self.puzzle.title,
            "wins_in": self.puzzle.wins_in,
            "side": COLOR_NAMES[self.side],
            "status": self.status,
            "turns": v.turns,
            "left": v.left,
            "hints": self.hints,
            "takebacks": self.retries,
            "failed_turn": v.failed_turn,
            "why": None if v.why is None else v.why.render(),
            "would_win": list(v.would_win),
        }

    def describe(self) -> str:
        """A few words for the status line."""
        return f"puzzle {self.puzzle.title} ({self.status})"


def board_turn(board: Board) -> Message:
    """Whose turn it is on ``board``, in words."""
    outcome = board.outcome()
    if outcome is not None:
        return msg("game over ({result})", result=outcome.result())
    return msg("white to move") if board.turn == WHITE else msg("black to move")


def _wins_within(result: Result | None, turns: int) -> bool:
    from morris.engine.result import Value
    from morris.engine.solution.puzzles import wins_in_of

    return (
        result is not None
        and result.value is Value.WIN
        and result.distance is not None
        and wins_in_of(result.distance) <= turns
    )


def _why(result: Result | None, turns: int) -> Message:
    from morris.engine.result import Value
    from morris.engine.solution.puzzles import wins_in_of

    if result is None:
        return msg("leaves what the solution knows")
    if result.value is Value.DRAW:
        return msg("lets the win go (a draw now)")
    if result.value is Value.LOSS:
        return msg("throws the win away (a loss now)")
    return nmsg(
        "still wins, but in {n} turn where {left} were left",
        "still wins, but in {n} turns where {left} were left",
        wins_in_of(result.distance or 0),
        left=turns,
    )


__all__ = [
    "BUILD_HINT",
    "NoSolutionError",
    "PuzzleSession",
    "Verdict",
    "load_puzzle_solution",
    "make_puzzle",
]
