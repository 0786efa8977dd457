"""How long a game's review takes (``morris review``, the page's review).

Run as ``python benchmarks/bench_review.py [--tables DIR]``. Reviews the first 60 turns of each
strong game of ``tests/data/strong-games.txt`` that is that long, at the review's depth and node
budget, and prints the CPU and wall seconds per game (the median and the slowest) and how much
the peak resident memory grew.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from morris.app.review import REVIEW_DEPTH, REVIEW_NODES, review_record  # noqa: E402
from morris.core import Board, GameRecord  # noqa: E402
from morris.engine.search import native_enabled  # noqa: E402

GAMES = REPO / "tests" / "data" / "strong-games.txt"
TURNS = 60


def records() -> list[GameRecord]:
    """The first 60 turns of every strong game with at least that many, as records."""
    out = []
    for line in GAMES.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        turns = line.split()[2:]
        if len(turns) < TURNS:
            continue
        board = Board()
        for text in turns[:TURNS]:
            board.push_notation(text)
        out.append(GameRecord.from_board(board))
    return out


def main() -> None:
    """Review the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=Path, default=None, help="endgame table directory")
    args = parser.parse_args()
    tables = None
    if args.tables is not None:
        from morris.engine.tables import EndgameTables

        tables = EndgameTables.load(args.tables)
    games = records()
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cpu, wall = [], []
    for record in games:
        c0, w0 = time.process_time(), time.perf_counter()
        review_record(record, tables=tables)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    search = "C" if native_enabled() else "Python"
    print(
        f"review of {TURNS} turns, depth {REVIEW_DEPTH}, at most {REVIEW_NODES} nodes a position, "
        f"{search} search, {'with' if tables else 'no'} tables, {len(cpu)} games"
    )
    print(f"CPU s:  median {statistics.median(cpu):.2f}, slowest {max(cpu):.2f}")
    print(f"wall s: median {statistics.median(wall):.2f}, slowest {max(wall):.2f}")
    peak_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    before, after = peak_before / 1024, peak_after / 1024
    print(f"peak resident memory: {before:.0f} MiB before, {after:.0f} MiB after")


if __name__ == "__main__":
    main()
