"""The static evaluation, for the side to move, in centi-pieces (a piece is :data:`PIECE`).

Terms (each for the side to move minus the same for the opponent):

- material: pieces on the board plus pieces in hand;
- placing phase: open twos (two pieces of a mill and the third point empty), a bonus when the side
  to move can close a mill at once (it will), a malus when the opponent has two closing points
  (only one can be blocked), mobility, blocked pieces, and well-linked points held (a cross point
  over a corner);
- moving phase: mobility (empty neighbours), blocked pieces, a near-win bonus when the opponent has
  no move at all, threats (an open two whose empty point one of our other pieces can reach next
  turn), running mills (a piece of a closed mill that can step out to close another: a mill every
  turn) and open mills (a closed mill with a piece free to step out and back).

Flying sides have no mobility terms and every open two is a threat for them.
"""

from __future__ import annotations

from collections.abc import Callable

from morris.core.points import ALL_POINTS
from morris.core.rules import Rules

#: The value of a piece.
PIECE = 100
#: Placing phase: the value of each of a piece's links beyond two (its point's, not free ones).
POINT_WEIGHT = 10

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


def mobility_counter(neighbours: tuple[int, ...]) -> Callable[[int, int], tuple[int, int]]:
    """A fast ``mobility(side, empty)``: the free steps of ``side``'s pieces and how many of its
    pieces cannot step, on a board with these neighbour masks."""
    cross = _cross_mask(neighbours)
    if neighbours == _ring_neighbours(cross):

        def shifted(side: int, empty: int) -> tuple[int, int]:
            # Bit-parallel: a point's neighbours are the points before and after it on its ring
            # and, at the linked positions, the same position on the rings outside and inside.
            before = (empty << 1) & 0xFEFEFE | (empty >> 7) & 0x010101
            after = (empty >> 1) & 0x7F7F7F | (empty << 7) & 0x808080
            outside = (empty << 8) & cross
            inside = (empty >> 8) & cross
            steps = (
                (side & before).bit_count()
                + (side & after).bit_count()
                + (side & outside).bit_count()
                + (side & inside).bit_count()
            )
            return steps, (side & ~(before | after | outside | inside)).bit_count()

        return shifted

    def looped(side: int, empty: int) -> tuple[int, int]:
        steps = blocked = 0
        while side:
            low = side & -side
            side ^= low
            n = (neighbours[low.bit_length() - 1] & empty).bit_count()
            if n:
                steps += n
            else:
                blocked += 1
        return steps, blocked

    return looped


def make_evaluator(rules: Rules) -> Evaluator:
    """A fast ``evaluate(us, them, us_hand, them_hand)`` for ``rules``."""
    masks = rules.mill_masks
    nb = rules.neighbours
    flying = rules.flying
    everything = ALL_POINTS

    mobility = mobility_counter(nb)
    # Point weights for placing: a point's links beyond two (a corner 0, a T-point 1, a cross
    # point 2), as layers: layer k holds the points with at least 2 + k links.
    layers = tuple(
        mask
        for k in range(1, 5)
        if (mask := sum(1 << p for p in range(24) if nb[p].bit_count() >= 2 + k))
    )

    def points_held(side: int) -> int:
        return sum((side & layer).bit_count() for layer in layers)

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
            score += 14 * (twos_us - twos_them)
            if close_us and uh:
                score += 70 if close_us & (close_us - 1) == 0 else 85
            if close_them and th and close_them & (close_them - 1):
                score -= 45
            # Mobility decides the moving phase: a side whose pieces are hemmed in when the last
            # piece is placed is soon blocked, beyond the horizon of a search made while placing.
            # The weights here and below were tuned against Sanmill (docs/ENGINE.md, "Tuning").
            mob_us, blocked_us = mobility(us, empty)
            mob_them, blocked_them = mobility(them, empty)
            score += 8 * (mob_us - mob_them) - 20 * (blocked_us - blocked_them)
            # Well-linked points: a piece on a corner has few ways out when the moving begins,
            # however free its neighbours are now (docs/ENGINE.md, "From the empty board").
            return score + POINT_WEIGHT * (points_held(us) - points_held(them))
        fly_us = flying and pu == 3
        fly_them = flying and pt == 3
        mob_us, blocked_us = (0, 0) if fly_us else mobility(us, empty)
        mob_them, blocked_them = (0, 0) if fly_them else mobility(them, empty)
        if not fly_them and not mob_them:
            score += 3 * PIECE  # the opponent is blocked unless our move frees them
        score += 12 * (mob_us - mob_them) - 20 * (blocked_us - blocked_them)
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
        score += 12 * (running_us - running_them)
        if threats_us:
            score += 60 + 10 * threats_us
        if threats_them:
            score -= 10 * threats_them + (40 if threats_them > 1 else 0)
        return score

    return evaluate
