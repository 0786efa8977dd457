"""Turns of the game and their notation.

A turn is one action (a placement, or a slide or fly from one point to another) plus at most one
removal. The notation is the one of docs/RULES.md: ``d6``, ``a1-a4``, ``d6xg7``, ``a1-a4xg7``.

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
    """One turn: a placement (``from_point is None``) or a slide/fly, plus an optional removal."""

    from_point: Point | None
    to_point: Point
    remove: Point | None = None

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
        if self.remove is not None:
            text = f"{text}x{POINT_NAMES[self.remove]}"
        return text

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse ``d6``, ``a1-a4``, ``d6xg7`` or ``a1-a4xg7`` (case-insensitive).

        Raises :class:`InvalidMoveError` when the text is not a turn in that notation.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
        raw = text.strip().lower()
        action, sep, removed = raw.partition("x")
        if sep and not removed:
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
            remove = parse_point(removed) if sep else None
        except InvalidMoveError:
            raise
        except ValueError as exc:
            raise InvalidMoveError(f"invalid move {text!r}: {exc}") from None
        return cls(from_point, to_point, remove)
