"""Perfect play from the solution: the turn the engine plays (levels with tables) wherever a
solved sector covers the position and all its turns.

From a won position it takes a turn to the opponent's LOSS(d - 1) (the fastest win; the distance
falls each turn, so no position repeats and the game ends within d turns); from a drawn one a
turn that keeps the draw; from a lost one the slowest loss. The solution knows no draw rules, so
a win is trusted only while the no-removal limit cannot come first (the moves left before the
limit exceed the distance); otherwise the search decides, as it does with the endgame tables.
"""

from __future__ import annotations

import random

from morris.core.board import Board
from morris.core.moves import Move
from morris.core.rules import STANDARD
from morris.core.variant import engine_rules
from morris.engine.solution.analyse import sector_of, turn_values
from morris.engine.solution.probe import Solution, SolutionResult, preference
from morris.engine.tables.keys import Value


def covered(solution: Solution, board: Board) -> bool:
    """Whether the solution holds the position on ``board`` (standard board, flying on)."""
    if not board.flying or not engine_rules(board).same_board(STANDARD):
        return False
    return solution.covers(sector_of(board)[0])


def perfect_turn(
    solution: Solution, board: Board, rng: random.Random
) -> tuple[Move, SolutionResult] | None:
    """A turn that keeps the value of the position (ties broken by ``rng``), with its result for
    the side to move; None when the solution cannot vouch for one (see the module docstring)."""
    if board.outcome() is not None or not covered(solution, board):
        return None
    scored = turn_values(solution, board)
    if not scored or any(r is None for _, r in scored):
        return None
    results = [(m, r) for m, r in scored if r is not None]
    best = max(preference(r) for _, r in results)
    choices = [(m, r) for m, r in results if preference(r) == best]
    move, result = choices[rng.randrange(len(choices))]
    limit = board.no_removal_limit
    if (
        result.value is Value.WIN
        and limit is not None
        and result.distance is not None
        and board.no_removal_count + result.distance >= limit
    ):
        return None
    return move, result
