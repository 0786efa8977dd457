"""The solved game, read by block from its files, and its probe: the
:class:`~morris.engine.result.Result` (value and distance) of any position of a built sector.
The turns from a position are scored on the rules core's board:
:mod:`~morris.engine.solution.analyse`, :mod:`~morris.engine.solution.play`.

>>> solution = Solution.load(directory)                     # doctest: +SKIP
>>> solution.probe(white, black, white_hand, black_hand, white_to_move=True)  # doctest: +SKIP
Result(value=<Value.WIN: 'win'>, distance=23)
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

import numpy as np

from morris.engine.errors import SolutionError
from morris.engine.result import Result, Value, result_of
from morris.engine.solution.blocks import Section
from morris.engine.solution.removals import RemovalData, open_removals
from morris.engine.solution.sectors import SectorKey, sector_keys
from morris.engine.solution.storage import DRAW, LOSS, SectorData, SectorInfo, open_sector
from morris.engine.solution.symmetry import SymmetricIndex, index_of_key
from morris.i18n import msg

logger = logging.getLogger(__name__)

_VALUES: Final = {LOSS: Value.LOSS, DRAW: Value.DRAW}
#: Bytes of decompressed blocks a :class:`Solution` keeps (its LRU cache over all its sectors),
#: small enough for the daemon on a Pi Zero 2 W.
CACHE_BYTES: Final = 8 << 20


class Solution:
    """Solved sectors, read from the files of one directory, with the removal distances of its
    moving-phase sectors where they are built."""

    def __init__(
        self,
        directory: Path,
        sectors: dict[SectorKey, SectorData],
        *,
        removals: dict[SectorKey, RemovalData] | None = None,
        cache_bytes: int = CACHE_BYTES,
    ) -> None:
        self.directory = directory
        self._sectors = sectors
        self._removals = dict(removals or {})
        self._dropping = threading.Lock()  # two threads meeting damaged files drop both
        # The probe's path: plain tuples, and decompressed blocks as memoryviews (whose items
        # are Python ints) behind one LRU cache bounded by bytes over every sector.
        self._fast = {
            (k.mover_on, k.other_on, k.mover_hand, k.other_hand): (
                index_of_key(k),
                d.wdl_section,
                d.dist_section,
            )
            for k, d in sectors.items()
        }
        largest = max(
            [s.block * s.dtype.itemsize for d in sectors.values() for s in d.sections]
            + [r.section.block * r.section.dtype.itemsize for r in self._removals.values()],
            default=1,
        )
        #: Decompressed blocks the cache holds at most.
        self.cache_blocks = max(1, cache_bytes // largest)
        self._block: Callable[[Section, int], memoryview] = lru_cache(maxsize=self.cache_blocks)(
            _decoded
        )

    @classmethod
    def load(
        cls,
        directory: Path,
        men: int | None = None,
        *,
        check: bool = True,
        cache_bytes: int = CACHE_BYTES,
    ) -> Solution:
        """Open the sectors of ``men`` men's morris (all of them must be built), or every sector
        file in ``directory`` when ``men`` is None. ``check`` verifies each SHA-256 (a block's
        CRC-32 is checked whenever it is read); ``cache_bytes`` bounds the decompressed blocks
        kept.

        Raises :class:`SolutionError` naming the file for a missing or damaged sector.
        """
        directory = Path(directory)
        if men is None:
            keys: Iterable[SectorKey] = [
                _key_of(p.name) for p in sorted(directory.glob("sector-*.msol"))
            ]
        else:
            keys = sector_keys(men)
        sectors = {k: open_sector(directory, k, check=check) for k in keys}
        removals = {}
        for key, data in sectors.items():
            found = open_removals(directory, key, data.info.sha256, check=check)
            if found is not None:
                removals[key] = found
        return cls(directory, sectors, removals=removals, cache_bytes=cache_bytes)

    @property
    def cached_blocks(self) -> int:
        """Decompressed blocks held now (at most :attr:`cache_blocks`)."""
        return int(self._block.cache_info().currsize)  # type: ignore[attr-defined]

    @property
    def keys(self) -> list[SectorKey]:
        """The sectors loaded."""
        return sorted(self._sectors)

    def info(self, key: SectorKey) -> SectorInfo:
        """The header of a loaded sector."""
        return self._sectors[key].info

    def _read(self, section: Section, b: int) -> memoryview:
        """Block ``b`` of ``section``, decompressed (through the cache). A block that fails its
        CRC-32 takes its file out of this solution before the :class:`SolutionError` naming it
        goes on: a sector file, with its removal file; a removal file, alone. So a file damaged
        on the card is never read again by this process, and the position is one the solution
        does not cover (the daemon's engine searches it instead)."""
        try:
            return self._block(section, b)
        except SolutionError as exc:
            self._drop(section, exc)
            raise

    def _drop(self, section: Section, exc: SolutionError) -> None:
        # New dicts rebound whole: a thread iterating the old ones (the main loop showing a
        # value while the search thread probes) is not disturbed.
        with self._dropping:
            for key, data in self._sectors.items():
                if any(section is s for s in data.sections):
                    self._sectors = {k: v for k, v in self._sectors.items() if k != key}
                    self._removals = {k: v for k, v in self._removals.items() if k != key}
                    fast = (key.mover_on, key.other_on, key.mover_hand, key.other_hand)
                    self._fast = {k: v for k, v in self._fast.items() if k != fast}
                    logger.warning("%s: sector %s no longer used", exc, key.name)
                    return
            for key, removal in self._removals.items():
                if section is removal.section:
                    self._removals = {k: v for k, v in self._removals.items() if k != key}
                    logger.warning(
                        "%s: the removal file of sector %s no longer used", exc, key.name
                    )
                    return

    def data(self, key: SectorKey) -> SectorData:
        """The sections of a loaded sector."""
        return self._sectors[key]

    def covers(self, key: SectorKey) -> bool:
        """Whether the sector is loaded."""
        return key in self._sectors

    @property
    def removals_complete(self) -> bool:
        """Whether every loaded moving-phase sector has its removal distances."""
        return all(k in self._removals for k in self._sectors if not k.placing)

    @property
    def placing_rules_complete(self) -> bool:
        """Whether every loaded placing sector has its values under the no-removal rule."""
        return all(k in self._removals for k in self._sectors if k.placing)

    @property
    def removal_limit(self) -> int | None:
        """The no-removal limit the loaded removal distances were built for (None: none
        loaded)."""
        return next((r.info.limit for r in self._removals.values()), None)

    @property
    def longest_removal(self) -> int | None:
        """The longest distance to a removal of a position decided within the no-removal rule,
        over the loaded sectors; None unless :attr:`removals_complete`."""
        if not self.removals_complete:
            return None
        return max((r.info.longest for k, r in self._removals.items() if not k.placing), default=0)

    @property
    def rule_drawn(self) -> int | None:
        """The entries of the loaded moving-phase sectors that the solution decides and the
        no-removal rule draws from a count of 0; None unless :attr:`removals_complete`. When it
        is 0, every win of the solution is a win within the rule (placements are not counted)."""
        if not self.removals_complete:
            return None
        return sum(r.info.rule_drawn for k, r in self._removals.items() if not k.placing)

    def removal_data(self, key: SectorKey) -> RemovalData | None:
        """The removal file of a loaded sector, if built (a moving-phase sector's distances to
        the next removal, a placing sector's values under the rule)."""
        return self._removals.get(key)

    def placing_rule_value(self, key: SectorKey, mover: int, other: int) -> Value | None:
        """The value under the no-removal rule of a placing-phase position given relative to the
        side to move (placements are not counted: the moving phase starts at a count of 0);
        None where its sector has no values under the rule."""
        found = self._removal_code(key, mover, other) if key.placing else None
        return None if found is None else result_of(found).value

    def removal_result(self, key: SectorKey, mover: int, other: int) -> Result | None:
        """The value under the no-removal rule at a count of 0 of a moving-phase position given
        relative to the side to move, and its distance to the next removal (the winner hurrying,
        the loser delaying; see :mod:`~morris.engine.solution.removals`); None where its sector
        has no removal distances."""
        found = None if key.placing else self._removal_code(key, mover, other)
        return None if found is None else result_of(found)

    def _removal_code(self, key: SectorKey, mover: int, other: int) -> int | None:
        """The code of a position in its sector's removal file (None: no such file)."""
        data = self._removals.get(key)
        if data is None:
            return None
        index = self._fast[(key.mover_on, key.other_on, key.mover_hand, key.other_hand)][0]
        b, r = divmod(index.index_one(mover, other), data.section.block)
        return int(self._read(data.section, b)[r])

    def distance_block(self, key: SectorKey, b: int) -> np.ndarray[Any, Any] | None:
        """Block ``b`` of a loaded sector's distance codes, decompressed, past this solution's
        cache (the C search keeps a cache of its own: search.py, native_sectors). None if the
        sector is not loaded; a damaged block drops its file as :meth:`probe_key` would (logged)
        and gives None, so the caller asks that sector no more."""
        data = self._sectors.get(key)
        if data is None:
            return None
        try:
            return data.dist_section.decode(b)
        except SolutionError as exc:
            self._drop(data.dist_section, exc)
            return None

    def probe_key(self, key: SectorKey, mover: int, other: int) -> Result | None:
        """The result of a position given relative to the side to move (None: not loaded)."""
        entry = self._fast.get((key.mover_on, key.other_on, key.mover_hand, key.other_hand))
        return None if entry is None else self._result(entry, mover, other)

    def probe_moving(self, mover: int, other: int) -> Result | None:
        """:meth:`probe_key` for a moving-phase position (both hands empty), its sector found by
        the pieces on the board: the search's probe at its nodes, where every microsecond
        counts."""
        entry = self._fast.get((mover.bit_count(), other.bit_count(), 0, 0))
        return None if entry is None else self._result(entry, mover, other)

    def moving_sectors(self) -> list[tuple[int, int]]:
        """The loaded moving-phase sectors, as the pieces of the side to move and of the other."""
        return sorted((k.mover_on, k.other_on) for k in self._sectors if not k.placing)

    def _result(
        self, entry: tuple[SymmetricIndex, Section, Section], mover: int, other: int
    ) -> Result:
        index, _, dist = entry
        b, r = divmod(index.index_one(mover, other), dist.block)
        return result_of(self._read(dist, b)[r])

    def probe(
        self, white: int, black: int, white_hand: int, black_hand: int, white_to_move: bool
    ) -> Result | None:
        """The exact value of a position: bitboards (bit ``p`` = point ``p``), hands, the side to
        move. None if its sector is not loaded or the game is already over there."""
        if white_to_move:
            key = SectorKey(white.bit_count(), black.bit_count(), white_hand, black_hand)
            return self.probe_key(key, white, black)
        key = SectorKey(black.bit_count(), white.bit_count(), black_hand, white_hand)
        return self.probe_key(key, black, white)

    def probe_wdl(self, key: SectorKey, mover: int, other: int) -> Value | None:
        """The value alone, read from the win/draw/loss section (what a Pi would ship)."""
        entry = self._fast.get((key.mover_on, key.other_on, key.mover_hand, key.other_hand))
        if entry is None:
            return None
        index, wdl, _ = entry
        i = index.index_one(mover, other)
        b, r = divmod(i >> 2, wdl.block)  # the section's items are bytes of four values
        return _VALUES.get((self._read(wdl, b)[r] >> (2 * (i & 3))) & 3, Value.WIN)


def _decoded(section: Section, b: int) -> memoryview:
    return memoryview(section.decode(b).data)


def _key_of(name: str) -> SectorKey:
    try:
        parts = [int(x) for x in name.removeprefix("sector-").removesuffix(".msol").split("-")]
        return SectorKey(*parts)
    except (TypeError, ValueError):
        raise SolutionError(msg("{name}: not a sector file name", name=name)) from None
