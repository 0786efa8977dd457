"""The sectors of k men's morris and the graph they form.

A sector of the game is (white on board, black on board, white in hand, black in hand, side to
move). White places first, so during placing the side to move follows from the hands: white when
both hands are equal, black when black holds one more. The rules are the same for both colours
once that is fixed, so a sector is stored relative to the side to move, as a :class:`SectorKey`
``(mover on board, other on board, mover in hand, other in hand)``; a moving-phase key (both
hands empty) answers for both colours, a placing-phase key for exactly one.

For ``k`` men (3..9) the sectors that exist are every such tuple with

- placing (``mover_hand + other_hand > 0``): ``mover_hand == other_hand`` (white to move) or
  ``mover_hand == other_hand + 1`` (black to move), ``mover_hand <= k``;
- moving: both hands empty;
- on each side ``on board + in hand <= k`` (pieces cannot be made) and ``>= 3`` (with two left the
  game is over); in the moving phase this makes ``3 <= on board <= k``.

Every placement of the pieces in a sector is a position of it, reachable or not. A sector's values
do not depend on ``k`` (the rules never look at it), so the sectors of ``k`` men are those of
``k - 1`` men and more: one directory holds every ``k`` built into it.

The graph: a placement leads to the sector with one piece more on the board and one fewer in hand
(the other side to move), a placement or move that closes a mill and removes to the sector with a
piece fewer for the other side (or to a win when that leaves them two), a move without removal to
the sector with the colours swapped. Moving-phase sectors ``(m, o)`` and ``(o, m)`` reach each
other and are solved together (a *system*, the existing tables' unit); everything else is acyclic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from morris.core.points import NUM_POINTS
from morris.engine.tables.keys import MIN_PIECES, TableKey

#: The most and fewest men a side starts with.
MIN_MEN: Final = 3
MAX_MEN: Final = 9


@dataclass(frozen=True, order=True)
class SectorKey:
    """A sector relative to the side to move: pieces on the board and in hand of each side."""

    mover_on: int
    other_on: int
    mover_hand: int
    other_hand: int

    @property
    def placing(self) -> bool:
        """Whether the side to move still places (else both hands are empty)."""
        return self.mover_hand > 0

    @property
    def name(self) -> str:
        """``"3v3"`` for moving sectors, ``"2v3 h1/0"`` while placing (mover first)."""
        base = f"{self.mover_on}v{self.other_on}"
        if self.mover_hand == 0 and self.other_hand == 0:
            return base
        return f"{base} h{self.mover_hand}/{self.other_hand}"

    @property
    def filename(self) -> str:
        """File of the sector in a solution directory."""
        return f"sector-{self.mover_on}-{self.other_on}-{self.mover_hand}-{self.other_hand}.msol"

    @property
    def placements(self) -> int:
        """Positions counted over every placement of the pieces."""
        return math.comb(NUM_POINTS, self.mover_on) * math.comb(
            NUM_POINTS - self.mover_on, self.other_on
        )

    @property
    def white_to_move(self) -> bool | None:
        """The colour to move while placing (True white), None in the moving phase."""
        if self.mover_hand == 0 and self.other_hand == 0:
            return None
        return self.mover_hand == self.other_hand

    @property
    def table(self) -> TableKey:
        """The endgame table of a moving-phase sector (flying on: the standard rules)."""
        return TableKey(self.mover_on, self.other_on, True)

    def colour_sectors(self) -> list[tuple[int, int, int, int, str]]:
        """The sectors (white on, black on, white hand, black hand, to move) this key stores."""
        m, o, mh, oh = self.mover_on, self.other_on, self.mover_hand, self.other_hand
        white = (m, o, mh, oh, "white")
        black = (o, m, oh, mh, "black")
        turn = self.white_to_move
        if turn is None:
            return [white, black]
        return [white] if turn else [black]

    def quiet_successor(self) -> SectorKey:
        """Where a turn without removal leads."""
        if self.placing:
            return SectorKey(self.other_on, self.mover_on + 1, self.other_hand, self.mover_hand - 1)
        return SectorKey(self.other_on, self.mover_on, 0, 0)

    def removal_successor(self) -> SectorKey | None:
        """Where a turn that removes leads; None when it wins at once (the other side left with
        two) or when no piece of the other side is on the board to remove."""
        if self.other_on == 0 or self.other_on - 1 + self.other_hand < MIN_PIECES:
            return None
        after = self.quiet_successor()
        return SectorKey(after.mover_on - 1, after.other_on, after.mover_hand, after.other_hand)

    def successors(self) -> list[SectorKey]:
        """The sectors this one's turns lead to (its partner too for a moving sector)."""
        out = [self.quiet_successor()]
        removal = self.removal_successor()
        if removal is not None:
            out.append(removal)
        return out

    def exists(self, men: int) -> bool:
        """Whether this is a sector of ``men`` men's morris (see the module docstring)."""
        m, o, mh, oh = self.mover_on, self.other_on, self.mover_hand, self.other_hand
        if min(m, o, mh, oh) < 0 or mh > men:
            return False
        if mh + oh > 0 and mh not in (oh, oh + 1):
            return False
        return MIN_PIECES <= m + mh <= men and MIN_PIECES <= o + oh <= men


def start_sector(men: int) -> SectorKey:
    """The sector of the empty board: white to place, ``men`` pieces each in hand."""
    return SectorKey(0, 0, men, men)


def sector_keys(men: int) -> list[SectorKey]:
    """Every sector of ``men`` men's morris, in an order where successors come first."""
    check_men(men)
    keys = [
        SectorKey(m, o, mh, oh)
        for oh in range(men + 1)
        for mh in (oh, oh + 1)
        for m in range(men + 1)
        for o in range(men + 1)
    ]
    found = {k for k in keys if k.exists(men)}
    return sorted(found, key=_order)


def new_sector_keys(men: int) -> list[SectorKey]:
    """The sectors of ``men`` men's morris that ``men - 1`` men's does not have (all of them for
    the smallest game): what a game built and checked k by k adds at ``men``."""
    smaller = set(sector_keys(men - 1)) if men > MIN_MEN else set()
    return [k for k in sector_keys(men) if k not in smaller]


def _order(key: SectorKey) -> tuple[int, int, int, int]:
    # Fewer pieces in hand first (placements lead there), then less material (removals lead
    # there), then the side with more pieces second so a system's members sit together.
    hands = key.mover_hand + key.other_hand
    return (hands, key.mover_on + key.other_on, max(key.mover_on, key.other_on), key.mover_on)


def check_men(men: int) -> None:
    """Raise ValueError naming ``men`` unless it is 3..9."""
    if not MIN_MEN <= men <= MAX_MEN:
        raise ValueError(f"men must be {MIN_MEN}..{MAX_MEN}, not {men}")


@dataclass(frozen=True)
class Unit:
    """What one build task solves: a placing sector alone, or a moving system (one or two)."""

    keys: tuple[SectorKey, ...]

    @property
    def name(self) -> str:
        """``"4v3 + 3v4"``, ``"2v3 h1/0"``."""
        return " + ".join(k.name for k in self.keys)

    @property
    def moving(self) -> bool:
        """Whether this is a moving-phase system (retrograde analysis)."""
        return not self.keys[0].placing

    def dependencies(self) -> list[SectorKey]:
        """The sectors outside the unit that its turns reach."""
        inside = set(self.keys)
        out = {s for k in self.keys for s in k.successors() if s not in inside}
        return sorted(out, key=_order)


def build_units(men: int) -> list[Unit]:
    """The build tasks of ``men`` men's morris, each after the units it depends on."""
    units: list[Unit] = []
    seen: set[SectorKey] = set()
    for key in sector_keys(men):
        if key in seen:
            continue
        partner = key.quiet_successor()
        group = (key,) if key.placing or partner == key else (key, partner)
        seen.update(group)
        units.append(Unit(group))
    return units
