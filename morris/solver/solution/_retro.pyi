"""Types of the retrograde analysis in C (morris/solver/solution/_retro.c, the glue of
native/moving.c and native/placing.c): the moving phase, and the placing sectors' Bellman step."""

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
        removal_targets: Sequence[Codes | None],
        *,
        threads: int = 1,
    ) -> None: ...
    @property
    def sizes(self) -> tuple[int, ...]:
        """Entries of each sector."""
    @property
    def threads(self) -> int:
        """Threads of each pass (setup, level, finish)."""
    def set_up(self, part: int, start: int, stop: int) -> None:
        """The setup pass over entries ``start .. stop - 1`` of sector ``part``."""
    def level(self, distance: int) -> tuple[int, bool]:
        """Decide ``distance``: (entries decided at it, whether any is due later)."""
    def finish(self) -> tuple[int, ...]:
        """Turn the work words into codes; the longest distance per sector (-1: none)."""

class Placing:
    """A placing sector (mover, other on the board) solved by one Bellman step over the codes of
    the sectors its turns lead to: ``quiet`` (other, mover + 1) and ``removal`` (other - 1,
    mover + 1; None where a removal leaves the other side two, ``wins_at_once``, or the other
    side has no piece on the board)."""

    def __init__(
        self,
        mover: int,
        other: int,
        wins_at_once: bool,
        images: Codes,
        neighbours: Codes,
        mill_masks: Codes,
        representatives: Sequence[Codes | None],
        quiet: Codes,
        removal: Codes | None,
    ) -> None: ...
    @property
    def size(self) -> int:
        """Entries of the sector."""
    def solve(
        self, start: int, stop: int, out: Codes | bytes, skip: Codes | bytes | None = None
    ) -> None:
        """The codes of entries ``start .. stop - 1`` into ``out`` (uint16, one an entry); where
        ``skip`` (a byte an entry) is nonzero, 0 (a draw known elsewhere) without the step."""
