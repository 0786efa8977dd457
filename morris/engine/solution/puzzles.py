"""Puzzles drawn from the solved game: "white to move wins in N".

A puzzle is a position of the moving phase of the standard nine men's morris (every piece placed,
both hands empty, 3 to 9 pieces a side), White to move, that the solution says White wins in
exactly ``N`` of White's turns against the best defence: a WIN at distance ``d = 2N - 1`` plies
(the winner's turns are ``(d + 1) // 2``). Only moving-phase sectors are used: they answer for
every ``k`` (the rules never look at how many men a side started with), so a position of the
4 men's solution with 4 and 3 pieces on the board is a position of the real game where five and
six pieces were taken. The placing-phase sectors of ``k < 9`` men are not: their hands say a side
still holds pieces it would not have in a nine men's game at that count, so no puzzle comes from
them (and the nine men's placing sectors are not built here).

Positions are drawn in a seeded order (:func:`generate_puzzles`, deterministic given the seed
and the loaded sectors). Sectors up to :data:`DIRECT_ENTRIES` entries are read directly: the
entries whose distance is the one asked for, in random order (each sector that has one as likely
as another, for variety), so even the rarest length is found. Larger sectors (5 men and up) are
sampled instead: a sector among those that hold a win that long (weighted by their won
positions), a random placement of both sides' pieces, probed; they are asked only when the small
sectors give too few. Of the positions with the wanted value, the best are kept, judged in this
order:

1. **one winning first turn** (the turns that win as fast: a puzzle with one answer; a mill that
   wins whatever it takes counts once); two or three are accepted when no unique one turns up;
2. **no mill at once** when ``N > 1``: the winning first turn does not close a mill (the removal
   that anyone tries first is no puzzle);
3. **an ordinary-looking board**: neither side has more than one closed mill standing (any
   placement is a position by the rules, but a board full of mills looks made up).

A position that is already over (a side blocked) is never a puzzle.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from morris.core.board import Board
from morris.core.points import MILL_MASKS, NUM_POINTS
from morris.engine.errors import EngineError
from morris.engine.result import Value
from morris.engine.solution.analyse import position_text, turn_values
from morris.engine.solution.probe import Solution
from morris.engine.solution.sectors import MAX_MEN, MIN_MEN, SectorKey
from morris.i18n import msg

logger = logging.getLogger(__name__)

#: How many random positions :func:`generate_puzzles` probes for each puzzle asked, at most.
TRIES_PER_PUZZLE = 20_000
#: The most winning first turns a puzzle may have when no unique one is found.
MAX_SOLUTIONS = 3
#: Sectors up to this many entries are searched through their distance codes, larger ones sampled.
DIRECT_ENTRIES = 20_000_000


class PuzzleError(EngineError, ValueError):
    """No puzzle can be made as asked (a bad length, no moving-phase sector loaded that holds a
    win that long); the message says which."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position (White to move), how many of White's turns win it, the answers."""

    #: The position in the project's notation (:meth:`morris.core.Board.position`).
    position: str
    #: White's turns to the win against the best defence.
    wins_in: int
    #: The same in plies (turns of both sides): ``2 * wins_in - 1``.
    distance: int
    #: The winning first turns (each wins in :attr:`wins_in`), in notation.
    solutions: tuple[str, ...]
    #: The sector the position is in (White first: white on the board, black on the board).
    sector: SectorKey

    @property
    def title(self) -> str:
        """``"white to move wins in 3"``."""
        return f"white to move wins in {self.wins_in}"

    def to_json(self) -> dict[str, object]:
        """The puzzle as JSON-ready data (``morris puzzle --json``, the web's answer)."""
        return {
            "position": self.position,
            "wins_in": self.wins_in,
            "distance": self.distance,
            "title": self.title,
            "solutions": list(self.solutions),
            "sector": self.sector.name,
        }


def distance_of(wins_in: int) -> int:
    """The distance in plies of a win in ``wins_in`` turns of the winner.

    >>> distance_of(1), distance_of(5)
    (1, 9)
    """
    return 2 * wins_in - 1


def wins_in_of(distance: int) -> int:
    """The winner's turns in a win at ``distance`` plies.

    >>> wins_in_of(1), wins_in_of(9)
    (1, 5)
    """
    return (distance + 1) // 2


def puzzle_sectors(solution: Solution, men: int | None = None) -> list[SectorKey]:
    """The loaded moving-phase sectors puzzles come from (3..9 pieces a side, at most ``men``)."""
    top = MAX_MEN if men is None else men
    return [
        k
        for k in solution.keys
        if not k.placing and k.other_hand == 0 and min(k.mover_on, k.other_on) >= MIN_MEN
        if max(k.mover_on, k.other_on) <= top
    ]


def longest_puzzle(solution: Solution, men: int | None = None) -> int:
    """The longest win (in the winner's turns) of the puzzle sectors, 0 if there are none."""
    wins = [solution.info(k).longest_win for k in puzzle_sectors(solution, men)]
    return wins_in_of(max(wins)) if wins else 0


def _mills(bits: int) -> int:
    return sum(1 for m in MILL_MASKS if bits & m == m)


def _sample(rng: random.Random, key: SectorKey) -> tuple[int, int]:
    points = rng.sample(range(NUM_POINTS), key.mover_on + key.other_on)
    white = sum(1 << p for p in points[: key.mover_on])
    black = sum(1 << p for p in points[key.mover_on :])
    return white, black


@dataclass(frozen=True)
class _Candidate:
    faults: tuple[int, int, int]
    order: int
    puzzle: Puzzle


def _judge(
    solution: Solution, key: SectorKey, white: int, black: int, distance: int, order: int
) -> _Candidate | None:
    """The puzzle of this position with its faults (see the module docstring), or None."""
    board = Board(
        position_text(key, white, black), threefold_repetition=False, no_removal_limit=None
    )
    if board.outcome() is not None:
        return None
    scored = turn_values(solution, board)
    answers = [
        m for m, r in scored if r is not None and r.value is Value.WIN and r.distance == distance
    ]
    # A mill that wins whichever piece it takes is one answer: count the actions, not removals.
    actions = {(m.from_point, m.to_point) for m in answers}
    if not answers or len(actions) > MAX_SOLUTIONS:
        return None
    mill_first = distance > 1 and any(board.closes_mill(m) for m in answers)
    unusual = _mills(white) > 1 or _mills(black) > 1
    puzzle = Puzzle(
        position=board.position(),
        wins_in=wins_in_of(distance),
        distance=distance,
        solutions=tuple(str(m) for m in answers),
        sector=key,
    )
    return _Candidate((len(actions) - 1, int(mill_first), int(unusual)), order, puzzle)


def _direct(
    solution: Solution, keys: list[SectorKey], distance: int, rng: random.Random, budget: int
) -> Iterator[tuple[SectorKey, int, int]]:
    """Positions (sector, white, black) of ``keys`` at ``distance``, drawn at random from every
    entry that has it, each sector as likely as another; at most ``budget`` of them."""
    from morris.engine.solution.storage import open_sector
    from morris.engine.solution.symmetry import SYMMETRY_COUNT, index_of_key, transform_one

    hits: list[tuple[SectorKey, np.ndarray[Any, Any]]] = []
    for key in keys:
        codes = np.asarray(open_sector(solution.directory, key, check=False).dist)
        found = np.flatnonzero(codes == distance + 1)
        if found.size:
            hits.append((key, found))
    left = [int(found.size) for _, found in hits]
    for _ in range(min(budget, sum(left))):
        # Each sector as likely as another while it has entries left: 4 against 3 as often as
        # 3 against 3, though the smaller sector holds more wins of most lengths.
        i = rng.choice([n for n, count in enumerate(left) if count])
        key, found = hits[i]
        # Draw without putting back: swap the drawn entry behind the ones still to draw.
        j = rng.randrange(left[i])
        found[j], found[left[i] - 1] = found[left[i] - 1], found[j]
        entry = int(found[left[i] - 1])
        left[i] -= 1
        mover, other = index_of_key(key).decode(np.array([entry], dtype=np.int64))
        # The index keeps the least image of the mover's set: a random symmetry of it instead.
        sym = rng.randrange(SYMMETRY_COUNT)
        yield key, transform_one(int(mover[0]), sym), transform_one(int(other[0]), sym)
        if not any(left):
            return


def generate_puzzles(
    solution: Solution,
    wins_in: int,
    *,
    seed: int = 0,
    count: int = 1,
    men: int | None = None,
    tries: int | None = None,
) -> list[Puzzle]:
    """Up to ``count`` distinct puzzles "white to move wins in ``wins_in``", the same for the same
    seed and sectors, best first (see the module docstring for how they are chosen).

    ``men`` keeps to the sectors of ``men`` men's morris (at most that many pieces a side);
    ``tries`` caps the positions probed (default :data:`TRIES_PER_PUZZLE` per puzzle asked).
    Fewer than ``count`` come back when the sampling finds fewer. Raises :class:`PuzzleError` for
    a ``wins_in`` below 1 or longer than every loaded win, or when no moving-phase sector is
    loaded.
    """
    if isinstance(wins_in, bool) or not isinstance(wins_in, int) or wins_in < 1:
        raise PuzzleError(
            msg("wins in {wins_in}: give a number of turns from 1 up", wins_in=repr(wins_in))
        )
    if count < 1:
        raise PuzzleError(msg("count {count}: ask for at least one puzzle", count=repr(count)))
    sectors = puzzle_sectors(solution, men)
    if not sectors:
        raise PuzzleError(
            msg(
                "no moving-phase sector is loaded: build the solved game with"
                " `morris tables build --men K`"
            )
            if men is None
            else msg(
                "no moving-phase sector is loaded for {men} men: build the solved game with"
                " `morris tables build --men K`",
                men=men,
            )
        )
    distance = distance_of(wins_in)
    usable = [k for k in sectors if solution.info(k).longest_win >= distance]
    if not usable:
        longest = longest_puzzle(solution, men)
        raise PuzzleError(
            msg(
                "no win in {wins_in} in the loaded sectors ({sectors}): the longest is a win in"
                " {longest}",
                wins_in=wins_in,
                sectors=", ".join(k.name for k in sectors),
                longest=longest,
            )
        )
    rng = random.Random(f"puzzle:{seed}:{wins_in}:{men}")
    budget = tries if tries is not None else TRIES_PER_PUZZLE * count
    perfect: list[_Candidate] = []
    others: list[_Candidate] = []
    seen: set[str] = set()

    def consider(key: SectorKey, white: int, black: int, order: int) -> bool:
        """Judge one position of the wanted value; True once enough perfect ones are found."""
        candidate = _judge(solution, key, white, black, distance, order)
        if candidate is not None and candidate.puzzle.position not in seen:
            seen.add(candidate.puzzle.position)
            (perfect if candidate.faults == (0, 0, 0) else others).append(candidate)
        return len(perfect) >= count

    small = [k for k in usable if solution.info(k).entries <= DIRECT_ENTRIES]
    large = [k for k in usable if k not in small]
    order = 0
    for key, white, black in _direct(solution, small, distance, rng, budget):
        order += 1
        if consider(key, white, black, order):
            break
    weights = [max(solution.info(k).won, 1) for k in large]
    while large and len(perfect) < count and order < budget:
        order += 1
        key = rng.choices(large, weights)[0]
        white, black = _sample(rng, key)
        result = solution.probe_key(key, white, black)
        if result is not None and result.value is Value.WIN and result.distance == distance:
            consider(key, white, black, order)
    chosen = perfect + sorted(others, key=lambda c: (c.faults, c.order))
    logger.info(
        "%d puzzle(s) wins in %d: %d without a fault of %d found",
        count,
        wins_in,
        len(perfect),
        len(chosen),
    )
    return [c.puzzle for c in chosen[:count]]
