"""The solved game where a person sees it: the value of a position for the front ends, and the
hint that keeps the value.

A position's value is a :class:`~morris.engine.result.Result` (value and distance) in the
engine; the front ends get it as a small JSON object, a :class:`ValueJson` built by
:func:`value_json`: ``{"value": "win"|"draw"|"loss", "distance": n, "plies": n, "wins_in": m,
"for": "white"|"black", "text": ...}``, the result for the side ``for`` (the side to move, in a
snapshot); ``distance`` (also under the explicit name ``plies``) the plies (one side's
turn each) to the end with perfect play, the winner hurrying and the loser delaying (0 for a
draw; ``null`` for a win that must hurry to its removals to beat the no-removal limit, and so
takes longer than the fastest win); ``wins_in`` the same as the winner's own turns, the unit a
person reads everywhere (puzzles, the panels, ``morris review``): a win in 5 plies is a win in 3;
``text`` says it in words (:func:`value_words`, a :class:`~morris.i18n.Message` rendered in the
reader's language where the value is shown: :func:`plain_value` gives the JSON of it): "white
wins in 3", "white wins", "draw". A draw may be the rule's: a
win of the solution that the no-removal limit draws (see
:func:`~morris.engine.solution.play.known_value`). A position the solution does not cover
(another variant, a sector not built or damaged, a win the no-removal limit could overturn where
the removal distances are not built) has no value: ``None``.
"""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING, TypedDict

from morris.core import COLOR_NAMES, Board, Move
from morris.engine.errors import SolutionError
from morris.i18n import Message, msg, nmsg

if TYPE_CHECKING:
    from morris.engine.result import Result
    from morris.engine.solution import Solution

logger = logging.getLogger(__name__)


class ResultJson(TypedDict):
    """A :class:`~morris.engine.result.Result` as JSON (:func:`result_json`): ``value``
    ``"win"``, ``"draw"`` or ``"loss"``; ``distance`` and ``plies`` the plies to the end (None
    where not known); ``wins_in`` the winner's turns."""

    value: str
    distance: int | None
    plies: int | None
    wins_in: int | None


# "for" is a keyword: the functional form of a TypedDict takes it.
_Side = TypedDict("_Side", {"for": str, "text": Message | str})


class ValueJson(ResultJson, _Side):
    """A position's value as the front ends get it (see the module docstring): a
    :class:`ResultJson` and the side it is for (``for``, ``"white"`` or ``"black"``), and its
    words (``text``: a :class:`~morris.i18n.Message` until :func:`plain_value` renders it)."""


def result_json(result: Result) -> ResultJson:
    """The fields every JSON of a result has, in this order (a review's tables verdicts add
    their ``source``, a value its side and words)."""
    plies = result.distance
    return {
        "value": result.value.value,
        "distance": plies,
        "plies": plies,
        "wins_in": None if plies is None else winner_turns(plies),
    }


def value_json(result: Result, side: str) -> ValueJson:
    """``result`` (for the player ``side``, ``"white"`` or ``"black"``) as a value object, with
    its words under ``text`` (:func:`value_words`, rendered late: :func:`plain_value`); the one
    place a :class:`ValueJson` is made."""
    fields = result_json(result)
    return {**fields, "for": side, "text": _words(result.value.value, result.distance, side)}


def plain_value(value: ValueJson | None, code: str | None = None) -> ValueJson | None:
    """``value`` as plain JSON, its ``text`` rendered in language ``code`` (default: the
    board's).

    >>> plain_value({"value": "win", "distance": 3, "for": "white", "text": msg("draw")}, "nl")
    {'value': 'win', 'distance': 3, 'for': 'white', 'text': 'remise'}
    """
    if value is None:
        return None
    text = value.get("text")
    if isinstance(text, Message):
        return {**value, "text": text.render(code)}
    return value.copy()


def winner_turns(plies: int) -> int:
    """The winner's own turns in a game won ``plies`` plies from now (whoever is to move): a win
    in 5 plies is the winner's 3 turns, a loss in 4 plies the winner's 2.

    >>> winner_turns(5), winner_turns(4), winner_turns(1), winner_turns(0)
    (3, 2, 1, 0)
    """
    return (plies + 1) // 2


def value_words(value: ValueJson | None) -> Message:
    """A value in words, for the winner, in the winner's turns (as puzzles count them): "white
    wins in 3", "draw"; "-" for no value. A message, rendered in the reader's language.

    >>> value_words({"value": "loss", "distance": 8, "for": "white"}).render("de")
    'Schwarz gewinnt in 4 Zügen'
    >>> value_words({"value": "win", "distance": 1, "for": "white"}).render("fi")
    'valkoinen voittaa 1 siirrolla'
    """
    if value is None:
        return Message("-", translate=False)
    return _words(value["value"], value["distance"], value["for"])


def _words(value: str, distance: int | None, side: str) -> Message:
    """:func:`value_words` of a value ``value`` at ``distance`` for ``side``."""
    if value == "draw":
        return msg("draw")
    winner = side
    if value == "loss":
        winner = "black" if winner == "white" else "white"
    white = winner == "white"
    if distance is None:
        return msg("white wins") if white else msg("black wins")
    if distance == 0:
        return msg("white has won") if white else msg("black has won")
    turns = winner_turns(distance)
    if white:
        return nmsg("white wins in {n}", "white wins in {n}", turns)
    return nmsg("black wins in {n}", "black wins in {n}", turns)


def describe_value(value: ValueJson | None) -> str:
    """:func:`value_words` in the board's language.

    >>> describe_value({"value": "loss", "distance": 8, "for": "white"})
    'black wins in 4'
    >>> describe_value({"value": "draw", "distance": 0, "for": "black"}), describe_value(None)
    ('draw', '-')
    >>> describe_value({"value": "win", "distance": None, "for": "black"})
    'black wins'

    """
    return value_words(value).render()


def result_of_board(solution: Solution | None, board: Board) -> Result | None:
    """The solution's result of ``board`` for the side to move where it vouches for it under the
    draw rules (:func:`~morris.engine.solution.play.known_value`), else None."""
    if solution is None:
        return None
    from morris.engine.solution.play import known_value

    try:
        return known_value(solution, board)
    except SolutionError:  # a damaged block: the solution has dropped its file (logged)
        return None


def value_of_board(solution: Solution | None, board: Board) -> ValueJson | None:
    """The solution's value of ``board`` for the side to move, or None where it does not know."""
    result = result_of_board(solution, board)
    return None if result is None else value_json(result, COLOR_NAMES[board.turn])


class PositionValues:
    """The values of the positions a controller shows, remembered for the last position (a
    snapshot is made on every change of the lights; the position changes far less often)."""

    def __init__(self, solution: Solution | None) -> None:
        self.solution = solution
        self._last: tuple[str, ValueJson | None] | None = None

    def of(self, board: Board) -> ValueJson | None:
        """The value of ``board`` for its side to move (see :func:`value_of_board`); None once
        the game is over (the result says it)."""
        if self.solution is None or board.outcome() is not None:
            return None
        position = board.position()
        if self._last is None or self._last[0] != position:
            self._last = (position, value_of_board(self.solution, board))
        return self._last[1]


def solution_hint(solution: Solution | None, board: Board, seed: int) -> Move | None:
    """The hint where the solution covers the position: a turn that keeps the value (the
    fastest win, a draw, the slowest loss; ties by ``seed`` and the position), or None where it
    does not cover the position (the search then gives the hint)."""
    if solution is None:
        return None
    from morris.engine.solution.play import perfect_turn

    try:
        found = perfect_turn(solution, board, random.Random(f"hint:{seed}:{board.position()}"))
    except SolutionError:  # a damaged block (logged): the search gives the hint
        return None
    if found is None:
        return None
    logger.info("hint from the solution: %s (%s)", found[0], found[1].value.value)
    return found[0]


__all__ = [
    "PositionValues",
    "ResultJson",
    "ValueJson",
    "describe_value",
    "plain_value",
    "result_json",
    "result_of_board",
    "solution_hint",
    "value_json",
    "value_of_board",
    "value_words",
    "winner_turns",
]
