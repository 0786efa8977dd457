"""What a table is: its key (material and flying rule) and the types the other modules share.
The values and results it holds are :mod:`morris.engine.result`'s, the solved game's and the
app's too."""

from __future__ import annotations

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


@dataclass(frozen=True, order=True)
class TableKey:
    """One table: the material of the side to move and of the other side, and the flying rule."""

    mover: int
    other: int
    flying: bool

    @property
    def size(self) -> int:
        """Number of positions (every placement of the pieces)."""
        return math.comb(NUM_POINTS, self.mover) * math.comb(NUM_POINTS - self.mover, self.other)

    @property
    def block(self) -> int:
        """Positions per placement of the mover's pieces."""
        return math.comb(NUM_POINTS - self.mover, self.other)

    @property
    def partner(self) -> TableKey:
        """The table after a turn without removal (the other side to move)."""
        return TableKey(self.other, self.mover, self.flying)

    @property
    def filename(self) -> str:
        """The file name of the table in a data directory."""
        return f"morris-{self.mover}v{self.other}-{'fly' if self.flying else 'nofly'}.npy"

    @property
    def name(self) -> str:
        """Short name, ``"4v3 flying"``."""
        return f"{self.mover}v{self.other} {'flying' if self.flying else 'no flying'}"

    def flies(self, pieces: int) -> bool:
        """Whether a side with ``pieces`` pieces (all placed) flies under this table's rule."""
        return self.flying and pieces == MIN_PIECES
