"""A teacher for the placing phase's evaluation: deep searches of the late placing positions of
recorded games, and the placing weights that predict them best.

    python benchmarks/placing_teacher.py GAMES... [--plies 13-17] [--nodes 4000000] [--jobs 2]
                                         [--labels FILE] [--holdout 0.25] [--seed 1]
    python benchmarks/placing_teacher.py GAMES... --results [--plies 9-17]

GAMES are game records of the standard game, files or folders of them (what `sanmill_match.py
--out` saves, one game a file, or files of several games). Every position at the plies given
(both sides to move, each position once) is searched by the top level to ``--nodes`` nodes: at
4,000,000, about a second, a search from the last placements reaches some ten plies into the
moving phase, where blockades and mills decide, and its score is the label. The static
evaluation is what the search sees at its leaves while placing, and beyond its horizon it cannot
see what a placement costs once the moving begins: the teacher can. ``--labels FILE`` keeps the
labels (JSON lines) and reads them back instead of searching again.

Then the placing terms of :class:`~morris.engine.evaluate.Weights` are fitted to the labels by
least squares, each term read off the evaluation itself (one weight set to 1, the others to 0),
so a fitted weight is that field of ``Weights`` exactly. The deep score values a piece at more
than :data:`~morris.engine.evaluate.PIECE` (a piece up is also steps and mills up), so weights
are printed per piece = 100, each with its bootstrap spread, beside the present weights; then
the held-out error of the present weights (scaled to the labels by the best factor) and of the
fitted ones. docs/ENGINE.md ("A teacher for the placing phase") has a run, and the matches that
tried its weights.

``--results`` takes the games' results as the teacher instead (no search): each position at the
plies given, in every game it occurs in, is labelled 1, 0 or -1 for a win, draw or loss of the
side to move. A result sees to the end of the game, past any search, but it is one noisy number
a game, and the positions of a game share it: the held-out share and the bootstrap samples are
then drawn by whole games.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, fields, replace
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from morris.core.board import Board  # noqa: E402
from morris.core.record import GameRecordError, read_games  # noqa: E402
from morris.core.variant import engine_rules  # noqa: E402
from morris.engine.engine import Engine  # noqa: E402
from morris.engine.evaluate import PIECE, WEIGHTS, Weights, make_evaluator  # noqa: E402
from morris.engine.search import MATE_BOUND  # noqa: E402

#: The terms of the placing phase, by their field in Weights.
PLACING_TERMS = (
    "open_two",
    "open_two_per_hand",
    "close_one",
    "close_more",
    "closings_against",
    "placing_mobility",
    "placing_blocked",
    "point_link",
    "point_cross",
    "placing_one_exit",
    "placing_tempo",
)

#: Labels beyond this many pieces are clipped: a won position is won, by any margin.
CLIP = 6 * PIECE


def _record_files(paths: list[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.iterdir() if p.is_file())
        else:
            yield path


def _walk(paths: list[Path], lo: int, hi: int) -> Iterator[tuple[int, str, Board]]:
    """Each game's number, its result (``1-0``, ``0-1``, ``1/2-1/2`` or ``*``) and its board at
    each of its positions at plies ``lo``..``hi`` (the same board, turns pushed on it between
    yields), for the standard games in ``paths`` that start from the empty board."""
    number = 0
    for path in _record_files(paths):
        try:
            games = read_games(path.read_text(encoding="utf-8"))
        except (GameRecordError, UnicodeDecodeError) as exc:
            print(f"skipped {path}: {exc}", file=sys.stderr)
            continue
        for game in games:
            board = game.start_board()
            if board.rules.name != "standard" or board.move_stack:
                continue
            number += 1
            for move in [*game.moves, None]:  # None: the position after the last turn
                ply = len(board.move_stack)
                if ply > hi or board.outcome() is not None:
                    break
                if ply >= lo:
                    yield number, game.result, board
                if move is None:
                    break
                board.push(move)


def positions(paths: list[Path], lo: int, hi: int) -> list[list[str]]:
    """The turns leading to each position at plies ``lo``..``hi`` of the standard games in
    ``paths``, each position once, in the order met."""
    seen: set[str] = set()
    out: list[list[str]] = []
    for _, _, board in _walk(paths, lo, hi):
        if (key := board.position()) not in seen:
            seen.add(key)
            out.append([str(m) for m in board.move_stack])
    return out


#: A game's result for the side to move, by its result and whether white is to move.
_RESULTS = {("1-0", True): 1, ("1-0", False): -1, ("0-1", True): -1, ("0-1", False): 1}


def result_rows(paths: list[Path], lo: int, hi: int) -> list[dict]:
    """Rows for the fit as :func:`labels` gives them, with the game's result as the score: 1
    for a win of the side to move, 0 for a draw, -1 for a loss (games without a result are left
    out), and the game's number. A position met in several games is a row of each."""
    out: list[dict] = []
    for number, result, board in _walk(paths, lo, hi):
        if result == "*":
            continue
        score = _RESULTS.get((result, board.turn), 0)
        out.append({"turns": [str(m) for m in board.move_stack], "score": score, "game": number})
    return out


def _label(job: tuple[list[str], int]) -> dict[str, object]:
    turns, nodes = job
    board = Board()
    for turn in turns:
        board.push_notation(turn)
    result = Engine(9).play(board, nodes=nodes)
    return {"turns": turns, "score": result.score, "depth": result.depth}


def labels(turns: list[list[str]], nodes: int, jobs: int, cache: Path | None) -> list[dict]:
    """Each position's deep score (the side to move's), from ``cache`` where it holds one."""
    known: dict[str, dict] = {}
    if cache is not None and cache.exists():
        for line in cache.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            known[" ".join(row["turns"])] = row
    todo = [t for t in turns if " ".join(t) not in known]
    print(f"{len(turns)} positions, {len(todo)} to search at {nodes} nodes", file=sys.stderr)
    start = time.monotonic()
    with ProcessPoolExecutor(jobs) as pool:
        out = cache.open("a", encoding="utf-8") if cache is not None else None
        try:
            for i, row in enumerate(pool.map(_label, [(t, nodes) for t in todo], chunksize=8)):
                known[" ".join(row["turns"])] = row  # type: ignore[arg-type]
                if out is not None:
                    out.write(json.dumps(row) + "\n")
                if i % 200 == 199:
                    print(f"  {i + 1} in {time.monotonic() - start:.0f} s", file=sys.stderr)
        finally:
            if out is not None:
                out.close()
    return [known[" ".join(t)] for t in turns]


def features(
    rows: list[dict], present: Weights = WEIGHTS
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The material and each placing term of every position (read off the evaluation with that
    term's weight alone set to 1), the labels, and the evaluation with ``present``."""
    rules = engine_rules(Board())
    zero = replace(WEIGHTS, **{f.name: 0 for f in fields(Weights)})
    term_evals = [make_evaluator(rules, replace(zero, **{t: 1})) for t in PLACING_TERMS]
    material = make_evaluator(rules, zero)
    evaluate = make_evaluator(rules, present)
    x, y, now = [], [], []
    for row in rows:
        board = Board()
        for turn in row["turns"]:
            board.push_notation(turn)
        c = board.turn
        args = (
            board.occupied_co(c),
            board.occupied_co(not c),
            board.pieces_in_hand(c),
            board.pieces_in_hand(not c),
        )
        base = material(*args)
        x.append([base / PIECE] + [e(*args) - base for e in term_evals])
        y.append(max(-CLIP, min(CLIP, int(row["score"]))))
        now.append(evaluate(*args))
    return np.array(x, float), np.array(y, float), np.array(now, float)


@dataclass(frozen=True)
class Fit:
    """The fitted placing weights, per piece = 100."""

    #: What a piece is worth in the labels' units (the fitted material weight).
    piece: float
    #: Each term of PLACING_TERMS: its fitted weight and the bootstrap spread of it.
    weights: dict[str, tuple[float, float]]
    #: Held-out root-mean-square errors: the present weights (scaled by the best factor)...
    present_error: float
    #: ... and the fitted ones.
    fitted_error: float
    #: The rows held out (whole games when the fit was given groups).
    held_out: int


def fit(
    x: np.ndarray,
    y: np.ndarray,
    now: np.ndarray,
    holdout: float,
    seed: int,
    groups: np.ndarray | None = None,
) -> Fit:
    """Least squares of ``y`` on ``x`` on all but a seeded ``holdout`` share, measured on it.
    With ``groups`` (a game's number for each row: rows of one game share its result) the
    share held out and the bootstrap samples are drawn by group, not by row."""
    rng = np.random.default_rng(seed)
    if groups is None:
        groups = np.arange(len(y))
    # Each group's rows in their order, by one stable sort (not a scan of all rows per group).
    order = np.argsort(groups, kind="stable")
    names, starts = np.unique(groups[order], return_index=True)
    rows = dict(zip(names, np.split(order, starts[1:]), strict=True))
    cut = int(len(names) * holdout)
    shuffled = rng.permutation(names)
    test = np.concatenate([rows[g] for g in shuffled[:cut]] or [np.zeros(0, int)])
    train = np.concatenate([rows[g] for g in shuffled[cut:]])
    w, *_ = np.linalg.lstsq(x[train], y[train], rcond=None)
    scale = float(now[train] @ y[train] / (now[train] @ now[train]))
    boot = []
    for _ in range(200):
        s = np.concatenate([rows[g] for g in rng.choice(names, len(names))])
        bw, *_ = np.linalg.lstsq(x[s], y[s], rcond=None)
        boot.append(100 * bw / bw[0])
    spread = np.std(boot, axis=0)

    def rmse(pred: np.ndarray) -> float:
        return float(np.sqrt(np.mean((pred - y[test]) ** 2)))

    return Fit(
        piece=float(w[0]),
        weights={
            term: (float(100 * w[i] / w[0]), float(spread[i]))
            for i, term in enumerate(PLACING_TERMS, start=1)
        },
        present_error=rmse(scale * now[test]),
        fitted_error=rmse(x[test] @ w),
        held_out=len(test),
    )


def report(result: Fit, n: int) -> str:
    """The fit as a table beside the present weights."""
    lines = [
        f"positions {n} (held out {result.held_out}), "
        f"a piece is worth {result.piece:.3g} in the labels' units",
        f"{'term':<18}{'now':>6}{'fitted':>8}{'spread':>8}",
    ]
    for term, (weight, spread) in result.weights.items():
        lines.append(f"{term:<18}{getattr(WEIGHTS, term):>6}{weight:>8.1f}{spread:>8.1f}")
    lines.append(
        f"held-out error: present weights {result.present_error:.1f}, "
        f"fitted {result.fitted_error:.1f}"
    )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="+", type=Path, help="game records, files or folders")
    parser.add_argument("--plies", default="13-17", help="the plies to take positions at")
    parser.add_argument("--nodes", type=int, default=4_000_000, help="the teacher's search")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--labels", type=Path, default=None, help="keep the labels here")
    parser.add_argument("--holdout", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--results", action="store_true",
        help="label each position with its game's result (1, 0, -1) instead of a search",
    )  # fmt: skip
    args = parser.parse_args()
    try:
        lo, hi = (int(p) for p in args.plies.split("-"))
    except ValueError:
        parser.error(f"--plies: {args.plies!r} is not FIRST-LAST, as 13-17")
    if not 0 <= lo <= hi:
        parser.error(f"--plies: {args.plies!r} is not FIRST-LAST, as 13-17")
    missing = [str(p) for p in args.games if not p.exists()]
    if missing:
        parser.error(f"no such file or folder: {', '.join(missing)}")
    if args.results:
        rows = result_rows(args.games, lo, hi)
    else:
        rows = labels(positions(args.games, lo, hi), args.nodes, args.jobs, args.labels)
        rows = [r for r in rows if abs(int(r["score"])) < MATE_BOUND]
    placing = [r for r in rows if len(r["turns"]) < 18]  # the standard game places 18
    if len(placing) < 4 * len(PLACING_TERMS):
        print(f"too few placing positions to fit ({len(placing)})", file=sys.stderr)
        return 2
    x, y, now = features(placing)
    groups = np.array([r["game"] for r in placing]) if args.results else None
    print(report(fit(x, y, now, args.holdout, args.seed, groups), len(placing)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
