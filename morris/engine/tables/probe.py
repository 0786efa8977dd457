"""The loaded tables (memory-mapped) and the probe the search and the referee's hints use."""

from __future__ import annotations

from pathlib import Path
from typing import Final

import numpy as np

from morris.core.points import ALL_POINTS, MILL_MASKS, MILLS_THROUGH, NEIGHBOURS, points_of
from morris.core.rules import STANDARD, Rules
from morris.engine.encoding import rank_one
from morris.engine.result import Result, Value, result_of
from morris.engine.tables.keys import MIN_PIECES, Codes, TableKey, Turn
from morris.engine.tables.storage import TableInfo, load_codes, read_manifest


def table_refusal(rules: Rules) -> str | None:
    """Why the tables cannot answer for a game by ``rules``, or ``None`` where they can.

    The tables hold the moving phase with every piece placed on the standard board, by its
    removal rule (pieces in mills protected while others are not, one piece a turn); the flying
    setting is part of each table's key, and the pieces each side started with, moving while
    placing and the draw rules do not matter there (the search keeps the draw rules itself). So
    they apply to the standard game with flying on or off and to Lasker morris, and to nothing
    whose moving phase differs.

    >>> table_refusal(STANDARD) is None
    True
    """
    name = rules.name
    if rules.points_in_play != ALL_POINTS:
        return (
            f"{name} is played on {rules.points_in_play.bit_count()} points, the tables on "
            f"{ALL_POINTS.bit_count()}"
        )
    if not rules.same_board(STANDARD):
        return (
            f"{name} is played on other links and mills than the standard board the tables are "
            f"built on"
        )
    if rules.return_mill_barred:
        return f"{name} bars a straight return into a mill, which the tables do not know"
    if rules.remove_from_mills:
        return (
            f"{name} with removal from mills: in the tables a piece in a mill is protected while "
            f"others are not"
        )
    if rules.double_mill_removes_two:
        return f"{name} with a double mill removing two: in the tables every mill removes one piece"
    return None


_RESULTS: Final = tuple(result_of(code) for code in range(512))


class EndgameTables:
    """Loaded endgame tables (memory-mapped) and the probe the search uses.

    >>> tables = EndgameTables.load(Path("tables"))  # doctest: +SKIP
    """

    def __init__(self, codes: dict[TableKey, Codes], infos: dict[TableKey, TableInfo]) -> None:
        self._codes = codes
        self._infos = infos
        # The probe's path: plain tuples and a memoryview, whose items are Python ints (indexing
        # a numpy memmap from Python costs several microseconds).
        self._fast: dict[tuple[int, int, bool], tuple[int, memoryview]] = {
            (k.mover, k.other, k.flying): (k.block, np.asarray(c).data) for k, c in codes.items()
        }

    @classmethod
    def load(cls, directory: Path, *, check: bool = True) -> EndgameTables:
        """Open every table listed in ``directory``'s manifest.

        ``check`` verifies each file's SHA-256 against the manifest. Raises :class:`TableError`
        naming the file if a file is missing, truncated, corrupt or does not match the manifest.
        A directory without a manifest gives tables that cover nothing.
        """
        directory = Path(directory)
        infos = read_manifest(directory)
        codes = {k: load_codes(directory, i, check) for k, i in infos.items()}
        return cls(codes, infos)

    @property
    def keys(self) -> list[TableKey]:
        """The tables loaded."""
        return sorted(self._codes)

    def infos(self) -> list[TableInfo]:
        """The manifest summary of each loaded table."""
        return [self._infos[k] for k in sorted(self._infos)]

    def codes(self, key: TableKey) -> Codes:
        """The raw code array of a table (``distance + 1``, 0 for a draw)."""
        return self._codes[key]

    def supports(self, rules: Rules) -> bool:
        """Whether these tables hold the positions of ``rules``: they are built (and probed) on
        the standard board by its removal rule, so any variant whose moving phase differs is
        refused (:func:`table_refusal` says why)."""
        return table_refusal(rules) is None

    def covers(self, white_count: int, black_count: int, white_to_move: bool, flying: bool) -> bool:
        """Whether positions with this material (all pieces placed) are in the tables."""
        mover, other = (white_count, black_count) if white_to_move else (black_count, white_count)
        return TableKey(mover, other, flying) in self._codes

    def probe(self, white: int, black: int, white_to_move: bool, flying: bool) -> Result | None:
        """The exact value of a position of the moving phase with all pieces placed.

        ``white`` and ``black`` are bitboards (bit ``p`` = point ``p``). Returns None if the
        material is not covered (or a side has fewer than three pieces: the game is over).
        """
        mover, other = (white, black) if white_to_move else (black, white)
        entry = self._fast.get((mover.bit_count(), other.bit_count(), flying))
        if entry is None:
            return None
        block, codes = entry
        code: int = codes[rank_one(mover) * block + rank_one(other, mover)]
        return _RESULTS[code] if code < len(_RESULTS) else result_of(code)

    def turn_results(
        self, white: int, black: int, white_to_move: bool, flying: bool
    ) -> list[tuple[Turn, Result]] | None:
        """Every legal turn with its result for the side that plays it.

        The result is from the mover's point of view (a turn to a LOSS(k) for the other side is a
        WIN(k + 1)). None if the position or one of its successors is not covered.
        """
        mover, other = (white, black) if white_to_move else (black, white)
        if self.probe(white, black, white_to_move, flying) is None:
            return None
        flies = flying and mover.bit_count() == MIN_PIECES
        empty = ALL_POINTS & ~(mover | other)
        out: list[tuple[Turn, Result]] = []
        for p in points_of(mover):
            for q in points_of(empty if flies else NEIGHBOURS[p] & empty):
                after = mover ^ (1 << p) | (1 << q)
                if any(after & m == m for m in MILLS_THROUGH[q]):
                    removable = other & ~_mill_points_one(other) or other
                    for r in points_of(removable):
                        left = other ^ (1 << r)
                        if left.bit_count() < MIN_PIECES:
                            res: Result | None = Result(Value.LOSS, 0)
                        else:
                            res = self.probe(left, after, True, flying)
                        if res is None:
                            return None
                        out.append(((p, q, r), res.for_last_mover()))
                else:
                    res = self.probe(other, after, True, flying)
                    if res is None:
                        return None
                    out.append(((p, q, None), res.for_last_mover()))
        return out

    def best_turns(
        self, white: int, black: int, white_to_move: bool, flying: bool
    ) -> list[Turn] | None:
        """The optimal turns: fastest win, else any draw, else slowest loss.

        Returns ``(from, to, remove)`` triples (``remove`` None when nothing is removed), an
        empty list when the side to move is blocked, None when the material is not covered.
        """
        scored = self.turn_results(white, black, white_to_move, flying)
        if scored is None:
            return None
        if not scored:
            return []
        best = max(r.rank() for _, r in scored)
        return [t for t, r in scored if r.rank() == best]


def _mill_points_one(bits: int) -> int:
    out = 0
    for m in MILL_MASKS:
        if bits & m == m:
            out |= m
    return out
