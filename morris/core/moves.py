"""Turns of the game and their notation.

A turn is one action (a placement, or a slide or fly from one point to another) plus at most one
removal, or two where a double mill removes two. The notation is the one of docs/RULES.md: ``d6``,
``a1-a4``, ``d6xg7``, ``a1-a4xg7``, and ``d6xg7xa1`` for two removals (written in point order).

>>> move = Move.parse("a1-a4xg7")
>>> str(move)
'a1-a4xg7'
>>> Move.parse(str(move)) == move
True
"""

from __future__ import annotations

from dataclasses import dataclass

from morris.core.points import POINT_NAMES, Point, parse_point
from morris.i18n import Message, msg, plain


class MorrisError(Exception):
    """Root of the errors the rules core raises.

    One raised with a :class:`~morris.i18n.Message` is English as text (``str()``: the journal's,
    the engine protocol's) and gives its words to render in a person's language as
    :attr:`message`.
    """

    def __str__(self) -> str:
        if len(self.args) == 1 and isinstance(self.args[0], Message):
            return self.args[0].render("en")
        return super().__str__()

    @property
    def message(self) -> Message:
        """The error's words as a message of the catalogs (plain text: the same in every
        language).

        >>> error = InvalidMoveError(msg("a slide needs two points: {text}", text="'a1-'"))
        >>> str(error), error.message.render("de")
        ("a slide needs two points: 'a1-'", "ein Zug braucht zwei Punkte: 'a1-'")
        """
        if len(self.args) == 1 and isinstance(self.args[0], Message):
            return self.args[0]
        return plain(str(self))


class InvalidMoveError(MorrisError, ValueError):
    """Text that is not a turn in the notation of docs/RULES.md."""


class IllegalMoveError(MorrisError, ValueError):
    """A well-formed turn that the rules do not allow in the position."""


class InvalidPositionError(MorrisError, ValueError):
    """A position string that cannot be read; the message names the field."""


class GameRecordError(MorrisError, ValueError):
    """A game record that cannot be read; the message names the line and the move."""


@dataclass(frozen=True, slots=True)
class Move:
    """One turn: a placement (``from_point is None``) or a slide/fly, plus optional removals.

    ``second_remove`` is the second piece taken by a turn that closes two mills at once where
    the rules say a double mill removes two. The two removals are a set: they are kept in point
    order (``remove < second_remove``), so one turn has one value and one notation.

    >>> Move.parse("d6xa1xg7")
    Move.parse('d6xg7xa1')
    """

    from_point: Point | None
    to_point: Point
    remove: Point | None = None
    second_remove: Point | None = None

    def __post_init__(self) -> None:
        second = self.second_remove
        if second is not None:
            first = self.remove
            if first is None:
                raise InvalidMoveError(
                    msg("a second removal ({point}) needs a first", point=POINT_NAMES[second])
                )
            if first == second:
                raise InvalidMoveError(
                    msg("the same piece removed twice: {point}", point=POINT_NAMES[first])
                )
            if first > second:
                object.__setattr__(self, "remove", second)
                object.__setattr__(self, "second_remove", first)

    @property
    def removals(self) -> tuple[Point, ...]:
        """The points whose pieces the turn removes (none, one or two)."""
        if self.remove is None:
            return ()
        if self.second_remove is None:
            return (self.remove,)
        return (self.remove, self.second_remove)

    @property
    def is_placement(self) -> bool:
        """Whether the turn places a piece from hand."""
        return self.from_point is None

    def without_removal(self) -> Move:
        """The same action with no removal."""
        return Move(self.from_point, self.to_point)

    def __str__(self) -> str:
        text = POINT_NAMES[self.to_point]
        if self.from_point is not None:
            text = f"{POINT_NAMES[self.from_point]}-{text}"
        for removed in self.removals:
            text = f"{text}x{POINT_NAMES[removed]}"
        return text

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse ``d6``, ``a1-a4``, ``d6xg7``, ``a1-a4xg7`` or ``d6xg7xa1`` (case-insensitive).

        Raises :class:`InvalidMoveError` when the text is not a turn in that notation.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(msg("a move must be text, not {kind}", kind=type(text).__name__))
        raw = text.strip().lower()
        quoted = repr(text)
        action, *removed = raw.split("x")
        if len(removed) > 2:
            raise InvalidMoveError(msg("at most two removals in a turn: {text}", text=quoted))
        if any(not r.strip() for r in removed):
            raise InvalidMoveError(msg("no point after 'x' in move {text}", text=quoted))
        origin, dash, target = action.partition("-")
        if dash:
            if not origin or not target:
                raise InvalidMoveError(msg("a slide needs two points: {text}", text=quoted))
            from_point: Point | None = _point(origin, quoted)
            to_point = _point(target, quoted)
            if from_point == to_point:
                raise InvalidMoveError(
                    msg("a move cannot end where it starts: {text}", text=quoted)
                )
        else:
            from_point = None
            to_point = _point(origin, quoted)
        taken = [_point(r, quoted) for r in removed]
        if len(taken) == 2 and taken[0] == taken[1]:
            raise InvalidMoveError(msg("the same piece removed twice in move {text}", text=quoted))
        first = taken[0] if taken else None
        second = taken[1] if len(taken) == 2 else None
        return cls(from_point, to_point, first, second)


def _point(name: str, quoted: str) -> Point:
    """The point ``name`` of the move ``quoted``; :class:`InvalidMoveError` naming both if there
    is no such point."""
    try:
        return parse_point(name)
    except ValueError:
        raise InvalidMoveError(
            msg(
                "invalid move {text}: not a point of the board: {name}",
                text=quoted,
                name=repr(name),
            )
        ) from None
