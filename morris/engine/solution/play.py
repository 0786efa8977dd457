"""Play from the solution: the turn the engine plays (levels with tables) wherever a solved
sector covers the position and all its turns, the believable mistakes of the lower levels, and
the value a front end may show.

From a won position it takes a turn to the other side's LOSS(d - 1) (the fastest win; the distance
falls each turn, so no position repeats and the game ends within d turns); from a drawn one a
turn that keeps the draw, at the top levels the one that leaves the other side the largest share of
losing replies (:func:`drawing_traps`: a draw is hard to hold); from a lost one the slowest loss.

The solution knows no draw rules, and a fastest win can run into the no-removal limit (RULES.md,
point 8: only moves count, so only the moving phase). Where the removal distances are built for
the game's limit (:mod:`~morris.engine.solution.removals`), a turn to a moving-phase position
that the rule draws counts as a draw (:func:`scored_turns`), so the engine keeps a win within the
rule and takes a draw the rule offers from a lost position; while placing, the placing
sectors' values under the rule do the same (the count is 0 until the moving phase, so a placing
position's value under the rule is exact; where they are not built, a search to the moving phase
with a few pieces in hand). Where the turns left before the
limit are fewer than the distance to the end, it hurries to the next removal: of the winning
turns one with the shortest distance to a removal (ties: the fastest win). From a count ``c`` and
removal distance ``r`` with ``c + r <= limit`` this wins within the rule, and no position
repeats: while it hurries the removal distance falls each turn, while it plays the fastest win
the distance to the end does, and a position seen while hurrying (``c + d > limit``) cannot come
back when the fastest win is played (``c' + d <= limit`` with ``c' > c``). The value shown
(:func:`known_value`) is the one under the rule where it is known, else the solution's only
where the rule cannot overturn it.

Below the levels with tables the engine slips now and then (:func:`believable_turn`): with the
probability :data:`SLIP` of its level it plays a turn one value class worse (a win given away
for a draw, a draw for a loss), the one whose punishment is furthest away, as a person misses
what is deep rather than what is plain; else it plays as the top levels do.
"""

from __future__ import annotations

import random
from typing import Final, NamedTuple

from morris.core.board import Board
from morris.core.moves import Move
from morris.core.rules import STANDARD, Rules
from morris.core.variant import engine_rules
from morris.engine.levels import LEVELS
from morris.engine.result import Result, Value
from morris.engine.solution.analyse import sector_of, turn_values, value_of
from morris.engine.solution.probe import Solution


class Trap(NamedTuple):
    """What a drawing turn leaves the other side (:func:`trap_of`); a larger one tempts more."""

    losing_share: float
    """The share of the other side's replies that lose."""
    depth: float
    """The mean turns (plies) to the end of those losing replies."""


#: The chance that a level below the tables' plays a believable mistake where the solution
#: covers the position, by level: the level's own :attr:`~morris.engine.levels.Level.slip`, the
#: same chance as its plain slips while searching (level 6 never slips: it plays the solution as
#: level 7 does).
SLIP: Final[dict[int, float]] = {n: lv.slip for n, lv in LEVELS.items() if not lv.tables}

_SIGN: Final = {Value.LOSS: -1, Value.DRAW: 0, Value.WIN: 1}
_VALUE_OF: Final = {-1: Value.LOSS, 0: Value.DRAW, 1: Value.WIN}
#: While placing, the pieces left in hand (both sides) up to which a turn's value under the
#: no-removal rule is found by a search to the moving phase (:func:`placing_rule_value`), and
#: the positions such a search may visit: a few thousand with three in hand on 6 men's boards.
PLACING_SEARCH: Final = 3
PLACING_NODES: Final = 20_000


def solved_rules(rules: Rules) -> bool:
    """Whether the solution's game is played under ``rules``: the standard board and mills on
    all 24 points, flying, nothing else changed (the draw rules and the number of pieces aside:
    a sector says how many pieces are on the board and in hand)."""
    return (
        rules.same_board(STANDARD)
        and rules.points_in_play == STANDARD.points_in_play
        and rules.flying
        and not rules.move_while_placing
        and not rules.return_mill_barred
        and not rules.remove_from_mills
        and not rules.double_mill_removes_two
        and not rules.full_board_is_draw
    )


def covered(solution: Solution, board: Board) -> bool:
    """Whether the solution holds the position on ``board`` under its rules."""
    if not solved_rules(engine_rules(board)):
        return False
    return solution.covers(sector_of(board)[0])


def rules_apply(solution: Solution, board: Board) -> bool:
    """Whether the solution's removal distances are for the board's no-removal limit."""
    limit = board.no_removal_limit
    return limit is not None and solution.removal_limit == limit


def rule_value(solution: Solution, board: Board) -> Result | None:
    """The value of a moving-phase position under the no-removal rule at its count, with its
    distance to the next removal (a DRAW where the rule draws a win or a loss of the solution);
    None where it is not known (while placing, or the removal distances are not built or are
    for another limit)."""
    if board.outcome() is not None or not rules_apply(solution, board):
        return None
    key, mover, other = sector_of(board)
    if key.placing:
        return None
    found = solution.removal_result(key, mover, other)
    if found is None or found.value is Value.DRAW:
        return found
    limit = board.no_removal_limit
    if limit is not None and board.no_removal_count + (found.distance or 0) > limit:
        return Result(Value.DRAW, 0)
    return found


def placing_rule_value(
    solution: Solution, board: Board, max_nodes: int = PLACING_NODES
) -> Value | None:
    """The value under the no-removal rule of a placing-phase position: a search over the
    placements left down to the moving phase, whose positions have their value under the rule
    at a count of 0 (:func:`rule_value`; placements are not counted, so the count is 0 there).
    None where the removal distances do not apply, a sector is not loaded, or the search would
    visit more than ``max_nodes`` positions."""
    if not rules_apply(solution, board):
        return None
    seen: dict[str, int] = {}
    nodes = 0

    def search() -> int | None:  # 1 won, 0 drawn, -1 lost for the side to move
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            return None
        outcome = board.outcome()
        if outcome is not None:
            return 0 if outcome.winner is None else 1 if outcome.winner == board.turn else -1
        if not sector_of(board)[0].placing:
            rule = rule_value(solution, board)
            return None if rule is None else _SIGN[rule.value]
        position = board.position()
        if position in seen:
            return seen[position]
        best = -1
        for move in list(board.legal_moves):
            board.push(move)
            try:
                child = search()
            finally:
                board.pop()
            if child is None:
                return None
            best = max(best, -child)
            if best == 1:
                break
        seen[position] = best
        return best

    found = search()
    return None if found is None else _VALUE_OF[found]


def turn_removal_distance(solution: Solution, board: Board, move: Move) -> int | None:
    """The turns to the next removal if ``move`` is played on ``board``, it counted: 1 for a
    turn that removes or ends the game; None where it is not known."""
    if move.remove is not None:
        return 1
    board.push(move)
    try:
        if board.outcome() is not None:
            return 1
        after = rule_value(solution, board)
    finally:
        board.pop()
    return None if after is None else (after.distance or 0) + 1


def known_value(solution: Solution, board: Board) -> Result | None:
    """The value of the position on ``board`` for the side to move where the solution covers it
    and the draw rules cannot overturn it; else None. A finished game under the solution's rules
    has its result (distance 0).

    In the moving phase, where the removal distances are built for the board's no-removal limit,
    it is the value under the rule (a DRAW where the rule draws the solution's win or loss),
    with the solution's distance to the end when that fits before the limit (else None: the
    winner must hurry to its removals, and the game takes longer). While placing, where the
    values under the rule are built, a DRAW where they draw the solution's win or loss, else the
    solution's value (with its distance where the end comes before the limit). Elsewhere the
    solution's value where its end comes before the limit, or, while placing, where the rule
    draws no position of the solution (:attr:`Solution.rule_drawn` is 0), with no distance; with
    a few pieces left in hand a draw where a search to the moving phase finds the rule draws
    it."""
    if not solved_rules(engine_rules(board)):
        return None
    if board.outcome() is None and not solution.covers(sector_of(board)[0]):
        return None
    result = value_of(solution, board)
    limit = board.no_removal_limit
    if result is None or result.value is Value.DRAW or limit is None:
        return result
    distance = result.distance or 0
    count = board.no_removal_count
    fits = board.outcome() is not None or count + distance < limit
    rule = rule_value(solution, board)
    if rule is not None:
        if rule.value is Value.DRAW:
            return rule
        return result if fits else Result(result.value, None)
    placing = placing_rule(solution, board)  # while placing, by the values under the rule
    if placing is Value.DRAW or (placing is None and _rule_draws(solution, board)):
        return Result(Value.DRAW, 0)  # (without them, a search with a few in hand)
    if fits:
        return result
    if placing is not None:  # decided under the rule: the solution's value
        return Result(result.value, None)
    if sector_of(board)[0].placing and rules_apply(solution, board) and solution.rule_drawn == 0:
        return Result(result.value, None)
    return None


def scored_turns(solution: Solution, board: Board) -> list[tuple[Move, Result]] | None:
    """Every turn with its result, or None where the solution does not vouch for all of them.
    Where the removal distances apply, a turn to a position the no-removal rule draws is a DRAW:
    a moving-phase position by its removal distance, a placing-phase one by its sector's values
    under the rule, or where they are not built, with at most :data:`PLACING_SEARCH` pieces left
    in hand, by a search to the moving phase."""
    if board.outcome() is not None or not covered(solution, board):
        return None
    scored = turn_values(solution, board)
    if not scored or any(r is None for _, r in scored):
        return None
    out = [(m, r) for m, r in scored if r is not None]
    if not rules_apply(solution, board):
        return out
    for i, (move, result) in enumerate(out):
        if result.value is Value.DRAW:
            continue
        board.push(move)
        try:
            drawn = _rule_draws(solution, board)
        finally:
            board.pop()
        if drawn:
            out[i] = (move, Result(Value.DRAW, 0))
    return out


def placing_rule(solution: Solution, board: Board) -> Value | None:
    """The value under the no-removal rule of a placing-phase position from its sector's values
    under the rule (:meth:`Solution.placing_rule_value`); None where they are not built or are
    for another limit, or the count is not 0 (placements are not counted: in a game it is 0
    until the moving phase, which the values under the rule start from)."""
    if board.outcome() is not None or not rules_apply(solution, board):
        return None
    key, mover, other = sector_of(board)
    if not key.placing or board.no_removal_count != 0:
        return None
    return solution.placing_rule_value(key, mover, other)


def _rule_draws(solution: Solution, board: Board) -> bool:
    """Whether the no-removal rule draws the (won or lost) position on ``board``, as far as it
    is known: in the moving phase by its removal distance, while placing by the values under the
    rule, or where they are not built, with a few pieces in hand, by a search to the moving
    phase."""
    if board.outcome() is not None:
        return False
    if not sector_of(board)[0].placing:
        rule = rule_value(solution, board)
        return rule is not None and rule.value is Value.DRAW
    found = placing_rule(solution, board)
    if found is not None:
        return found is Value.DRAW
    if board.pieces_in_hand(True) + board.pieces_in_hand(False) > PLACING_SEARCH:
        return False
    return placing_rule_value(solution, board) is Value.DRAW


def perfect_turn(
    solution: Solution, board: Board, rng: random.Random, *, traps: bool = False
) -> tuple[Move, Result] | None:
    """A turn that keeps the value of the position (ties broken by ``rng``), with its result for
    the side to move; None where the solution does not cover the position and all its turns.
    With ``traps``, of several turns that keep a draw the one that sets the other side the most
    traps (:func:`drawing_traps`)."""
    results = scored_turns(solution, board)
    if results is None:
        return None
    best = max(r.rank() for _, r in results)
    choices = [(m, r) for m, r in results if r.rank() == best]
    if traps and len(choices) > 1 and choices[0][1].value is Value.DRAW:
        choices = drawing_traps(solution, board, choices)
    limit = board.no_removal_limit
    distance = choices[0][1].distance
    if (
        choices[0][1].value is Value.WIN
        and limit is not None
        and distance is not None
        and board.no_removal_count + distance > limit
        and not sector_of(board)[0].placing
    ):
        hurried = _hurried(solution, board, [(m, r) for m, r in results if r.value is Value.WIN])
        if hurried is not None:
            choices = hurried
    return choices[rng.randrange(len(choices))]


def trap_of(solution: Solution, board: Board, move: Move) -> Trap | None:
    """How ``move`` (a turn that keeps a draw) tempts the other side: the share of its replies
    that lose by the solution (the draw rules counted, as :func:`scored_turns` counts them), and
    the mean turns to the end of those losing replies (the further, the harder a loss is to
    see). None where the solution does not vouch for every reply."""
    board.push(move)
    try:
        if board.outcome() is not None:
            return Trap(0.0, 0.0)
        replies = scored_turns(solution, board)
    finally:
        board.pop()
    if not replies:
        return None
    losing = [r.distance or 0 for _, r in replies if r.value is Value.LOSS]
    if not losing:
        return Trap(0.0, 0.0)
    return Trap(len(losing) / len(replies), sum(losing) / len(losing))


def drawing_traps(
    solution: Solution, board: Board, draws: list[tuple[Move, Result]]
) -> list[tuple[Move, Result]]:
    """Of several turns that keep a draw, those that leave a fallible player on the other side
    the most ways to go wrong (the idea of Gévay and Danner's "ultra-strong" solution): the
    largest share of losing replies (:func:`trap_of`), then the losing replies furthest from
    their end (a person, or a shallow search, misses what is deep). All of ``draws`` where a
    turn's replies are not all vouched for."""
    scored: list[tuple[Trap, Move, Result]] = []
    for move, result in draws:
        trap = trap_of(solution, board, move)
        if trap is None:
            return draws
        scored.append((trap, move, result))
    best = max(t for t, _, _ in scored)
    return [(m, r) for t, m, r in scored if t == best]


def _hurried(
    solution: Solution, board: Board, wins: list[tuple[Move, Result]]
) -> list[tuple[Move, Result]] | None:
    """Of the winning turns, those with the shortest distance to a removal (it counted), the
    fastest wins among them; None where the removal distances do not apply."""
    scored = []
    for move, result in wins:
        distance = turn_removal_distance(solution, board, move)
        if distance is None:
            return None
        scored.append((distance, move, result))
    shortest = min(s for s, _, _ in scored)
    fastest = max(r.rank() for s, _, r in scored if s == shortest)
    return [(m, r) for s, m, r in scored if s == shortest and r.rank() == fastest]


def believable_turn(
    solution: Solution, board: Board, level: int, rng: random.Random
) -> tuple[Move, Result] | None:
    """The turn of a level below the tables' where the solution covers the position: with
    probability :data:`SLIP` [level] a turn one value class worse than the best, the one whose
    end is furthest away (ties by ``rng``), if there is one; else :func:`perfect_turn`. None where
    the solution does not cover the position and all its turns (the search then decides)."""
    results = scored_turns(solution, board)
    if results is None:
        return None
    if rng.random() < SLIP.get(level, 0.0):
        top = max(r.worth for _, r in results)
        worse = [(m, r) for m, r in results if r.worth == top - 1]
        if worse:
            far = max(r.distance or 0 for _, r in worse)
            choices = [(m, r) for m, r in worse if (r.distance or 0) == far]
            return choices[rng.randrange(len(choices))]
    return perfect_turn(solution, board, rng)


__all__ = [
    "SLIP",
    "Trap",
    "believable_turn",
    "covered",
    "drawing_traps",
    "known_value",
    "perfect_turn",
    "placing_rule",
    "placing_rule_value",
    "rule_value",
    "rules_apply",
    "solved_rules",
    "trap_of",
    "turn_removal_distance",
]
