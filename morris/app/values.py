"""The solved game where a person sees it: the value of a position for the front ends, and the
hint that keeps the value.

A value is a small JSON object, ``{"value": "win"|"draw"|"loss", "distance": n, "plies": n,
"wins_in": m, "for": "white"|"black", "text": ...}``: the result for the side ``for`` (the side to
move, in a snapshot); ``distance`` (also under the explicit name ``plies``) the plies (one side's
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
from typing import TYPE_CHECKING, Any

from morris.core import COLOR_NAMES, Board, Move
from morris.engine.errors import SolutionError
from morris.i18n import Message, msg, nmsg

if TYPE_CHECKING:
    from morris.engine.solution import Solution
    from morris.engine.tables.keys import Result

logger = logging.getLogger(__name__)

#: A value as the front ends get it (see the module docstring).
Value = dict[str, Any]


def value_json(result: Result, side: str) -> Value:
    """``result`` (for the player ``side``, ``"white"`` or ``"black"``) as a value object, with
    its words under ``text`` (:func:`value_words`, rendered late: :func:`plain_value`)."""
    plies = result.distance
    value: Value = {
        "value": result.value.value,
        "distance": plies,
        "plies": plies,
        "wins_in": None if plies is None else winner_turns(plies),
        "for": side,
    }
    value["text"] = value_words(value)
    return value


def plain_value(value: Value | None, code: str | None = None) -> Value | None:
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
    return dict(value)


def winner_turns(plies: int) -> int:
    """The winner's own turns in a game won ``plies`` plies from now (whoever is to move): a win
    in 5 plies is the winner's 3 turns, a loss in 4 plies the winner's 2.

    >>> winner_turns(5), winner_turns(4), winner_turns(1), winner_turns(0)
    (3, 2, 1, 0)
    """
    return (plies + 1) // 2


def value_words(value: Value | None) -> Message:
    """A value in words, for the winner, in the winner's turns (as puzzles count them): "white
    wins in 3", "draw"; "-" for no value. A message, rendered in the reader's language.

    >>> value_words({"value": "loss", "distance": 8, "for": "white"}).render("de")
    'Schwarz gewinnt in 4 Zügen'
    >>> value_words({"value": "win", "distance": 1, "for": "white"}).render("fi")
    'valkoinen voittaa 1 siirrolla'
    """
    if value is None:
        return Message("-", translate=False)
    if value["value"] == "draw":
        return msg("draw")
    winner = value["for"]
    if value["value"] == "loss":
        winner = "black" if winner == "white" else "white"
    distance = value["distance"]
    white = winner == "white"
    if distance is None:
        return msg("white wins") if white else msg("black wins")
    if distance == 0:
        return msg("white has won") if white else msg("black has won")
    turns = winner_turns(distance)
    if white:
        return nmsg("white wins in {n}", "white wins in {n}", turns)
    return nmsg("black wins in {n}", "black wins in {n}", turns)


def describe_value(value: Value | None) -> str:
    """:func:`value_words` in the board's language.

    >>> describe_value({"value": "loss", "distance": 8, "for": "white"})
    'black wins in 4'
    >>> describe_value({"value": "draw", "distance": 0, "for": "black"}), describe_value(None)
    ('draw', '-')
    >>> describe_value({"value": "win", "distance": None, "for": "black"})
    'black wins'

    """
    return value_words(value).render()


def value_of_board(solution: Solution | None, board: Board) -> Value | None:
    """The solution's value of ``board`` for the side to move, or None where it does not know."""
    if solution is None:
        return None
    from morris.engine.solution.play import known_value

    try:
        result = known_value(solution, board)
    except SolutionError:  # a damaged block: the solution has dropped its file (logged)
        return None
    return None if result is None else value_json(result, COLOR_NAMES[board.turn])


def flip_value(value: Value | None) -> Value | None:
    """The same value for the other player (a win in 5 for white is a loss in 5 for black).

    >>> flip_value({"value": "win", "distance": 5, "for": "white", "text": "white wins in 3"})
    {'value': 'loss', 'distance': 5, 'for': 'black', 'text': 'white wins in 3'}
    """
    if value is None:
        return None
    other = {"win": "loss", "loss": "win", "draw": "draw"}[value["value"]]
    side = "black" if value["for"] == "white" else "white"
    return {**value, "value": other, "for": side}


class PositionValues:
    """The values of the positions a controller shows, remembered for the last position (a
    snapshot is made on every change of the lights; the position changes far less often)."""

    def __init__(self, solution: Solution | None) -> None:
        self.solution = solution
        self._last: tuple[str, Value | None] | None = None

    def of(self, board: Board) -> Value | None:
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
    "Value",
    "describe_value",
    "flip_value",
    "plain_value",
    "solution_hint",
    "value_json",
    "value_of_board",
    "value_words",
    "winner_turns",
]
