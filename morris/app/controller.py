"""The controller: the board device, the referee, the opponent's turns and the saved game,
composed.

The controller is single-threaded and has no clock of its own: the daemon feeds it from one
event queue in real time, the simulator calls it directly in virtual time. Searches run through a
:class:`SearchRunner` (a worker thread in the daemon, an immediate computation delivered after a
virtual delay in the simulator), so sensing and lights never wait for the Pi to think.

The opponent's turns come from the Pi, or in mode ``remote`` from a remote player
(:meth:`Controller.remote_move`), both shown through the referee's expect path; a position can be
set up (:meth:`Controller.set_up`, or with the board's buttons). This module is where these meet
the board: it reacts to each input and decides, and what stands alone lives beside it: the
board's menu (:mod:`morris.app.menu`), the words of the events (:mod:`morris.app.narration`),
the saved games (:mod:`morris.app.persistence`), the remote player's connection
(:mod:`morris.app.remote`), the snapshot and its watchers (:mod:`morris.app.snapshot`), the
puzzles (:mod:`morris.app.puzzle`), the board setup (:mod:`morris.app.board_setup`)
and the searches (:mod:`morris.app.jobs`).
"""

from __future__ import annotations

import concurrent.futures
import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from morris.app.board_setup import (
    BoardSetup,
)
from morris.app.config import Config, board_for, board_from_config
from morris.app.endings import outcome_words
from morris.app.jobs import SearchRunner
from morris.app.menu import MenuChoice, ModeMenu
from morris.app.mode import Mode
from morris.app.narration import (
    Announcement,
    Kind,
    narrate,
    opponent_plays,
    opponent_turn,
    who_plays,
)
from morris.app.persistence import GameKeeper, resume
from morris.app.puzzle import PuzzleSession
from morris.app.remote import RemoteConnection, check_remote_move
from morris.app.searching import SearchDriving
from morris.app.setups import SetupDriving
from morris.app.snapshot import Announcer, ControllerState, Snapshot, Subscriber, Watchers
from morris.app.store import GameStore, SavedGame
from morris.app.values import PositionValues
from morris.core import (
    BLACK,
    COLOR_NAMES,
    POINT_NAMES,
    WHITE,
    Board,
    Color,
    Move,
    mask_of,
)
from morris.engine.errors import SolutionError
from morris.i18n import Message, msg
from morris.referee import (
    Event,
    Flagged,
    GameOver,
    IllegalRemoval,
    NewGame,
    OpponentToMove,
    Referee,
    RefereeConfig,
    SearchCancelled,
    SetUp,
    SetUpDone,
    TakenBack,
    TurnAccepted,
)
from morris.referee.lights import Choice, Overlay, compute_lights, status_lights
from morris_device import BlinkClock, BoardDevice, ButtonName, Signal, StatusLight

if TYPE_CHECKING:
    from morris.engine.solution import Solution

logger = logging.getLogger(__name__)


def referee_config(config: Config) -> RefereeConfig:
    """The referee's timings from the configuration."""
    t = config.referee
    return RefereeConfig(
        debounce=t.debounce,
        accept_delay=t.accept_delay,
        flag_delay=t.flag_delay,
        takeback_delay=t.takeback_delay,
        clear_delay=t.clear_delay,
    )


class Controller(SetupDriving, SearchDriving):
    """Plays one board: reacts to sensors, buttons, finished searches and the passing of time.

    Its parts beside this module: :class:`~morris.app.setups.SetupDriving` (positions set up,
    puzzles) and :class:`~morris.app.searching.SearchDriving` (the Pi's searches).
    """

    def __init__(
        self,
        device: BoardDevice,
        config: Config,
        runner: SearchRunner,
        *,
        store: GameStore | None = None,
        now: float = 0.0,
        resume: bool = True,
        insist: Iterable[str] = (),
        solution: Solution | None = None,
    ) -> None:
        SearchDriving.__init__(self, runner)
        self.device = device
        #: The solved game's values of the positions shown, and its hints (``solution``).
        self.values = PositionValues(solution)
        self.config = config
        #: The saved games (:mod:`morris.app.persistence`): its ``store`` is where they go.
        self.keeper = GameKeeper(store)
        self.mode = config.game.mode
        self.human = config.game.human
        self.level = config.game.level
        self.state = ControllerState()
        #: A choice shown on the point LEDs until ``_choice_until`` (the mode button, ...).
        self._choice: Choice | None = None
        self._choice_until = 0.0
        #: The mode, level and variant chosen at the board for the next game.
        self.menu = ModeMenu(config.game.variant, now)
        # What the LEDs were told to show, and since when (the phase of their blinks).
        self._shown: BlinkClock[str] = BlinkClock()
        self._shown_status: BlinkClock[StatusLight] = BlinkClock()
        self.watchers = Watchers()
        self._rendered_at = now
        self._board_setup: BoardSetup | None = None
        self._hint_presses: list[float] = []
        #: The remote player's connection (mode remote; see :meth:`on_remote_connection`).
        self.remote = RemoteConnection()
        #: Whether the game is the saved one, resumed (the lights then guide the board to it).
        self.resumed = False
        #: The puzzle being played (:meth:`start_puzzle`), or ``None``.
        self.puzzle: PuzzleSession | None = None
        #: Where the puzzles come from (:meth:`puzzle_source`): the loaded solution,
        #: else the config's ``engine.solution`` opened with the first puzzle.
        self.puzzle_solution: Solution | None = solution
        self._board_puzzles = 0  # how many the board asked for: each one's seed
        board = board_from_config(config)
        if resume and store is not None:
            saved = store.load()
            if saved is not None and saved.board.outcome() is None:
                board = self._resume(saved, frozenset(insist)) or board
        #: The newest sensor reading (:attr:`Snapshot.sensed`).
        self.sensed: frozenset[str] = frozenset(device.sensors())
        self.referee = self._new_referee(board, now, mask_of(self.sensed))
        if self.referee.opponent_to_move and board.outcome() is None and self.mode is Mode.VS_AI:
            self._start_search("move", now)
        self.render(now)

    def _resume(self, saved: SavedGame, insist: frozenset[str]) -> Board | None:
        """Take up ``saved`` (:func:`morris.app.persistence.resume`); ``None``: a new game."""
        taken = resume(saved, self.config, insist, self.keeper)
        self.state.last_event = taken.event
        if taken.board is None:
            return None
        self.mode, self.human, self.level = taken.mode, taken.human, taken.level
        self.resumed = True
        return taken.board

    def keep_abandoned(self) -> Path | None:
        """Keep the game in progress (turns played, not over) among the finished games, result
        ``*`` (as a resumed game that the settings contradict is kept), and forget it as the
        unfinished one: before a new game replaces it. Returns the record's path, or ``None``
        (nothing to keep, no store, or the record could not be written: logged)."""
        return self.keeper.keep_abandoned(
            self.board, self.mode, self.human, self.level, self._record_tags()
        )

    def _record_tags(self) -> dict[str, str]:
        """The tags that mark a game record as a puzzle's (while one is played)."""
        if self.puzzle is None:
            return {}
        return {"Event": "Training puzzle", "Puzzle": self.puzzle.puzzle.title}

    def _save(self) -> bool:
        """Save the unfinished game; ``False`` if it could not be (no store is not a failure)."""
        return self.keeper.save(self.board, self.mode, self.human, self.level)

    def _new_referee(self, board: Board, now: float, sensed: int) -> Referee:
        """A referee for ``board`` in the current mode: the opponent's turns (the Pi's or the
        remote player's) are shown by the lights; against a remote player nothing is taken back
        (the two games must stay one)."""
        referee = Referee(
            board,
            opponent_color=self.opponent_color,
            config=referee_config(self.config),
            now=now,
            sensed=sensed,
        )
        referee.takebacks = self.mode is not Mode.REMOTE
        return referee

    # -- what the game is -----------------------------------------------------------------

    @property
    def pi_color(self) -> Color | None:
        """The Pi's colour when it is the opponent (mode vs-ai), else ``None``: it only
        referees, or the opponent is a remote player."""
        return self.opponent_color if self.mode is Mode.VS_AI else None

    @property
    def remote_color(self) -> Color | None:
        """The remote player's colour in mode remote, else ``None``."""
        return self.opponent_color if self.mode is Mode.REMOTE else None

    @property
    def opponent_color(self) -> Color | None:
        """The opponent's colour: the side whose turns the lights ask for (the Pi's or the
        remote player's), or ``None`` when two people play at the board."""
        if not self.mode.has_opponent:
            return None
        return BLACK if self.human == "white" else WHITE

    @property
    def is_setting_up(self) -> bool:
        """Whether a position is being set up with the board's buttons."""
        return self._board_setup is not None

    @property
    def connection(self) -> str:
        """The remote player's connection: ``"none"`` outside mode remote, else ``"up"`` or
        ``"waiting"`` (also while a pairing is refused: the connection's ``reason`` says why)."""
        if self.mode is not Mode.REMOTE:
            return "none"
        return self.remote.state

    @property
    def board(self) -> Board:
        """The game as the referee has accepted it."""
        return self.referee.board

    # -- inputs -----------------------------------------------------------------------------

    def on_sensors(self, occupied: frozenset[str], now: float) -> None:
        """A new sensor snapshot."""
        self.sensed = frozenset(occupied)
        if self._board_setup is not None:
            # Arranging a position by hand: no turn is read, each piece takes its colour.
            self._board_setup.update(mask_of(occupied))
            self.render(now)
            return
        self._handle(self.referee.update(mask_of(occupied), now), now)

    def on_button(self, button: ButtonName | str, now: float) -> None:
        """A button press."""
        name = ButtonName(button)
        logger.info("button %s", name.value)
        if self._board_setup is not None:
            self._setup_button(name, now)
        elif name is ButtonName.HINT and self.puzzle is not None and not self.puzzle.is_set_up:
            # While a puzzle waits to be set up, hint asks for one a turn longer.
            self._board_puzzle(now, self.puzzle.puzzle.wins_in + 1)
        elif name is ButtonName.HINT and self.menu.is_choosing(now):
            # Just after the mode button the hint button steps the variant (and is no quick
            # press towards the board setup).
            self._show_choice(self.menu.press_hint(self.level, self.board.variant_name, now))
        elif name is ButtonName.HINT and self._quick_hints(now):
            self._start_board_setup(now)
        elif name is ButtonName.NEW:
            self.keep_abandoned()
            self._cancel_search()
            self._end_puzzle()
            chosen = self.menu.new_game()
            if chosen is not None:
                self.mode, self.level = chosen
                # The opponent changes with the mode: a fresh referee for the fresh game.
                self.referee = self._new_referee(
                    board_for(self.config, self.menu.variant), now, self.referee.sensed
                )
                self._handle([NewGame()], now)
            else:
                new = board_for(self.config, self.menu.variant)
                self._handle(self.referee.new_game(now, new), now)
        elif name is ButtonName.TAKEBACK:
            if self.mode is Mode.REMOTE:
                self.state.last_event = msg("no takeback against a remote player")
            self._handle(self.referee.takeback(now), now)
        elif name is ButtonName.HINT:
            self._request_hint(now)
        elif name is ButtonName.MODE:
            self._show_choice(self.menu.press_mode(self.mode, self.level, now))
        self.render(now)

    def _show_choice(self, choice: MenuChoice) -> None:
        """What the menu chose: the level from now on, the event line, the lights for a moment."""
        self.level = choice.level
        self.state.last_event = choice.event
        self._choice, self._choice_until = choice.choice, choice.until

    # -- the remote player ------------------------------------------------------------------

    def remote_move(self, move: str, now: float) -> None:
        """The remote player's turn (notation, ``"d6xg7"``): shown on the board in the light
        language exactly like the Pi's, and committed when the person carries it out.

        Raises :class:`InputError` for text that is no move or an illegal one, and
        :class:`NotNowError` (an InputError) in another mode, after the game, out of turn or
        while another remote turn waits to be carried out. The same turn sent again while it
        waits is taken once.
        """
        parsed = check_remote_move(
            move,
            mode=self.mode,
            board=self.board,
            remote=self.remote_color,
            waiting=self.referee.expected,
            is_setting_up=self._board_setup is not None,
        )
        if parsed is None:
            return
        events = self.referee.expect(parsed, now)
        self._opponent_chose(parsed)
        logger.info("the remote player plays %s", parsed)
        self._handle(events, now)
        self.render(now)

    def on_remote_connection(
        self,
        up: bool,
        now: float,
        *,
        player: str = "page",
        note: Message | str | None = None,
        reason: Message | str | None = None,
    ) -> None:
        """The remote player connected (``up``) or went away; ``player`` says what it plays on:
        ``"page"`` (a page in mode remote) or ``"board"`` (a paired board); ``note`` replaces the
        event line (the pairing's word on the two games, "the games part at turn 12 ...");
        ``reason`` says why the connection is not up (a refused connection, a pairing refused
        for both boards playing one colour): it then shows ``waiting`` even with the stream open,
        and a new reason is put on the event line.

        Once a board has reported, the remote player is that board: pages (the person's own
        phone) no longer count. Nothing is lost while it is away: a remote turn already shown
        stays shown, the person may play their own turn, and the game goes on when it is back.
        """
        line = self.remote.update(
            up, player=player, note=note, reason=reason, remote_mode=self.mode is Mode.REMOTE
        )
        if line is not None:
            self.state.last_event = line
            logger.warning("%s", line.render("en"))
        self.render(now)

    def _opponent_chose(self, move: Move) -> None:
        """The opponent's turn is shown on the board: the event line and what is said."""
        self.state.last_event = opponent_plays(move, self.mode)
        self._announce(opponent_turn(move, self.mode))

    # -- the board link, the configuration, time --------------------------------------------

    def on_link(self, up: bool, now: float) -> None:
        """The link to the board (a serial bridge) went down or came back.

        While it is down nothing is read; when it is back the fresh snapshot is settled like any
        other, so no phantom turn comes from what changed in between.
        """
        if up:
            sensed = mask_of(self.device.sensors())
            self._handle(self.referee.link_restored(sensed, now), now)
            self.state.last_event = msg("board link back")
        else:
            self._handle(self.referee.link_lost(now), now)
            self.state.last_event = msg("board link lost")
        logger.warning("%s", self.state.event.render("en"))
        self.render(now)

    def reconfigure(self, config: Config) -> None:
        """Take a reloaded configuration: level, engine and timings apply from now on;
        mode, colour, variant and rules at the next game."""
        self.config = config
        self.referee.config = referee_config(config)
        self.level = self.menu.reconfigure(config, self.mode, self.human, self.level)

    def save_now(self) -> None:
        """Save the unfinished game (the daemon calls this when it stops)."""
        self._save()

    def poll(self, now: float) -> None:
        """Time has passed: run the referee's timers and refresh the lights."""
        self._handle(self.referee.poll(now), now)
        if self._choice is not None and now >= self._choice_until:
            self._choice = None
        self.render(now)

    def next_deadline(self) -> float | None:
        """When :meth:`poll` must next be called, or ``None``."""
        deadlines = [d for d in (self.referee.next_deadline(),) if d is not None]
        if self._choice is not None:
            deadlines.append(self._choice_until)
        setup = self._board_setup
        if setup is not None and setup.refused_until > self._rendered_at:
            deadlines.append(setup.refused_until)
        return min(deadlines) if deadlines else None

    def close(self) -> None:
        """Stop searching; the caller closes the device."""
        self._cancel_search()

    # -- reacting to the referee ------------------------------------------------------------

    def _handle(self, events: list[Event], now: float) -> None:
        for event in events:
            logger.debug("referee: %s", event)
            self._on_event(event, now)
        if self.puzzle is not None and events:
            try:
                note = self.puzzle.on_events(events, self.board, self.referee.expected)
            except SolutionError as exc:
                note = self._puzzle_broken(exc)
            if note is not None:
                self.state.last_event = note
                self._announce(Announcement(Kind.PUZZLE, note))

    def _on_event(self, event: Event, now: float) -> None:
        """What the event line and the voice say of ``event`` (:func:`narrate`), then what the
        controller does about it."""
        line, said = narrate(event, self.mode, self.board)
        if line is not None:
            self.state.last_event = line
        if said is not None:
            self._announce(said)
        if isinstance(event, TurnAccepted):
            self.state.history.append(str(event.move))
            # The journal says a turn was played only once it is saved, so that it never claims
            # what a restart would not show.
            saved = self._save()
            logger.info("%s%s", self.state.event.render("en"), "" if saved else " (not saved)")
        elif isinstance(event, OpponentToMove):
            if self.mode is Mode.VS_AI:
                self._start_search("move", now)
        elif isinstance(event, SetUp):
            self._cancel_search()
            self.keeper.restart(clear=False)
            self.state.history.clear()
            logger.info("set up %s", event.position)
            self._save()
        elif isinstance(event, SearchCancelled):
            self._cancel_search()
        elif isinstance(event, TakenBack):
            self._cancel_search()
            logger.info("took back %s", " ".join(str(m) for m in event.moves))
            self._save()
            if self.pi_color is not None and self.referee.opponent_to_move:
                self._start_search("move", now)
        elif isinstance(event, NewGame):
            self._cancel_search()
            self._end_puzzle()
            self.state.history.clear()
            logger.info("new game")
            self.keeper.restart(clear=True)
            if self.pi_color is not None and self.referee.opponent_to_move:
                self._start_search("move", now)
        elif isinstance(event, GameOver):
            self._cancel_search()
            outcome = event.outcome
            logger.info("game over: %s (%s)", outcome.result(), outcome.termination.value)
            self.keeper.save_finished(
                self.board, self.mode, self.human, self.level, self._record_tags()
            )
        elif isinstance(event, SetUpDone):
            logger.info("position set up: %s to move", COLOR_NAMES[self.board.turn])
        elif isinstance(event, Flagged | IllegalRemoval):
            logger.warning("%s", self.state.event.render("en"))

    # -- lights -----------------------------------------------------------------------------

    def _overlay(self, now: float) -> Overlay:
        """What the lights show over the referee's state at ``now``, as their input
        (:class:`~morris.referee.lights.Overlay`)."""
        setup = self._board_setup
        return Overlay(
            setup=None if setup is None else setup.overlay(now),
            choice=self._choice if now < self._choice_until else None,
            puzzle=self.puzzle is not None,
            remote=self.mode is Mode.REMOTE,
            remote_up=self.remote.is_up,
            engine_fallback=self.state.engine_warning is not None,
        )

    def lights(self, now: float) -> dict[str, Signal]:
        """What every point LED should show now (:func:`~morris.referee.lights.compute_lights`)."""
        lights = compute_lights(self.referee, now, self._overlay(now))
        return {POINT_NAMES[p]: signal for p, signal in lights.items()}

    def status(self, now: float | None = None) -> dict[StatusLight, Signal]:
        """What every status LED should show at ``now`` (default: the last render;
        :func:`~morris.referee.lights.status_lights`)."""
        if now is None:
            now = self._rendered_at
        return status_lights(self.referee, self.state.thinking, self._overlay(now))

    def render(self, now: float) -> None:
        """Send the lights to the device where they changed, and tell the subscribers."""
        self._rendered_at = now
        lights, status = self.lights(now), self.status(now)
        if self._shown.show(lights, now):
            self.device.show(lights)
        for light, signal in status.items():
            if self._shown_status.show({light: signal}, now):
                self.device.set_status(light, signal)
        if self.watchers:
            self.watchers.publish(self._snapshot(now, lights, status))

    # -- watching -------------------------------------------------------------------------

    def snapshot(self, now: float) -> Snapshot:
        """What a display shows at ``now``: the game, every light, whose turn, the last event."""
        return self._snapshot(now, self.lights(now), self.status(now))

    def _snapshot(
        self, now: float, lights: dict[str, Signal], status: dict[StatusLight, Signal]
    ) -> Snapshot:
        board = self.board
        outcome = board.outcome()
        pi = self.pi_color
        # Every turn passes the move to the other side, and the number goes up after black's.
        played = len(board.move_stack)
        first_turn = board.turn if played % 2 == 0 else not board.turn
        black_turns = played // 2 if first_turn == WHITE else (played + 1) // 2
        first_fullmove = board.fullmove_number - black_turns
        return Snapshot(
            position=board.position(),
            moves=tuple(str(m) for m in board.move_stack),
            fullmove=board.fullmove_number,
            first_fullmove=first_fullmove,
            first_turn=COLOR_NAMES[first_turn],
            turn=COLOR_NAMES[board.turn],
            pieces={name: COLOR_NAMES[colour] for name, colour in board.pieces().items()},
            in_hand={COLOR_NAMES[c]: board.pieces_in_hand(c) for c in (WHITE, BLACK)},
            lights=lights,
            lights_since=self._shown.since_each(lights, now),
            status=status,
            status_since=self._shown_status.since_each(status, now),
            mode=self.mode,
            human=self.human,
            level=self.level,
            pi_color=None if pi is None else COLOR_NAMES[pi],
            remote_color=None if self.remote_color is None else COLOR_NAMES[self.remote_color],
            connection=self.connection,
            remote_player=self.remote.player if self.mode is Mode.REMOTE else None,
            board_setup=None if self._board_setup is None else self._board_setup.selected_name,
            thinking=self.state.thinking,
            event=self.state.last_event,
            event_message=self.state.event,
            outcome=None
            if outcome is None
            else Message(
                "{result} ({why})",
                (("result", outcome.result()), ("why", outcome_words(outcome))),
                translate=False,
            ),
            winner=None
            if outcome is None or outcome.winner is None
            else COLOR_NAMES[outcome.winner],
            termination=None if outcome is None else outcome.termination.value,
            flagged=self.referee.is_flagged,
            variant=board.variant_name,
            flying=board.flying,
            solution=self.values.of(board),
            puzzle=None if self.puzzle is None else self.puzzle.summary(),
            connection_reason=self.remote.reason.render()
            if self.mode is Mode.REMOTE and self.remote.reason is not None
            else None,
            sensed=tuple(sorted(self.sensed)),
        )

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber`` with a fresh :class:`Snapshot` after every change; return a
        function that stops the calls.

        Subscribers are called on the controller's own loop, right after the change (so they
        must return quickly: a front end hands the snapshot to its own thread or queue). A
        subscriber that raises is logged and dropped; the game goes on.
        """
        return self.watchers.subscribe(subscriber, lambda: self.snapshot(self._rendered_at))

    def on_announcement(self, announcer: Announcer) -> Callable[[], None]:
        """Call ``announcer`` with each :class:`~morris.app.narration.Announcement` (what to say
        aloud: :mod:`morris.app.speech`); return a function that stops the calls.

        Called on the controller's loop at the moment of the event, so it must return at once
        (the speaker queues it for its own thread). One that raises is logged and dropped.
        """
        return self.watchers.on_announcement(announcer)

    def _announce(self, announcement: Announcement) -> None:
        self.watchers.announce(announcement)

    def describe(self) -> str:
        """One line for the journal, the status file and sd_notify's STATUS= (English, as the
        journal is)."""
        board = self.board
        outcome = board.outcome()
        who = who_plays(self.mode, self.human, self.level).render("en")
        if outcome is not None:
            state = f"game over {outcome.result()} ({outcome_words(outcome).render('en')})"
        else:
            side = COLOR_NAMES[board.turn]
            state = f"turn {board.fullmove_number}, {side} to move"
            if self.state.thinking:
                state += ", Pi thinking"
        if self.referee.is_flagged:
            state += ", board does not match"
        if self.puzzle is not None:
            state += f", {self.puzzle.describe()}"
        if self.connection == "waiting":
            state += ", waiting for the remote player"
        elif self.connection == "up":
            where = "a linked board" if self.remote.player == "board" else "a page"
            state += f", remote player on {where}"
        return f"{who}; {state}"


T = TypeVar("T")
#: A front end's command to the controller, run on the controller's own thread with its clock's
#: ``now``: ``fn(controller, now)`` (the web companion's hosts, the daemon's ``"call"`` items).
ControllerCall = Callable[[Controller, float], T]


def run_call(
    future: concurrent.futures.Future[T], fn: ControllerCall[T], controller: Controller, now: float
) -> None:
    """Run ``fn(controller, now)`` into ``future`` on the controller's thread: its result, or its
    exception for the caller to re-raise; nothing if the caller gave up waiting (cancelled)."""
    if not future.set_running_or_notify_cancel():
        return
    try:
        future.set_result(fn(controller, now))
    except BaseException as exc:  # handed to the caller, who re-raises it in its own thread
        future.set_exception(exc)
