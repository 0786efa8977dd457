"""The solved game inside the search, measured: from positions of the moving-phase sectors that
k men's morris adds to k - 1 men's (7v7, 7v4, ... for k = 7), how often the engine's turn keeps
the position's value by k men's solution, when the search has the endgame tables alone and when
it also scores the positions of k - 1 men's sectors exactly wherever it reaches them.

    python benchmarks/bench_solved_search.py --dir DIR --men 7 [--per-sector N] [--nodes N]

``--dir`` must hold k men's solution (``morris tables build --men K``); the engine is given the
k - 1 men's sectors of the same directory, never the k men's ones it is judged by. The endgame
tables come from ``--tables`` (default: the data directory's; none if it has none). Positions
are drawn at random (seeded) from each new moving-phase sector, up to ``--per-sector`` won and
as many drawn ones for the side to move, by k men's values under the no-removal rule at a count
of 0 (a win the rule draws is a drawn position). Lost positions are left out: every turn keeps
a loss. The search is bound by nodes, not time, so the figures are the same under any load
and on any machine; the seconds are this machine's.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from morris.app.paths import tables_dir
from morris.core.moves import Move
from morris.engine import Engine
from morris.engine.result import Value
from morris.engine.solution import Solution, new_sector_keys, sector_keys
from morris.engine.solution.analyse import board_class, position_text
from morris.engine.solution.play import scored_turns
from morris.engine.solution.sectors import MAX_MEN, MIN_MEN, SectorKey
from morris.engine.solution.symmetry import index_of_key
from morris.engine.tables import EndgameTables

#: Draws of random entries per position wanted before a sector is given up on (a sector may hold
#: few won or drawn positions for the side to move).
TRIES = 60


def positions(
    truth: Solution, key: SectorKey, per_value: int, rng: np.random.Generator, men: int
) -> list[tuple[Value, str, set[Move]]]:
    """Up to ``per_value`` won and as many drawn positions of ``key`` (value under the rule at a
    count of 0, by ``truth``), as position texts, each with the turns that keep its value."""
    entries = truth.info(key).entries
    wanted = {Value.WIN: per_value, Value.DRAW: per_value}
    out: list[tuple[Value, str, set[Move]]] = []
    index = index_of_key(key)
    for i in rng.choice(entries, size=min(entries, TRIES * 2 * per_value), replace=False):
        if not any(wanted.values()):
            break
        movers, others = index.decode(np.array([i], dtype=np.int64))
        text = position_text(key, int(movers[0]), int(others[0]))
        board = board_class(men)(text)
        if board.outcome() is not None:
            continue
        scored = scored_turns(truth, board)
        if not scored:
            continue
        best = max(r.rank()[0] for _, r in scored)  # the value's class: win 2, draw 1, loss 0
        value = next(r.value for _, r in scored if r.rank()[0] == best)
        if wanted.get(value, 0) > 0:
            wanted[value] -= 1
            out.append((value, text, {m for m, r in scored if r.rank()[0] == best}))
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the table; 2 for bad input."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, required=True, help="k men's solution directory")
    parser.add_argument("--men", type=int, required=True, metavar="K", help="k (4..9)")
    parser.add_argument("--tables", type=Path, default=None, help="the endgame tables' directory")
    parser.add_argument("--per-sector", type=int, default=10, metavar="N")
    parser.add_argument("--nodes", type=int, default=1_200_000, help="the search's budget")
    parser.add_argument("--level", type=int, default=8, choices=(7, 8, 9))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if not MIN_MEN < args.men <= MAX_MEN:
        print(f"--men must be {MIN_MEN + 1}..{MAX_MEN}, not {args.men}", file=sys.stderr)
        return 2
    missing = [k.filename for k in sector_keys(args.men) if not (args.dir / k.filename).exists()]
    if missing:
        print(f"{args.dir}: {args.men} men's morris not built ({missing[0]} missing)",
              file=sys.stderr)  # fmt: skip
        return 2
    truth = Solution.load(args.dir, args.men, check=False)
    smaller = Solution.load(args.dir, args.men - 1, check=False)
    tables_path = args.tables or tables_dir()
    tables = EndgameTables.load(tables_path, check=False) if tables_path.is_dir() else None
    engines = {
        "tables": Engine(args.level, seed=args.seed, tables=tables),
        f"tables + {args.men - 1} men": Engine(
            args.level, seed=args.seed, tables=tables, solution=smaller, solved_search=True
        ),
    }
    rng = np.random.default_rng(args.seed)
    kept: Counter[tuple[str, Value]] = Counter()
    played: Counter[Value] = Counter()
    seconds: Counter[str] = Counter()
    new = [k for k in new_sector_keys(args.men) if not k.mover_hand + k.other_hand]
    for key in new:
        for value, text, keeping in positions(truth, key, args.per_sector, rng, args.men):
            played[value] += 1
            verdicts = []
            for name, engine in engines.items():
                started = time.perf_counter()
                move = engine.play(board_class(args.men)(text), nodes=args.nodes).move
                verdicts.append(move in keeping)
                kept[name, value] += verdicts[-1]
                seconds[name] += time.perf_counter() - started
            if len(set(verdicts)) > 1:
                who = [name for name, v in zip(engines, verdicts, strict=True) if v]
                print(f"  {value.value} {text}: kept only with {who[0]}", file=sys.stderr)
        print(f"  {key.name}: {sum(played.values())} positions so far", file=sys.stderr)
    total = sum(played.values())
    print(
        f"{args.men} men's moving-phase sectors new in it ({len(new)}), {total} positions, "
        f"level {args.level} at {args.nodes:,} nodes; tables: {tables_path if tables else 'none'}"
    )
    print("| search with | won kept | drawn kept | all kept | s a turn |")
    print("|---|---:|---:|---:|---:|")
    for name in engines:
        won, drawn = kept[name, Value.WIN], kept[name, Value.DRAW]
        print(
            f"| {name} | {won} of {played[Value.WIN]} | {drawn} of {played[Value.DRAW]} "
            f"| {won + drawn} of {total} | {seconds[name] / max(total, 1):.2f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
