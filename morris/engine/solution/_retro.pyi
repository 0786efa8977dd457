"""Types of the moving phase's retrograde analysis in C (morris/engine/solution/native/retro.c)."""

from collections.abc import Sequence

from morris.engine.tables.keys import Codes

#: Distances (and removal codes) stop below this.
MAX_LEVEL: int

class System:
    """A moving-phase unit being solved: sector (mover, other) with its partner (other, mover),
    or (mover, mover) alone; its work arrays are the caller's (uint16 words, uint8 counters)."""

    def __init__(
        self,
        mover: int,
        other: int,
        images: Codes,
        neighbours: Codes,
        mill_masks: Codes,
        representatives: Sequence[Codes | None],
        work: Sequence[Codes],
        counts: Sequence[Codes],
        captures: Sequence[Codes | None],
        *,
        threads: int = 1,
    ) -> None: ...
    @property
    def sizes(self) -> tuple[int, ...]:
        """Entries of each sector."""
    @property
    def threads(self) -> int:
        """Threads of each pass (set-up, level, finish)."""
    def setup(self, part: int, start: int, stop: int) -> None:
        """The set-up pass over entries ``start .. stop - 1`` of sector ``part``."""
    def level(self, distance: int) -> tuple[int, bool]:
        """Decide ``distance``: (entries decided at it, whether any is due later)."""
    def finish(self) -> tuple[int, ...]:
        """Turn the work words into codes; the longest distance per sector (-1: none)."""
