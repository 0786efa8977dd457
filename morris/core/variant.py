"""The variants: one registry of rules by name, read by every layer that names a variant.

A variant is data: a :class:`~morris.core.rules.Rules` value, and a
:class:`~morris.core.board.Board` subclass that sets only ``variant`` to it (so a board, a game
record or a saved game knows its variant by its type). Game records, saved games, the
configuration (``game.variant``), the CLI (``--variant``) and the engine protocol
(``setoption name Variant``) all take their names from :data:`VARIANTS`.

Twelve men's morris is played on the same 24 points with the four diagonal corner lines added (each
line two links and one more mill) and twelve pieces a side; if the board is full when placing ends,
the game is a draw.

To add a variant (morabaraba, say), write its :class:`Rules` and its board class here and list the
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
('standard', 'twelve')
>>> find_variant("nine-mens-morris") is Board
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from morris.core.board import WHITE, Board
from morris.core.points import DIAGONAL_MILL_MASKS, DIAGONAL_NEIGHBOURS
from morris.core.rules import STANDARD, Rules, UnsupportedVariant

__all__ = [
    "BOARD_CLASSES",
    "RULE_METHODS",
    "TWELVE",
    "VARIANTS",
    "VARIANT_NAMES",
    "TwelveMensMorris",
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


#: The board class of each variant, the standard game first: the source of the registry.
BOARD_CLASSES: Final[tuple[type[Board], ...]] = (Board, TwelveMensMorris)

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
    "standard" (nine men's morris) or "twelve" (twelve men's morris, diagonal lines)
    """
    described = [f'"{cls.variant.name}" ({cls.variant.summary})' for cls in BOARD_CLASSES]
    if len(described) == 1:
        return described[0]
    return ", ".join(described[:-1]) + " or " + described[-1]


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
