"""The solver: what builds the perfect-play data the engine reads, apart from the runtime.

:mod:`morris.solver.tables` builds and verifies the endgame tables, :mod:`morris.solver.solution`
the solved k men's morris (the task graph, run on Dask, the retrograde analysis in C, the removal
files, the checks). It runs on a desktop or a cluster; the service, the simulator and the front
ends never import it (an import-linter contract), and the commands that build or verify import it
only when they run. Both read and write the formats of the runtime's readers
(:mod:`morris.engine.tables`, :mod:`morris.engine.solution`) and share their encoding
(:mod:`morris.engine.encoding`). See docs/TABLES.md.
"""
