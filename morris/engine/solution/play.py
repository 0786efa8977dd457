"""Play from the solution: the turn the engine plays (levels with tables) wherever a solved
sector covers the position and all its turns, the believable mistakes of the lower levels, and
the value a front end may show.

From a won position it takes a turn to the opponent's LOSS(d - 1) (the fastest win; the distance
falls each turn, so no position repeats and the game ends within d turns); from a drawn one a
turn that keeps the draw; from a lost one the slowest loss. The solution knows no draw rules: a
win longer than the turns left before the no-removal limit is still played from the solution
(its line removes pieces on the way, and each removal starts the count again; a search cannot see
a win that deep), but the value shown for it (:func:`known_value`) is only the solution's where
the limit cannot come first (:func:`trusted`).

Below the levels with tables the engine slips now and then (:func:`believable_turn`): with the
probability :data:`SLIP` of its level it plays a turn one value class worse (a win given away
for a draw, a draw for a loss), the one whose punishment is furthest away, as a person misses
what is deep rather than what is plain; else it plays as the top levels do.
"""

from __future__ import annotations

import random
from typing import Final

from morris.core.board import Board
from morris.core.moves import Move
from morris.core.rules import STANDARD, Rules
from morris.core.variant import engine_rules
from morris.engine.solution.analyse import sector_of, turn_values, value_of
from morris.engine.solution.probe import Solution, SolutionResult, preference
from morris.engine.tables.keys import Value

#: The chance that a level below the tables' plays a believable mistake where the solution
#: covers the position, by level (level 6 never slips: it plays the solution as level 7 does).
SLIP: Final[dict[int, float]] = {1: 0.3, 2: 0.2, 3: 0.12, 4: 0.06, 5: 0.03, 6: 0.0}

_CLASS: Final = {Value.LOSS: 0, Value.DRAW: 1, Value.WIN: 2}


def solved_rules(rules: Rules) -> bool:
    """Whether the solution's game is played under ``rules``: the standard board and mills on
    all 24 points, flying, nothing else changed (the draw rules and the number of pieces aside:
    a sector says how many pieces are on the board and in hand)."""
    return (
        rules.same_board(STANDARD)
        and rules.points_in_play == STANDARD.points_in_play
        and rules.flying
        and not rules.move_while_placing
        and not rules.return_mill_barred
        and not rules.remove_from_mills
        and not rules.double_mill_removes_two
        and not rules.full_board_is_draw
    )


def covered(solution: Solution, board: Board) -> bool:
    """Whether the solution holds the position on ``board`` under its rules."""
    if not solved_rules(engine_rules(board)):
        return False
    return solution.covers(sector_of(board)[0])


def trusted(board: Board, result: SolutionResult) -> bool:
    """Whether ``result`` (for the side to move on ``board``, or of a turn from it) holds under
    the board's draw rules as far as they can be foreseen: a win or a loss must end before the
    no-removal limit could."""
    limit = board.no_removal_limit
    return (
        result.value is Value.DRAW
        or limit is None
        or result.distance is None
        or board.no_removal_count + result.distance < limit
    )


def known_value(solution: Solution, board: Board) -> SolutionResult | None:
    """The value of the position on ``board`` for the side to move where the solution covers it
    and the draw rules cannot overturn it (see :func:`trusted`); else None. A finished game
    under the solution's rules has its result (distance 0)."""
    if not solved_rules(engine_rules(board)):
        return None
    if board.outcome() is None and not solution.covers(sector_of(board)[0]):
        return None
    result = value_of(solution, board)
    if result is None or not trusted(board, result):
        return None
    return result


def _scored(solution: Solution, board: Board) -> list[tuple[Move, SolutionResult]] | None:
    """Every turn with its result, or None where the solution does not vouch for all of them."""
    if board.outcome() is not None or not covered(solution, board):
        return None
    scored = turn_values(solution, board)
    if not scored or any(r is None for _, r in scored):
        return None
    return [(m, r) for m, r in scored if r is not None]


def perfect_turn(
    solution: Solution, board: Board, rng: random.Random
) -> tuple[Move, SolutionResult] | None:
    """A turn that keeps the value of the position (ties broken by ``rng``), with its result for
    the side to move; None where the solution does not cover the position and all its turns."""
    results = _scored(solution, board)
    if results is None:
        return None
    best = max(preference(r) for _, r in results)
    choices = [(m, r) for m, r in results if preference(r) == best]
    return choices[rng.randrange(len(choices))]


def believable_turn(
    solution: Solution, board: Board, level: int, rng: random.Random
) -> tuple[Move, SolutionResult] | None:
    """The turn of a level below the tables' where the solution covers the position: with
    probability :data:`SLIP` [level] a turn one value class worse than the best, the one whose
    end is furthest away (ties by ``rng``), if there is one; else :func:`perfect_turn`. None where
    the solution does not cover the position and all its turns (the search then decides)."""
    results = _scored(solution, board)
    if results is None:
        return None
    if rng.random() < SLIP.get(level, 0.0):
        top = max(_CLASS[r.value] for _, r in results)
        worse = [(m, r) for m, r in results if _CLASS[r.value] == top - 1]
        if worse:
            far = max(r.distance or 0 for _, r in worse)
            choices = [(m, r) for m, r in worse if (r.distance or 0) == far]
            return choices[rng.randrange(len(choices))]
    return perfect_turn(solution, board, rng)


__all__ = [
    "SLIP",
    "believable_turn",
    "covered",
    "known_value",
    "perfect_turn",
    "solved_rules",
    "trusted",
]
