"""An independent statement of the rules, for checking the core against.

Written from docs/RULES.md alone and kept deliberately simple: points are names, pieces are sets of
names, and the links and mills are read from the board diagram of docs/RULES.md (copied below), not
from ``morris.core.points``. Nothing here is fast; the perft uses a transposition table so that
deep counts stay affordable.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

#: The board diagram of docs/RULES.md, verbatim.
DIAGRAM = """\
7  a7----------d7----------g7
   |           |           |
6  |   b6------d6------f6  |
   |   |       |       |   |
5  |   |   c5--d5--e5  |   |
   |   |   |       |   |   |
4  a4--b4--c4      e4--f4--g4
   |   |   |       |   |   |
3  |   |   c3--d3--e3  |   |
   |   |       |       |   |
2  |   b2------d2------f2  |
   |           |           |
1  a1----------d1----------g1
   a   b   c   d   e   f   g
"""


def _read_diagram() -> tuple[dict[str, frozenset[str]], frozenset[frozenset[str]]]:
    lines = DIAGRAM.splitlines()
    names: dict[tuple[int, int], str] = {}  # (line, column) -> point name
    for row, line in enumerate(lines[:-1]):
        for col in range(len(line) - 1):
            text = line[col : col + 2]
            if text[0] in "abcdefg" and text[1] in "1234567":
                names[row, col] = text
    links: set[frozenset[str]] = set()
    chains: list[list[str]] = []
    # Horizontal: names on one line joined by dashes only.
    for row in sorted({r for r, _ in names}):
        cols = sorted(c for r, c in names if r == row)
        chain = [names[row, cols[0]]]
        for left, right in itertools.pairwise(cols):
            between = lines[row][left + 2 : right]
            if between and set(between) == {"-"}:
                links.add(frozenset((names[row, left], names[row, right])))
                chain.append(names[row, right])
            else:
                chains.append(chain)
                chain = [names[row, right]]
        chains.append(chain)
    # Vertical: a name, then '|' straight below it, down to the next name in that column.
    for col in sorted({c for _, c in names}):
        rows = sorted(r for r, c in names if c == col)
        chain = [names[rows[0], col]]
        for top, bottom in itertools.pairwise(rows):
            if all(lines[r][col] == "|" for r in range(top + 1, bottom)):
                links.add(frozenset((names[top, col], names[bottom, col])))
                chain.append(names[bottom, col])
            else:
                chains.append(chain)
                chain = [names[bottom, col]]
        chains.append(chain)
    adjacent: dict[str, set[str]] = {name: set() for name in names.values()}
    for link in links:
        a, b = sorted(link)
        adjacent[a].add(b)
        adjacent[b].add(a)
    mills = frozenset(frozenset(chain) for chain in chains if len(chain) == 3)
    return {p: frozenset(n) for p, n in adjacent.items()}, mills


ADJACENT, MILLS = _read_diagram()
POINTS = frozenset(ADJACENT)

#: Twelve men's morris adds the four diagonal corner lines (each two links and a mill).
DIAGONAL_LINES = (("a7", "b6", "c5"), ("g7", "f6", "e5"), ("g1", "f2", "e3"), ("a1", "b2", "c3"))


@dataclass(frozen=True)
class State:
    """A position: the pieces of each side, the pieces in hand, and who is to move."""

    white: frozenset[str]
    black: frozenset[str]
    white_hand: int
    black_hand: int
    white_to_move: bool


def start(pieces: int = 9) -> State:
    """The empty board with ``pieces`` in each hand, white to move."""
    return State(frozenset(), frozenset(), pieces, pieces, True)


def turns(state: State, *, flying: bool = True) -> Iterator[str]:
    """Every turn of the side to move, in notation; none once a side is down to two pieces."""
    if state.white_to_move:
        own, opp, hand, opp_hand = state.white, state.black, state.white_hand, state.black_hand
    else:
        own, opp, hand, opp_hand = state.black, state.white, state.black_hand, state.white_hand
    if len(own) + hand < 3 or len(opp) + opp_hand < 3:
        return
    empty = POINTS - own - opp
    actions: list[tuple[str | None, str]]
    if hand:
        actions = [(None, to) for to in empty]
    else:
        fly = flying and len(own) == 3
        actions = [(frm, to) for frm in own for to in (empty if fly else ADJACENT[frm] & empty)]
    for frm, to in actions:
        text = to if frm is None else f"{frm}-{to}"
        after = (own - {frm}) | {to}
        if any(to in mill and mill <= after for mill in MILLS) and opp:
            unprotected = {p for p in opp if not any(p in m and m <= opp for m in MILLS)}
            for removed in unprotected or opp:
                yield f"{text}x{removed}"
        else:
            yield text


def play(state: State, turn: str) -> State:
    """The state after ``turn`` (assumed legal)."""
    action, _, removed = turn.partition("x")
    frm, _, to = action.rpartition("-")
    white, black = set(state.white), set(state.black)
    own, opp = (white, black) if state.white_to_move else (black, white)
    own.discard(frm)
    own.add(to)
    opp.discard(removed)
    white_hand, black_hand = state.white_hand, state.black_hand
    if not frm:
        if state.white_to_move:
            white_hand -= 1
        else:
            black_hand -= 1
    return State(
        frozenset(white), frozenset(black), white_hand, black_hand, not state.white_to_move
    )


@cache
def perft(state: State, depth: int, flying: bool = True) -> int:
    """The number of turn sequences of length ``depth`` (draw rules ignored)."""
    if depth == 0:
        return 1
    moves = list(turns(state, flying=flying))
    if depth == 1:
        return len(moves)
    return sum(perft(play(state, m), depth - 1, flying) for m in moves)
