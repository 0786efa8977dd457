"""The solved k men's morris: every position of every sector, by retrograde analysis.

The package, one module per concept: :mod:`~morris.engine.solution.sectors` (which sectors exist,
their graph, the build units), :mod:`~morris.engine.solution.symmetry` (the 16 symmetries and the
symmetry-reduced perfect hash), :mod:`~morris.engine.solution.turns` (turns and one Bellman step
on arrays), :mod:`~morris.engine.solution.solve` (a unit: moving systems by the endgame tables'
retrograde analysis, placing sectors from their successors),
:mod:`~morris.engine.solution.storage` (the sector file: header, 2-bit values, distances,
checksum), :mod:`~morris.engine.solution.blocks` (its block-compressed sections),
:mod:`~morris.engine.solution.build` (the Dask task graph),
:mod:`~morris.engine.solution.probe` (:class:`Solution`), :mod:`~morris.engine.solution.verify`
and :mod:`~morris.engine.solution.analyse`. See docs/TABLES.md.
"""

from morris.engine.errors import SolutionError
from morris.engine.solution.build import BuildResult, build_solution
from morris.engine.solution.probe import Solution, SolutionResult
from morris.engine.solution.sectors import (
    SectorKey,
    build_units,
    new_sector_keys,
    sector_keys,
    start_sector,
)
from morris.engine.solution.storage import FORMAT_VERSION, SectorInfo
from morris.engine.solution.verify import SectorReport, verify_solution

__all__ = [
    "FORMAT_VERSION",
    "BuildResult",
    "SectorInfo",
    "SectorKey",
    "SectorReport",
    "Solution",
    "SolutionError",
    "SolutionResult",
    "build_solution",
    "build_units",
    "new_sector_keys",
    "sector_keys",
    "start_sector",
    "verify_solution",
]
