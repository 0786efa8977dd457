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


class MorrisError(Exception):
    """Root of the errors the rules core raises."""


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
                raise InvalidMoveError(f"a second removal ({POINT_NAMES[second]}) needs a first")
            if first == second:
                raise InvalidMoveError(f"the same piece removed twice: {POINT_NAMES[first]}")
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
            raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
        raw = text.strip().lower()
        action, *removed = raw.split("x")
        if len(removed) > 2:
            raise InvalidMoveError(f"at most two removals in a turn: {text!r}")
        if any(not r.strip() for r in removed):
            raise InvalidMoveError(f"no point after 'x' in move {text!r}")
        origin, dash, target = action.partition("-")
        try:
            if dash:
                if not origin or not target:
                    raise InvalidMoveError(f"a slide needs two points: {text!r}")
                from_point: Point | None = parse_point(origin)
                to_point = parse_point(target)
                if from_point == to_point:
                    raise InvalidMoveError(f"a move cannot end where it starts: {text!r}")
            else:
                from_point = None
                to_point = parse_point(origin)
            taken = [parse_point(r) for r in removed]
        except InvalidMoveError:
            raise
        except ValueError as exc:
            raise InvalidMoveError(f"invalid move {text!r}: {exc}") from None
        if len(taken) == 2 and taken[0] == taken[1]:
            raise InvalidMoveError(f"the same piece removed twice in move {text!r}")
        first = taken[0] if taken else None
        second = taken[1] if len(taken) == 2 else None
        return cls(from_point, to_point, first, second)
