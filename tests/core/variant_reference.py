"""An independent statement of every variant's rules, for checking the core's move generation.

Written from the variant sections of docs/RULES.md alone, in the manner of
:mod:`tests.core.reference`: points are names, pieces are sets of names, the links and mills come
from that module's reading of the board diagram (plus the diagonal lines, or minus the outer
square, as the docs say), and nothing here calls the core. Draw rules are left out (the boards
compared with it switch them off); a game that is won or lost, or a full board in twelve men's
morris, has no turns.

A turn is written ``(action, removals)``: the action in notation (``d6``, ``a1-a4``) and the
frozenset of the points whose pieces it removes, so that the order in which the core writes two
removals does not matter here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from tests.core import reference
from tests.core.reference import ADJACENT, DIAGONAL_LINES, MILLS

Turn = tuple[str, frozenset[str]]


@dataclass(frozen=True)
class Game:
    """The rules of one variant with its settings, as docs/RULES.md states them."""

    name: str
    pieces: int
    points: frozenset[str]
    links: frozenset[frozenset[str]]
    mills: frozenset[frozenset[str]]
    flying: bool = True
    full_board_draw: bool = False
    move_while_placing: bool = False
    remove_from_mills: bool = False
    double_removes_two: bool = False
    return_barred: bool = False
    adjacent: dict[str, frozenset[str]] = field(init=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        adjacent = {p: frozenset(q for link in self.links if p in link for q in link - {p})
                    for p in self.points}  # fmt: skip
        object.__setattr__(self, "adjacent", adjacent)


_STANDARD_LINKS = frozenset(frozenset((p, q)) for p, ns in ADJACENT.items() for q in ns)
_DIAGONAL_LINKS = _STANDARD_LINKS | {
    frozenset(pair) for a, b, c in DIAGONAL_LINES for pair in ((a, b), (b, c))
}
_DIAGONAL_MILLS = MILLS | {frozenset(line) for line in DIAGONAL_LINES}
#: Six men's morris: the middle and inner squares, the points with a column b-f and a row 2-6.
_SIX_POINTS = frozenset(p for p in ADJACENT if p[0] in "bcdef" and p[1] in "23456")

STANDARD = Game("standard", 9, frozenset(ADJACENT), _STANDARD_LINKS, MILLS)
TWELVE = Game(
    "twelve", 12, frozenset(ADJACENT), _DIAGONAL_LINKS, _DIAGONAL_MILLS, full_board_draw=True
)
MORABARABA = Game(
    "morabaraba", 12, frozenset(ADJACENT), _DIAGONAL_LINKS, _DIAGONAL_MILLS, return_barred=True
)
LASKER = Game("lasker", 10, frozenset(ADJACENT), _STANDARD_LINKS, MILLS, move_while_placing=True)
SIX = Game(
    "six",
    6,
    _SIX_POINTS,
    frozenset(link for link in _STANDARD_LINKS if link <= _SIX_POINTS),
    frozenset(mill for mill in MILLS if mill <= _SIX_POINTS),
    flying=False,
)
GAMES = {game.name: game for game in (STANDARD, TWELVE, MORABARABA, LASKER, SIX)}


@dataclass(frozen=True)
class State(reference.State):
    """A position of :mod:`tests.core.reference`, and each side's barred return (Morabaraba)."""

    #: ``(from, to)``: the slide white (black) may not play next if it closes a mill.
    white_bar: tuple[str, str] | None = None
    black_bar: tuple[str, str] | None = None


def start(game: Game) -> State:
    """The empty board with every piece in hand, white to move."""
    return State(frozenset(), frozenset(), game.pieces, game.pieces, True)


def _in_mill(game: Game, point: str, pieces: frozenset[str]) -> bool:
    return any(point in mill and mill <= pieces for mill in game.mills)


def _removable(game: Game, pieces: frozenset[str]) -> frozenset[str]:
    """The pieces a mill may take: those outside mills, or any if none is (or the switch is on)."""
    if game.remove_from_mills:
        return pieces
    free = frozenset(p for p in pieces if not _in_mill(game, p, pieces))
    return free or pieces


def turns(game: Game, state: State) -> set[Turn]:
    """Every turn of the side to move."""
    if state.white_to_move:
        own, opp, hand, opp_hand = state.white, state.black, state.white_hand, state.black_hand
        bar = state.white_bar
    else:
        own, opp, hand, opp_hand = state.black, state.white, state.black_hand, state.white_hand
        bar = state.black_bar
    if len(own) + hand < 3 or len(opp) + opp_hand < 3:
        return set()
    empty = game.points - own - opp
    if game.full_board_draw and not hand and not opp_hand and not empty:
        return set()
    actions: list[tuple[str | None, str]] = []
    if hand:
        actions += [(None, to) for to in empty]
    if not hand or game.move_while_placing:
        fly = game.flying and not hand and len(own) == 3
        actions += [
            (frm, to) for frm in own for to in (empty if fly else game.adjacent[frm] & empty)
        ]
    out: set[Turn] = set()
    for frm, to in actions:
        text = to if frm is None else f"{frm}-{to}"
        after = (own - {frm}) | {to}
        mills = sum(1 for mill in game.mills if to in mill and mill <= after)
        if not mills or not opp:
            out.add((text, frozenset()))
            continue
        if bar == (frm, to):
            continue  # the barred return closes a mill: not allowed
        if game.double_removes_two and mills >= 2 and len(opp) >= 2:
            for first in _removable(game, opp):
                for second in _removable(game, opp - {first}):
                    out.add((text, frozenset((first, second))))
        else:
            out.update((text, frozenset((r,))) for r in _removable(game, opp))
    return out


def play(game: Game, state: State, turn: Turn) -> State:
    """The state after ``turn`` (assumed legal)."""
    action, removals = turn
    frm, _, to = action.rpartition("-")
    white, black = set(state.white), set(state.black)
    own, opp = (white, black) if state.white_to_move else (black, white)
    before = frozenset(own)
    own.discard(frm)
    own.add(to)
    opp.difference_update(removals)
    bar = None
    if (
        game.return_barred
        and frm
        and _in_mill(game, frm, before)
        and _in_mill(game, to, frozenset(own))
    ):
        bar = (to, frm)
    white_hand, black_hand = state.white_hand, state.black_hand
    white_bar, black_bar = state.white_bar, state.black_bar
    if state.white_to_move:
        white_hand -= not frm
        white_bar = bar
    else:
        black_hand -= not frm
        black_bar = bar
    return State(
        frozenset(white),
        frozenset(black),
        white_hand,
        black_hand,
        not state.white_to_move,
        white_bar,
        black_bar,
    )


@cache
def perft(game: Game, state: State, depth: int) -> int:
    """The number of turn sequences of length ``depth`` (draw rules ignored)."""
    if depth == 0:
        return 1
    moves = turns(game, state)
    if depth == 1:
        return len(moves)
    return sum(perft(game, play(game, state, m), depth - 1) for m in moves)
