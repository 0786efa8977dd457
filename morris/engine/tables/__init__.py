"""Endgame tables: exact win/draw/loss with distance, built by retrograde analysis.

A table covers every position of the moving phase with all pieces placed and a given material:
``mover`` pieces for the side to move and ``other`` pieces for the other side, for one flying
setting. Tables are stored relative to the side to move (the game is colour-blind once all pieces
are placed), so the table ``4v3`` answers both "white 4, black 3, white to move" and "white 3,
black 4, black to move".

Values are for the side to move; distances count turns (plies) to the end of the game with perfect
play: the winner wins in the fewest turns, the loser loses in the most. The game ends when a player
is reduced to two pieces or is blocked on their turn. The draw rules (threefold repetition, 100
turns without removal) are *not* part of the tables: a DRAW means neither side can force a win, and
a WIN distance can exceed the 100-turn no-removal limit, which the search must check itself.

Layout of a table: one entry per placement, ``code = distance + 1`` for a decided position and
``0`` for a draw, so a WIN has an even code and a LOSS an odd one. A position is indexed as
``rank(mover) * C(24 - m, o) + rank(compress(other))`` where ``rank`` is the colex rank of a
k-subset of points (the combinatorial number system) and ``compress`` renumbers the other side's
points over the ``24 - m`` points the mover does not hold. No symmetry reduction: every placement
has its own entry.

>>> tables = EndgameTables.load(directory)          # doctest: +SKIP
>>> tables.probe(white, black, white_to_move=True, flying=True)  # doctest: +SKIP
Result(value=<Value.WIN: 'win'>, distance=5)

The package holds what the engine reads, one module per concept:
:mod:`~morris.engine.tables.keys` (what a table is: its key, the array types),
:mod:`~morris.engine.tables.index` (the perfect hash: the stored and the wide layouts, on the
colex ranks of :mod:`morris.engine.encoding`), :mod:`~morris.engine.tables.storage` (the file
format, the manifest, checksums) and :mod:`~morris.engine.tables.probe` (:class:`EndgameTables`).
Building and verifying the tables is the solver's (:mod:`morris.solver.tables`).
"""

from morris.engine.errors import TableError
from morris.engine.tables.index import index_of
from morris.engine.tables.keys import (
    DEFAULT_MAX_PIECES,
    MIN_PIECES,
    Codes,
    ProgressCallback,
    TableKey,
    Turn,
)
from morris.engine.tables.probe import EndgameTables, table_refusal
from morris.engine.tables.storage import FORMAT_VERSION, MANIFEST_NAME, TableInfo, read_manifest

__all__ = [
    "DEFAULT_MAX_PIECES",
    "FORMAT_VERSION",
    "MANIFEST_NAME",
    "MIN_PIECES",
    "Codes",
    "EndgameTables",
    "ProgressCallback",
    "TableError",
    "TableInfo",
    "TableKey",
    "Turn",
    "index_of",
    "read_manifest",
    "table_refusal",
]
