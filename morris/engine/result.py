"""A position's value: :class:`Value` (win, draw, loss for the side it is of) and the one
:class:`Result` (a value and its distance) that the endgame tables, the solved game, the engine's
play, the app's values and hints and a review all say, ranked one way (:meth:`Result.rank`);
the code the tables and the solved game store it as (:func:`result_of`); and the one judgement of
a turn that threw a result away (:func:`threw_away`) and of a game's first such turn
(:func:`first_threw_away`). Pure Python, no numpy: whatever names a value imports only this."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Protocol, TypeVar

__all__ = ["JudgedTurn", "Result", "Value", "first_threw_away", "result_of", "threw_away"]


class Value(enum.Enum):
    """Game-theoretic value for the side to move."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


#: The worth of each value for the side it is of: the coarse part of :meth:`Result.rank`.
_WORTH: Final = {Value.LOSS: 0, Value.DRAW: 1, Value.WIN: 2}


@dataclass(frozen=True)
class Result:
    """A position's value for one side (the side to move, unless said otherwise) and its
    distance: what the tables, the solved game, the app's values and hints and a review's
    verdicts all say about a position.

    ``distance`` is the number of turns (plies) to the end of the game with perfect play (the
    winner hurries, the loser delays); it is 0 for a DRAW and at the end of the game, and None
    where it is not known (a win that must hurry to its removals to beat the no-removal limit,
    and so takes longer than the fastest win).

    Results are ranked one way, :meth:`rank`:

    >>> sorted([Result(Value.LOSS, 3), Result(Value.WIN, 5), Result(Value.DRAW, 0),
    ...         Result(Value.WIN, 1), Result(Value.LOSS, 9)], key=Result.rank)[::-1]
    ... # doctest: +NORMALIZE_WHITESPACE
    [Result(value=<Value.WIN: 'win'>, distance=1), Result(value=<Value.WIN: 'win'>, distance=5),
     Result(value=<Value.DRAW: 'draw'>, distance=0), Result(value=<Value.LOSS: 'loss'>, distance=9),
     Result(value=<Value.LOSS: 'loss'>, distance=3)]
    """

    value: Value
    distance: int | None

    @property
    def worth(self) -> int:
        """The value's class for its side: 0 a loss, 1 a draw, 2 a win."""
        return _WORTH[self.value]

    def rank(self) -> tuple[int, int]:
        """The one ordering of results, larger is better for the side they are of: the fastest
        win, the slower wins, a draw, the slowest loss, the faster losses (a distance not known
        counts as 0)."""
        distance = self.distance or 0
        if self.value is Value.WIN:
            return (2, -distance)
        if self.value is Value.DRAW:
            return (1, 0)
        return (0, distance)

    def other_side(self) -> Result:
        """The same position's result for the other side: a win in 5 plies for one side is a
        loss in 5 for the other.

        >>> Result(Value.WIN, 5).other_side()
        Result(value=<Value.LOSS: 'loss'>, distance=5)
        """
        if self.value is Value.DRAW:
            return self
        return Result(Value.WIN if self.value is Value.LOSS else Value.LOSS, self.distance)

    def for_last_mover(self) -> Result:
        """The result of the turn that led to this position, for the side that played it: a
        turn to the other side's LOSS in k plies is a WIN in k + 1.

        >>> Result(Value.LOSS, 4).for_last_mover()
        Result(value=<Value.WIN: 'win'>, distance=5)
        """
        if self.value is Value.DRAW:
            return self
        distance = None if self.distance is None else self.distance + 1
        return Result(Value.WIN if self.value is Value.LOSS else Value.LOSS, distance)


def result_of(code: int) -> Result:
    """The result a stored code stands for (``distance + 1``, 0 a draw), in the tables and the
    solved game alike: a WIN has an even code, a LOSS an odd one.

    >>> result_of(0).value, result_of(6), result_of(1).value
    (<Value.DRAW: 'draw'>, Result(value=<Value.WIN: 'win'>, distance=5), <Value.LOSS: 'loss'>)
    """
    if code == 0:
        return Result(Value.DRAW, 0)
    distance = code - 1
    return Result(Value.WIN if distance & 1 else Value.LOSS, distance)


def threw_away(before: Result | None, after: Result | None) -> bool:
    """Whether a turn threw a result away: its mover's value fell a class (a win to a draw or a
    loss, a draw to a loss) from ``before`` to ``after`` (both the mover's). Never where either
    is not known. ``morris analyse RECORD`` and ``morris review`` both judge by it.

    >>> threw_away(Result(Value.WIN, 7), Result(Value.DRAW, 0))
    True
    >>> threw_away(Result(Value.WIN, 7), Result(Value.WIN, 21)), threw_away(None, None)
    (False, False)
    """
    if before is None or after is None:
        return False
    return after.worth < before.worth


class JudgedTurn(Protocol):
    """A turn of a game judged by whether it threw a result away (``morris analyse RECORD``'s
    :class:`~morris.engine.solution.analyse.GameTurn`, ``morris review``'s
    :class:`~morris.app.review.TurnReview`)."""

    @property
    def threw_away(self) -> bool:
        """Whether the turn threw a result away, by whatever judgement its values allow."""
        ...


_Turn = TypeVar("_Turn", bound=JudgedTurn)


def first_threw_away(turns: Iterable[_Turn]) -> _Turn | None:
    """The first of a game's ``turns`` that threw a result away, or None: the turn ``morris
    analyse RECORD`` and ``morris review`` both name, each judging its turns from its own values.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Played:
    ...     ply: int
    ...     before: Result
    ...     after: Result
    ...     @property
    ...     def threw_away(self) -> bool:
    ...         return threw_away(self.before, self.after)
    >>> win, draw = Result(Value.WIN, 9), Result(Value.DRAW, 0)
    >>> first_threw_away([Played(1, win, win), Played(2, win, draw), Played(3, draw, draw)]).ply
    2
    >>> first_threw_away([Played(1, draw, draw)]) is None
    True
    """
    return next((turn for turn in turns if turn.threw_away), None)
