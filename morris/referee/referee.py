"""The referee's state machine: timed sensor snapshots in, events out.

It debounces each point, reads the settled board (:mod:`morris.referee.reading`) and runs the
timers that turn a reading into an event: accept, flag, takeback, clear. See
:mod:`morris.referee` for the timings and an example.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from morris.core import (
    ALL_POINTS,
    COLOR_NAMES,
    NUM_POINTS,
    Board,
    Color,
    MorrisError,
    Move,
    names_of,
    points_of,
)
from morris.i18n import Message, joined, msg
from morris.referee.events import (
    Event,
    Flagged,
    GameOver,
    IllegalRemoval,
    MillClosed,
    Mismatch,
    NewGame,
    OpponentToMove,
    Resolved,
    SearchCancelled,
    SetUp,
    SetUpDone,
    TakenBack,
    TurnAccepted,
)
from morris.referee.reading import Kind, Reading, footprint, read_opponent_turn, read_person_turn

__all__ = ["Referee", "RefereeConfig", "RefereeError"]

logger = logging.getLogger(__name__)


class RefereeError(MorrisError, ValueError):
    """A call the referee cannot honour (a turn for the wrong side, an illegal turn)."""


@dataclass(frozen=True)
class RefereeConfig:
    """The referee's timings, in seconds. Delays count from the moment the board settled."""

    #: A point's change must last this long to count (contact bounce, a weak magnet's flicker).
    debounce: float = 0.1
    #: A settled legal turn is accepted after this long (keep ``debounce + accept_delay <= 1``).
    accept_delay: float = 0.5
    #: A settled board that no legal turn explains is flagged after this long.
    flag_delay: float = 5.0
    #: An earlier position restored on the board must stand this long to count as a takeback.
    takeback_delay: float = 1.5
    #: An empty board this long (while the game has pieces) starts a new game.
    clear_delay: float = 2.0

    def __post_init__(self) -> None:
        for name in ("debounce", "accept_delay", "flag_delay", "takeback_delay", "clear_delay"):
            value = getattr(self, name)
            if not value >= 0:
                raise ValueError(f"RefereeConfig.{name} must be a time >= 0, not {value!r}")


class Referee:
    """Turns timed sensor snapshots (bit ``p`` = a piece on point ``p``) into turns of ``board``.

    ``opponent_color`` is the opponent's colour (the Pi's, or a remote player's: the side whose
    turns the lights ask for), or ``None`` in referee mode (two people). ``sensed`` is the
    board's snapshot at ``now``; if it differs from ``board`` (a game resumed after a restart, a
    board not yet cleared) the lights guide the person to set it right before play goes on.
    ``None`` means "the board shows the game".

    Every call takes the time and returns the :class:`Event` s that happened up to it, in order.
    The referee pushes and pops turns on ``board``; search on a copy of it.
    """

    def __init__(
        self,
        board: Board,
        *,
        opponent_color: Color | None,
        config: RefereeConfig = RefereeConfig(),
        now: float = 0.0,
        sensed: int | None = None,
    ) -> None:
        self.board = board
        self.opponent_color = opponent_color
        self.config = config
        self._now = now
        snapshot = board.occupied if sensed is None else sensed & ALL_POINTS
        self._raw = snapshot
        self._changed_at = [now] * NUM_POINTS  # when each point's raw reading last changed
        self._settled = snapshot
        self._settled_at = now
        self._expected: Move | None = None
        #: Whether the settled board has shown the expected turn done whole since ``expect``.
        self._carried_out = False
        self._announced: Move | None = None  # the mill action MillClosed was sent for
        self._flagged = False
        self._flag_since = now
        self._guiding = snapshot != board.occupied and board.outcome() is None
        self._guide_since = now
        self._mismatch: Mismatch | None = None
        self._hint: Move | None = None
        self._hint_until = now
        self._link_up = True
        self._is_setting_up = False  # guiding the board to a set-up position (see set_up)
        #: Whether turns may be taken back (by the button or on the board); a game against a
        #: remote player has none, so that the two boards never differ.
        self.takebacks = True
        self._reading = Reading(Kind.SAME)
        self._evaluate([])

    # -- state --------------------------------------------------------------------------------

    @property
    def sensed(self) -> int:
        """The debounced snapshot: what the referee believes stands on the board."""
        return self._settled

    @property
    def opponent_to_move(self) -> bool:
        """Whether it is the opponent's turn (there is one, and the game is not over)."""
        return (
            self.opponent_color is not None
            and self.board.turn == self.opponent_color
            and self.board.outcome() is None
        )

    @property
    def expected(self) -> Move | None:
        """The opponent's chosen turn, waiting to be carried out on the board."""
        return self._expected

    @property
    def mismatch(self) -> Mismatch | None:
        """The difference the lights show: a flagged board, or guidance to set the board right."""
        return self._mismatch

    @property
    def is_flagged(self) -> bool:
        """Whether the board is flagged as wrong (a Flagged or IllegalRemoval not yet resolved)."""
        return self._flagged

    @property
    def is_guiding(self) -> bool:
        """Whether the board must first be set to the game (after takeback, new game, resume)."""
        return self._guiding

    @property
    def is_game_over(self) -> bool:
        """Whether the accepted game has ended."""
        return self.board.outcome() is not None

    @property
    def link_up(self) -> bool:
        """``False`` between :meth:`link_lost` and :meth:`link_restored`."""
        return self._link_up

    @property
    def lifted(self) -> int:
        """Pieces of the side to move that are off their points (a bitmask)."""
        if self.is_game_over:
            return 0
        return self.board.occupied_co(self.board.turn) & ~self._settled

    @property
    def pending_action(self) -> Move | None:
        """A person's mill-closing action on the board, waiting for its removal (once announced)."""
        r = self._reading
        if r.kind in (Kind.MILL, Kind.ILLEGAL) and (r.fired or r.action == self._announced):
            return r.action
        return None

    @property
    def removable(self) -> int:
        """The opponent pieces that may be removed now, while :attr:`pending_action` is set."""
        return self._reading.removable if self.pending_action is not None else 0

    @property
    def illegal_removal(self) -> int:
        """Unremovable opponent pieces lifted after a mill (flagged), as a bitmask."""
        r = self._reading
        return r.illegal if r.kind is Kind.ILLEGAL and r.fired else 0

    @property
    def targets(self) -> int:
        """Points where a person's lifted piece (or the action after a removal) may go."""
        return self._reading.targets if self._reading.kind in (Kind.PARTIAL, Kind.COMMIT) else 0

    def hint_shown(self, now: float) -> Move | None:
        """The hinted turn if it is still to be shown at ``now``."""
        return self._hint if self._hint is not None and now < self._hint_until else None

    # -- calls from the daemon -------------------------------------------------------------------

    def update(self, sensed: int, now: float) -> list[Event]:
        """A new raw sensor snapshot (bit ``p`` = point ``p``) at ``now``."""
        events = self._advance(now)
        if not self._link_up:
            return events  # a stray reading from a link we consider lost
        sensed &= ALL_POINTS
        changed = sensed ^ self._raw
        for p in points_of(changed):
            self._changed_at[p] = self._now
        self._raw = sensed
        events += self._advance(now)
        return events

    def poll(self, now: float) -> list[Event]:
        """Time passed with no change; call it at :meth:`next_deadline`."""
        return self._advance(now)

    def next_deadline(self) -> float | None:
        """When :meth:`poll` must next be called, or ``None`` while nothing is pending."""
        return self._next_due()

    def expect(self, move: Move, now: float) -> list[Event]:
        """The opponent chose ``move``: from now on the board should show it carried out.

        Raises :class:`RefereeError` if it is not the opponent's turn or the move is illegal; a
        daemon that drops its search on :class:`SearchCancelled` never sees that.
        """
        events = self._advance(now)
        if not self.opponent_to_move:
            raise RefereeError(
                f"expect({move}): it is not the opponent's turn in {self.board.position()}"
            )
        reason = self.board.illegal_reason(move)
        if reason is not None:
            raise RefereeError(f"expect({move}): {reason}, in {self.board.position()}")
        self._expected = move
        self._carried_out = False
        self._hint = None
        self._evaluate(events)
        events += self._advance(now)
        return events

    def takeback(self, now: float) -> list[Event]:
        """The takeback button: undo the last person's turn (and the opponent's reply to it).

        The lights then show how to set the board back (missing ``on``, unexpected ``fast``).
        Does nothing when no person's turn is left to undo.
        """
        events = self._advance(now)
        count = self._takeback_count()
        if not count:
            return events
        self._undo(count, events)
        events += self._advance(now)
        return events

    def new_game(self, now: float, board: Board | None = None) -> list[Event]:
        """The new-game button: a fresh game (same variant and settings unless ``board``).

        Pieces still standing blink ``fast`` until removed; the game starts once the board is
        empty.
        """
        events = self._advance(now)
        self._start_new_game(events, board)
        events += self._advance(now)
        return events

    def set_up(self, board: Board, now: float, sensed: int | None = None) -> list[Event]:
        """Play from ``board`` (a position set up by a person) instead of the game.

        ``sensed`` is the board's raw snapshot now when the referee has not been told it (the
        caller stopped feeding it while the person arranged pieces); ``None`` keeps what it
        knows. Returns :class:`SetUp`; the lights then guide the board to the position exactly
        as after a restart (missing ``on``, unexpected ``fast``), an emptied board meanwhile
        waits instead of starting a new game, and once the board matches come
        :class:`SetUpDone` and, if the opponent is to move, :class:`OpponentToMove`. Raises
        :class:`RefereeError` for a finished position.
        """
        outcome = board.outcome()
        if outcome is not None:
            raise RefereeError(
                f"set_up: the game is already over ({outcome.result()}) in {board.position()}"
            )
        events = self._advance(now)
        if self.opponent_to_move:
            events.append(SearchCancelled())
        if sensed is not None:
            sensed &= ALL_POINTS
            for p in points_of(sensed ^ self._raw):
                self._changed_at[p] = self._now
            self._raw = self._settled = sensed
            self._settled_at = self._now
        self.board = board
        self._expected = None
        self._announced = None
        self._hint = None
        if self._flagged:
            self._flagged = False
            events.append(Resolved())
        self._guiding = self._is_setting_up = True
        self._guide_since = self._now
        events.append(SetUp(board.position()))
        logger.info("set up %s", board.position())
        self._evaluate(events)
        events += self._advance(now)
        return events

    def hint(self, move: Move, now: float, duration: float = 4.0) -> list[Event]:
        """Show ``move`` (for the side to move) for ``duration`` or until the board changes."""
        events = self._advance(now)
        reason = self.board.illegal_reason(move)
        if reason is not None:
            raise RefereeError(f"hint({move}): {reason}, in {self.board.position()}")
        self._hint = move
        self._hint_until = self._now + duration
        return events

    def link_lost(self, now: float) -> list[Event]:
        """The board's link is down: nothing is read or accepted until :meth:`link_restored`."""
        events = self._advance(now)
        self._link_up = False
        logger.warning("board link lost at %.2f", self._now)
        return events

    def link_restored(self, sensed: int, now: float) -> list[Event]:
        """The link is back with a fresh snapshot.

        Whatever happened while it was down is not replayed: the snapshot is a new raw reading that
        must settle and stay as usual, so it can only become a turn if it is one, whole.
        """
        events = self._advance(now)
        self._link_up = True
        sensed &= ALL_POINTS
        self._raw = sensed
        for p in points_of(sensed ^ self._settled):
            self._changed_at[p] = self._now
        self._settled_at = self._now  # what settled before the outage must stand again
        self._evaluate(events)
        events += self._advance(now)
        return events

    # -- time ---------------------------------------------------------------------------------

    def _next_due(self) -> float | None:
        candidates: list[float] = []
        if self._link_up:
            pending = self._raw ^ self._settled
            if pending:
                candidates.append(
                    min(self._changed_at[p] for p in points_of(pending)) + self.config.debounce
                )
            if self._reading.due is not None and not self._reading.fired:
                candidates.append(max(self._reading.due, self._now))
        if self._hint is not None:
            candidates.append(self._hint_until)
        return min(candidates) if candidates else None

    def _advance(self, now: float) -> list[Event]:
        events: list[Event] = []
        now = max(now, self._now)
        for _ in range(10_000):  # each step settles a point or fires a timer; never spins
            due = self._next_due()
            if due is None or due > now:
                break
            self._now = max(due, self._now)
            self._step(events)
        self._now = now
        return events

    def _step(self, events: list[Event]) -> None:
        """Do what is due at ``self._now``: settle points first, then the reading's timer."""
        now = self._now
        if self._link_up:
            pending = self._raw ^ self._settled
            ripe = 0
            for p in points_of(pending):
                if self._changed_at[p] + self.config.debounce <= now:
                    ripe |= 1 << p
            if ripe:
                self._settled ^= ripe
                self._settled_at = now
                self._hint = None  # the board changed
                self._evaluate(events)
                return
            r = self._reading
            if r.due is not None and not r.fired and r.due <= now:
                self._fire(events)
                return
        if self._hint is not None and self._hint_until <= now:
            self._hint = None

    # -- reading the board --------------------------------------------------------------------

    def _read(self) -> Reading:
        board = self.board
        sensed = self._settled
        occupied = board.occupied
        if board.outcome() is not None:
            return Reading(Kind.CLEAR if sensed == 0 and occupied else Kind.IDLE)
        if self._guiding:
            # A board found empty when the guidance began (a game resumed after a restart) waits
            # to be set up; only a board emptied since then starts a new game.
            emptied = sensed == 0 and self._settled_at > self._guide_since
            # While a set-up position is arranged, the board is often cleared first.
            emptied = emptied and not self._is_setting_up
            return Reading(Kind.CLEAR if emptied else Kind.GUIDE)
        if self.opponent_to_move:
            if self._expected is not None:
                reading = read_opponent_turn(
                    board, self._expected, sensed, carried_out=self._carried_out
                )
                if reading is not None:
                    return reading
            elif sensed == occupied:
                return Reading(Kind.SAME)
        else:
            if sensed == occupied:
                return Reading(Kind.SAME)
            reading = read_person_turn(board, sensed)
            if reading is not None:
                return reading
        # A legal forward reading always wins; only then may the board be a takeback.
        count = self._takeback_count()
        if count:
            earlier = board.copy()
            for _ in range(count):
                earlier.pop()
            if sensed == earlier.occupied:
                return Reading(Kind.TAKEBACK, undo=count)
        if sensed == 0 and occupied:
            return Reading(Kind.CLEAR)
        return Reading(Kind.UNEXPLAINED, flaggable=True, reason=self._unexplained_reason())

    def _unexplained_reason(self) -> Message:
        board = self.board
        sensed = self._settled
        added = sensed & ~board.occupied
        removed = board.occupied & ~sensed
        parts = []
        if self.opponent_to_move:
            if self._expected is None:
                parts.append(msg("the board changed while the Pi thinks"))
            else:
                parts.append(
                    msg("the Pi's turn {move} is carried out wrongly", move=self._expected)
                )
        else:
            # The colour's and the variant's names are catalog entries too (morris.app.narration
            # marks the same English words).
            parts.append(
                msg(
                    "no legal turn of {colour} explains the board",
                    colour=msg(COLOR_NAMES[board.turn]),
                )
            )
        outside = added & ~board.points_in_play
        if outside:
            parts.append(
                msg(
                    "{points} not in play in {variant}",
                    points=" ".join(names_of(outside)),
                    variant=msg(board.variant.title),
                )
            )
        if added:
            parts.append(msg("new pieces on {points}", points=" ".join(names_of(added))))
        if removed:
            parts.append(msg("pieces gone from {points}", points=" ".join(names_of(removed))))
        return joined(parts)

    def _evaluate(self, events: list[Event]) -> None:
        """Read the settled board again after it or the game changed; set the reading's timer."""
        if self._guiding and (self._settled == self.board.occupied or self.is_game_over):
            self._guiding = False
            if self._is_setting_up:
                self._is_setting_up = False
                events.append(SetUpDone())
                if self.opponent_to_move:
                    events.append(OpponentToMove())
        reading = self._read()
        kind = reading.kind
        if kind is Kind.TURN and self._expected is not None and reading.moves == (self._expected,):
            self._carried_out = True
        if self._flagged:
            # A wrong board stays flagged while it stays wrong; a half-done opponent's turn only
            # until the board changes (its timer then starts again).
            still_wrong = kind in (Kind.UNEXPLAINED, Kind.ILLEGAL) or (
                reading.flaggable and self._settled_at <= self._flag_since
            )
            if not still_wrong:
                self._flagged = False
                events.append(Resolved())
        cfg = self.config
        start = self._settled_at
        if kind in (Kind.TURN, Kind.COMMIT, Kind.ILLEGAL):
            reading.due = start + cfg.accept_delay
        elif kind is Kind.MILL:
            if reading.action == self._announced:
                reading.fired = True  # already announced: its lights stay on without a wait
            else:
                reading.due = start + cfg.accept_delay
        elif kind is Kind.TAKEBACK:
            reading.due = start + cfg.takeback_delay
        elif kind is Kind.CLEAR:
            reading.due = start + cfg.clear_delay
        elif reading.flaggable and not self._flagged:
            reading.due = start + cfg.flag_delay
        self._reading = reading
        self._update_mismatch()

    def _update_mismatch(self) -> None:
        sensed = self._settled
        if self._guiding:
            reference = self.board.occupied
            since = self._guide_since
        elif self._flagged and self._reading.flaggable:
            reference = self._reference()
            since = self._flag_since
        else:
            self._mismatch = None
            return
        self._mismatch = Mismatch(reference & ~sensed, sensed & ~reference, since)

    def _reference(self) -> int:
        """What a wrong board should be: the opponent's turn done, or the position (or mill
        action)."""
        board = self.board
        if self._expected is not None:
            after = board.copy()
            after.push(self._expected)
            return after.occupied
        candidates = [board.occupied]
        if self._announced is not None:
            fills, clears = footprint(self._announced)
            candidates.append(board.occupied & ~clears | fills)
        return min(candidates, key=lambda ref: (ref ^ self._settled).bit_count())

    # -- acting on a reading --------------------------------------------------------------------

    def _fire(self, events: list[Event]) -> None:
        r = self._reading
        r.fired = True
        kind = r.kind
        if kind in (Kind.TURN, Kind.COMMIT):
            for move in r.moves:
                if not self._accept(move, events):
                    break
            self._after_change(events, was_opponent_to_move=False)
        elif kind in (Kind.MILL, Kind.ILLEGAL):
            assert r.action is not None
            if self._announced != r.action:
                self._announced = r.action
                events.append(MillClosed(r.action, r.removable, r.removals))
            if kind is Kind.ILLEGAL:
                self._flag(events)
                for p in points_of(r.illegal):
                    events.append(IllegalRemoval(p))
        elif kind is Kind.TAKEBACK:
            self._undo(r.undo, events)
        elif kind is Kind.CLEAR:
            self._start_new_game(events, None)
        elif r.flaggable:
            self._flag(events)
            self._update_mismatch()
            assert self._mismatch is not None
            events.append(Flagged(self._mismatch.missing, self._mismatch.unexpected, r.reason))
            logger.info("flagged: %s", r.reason.render("en"))

    def _flag(self, events: list[Event]) -> None:
        if not self._flagged:
            self._flagged = True
            self._flag_since = self._now

    def _accept(self, move: Move, events: list[Event]) -> bool:
        """Push ``move``; return whether the game goes on."""
        color = self.board.turn
        by_opponent = color == self.opponent_color
        self.board.push(move)
        self._announced = None
        if by_opponent:
            self._expected = None
        events.append(TurnAccepted(move, color, by_opponent))
        # DEBUG: the controller logs the turn once it is saved.
        logger.debug("accepted %s (%s)", move, "opponent" if by_opponent else COLOR_NAMES[color])
        outcome = self.board.outcome()
        if outcome is not None:
            events.append(GameOver(outcome))
            return False
        return True

    def _after_change(self, events: list[Event], *, was_opponent_to_move: bool) -> None:
        """The game changed: read the board again and tell the controller if the opponent is now
        to move."""
        self._hint = None
        self._evaluate(events)
        if self.opponent_to_move and not was_opponent_to_move:
            events.append(OpponentToMove())

    def _takeback_count(self) -> int:
        """How many turns a takeback undoes: the person's last turn and the opponent's reply to
        it."""
        stack = self.board.move_stack
        if not self.takebacks:
            return 0
        if self.opponent_color is None:
            return 1 if stack else 0
        if self.board.turn == self.opponent_color:  # the person's turn was the last one
            return 1 if stack else 0
        return 2 if len(stack) >= 2 else 0

    def _undo(self, count: int, events: list[Event]) -> None:
        was_opponent_to_move = self.opponent_to_move
        undone = [self.board.pop() for _ in range(count)]
        undone.reverse()
        self._is_setting_up = False
        self._expected = None
        self._announced = None
        if was_opponent_to_move:
            events.append(SearchCancelled())
        events.append(TakenBack(undone))
        logger.info("taken back: %s", " ".join(str(m) for m in undone))
        if self._settled != self.board.occupied:  # the button: guide the board back
            self._guiding = True
            self._guide_since = self._now
        self._after_change(events, was_opponent_to_move=False)

    def _start_new_game(self, events: list[Event], board: Board | None) -> None:
        if self.opponent_to_move:
            events.append(SearchCancelled())
        if board is None:
            self.board.reset()
        else:
            self.board = board
        self._is_setting_up = False
        self._expected = None
        self._announced = None
        events.append(NewGame())
        logger.info("new game")
        if self._settled != self.board.occupied:
            self._guiding = True
            self._guide_since = self._now
        self._after_change(events, was_opponent_to_move=False)
