"""Check that Sanmill, through the adapter, answers for the position we have: a legal turn.

    python benchmarks/sanmill_replay_check.py /path/to/sanmill --games 40 --seed 2

The adapter sends Sanmill the whole move list of a position; where the two programs' rules
differ, Sanmill may stop its replay early and answer for another position (docs/SANMILL.md,
"The N-move count"). This asks Sanmill for a short move at many positions and checks every answer
with our rules core:

- the strong games of tests/data, every ninth turn;
- random games that prefer turns without a removal (so they run long: shuffles, repetitions, the
  no-removal count), every seventh turn from the 120th.

It prints each position answered wrongly (an illegal turn, no turn, or a wrong answer the client
recovered from by restarting the engine), with its moves, and exits 1 if there was one.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from morris import Board  # noqa: E402
from morris.engine.client import UciEngine  # noqa: E402
from morris.engine.errors import ExternalEngineError  # noqa: E402
from tests.core.games import position_after, strong_games  # noqa: E402

ADAPTER = Path(__file__).resolve().with_name("sanmill_uci.py")


def strong_positions() -> Iterator[tuple[str, Board]]:
    for game in strong_games():
        for plies in range(8, len(game.turns), 9):
            yield f"strong game line {game.lineno}, turn {plies}", position_after(game, plies)


def long_random_positions(games: int, seed: int) -> Iterator[tuple[str, Board]]:
    rng = random.Random(seed)
    for number in range(games):
        board = Board()
        while board.outcome() is None and len(board.move_stack) < 400:
            moves = list(board.legal_moves)
            quiet = [m for m in moves if m.remove is None]
            least = min(
                board.occupied_co(c).bit_count() + board.pieces_in_hand(c) for c in (True, False)
            )
            # Removals are rare, so games run long; a side down to three never removes.
            take_quiet = quiet and (least <= 3 or rng.random() < 0.9)
            board.push(rng.choice(quiet if take_quiet else moves))
            plies = len(board.move_stack)
            if plies > 120 and plies % 7 == 0 and board.outcome() is None:
                yield f"random game {number} (seed {seed}), turn {plies}", board.copy()


class _Failures(logging.Handler):
    """The client's "failed ...; restarting it once" warnings: a wrong answer it recovered from."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if "failed" in record.getMessage():
            self.messages.append(record.getMessage())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sanmill", help="the Sanmill console engine binary")
    parser.add_argument("--games", type=int, default=40, help="random games (default 40)")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--movetime", type=int, default=20, help="ms per answer (default 20)")
    args = parser.parse_args()
    command = [sys.executable, str(ADAPTER), args.sanmill]
    checked = wrong = 0
    failures = _Failures()
    logging.getLogger("morris.engine.client").addHandler(failures)
    with UciEngine.spawn(command, timeout=30) as sanmill:
        positions = [*strong_positions(), *long_random_positions(args.games, args.seed)]
        for name, board in positions:
            checked += 1
            failures.messages.clear()
            try:
                move = sanmill.play(board, movetime=args.movetime / 1000).move
                problem = None if board.is_legal(move) else f"illegal answer {move}"
            except ExternalEngineError as exc:
                problem = str(exc)
            if problem is None and failures.messages:
                problem = f"right only after a restart: {failures.messages[0]}"
            if problem is not None:
                wrong += 1
                moves = " ".join(str(m) for m in board.move_stack)
                print(f"WRONG {name}: {problem}\n  {board.position()}\n  moves: {moves}")
            sys.stdout.flush()
    print(f"{checked} positions, {wrong} answered wrongly")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
