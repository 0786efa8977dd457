"""Matches between players: colours alternating, from varied short openings, with an Elo estimate.

>>> from morris.engine.players import GreedyPlayer, RandomPlayer
>>> result = run_match(GreedyPlayer(seed=1), RandomPlayer(seed=2), games=2)
>>> result.games_played
2

Each opening is played twice, once with each player as white, so colour and opening luck cancel.
Scores are from the first player's side: a win is 1, a draw 1/2.
"""

from __future__ import annotations

import logging
import math
import random
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from morris.core.board import Board
from morris.core.moves import Move
from morris.core.record import GameRecord
from morris.engine.engine import Engine
from morris.engine.levels import LEVELS
from morris.engine.players import GreedyPlayer, Player, RandomPlayer

if TYPE_CHECKING:
    from morris.engine.tables import EndgameTables

logger = logging.getLogger(__name__)

#: A game longer than this many turns is stopped and scored as a draw (the draw rules end real
#: games long before: this only guards against a rule switched off).
MAX_TURNS = 1000


def _openings(
    count: int, seed: int, board_factory: Callable[[], Board] = Board
) -> list[tuple[str, ...]]:
    """``count`` distinct openings of 2 to 4 placements with no mill, chosen with ``seed``, on
    the boards ``board_factory`` makes (a variant's points and mills)."""
    rng = random.Random(seed)
    seen: set[tuple[str, ...]] = set()
    out: list[tuple[str, ...]] = []
    while len(out) < count:
        board = board_factory()
        turns: list[str] = []
        for _ in range(rng.choice((2, 2, 3, 4))):
            quiet = [
                m for m in board.generate_legal_moves() if m.remove is None and m.from_point is None
            ]
            move = rng.choice(quiet)
            board.push(move)
            turns.append(str(move))
        key = tuple(turns)
        if key not in seen:
            seen.add(key)
            out.append(key)
    return out


#: The seed of the openings of ``morris match``.
OPENINGS_SEED = 20261129
#: The openings of ``morris match`` for the standard game, in order.
OPENINGS: tuple[tuple[str, ...], ...] = tuple(_openings(100, seed=OPENINGS_SEED))


def openings_for(board_factory: Callable[[], Board]) -> tuple[tuple[str, ...], ...]:
    """The openings of ``morris match`` on the boards of ``board_factory``: :data:`OPENINGS` for
    the standard game, drawn the same way on another variant's points and mills."""
    cls = type(board_factory())
    if cls is Board:
        return OPENINGS
    name = cls.variant.name
    if name not in _VARIANT_OPENINGS:
        _VARIANT_OPENINGS[name] = tuple(_openings(100, OPENINGS_SEED, cls))
    return _VARIANT_OPENINGS[name]


#: The openings of the other variants, drawn when first asked for.
_VARIANT_OPENINGS: dict[str, tuple[tuple[str, ...], ...]] = {}


def make_player(
    spec: str, *, seed: int = 0, tables: EndgameTables | None = None, timeout: float = 30.0
) -> Player:
    """A player from a name: ``level:N``, ``random``, ``greedy`` or ``cmd:COMMAND ARGS``.

    Raises :class:`ValueError` for a name that is none of these.
    """
    text = spec.strip()
    kind, _, arg = text.partition(":")
    kind = kind.lower()
    if kind == "random" and not arg:
        return RandomPlayer(seed)
    if kind == "greedy" and not arg:
        return GreedyPlayer(seed)
    if kind == "level":
        try:
            level = int(arg)
        except ValueError:
            level = -1
        if level not in LEVELS:
            raise ValueError(f"player {spec!r}: level must be {min(LEVELS)}..{max(LEVELS)}")
        return Engine(level, seed=seed, tables=tables)
    if kind == "cmd" and arg.strip():
        from morris.engine.client import UciEngine

        return UciEngine.spawn(shlex.split(arg), timeout=timeout)
    raise ValueError(
        f"unknown player {spec!r}: use level:N, random, greedy or cmd:COMMAND (an external engine)"
    )


@dataclass
class GameOutcome:
    """One game of a match: its record, who was white, and the first player's score."""

    record: GameRecord
    first_is_white: bool
    score: float


@dataclass
class MatchResult:
    """Wins, draws and losses of the first player against the second, and the games."""

    first: str
    second: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    games: list[GameOutcome] = field(default_factory=list)

    @property
    def games_played(self) -> int:
        """Games finished."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """The first player's score as a fraction (0..1); 0.5 before any game."""
        n = self.games_played
        return (self.wins + 0.5 * self.draws) / n if n else 0.5

    def elo(self) -> tuple[float, float]:
        """The Elo difference (first minus second) and its 95% margin, from the score.

        The margin is 1.96 standard errors of the per-game scores, carried to Elo through the
        slope of the logistic curve at the score. A score of 0 or 1 gives an infinite difference
        (``math.inf`` with the sign of the result) and an infinite margin.
        """
        n = self.games_played
        mean = self.score
        diff = _elo(mean)
        if n == 0 or math.isinf(diff):
            return diff, math.inf
        var = (
            self.wins * (1 - mean) ** 2 + self.draws * (0.5 - mean) ** 2 + self.losses * mean**2
        ) / n
        stderr = math.sqrt(var / n)
        slope = 400 / (math.log(10) * mean * (1 - mean))
        return diff, 1.96 * stderr * slope

    @classmethod
    def combined(cls, parts: Sequence[MatchResult]) -> MatchResult:
        """One result of a match played in parts (``run_match(first_game=...)``), games in order
        of the parts."""
        if not parts:
            raise ValueError("no parts to combine")
        whole = cls(parts[0].first, parts[0].second)
        for part in parts:
            for outcome in part.games:
                whole.add(outcome)
        return whole

    def add(self, outcome: GameOutcome) -> None:
        """Count one game."""
        self.games.append(outcome)
        if outcome.score == 1:
            self.wins += 1
        elif outcome.score == 0:
            self.losses += 1
        else:
            self.draws += 1


def _elo(score: float) -> float:
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def format_elo(diff: float, margin: float) -> str:
    """``+123 ± 45``, or ``+inf`` when one side scored everything."""
    if math.isinf(diff):
        return "+inf" if diff > 0 else "-inf"
    rounded = round(diff) or 0  # no "-0"
    if math.isinf(margin):
        return f"{rounded:+d} ± inf"
    return f"{rounded:+d} ± {margin:.0f}"


def play_game(
    white: Player,
    black: Player,
    *,
    opening: Sequence[str] = (),
    movetime: float | None = None,
    board: Board | None = None,
    tags: dict[str, str] | None = None,
) -> GameRecord:
    """Play one game from ``board`` (the empty standard board by default) after ``opening``.

    A player that returns an illegal turn or fails loses the game (``Termination`` says why).
    """
    board = Board() if board is None else board
    for text in opening:
        board.push_notation(text)
    record_tags = {"White": white.name, "Black": black.name}
    record_tags.update(tags or {})
    result: str | None = None
    termination: str | None = None
    turns = 0
    while board.outcome() is None:
        if turns >= MAX_TURNS:
            result, termination = "1/2-1/2", "turn-limit"
            break
        player = white if board.turn else black
        try:
            move: Move = player.play(board, movetime=movetime).move
        except Exception as exc:  # a failing player loses; the match goes on
            logger.warning("%s failed in %s: %s", player.name, board.position(), exc)
            result, termination = ("0-1" if board.turn else "1-0"), f"player failed: {exc}"
            break
        if not board.is_legal(move):
            logger.warning("%s played illegal %s in %s", player.name, move, board.position())
            result, termination = ("0-1" if board.turn else "1-0"), f"illegal move {move}"
            break
        board.push(move)
        turns += 1
    if result is not None:
        record_tags["Result"] = result
        record_tags["Termination"] = termination or ""
    return GameRecord.from_board(board, **record_tags)


def run_match(
    first: Player,
    second: Player,
    *,
    games: int,
    movetime: float | None = None,
    openings: Sequence[Sequence[str]] | None = None,
    board_factory: Callable[[], Board] = Board,
    progress: Callable[[MatchResult, GameOutcome], None] | None = None,
    event: str = "morris match",
    first_game: int = 0,
) -> MatchResult:
    """Play ``games`` games, colours alternating, opening ``i // 2`` for games ``2i`` and ``2i+1``.

    ``movetime`` (seconds) is given to every player's ``play``; ``progress`` is called after each
    game. ``openings`` default to :func:`openings_for` the boards of ``board_factory`` (a
    variant's board class). ``first_game`` numbers the first game (from 0) when a match is played
    in parts: the games, their openings, colours and ``Round`` tags are those of the whole match.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if first_game < 0:
        raise ValueError(f"first_game must not be negative, not {first_game}")
    if openings is None:
        openings = openings_for(board_factory)
    result = MatchResult(first.name, second.name)
    for i in range(first_game, first_game + games):
        opening = openings[(i // 2) % len(openings)] if openings else ()
        first_is_white = i % 2 == 0
        white, black = (first, second) if first_is_white else (second, first)
        record = play_game(
            white,
            black,
            opening=opening,
            movetime=movetime,
            board=board_factory(),
            tags={"Event": event, "Round": str(i + 1)},
        )
        res = record.result
        if res == "1/2-1/2" or res == "*":
            score = 0.5
        else:
            white_won = res == "1-0"
            score = 1.0 if white_won == first_is_white else 0.0
        outcome = GameOutcome(record, first_is_white, score)
        result.add(outcome)
        if progress is not None:
            progress(result, outcome)
    return result


def save_games(result: MatchResult, directory: Path) -> list[Path]:
    """Write each game of ``result`` as a game record file in ``directory``; return the paths."""
    from morris.core.record import write_game

    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, game in enumerate(result.games, start=1):
        path = directory / f"game-{i:04d}.txt"
        path.write_text(write_game(game.record), encoding="utf-8")
        paths.append(path)
    return paths
