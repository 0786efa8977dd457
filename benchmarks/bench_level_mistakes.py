"""The levels' mistakes, measured against the solved game: how often each level throws a result
away in a game (a won position given away to a draw or a loss, a drawn one to a loss), and what
kind of mistake it was, as a person would name it.

    python benchmarks/bench_level_mistakes.py --dir DIR --men K [--levels 1,2,3,4,5,6]
                                              [--games N] [--seed S] [--jobs J]

Each level plays ``--games`` games of k men's morris from the empty board against itself, with
a seed per game (its own randomness among near-best moves makes the games differ), under the
real draw rules, searching without the solution (a level given the solution plays from it and
slips only by :data:`~morris.engine.solution.play.SLIP`). Every turn is scored by the solution
(the draw rules counted, as the engine counts them): a turn whose value is a class below the
best turn's threw the result away. Each such mistake is named by the first that fits:

- *missed mill*: a turn that closes a mill kept the result, and the turn played closed none;
- *mill allowed*: after the turn played the opponent can close a mill at once, and some turn
  that kept the result allowed none (a threat left open);
- *weak point*: while placing, a piece put on a corner (two neighbours) where a turn that kept
  the result put it on a point with more;
- *deep*: none of these; a mistake that shows only further ahead.

It prints, per level, the games, the turns scored, the mistakes a game, a 100 turns and a 100
chances (turns where some turn was a value class below the best: where a mistake was possible;
a long game gives more chances to err, and a lost side has none), how many a game lost a drawn
position and how many gave a won one away (to a draw or a loss), the share of each kind, and the
level's score against itself (as a check that the games were played to an end).

Games against itself put each level in positions of its own: a weak level's games are short,
lost early, with few chances left. So a second table (``--positions N``) plays every level on
the same positions, a seeded sample of those of all the games where a mistake was possible, and
gives the share of them where the level threw the result away (`--save-positions FILE` keeps
them, `--positions-from FILE` plays them again: the same positions before and after a change).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench_traps import loaded_solution  # noqa: E402  (the benchmarks' folder is on the path)

from morris.core.board import Board  # noqa: E402
from morris.core.moves import Move  # noqa: E402
from morris.core.points import NEIGHBOURS  # noqa: E402
from morris.core.rules import DEFAULT_NO_REMOVAL_LIMIT  # noqa: E402
from morris.engine.engine import Engine  # noqa: E402
from morris.engine.errors import SolutionError  # noqa: E402
from morris.engine.result import Result  # noqa: E402
from morris.engine.slips import Slip, allows_mill  # noqa: E402
from morris.engine.solution.analyse import board_class  # noqa: E402
from morris.engine.solution.play import scored_turns  # noqa: E402
from morris.solver.solution.perfection import MAX_TURNS  # noqa: E402

#: The kinds of mistake, in the order they are tried: the slips of the lower levels, then deep.
KINDS = (*(kind.value for kind in Slip), "deep")


def _links(point: int) -> int:
    return NEIGHBOURS[point].bit_count()


def kind_of(board: Board, played: Move, kept: list[Move]) -> str:
    """The name of the mistake ``played`` on ``board``, where the turns ``kept`` kept the result."""
    if played.remove is None and any(m.remove is not None for m in kept):
        return Slip.MISSED_MILL.value
    if allows_mill(board, played) and any(not allows_mill(board, m) for m in kept):
        return Slip.MILL_ALLOWED.value
    if (
        played.from_point is None
        and _links(played.to_point) == 2
        and any(m.from_point is None and _links(m.to_point) > 2 for m in kept)
    ):
        return Slip.WEAK_POINT.value
    return "deep"


def _shares(tally: Counter[str]) -> tuple[int, str]:
    """The mistakes in ``tally`` and each kind's share of them, as a table's cells."""
    total = sum(tally[k] for k in KINDS)
    return total, " | ".join(f"{100 * tally[k] / total:.0f}%" if total else "-" for k in KINDS)


def _judge(board: Board, move: Move, turns: list[tuple[Move, Result]], tally: Counter[str]) -> bool:
    """Scores ``move`` among the solution's ``turns`` into ``tally`` (a mistake's kind and
    whether it lost a draw or gave a win away); whether a mistake was possible at all."""
    value = dict(turns)
    best = max(r.worth for r in value.values())
    if all(r.worth == best for r in value.values()):
        return False
    tally["chance"] += 1  # a turn that could throw the result away
    tally["won" if best == 2 else "drawn"] += 1
    if value[move].worth < best:
        kept = [m for m, r in turns if r.worth == best]
        tally[kind_of(board, move, kept)] += 1
        tally["win given away" if best == 2 else "draw lost"] += 1
    return True


def game(
    directory: str, men: int, level: int, seed: int
) -> tuple[int, Counter[str], str, list[str]]:
    """One game of ``level`` against itself: (turns scored, mistakes by kind, result, the
    positions where a mistake was possible)."""
    solution = loaded_solution(directory, men)
    board = board_class(men)(no_removal_limit=DEFAULT_NO_REMOVAL_LIMIT)
    white, black = Engine(level, seed=2 * seed), Engine(level, seed=2 * seed + 1)
    scored, mistakes, chances = 0, Counter[str](), []
    for _ in range(MAX_TURNS):
        if board.outcome() is not None:
            break
        move = (white if board.turn else black).play(board).move
        turns: list[tuple[Move, Result]] | None = scored_turns(solution, board)
        if turns:
            scored += 1
            if _judge(board, move, turns, mistakes):
                chances.append(board.position())
        board.push(move)
    outcome = board.outcome()
    result = "*" if outcome is None else outcome.result()
    return scored, mistakes, result, chances


def judged(directory: str, men: int, level: int, positions: list[str], seed: int) -> Counter[str]:
    """``level``'s turns on ``positions`` (the engine seeded ``seed``, ``seed + 1``, ...), each
    scored by the solution: the same positions for every level."""
    solution = loaded_solution(directory, men)
    tally = Counter[str]()
    for i, text in enumerate(positions):
        board = board_class(men).from_position(text, no_removal_limit=DEFAULT_NO_REMOVAL_LIMIT)
        turns = scored_turns(solution, board)
        if turns:
            _judge(board, Engine(level, seed=seed + i).play(board).move, turns, tally)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, required=True, help="the solution's directory")
    parser.add_argument("--men", type=int, required=True, help="k of the solved k men's game")
    parser.add_argument("--levels", default="1,2,3,4,5,6")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--positions",
        type=int,
        default=600,
        help="also play every level on this many of the games' positions (0: do not)",
    )
    parser.add_argument(
        "--save-positions", type=Path, help="write those positions to this file, one a line"
    )
    parser.add_argument(
        "--positions-from",
        type=Path,
        help="play the levels on the positions of this file instead (as --save-positions wrote "
        "them: the same positions before and after a change)",
    )
    args = parser.parse_args(argv)
    try:
        loaded_solution(str(args.dir), args.men)  # here, not first in a worker's traceback
    except SolutionError as err:
        print(f"bench_level_mistakes: {err}", file=sys.stderr)
        return 2
    print(f"{args.men} men's morris, {args.games} games a level against itself, seed {args.seed}")
    print(
        "| level | games | turns scored | mistakes a game | a 100 turns | a 100 chances | "
        "draws lost a game | "
        "wins given away a game | " + " | ".join(KINDS) + " | white-draw-black | seconds |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|" + "---:|" * len(KINDS) + "---|---:|")
    levels = [int(x) for x in args.levels.split(",")]
    pool_of_positions: set[str] = set()
    with ProcessPoolExecutor(args.jobs) as pool:
        for level in levels:
            start = time.monotonic()
            seeds = range(args.seed, args.seed + args.games)
            done = list(
                pool.map(
                    game,
                    [str(args.dir)] * args.games,
                    [args.men] * args.games,
                    [level] * args.games,
                    seeds,
                )
            )
            turns = sum(t for t, _, _, _ in done)
            kinds: Counter[str] = sum((m for _, m, _, _ in done), Counter())
            total, shares = _shares(kinds)
            results = Counter(r for _, _, r, _ in done)
            pool_of_positions.update(p for _, _, _, found in done for p in found)
            print(
                f"| {level} | {args.games} | {turns} | {total / args.games:.2f} | "
                f"{100 * total / max(turns, 1):.1f} | "
                f"{100 * total / max(kinds['chance'], 1):.1f} | "
                f"{kinds['draw lost'] / args.games:.2f} | "
                f"{kinds['win given away'] / args.games:.2f} | {shares} | "
                f"{results['1-0']}-{results['1/2-1/2'] + results['*']}-{results['0-1']} | "
                f"{time.monotonic() - start:.0f} |",
                flush=True,
            )
        if args.positions or args.positions_from is not None:
            same_positions(pool, args, levels, sorted(pool_of_positions))
    return 0


def same_positions(
    pool: ProcessPoolExecutor, args: argparse.Namespace, levels: list[int], found: list[str]
) -> None:
    """The second table: every level's turn on the same positions, a seeded sample of those of
    all the games above where a mistake was possible (so a level that loses fast is not
    flattered by having few chances)."""
    if args.positions_from is not None:
        sample = args.positions_from.read_text().split("\n")
        sample = [line for line in sample if line.strip()]
        origin = f"read from {args.positions_from}"
    else:
        sample = sorted(random.Random(args.seed).sample(found, min(args.positions, len(found))))
        origin = f"a seeded sample of the {len(found)} where a mistake was possible in the games"
    if args.save_positions is not None:
        args.save_positions.write_text("".join(f"{line}\n" for line in sample))
    print()
    print(f"The same {len(sample)} positions for every level ({origin}):")
    print(
        "| level | positions | thrown away | drawn: lost | won: given away | "
        + " | ".join(KINDS)
        + " |"
    )
    print("|---:|---:|---:|---:|---:|" + "---:|" * len(KINDS))
    chunks = [sample[i :: args.jobs] for i in range(args.jobs)]
    for level in levels:
        tally: Counter[str] = sum(
            pool.map(
                judged,
                [str(args.dir)] * len(chunks),
                [args.men] * len(chunks),
                [level] * len(chunks),
                chunks,
                [args.seed + 100_000 * i for i in range(len(chunks))],
            ),
            Counter(),
        )
        total, shares = _shares(tally)
        print(
            f"| {level} | {tally['chance']} | {100 * total / max(tally['chance'], 1):.1f}% | "
            f"{100 * tally['draw lost'] / max(tally['drawn'], 1):.1f}% of {tally['drawn']} | "
            f"{100 * tally['win given away'] / max(tally['won'], 1):.1f}% of {tally['won']} | "
            f"{shares} |",
            flush=True,
        )


if __name__ == "__main__":
    raise SystemExit(main())
