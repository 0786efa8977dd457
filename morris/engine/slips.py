"""A person's slips: the plain mistakes the lower levels make now and then while searching.

A person at the board does not lose by a blunder twenty turns deep but by what a glance would
have caught: a mill they could have closed and did not see, a two of the opponent's left open, a
piece put on a corner while a better-linked point was free. The levels below the top (1-5,
:attr:`~morris.engine.levels.Level.slip`) make those, with a chance per turn that falls with the
level: when a slip comes (drawn from the engine's seed and the position, so the same game is
the same game), the search chooses only among the turns of one such mistake, the best of them
by its own judgement, as a person who has overlooked one thing still plays sensibly otherwise.

The kinds, the same names ``benchmarks/bench_level_mistakes.py`` gives the mistakes it finds:

- :attr:`Slip.MISSED_MILL`: the turns that close no mill, where one could be closed;
- :attr:`Slip.MILL_ALLOWED`: the turns after which the opponent can close a mill at once, where
  another turn would allow none (a threat overlooked);
- :attr:`Slip.WEAK_POINT`: while placing, the placements on the least-linked free points (the
  corners of the standard board), where a better-linked point is free.

A kind is possible only where the position offers both the mistake and a turn that avoids it;
where none is possible, or some turn wins the game at once (no level throws the last blow away),
there is no slip. From level 3 up (``careful``) a slip never hands the opponent a win at once
(a mill that takes the second-last piece, a blockade); a beginner's may. This module reads the
board only; it imports nothing of the search.

>>> from morris import Board
>>> board = Board()
>>> for turn in ("d6", "a1", "d7"):
...     _ = board.push_notation(turn)
>>> slip_turns(board, Slip.MISSED_MILL) is None  # black has no mill to close
True
>>> [str(m) for m in board.legal_moves if m not in slip_turns(board, Slip.MILL_ALLOWED)]
['d5']
>>> sorted(str(m) for m in slip_turns(board, Slip.WEAK_POINT))[:4]
['a7', 'b2', 'b6', 'c3']
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from enum import StrEnum

from morris.core.board import Board
from morris.core.moves import Move

__all__ = ["Slip", "SlipChoice", "allows_mill", "choose_slip", "slip_turns"]

logger = logging.getLogger(__name__)


class Slip(StrEnum):
    """A kind of plain mistake (the names are those of the mistakes benchmark)."""

    MISSED_MILL = "missed mill"
    MILL_ALLOWED = "mill allowed"
    WEAK_POINT = "weak point"


@dataclass(frozen=True)
class SlipChoice:
    """A slip that came: its kind and the turns the search now chooses among."""

    kind: Slip
    turns: tuple[Move, ...]


def allows_mill(board: Board, move: Move) -> bool:
    """Whether after ``move`` the opponent has a turn that closes a mill."""
    board.push(move)
    try:
        return board.outcome() is None and any(m.remove is not None for m in board.legal_moves)
    finally:
        board.pop()


def _wins_at_once(board: Board, move: Move) -> bool:
    mover = board.turn
    board.push(move)
    try:
        outcome = board.outcome()
        return outcome is not None and outcome.winner == mover
    finally:
        board.pop()


def _loses_at_once(board: Board, move: Move) -> bool:
    """Whether after ``move`` the opponent has a turn that wins the game at once."""
    board.push(move)
    try:
        return board.outcome() is None and any(
            _wins_at_once(board, reply) for reply in board.legal_moves
        )
    finally:
        board.pop()


def slip_turns(board: Board, kind: Slip, moves: list[Move] | None = None) -> list[Move] | None:
    """The turns of the mistake ``kind`` on ``board`` (of ``moves``, default all legal turns),
    or None where the position does not offer it alongside a turn that avoids it."""
    legal = list(board.legal_moves) if moves is None else moves
    if kind is Slip.MISSED_MILL:
        wrong = [m for m in legal if m.remove is None]
        has_right = len(wrong) < len(legal)
    elif kind is Slip.MILL_ALLOWED:
        wrong = [m for m in legal if allows_mill(board, m)]
        has_right = len(wrong) < len(legal)
    else:
        placements = [m for m in legal if m.from_point is None and m.remove is None]
        if not placements:
            return None
        neighbours = board.rules.neighbours
        links = {m: neighbours[m.to_point].bit_count() for m in placements}
        fewest = min(links.values())
        wrong = [m for m in placements if links[m] == fewest]
        has_right = any(n > fewest for n in links.values())
    return wrong if wrong and has_right else None


def choose_slip(
    board: Board, chance: float, rng: random.Random, *, careful: bool = True
) -> SlipChoice | None:
    """With probability ``chance`` (drawn from ``rng``) a slip on ``board``: one kind, drawn
    from those the position offers, and its turns, less (if ``careful``) those after which the
    opponent wins at once; None for no slip (the draw did not come, no kind is possible, or a
    turn wins at once). Draws from ``rng`` once, or twice on a slip."""
    if chance <= 0 or rng.random() >= chance:
        return None
    legal = list(board.legal_moves)
    if len(legal) < 2 or any(_wins_at_once(board, m) for m in legal):
        return None
    loses: dict[Move, bool] = {}  # a turn is often a slip of two kinds: looked at once
    offered: list[tuple[Slip, list[Move]]] = []
    for kind in Slip:
        turns = slip_turns(board, kind, legal)
        if turns is not None and careful:
            for m in turns:
                if m not in loses:
                    loses[m] = _loses_at_once(board, m)
            turns = [m for m in turns if not loses[m]]
        if turns:
            offered.append((kind, turns))
    if not offered:
        return None
    kind, turns = offered[rng.randrange(len(offered))]
    logger.debug("slip: %s (%d turns)", kind, len(turns))
    return SlipChoice(kind, tuple(turns))
