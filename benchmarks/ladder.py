"""The strength ladder: ``morris match`` between the top level, a random mover, a greedy player and
each pair of adjacent levels. Prints one markdown row per pairing (first player's results).

    python benchmarks/ladder.py                       # the whole ladder (long)
    python benchmarks/ladder.py --top-movetime 200 --games 100 --level-games 20 --only top
    python benchmarks/ladder.py --only levels --max-level 6

Each pairing runs through the ``morris match`` command (its parser and run function), so the
figures are those a user gets from the command line.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from morris.app.search import load_tables  # noqa: E402
from morris.engine.match import format_elo, make_player, run_match, save_games  # noqa: E402


def pairings(args: argparse.Namespace) -> list[tuple[str, str, int, int | None]]:
    top = f"level:{args.top}"
    out: list[tuple[str, str, int, int | None]] = []
    if args.only in ("all", "top"):
        out.append((top, "random", args.games, args.top_movetime))
        out.append((top, "greedy", args.games, args.top_movetime))
    if args.only in ("all", "levels"):
        for level in range(args.min_level + 1, args.max_level + 1):
            out.append((f"level:{level}", f"level:{level - 1}", args.level_games, None))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=10, help="the top level (default 10)")
    parser.add_argument("--top-movetime", type=int, default=200, help="ms per move for the top")
    parser.add_argument("--games", type=int, default=100, help="games against random and greedy")
    parser.add_argument("--level-games", type=int, default=20, help="games per adjacent pair")
    parser.add_argument("--min-level", type=int, default=1)
    parser.add_argument("--max-level", type=int, default=10)
    parser.add_argument("--only", choices=("all", "top", "levels"), default="all")
    parser.add_argument("--out", type=Path, default=None, help="save the games under this dir")
    args = parser.parse_args()
    tables = load_tables(None)
    print("| A | B | games | movetime | A wins | draws | A losses | A score | Elo (95%) | time |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    sys.stdout.flush()
    for first_spec, second_spec, games, movetime in pairings(args):
        start = time.monotonic()
        first = make_player(first_spec, seed=1, tables=tables)
        second = make_player(second_spec, seed=2, tables=tables)
        result = run_match(
            first, second, games=games, movetime=None if movetime is None else movetime / 1000
        )
        if args.out is not None:
            save_games(result, args.out / f"{first_spec}-vs-{second_spec}".replace(":", ""))
        elapsed = time.monotonic() - start
        print(
            f"| {first_spec} | {second_spec} | {games} | "
            f"{'-' if movetime is None else f'{movetime} ms'} | {result.wins} | {result.draws} | "
            f"{result.losses} | {100 * result.score:.1f}% | {format_elo(*result.elo())} | "
            f"{elapsed:.0f} s |"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
