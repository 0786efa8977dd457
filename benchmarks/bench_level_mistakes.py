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

It prints, per level, the games, the turns scored, the mistakes a game and a 100 turns (a long
game gives more chances to err), how many a game lost a drawn position and how many gave a won
one away (to a draw or a loss), the share of each kind,
and the level's score against itself (as a check that the games were played to an end).
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

from bench_traps import loaded_solution  # noqa: E402  (the benchmarks' folder is on the path)

from morris.core.board import Board  # noqa: E402
from morris.core.moves import Move  # noqa: E402
from morris.core.points import NEIGHBOURS  # noqa: E402
from morris.core.rules import DEFAULT_NO_REMOVAL_LIMIT  # noqa: E402
from morris.engine.engine import Engine  # noqa: E402
from morris.engine.result import Result  # noqa: E402
from morris.engine.solution.analyse import board_class  # noqa: E402
from morris.engine.solution.play import scored_turns  # noqa: E402
from morris.solver.solution.perfection import MAX_TURNS  # noqa: E402

KINDS = ("missed mill", "mill allowed", "weak point", "deep")


def _opens_a_mill(board: Board, move: Move) -> bool:
    """Whether after ``move`` the opponent has a turn that closes a mill."""
    board.push(move)
    try:
        return board.outcome() is None and any(m.remove is not None for m in board.legal_moves)
    finally:
        board.pop()


def _links(point: int) -> int:
    return NEIGHBOURS[point].bit_count()


def kind_of(board: Board, played: Move, kept: list[Move]) -> str:
    """The name of the mistake ``played`` on ``board``, where the turns ``kept`` kept the result."""
    if played.remove is None and any(m.remove is not None for m in kept):
        return "missed mill"
    if _opens_a_mill(board, played) and any(not _opens_a_mill(board, m) for m in kept):
        return "mill allowed"
    if (
        played.from_point is None
        and _links(played.to_point) == 2
        and any(m.from_point is None and _links(m.to_point) > 2 for m in kept)
    ):
        return "weak point"
    return "deep"


def game(directory: str, men: int, level: int, seed: int) -> tuple[int, Counter[str], str]:
    """One game of ``level`` against itself: (turns scored, mistakes by kind, result)."""
    solution = loaded_solution(directory, men)
    board = board_class(men)(no_removal_limit=DEFAULT_NO_REMOVAL_LIMIT)
    white, black = Engine(level, seed=2 * seed), Engine(level, seed=2 * seed + 1)
    scored, mistakes = 0, Counter[str]()
    for _ in range(MAX_TURNS):
        if board.outcome() is not None:
            break
        move = (white if board.turn else black).play(board).move
        turns: list[tuple[Move, Result]] | None = scored_turns(solution, board)
        if turns:
            scored += 1
            value = dict(turns)
            best = max(r.worth for r in value.values())
            if value[move].worth < best:
                kept = [m for m, r in turns if r.worth == best]
                mistakes[kind_of(board, move, kept)] += 1
                mistakes["win given away" if best == 2 else "draw lost"] += 1
        board.push(move)
    outcome = board.outcome()
    result = "*" if outcome is None else outcome.result()
    return scored, mistakes, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, required=True, help="the solution's directory")
    parser.add_argument("--men", type=int, required=True, help="k of the solved k men's game")
    parser.add_argument("--levels", default="1,2,3,4,5,6")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    print(f"{args.men} men's morris, {args.games} games a level against itself, seed {args.seed}")
    print(
        "| level | games | turns scored | mistakes a game | a 100 turns | draws lost a game | "
        "wins given away a game | " + " | ".join(KINDS) + " | white-draw-black | seconds |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|" + "---:|" * len(KINDS) + "---|---:|")
    with ProcessPoolExecutor(args.jobs) as pool:
        for level in (int(x) for x in args.levels.split(",")):
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
            turns = sum(t for t, _, _ in done)
            kinds: Counter[str] = sum((m for _, m, _ in done), Counter())
            total = sum(kinds[k] for k in KINDS)
            results = Counter(r for _, _, r in done)
            shares = " | ".join(f"{100 * kinds[k] / total:.0f}%" if total else "-" for k in KINDS)
            print(
                f"| {level} | {args.games} | {turns} | {total / args.games:.2f} | "
                f"{100 * total / max(turns, 1):.1f} | {kinds['draw lost'] / args.games:.2f} | "
                f"{kinds['win given away'] / args.games:.2f} | {shares} | "
                f"{results['1-0']}-{results['1/2-1/2'] + results['*']}-{results['0-1']} | "
                f"{time.monotonic() - start:.0f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
