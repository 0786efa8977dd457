"""Building the endgame tables: retrograde analysis on arrays, and the check of stored tables.

One module per concept: :mod:`~morris.solver.tables.rules` (the moves the solver follows, on
arrays), :mod:`~morris.solver.tables.solve` (retrograde analysis of a system of tables),
:mod:`~morris.solver.tables.build` (every table into a data directory),
:mod:`~morris.solver.tables.write` (a table's file and the manifest) and
:mod:`~morris.solver.tables.verify` (every position against its successors). The reader is
:mod:`morris.engine.tables`.
"""

from morris.solver.tables.build import build_tables
from morris.solver.tables.rules import IndexFunction
from morris.solver.tables.solve import table_keys
from morris.solver.tables.verify import VerifyReport, expected_codes, verify_tables

__all__ = [
    "IndexFunction",
    "VerifyReport",
    "build_tables",
    "expected_codes",
    "table_keys",
    "verify_tables",
]
