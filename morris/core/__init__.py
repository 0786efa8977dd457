"""The rules core: points, moves, the board, variants, game records and perft. Pure Python."""

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
from morris.core.variant import VARIANTS, TwelveMensMorris, find_variant

__all__ = [
    "BLACK",
    "COLORS",
    "COLOR_NAMES",
    "NUM_POINTS",
    "POINTS",
    "POINT_NAMES",
    "STARTING_POSITION",
    "VARIANTS",
    "WHITE",
    "Board",
    "Color",
    "GameRecord",
    "GameRecordError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "LegalMoveView",
    "MorrisError",
    "Move",
    "Outcome",
    "Phase",
    "Point",
    "Termination",
    "TwelveMensMorris",
    "find_variant",
    "parse_point",
    "perft",
    "point_name",
    "read_game",
    "read_games",
    "write_game",
]
