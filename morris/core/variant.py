"""The variants: one registry of rules by name, read by every layer that names a variant.

A variant is data: a :class:`~morris.core.rules.Rules` value, and a
:class:`~morris.core.board.Board` subclass that sets only ``variant`` to it (so a board, a game
record or a saved game knows its variant by its type). Game records, saved games, the
configuration (``game.variant``), the CLI (``--variant``) and the engine protocol
(``setoption name Variant``) all take their names from :data:`VARIANTS`.

Every variant is played on the same wooden board of 24 points (docs/RULES.md, a section each):

- ``twelve``: twelve men's morris, the four diagonal corner lines added (each two links and one
  more mill), twelve pieces a side; a full board when placing ends is a draw;
- ``morabaraba``: the same lines, twelve pieces, flying with three, and its bar on going straight
  back into a mill (Mind Sports South Africa's Generally Accepted Rules);
- ``lasker``: Lasker morris, ten pieces, a piece may move instead of a placement while pieces are
  in hand, flying with three;
- ``six``: six men's morris on the middle and inner squares only (16 points, 8 mills), six pieces,
  no flying.

To add a variant, write its :class:`Rules` and its board class here and list the
class in :data:`BOARD_CLASSES`. The engine (its move generator, the C search, the endgame tables)
reads only the rules data, so a board class that overrides one of the methods of
:data:`RULE_METHODS` plays by its own rules in the core, but the engine refuses it with
:class:`~morris.core.rules.UnsupportedVariant` (see :func:`engine_rules`) rather than search it by
other rules. A rule that cannot be said with the fields of :class:`Rules` needs a new field, which
the core, the engine's move generator, the C search and the tables all honour.

>>> board = TwelveMensMorris()
>>> board.pieces_in_hand(WHITE)
12
>>> VARIANT_NAMES
('standard', 'twelve', 'morabaraba', 'lasker', 'six')
>>> find_variant("nine-mens-morris") is Board
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from morris.core.board import WHITE, Board
from morris.core.points import (
    DIAGONAL_MILL_MASKS,
    DIAGONAL_NEIGHBOURS,
    MILL_MASKS,
    NEIGHBOURS,
    SIX_MILL_MASKS,
    SIX_NEIGHBOURS,
    SIX_POINTS,
)
from morris.core.rules import STANDARD, Rules, UnsupportedVariant

__all__ = [
    "BOARD_CLASSES",
    "LASKER",
    "MORABARABA",
    "RULE_METHODS",
    "SIX",
    "TWELVE",
    "VARIANTS",
    "VARIANT_NAMES",
    "LaskerMorris",
    "Morabaraba",
    "SixMensMorris",
    "TwelveMensMorris",
    "describe_rules",
    "describe_variants",
    "engine_rules",
    "find_variant",
]
_ = WHITE  # used by the doctest above

#: Twelve men's morris: 12 pieces, the diagonal corner lines, a full board is a draw.
TWELVE: Final = Rules(
    name="twelve",
    title="Twelve men's morris",
    summary="twelve men's morris, diagonal lines",
    pieces_per_side=12,
    neighbours=DIAGONAL_NEIGHBOURS,
    mill_masks=DIAGONAL_MILL_MASKS,
    full_board_is_draw=True,
    aliases=("twelve-mens-morris",),
)


class TwelveMensMorris(Board):
    """Twelve men's morris: 12 pieces, diagonal corner lines, a full board is a draw."""

    variant = TWELVE


#: Morabaraba (Mind Sports South Africa's Generally Accepted Rules): 12 pieces, diagonals, flying
#: with three, no going straight back into a mill; a full board is not a draw (white is blocked).
MORABARABA: Final = Rules(
    name="morabaraba",
    title="Morabaraba",
    summary="12 pieces, diagonal lines, no straight return into a mill",
    pieces_per_side=12,
    neighbours=DIAGONAL_NEIGHBOURS,
    mill_masks=DIAGONAL_MILL_MASKS,
    return_mill_barred=True,
    aliases=("umlabalaba",),
)


class Morabaraba(Board):
    """Morabaraba: 12 pieces, diagonal lines, flying with three, no straight return into a mill."""

    variant = MORABARABA


#: Lasker morris: 10 pieces, a piece may move instead of a placement while pieces are in hand.
LASKER: Final = Rules(
    name="lasker",
    title="Lasker morris",
    summary="10 pieces, may move instead of placing",
    pieces_per_side=10,
    neighbours=NEIGHBOURS,
    mill_masks=MILL_MASKS,
    move_while_placing=True,
    aliases=("lasker-morris",),
)


class LaskerMorris(Board):
    """Lasker morris: 10 pieces; while pieces are in hand a turn may slide a piece instead."""

    variant = LASKER


#: Six men's morris: the middle and inner squares (16 points, 8 mills), 6 pieces, no flying.
SIX: Final = Rules(
    name="six",
    title="Six men's morris",
    summary="6 pieces on the middle and inner squares",
    pieces_per_side=6,
    neighbours=SIX_NEIGHBOURS,
    mill_masks=SIX_MILL_MASKS,
    points_in_play=SIX_POINTS,
    flying=False,
    aliases=("six-mens-morris",),
)


class SixMensMorris(Board):
    """Six men's morris: 6 pieces on the 16 points of the middle and inner squares, no flying."""

    variant = SIX


#: The board class of each variant, the standard game first: the source of the registry.
BOARD_CLASSES: Final[tuple[type[Board], ...]] = (
    Board,
    TwelveMensMorris,
    Morabaraba,
    LaskerMorris,
    SixMensMorris,
)

#: The rules of each variant by name and by alias (the names game records and options accept).
VARIANTS: Final[Mapping[str, Rules]] = {
    name: cls.variant for cls in BOARD_CLASSES for name in cls.variant.names
}

#: The variants' names, without aliases: the choices of the configuration, CLI and protocol.
VARIANT_NAMES: Final[tuple[str, ...]] = tuple(cls.variant.name for cls in BOARD_CLASSES)

_CLASSES: Final[dict[str, type[Board]]] = {cls.variant.name: cls for cls in BOARD_CLASSES}

assert len(VARIANTS) == sum(len(cls.variant.names) for cls in BOARD_CLASSES), "a name twice"
assert BOARD_CLASSES[0].variant is STANDARD

#: The methods of :class:`Board` that carry the rules. The engine does not call them: it plays
#: by the :class:`Rules` data alone, so a board class overriding one of them is refused.
RULE_METHODS: Final = (
    "phase",
    "barred_return",
    "mills_closed",
    "removals_due",
    "can_fly",
    "forms_mill",
    "pieces_in_mills",
    "removable",
    "generate_moves",
    "generate_legal_moves",
    "legal_moves",
    "has_moves",
    "illegal_reason",
    "closes_mill",
    "is_legal",
    "push",
    "pop",
    "is_repetition",
    "outcome",
    "is_game_over",
    "result",
)


def find_variant(name: str) -> type[Board]:
    """The board class of the variant ``name``. Raises :class:`ValueError` for an unknown one."""
    try:
        return _CLASSES[VARIANTS[name.strip().lower()].name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r} (known: {', '.join(VARIANT_NAMES)})") from None


def describe_variants() -> str:
    """The variants' names with their summaries, for help texts.

    >>> print(describe_variants())
    "standard" (nine men's morris), "twelve" (twelve men's morris, diagonal lines), ...
    """
    described = [f'"{cls.variant.name}" ({cls.variant.summary})' for cls in BOARD_CLASSES]
    if len(described) == 1:
        return described[0]
    return ", ".join(described[:-1]) + " or " + described[-1]


def describe_rules(rules: Rules) -> str:
    """The variant and its settings in a line of prose, for titles and event lines.

    >>> describe_rules(SIX)
    "Six men's morris, flying off"
    >>> describe_rules(STANDARD.with_settings(double_mill_removes_two=True))
    "Nine men's morris, flying on, a double mill removes two"
    """
    parts = [rules.title, f"flying {'on' if rules.flying else 'off'}"]
    if rules.remove_from_mills:
        parts.append("removal from mills")
    if rules.double_mill_removes_two:
        parts.append("a double mill removes two")
    return ", ".join(parts)


def engine_rules(board: Board) -> Rules:
    """The rules of ``board`` for the engine, which plays by this data alone.

    Raises :class:`UnsupportedVariant` naming the class and the methods if the board's class
    overrides a rules method (:data:`RULE_METHODS`): the engine would search it wrongly.
    """
    cls = type(board)
    overridden = [name for name in RULE_METHODS if getattr(cls, name) is not getattr(Board, name)]
    if overridden:
        raise UnsupportedVariant(
            f"{cls.__qualname__} overrides {', '.join(overridden)}: the engine plays by the rules "
            f"data alone (morris.core.rules.Rules), so it cannot search this board"
        )
    return board.rules
