"""What the solved game's sectors cost the search: the top level's search at a fixed node budget
over positions of the strong games of tests/data (turns 14 to 40, from the late placing on),
with the endgame tables alone, and with the tables and a solution's moving-phase sectors read
by the C search itself (its block cache, ``search.native_sectors``) or through Python (the
solution's probe, as before the C reader).

    python benchmarks/bench_sector_probes.py --solution DIR [--nodes N] [--cache MB]
        [--modes tables,c,python]

``--cache``: the C reader's cache of decompressed blocks (default 8 MB, the engine's, for a Pi
Zero 2 W); the Python probe keeps the solution's own 8 MB and the engine's memo of answers.

Bound by nodes: the nodes, the moves and the probes are the same on any machine and under any
load (the C and the Python reading give the same search: the moves are compared); the CPU
seconds are this machine's, side by side. Prints, a line a mode: CPU seconds, nodes a second,
the positions read from the sectors and the blocks fetched (C), and the mean depth reached.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the strong games of tests/data

from morris.app.paths import tables_dir  # noqa: E402
from morris.core.board import Board  # noqa: E402
from morris.engine import Engine  # noqa: E402
from morris.engine.search import NATIVE_AVAILABLE  # noqa: E402
from morris.engine.solution import Solution  # noqa: E402
from morris.engine.tables import EndgameTables  # noqa: E402
from tests.core.games import position_after, strong_games  # noqa: E402

MODES = ("tables", "c", "python")
TURNS = (14, 18, 22, 26, 30, 40)


def positions() -> list[Board]:
    """The strong games' positions after each of :data:`TURNS` turns, where not over."""
    boards = [position_after(g, t) for t in TURNS for g in strong_games() if t < len(g.turns)]
    return [b for b in boards if b.outcome() is None]


def run(mode: str, boards: list[Board], tables: EndgameTables | None, solution: Solution,
        nodes: int, cache: int) -> tuple[float, int, list[str], int, int, float]:  # fmt: skip
    """(CPU seconds, nodes, moves, sector reads, blocks fetched, mean depth) of one mode."""
    solved = mode != "tables"
    engine = Engine(
        9, tables=tables, solution=solution if solved else None, solved_search=solved,
        sector_cache=cache,
    )  # fmt: skip
    if mode == "python":  # the C search asks Python, as before the C reader
        setattr(engine, "_native_sectors", lambda _solution: None)  # noqa: B010
    cpu = 0.0
    total = depth = 0
    moves = []
    for board in boards:
        start = time.process_time()
        # The root's turns given: the engine searches even where the solution covers the root.
        found = engine.play(board, nodes=nodes, searchmoves=list(board.generate_legal_moves()))
        cpu += time.process_time() - start
        total += found.nodes
        depth += found.depth
        moves.append(str(found.move))
    reads = misses = 0
    if engine._sectors is not None:
        reads, misses = engine._sectors[1].probes, engine._sectors[1].misses
    return cpu, total, moves, reads, misses, depth / len(boards)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--solution", type=Path, required=True, help="a solution's directory")
    parser.add_argument("--tables", type=Path, default=None, help="endgame tables' directory")
    parser.add_argument("--nodes", type=int, default=1_200_000, help="nodes a search")
    parser.add_argument("--cache", type=int, default=8, metavar="MB", help="the C reader's")
    parser.add_argument("--modes", default=",".join(MODES), help="of " + ", ".join(MODES))
    args = parser.parse_args(argv)
    modes = args.modes.split(",")
    if any(m not in MODES for m in modes) or args.nodes < 1 or args.cache < 1:
        parser.error(
            f"--modes: a comma-separated list of {', '.join(MODES)}; --nodes, --cache: positive"
        )
    if not NATIVE_AVAILABLE:
        print("the C search is not built: nothing to compare", file=sys.stderr)
        return 2
    directory = args.tables if args.tables is not None else tables_dir()
    tables = EndgameTables.load(directory, check=False) if directory.is_dir() else None
    solution = Solution.load(args.solution, check=False)
    boards = positions()
    sectors = [k.name for k in solution.keys if not k.placing]
    print(f"{len(boards)} positions, {args.nodes:,} nodes each; {len(sectors)} moving-phase "
          f"sectors; tables: {'none' if tables is None else directory}")  # fmt: skip
    first: list[str] | None = None
    for mode in modes:
        cpu, nodes, moves, reads, misses, depth = run(
            mode, boards, tables, solution, args.nodes, args.cache << 20
        )
        same = "" if first is None or mode == "tables" else (
            "; the same moves" if moves == first else "; OTHER MOVES"
        )  # fmt: skip
        if mode != "tables" and first is None:
            first = moves
        fetched = f", {reads:,} reads, {misses:,} blocks fetched" if mode == "c" else ""
        print(f"{mode:>7}: {cpu:7.1f} CPU s, {nodes / cpu / 1e6:.2f} M nodes/s, mean depth "
              f"{depth:.2f}{fetched}{same}", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
