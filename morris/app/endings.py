"""Why a game ended, in the words a person reads (the snapshot's ``outcome``, the simulator's
panel, the status): "white wins: black has only two pieces", "draw: the board is full".

The machine fields stay as they are (the snapshot's ``termination`` and a record's
``Termination`` tag hold :class:`morris.core.Termination` values, ``too-few-pieces``); these are
their words, as messages of the catalogs (:func:`ending_words`, rendered in the reader's
language) or as text in the board's (:func:`describe_ending`).
"""

from __future__ import annotations

from morris.core import COLOR_NAMES, Outcome, Termination
from morris.i18n import N_, Message, msg

__all__ = ["describe_ending", "describe_outcome", "ending_words", "outcome_words"]

#: Each termination's words when white wins, when black wins, and for a draw (``None``: that
#: termination never ends so). Whole sentences, so a translator never builds one from colours.
_WORDS: dict[str, tuple[str | None, str | None, str | None]] = {
    Termination.BLOCKED.value: (
        N_("white wins: black cannot move"),
        N_("black wins: white cannot move"),
        None,
    ),
    Termination.TOO_FEW_PIECES.value: (
        N_("white wins: black has only two pieces"),
        N_("black wins: white has only two pieces"),
        None,
    ),
    Termination.THREEFOLD_REPETITION.value: (
        None,
        None,
        N_("draw: the same position three times"),
    ),
    Termination.NO_REMOVAL.value: (
        None,
        None,
        N_("draw: too many moving turns without a removal"),
    ),
    Termination.FULL_BOARD.value: (None, None, N_("draw: the board is full")),
}


def ending_words(winner: str | None, termination: str) -> Message:
    """The end of a game in words, from the snapshot's fields (``winner``: ``"white"``,
    ``"black"`` or ``None`` for a draw; ``termination``: a :class:`Termination` value), as a
    message to render in any language.

    >>> ending_words("white", "too-few-pieces").render("nl")
    'wit wint: zwart heeft nog maar twee stenen'
    """
    forms = _WORDS.get(termination)
    index = 2 if winner is None else (0 if winner == "white" else 1)
    words = None if forms is None else forms[index]
    if words is not None:
        return msg(words)
    # A termination these words do not know, or one ending otherwise than they say.
    why = termination.replace("-", " ")
    if winner is None:
        return msg("draw: {why}", why=why)
    if winner == "white":
        return msg("white wins: {why}", why=why)
    return msg("black wins: {why}", why=why)


def outcome_words(outcome: Outcome) -> Message:
    """``outcome`` in words (see :func:`ending_words`)."""
    winner = None if outcome.winner is None else COLOR_NAMES[outcome.winner]
    return ending_words(winner, outcome.termination.value)


def describe_ending(winner: str | None, termination: str) -> str:
    """:func:`ending_words` in the board's language.

    >>> describe_ending("white", "too-few-pieces")
    'white wins: black has only two pieces'
    >>> describe_ending(None, "threefold-repetition"), describe_ending("black", "blocked")
    ('draw: the same position three times', 'black wins: white cannot move')
    """
    return ending_words(winner, termination).render()


def describe_outcome(outcome: Outcome) -> str:
    """``outcome`` in words, in the board's language (see :func:`describe_ending`)."""
    return outcome_words(outcome).render()
