"""The solved k men's morris at run time: every position of every sector, read from its files.

The package, one module per concept: :mod:`~morris.engine.solution.sectors` (which sectors exist,
their graph, the build units), :mod:`~morris.engine.solution.symmetry` (the 16 symmetries and the
symmetry-reduced perfect hash), :mod:`~morris.engine.solution.storage` (the sector file: header,
2-bit values, distances, checksum), :mod:`~morris.engine.solution.blocks` (its block-compressed
sections), :mod:`~morris.engine.solution.removals` (the removal files),
:mod:`~morris.engine.solution.probe` (:class:`Solution`), :mod:`~morris.engine.solution.play`,
:mod:`~morris.engine.solution.analyse` and :mod:`~morris.engine.solution.puzzles`. Building and
verifying the files is the solver's (:mod:`morris.solver.solution`), which the runtime never
imports. See docs/TABLES.md.
"""

from morris.engine.errors import SolutionError
from morris.engine.solution.probe import Solution
from morris.engine.solution.sectors import (
    SectorKey,
    build_units,
    new_sector_keys,
    sector_keys,
    start_sector,
)
from morris.engine.solution.storage import FORMAT_VERSION, SectorInfo

__all__ = [
    "FORMAT_VERSION",
    "SectorInfo",
    "SectorKey",
    "Solution",
    "SolutionError",
    "build_units",
    "new_sector_keys",
    "sector_keys",
    "start_sector",
]
