"""Evaluation weights for a variant, chosen by matches: a candidate set of weights against the
variant's present ones (``morris.engine.evaluate.weights_for``), both at the same level.

    python benchmarks/variant_weights.py --variant twelve --set point_link=0 --games 40
    python benchmarks/variant_weights.py --variant six --set moving_mobility=20 \\
        --set moving_blocked=30 --level 7 --games 40 --jobs 2
    python benchmarks/variant_weights.py --variant morabaraba --base standard --set point_link=5

``--set NAME=VALUE`` changes one field of the weights (``evaluate.Weights``) for the candidate;
``--base standard`` starts the candidate (and, with ``--against-standard``, the opponent) from
the standard game's weights instead of the variant's. Levels are node budgets, so the games are
the same on any machine and with ``--jobs``; each opening is played twice with colours swapped
(``morris match``'s openings drawn on the variant's board). Prints one markdown row: the
candidate's wins, draws and losses, its score and the Elo difference with its 95% margin.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, fields, replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from morris.core.variant import VARIANT_NAMES, find_variant  # noqa: E402
from morris.engine.engine import Engine  # noqa: E402
from morris.engine.evaluate import WEIGHTS, Weights, weights_for  # noqa: E402
from morris.engine.match import MatchResult, format_elo, run_match  # noqa: E402


def _weights(base: str, variant: str, changes: dict[str, int]) -> Weights:
    start = WEIGHTS if base == "standard" else weights_for(find_variant(variant).variant)
    return replace(start, **changes)


def play_part(
    variant: str,
    level: int,
    candidate: dict[str, int],
    opponent: dict[str, int],
    first_game: int,
    games: int,
) -> MatchResult:
    """Games ``first_game ..`` of the candidate (first) against the opponent."""
    first = Engine(level, seed=1, weights=Weights(**candidate))
    second = Engine(level, seed=2, weights=Weights(**opponent))
    return run_match(
        first, second, games=games, first_game=first_game, board_factory=find_variant(variant)
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=VARIANT_NAMES, required=True)
    parser.add_argument("--level", type=int, default=6, help="both sides' level (default 6)")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument(
        "--first-game", type=int, default=0, help="number of the first game (other openings)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE", help="a candidate's weight"
    )
    parser.add_argument("--base", choices=("variant", "standard"), default="variant")
    parser.add_argument(
        "--against-standard",
        action="store_true",
        help="the opponent plays the standard game's weights (default: the variant's)",
    )
    args = parser.parse_args()
    names = {f.name for f in fields(Weights)}
    changes: dict[str, int] = {}
    for item in args.set:
        name, _, value = item.partition("=")
        if name not in names or not value.lstrip("-").isdigit():
            parser.error(
                f"--set {item!r}: NAME=INTEGER with NAME one of {', '.join(sorted(names))}"
            )
        changes[name] = int(value)
    candidate = asdict(_weights(args.base, args.variant, changes))
    opponent = asdict(
        WEIGHTS if args.against_standard else weights_for(find_variant(args.variant).variant)
    )
    start = time.monotonic()
    pairs = (args.games + 1) // 2
    per_job = -(-pairs // max(1, args.jobs))
    parts = [(2 * lo, min(2 * (lo + per_job), args.games)) for lo in range(0, pairs, per_job)]
    with ProcessPoolExecutor(len(parts)) as pool:
        futures = [
            pool.submit(play_part, args.variant, args.level, candidate, opponent, lo, hi - lo)
            for lo, hi in parts
        ]
        result = MatchResult.combined([f.result() for f in futures])
    changed = ", ".join(f"{k}={v}" for k, v in changes.items()) or "(none)"
    print(
        f"| {args.variant} | {args.base} + {changed} | "
        f"{'standard' if args.against_standard else 'variant'} | level {args.level} | "
        f"{args.first_game}-{args.first_game + args.games - 1} | "
        f"{result.games_played} | {result.wins}-{result.draws}-{result.losses} | "
        f"{100 * result.score:.1f}% | {format_elo(*result.elo())} | "
        f"{time.monotonic() - start:.0f} s |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
