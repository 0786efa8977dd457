"""What a display of the game reads: the controller's :class:`Snapshot`, and the hooks that
hand each new one (and each thing said aloud) to whoever watches.

Front ends (the terminal UI, the web companion, the daemon's status file) read snapshots and act
only through the controller's commands; :class:`Watchers` calls them on the controller's own
loop, right after a change.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from morris.app.mode import Mode
from morris.app.narration import Announcement
from morris.app.values import ValueJson
from morris.i18n import Message, msg, plain
from morris_device import Signal, StatusLight

logger = logging.getLogger(__name__)


@dataclass
class ControllerState:
    """What the controller tells the outside world (the simulator, the status file)."""

    #: The last thing that happened, as a message of the catalogs (:mod:`morris.i18n`): the
    #: board renders it in its language (:attr:`last_event`), a page in its reader's.
    event: Message = field(default_factory=lambda: msg("started"))
    thinking: bool = False
    #: Why the Pi does not play with the configured engine (the external one failed), or None.
    engine_warning: str | None = None
    history: list[str] = field(default_factory=list)

    @property
    def last_event(self) -> str:
        """The last thing that happened, in the board's language."""
        return self.event.render()

    @last_event.setter
    def last_event(self, value: Message | str) -> None:
        """Set :attr:`event`; plain text (no catalog entry) is shown as it is."""
        self.event = value if isinstance(value, Message) else plain(value)


@dataclass(frozen=True)
class Snapshot:
    """Everything a display of the game needs, read-only, as of one instant.

    Front ends (the terminal UI, the web companion) draw from this and act only through the
    controller's button commands; nothing in it changes the game.
    """

    #: The accepted game as a position text (:meth:`morris.core.Board.position`).
    position: str
    #: The accepted turns, in notation, oldest first.
    moves: tuple[str, ...]
    #: The number of the turn being played (1 for White's first, as in the position text).
    fullmove: int
    #: The number and the side of the first turn in :attr:`moves` (a game set up or resumed
    #: from a position does not start at 1).
    first_fullmove: int
    first_turn: str
    #: The side to move: ``"white"`` or ``"black"``.
    turn: str
    #: The game's pieces: point name -> ``"white"`` or ``"black"``.
    pieces: Mapping[str, str]
    #: Pieces still in hand, by colour name.
    in_hand: Mapping[str, int]
    #: The signal of every one of the 24 point LEDs, by point name.
    lights: Mapping[str, Signal]
    #: Since when each point LED shows its signal: its blink starts lit then, as on the board
    #: (:func:`morris_device.signal_level`).
    lights_since: Mapping[str, float]
    #: The signal of every status LED.
    status: Mapping[StatusLight, Signal]
    #: Since when each status LED shows its signal.
    status_since: Mapping[StatusLight, float]
    #: The mode (a :class:`~morris.app.mode.Mode`, its value in JSON: ``"vs-ai"``,
    #: ``"referee"`` or ``"remote"``).
    mode: Mode
    #: The person's colour against the Pi (``"white"`` or ``"black"``).
    human: str
    #: The Pi's level.
    level: int
    #: The Pi's colour when it is the opponent (mode ``"vs-ai"``), else ``None`` (it only
    #: referees, or the opponent is a remote player: :attr:`remote_color`).
    pi_color: str | None
    #: The remote player's colour in mode ``"remote"``, else ``None``.
    remote_color: str | None
    #: The remote player's connection: ``"none"`` (no remote player: another mode), ``"up"``
    #: (connected) or ``"waiting"`` (not connected: nothing is lost, play resumes on reconnect).
    #: The JSON keeps the name ``link`` (:func:`morris.web.state.state_json`).
    connection: str
    #: Who the remote player is in mode ``"remote"``: ``"page"`` (a person on the web page, which
    #: is then the remote player's board) or ``"board"`` (a paired board in another house); else
    #: ``None``.
    remote_player: str | None
    #: While a position is set up with the board's buttons: the colour new pieces get
    #: (``"white"`` or ``"black"``, also the side to move at the end); else ``None``.
    board_setup: str | None
    #: Whether the Pi is searching for its turn.
    thinking: bool
    #: The last thing that happened, in full ("Pi plays b4", "board does not match: ..."), in
    #: the board's language; :attr:`event_message` is the same to render in another.
    event: str
    #: ``None`` while the game goes on; else the result and why ("1-0 (white wins: black has only
    #: two pieces)"), a message (``str()``: the board's language; a page renders its reader's).
    outcome: Message | None
    #: The winner's colour once the game is over, ``None`` for a draw or a game going on.
    winner: str | None
    #: Why the game ended (:class:`morris.core.Termination` value), ``None`` while it goes on.
    termination: str | None
    #: Whether the board is flagged as not matching the game.
    flagged: bool
    #: The variant's name (``"standard"``, ``"twelve"``) and whether flying is on.
    variant: str
    flying: bool
    #: The solved game's value of the position for the side to move, where a loaded solution
    #: covers it (:mod:`morris.app.values`: ``{"value", "distance", "for"}``), else ``None``.
    solution: ValueJson | None = None
    #: The puzzle being played (:meth:`morris.app.puzzle.PuzzleSession.summary`:
    #: title, status, turns, hints ...), or ``None``.
    puzzle: Mapping[str, object] | None = None
    #: In mode ``"remote"``: why the connection is not up ("connection refused to http://..."),
    #: or ``None`` (the JSON's ``link_reason``).
    connection_reason: str | None = None
    #: :attr:`event` as a message of the catalogs (:meth:`morris.i18n.Message.render`).
    event_message: Message = field(default_factory=lambda: plain(""))
    #: Where the sensors see a piece at this instant, sorted: every reading, before the referee
    #: has settled or read it (a display draws a piece the game has not read, or one lifted).
    sensed: tuple[str, ...] = ()


Subscriber = Callable[[Snapshot], None]
Announcer = Callable[[Announcement], None]


class Watchers:
    """The subscribers to snapshots and the announcers of what is said aloud."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._announcers: list[Announcer] = []
        self._published: Snapshot | None = None

    def __bool__(self) -> bool:
        """Whether anyone subscribed to the snapshots (else none need be taken)."""
        return bool(self._subscribers)

    def subscribe(
        self, subscriber: Subscriber, present: Callable[[], Snapshot]
    ) -> Callable[[], None]:
        """Call ``subscriber`` with every new :class:`Snapshot` published; return a function
        that stops the calls. The first subscriber's start is ``present()``: only later
        changes are published."""
        if not self._subscribers:
            self._published = present()
        self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            with contextlib.suppress(ValueError):
                self._subscribers.remove(subscriber)

        return unsubscribe

    def on_announcement(self, announcer: Announcer) -> Callable[[], None]:
        """Call ``announcer`` with each announcement; return a function that stops the calls."""
        self._announcers.append(announcer)

        def stop() -> None:
            with contextlib.suppress(ValueError):
                self._announcers.remove(announcer)

        return stop

    def announce(self, announcement: Announcement) -> None:
        """Hand ``announcement`` to every announcer; one that raises is logged and dropped."""
        for announcer in list(self._announcers):
            try:
                announcer(announcement)
            except Exception:
                logger.exception("an announcer failed; it is dropped")
                with contextlib.suppress(ValueError):
                    self._announcers.remove(announcer)

    def publish(self, snapshot: Snapshot) -> None:
        """Hand ``snapshot`` to every subscriber unless it is the one published last; one that
        raises is logged and dropped."""
        if snapshot == self._published:
            return
        self._published = snapshot
        for subscriber in list(self._subscribers):
            try:
                subscriber(snapshot)
            except Exception:
                logger.exception("a display's subscriber failed; it is dropped")
                with contextlib.suppress(ValueError):
                    self._subscribers.remove(subscriber)
