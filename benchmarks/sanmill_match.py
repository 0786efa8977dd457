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
same openings). ``--pairs [SEED]`` plays openings of one placement each instead (white's first
piece and black's: a seeded sample of the 24 x 23, each with colours swapped), and
``--our-movetime MS`` gives our side a time of its own (a quarter of Sanmill's, say);
``--solution DIR`` gives our side a solved game, as the daemon's ``[engine] solution`` does,
and ``--solved-search`` has its search score that game's sectors too (off in the daemon).
docs/SANMILL.md and docs/ENGINE.md ("Tuning against Sanmill") have the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from morris.app.jobs import load_solution, load_tables  # noqa: E402
from morris.core.board import Board  # noqa: E402
from morris.engine.client import UciEngine  # noqa: E402
from morris.engine.engine import Engine, SearchResult  # noqa: E402
from morris.engine.levels import MAX_LEVEL  # noqa: E402
from morris.engine.match import (  # noqa: E402
    OPENINGS,
    MatchResult,
    format_elo,
    run_match,
    save_games,
)

ADAPTER = Path(__file__).resolve().with_name("sanmill_uci.py")


#: The seed of ``--pairs``' sample when none is given.
PAIRS_SEED = 34


def placement_pairs(seed: int) -> tuple[tuple[str, str], ...]:
    """The openings of one placement each (white's first piece, then black's: all 24 x 23), in
    an order shuffled by ``seed``: opening ``i`` is games ``2i`` and ``2i + 1``, colours
    swapped, so the first ``2n`` games play a seeded sample of ``n`` of them."""
    from morris.core.points import POINT_NAMES

    pairs = [(w, b) for w in POINT_NAMES for b in POINT_NAMES if w != b]
    random.Random(seed).shuffle(pairs)
    return tuple(pairs)


def seat_of(game: int, pairs: int | None) -> str:
    """Game ``game``'s opening (its placements with ``--pairs``) and our seat in it."""
    opening = f"opening {game // 2}"
    if pairs is not None:
        opening += " " + " ".join(placement_pairs(pairs)[game // 2])
    return f"{opening}, our seat {'white' if game % 2 == 0 else 'black'}"


class OwnTime:
    """A player that thinks for its own time a turn, whatever the match gives."""

    def __init__(self, player: Engine | UciEngine, movetime: float) -> None:
        self.player = player
        self.movetime = movetime

    @property
    def name(self) -> str:
        return self.player.name

    def play(self, board: Board, **kwargs: Any) -> SearchResult:
        kwargs["movetime"] = self.movetime
        return self.player.play(board, **kwargs)


def play_one(
    binary: str, game: int, movetime_ms: int, level: int, from_start: bool, reference: bool,
    pairs: int | None = None, our_movetime_ms: int | None = None, solution: str | None = None,
    solved_search: bool = False, sector_cache_mb: int = 256, traps: bool = True,
) -> MatchResult:  # fmt: skip
    """Game ``game`` of the match (from 0): our level first, Sanmill second. With ``reference``
    a second Sanmill takes our seat: how the yardstick itself fares from the same openings.
    ``pairs`` (a seed) plays :func:`placement_pairs` instead of ``morris match``'s openings;
    ``our_movetime_ms`` gives our side a time of its own (Sanmill keeps ``movetime_ms``);
    ``solution`` a solved game's directory for our side (as the daemon's ``[engine] solution``),
    and ``solved_search`` has its search score that game's sectors too (``Engine(solved_search=
    True)``, through a cache of ``sector_cache_mb`` MB of the sectors' blocks); ``traps=False``
    has it play any drawing turn where the solution covers a drawn position (``Engine(traps=
    False)``) instead of the one that sets the most traps."""
    if from_start:
        openings: tuple[tuple[str, ...], ...] = ()
    elif pairs is not None:
        openings = placement_pairs(pairs)
    else:
        openings = OPENINGS
    command = [sys.executable, str(ADAPTER), binary]
    with contextlib.ExitStack() as stack:
        if reference:
            ours: Engine | UciEngine = stack.enter_context(UciEngine.spawn(command, timeout=30))
        else:
            solved = None if solution is None else load_solution(Path(solution))
            ours = Engine(
                level, seed=1, tables=load_tables(None), solution=solved,
                solved_search=solved_search, sector_cache=sector_cache_mb << 20, traps=traps,
            )  # fmt: skip
        sanmill = stack.enter_context(UciEngine.spawn(command, timeout=30))
        first: Engine | UciEngine | OwnTime = ours
        if our_movetime_ms is not None:
            first = OwnTime(ours, our_movetime_ms / 1000)
        return run_match(
            first, sanmill, games=1, movetime=movetime_ms / 1000, first_game=game,
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
    parser.add_argument(
        "--pairs", type=int, nargs="?", const=PAIRS_SEED, default=None, metavar="SEED",
        help="openings of one placement each (a seeded sample of the 24 x 23; game 2i and 2i+1 "
        f"play opening i, colours swapped) instead of morris match's (default seed {PAIRS_SEED})",
    )  # fmt: skip
    parser.add_argument(
        "--our-movetime", type=int, default=None, metavar="MS",
        help="ms per turn for our side (default: --movetime, which stays Sanmill's)",
    )  # fmt: skip
    parser.add_argument(
        "--solution", default=None, metavar="DIR",
        help="our side plays with this solved game (morris tables build --men K), as the daemon "
        "does with [engine] solution",
    )  # fmt: skip
    parser.add_argument(
        "--solved-search", action="store_true",
        help="with --solution: our search also scores the solved game's moving-phase sectors "
        "(Engine(solved_search=True); off in the daemon)",
    )  # fmt: skip
    parser.add_argument(
        "--sector-cache", type=int, default=256, metavar="MB",
        help="with --solved-search: MB of the sectors' decompressed blocks our search keeps "
        "(default 256; the engine's own default, 8, is the Pi's)",
    )  # fmt: skip
    parser.add_argument(
        "--no-traps", action="store_true",
        help="with --solution: where it covers a drawn position our side plays any drawing turn "
        "(seeded), not the one that sets the most traps (Engine(traps=False))",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, default=None, help="save the games under this dir")
    args = parser.parse_args()
    if args.solved_search and args.solution is None:
        parser.error("--solved-search needs --solution DIR")
    if args.no_traps and args.solution is None:
        parser.error("--no-traps needs --solution DIR")
    if args.sector_cache < 1:
        parser.error(f"--sector-cache must be at least 1 (MB), not {args.sector_cache}")
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
                args.pairs,
                args.our_movetime,
                args.solution,
                args.solved_search,
                args.sector_cache,
                not args.no_traps,
            )
            for n in numbers
        ]
        for done, future in enumerate(as_completed(futures), start=1):
            game = future.result().games[0]
            print(
                f"[{done}/{len(futures)}] game {int(game.record.tags['Round']) - 1}: "
                f"{game.record.tags.get('Result', '*')} "
                f"({game.record.tags.get('Termination', '?')}), "
                f"{time.monotonic() - start:.0f} s",
                file=sys.stderr,
                flush=True,
            )
        result = MatchResult.combined([f.result() for f in futures])
    if args.out is not None:
        save_games(result, args.out)
    movetimes = f"{args.movetime} ms"
    if args.our_movetime is not None:
        movetimes = f"{args.our_movetime} ms (ours) v {args.movetime} ms"
    lost = Counter(g.record.tags.get("Termination", "?") for g in result.games if g.score == 0)
    print("| games | movetime | wins | draws | losses | score | Elo (95%) | lost by | time |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    print(
        f"| {result.games_played} | {movetimes} | {result.wins} | {result.draws} | "
        f"{result.losses} | {100 * result.score:.1f}% | {format_elo(*result.elo())} | "
        f"{', '.join(f'{k} {v}' for k, v in lost.most_common()) or '-'} | "
        f"{time.monotonic() - start:.0f} s |"
    )
    if args.repeat > 1 or args.game_numbers:
        for n, points in our_results(result).items():
            print(f"game {n} ({seat_of(n, args.pairs)}): {' '.join(map(str, points))}")
    elif not args.from_start:
        pairs = same_colour_pairs(result)
        print(
            f"openings whose two games the same colour won: {len(pairs)}"
            + (f" ({', '.join(map(str, pairs))})" if pairs else "")
        )
    for g in result.games:
        if g.score == 0:
            n = int(g.record.tags["Round"]) - 1
            print(f"lost: game {n} ({seat_of(n, args.pairs)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
