"""Building the solved k men's morris: every sector by retrograde analysis, on a Dask cluster.

One module per concept: :mod:`~morris.solver.solution.turns` (turns and one Bellman step on
arrays), :mod:`~morris.solver.solution.solve` (a unit: moving systems by the retrograde analysis
in C, :mod:`~morris.solver.solution._retro`, placing sectors from their successors),
:mod:`~morris.solver.solution.ranges` (a placing sector in ranges of entries),
:mod:`~morris.solver.solution.removals` (the removal files), :mod:`~morris.solver.solution.write`
(the sector files), :mod:`~morris.solver.solution.plan` (the task graph, pure),
:mod:`~morris.solver.solution.tasks` (what a worker runs), :mod:`~morris.solver.solution.driver`
(the build on Dask),
:mod:`~morris.solver.solution.verify` (the files against their successors) and
:mod:`~morris.solver.solution.perfection` (the engine against the solution). The reader is
:mod:`morris.engine.solution`.
"""

from morris.solver.solution.driver import BuildResult, build_solution
from morris.solver.solution.verify import SectorReport, verify_solution

__all__ = [
    "BuildResult",
    "SectorReport",
    "build_solution",
    "verify_solution",
]
