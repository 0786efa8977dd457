"""The strength ladder: ``morris match`` between the top level, a random mover, a greedy player and
each pair of adjacent levels. Prints one markdown row per pairing (first player's results).

    python benchmarks/ladder.py                       # the whole ladder (long)
    python benchmarks/ladder.py --top-movetime 200 --games 100 --level-games 20 --only top
    python benchmarks/ladder.py --only levels --min-level 6 --level-games 40 --jobs 2
    python benchmarks/ladder.py --variant lasker --only top --games 20 --top-movetime 100

Each pairing runs through ``morris match``'s own runner (``run_match``), so the figures are those a
user gets from the command line. ``--jobs N`` splits a pairing's games between N processes by
opening (games 2i and 2i+1 share opening i). Levels are depth and node budgets with seeded
randomness, so between levels the games and the result are the same as with one process, only
sooner (a random mover's games and anything capped by ``--top-movetime`` differ from run to run).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from morris.app.jobs import load_tables  # noqa: E402
from morris.core.variant import VARIANT_NAMES, find_variant  # noqa: E402
from morris.engine.levels import MAX_LEVEL  # noqa: E402
from morris.engine.match import (  # noqa: E402
    MatchResult,
    format_elo,
    make_player,
    run_match,
    save_games,
)


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


def play_part(
    first_spec: str,
    second_spec: str,
    first_game: int,
    games: int,
    movetime: int | None,
    variant: str = "standard",
) -> MatchResult:
    """Games ``first_game .. first_game + games - 1`` of a pairing, in ``variant``."""
    tables = load_tables(None)
    first = make_player(first_spec, seed=1, tables=tables)
    second = make_player(second_spec, seed=2, tables=tables)
    return run_match(
        first,
        second,
        games=games,
        movetime=None if movetime is None else movetime / 1000,
        first_game=first_game,
        board_factory=find_variant(variant),
    )


def play_pairing(
    first_spec: str,
    second_spec: str,
    games: int,
    movetime: int | None,
    jobs: int,
    variant: str = "standard",
) -> MatchResult:
    """All games of a pairing, split by opening pairs between ``jobs`` processes."""
    pairs = (games + 1) // 2
    per_job = -(-pairs // max(1, jobs))
    parts = [(2 * start, min(2 * (start + per_job), games)) for start in range(0, pairs, per_job)]
    if len(parts) == 1:
        return play_part(first_spec, second_spec, 0, games, movetime, variant)
    with ProcessPoolExecutor(len(parts)) as pool:
        futures = [
            pool.submit(play_part, first_spec, second_spec, lo, hi - lo, movetime, variant)
            for lo, hi in parts
        ]
        return MatchResult.combined([f.result() for f in futures])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=MAX_LEVEL, help="the top level (the highest)")
    parser.add_argument("--top-movetime", type=int, default=200, help="ms per move for the top")
    parser.add_argument("--games", type=int, default=100, help="games against random and greedy")
    parser.add_argument("--level-games", type=int, default=20, help="games per adjacent pair")
    parser.add_argument("--min-level", type=int, default=1)
    parser.add_argument("--max-level", type=int, default=MAX_LEVEL)
    parser.add_argument("--jobs", type=int, default=1, help="processes per pairing (default 1)")
    parser.add_argument("--only", choices=("all", "top", "levels"), default="all")
    parser.add_argument("--out", type=Path, default=None, help="save the games under this dir")
    parser.add_argument(
        "--variant", choices=VARIANT_NAMES, default="standard", help="the game (default standard)"
    )
    args = parser.parse_args()
    print(
        "| variant | A | B | games | movetime | A wins | draws | A losses | A score | Elo (95%) "
        "| time |"
    )
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    sys.stdout.flush()
    for first_spec, second_spec, games, movetime in pairings(args):
        start = time.monotonic()
        result = play_pairing(first_spec, second_spec, games, movetime, args.jobs, args.variant)
        if args.out is not None:
            save_games(result, args.out / f"{first_spec}-vs-{second_spec}".replace(":", ""))
        elapsed = time.monotonic() - start
        print(
            f"| {args.variant} | {first_spec} | {second_spec} | {games} | "
            f"{'-' if movetime is None else f'{movetime} ms'} | {result.wins} | {result.draws} | "
            f"{result.losses} | {100 * result.score:.1f}% | {format_elo(*result.elo())} | "
            f"{elapsed:.0f} s |"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
