"""Why a game ended, in the words a person reads (the snapshot's ``outcome``, the simulator's
panel, the status): "white wins: black has only two pieces", "draw: the board is full".

The machine fields stay as they are (the snapshot's ``termination`` and a record's
``Termination`` tag hold :class:`morris.core.Termination` values, ``too-few-pieces``); these are
their words.
"""

from __future__ import annotations

from morris.core import COLOR_NAMES, Outcome, Termination

__all__ = ["describe_ending", "describe_outcome"]

#: Each termination's words; ``{winner}`` and ``{loser}`` are the colours.
_WORDS: dict[str, str] = {
    Termination.BLOCKED.value: "{winner} wins: {loser} cannot move",
    Termination.TOO_FEW_PIECES.value: "{winner} wins: {loser} has only two pieces",
    Termination.THREEFOLD_REPETITION.value: "draw: the same position three times",
    Termination.NO_REMOVAL.value: "draw: too many moving turns without a removal",
    Termination.FULL_BOARD.value: "draw: the board is full",
}


def describe_ending(winner: str | None, termination: str) -> str:
    """The end of a game in words, from the snapshot's fields (``winner``: ``"white"``,
    ``"black"`` or ``None`` for a draw; ``termination``: a :class:`Termination` value).

    >>> describe_ending("white", "too-few-pieces")
    'white wins: black has only two pieces'
    >>> describe_ending(None, "threefold-repetition"), describe_ending("black", "blocked")
    ('draw: the same position three times', 'black wins: white cannot move')
    """
    words = _WORDS.get(termination)
    drawn = winner is None
    if words is None or drawn != words.startswith("draw"):
        # A termination these words do not know, or one ending otherwise than they say.
        why = termination.replace("-", " ")
        return f"draw: {why}" if drawn else f"{winner} wins: {why}"
    loser = "" if winner is None else ("black" if winner == "white" else "white")
    return words.format(winner=winner, loser=loser)


def describe_outcome(outcome: Outcome) -> str:
    """``outcome`` in words (see :func:`describe_ending`)."""
    winner = None if outcome.winner is None else COLOR_NAMES[outcome.winner]
    return describe_ending(winner, outcome.termination.value)
