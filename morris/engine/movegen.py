"""The search's own move generator: positions as plain ints, turns as small ints.

The rules core (:class:`morris.core.board.Board`) is written to be read; the search needs raw
speed, so it keeps a position as a handful of ints passed down the recursion (nothing to undo)
and a turn as one int, ``from | to << 5 | remove << 10 | (second + 1) << 15`` with :data:`NONE`
(31) for "no origin" (a placement) and "no removal", and 0 in the top field for "no second
removal" (only a double mill's turn has one, where the rules say so): a turn without one stays
below :data:`MOVE_SPACE`. :func:`perft` here and :func:`morris.core.perft` must agree (a test
checks it for every variant), which ties this generator to the rules.

The rules are a :class:`morris.core.rules.Rules` value, the same the core's board plays by
(:func:`morris.core.variant.engine_rules` refuses a board with rules beyond its data): the points
in play, the links and mills, moving instead of placing (Lasker), removal from mills, a double
mill's two removals, flying.

A position is seen from the side to move: ``us`` and ``them`` are bitboards, ``us_hand`` and
``them_hand`` the pieces still to place.
"""

from __future__ import annotations

from morris.core.board import Board
from morris.core.moves import Move
from morris.core.rules import Rules
from morris.core.variant import engine_rules

#: "No point" in an encoded turn: no origin (a placement) or no removal.
NONE = 31
#: Where an encoded turn holds its second removal (plus one; 0 for none).
SECOND_SHIFT = 15
#: The encoded turns without a second removal fit below this (the history heuristic's table,
#: which holds turns without removal).
MOVE_SPACE = 1 << SECOND_SHIFT


def encode(move: Move) -> int:
    """The int form of ``move``."""
    frm = NONE if move.from_point is None else move.from_point
    rem = NONE if move.remove is None else move.remove
    second = 0 if move.second_remove is None else move.second_remove + 1
    return frm | move.to_point << 5 | rem << 10 | second << SECOND_SHIFT


def decode(code: int) -> Move:
    """The :class:`Move` of an encoded turn."""
    frm = code & 31
    rem = code >> 10 & 31
    second = code >> SECOND_SHIFT
    return Move(
        None if frm == NONE else frm,
        code >> 5 & 31,
        None if rem == NONE else rem,
        None if not second else second - 1,
    )


def removable(them: int, rules: Rules) -> int:
    """The pieces of ``them`` a mill may remove: those outside mills, or all if none is outside
    (every piece where the rules allow removal from mills)."""
    if rules.remove_from_mills:
        return them
    in_mill = 0
    for m in rules.mill_masks:
        if them & m == m:
            in_mill |= m
    free = them & ~in_mill
    return free if free else them


def _closed(rules: Rules, new: int, to: int) -> int:
    """The mills ``new`` closes at ``to``: 0, 1 or, where a double mill removes two, 2."""
    closed = 0
    for m in rules.mills_through[to]:
        if new & m == m:
            if not rules.double_mill_removes_two:
                return 1
            closed += 1
    return min(closed, 2)


def bar_code(frm: int, to: int) -> int:
    """The code of a barred return ``frm``-``to`` (Morabaraba), as the core keeps it; 0: none."""
    return frm * 24 + to + 1


def next_bar(rules: Rules, us: int, frm: int, to: int, new: int) -> int:
    """The return the turn ``frm``-``to`` bars (``us`` before it, ``new`` after), or 0: a piece
    that left a mill and closed one may not go straight back into a mill on its next turn."""
    if not rules.return_mill_barred or frm == NONE:
        return 0
    left = any(us & m == m for m in rules.mills_through[frm])
    if left and any(new & m == m for m in rules.mills_through[to]):
        return bar_code(to, frm)
    return 0


def _add_removals(
    rules: Rules, out: list[int], base: int, them: int, first: int, two: bool
) -> None:
    """The mill turns of the action ``base``: one per removable piece (``first``), or for a
    double mill one per pair of pieces that can be taken one after the other (either way
    round), as ``remove`` < ``second``."""
    r = first
    while r:
        rl = r & -r
        r ^= rl
        a = rl.bit_length() - 1
        if not two:
            out.append(base | a << 10)
            continue
        r2 = removable(them ^ rl, rules)
        while r2:
            low = r2 & -r2
            r2 ^= low
            b = low.bit_length() - 1
            if b > a:
                out.append(base | a << 10 | (b + 1) << SECOND_SHIFT)
            elif not (first & low and removable(them ^ low, rules) & rl):
                # Only this way round: b first would not leave a removable.
                out.append(base | b << 10 | (a + 1) << SECOND_SHIFT)


def generate(
    rules: Rules, us: int, them: int, us_hand: int, bar: int = 0
) -> tuple[list[int], list[int]]:
    """The turns of the side to move as ``(mill_turns, quiet_turns)``.

    Mill turns close a mill and remove a piece (two for a double mill where the rules say so);
    quiet turns do not. Placements come first, then steps or flights (while placing only where a
    piece may move instead, as in Lasker morris). ``bar`` is the side to move's barred return
    (:func:`bar_code`; Morabaraba), left out if it closes a mill. Whether the game is over is not
    checked (an empty result in the moving phase means the side to move is blocked).
    """
    empty = rules.points_in_play & ~(us | them)
    mills_through = rules.mills_through
    double_rule = rules.double_mill_removes_two
    mill_turns: list[int] = []
    quiet: list[int] = []
    rem_mask = -1
    # A double mill removes two only if the opponent has two pieces to lose.
    double = double_rule and them & (them - 1) != 0
    # The actions by origin: (from, the points it may go to, our other pieces).
    sources: list[tuple[int, int, int]] = [(NONE, empty, us)] if us_hand else []
    if not us_hand or rules.move_while_placing:
        flies = not us_hand and rules.flying and us.bit_count() == 3
        neighbours = rules.neighbours
        own = us
        while own:
            fl = own & -own
            own ^= fl
            frm = fl.bit_length() - 1
            sources.append((frm, empty if flies else neighbours[frm] & empty, us ^ fl))
    for frm, t, rest in sources:
        base = frm | NONE << 10
        while t:
            low = t & -t
            t ^= low
            to = low.bit_length() - 1
            new = rest | low
            if bar and bar == frm * 24 + to + 1 and _closed(rules, new, to):
                continue  # the barred return into a mill
            closed = 0
            if them:
                # Inline rather than _closed(): this loop is the search's hottest.
                for m in mills_through[to]:
                    if new & m == m:
                        closed += 1
                        if not double_rule:
                            break
            if closed:
                if rem_mask < 0:
                    rem_mask = removable(them, rules)
                two = closed >= 2 and double
                _add_removals(rules, mill_turns, frm | to << 5, them, rem_mask, two)
            else:
                quiet.append(base | to << 5)
    return mill_turns, quiet


def has_moves(rules: Rules, us: int, them: int, us_hand: int, bar: int = 0) -> bool:
    """Whether the side to move has any turn (the core's ``Board.has_moves``)."""
    empty = rules.points_in_play & ~(us | them)
    if not empty:
        return False
    if us_hand or (rules.flying and us.bit_count() == 3):
        return True
    if bar:
        mills, quiet = generate(rules, us, them, us_hand, bar)
        return bool(mills or quiet)
    neighbours = rules.neighbours
    own = us
    while own:
        fl = own & -own
        own ^= fl
        if neighbours[fl.bit_length() - 1] & empty:
            return True
    return False


def perft(board: Board, depth: int) -> int:
    """:func:`morris.core.perft` computed with this generator (for checking it against the core).

    Draw rules are ignored, as they are by the core's perft only when they cannot trigger: use it
    on positions and depths where no repetition or no-removal draw can occur.
    """
    rules = engine_rules(board)
    turn = board.turn
    return _perft(
        rules,
        board.occupied_co(turn),
        board.occupied_co(not turn),
        board.pieces_in_hand(turn),
        board.pieces_in_hand(not turn),
        depth,
        board_bar(board, turn),
        board_bar(board, not turn),
    )


def board_bar(board: Board, color: bool) -> int:
    """The barred return of ``color`` on ``board`` as a :func:`bar_code` (0: none)."""
    move = board.barred_return(color)
    if move is None or move.from_point is None:
        return 0
    return bar_code(move.from_point, move.to_point)


def _over(rules: Rules, us: int, them: int, uh: int, th: int, bar: int) -> bool:
    if us.bit_count() + uh < 3 or them.bit_count() + th < 3:
        return True
    if rules.full_board_is_draw and not uh and not th and us | them == rules.points_in_play:
        return True
    return not has_moves(rules, us, them, uh, bar)


def _perft(
    rules: Rules, us: int, them: int, uh: int, th: int, depth: int, bar: int, obar: int
) -> int:
    if depth == 0:
        return 1
    if _over(rules, us, them, uh, th, bar):
        return 0
    mills, quiet = generate(rules, us, them, uh, bar)
    if depth == 1:
        return len(mills) + len(quiet)
    total = 0
    for code in mills + quiet:
        frm = code & 31
        to = code >> 5 & 31
        rem = code >> 10 & 31
        second = code >> SECOND_SHIFT
        if frm == NONE:
            nus = us | 1 << to
            nuh = uh - 1
        else:
            nus = us ^ (1 << frm | 1 << to)
            nuh = uh
        nthem = them if rem == NONE else them & ~(1 << rem)
        if second:
            nthem &= ~(1 << (second - 1))
        nbar = next_bar(rules, us, frm, to, nus)
        total += _perft(rules, nthem, nus, th, nuh, depth - 1, obar, nbar)
    return total
