"""The static evaluation, for the side to move, in centi-pieces (a piece is :data:`PIECE`).

Terms (each for the side to move minus the same for the opponent):

- material: pieces on the board plus pieces in hand;
- placing phase: open twos (two pieces of a mill and the third point empty), a bonus when the side
  to move can close a mill at once (it will), a malus when the opponent has two closing points
  (only one can be blocked), mobility, blocked pieces, well-linked points held (a cross point
  over a corner), and three terms at 0 in the engine's weights: pieces with one way out, the
  tempo of the side to move and an open two's growth as the hands empty;
- moving phase: mobility (empty neighbours), blocked pieces, a near-win bonus when the opponent has
  no move at all, threats (an open two whose empty point one of our other pieces can reach next
  turn), running mills (a piece of a closed mill that can step out to close another: a mill every
  turn) and open mills (a closed mill with a piece free to step out and back).

Flying sides have no mobility terms and every open two is a threat for them. Only the points in
play count (six men's morris plays on 16).

The weights are the variant's (:func:`weights_for`): :data:`WEIGHTS` for the standard game, and
for the variants on other boards or with other piece counts the weights that measured best there
(:data:`VARIANT_WEIGHTS`, docs/ENGINE.md "Variants").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Final

from morris.core.points import NUM_POINTS
from morris.core.rules import Rules

#: The value of a piece.
PIECE: Final = 100


@dataclass(frozen=True)
class Weights:
    """The weights of the evaluation's terms, in centi-pieces, for the side to move.

    Tuned against Sanmill (docs/ENGINE.md, "Tuning against Sanmill"); the placing weights that
    benchmarks/placing_teacher.py fitted to deep searches and to game results were tried and not
    kept ("A teacher for the placing phase", "Open twos weighed again"), so the terms added for
    it weigh nothing. The one source of these numbers: the C evaluation
    (morris/engine/native/evaluate.c) is given them at import (search.py configures it).
    """

    #: Placing: each open two (two pieces of a mill, the third point empty)...
    open_two: int = 14
    #: ... plus this for each piece still in hand, both sides' (negative: an open two made
    #: early is easily blocked, one that is still open when the moving begins is a mill to come).
    open_two_per_hand: int = 0
    #: Placing, with pieces in hand: we can close a mill at one point (we will)...
    close_one: int = 70
    #: ... or at two points or more.
    close_more: int = 85
    #: Placing: the opponent, with pieces in hand, has two closing points or more.
    closings_against: int = 45
    #: Placing: each free step of a piece.
    placing_mobility: int = 8
    #: Placing: each piece that cannot step.
    placing_blocked: int = 20
    #: Placing: each held point with a third link (a T-point or a cross point)...
    point_link: int = 10
    #: ... and each link beyond three (a cross point's fourth).
    point_cross: int = 10
    #: Placing: each piece with exactly one free step (one placement from being stuck).
    placing_one_exit: int = 0
    #: Placing: being the side to move (the next placement is ours).
    placing_tempo: int = 0
    #: Moving: the opponent has no move at all (unless our move frees them).
    opponent_blocked: int = 3 * PIECE
    #: Moving: each free step of a piece.
    moving_mobility: int = 12
    #: Moving: each piece that cannot step.
    moving_blocked: int = 20
    #: Moving: each piece of a closed mill that can step out, and each mill it reopens, x3.
    running_mill: int = 12
    #: Moving: having a threat (an open two our other pieces can close next turn) at all...
    threat: int = 60
    #: ... and each threat.
    per_threat: int = 10
    #: Moving: each threat of the opponent...
    per_threat_against: int = 10
    #: ... and more than one of them.
    threats_against: int = 40
    #: Not a term of the evaluation but of the search: what a draw (repetition, the no-removal
    #: limit, a full board, a drawn table position) costs the engine, the side to move at the
    #: root; the opponent's draws gain it as much. 0: a draw is worth a level position.
    contempt: int = 0
    #: Not a term either but of the search: 1 reduces late placements by more plies the deeper
    #: the search and the later the turn (search.py, _PLACING_REDUCTIONS); 0 by one ply, as
    #: while moving (docs/ENGINE.md, "Deeper while placing").
    placing_reductions: int = 1
    #: Not a term either but of the search: where the endgame tables or the solved game call a
    #: position drawn, it scores the draw's value plus a quarter of the evaluation, within
    #: plus or minus this; 0: the draw's value alone. Among drawn lines the search then keeps
    #: to the one the evaluation likes, where an opponent that errs may still lose (docs/ENGINE.md,
    #: "The solved game inside the search"). The engine sets it with ``solved_search``.
    solved_draw: int = 0


#: The weights the engine plays the standard game with (and any variant not in VARIANT_WEIGHTS).
WEIGHTS: Final = Weights()

#: The weights of the variants whose own weights measured better than :data:`WEIGHTS`, by
#: variant name (docs/ENGINE.md, "Variants": the matches that chose them). Six and twelve men's
#: morris are drawn often (a blockade, a repetition, twelve's full board): without contempt the
#: top level let a greedy player hold a draw there; with it, it won every game, at a cost within
#: the noise against itself; Morabaraba needed 100 once mill turns were ordered. No other weight
#: beat the standard game's in any variant.
VARIANT_WEIGHTS: Final[Mapping[str, Weights]] = {
    "six": replace(WEIGHTS, contempt=50),
    # Morabaraba: with mill turns ordered ("Removals ordered") a greedy player held a threefold
    # repetition against the top level in one game of six at 100 000 nodes; 50 did not win it.
    "morabaraba": replace(WEIGHTS, contempt=100),
    # Twelve men's morris keeps one ply's reduction while placing: with the deeper ones a greedy
    # player held a full-board draw against the top level (one game of six at 100 000 nodes).
    "twelve": replace(WEIGHTS, contempt=50, placing_reductions=0),
}


def weights_for(rules: Rules) -> Weights:
    """The evaluation's weights for the variant of ``rules`` (its settings do not matter)."""
    return VARIANT_WEIGHTS.get(rules.name, WEIGHTS)


Evaluator = Callable[[int, int, int, int], int]


def _cross_mask(neighbours: tuple[int, ...]) -> int:
    """The points with a link to the same position on the next ring, on both ends of the link."""
    inner = sum(1 << p for p in range(16) if neighbours[p] >> (p + 8) & 1)
    return inner | inner << 8


def _ring_neighbours(cross: int) -> tuple[int, ...]:
    """The neighbour masks of a three-ring board whose rings are linked at the points of
    ``cross``: each point's ring neighbours plus, where linked, the same position inside and out.
    The standard and the diagonal boards are such boards."""
    out: list[int] = []
    for p in range(24):
        ring, pos = divmod(p, 8)
        mask = 1 << (ring * 8 + (pos + 1) % 8) | 1 << (ring * 8 + (pos - 1) % 8)
        if cross >> p & 1:
            if ring > 0:
                mask |= 1 << (p - 8)
            if ring < 2:
                mask |= 1 << (p + 8)
        out.append(mask)
    return tuple(out)


def mobility_counter(neighbours: tuple[int, ...]) -> Callable[[int, int], tuple[int, int, int]]:
    """A fast ``mobility(side, empty)``: the free steps of ``side``'s pieces, how many of its
    pieces cannot step and how many have exactly one free step, on a board with these neighbour
    masks."""
    cross = _cross_mask(neighbours)
    if neighbours == _ring_neighbours(cross):

        def shifted(side: int, empty: int) -> tuple[int, int, int]:
            # Bit-parallel: a point's neighbours are the points before and after it on its ring
            # and, at the linked positions, the same position on the rings outside and inside.
            before = side & ((empty << 1) & 0xFEFEFE | (empty >> 7) & 0x010101)
            after = side & ((empty >> 1) & 0x7F7F7F | (empty << 7) & 0x808080)
            outside = side & (empty << 8) & cross
            inside = side & (empty >> 8) & cross
            free = before | after | outside | inside
            two = before & after | (before | after) & (outside | inside) | outside & inside
            return (
                before.bit_count() + after.bit_count() + outside.bit_count() + inside.bit_count(),
                (side & ~free).bit_count(),
                (free & ~two).bit_count(),
            )

        return shifted

    def looped(side: int, empty: int) -> tuple[int, int, int]:
        steps = blocked = single = 0
        while side:
            low = side & -side
            side ^= low
            n = (neighbours[low.bit_length() - 1] & empty).bit_count()
            steps += n
            if n == 0:
                blocked += 1
            elif n == 1:
                single += 1
        return steps, blocked, single

    return looped


def point_layers(neighbours: tuple[int, ...]) -> tuple[int, ...]:
    """Point weights for placing, a point's links beyond two (a corner 0, a T-point 1, a cross
    point 2), as layers: layer k holds the points with at least 2 + k links (empty ones left out).
    A side's pieces on the first layer count ``point_link`` each, on each further layer
    ``point_cross``."""
    return tuple(
        mask
        for k in range(1, 5)
        if (mask := sum(1 << p for p in range(NUM_POINTS) if neighbours[p].bit_count() >= 2 + k))
    )


def make_evaluator(rules: Rules, weights: Weights | None = None) -> Evaluator:
    """A fast ``evaluate(us, them, us_hand, them_hand)`` for ``rules``, with ``weights`` or else
    its variant's (:func:`weights_for`)."""
    if weights is None:
        weights = weights_for(rules)
    masks = rules.mill_masks
    nb = rules.neighbours
    flying = rules.flying
    everything = rules.points_in_play
    # The weights as plain locals of the closure: read once, not as attributes at every call.
    open_two, close_one, close_more = weights.open_two, weights.close_one, weights.close_more
    open_two_per_hand = weights.open_two_per_hand
    closings_against, point_link = weights.closings_against, weights.point_link
    point_cross, placing_tempo = weights.point_cross, weights.placing_tempo
    placing_one_exit = weights.placing_one_exit
    placing_mobility, placing_blocked = weights.placing_mobility, weights.placing_blocked
    opponent_blocked, running_mill = weights.opponent_blocked, weights.running_mill
    moving_mobility, moving_blocked = weights.moving_mobility, weights.moving_blocked
    threat, per_threat = weights.threat, weights.per_threat
    per_threat_against, threats_against = weights.per_threat_against, weights.threats_against

    mobility = mobility_counter(nb)
    first_layer, *further_layers = point_layers(nb) or (0,)

    def points_held(side: int) -> int:
        return point_link * (side & first_layer).bit_count() + point_cross * sum(
            (side & layer).bit_count() for layer in further_layers
        )

    def running(closed: int, side: int, empty: int) -> int:
        """Pieces of ``side``'s closed mills that can step out, and the mills they reopen."""
        count = 0
        while closed:
            low = closed & -closed
            closed ^= low
            free = nb[low.bit_length() - 1] & empty
            if free:
                count += 1
                rest = side ^ low
                while free:
                    fl = free & -free
                    free ^= fl
                    for m in masks:
                        if m & fl and rest & m == m ^ fl:
                            count += 3
        return count

    def evaluate(us: int, them: int, uh: int, th: int) -> int:
        pu = us.bit_count()
        pt = them.bit_count()
        score = (pu + uh - pt - th) * PIECE
        empty = everything ^ (us | them)
        if uh or th:
            twos_us = twos_them = 0
            close_us = close_them = 0
            for m in masks:
                a = us & m
                b = them & m
                if not b:
                    if a and a != m and a.bit_count() == 2:
                        twos_us += 1
                        close_us |= m ^ a
                elif not a and b != m and b.bit_count() == 2:
                    twos_them += 1
                    close_them |= m ^ b
            score += (open_two + open_two_per_hand * (uh + th)) * (twos_us - twos_them)
            if close_us and uh:
                score += close_one if close_us & (close_us - 1) == 0 else close_more
            if close_them and th and close_them & (close_them - 1):
                score -= closings_against
            # Mobility decides the moving phase: a side whose pieces are hemmed in when the last
            # piece is placed is soon blocked, beyond the horizon of a search made while placing.
            mob_us, blocked_us, single_us = mobility(us, empty)
            mob_them, blocked_them, single_them = mobility(them, empty)
            score += (
                placing_tempo
                + placing_mobility * (mob_us - mob_them)
                - placing_blocked * (blocked_us - blocked_them)
                - placing_one_exit * (single_us - single_them)
            )
            # Well-linked points: a piece on a corner has few ways out when the moving begins,
            # however free its neighbours are now (docs/ENGINE.md, "From the empty board").
            return score + points_held(us) - points_held(them)
        fly_us = flying and pu == 3
        fly_them = flying and pt == 3
        mob_us, blocked_us, _ = (0, 0, 0) if fly_us else mobility(us, empty)
        mob_them, blocked_them, _ = (0, 0, 0) if fly_them else mobility(them, empty)
        if not fly_them and not mob_them:
            score += opponent_blocked  # the opponent is blocked unless our move frees them
        score += moving_mobility * (mob_us - mob_them) - moving_blocked * (
            blocked_us - blocked_them
        )
        closed_us = closed_them = 0
        threats_us = threats_them = 0
        for m in masks:
            a = us & m
            b = them & m
            if a == m:
                closed_us |= m
            elif b == m:
                closed_them |= m
            elif not b:
                if a and a.bit_count() == 2:
                    q = m ^ a
                    movers = (us if fly_us else nb[q.bit_length() - 1] & us) & ~m
                    if movers:
                        threats_us += 1
            elif not a and b.bit_count() == 2:
                q = m ^ b
                movers = (them if fly_them else nb[q.bit_length() - 1] & them) & ~m
                if movers:
                    threats_them += 1
        # Running and open mills: a piece of a closed mill with an empty neighbour.
        running_us = running(closed_us, us, empty) if closed_us and not fly_us else 0
        running_them = running(closed_them, them, empty) if closed_them and not fly_them else 0
        score += running_mill * (running_us - running_them)
        if threats_us:
            score += threat + per_threat * threats_us
        if threats_them:
            score -= per_threat_against * threats_them + (
                threats_against if threats_them > 1 else 0
            )
        return score

    return evaluate
