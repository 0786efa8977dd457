"""The placing values under the no-removal rule: what sparing the drawn positions saves.

A placing sector's values under the rule come from one Bellman step over its successors' removal
files. The rule only draws positions, never decides a drawn one, so the build gives the step the
sector's own values and it skips the positions they say are drawn (most of the larger games'
placing positions). This measures one built sector both ways, on one core: the CPU seconds and
nanoseconds an entry over every entry and with the draws spared, and that the codes are the same.

    python benchmarks/bench_placing_rule.py --dir /work/solution9 --sector 5-6-1-0

The sector's file and its successors' removal files must be built (``morris tables build``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from morris.core.rules import DEFAULT_NO_REMOVAL_LIMIT
from morris.engine.errors import SolutionError
from morris.engine.solution.sectors import SectorKey, Unit
from morris.engine.solution.storage import DRAW, open_sector
from morris.solver.solution.removals import removal_leaves, solve_removals


def _key(text: str) -> SectorKey:
    try:
        m, o, mh, oh = (int(part) for part in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: a placing sector as M-O-MH-OH (men on the board, then in hand)"
        ) from None
    key = SectorKey(m, o, mh, oh)
    if not key.placing:
        raise argparse.ArgumentTypeError(f"{text!r}: not a placing sector (nothing in hand)")
    return key


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, required=True, help="a solution directory")
    parser.add_argument("--sector", type=_key, required=True, help="M-O-MH-OH, e.g. 5-6-1-0")
    parser.add_argument("--limit", type=int, default=DEFAULT_NO_REMOVAL_LIMIT)
    args = parser.parse_args()
    key: SectorKey = args.sector
    unit = Unit((key,))
    try:
        own = open_sector(args.dir, key)
        leaves = removal_leaves(args.dir, unit, args.limit)
    except SolutionError as exc:
        print(f"bench_placing_rule: {exc}", file=sys.stderr)
        return 1
    entries = own.info.entries
    drawn = int(np.count_nonzero(own.wdl == DRAW))
    print(f"{key.name}: {entries:,} entries, {drawn / entries:.1%} drawn in the sector file")
    results = []
    for label, values in (("every entry", None), ("draws spared", own)):
        began = time.process_time()
        codes = solve_removals(unit, leaves, values=values)[key]
        used = time.process_time() - began
        results.append(codes)
        print(f"  {label:>12}: {used:7.1f} CPU s, {1e9 * used / entries:6.0f} ns an entry")
    same = np.array_equal(results[0], results[1])
    print(f"  the same codes: {'yes' if same else 'NO'}")
    return 0 if same else 2


if __name__ == "__main__":
    sys.exit(main())
