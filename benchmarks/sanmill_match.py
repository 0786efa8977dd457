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
game records. ``--game-numbers 2,19`` plays only those games, ``--repeat N`` each of them N times,
and ``--reference`` seats a second Sanmill in our place (the yardstick against itself from the
same openings). docs/SANMILL.md and docs/ENGINE.md ("Tuning against Sanmill") have the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from morris.app.jobs import load_tables  # noqa: E402
from morris.engine.client import UciEngine  # noqa: E402
from morris.engine.levels import MAX_LEVEL  # noqa: E402
from morris.engine.match import (  # noqa: E402
    OPENINGS,
    MatchResult,
    format_elo,
    run_match,
    save_games,
)
from morris.engine.search import Engine  # noqa: E402

ADAPTER = Path(__file__).resolve().with_name("sanmill_uci.py")


def play_one(
    binary: str, game: int, movetime_ms: int, level: int, from_start: bool, reference: bool
) -> MatchResult:
    """Game ``game`` of the match (from 0): our level first, Sanmill second. With ``reference``
    a second Sanmill takes our seat: how the yardstick itself fares from the same openings."""
    openings = () if from_start else OPENINGS
    command = [sys.executable, str(ADAPTER), binary]
    with contextlib.ExitStack() as stack:
        if reference:
            ours: Engine | UciEngine = stack.enter_context(UciEngine.spawn(command, timeout=30))
        else:
            ours = Engine(level, seed=1, tables=load_tables(None))
        sanmill = stack.enter_context(UciEngine.spawn(command, timeout=30))
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


def game_numbers(text: str) -> list[int]:
    """``--game-numbers``: comma-separated game numbers, from 0."""
    try:
        numbers = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"game numbers must be whole numbers separated by commas, not {text!r}"
        ) from None
    if any(n < 0 for n in numbers):
        raise argparse.ArgumentTypeError(f"game numbers count from 0, not {text!r}")
    return numbers


def our_results(result: MatchResult) -> dict[int, list[float]]:
    """Our side's points in each game of the match, by game number (from 0), in playing order:
    the repeats of a game (``--repeat``) side by side."""
    points: dict[int, list[float]] = {}
    for g in result.games:
        points.setdefault(int(g.record.tags["Round"]) - 1, []).append(g.score)
    return dict(sorted(points.items()))


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
    parser.add_argument(
        "--game-numbers", type=game_numbers, default=None,
        help="play these games (numbers from 0, comma-separated) instead of --first-game/--games",
    )  # fmt: skip
    parser.add_argument(
        "--repeat", type=int, default=1, help="play every game this many times (Sanmill shuffles)"
    )
    parser.add_argument(
        "--reference", action="store_true",
        help="Sanmill in our seat too: the yardstick against itself from the same openings",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, default=None, help="save the games under this dir")
    args = parser.parse_args()
    start = time.monotonic()
    chosen = args.game_numbers or range(args.first_game, args.first_game + args.games)
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, not {args.repeat}")
    numbers = [n for n in chosen for _ in range(args.repeat)]
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        futures = [
            pool.submit(
                play_one,
                args.sanmill,
                n,
                args.movetime,
                args.level,
                args.from_start,
                args.reference,
            )
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
    if args.repeat > 1 or args.game_numbers:
        for n, points in our_results(result).items():
            side = "white" if n % 2 == 0 else "black"
            print(f"game {n} (opening {n // 2}, our seat {side}): {' '.join(map(str, points))}")
    elif not args.from_start:
        pairs = same_colour_pairs(result)
        print(
            f"openings whose two games the same colour won: {len(pairs)}"
            + (f" ({', '.join(map(str, pairs))})" if pairs else "")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
