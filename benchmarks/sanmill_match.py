"""Our top level against Sanmill, several games at a time: the harness of the tuning runs.

    python benchmarks/sanmill_match.py /path/to/sanmill --games 40 --movetime 300 --jobs 2
    python benchmarks/sanmill_match.py /path/to/sanmill --games 20 --movetime 1000 --out games/

``morris match level:9 "cmd:python benchmarks/sanmill_uci.py /path/to/sanmill"`` plays the same
games one at a time; this runs ``--jobs`` games at once (one per core: in each game only one
engine thinks at a time), with ``morris match``'s runner, openings and colours, so a 40-game
tuning run takes minutes. ``--first-game`` starts later in the match (``--first-game 40`` plays
openings 20 and up); ``--from-start`` starts every game from the empty board instead. Prints one
markdown row (our side's result), how our games were lost, and the openings whose two games the
same colour won (openings that may be lost for one side whoever plays it); ``--out`` saves the
game records. docs/SANMILL.md and docs/ENGINE.md ("Tuning against Sanmill")
have the figures.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from morris.app.search import load_tables  # noqa: E402
from morris.engine.client import UciEngine  # noqa: E402
from morris.engine.match import (  # noqa: E402
    OPENINGS,
    MatchResult,
    format_elo,
    run_match,
    save_games,
)
from morris.engine.search import MAX_LEVEL, Engine  # noqa: E402

ADAPTER = Path(__file__).resolve().with_name("sanmill_uci.py")


def play_one(binary: str, game: int, movetime_ms: int, level: int, from_start: bool) -> MatchResult:
    """Game ``game`` of the match (from 0): our level first, Sanmill second."""
    ours = Engine(level, seed=1, tables=load_tables(None))
    openings = () if from_start else OPENINGS
    with UciEngine.spawn([sys.executable, str(ADAPTER), binary], timeout=30) as sanmill:
        return run_match(
            ours, sanmill, games=1, movetime=movetime_ms / 1000, first_game=game,
            openings=openings, event="sanmill match",
        )  # fmt: skip


def same_colour_pairs(result: MatchResult) -> list[int]:
    """The openings (numbers) whose two games, colours swapped, the same colour won both times:
    openings that may be lost for one colour whoever plays it (unproven: neither engine is
    perfect)."""
    by_round = {int(g.record.tags["Round"]): g.record.result for g in result.games}
    return [
        (r - 1) // 2
        for r, res in sorted(by_round.items())
        if r % 2 == 1 and res in ("1-0", "0-1") and by_round.get(r + 1) == res
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sanmill", help="the Sanmill console engine binary")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--movetime", type=int, default=1000, help="ms per turn for both sides")
    parser.add_argument("--jobs", type=int, default=2, help="games at a time (default 2)")
    parser.add_argument("--first-game", type=int, default=0, help="the first game's number")
    parser.add_argument("--level", type=int, default=MAX_LEVEL, help="our level (the top)")
    parser.add_argument(
        "--from-start", action="store_true",
        help="every game from the empty board (the solved draw) instead of morris match's openings",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, default=None, help="save the games under this dir")
    args = parser.parse_args()
    start = time.monotonic()
    numbers = range(args.first_game, args.first_game + args.games)
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        futures = [
            pool.submit(play_one, args.sanmill, n, args.movetime, args.level, args.from_start)
            for n in numbers
        ]
        result = MatchResult.combined([f.result() for f in futures])
    if args.out is not None:
        save_games(result, args.out)
    lost = Counter(g.record.tags.get("Termination", "?") for g in result.games if g.score == 0)
    print("| games | movetime | wins | draws | losses | score | Elo (95%) | lost by | time |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    print(
        f"| {result.games_played} | {args.movetime} ms | {result.wins} | {result.draws} | "
        f"{result.losses} | {100 * result.score:.1f}% | {format_elo(*result.elo())} | "
        f"{', '.join(f'{k} {v}' for k, v in lost.most_common()) or '-'} | "
        f"{time.monotonic() - start:.0f} s |"
    )
    if not args.from_start:
        pairs = same_colour_pairs(result)
        print(
            f"openings whose two games the same colour won: {len(pairs)}"
            + (f" ({', '.join(map(str, pairs))})" if pairs else "")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
