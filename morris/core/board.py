"""The board and the rules of docs/RULES.md.

>>> board = Board()
>>> board.push_notation("d6")
Move.parse('d6')
>>> board.turn == BLACK
True
>>> board.legal_moves.count()
23

Pieces are two 24-bit bitboards (bit ``p`` is point ``p`` of :mod:`morris.core.points`), so move
generation and mill tests are a few integer operations. ``push``/``pop`` keep a stack of saved
states: the search walks the tree with them and never copies boards.

A board plays by :attr:`Board.rules`: the :class:`~morris.core.rules.Rules` of its variant (the
class attribute :attr:`Board.variant`) with the board's settings. Variants are subclasses that set
only ``variant`` (see :mod:`morris.core.variant`).

One concept, one module, though over 600 lines: the board's state, its move generation, legality,
outcome and position text share the private state and the precomputed move tables, and splitting
them would put the hot path of move generation behind module boundaries. Every rule a variant
changes (the points in play, slides while placing, Morabaraba's barred return, removal from mills,
two removals for a double mill) is read from the same state here, so it is one concept still.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar, Final, TypeAlias

from morris.core.moves import IllegalMoveError, InvalidMoveError, InvalidPositionError, Move
from morris.core.points import NUM_POINTS, POINT_NAMES, Point, parse_point, points_of
from morris.core.rules import (
    DEFAULT_NO_REMOVAL_LIMIT,
    SETTING_NAMES,
    STANDARD,
    Rules,
    UnsupportedVariant,
)
from morris.i18n import Message, msg, nmsg

Color: TypeAlias = bool
WHITE: Final[Color] = True
BLACK: Final[Color] = False
COLORS: Final[tuple[Color, Color]] = (WHITE, BLACK)
COLOR_NAMES: Final[dict[Color, str]] = {WHITE: "white", BLACK: "black"}

#: The position string of an empty board before the first turn (standard game).
STARTING_POSITION: Final = "......../......../........ w 9 9 0 1 -"


class Phase(enum.Enum):
    """Placing while any piece is in hand, moving after."""

    PLACING = "placing"
    MOVING = "moving"


class Termination(enum.Enum):
    """Why a game ended."""

    #: The side to move has no legal move (moving phase): it loses.
    BLOCKED = "blocked"
    #: The side to move has fewer than three pieces, board and hand counted: it loses.
    TOO_FEW_PIECES = "too-few-pieces"
    #: The same position (placement, side to move, pieces in hand) for the third time: a draw.
    THREEFOLD_REPETITION = "threefold-repetition"
    #: The moving phase went on for the limit (100) of turns without a removal: a draw.
    NO_REMOVAL = "no-removal"
    #: Twelve men's morris: every point in play is taken at the end of placing: a draw.
    FULL_BOARD = "full-board"


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the termination and the winner (``None`` for a draw)."""

    termination: Termination
    winner: Color | None

    def result(self) -> str:
        """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"


# Move generation is the engine's inner loop, so it avoids per-call work: the points of a
# bitboard come from three byte tables (a tuple concatenation instead of a bit loop), and every
# Move is built once here and looked up, as constructing a frozen dataclass costs more than
# generating it.
_BYTE_POINTS: Final = tuple(
    tuple(tuple(shift + i for i in range(8) if byte >> i & 1) for byte in range(256))
    for shift in (0, 8, 16)
)
_LOW, _MID, _HIGH = _BYTE_POINTS


#: The most digits a number field of a position may have: the counts a game reaches fit easily,
#: and a cap keeps ``int()`` away from texts of thousands of digits (which it refuses).
MAX_FIELD_DIGITS = 9


def _field_number(name: Message, value: str, what: Message | None = None) -> int:
    """The number in a position's field ``name``: ASCII digits only, at most 9 of them.

    ``str.isdigit`` also accepts digits such as ``'²'`` that ``int()`` refuses with a bare
    ``ValueError``; here every such text is an :class:`InvalidPositionError`.
    """
    what = msg("a number") if what is None else what
    if not (value.isascii() and value.isdigit()) or len(value) > MAX_FIELD_DIGITS:
        shown = value if len(value) <= 20 else f"{value[:20]}... ({len(value)} characters)"
        raise InvalidPositionError(
            msg(
                "{field} must be {what}, not {value} (at most {digits} digits 0-9)",
                field=name,
                what=what,
                value=repr(shown),
                digits=MAX_FIELD_DIGITS,
            )
        )
    return int(value)


def _points(mask: int) -> tuple[Point, ...]:
    return _LOW[mask & 255] + _MID[mask >> 8 & 255] + _HIGH[mask >> 16]


# _MOVES[((frm + 1) * 24 + to) * 25 + removed + 1] is Move(frm, to, removed), with -1 for None.
_MOVES: Final = tuple(
    Move(None if frm < 0 else frm, to, None if removed < 0 else removed)
    for frm in range(-1, NUM_POINTS)
    for to in range(NUM_POINTS)
    for removed in range(-1, NUM_POINTS)
)


def _partner_masks(mills_through: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """For each point, each mill through it without the point: what must be owned to close it."""
    return tuple(tuple(m & ~(1 << p) for m in mills) for p, mills in enumerate(mills_through))


def _spread_tables(neighbours: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per byte of a bitboard, the union of the neighbours of its points."""
    tables = []
    for shift in (0, 8, 16):
        table = []
        for byte in range(256):
            union = 0
            for i in range(8):
                if byte >> i & 1:
                    union |= neighbours[shift + i]
            table.append(union)
        tables.append(tuple(table))
    return tuple(tables)


class LegalMoveView:
    """The legal turns of a board, generated lazily.

    Iterate it, test ``move in view``, ``bool(view)``, ``len(view)`` or ``view.count()``.
    Empty once the game is over.
    """

    __slots__ = ("_board", "_generated")

    def __init__(self, board: Board) -> None:
        self._board = board
        # list(view) iterates the view and then asks its len(): the turns are kept with the
        # state they were generated in, so that this (and len-then-iterate) generates them once.
        self._generated: tuple[object, list[Move]] | None = None

    def _state(self) -> object:
        """Everything the legal turns depend on (the repetition window holds the pieces)."""
        board = self._board
        return (
            board._keys[board._rep_start :],
            board.no_removal_count,
            board._barred[0],
            board._barred[1],
            board.flying,
            board.threefold_repetition,
            board.no_removal_limit,
            board.remove_from_mills,
            board.double_mill_removes_two,
        )

    def _moves(self) -> list[Move]:
        state = self._state()
        generated = self._generated
        if generated is None or generated[0] != state:
            generated = self._generated = (state, list(self._board.generate_legal_moves()))
        return generated[1]

    def __iter__(self) -> Iterator[Move]:
        return iter(self._moves())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board.is_legal(move)

    def __bool__(self) -> bool:
        return bool(self._moves())

    def __len__(self) -> int:
        return len(self._moves())

    def count(self) -> int:
        """The number of legal turns."""
        return len(self)

    def __repr__(self) -> str:
        return f"<LegalMoveView ({', '.join(str(m) for m in self)})>"


# (white, black, white hand, black hand, no-removal count, repetition window start,
#  white's barred return, black's barred return)
_State: TypeAlias = tuple[int, int, int, int, int, int, int, int]


def _bar_code(frm: Point, to: Point) -> int:
    """The code of the barred return ``frm-to`` (Morabaraba); 0 means no bar."""
    return frm * NUM_POINTS + to + 1


class Board:
    """A game of nine men's morris: the position, the turns played, and the rules.

    ``Board()`` is the standard game from the empty board with flying on. Keyword settings
    (``None`` or absent: the variant's default, see :mod:`morris.core.variant`):

    - ``flying``: a player with exactly three pieces on the board and none in hand may move a piece
      to any empty point (default ``True``; six men's morris ``False``);
    - ``threefold_repetition``: the third occurrence of a position is a draw (default ``True``);
    - ``no_removal_limit``: that many consecutive moving-phase turns without a removal is a draw
      (default 100; ``None`` switches the rule off);
    - ``remove_from_mills``: a piece in a mill may be removed even when others stand outside mills
      (default ``False``);
    - ``double_mill_removes_two``: a turn closing two mills at once removes two pieces (default
      ``False``).

    ``position`` starts from a position string (see :meth:`position`) instead of the empty board.
    """

    #: The rules of the variant, with the default settings. A variant sets this and nothing else.
    variant: ClassVar[Rules] = STANDARD

    # Copies of the variant's fields, read by the move generation (set by __init_subclass__).
    #: Name of the variant in game records and engine options.
    variant_name: ClassVar[str]
    #: Pieces each player starts with in hand.
    pieces_per_side: ClassVar[int]
    #: For each point, the bitboard of its neighbours.
    neighbours: ClassVar[tuple[int, ...]]
    #: Every mill as a bitboard.
    mill_masks: ClassVar[tuple[int, ...]]
    #: For each point, the mills through it.
    mills_through: ClassVar[tuple[tuple[int, ...], ...]]
    #: Whether a full board at the end of placing is a draw (twelve men's morris).
    full_board_is_draw: ClassVar[bool]
    #: The bitboard of the points in play (six men's morris: 16).
    points_in_play: ClassVar[int]
    #: Whether a piece may slide instead of a placement while pieces are in hand (Lasker morris).
    move_while_placing: ClassVar[bool]
    #: Whether Morabaraba's bar on going straight back into a mill holds.
    return_mill_barred: ClassVar[bool]
    _partners: ClassVar[tuple[tuple[int, ...], ...]]
    _spread: ClassVar[tuple[tuple[int, ...], ...]]

    turn: Color
    move_stack: list[Move]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._read_variant()

    @classmethod
    def _read_variant(cls) -> None:
        """Copy the fields of :attr:`variant` to the class (refusing a class that sets them)."""
        copied = ("variant_name", "pieces_per_side", "neighbours", "mill_masks", "mills_through",
                  "full_board_is_draw", "points_in_play", "move_while_placing",
                  "return_mill_barred")  # fmt: skip
        for name in copied:
            if cls is not Board and name in vars(cls):
                raise UnsupportedVariant(
                    f"{cls.__qualname__} sets {name}: a variant sets only "
                    f"variant = Rules(...) (see morris.core.variant)"
                )
        rules = cls.variant
        defaults = (True, DEFAULT_NO_REMOVAL_LIMIT)
        if (rules.threefold_repetition, rules.no_removal_limit) != defaults:
            # The draw rules are the board's keywords, the same default in every variant.
            raise UnsupportedVariant(
                f"{cls.__qualname__}.variant: a variant's rules keep the default draw settings "
                f"(threefold_repetition, no_removal_limit {DEFAULT_NO_REMOVAL_LIMIT})"
            )
        cls.variant_name = rules.name
        cls.pieces_per_side = rules.pieces_per_side
        cls.neighbours = rules.neighbours
        cls.mill_masks = rules.mill_masks
        cls.mills_through = rules.mills_through
        cls.full_board_is_draw = rules.full_board_is_draw
        cls.points_in_play = rules.points_in_play
        cls.move_while_placing = rules.move_while_placing
        cls.return_mill_barred = rules.return_mill_barred
        cls._partners = _partner_masks(rules.mills_through)
        cls._spread = _spread_tables(rules.neighbours)

    def __init__(
        self,
        position: str | None = None,
        *,
        flying: bool | None = None,
        threefold_repetition: bool = True,
        no_removal_limit: int | None = DEFAULT_NO_REMOVAL_LIMIT,
        remove_from_mills: bool | None = None,
        double_mill_removes_two: bool | None = None,
    ) -> None:
        if no_removal_limit is not None and no_removal_limit <= 0:
            raise ValueError(f"no_removal_limit must be positive or None, not {no_removal_limit}")
        variant = self.variant
        self.flying = variant.flying if flying is None else flying
        self.threefold_repetition = threefold_repetition
        self.no_removal_limit = no_removal_limit
        self.remove_from_mills = (
            variant.remove_from_mills if remove_from_mills is None else remove_from_mills
        )
        self.double_mill_removes_two = (
            variant.double_mill_removes_two
            if double_mill_removes_two is None
            else double_mill_removes_two
        )
        self._reset(position)

    @property
    def rules(self) -> Rules:
        """The rules this board plays by: its :attr:`variant` with its settings."""
        return self.variant.with_settings(
            flying=self.flying,
            threefold_repetition=self.threefold_repetition,
            no_removal_limit=self.no_removal_limit,
            remove_from_mills=self.remove_from_mills,
            double_mill_removes_two=self.double_mill_removes_two,
        )

    # -- state ------------------------------------------------------------------------------

    def _reset(self, position: str | None) -> None:
        n = self.pieces_per_side
        self._occ = [0, 0]  # indexed by colour: [black, white]
        self._hand = [n, n]
        self.turn = WHITE
        self.no_removal_count = 0
        self.fullmove_number = 1
        self.move_stack = []
        self._stack: list[_State] = []
        # Morabaraba: per colour ([black, white]) the return its last turn barred (_bar_code), or 0.
        self._barred = [0, 0]
        self._keys: list[int] = []
        self._rep_start = 0
        # Reversible turns played before this board's first turn (kept by ``copy(stack=False)``),
        # so that the position string still carries the history repetition needs.
        self._pre_history: list[Move] = []
        if position is None:
            self._keys.append(self._key())
        else:
            self._set_position(position)

    def reset(self) -> None:
        """Back to the empty board with every piece in hand, keeping the settings."""
        self._reset(None)

    def _key(self) -> int:
        return (
            self._occ[1]
            | self._occ[0] << 24
            | self._hand[1] << 48
            | self._hand[0] << 53
            | int(self.turn) << 58
        )

    @property
    def phase(self) -> Phase:
        """:attr:`Phase.PLACING` while any piece is in hand, else :attr:`Phase.MOVING`."""
        return Phase.PLACING if self._hand[0] or self._hand[1] else Phase.MOVING

    def occupied_co(self, color: Color) -> int:
        """The bitboard of ``color``'s pieces on the board."""
        return self._occ[color]

    @property
    def occupied(self) -> int:
        """The bitboard of all pieces on the board."""
        return self._occ[0] | self._occ[1]

    def pieces_on_board(self, color: Color) -> int:
        """How many pieces ``color`` has on the board."""
        return self._occ[color].bit_count()

    def pieces_in_hand(self, color: Color) -> int:
        """How many pieces ``color`` still has to place."""
        return self._hand[color]

    def piece_at(self, point: Point | str) -> Color | None:
        """The colour of the piece on ``point`` (an int or a name like ``"d6"``), or ``None``."""
        p = parse_point(point) if isinstance(point, str) else point
        if not 0 <= p < NUM_POINTS:
            raise ValueError(f"not a point of the board: {point!r}")
        if self._occ[1] >> p & 1:
            return WHITE
        if self._occ[0] >> p & 1:
            return BLACK
        return None

    def pieces(self) -> dict[str, Color]:
        """Every occupied point by name, with the colour of its piece."""
        return {POINT_NAMES[p]: color for color in COLORS for p in points_of(self._occ[color])}

    def barred_return(self, color: Color) -> Move | None:
        """The slide ``color`` may not play next if it closes a mill (Morabaraba), or ``None``.

        A piece that left a mill and closed a mill with the same move may not go straight back
        to the point it came from on its owner's next turn, if going back closes a mill.
        """
        code = self._barred[color] - 1
        if code < 0 or not self._occ[color] >> (code // NUM_POINTS) & 1:
            return None
        return Move(code // NUM_POINTS, code % NUM_POINTS)

    def can_fly(self, color: Color) -> bool:
        """Whether ``color`` moves by flying now (flying on, three on the board, none in hand)."""
        return self.flying and self._hand[color] == 0 and self._occ[color].bit_count() == 3

    # -- mills and removals -----------------------------------------------------------------

    def forms_mill(self, own: int, point: Point) -> bool:
        """Whether ``own`` (a bitboard including ``point``) has a mill through ``point``."""
        return own >> point & 1 == 1 and any(own & m == m for m in self._partners[point])

    def mills_closed(self, own: int, point: Point) -> int:
        """How many mills through ``point`` the pieces ``own`` (including ``point``) make."""
        if not own >> point & 1:
            return 0
        return sum(1 for need in self._partners[point] if own & need == need)

    def pieces_in_mills(self, color: Color) -> int:
        """The bitboard of ``color``'s pieces that stand in a mill."""
        return self._in_mills(self._occ[color])

    def _in_mills(self, own: int) -> int:
        in_mill = 0
        for m in self.mill_masks:
            if own & m == m:
                in_mill |= m
        return in_mill

    def removable(self, color: Color) -> int:
        """The bitboard of ``color``'s pieces that an opponent's mill may remove.

        Pieces in mills are protected unless every piece of ``color`` stands in a mill, or the
        ``remove_from_mills`` setting is on.
        """
        return self._removable_of(self._occ[color])

    def _removable_of(self, pieces: int) -> int:
        if self.remove_from_mills:
            return pieces
        free = pieces & ~self._in_mills(pieces)
        return free if free else pieces

    def _pair_removable(self, pieces: int, a: Point, b: Point) -> bool:
        """Whether ``a`` and ``b`` can be taken from ``pieces`` one after the other, either way."""
        for first, second in ((a, b), (b, a)):
            if self._removable_of(pieces) >> first & 1 and (
                self._removable_of(pieces & ~(1 << first)) >> second & 1
            ):
                return True
        return False

    def removals_due(self, move: Move) -> int:
        """How many pieces the action of ``move`` must remove here (its removals ignored): 0, 1, 2.

        Two when it closes two mills at once, ``double_mill_removes_two`` is on and the opponent
        has two pieces on the board; none when it closes no mill or the opponent has none.
        """
        turn = self.turn
        own = self._occ[turn]
        if move.from_point is not None:
            own &= ~(1 << move.from_point)
        own |= 1 << move.to_point
        mills = self.mills_closed(own, move.to_point)
        opp = self._occ[not turn].bit_count()
        if not mills or not opp:
            return 0
        return 2 if self.double_mill_removes_two and mills >= 2 and opp >= 2 else 1

    def _mill_moves(self, frm: Point | None, to: Point, own: int) -> list[Move]:
        """Every turn whose action ``frm``-``to`` closes a mill, ``own`` the pieces after it.

        The slow path of move generation: Morabaraba's barred return and two removals.
        """
        turn = self.turn
        if frm is not None and self._barred[turn] == _bar_code(frm, to):
            return []
        opp = self._occ[not turn]
        if not opp:
            return [Move(frm, to)]
        first = self._removable_of(opp)
        if self.double_mill_removes_two and opp.bit_count() >= 2 and self.mills_closed(own, to) > 1:
            pairs = set()
            for a in _points(first):
                for b in _points(self._removable_of(opp & ~(1 << a))):
                    pairs.add((a, b) if a < b else (b, a))
            return [Move(frm, to, a, b) for a, b in sorted(pairs)]
        return [Move(frm, to, r) for r in _points(first)]

    # -- move generation --------------------------------------------------------------------

    def generate_moves(self) -> Iterator[Move]:
        """Every turn the rules allow for the side to move, ignoring whether the game is over.

        :meth:`generate_legal_moves` (and :attr:`legal_moves`) are empty once it is over.
        """
        turn = self.turn
        own = self._occ[turn]
        opp = self._occ[not turn]
        empty = self.points_in_play & ~(own | opp)
        partners = self._partners
        moves = _MOVES
        out: list[Move] = []
        append = out.append
        removable = -1  # computed when the first mill is found
        # Two removals and Morabaraba's barred return take the slow path (_mill_moves).
        slow = self.double_mill_removes_two or self._barred[turn]
        if self._hand[turn]:
            for to in _points(empty):
                index = to * 25  # see _MOVES
                for need in partners[to]:
                    if own & need == need:
                        if slow:
                            out += self._mill_moves(None, to, own | 1 << to)
                            break
                        if removable < 0:
                            removable = self.removable(not turn)
                        if removable:
                            out += [moves[index + 1 + r] for r in _points(removable)]
                        else:
                            append(moves[index])
                        break
                else:
                    append(moves[index])
            if not self.move_while_placing:
                return iter(out)
            flying = False  # flying needs an empty hand (settled point 5)
        else:
            flying = self.flying and own.bit_count() == 3
        neighbours = self.neighbours
        for frm in _points(own):
            rest = own ^ (1 << frm)
            row = (frm + 1) * 24
            for to in _points(empty if flying else neighbours[frm] & empty):
                index = (row + to) * 25
                for need in partners[to]:
                    if rest & need == need:
                        if slow:
                            out += self._mill_moves(frm, to, rest | 1 << to)
                            break
                        if removable < 0:
                            removable = self.removable(not turn)
                        if removable:
                            out += [moves[index + 1 + r] for r in _points(removable)]
                        else:
                            append(moves[index])
                        break
                else:
                    append(moves[index])
        return iter(out)

    def generate_legal_moves(self) -> Iterator[Move]:
        """The legal turns; nothing once the game is over."""
        if self.outcome() is not None:
            return iter(())
        return self.generate_moves()

    @property
    def legal_moves(self) -> LegalMoveView:
        """A lazy view of the legal turns."""
        return LegalMoveView(self)

    def has_moves(self) -> bool:
        """Whether the side to move has any turn (ignoring whether the game is over)."""
        turn = self.turn
        own = self._occ[turn]
        empty = self.points_in_play & ~(own | self._occ[not turn])
        if not empty:
            return False
        if self._hand[turn] or (self.flying and own.bit_count() == 3):
            return True
        if self._barred[turn]:
            # The one barred return may be the only move: generate to know.
            return any(True for _ in self.generate_moves())
        low, mid, high = self._spread
        return bool((low[own & 255] | mid[own >> 8 & 255] | high[own >> 16]) & empty)

    def illegal_reason(self, move: Move) -> str | None:
        """Why ``move`` is not legal here, or ``None`` if it is (English, for the engine's
        protocol and the journal; :meth:`illegal_message` for a person)."""
        outcome = self.outcome()
        if outcome is not None:  # the termination's machine word, for the journal
            return f"the game is over ({outcome.termination.value}, {outcome.result()})"
        message = self.illegal_message(move)
        return None if message is None else message.render("en")

    def illegal_message(self, move: Move) -> Message | None:
        """Why ``move`` is not legal here, as a message of the catalogs (rendered in the
        reader's language), or ``None`` if it is.

        >>> Board().illegal_message(Move.parse("a1-a4")).render("nl")
        'wit heeft nog stenen in de hand en moet er een zetten'
        """
        outcome = self.outcome()
        if outcome is not None:
            return msg("the game is over ({result})", result=outcome.result())
        turn = self.turn
        white = turn == WHITE
        own = self._occ[turn]
        opp = self._occ[not turn]
        occupied = own | opp
        to = move.to_point
        if not self.points_in_play >> to & 1:
            return msg(
                "{point} is not in play in {variant}",
                point=POINT_NAMES[to],
                variant=msg(self.variant.title),
            )
        if occupied >> to & 1:
            return msg("{point} is occupied", point=POINT_NAMES[to])
        frm = move.from_point
        if frm is None:
            if not self._hand[turn]:
                return (
                    msg("white has no piece in hand and must move a piece on the board")
                    if white
                    else msg("black has no piece in hand and must move a piece on the board")
                )
            new_own = own | 1 << to
        else:
            if self._hand[turn] and not self.move_while_placing:
                return (
                    msg("white still has pieces in hand and must place one")
                    if white
                    else msg("black still has pieces in hand and must place one")
                )
            if not own >> frm & 1:
                return (
                    msg("{point} holds no white piece", point=POINT_NAMES[frm])
                    if white
                    else msg("{point} holds no black piece", point=POINT_NAMES[frm])
                )
            if not self.can_fly(turn) and not self.neighbours[frm] >> to & 1:
                return msg(
                    "{origin} and {to} are not adjacent",
                    origin=POINT_NAMES[frm],
                    to=POINT_NAMES[to],
                )
            new_own = own ^ (1 << frm) | 1 << to
        if not self.forms_mill(new_own, to):
            if move.remove is not None:
                return msg(
                    "{move} closes no mill, so nothing may be removed",
                    move=move.without_removal(),
                )
            return None
        if frm is not None and self._barred[turn] == _bar_code(frm, to):
            return msg(
                "{move} goes straight back into a mill: last turn this piece left a mill at "
                "{to} and closed one at {origin}, which bars the return",
                move=move.without_removal(),
                to=POINT_NAMES[to],
                origin=POINT_NAMES[frm],
            )
        return self._removal_reason(move, self.removals_due(move), opp)

    def _removal_reason(self, move: Move, due: int, opp: int) -> Message | None:
        """Why the removals of ``move``, which must remove ``due`` pieces of ``opp``, are wrong."""
        black = self.turn == WHITE  # the pieces removed are the other side's
        removals = move.removals
        if len(removals) < due:
            if due == 1:
                return msg(
                    "{move} closes a mill: a removal must be given (e.g. {example})",
                    move=move,
                    example=str(move) + "x..",
                )
            return msg(
                "{move} closes two mills: two removals must be given",
                move=move.without_removal(),
            )
        if len(removals) > due:
            if not due:
                return msg("{point} holds no piece to remove", point=POINT_NAMES[removals[0]])
            return msg("{move} removes only one piece here", move=move.without_removal())
        for removed in removals:
            if not opp >> removed & 1:
                return (
                    msg("{point} holds no black piece", point=POINT_NAMES[removed])
                    if black
                    else msg("{point} holds no white piece", point=POINT_NAMES[removed])
                )
        if due == 1 and not self._removable_of(opp) >> removals[0] & 1:
            point = POINT_NAMES[removals[0]]
            return (
                msg("{point} stands in a mill and black has pieces outside mills", point=point)
                if black
                else msg("{point} stands in a mill and white has pieces outside mills", point=point)
            )
        if due == 2 and not self._pair_removable(opp, *removals):
            first, second = (POINT_NAMES[r] for r in removals)
            return (
                msg(
                    "{first} and {second} cannot both be removed: black has other pieces "
                    "outside mills",
                    first=first,
                    second=second,
                )
                if black
                else msg(
                    "{first} and {second} cannot both be removed: white has other pieces "
                    "outside mills",
                    first=first,
                    second=second,
                )
            )
        return None

    def closes_mill(self, move: Move) -> bool:
        """Whether the action of ``move`` (its removal ignored) closes a mill of the side to move.

        A mill closed when the opponent has no piece on the board removes nothing.
        """
        own = self._occ[self.turn]
        if move.from_point is not None:
            own &= ~(1 << move.from_point)
        return self.forms_mill(own | 1 << move.to_point, move.to_point)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is a legal turn here."""
        return self.illegal_message(move) is None

    # -- playing ----------------------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play ``move`` without checking it (fast; the search uses this). Undo with :meth:`pop`."""
        occ = self._occ
        turn = self.turn
        barred = self._barred
        self._stack.append(
            (occ[1], occ[0], self._hand[1], self._hand[0], self.no_removal_count, self._rep_start,
             barred[1], barred[0])
        )  # fmt: skip
        frm = move.from_point
        before = occ[turn]
        if frm is None:
            self._hand[turn] -= 1
            occ[turn] |= 1 << move.to_point
            irreversible = True
        else:
            occ[turn] ^= (1 << frm) | (1 << move.to_point)
            irreversible = False
        if self.return_mill_barred:
            # A piece that leaves a mill and closes one may not go straight back next turn.
            barred[turn] = (
                _bar_code(move.to_point, frm)
                if frm is not None
                and self.forms_mill(before, frm)
                and self.forms_mill(occ[turn], move.to_point)
                else 0
            )
        if move.remove is not None:
            occ[not turn] &= ~(1 << move.remove)
            if move.second_remove is not None:
                occ[not turn] &= ~(1 << move.second_remove)
            irreversible = True
            self.no_removal_count = 0
        elif frm is not None:
            self.no_removal_count += 1
        if not turn:
            self.fullmove_number += 1
        self.turn = not turn
        self.move_stack.append(move)
        if irreversible:
            self._rep_start = len(self._keys)
        self._keys.append(self._key())

    def pop(self) -> Move:
        """Undo the last turn and return it. Raises :class:`IndexError` if there is none."""
        move = self.move_stack.pop()
        (white, black, hand_w, hand_b, self.no_removal_count, self._rep_start,
         self._barred[1], self._barred[0]) = self._stack.pop()  # fmt: skip
        self._occ[1], self._occ[0] = white, black
        self._hand[1], self._hand[0] = hand_w, hand_b
        self.turn = not self.turn
        if not self.turn:
            self.fullmove_number -= 1
        self._keys.pop()
        return move

    def peek(self) -> Move:
        """The last turn played. Raises :class:`IndexError` if there is none."""
        return self.move_stack[-1]

    def parse_notation(self, text: str) -> Move:
        """Parse a turn and check that it is legal here.

        Raises :class:`InvalidMoveError` for bad syntax and :class:`IllegalMoveError` (naming the
        move, the reason and the position) for a turn the rules do not allow.
        """
        move = Move.parse(text)
        reason = self.illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {text!r}: {reason}, in {self.position()}")
        return move

    def push_notation(self, text: str) -> Move:
        """Parse, check and play a turn; return it. See :meth:`parse_notation` for errors."""
        move = self.parse_notation(text)
        self.push(move)
        return move

    # -- outcome ----------------------------------------------------------------------------

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the current position has occurred ``count`` times (this time included)."""
        keys = self._keys
        return keys[self._rep_start :].count(keys[-1]) >= count

    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on, else how it ended.

        Losses are checked before draws: a player who is down to two pieces or blocked has lost,
        even if the same position also repeats for the third time.
        """
        turn = self.turn
        for color in (turn, not turn):
            if self._occ[color].bit_count() + self._hand[color] < 3:
                return Outcome(Termination.TOO_FEW_PIECES, not color)
        if (
            self.full_board_is_draw
            and not self._hand[0]
            and not self._hand[1]
            and self.occupied == self.points_in_play
        ):
            return Outcome(Termination.FULL_BOARD, None)
        if not self.has_moves():
            return Outcome(Termination.BLOCKED, not turn)
        if self.threefold_repetition and self.is_repetition(3):
            return Outcome(Termination.THREEFOLD_REPETITION, None)
        if self.no_removal_limit is not None and self.no_removal_count >= self.no_removal_limit:
            return Outcome(Termination.NO_REMOVAL, None)
        return None

    def is_game_over(self) -> bool:
        """Whether the game has ended."""
        return self.outcome() is not None

    def result(self) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` while the game goes on."""
        outcome = self.outcome()
        return "*" if outcome is None else outcome.result()

    # -- position strings -------------------------------------------------------------------

    def _history(self) -> list[Move]:
        """The reversible turns since the last placement or removal (what repetition needs)."""
        reversible = len(self._keys) - 1 - self._rep_start
        if not reversible:
            return []
        moves = self._pre_history + self.move_stack if self._pre_history else self.move_stack
        return moves[len(moves) - reversible :]

    def position(self) -> str:
        """The position as one line of seven (Morabaraba: sometimes eight) space-separated fields.

        1. the 24 points in :data:`~morris.core.points.POINT_NAMES` order, ring by ring (outer,
           middle, inner) with ``/`` between rings: ``W`` white, ``B`` black, ``.`` empty;
        2. the side to move, ``w`` or ``b``;
        3. white's pieces in hand; 4. black's pieces in hand;
        5. moving-phase turns since the last removal (the no-removal rule);
        6. the turn number, starting at 1 and counting up after black's turn;
        7. the reversible turns since the last placement or removal, comma-separated, or ``-``:
           what threefold repetition needs to know;
        8. only while a return is barred (Morabaraba): the barred returns, comma-separated
           (``e4-d4``: the piece on e4 may not go back to d4 into a mill on its next turn).

        >>> Board().position()
        '......../......../........ w 9 9 0 1 -'
        """
        cells = []
        for p in range(NUM_POINTS):
            if self._occ[1] >> p & 1:
                cells.append("W")
            elif self._occ[0] >> p & 1:
                cells.append("B")
            else:
                cells.append(".")
            if p in (7, 15):
                cells.append("/")
        history = ",".join(str(m) for m in self._history()) or "-"
        text = (
            f"{''.join(cells)} {'w' if self.turn else 'b'} {self._hand[1]} {self._hand[0]} "
            f"{self.no_removal_count} {self.fullmove_number} {history}"
        )
        bars = [m for m in (self.barred_return(WHITE), self.barred_return(BLACK)) if m]
        if bars:
            text += " " + ",".join(str(m) for m in bars)
        return text

    @classmethod
    def from_position(cls, text: str, **settings: bool | int | None) -> Board:
        """A board set up from :meth:`position` text; ``settings`` are the keyword settings.

        Raises :class:`InvalidPositionError` (a :class:`ValueError`) naming the bad field.
        """
        return cls(text, **settings)  # type: ignore[arg-type]

    def _set_position(self, text: str) -> None:
        if not isinstance(text, str):
            raise InvalidPositionError(
                msg("a position must be text, not {kind}", kind=type(text).__name__)
            )
        fields = text.split()
        if len(fields) not in ((6, 7, 8) if self.return_mill_barred else (6, 7)):
            raise InvalidPositionError(
                msg(
                    "a position has 7 fields (board, side, white hand, black hand, no-removal "
                    "count, turn number, history), got {count}: {text}",
                    count=len(fields),
                    text=repr(text),
                )
            )
        board_field, side, hand_w, hand_b, count, fullmove = fields[:6]
        history_field = fields[6] if len(fields) >= 7 else "-"
        bars_field = fields[7] if len(fields) == 8 else "-"
        rings = board_field.split("/")
        if len(rings) != 3 or any(len(r) != 8 for r in rings):
            raise InvalidPositionError(
                msg(
                    "board field must be three rings of 8 points separated by '/': {field}",
                    field=repr(board_field),
                )
            )
        occ = [0, 0]
        for p, ch in enumerate("".join(rings)):
            if ch in "Ww":
                occ[1] |= 1 << p
            elif ch in "Bb":
                occ[0] |= 1 << p
            elif ch != ".":
                raise InvalidPositionError(
                    msg(
                        "board field: {char} at {point} is not W, B or '.'",
                        char=repr(ch),
                        point=POINT_NAMES[p],
                    )
                )
            if ch != "." and not self.points_in_play >> p & 1:
                raise InvalidPositionError(
                    msg(
                        "board field: a piece on {point}, which is not in play in {variant}",
                        point=POINT_NAMES[p],
                        variant=msg(self.variant.title),
                    )
                )
        if side not in ("w", "b"):
            raise InvalidPositionError(
                msg("side to move must be 'w' or 'b', not {side}", side=repr(side))
            )
        hands = [
            _field_number(msg("white hand"), hand_w),
            _field_number(msg("black hand"), hand_b),
        ]
        for color, hand in zip((WHITE, BLACK), hands, strict=True):
            total = hand + occ[color].bit_count()
            if total > self.pieces_per_side:
                on_board = occ[color].bit_count()
                raise InvalidPositionError(
                    msg(
                        "white hand: {hand} in hand and {board} on the board is more than {most} "
                        "pieces",
                        hand=hand,
                        board=on_board,
                        most=self.pieces_per_side,
                    )
                    if color == WHITE
                    else msg(
                        "black hand: {hand} in hand and {board} on the board is more than {most} "
                        "pieces",
                        hand=hand,
                        board=on_board,
                        most=self.pieces_per_side,
                    )
                )
        removal_count = _field_number(msg("no-removal count"), count)
        if _field_number(msg("turn number"), fullmove, msg("a number from 1")) < 1:
            raise InvalidPositionError(
                msg("turn number must be a number from 1, not {value}", value=repr(fullmove))
            )
        history: list[Move] = []
        if history_field != "-":
            for token in history_field.split(","):
                try:
                    move = Move.parse(token)
                except InvalidMoveError as exc:
                    raise InvalidPositionError(
                        msg("history: {problem}", problem=exc.message)
                    ) from None
                if move.from_point is None or move.remove is not None:
                    raise InvalidPositionError(
                        msg("history: {turn} is not a slide without removal", turn=repr(token))
                    )
                history.append(move)
        if len(history) > removal_count:
            raise InvalidPositionError(
                nmsg(
                    "history: {n} turn is more than the no-removal count {count}",
                    "history: {n} turns are more than the no-removal count {count}",
                    len(history),
                    count=count,
                )
            )
        # Undo the history to find where it started, then replay it so that repetitions count.
        turn = side == "w"
        color = not turn
        for move in reversed(history):
            assert move.from_point is not None
            frm, to = move.from_point, move.to_point
            if not occ[color] >> to & 1 or (occ[0] | occ[1]) >> frm & 1:
                names = {"turn": move, "to": POINT_NAMES[to], "origin": POINT_NAMES[frm]}
                raise InvalidPositionError(
                    msg(
                        "history: {turn} does not fit the board (white must be on {to} with "
                        "{origin} empty)",
                        **names,
                    )
                    if color == WHITE
                    else msg(
                        "history: {turn} does not fit the board (black must be on {to} with "
                        "{origin} empty)",
                        **names,
                    )
                )
            occ[color] ^= (1 << frm) | (1 << to)
            color = not color
        self._occ = occ
        self._hand = [hands[1], hands[0]]
        self.turn = not color  # the side that played the first turn of the history
        self.no_removal_count = removal_count - len(history)
        fullmove_root = int(fullmove)
        back = turn
        for _ in history:
            back = not back
            if back == BLACK:  # the undone turn was black's, so the turn number drops
                fullmove_root -= 1
        self.fullmove_number = max(1, fullmove_root)
        self._keys = [self._key()]
        self._rep_start = 0
        for move in history:
            reason = self.illegal_message(move)
            if reason is not None:
                raise InvalidPositionError(
                    msg("history: {turn} is not legal: {reason}", turn=move, reason=reason)
                )
            self.push(move)
        self.fullmove_number = int(fullmove)
        self._barred = self._read_bars(bars_field)

    def _read_bars(self, field: str) -> list[int]:
        """The barred returns of a position's eighth field (Morabaraba), as ``_barred``."""
        barred = [0, 0]
        if field == "-":
            return barred
        if not self.return_mill_barred:
            raise InvalidPositionError(
                msg(
                    "barred returns {field}: {variant} bars no return into a mill",
                    field=repr(field),
                    variant=msg(self.variant.title),
                )
            )
        for token in field.split(","):
            try:
                move = Move.parse(token)
            except InvalidMoveError as exc:
                raise InvalidPositionError(
                    msg("barred returns: {problem}", problem=exc.message)
                ) from None
            frm = move.from_point
            if frm is None or move.remove is not None:
                raise InvalidPositionError(
                    msg("barred returns: {turn} is not a slide", turn=repr(token))
                )
            color = self.piece_at(frm)
            if color is None:
                raise InvalidPositionError(
                    msg("barred returns: {turn}: no piece on its point", turn=repr(token))
                )
            if barred[color]:
                raise InvalidPositionError(
                    msg("barred returns: {turn}: white has one barred already", turn=repr(token))
                    if color == WHITE
                    else msg(
                        "barred returns: {turn}: black has one barred already", turn=repr(token)
                    )
                )
            barred[color] = _bar_code(frm, move.to_point)
        return barred

    # -- copies and display -----------------------------------------------------------------

    def copy(self, *, stack: bool = True) -> Board:
        """A copy of the board; with ``stack=False`` the copy has no turns to pop."""
        board = type(self).__new__(type(self))
        for name in SETTING_NAMES:
            setattr(board, name, getattr(self, name))
        board._occ = list(self._occ)
        board._barred = list(self._barred)
        board._hand = list(self._hand)
        board.turn = self.turn
        board.no_removal_count = self.no_removal_count
        board.fullmove_number = self.fullmove_number
        if stack:
            board.move_stack = list(self.move_stack)
            board._stack = list(self._stack)
            board._keys = list(self._keys)
            board._rep_start = self._rep_start
            board._pre_history = list(self._pre_history)
        else:
            # Keep what repetition needs: the keys since the last irreversible turn.
            board._pre_history = self._history()
            board.move_stack = []
            board._stack = []
            board._keys = self._keys[self._rep_start :]
            board._rep_start = 0
        return board

    def settings(self) -> dict[str, bool | int | None]:
        """The keyword settings of this board (flying, the draw rules, the removal switches)."""
        return {name: getattr(self, name) for name in SETTING_NAMES}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            type(self) is type(other)
            and self._occ == other._occ
            and self._hand == other._hand
            and self.turn == other.turn
            and self.no_removal_count == other.no_removal_count
            and (self.barred_return(WHITE), self.barred_return(BLACK))
            == (other.barred_return(WHITE), other.barred_return(BLACK))
        )

    __hash__ = None  # type: ignore[assignment]  # boards are mutable

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.position()!r})"

    def __str__(self) -> str:
        """The board drawn as in docs/RULES.md, ``W`` and ``B`` for the pieces.

        The lines are the variant's links: the diagonal corner lines of twelve men's morris and
        morabaraba as ``\\`` and ``/``; points not in play (six men's morris) are left blank.
        """
        grid = [[" "] * 28 for _ in range(13)]

        def at(point: Point) -> tuple[int, int]:  # (column, row) of a point in the drawing
            name = POINT_NAMES[point]
            return 3 + 4 * "abcdefg".index(name[0]), 2 * (7 - int(name[1]))

        for p in range(NUM_POINTS):
            for q in points_of(self.neighbours[p] & ~((2 << p) - 1)):
                (x0, y0), (x1, y1) = sorted((at(p), at(q)), key=lambda c: (c[1], c[0]))
                if y0 == y1:
                    for x in range(x0 + 1, x1):
                        grid[y0][x] = "-"
                elif x0 == x1:
                    for y in range(y0 + 1, y1):
                        grid[y][x0] = "|"
                else:  # a diagonal: its one midpoint
                    grid[(y0 + y1) // 2][(x0 + x1) // 2] = "\\" if x1 > x0 else "/"
        for p in points_of(self.points_in_play):
            x, y = at(p)
            color = self.piece_at(p)
            grid[y][x] = "." if color is None else ("W" if color else "B")
        rows = [
            ((f"{7 - y // 2}  " if y % 2 == 0 else "   ") + "".join(cells[3:])).rstrip()
            for y, cells in enumerate(grid)
        ]
        return "\n".join([*rows, "   a   b   c   d   e   f   g"])


Board._read_variant()
