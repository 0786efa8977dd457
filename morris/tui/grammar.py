"""What a person types on the input line, read as the hand actions it stands for.

``d6`` toggles a piece on d6, ``a1-a4`` lifts the piece on a1 and puts it down on a4, ``xg7``
takes the piece off g7, ``clear`` takes every piece off; several in one line are a turn apart.
The word typed (``clear``) is the same in every language; the errors are
messages of the catalogs (:mod:`morris.i18n`), read in the board's language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from morris.app.errors import InputError
from morris.i18n import msg
from morris_device import POINT_NAMES

#: The word that takes every piece off, typed as it is in every language.
CLEAR = "clear"

#: Virtual seconds between lifting a piece and putting it down in a typed move ``a1-a4``.
MOVE_PAUSE = 0.3
#: Virtual seconds between the turns of one typed line (``d6 f4``): more than the referee's
#: accept delay, so each is read as a turn of its own.
TOKEN_PAUSE = 1.0

_POINT_SET = frozenset(POINT_NAMES)


@dataclass(frozen=True)
class HandAction:
    """One hand on the board at a virtual time: put a piece on a point, or lift it off."""

    due: float
    kind: str  # "place" or "lift"
    point: str


def parse_actions(text: str, on_wood: frozenset[str], now: float) -> list[HandAction]:
    """The hand actions a typed line asks for, checked against the pieces ``on_wood``.

    ``d6`` toggles a piece on d6, ``a1-a4`` lifts the piece on a1 and puts it on a4, ``xg7``
    takes the piece off g7; several may be given (``d6 f4``, ``d6xg7``), each a turn apart.
    ``clear`` takes every piece off (for a new game).
    Raises :class:`InputError` naming the bad part; then nothing is done.
    """
    if text.strip().lower() == CLEAR:
        return [HandAction(now, "lift", name) for name in POINT_NAMES if name in on_wood]
    tokens = [t for t in re.split(r"[\s,;]+|(?=x)", text.strip().lower()) if t]
    if not tokens:
        raise InputError(msg("type a point (d6), a move (a1-a4) or a removal (xg7)"))
    on_board = set(on_wood)
    actions: list[HandAction] = []
    at = now

    def point(name: str, token: str) -> str:
        if name not in _POINT_SET:
            if re.fullmatch(r"[a-g][1-7]", name):
                raise InputError(
                    msg("{name} is not a point of the board (in '{token}')", name=name, token=token)
                )
            raise InputError(
                msg("'{name}' is not a point: points are a1 .. g7, as at the edges", name=name)
            )
        return name

    for i, token in enumerate(tokens):
        if i:
            at += TOKEN_PAUSE
        if m := re.fullmatch(r"([a-z]+\d*)-([a-z]+\d*)", token):
            origin, target = point(m[1], token), point(m[2], token)
            if origin not in on_board:
                raise InputError(
                    msg("{token}: there is no piece on {point} to move", token=token, point=origin)
                )
            if target in on_board:
                raise InputError(
                    msg("{token}: {point} already has a piece", token=token, point=target)
                )
            on_board.discard(origin)
            on_board.add(target)
            actions.append(HandAction(at, "lift", origin))
            actions.append(HandAction(at + MOVE_PAUSE, "place", target))
        elif m := re.fullmatch(r"x([a-z]+\d*)", token):
            name = point(m[1], token)
            if name not in on_board:
                raise InputError(
                    msg(
                        "{token}: there is no piece on {point} to take off", token=token, point=name
                    )
                )
            on_board.discard(name)
            actions.append(HandAction(at, "lift", name))
        elif re.fullmatch(r"[a-z]+\d*", token):
            name = point(token, token)
            kind = "lift" if name in on_board else "place"
            on_board.symmetric_difference_update({name})
            actions.append(HandAction(at, kind, name))
        else:
            raise InputError(
                msg(
                    "cannot read '{token}': type a point (d6), a move (a1-a4) or a removal (xg7)",
                    token=token,
                )
            )
    return actions
