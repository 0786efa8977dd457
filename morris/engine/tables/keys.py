"""What a table is: its key (material and flying rule), the values and results it holds, and the
array types the other modules share."""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from morris.core.points import NUM_POINTS

#: Fewest pieces a side can have in a table: with two the game is over.
MIN_PIECES: Final = 3
#: The basic set: 3v3, 4v3 and 3v4.
DEFAULT_MAX_PIECES: Final = 7

Codes = npt.NDArray[np.unsignedinteger[Any]]

#: A turn as ``(from, to, remove)``; ``remove`` is None when the turn removes nothing.
Turn = tuple[int, int, int | None]
#: Called during a build with (table description, positions done, positions in all).
ProgressCallback = Callable[[str, int, int], None]


class Value(enum.Enum):
    """Game-theoretic value for the side to move."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True)
class TableResult:
    """What a table says about a position: the value for the side to move and the distance.

    ``distance`` is the number of turns (plies) to the end of the game with perfect play (the
    winner hurries, the loser delays); it is 0 for a DRAW and for a side to move that is blocked.
    """

    value: Value
    distance: int


@dataclass(frozen=True, order=True)
class TableKey:
    """One table: the material of the side to move and of the other side, and the flying rule."""

    mover: int
    opponent: int
    flying: bool

    @property
    def size(self) -> int:
        """Number of positions (every placement of the pieces)."""
        return math.comb(NUM_POINTS, self.mover) * math.comb(NUM_POINTS - self.mover, self.opponent)

    @property
    def block(self) -> int:
        """Positions per placement of the mover's pieces."""
        return math.comb(NUM_POINTS - self.mover, self.opponent)

    @property
    def partner(self) -> TableKey:
        """The table after a turn without removal (the other side to move)."""
        return TableKey(self.opponent, self.mover, self.flying)

    @property
    def filename(self) -> str:
        """The file name of the table in a data directory."""
        return f"morris-{self.mover}v{self.opponent}-{'fly' if self.flying else 'nofly'}.npy"

    @property
    def name(self) -> str:
        """Short name, ``"4v3 flying"``."""
        return f"{self.mover}v{self.opponent} {'flying' if self.flying else 'no flying'}"

    def flies(self, pieces: int) -> bool:
        """Whether a side with ``pieces`` pieces (all placed) flies under this table's rule."""
        return self.flying and pieces == MIN_PIECES
