"""The rules core: points, moves, the rules data, the board, variants, records, perft. Pure Python."""

from morris.core.board import (
    BLACK,
    COLOR_NAMES,
    COLORS,
    STARTING_POSITION,
    WHITE,
    Board,
    Color,
    LegalMoveView,
    Outcome,
    Phase,
    Termination,
)
from morris.core.moves import (
    GameRecordError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    MorrisError,
    Move,
)
from morris.core.perft import perft
from morris.core.points import (
    NUM_POINTS,
    POINT_NAMES,
    POINTS,
    Point,
    parse_point,
    point_name,
)
from morris.core.record import GameRecord, read_game, read_games, write_game
from morris.core.rules import STANDARD, InvalidRulesError, Rules, UnsupportedVariant
from morris.core.variant import (
    TWELVE,
    VARIANT_NAMES,
    VARIANTS,
    TwelveMensMorris,
    engine_rules,
    find_variant,
)

__all__ = [
    "BLACK",
    "COLORS",
    "COLOR_NAMES",
    "NUM_POINTS",
    "POINTS",
    "POINT_NAMES",
    "STANDARD",
    "STARTING_POSITION",
    "TWELVE",
    "VARIANTS",
    "VARIANT_NAMES",
    "WHITE",
    "Board",
    "Color",
    "GameRecord",
    "GameRecordError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRulesError",
    "LegalMoveView",
    "MorrisError",
    "Move",
    "Outcome",
    "Phase",
    "Point",
    "Rules",
    "Termination",
    "TwelveMensMorris",
    "UnsupportedVariant",
    "engine_rules",
    "find_variant",
    "parse_point",
    "perft",
    "point_name",
    "read_game",
    "read_games",
    "write_game",
]
