"""The controller: the board device, the referee, the Pi's searches and the saved game, composed.

The controller is single-threaded and has no clock of its own: the daemon feeds it from one
event queue in real time, the simulator calls it directly in virtual time. Searches run through a
:class:`SearchRunner` (a worker thread in the daemon, an immediate computation delivered after a
virtual delay in the simulator), so sensing and lights never wait for the Pi to think.

The other side's turns come from the Pi, or in mode ``remote`` from a remote player
(:meth:`Controller.remote_move`), both shown through the referee's expect path; a position can be
set up (:meth:`Controller.setup`, or with the board's buttons). The module is long because it is
the one place where all of these meet the board; what stands alone lives beside it
(:mod:`morris.app.board_setup`, :mod:`morris.app.remote`, :mod:`morris.app.jobs`,
:mod:`morris.app.store`).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import itertools
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from morris.app.board_setup import (
    ENTER_PRESSES,
    ENTER_WINDOW,
    REFUSED_DISPLAY_TIME,
    BoardSetup,
    parse_position,
)
from morris.app.config import Config
from morris.app.endings import outcome_words
from morris.app.errors import InputError, NotNowError
from morris.app.jobs import SearchJob, SearchRunner
from morris.app.narration import (
    Announcement,
    Kind,
    colour,
    hint_announcement,
    mill_announcement,
    mismatch_announcement,
    outcome_announcement,
    pi_turn,
    points,
    remote_turn,
    termination,
    variant_title,
)
from morris.app.remote import check_remote_move
from morris.app.store import GameStore, SavedGame
from morris.app.training import PuzzleSession
from morris.app.values import PositionValues, Value, solution_hint
from morris.core import (
    BLACK,
    COLOR_NAMES,
    POINT_NAMES,
    VARIANT_NAMES,
    VARIANTS,
    WHITE,
    Board,
    Color,
    Move,
    find_variant,
    mask_of,
)
from morris.engine.errors import SolutionError
from morris.engine.levels import MAX_LEVEL
from morris.i18n import Message, msg, nmsg, plain
from morris.referee import (
    Event,
    Flagged,
    GameOver,
    IllegalRemoval,
    MillClosed,
    NewGame,
    PiToMove,
    Referee,
    RefereeConfig,
    Resolved,
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
    from morris.engine.solution.puzzles import Puzzle

logger = logging.getLogger(__name__)

#: How long the mode button's choice is shown on the point LEDs, seconds.
MODE_DISPLAY_TIME = 2.0
#: The length of the puzzle the board asks for first (``hint`` in the board setup), and the
#: longest it steps to (the point LEDs show it: at most the 24 points, and a length a person
#: can count at a glance).
BOARD_PUZZLE_LENGTH = 2
BOARD_PUZZLE_MAX = 9
#: The level the hint button's suggestions are searched at (at least the Pi's own level): the
#: lowest without randomness, so a hint is the best move it sees.
HINT_LEVEL = 6


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


Announcer = Callable[[Announcement], None]


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
    #: ``"vs-ai"``, ``"referee"`` or ``"remote"``.
    mode: str
    #: The person's colour against the Pi (``"white"`` or ``"black"``).
    human: str
    #: The Pi's level.
    level: int
    #: The Pi's colour, or ``None`` when it only referees (or the opponent is remote).
    pi_color: str | None
    #: The remote player's colour in mode ``"remote"``, else ``None``.
    remote_color: str | None
    #: The remote player's connection: ``"none"`` (no remote player: another mode), ``"up"``
    #: (connected) or ``"waiting"`` (not connected: nothing is lost, play resumes on reconnect).
    link: str
    #: Who the remote player is in mode ``"remote"``: ``"page"`` (a person on the web page, which
    #: is then the remote player's board) or ``"board"`` (a linked board in another house); else
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
    solution: Value | None = None
    #: The training puzzle being played (:meth:`morris.app.training.PuzzleSession.summary`:
    #: title, status, turns, hints ...), or ``None``.
    puzzle: Mapping[str, object] | None = None
    #: In mode ``"remote"``: why the link is not up ("connection refused to http://..."), or
    #: ``None``.
    link_reason: str | None = None
    #: :attr:`event` as a message of the catalogs (:meth:`morris.i18n.Message.render`).
    event_message: Message = field(default_factory=lambda: plain(""))
    #: Where the sensors see a piece at this instant, sorted: every reading, before the referee
    #: has settled or read it (a display draws a piece the game has not read, or one lifted).
    sensed: tuple[str, ...] = ()


Subscriber = Callable[[Snapshot], None]


def asked_settings(overrides: Mapping[str, object]) -> frozenset[str]:
    """The ``[game]`` settings a command line gave (the ``game_*`` arguments of
    :meth:`Config.with_overrides` that are not ``None``): what a resumed game must not contradict.

    >>> sorted(asked_settings({"game_mode": "vs-ai", "game_level": None, "engine_seed": 3}))
    ['mode']
    """
    return frozenset(
        key.removeprefix("game_")
        for key, value in overrides.items()
        if key.startswith("game_") and value is not None
    )


def player_names(mode: str, human: str, level: int) -> tuple[str, str]:
    """The White and Black tags of a game record of a game played so."""
    if mode == "referee":
        return "White", "Black"
    if mode == "remote":
        return ("Player", "Remote") if human == "white" else ("Remote", "Player")
    pi = f"morris level {level}"
    return ("Player", pi) if human == "white" else (pi, "Player")


def board_from_config(config: Config) -> Board:
    """A new board with the variant and settings of ``config``."""
    return board_for(config, config.game.variant)


def board_for(config: Config, variant: str) -> Board:
    """A new board of ``variant`` with the settings of ``config``.

    ``game.flying = true`` keeps the variant's own flying rule (six men's morris has none);
    ``false`` switches flying off.
    """
    game = config.game
    return find_variant(variant)(
        flying=None if game.flying else False,
        threefold_repetition=game.threefold_repetition,
        no_removal_limit=game.no_removal_limit or None,
        remove_from_mills=game.remove_from_mills,
        double_mill_removes_two=game.double_mill_removes_two,
    )


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


class Controller:
    """Plays one board: reacts to sensors, buttons, finished searches and the passing of time."""

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
        self.device = device
        #: The solved game's values of the positions shown, and its hints (``solution``).
        self.values = PositionValues(solution)
        self.config = config
        self.runner = runner
        self.store = store
        self.mode = config.game.mode
        self.human = config.game.human
        self.level = config.game.level
        self.state = ControllerState()
        self._job_ids = itertools.count(1)
        self._job: SearchJob | None = None
        #: A choice shown on the point LEDs until ``_choice_until`` (the mode button, ...).
        self._choice: Choice | None = None
        self._choice_until = 0.0
        self._pending_mode: tuple[str, int] | None = None
        #: The variant of the next games, and one chosen at the board for the next new game.
        self.variant = config.game.variant
        self._pending_variant: str | None = None
        self._choosing_until = now  # until then the hint button steps the variant
        # What the mode button changed, put back when the hint button turns it into a choice
        # of variant: (the pending mode and level before, the level before).
        self._before_mode: tuple[tuple[str, int] | None, int] | None = None
        # What the LEDs were told to show, and since when (the phase of their blinks).
        self._shown: BlinkClock[str] = BlinkClock()
        self._shown_status: BlinkClock[StatusLight] = BlinkClock()
        self._finished_saved = False
        self._subscribers: list[Subscriber] = []
        self._announcers: list[Announcer] = []
        self._published: Snapshot | None = None
        self._rendered_at = now
        self._board_setup: BoardSetup | None = None
        self._hint_presses: list[float] = []
        #: Whether the remote player is connected (mode "remote"; see :meth:`on_remote_link`).
        self.remote_up = False
        #: ``"page"`` or ``"board"``: what the remote player plays on (see :meth:`on_remote_link`).
        self.remote_player = "page"
        #: Why the link to the remote player is not up, in words ("connection refused to
        #: http://...", "both boards play white ..."), or ``None`` (up, or no word on why).
        self.link_reason: Message | None = None
        #: Whether the game is the saved one, resumed (the lights then guide the board to it).
        self.resumed = False
        #: The training puzzle being played (:meth:`start_puzzle`), or ``None``.
        self.puzzle: PuzzleSession | None = None
        #: Where the training puzzles come from (:meth:`puzzle_source`): the loaded solution,
        #: else the config's ``engine.solution`` opened with the first puzzle.
        self.puzzle_solution: Solution | None = solution
        self._board_puzzles = 0  # how many the board asked for: each one's seed
        board = board_from_config(config)
        if resume and store is not None:
            saved = store.load()
            if saved is not None and saved.board.outcome() is None:
                board = self._resume_or_keep(saved, frozenset(insist)) or board
        #: The newest sensor reading (:attr:`Snapshot.sensed`).
        self.sensed: frozenset[str] = frozenset(device.sensors())
        self.referee = self._new_referee(board, now, mask_of(self.sensed))
        if self.referee.pi_to_move and board.outcome() is None and self.mode != "remote":
            self._start_search("move", now)
        self.render(now)

    def _resume_or_keep(self, saved: SavedGame, insist: frozenset[str]) -> Board | None:
        """Resume ``saved``, or keep it as a record when the settings asked for (``insist``:
        the names of ``config.game`` settings given on the command line) contradict it.

        A different level is taken into the resumed game (the mode button changes it mid-game
        too); a different mode, colour, variant or flying rule needs another game: the saved one
        is kept among the finished games (result ``*``) and a new one starts. Either way the
        event line and the log say which happened and why.
        """
        game = self.config.game
        board = saved.board
        fresh = board_from_config(self.config)
        asked = {
            "mode": (saved.mode, game.mode),
            "human": (saved.human, game.human) if "vs-ai" in (saved.mode, game.mode) else None,
            "variant": (board.variant_name, fresh.variant_name),
            "flying": (board.flying, fresh.flying),
            "remove_from_mills": (board.remove_from_mills, fresh.remove_from_mills),
            "double_mill_removes_two": (
                board.double_mill_removes_two,
                fresh.double_mill_removes_two,
            ),
        }
        clash = []
        for name, pair in asked.items():
            if name in insist and pair is not None and pair[0] != pair[1]:
                old, new = pair
                clash.append(f"{_flag(name, new)} (saved: {_flag(name, old)})")
        turn = board.fullmove_number
        if clash:
            kept = self._keep_as_record(saved)
            settings = ", ".join(clash)
            self.state.last_event = (
                msg(
                    "new game: {settings}; the saved game at turn {turn} is kept as {name}",
                    settings=settings,
                    turn=turn,
                    name=kept.name,
                )
                if kept is not None
                else msg(
                    "new game: {settings}; the saved game at turn {turn} is kept",
                    settings=settings,
                    turn=turn,
                )
            )
            logger.warning("%s", self.state.event.render("en"))
            return None
        self.mode, self.human, self.level = saved.mode, saved.human, saved.level
        self.resumed = True
        resumed = msg("resumed the saved game at turn {turn}: {who}", turn=turn, who=self._who())
        if "level" in insist and game.level != saved.level and self.mode == "vs-ai":
            self.level = game.level
            resumed = msg(
                "resumed the saved game at turn {turn}: {who} (level {level} as asked; it was "
                "saved at level {saved})",
                turn=turn,
                who=self._who(),
                level=game.level,
                saved=saved.level,
            )
        self.state.last_event = resumed
        logger.warning("%s; position %s", resumed.render("en"), board.position())
        return board

    def _keep_as_record(self, saved: SavedGame) -> Path | None:
        assert self.store is not None
        white, black = player_names(saved.mode, saved.human, saved.level)
        try:
            path = self.store.finish(saved.board, white=white, black=black)
            self.store.clear()
        except OSError as exc:
            logger.error("could not keep the saved game as a record: %s", exc)
            return None
        return path

    def keep_abandoned(self) -> Path | None:
        """Keep the game in progress (turns played, not over) among the finished games, result
        ``*`` (as a resumed game that the settings contradict is kept), and forget it as the
        unfinished one: before a new game replaces it. Returns the record's path, or ``None``
        (nothing to keep, no store, or the record could not be written: logged)."""
        board = self.board
        if self.store is None or not board.move_stack or board.outcome() is not None:
            return None
        white, black = player_names(self.mode, self.human, self.level)
        try:
            path = self.store.finish(board, white=white, black=black, tags=self._record_tags())
            self.store.clear()
        except OSError as exc:
            logger.error("could not keep the game left for a new one: %s", exc)
            return None
        logger.info("the game left at turn %d is kept as %s", board.fullmove_number, path)
        return path

    def _record_tags(self) -> dict[str, str]:
        """The tags that mark a game record as a training puzzle's (while one is played)."""
        if self.puzzle is None:
            return {}
        return {"Event": "Training puzzle", "Puzzle": self.puzzle.puzzle.title}

    def _new_referee(self, board: Board, now: float, sensed: int) -> Referee:
        """A referee for ``board`` in the current mode: the other side's turns (the Pi's or the
        remote player's) are shown by the lights; against a remote player nothing is taken back
        (the two games must stay one)."""
        referee = Referee(
            board,
            pi_color=self.other_color,
            config=referee_config(self.config),
            now=now,
            sensed=sensed,
        )
        referee.takebacks = self.mode != "remote"
        return referee

    def _who(self) -> Message:
        if self.mode == "referee":
            return msg("two players")
        human = colour(WHITE if self.human == "white" else BLACK)
        if self.mode == "remote":
            return msg("person plays {colour} against a remote player", colour=human)
        return msg("person plays {colour} against level {level}", colour=human, level=self.level)

    # -- what the game is -----------------------------------------------------------------

    @property
    def pi_color(self) -> Color | None:
        """The Pi's colour, or ``None`` when it only referees or the opponent is remote."""
        if self.mode != "vs-ai":
            return None
        return self.other_color

    @property
    def remote_color(self) -> Color | None:
        """The remote player's colour in mode ``"remote"``, else ``None``."""
        return self.other_color if self.mode == "remote" else None

    @property
    def other_color(self) -> Color | None:
        """The colour whose turns the lights ask for (the Pi's or the remote player's), or
        ``None`` when two people play at the board."""
        if self.mode == "referee":
            return None
        return BLACK if self.human == "white" else WHITE

    @property
    def is_setting_up(self) -> bool:
        """Whether a position is being set up with the board's buttons."""
        return self._board_setup is not None

    @property
    def link(self) -> str:
        """``"none"`` outside mode remote, else ``"up"`` or ``"waiting"`` (also while the link
        is refused: :attr:`link_reason` says why)."""
        if self.mode != "remote":
            return "none"
        return "up" if self.remote_up and self.link_reason is None else "waiting"

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
        elif name is ButtonName.HINT and self.puzzle is not None and not self.puzzle.set_up:
            # While a puzzle waits to be set up, hint asks for one a turn longer.
            self._board_puzzle(now, self.puzzle.puzzle.wins_in + 1)
        elif name is ButtonName.HINT and now < self._choosing_until:
            # Just after the mode button the hint button steps the variant (and is no quick
            # press towards the board setup).
            self._step_variant(now)
        elif name is ButtonName.HINT and self._quick_hints(now):
            self._start_board_setup(now)
        elif name is ButtonName.NEW:
            self.keep_abandoned()
            self._cancel_search()
            self._end_puzzle()
            if self._pending_variant is not None:
                self.variant, self._pending_variant = self._pending_variant, None
            if self._pending_mode is not None:
                self.mode, self.level = self._pending_mode
                self._pending_mode = None
                # The Pi's colour changes with the mode: a fresh referee for the fresh game.
                self.referee = self._new_referee(
                    board_for(self.config, self.variant), now, self.referee.sensed
                )
                self._handle([NewGame()], now)
            else:
                self._handle(self.referee.new_game(now, board_for(self.config, self.variant)), now)
        elif name is ButtonName.TAKEBACK:
            if self.mode == "remote":
                self.state.last_event = msg("no takeback against a remote player")
            self._handle(self.referee.takeback(now), now)
        elif name is ButtonName.HINT:
            self._request_hint(now)
        elif name is ButtonName.MODE:
            self._cycle_mode(now)
        self.render(now)

    # -- position setup -----------------------------------------------------------------------

    def setup(self, position: str, now: float) -> None:
        """Play from ``position`` (the core's position text: pieces, side to move, pieces in
        hand) under the game's variant and rules.

        The lights then guide the person to arrange the board (``on``: put a piece here,
        ``fast``: take this one away) and play starts once it matches; if the Pi is to move it
        then thinks. Raises :class:`InputError` naming the problem (text that is no position, a
        finished position); the game is then unchanged.
        """
        board = parse_position(self.board, position)
        self._end_puzzle()
        sensed = None
        if self._board_setup is not None:
            self._board_setup = None
            sensed = mask_of(self.device.sensors())
        self._cancel_search()
        self._handle(self.referee.set_up(board, now, sensed), now)
        self.render(now)

    def start_puzzle(self, puzzle: Puzzle, solution: Solution, now: float) -> None:
        """Play the training ``puzzle`` (:mod:`morris.app.training`): the lights guide the board to
        its position, the person plays the winning side (the side to move), the Pi defends from
        ``solution``. It lasts until ``new``, another setup or another puzzle.

        Raises :class:`InputError` when the configured rules are not the solved game's, and
        :class:`NotNowError` in mode remote; the game is then unchanged.
        """
        if self.mode == "remote":
            raise NotNowError("no puzzles against a remote player: choose another mode first")
        board = PuzzleSession.board_for(puzzle, self.board)
        session = PuzzleSession(puzzle, solution, board)
        self._end_puzzle()
        session.before = (self.mode, self.human)
        sensed = None
        if self._board_setup is not None:
            self._board_setup = None
            sensed = mask_of(self.device.sensors())
        self._cancel_search()
        self.puzzle = session
        self.mode, self.human = "vs-ai", COLOR_NAMES[board.turn]
        self.referee.pi_color = self.other_color
        self.referee.takebacks = True
        logger.info("puzzle %s: %s", puzzle.title, puzzle.position)
        self._handle(self.referee.set_up(board, now, sensed), now)
        self.render(now)

    def puzzle_source(self) -> Solution:
        """The solved game the puzzles come from, opened on first use (one copy in the process
        for the board's puzzles, the page's and a script's). Raises
        :class:`~morris.app.training.NoSolutionError` saying what to build when there is none."""
        from morris.app.training import solution_for

        self.puzzle_solution = solution_for(self.puzzle_solution, self.config)
        return self.puzzle_solution

    def _board_puzzle(self, now: float, wins_in: int) -> None:
        """A puzzle asked for at the board: ``wins_in`` turns long (from 1 again past the longest
        the solution holds), its length shown as that many points ``on`` for a moment, as the
        mode button shows a level. Without a solved game the event line says what to build and
        the error LED blinks; the board setup (if any) goes on."""
        from morris.app.training import make_puzzle
        from morris.engine.solution.puzzles import longest_puzzle

        try:
            solution = self.puzzle_source()
            if wins_in > min(longest_puzzle(solution), BOARD_PUZZLE_MAX):
                wins_in = 1
            self._board_puzzles += 1
            puzzle = make_puzzle(solution, wins_in, self.config.engine.seed + self._board_puzzles)
            self.start_puzzle(puzzle, solution, now)
        except (InputError, SolutionError) as exc:
            self.state.last_event = msg("no puzzle: {reason}", reason=exc.message)
            logger.warning("%s", self.state.event.render("en"))
            if self._board_setup is not None:
                self._board_setup.refused_until = now + REFUSED_DISPLAY_TIME
            return
        self._choice = Choice(count=wins_in)
        self._choice_until = now + MODE_DISPLAY_TIME

    def _end_puzzle(self) -> None:
        """Leave the puzzle, if one is played: the mode and colour from before come back."""
        session, self.puzzle = self.puzzle, None
        if session is None:
            return
        self.mode, self.human = session.before
        self.referee.pi_color = self.other_color
        self.referee.takebacks = self.mode != "remote"
        logger.info("puzzle left (%s)", session.status)

    def _puzzle_broken(self, exc: SolutionError) -> Message:
        """The solved game failed the puzzle (a damaged block, which the solution has dropped):
        the puzzle ends and the game goes on from the board as it stands; the event line says
        why."""
        logger.warning("the puzzle ends: %s", exc)
        self._end_puzzle()
        return msg("puzzle ended: {reason}", reason=exc.message)

    def _quick_hints(self, now: float) -> bool:
        """Whether this hint press is the last of :data:`ENTER_PRESSES` quick ones."""
        self._hint_presses = [t for t in self._hint_presses if now - t < ENTER_WINDOW]
        self._hint_presses.append(now)
        return len(self._hint_presses) >= ENTER_PRESSES

    def _start_board_setup(self, now: float) -> None:
        self._hint_presses.clear()
        self._cancel_search()
        self._end_puzzle()
        self._choice = None
        self._board_setup = BoardSetup(self.board, mask_of(self.device.sensors()))
        self.state.last_event = msg(
            "setting up on the board: put White's pieces (lit), mode for Black's (blinking), "
            "new to play with the selected side to move, takeback to cancel"
        )
        logger.info("board setup started")

    def _setup_button(self, name: ButtonName, now: float) -> None:
        setup = self._board_setup
        assert setup is not None
        sensed = mask_of(self.device.sensors())
        if name is ButtonName.MODE:
            setup.toggle()
            self.state.last_event = (
                msg("setting up: White's pieces")
                if setup.selected_name == "white"
                else msg("setting up: Black's pieces")
            )
        elif name is ButtonName.HINT:
            self._board_puzzle(now, BOARD_PUZZLE_LENGTH)
        elif name is ButtonName.TAKEBACK:
            self._board_setup = None
            if self.board.outcome() is None:
                self._handle(self.referee.set_up(self.board, now, sensed), now)
            else:
                self._handle(self.referee.update(sensed, now), now)
            self.state.last_event = msg("setup cancelled: back to the game")
        elif name is ButtonName.NEW:
            setup.update(sensed)
            try:
                board = parse_position(self.board, setup.position())
            except InputError as exc:
                setup.refused_until = now + REFUSED_DISPLAY_TIME
                counts = setup.counts()
                self.state.last_event = msg(
                    "setup refused ({white} white, {black} black, {side} to move): {reason}",
                    white=counts["white"],
                    black=counts["black"],
                    side=colour(WHITE if setup.selected_name == "white" else BLACK),
                    reason=plain(str(exc)),
                )
                logger.warning("%s", self.state.event.render("en"))
                return
            self._board_setup = None
            self._handle(self.referee.set_up(board, now, sensed), now)

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
            setting_up=self._board_setup is not None,
        )
        if parsed is None:
            return
        events = self.referee.expect(parsed, now)
        self.state.last_event = msg("remote plays {move}", move=parsed)
        self._announce(remote_turn(parsed))
        logger.info("the remote player plays %s", parsed)
        self._handle(events, now)
        self.render(now)

    def on_remote_link(
        self,
        up: bool,
        now: float,
        *,
        player: str = "page",
        note: Message | str | None = None,
        reason: Message | str | None = None,
    ) -> None:
        """The remote player connected (``up``) or went away; ``player`` says what it plays on:
        ``"page"`` (a page in mode remote) or ``"board"`` (a linked board); ``note`` replaces the
        event line (the link's word on the two games, "the games part at turn 12 ...");
        ``reason`` says why the link is not up (a refused connection, a link refused for both
        boards playing one colour): the link then shows ``waiting`` even with the stream open,
        and a new reason is put on the event line.

        Once a board has reported, the remote player is that board: pages (the person's own
        phone) no longer count. Nothing is lost while it is away: a remote turn already shown
        stays shown, the person may play their own turn, and the game goes on when it is back.
        """
        if player == "page" and self.remote_player == "board":
            return
        changed = up != self.remote_up or player != self.remote_player
        self.remote_up = up
        self.remote_player = player
        if isinstance(reason, str):
            reason = plain(reason)
        if reason != self.link_reason and reason is not None and note is None:
            note = reason
        self.link_reason = reason
        if note is not None:
            self.state.last_event = note
            logger.warning("%s", self.state.event.render("en"))
        elif changed and self.mode == "remote":
            if not up:
                self.state.last_event = msg("waiting for the remote player")
            elif player == "board":
                self.state.last_event = msg("remote player connected (board)")
            else:
                self.state.last_event = msg("remote player connected (page)")
            logger.warning("%s", self.state.event.render("en"))
        self.render(now)

    def on_search_done(self, job: SearchJob, move: Move | None, now: float) -> None:
        """A search finished (called on the main loop)."""
        if job is not self._job or job.cancelled:
            logger.debug("ignoring the result of an old search %d", job.job_id)
            return
        self._job = None
        self.state.thinking = False
        new_warning = job.warning if job.warning != self.state.engine_warning else None
        self.state.engine_warning = job.warning or self.state.engine_warning
        if move is None:
            logger.error("the engine found no move in %s", job.board.position())
            self.state.last_event = msg("engine failed")
            self.render(now)
            return
        if job.kind == "hint":
            logger.info("hint: %s", move)
            self.state.last_event = msg("hint: {turn}", turn=move)
            self._announce(hint_announcement(move))
            self._handle(self.referee.hint(move, now, self.config.referee.hint_duration), now)
        elif self.referee.pi_to_move and job.board.position() == self.board.position():
            logger.info("the Pi plays %s", move)
            self.state.last_event = msg("Pi plays {move}", move=move)
            self._announce(pi_turn(move))
            self._handle(self.referee.expect(move, now), now)
        if new_warning is not None:  # said once here; the error LED and the status file keep it
            self.state.last_event = msg(
                "{warning}; the Pi plays with its own engine", warning=plain(new_warning)
            )
        self.render(now)

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
        self.variant, self._pending_variant = config.game.variant, None
        if config.game.mode == self.mode and config.game.human == self.human:
            self.level = config.game.level
        else:
            self._pending_mode = (config.game.mode, config.game.level)

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
        if isinstance(event, TurnAccepted):
            who = COLOR_NAMES[event.color]
            if event.by_pi:
                who = "remote" if self.mode == "remote" else "Pi"
            self.state.last_event = {
                "remote": msg("remote played {move}", move=event.move),
                "Pi": msg("Pi played {move}", move=event.move),
                "white": msg("white played {move}", move=event.move),
                "black": msg("black played {move}", move=event.move),
            }[who]
            self.state.history.append(str(event.move))
            # The journal says a turn was played only once it is saved, so that it never claims
            # what a restart would not show.
            saved = self._save()
            logger.info("%s played %s%s", who, event.move, "" if saved else " (not saved)")
        elif isinstance(event, PiToMove):
            if self.mode == "vs-ai":
                self._start_search("move", now)
        elif isinstance(event, SetUp):
            self._cancel_search()
            self._finished_saved = False
            self.state.history.clear()
            self.state.last_event = msg(
                "set up a position: put a piece where a light is on, "
                "take away the pieces blinking fast"
            )
            logger.info("set up %s", event.position)
            self._save()
        elif isinstance(event, SetUpDone):
            self.state.last_event = msg(
                "position set up: {side} to move", side=colour(self.board.turn)
            )
            self._announce(Announcement(Kind.FIXED, self.state.event))
            logger.info("position set up: %s to move", COLOR_NAMES[self.board.turn])
        elif isinstance(event, SearchCancelled):
            self._cancel_search()
        elif isinstance(event, TakenBack):
            self._cancel_search()
            taken = [str(m) for m in event.moves]
            self.state.last_event = msg("took back {moves}", moves=points(taken))
            self._announce(
                Announcement(
                    Kind.TAKEBACK,
                    nmsg("{n} turn taken back", "{n} turns taken back", len(taken)),
                )
            )
            logger.info("took back %s", " ".join(taken))
            self._save()
            if self.pi_color is not None and self.referee.pi_to_move:
                self._start_search("move", now)
        elif isinstance(event, NewGame):
            self._cancel_search()
            self._end_puzzle()
            self._finished_saved = False
            self.state.last_event = msg("new game")
            self.state.history.clear()
            logger.info("new game")
            if self.store is not None:
                self.store.clear()
            if self.pi_color is not None and self.referee.pi_to_move:
                self._start_search("move", now)
        elif isinstance(event, GameOver):
            self._cancel_search()
            outcome = event.outcome
            self.state.last_event = msg(
                "game over: {result} ({why})",
                result=outcome.result(),
                why=termination(outcome.termination),
            )
            self._announce(outcome_announcement(outcome))
            logger.info("game over: %s (%s)", outcome.result(), outcome.termination.value)
            self._save_finished()
        elif isinstance(event, MillClosed):
            if event.removals == 2:
                self.state.last_event = msg(
                    "double mill with {move}: remove two pieces", move=event.action
                )
            else:
                self.state.last_event = msg("mill with {move}: remove a piece", move=event.action)
            if self.mode == "referee":
                self._announce(mill_announcement(event))
        elif isinstance(event, Flagged):
            self.state.last_event = msg("board does not match: {reason}", reason=event.reason)
            self._announce(mismatch_announcement(event))
            logger.warning("%s", self.state.event.render("en"))
        elif isinstance(event, IllegalRemoval):
            self.state.last_event = msg(
                "{point} may not be removed", point=POINT_NAMES[event.point]
            )
            self._announce(Announcement(Kind.MISTAKE, self.state.event))
            logger.warning("%s may not be removed", POINT_NAMES[event.point])
        elif isinstance(event, Resolved):
            self.state.last_event = msg("board matches again")
            self._announce(Announcement(Kind.FIXED, self.state.event))

    # -- searches ---------------------------------------------------------------------------

    def _start_search(self, kind: str, now: float) -> None:
        if kind == "move" and self._job is not None and self._job.kind == "move":
            return  # already thinking about this position
        self._cancel_search()
        if self.puzzle is not None and self._puzzle_turn(kind, now):
            return
        level = self.level if kind == "move" else max(self.level, HINT_LEVEL)
        job = SearchJob(
            job_id=next(self._job_ids),
            kind=kind,
            board=self.board.copy(),
            level=level,
            movetime=self.config.engine.movetime,
        )
        self._job = job
        self.state.thinking = kind == "move"
        logger.debug("search %d (%s) at level %d", job.job_id, kind, level)
        self.runner.start(job)

    def _cancel_search(self) -> None:
        if self._job is not None:
            self._job.cancelled = True
            self.runner.cancel(self._job)
            self._job = None
        self.state.thinking = False

    def _puzzle_turn(self, kind: str, now: float) -> bool:
        """In a puzzle the solution answers at once: the Pi's defence, or a hint's winning turn
        (counted). False where it has none (the search answers then)."""
        assert self.puzzle is not None
        try:
            if kind == "move":
                move = self.puzzle.pi_turn(self.board)
            elif not self.puzzle.set_up:
                return True  # no hint before the board shows the puzzle
            else:
                move = self.puzzle.hint_turn(self.board)
        except SolutionError as exc:
            self.state.last_event = self._puzzle_broken(exc)
            # The search answers in the game the puzzle leaves, if the Pi plays a side there.
            return kind == "move" and not self.referee.pi_to_move
        if move is None:
            return False
        if kind == "move":
            logger.info("the Pi defends with %s (the solution)", move)
            self._handle(self.referee.expect(move, now), now)
            return True
        self._handle(self.referee.hint(move, now, self.config.referee.hint_duration), now)
        self.state.last_event = msg("hint {n}: {move}", n=self.puzzle.hints, move=move)
        self._announce(hint_announcement(move))
        return True

    def _request_hint(self, now: float) -> None:
        if self.board.outcome() is not None or self.referee.pi_to_move:
            return
        # A puzzle's hint is the puzzle's (its winning turn, counted): _start_search hands it on.
        move = None
        if self.puzzle is None:
            move = solution_hint(self.values.solution, self.board, self.config.engine.seed)
        if move is not None:  # the solution knows: a turn that keeps the value, at once
            self._cancel_search()
            self.state.last_event = msg("hint: {turn}", turn=move)
            self._announce(hint_announcement(move))
            self._handle(self.referee.hint(move, now, self.config.referee.hint_duration), now)
            return
        self._start_search("hint", now)

    # -- the mode button --------------------------------------------------------------------

    def _cycle_mode(self, now: float) -> None:
        """vs-ai level 1 .. MAX_LEVEL, then referee mode, then remote, then level 1 again.

        A level change applies to the Pi's next turn; a change of mode to the next game.
        """
        self._before_mode = (self._pending_mode, self.level)
        mode, level = self._pending_mode or (self.mode, self.level)
        if mode == "referee":
            mode = "remote"
        elif mode == "remote":
            mode, level = "vs-ai", 1
        elif level >= MAX_LEVEL:
            mode = "referee"
        else:
            level += 1
        if mode == self.mode:
            self.level = level
            self._pending_mode = None
        else:
            self._pending_mode = (mode, level)
        logger.info("mode button: %s level %d", mode, level)
        if mode == "referee":
            self.state.last_event = msg("referee mode from the next game")
        elif mode == "remote":
            self.state.last_event = msg("remote mode from the next game")
        else:
            self.state.last_event = msg("level {level}", level=level)
        self._choice = Choice(count=level) if mode == "vs-ai" else Choice(mode=mode)
        self._choice_until = self._choosing_until = now + MODE_DISPLAY_TIME

    def _step_variant(self, now: float) -> None:
        """The hint button just after the mode button: the next variant, for the next new game.

        Cycles standard, twelve, morabaraba, lasker, six; the lights show the choice
        (:func:`~morris.referee.lights.variant_lights`) and the hint button may step on while
        they do. Choosing the variant being played cancels the change. The first such press
        puts back what the mode button changed: choosing a variant leaves the mode and level.
        """
        if self._before_mode is not None:
            self._pending_mode, self.level = self._before_mode
            self._before_mode = None
        current = self._pending_variant or self.board.variant_name
        name = VARIANT_NAMES[(VARIANT_NAMES.index(current) + 1) % len(VARIANT_NAMES)]
        self._pending_variant = None if name == self.board.variant_name else name
        if self._pending_variant is None:
            self.variant = name
        title = variant_title(name)
        logger.info("variant chosen at the board: %s", name)
        self.state.last_event = (
            msg("{title}: the game being played", title=title)
            if self._pending_variant is None
            else msg("{title} from the next game (press new game)", title=title)
        )
        self._choice = Choice(rules=VARIANTS[name])
        self._choice_until = self._choosing_until = now + MODE_DISPLAY_TIME

    # -- persistence ------------------------------------------------------------------------

    def _save(self) -> bool:
        """Save the unfinished game; ``False`` if it could not be (no store is not a failure)."""
        if self.store is None or self.board.outcome() is not None:
            return True
        try:
            self.store.save(SavedGame(self.board, self.mode, self.human, self.level))
        except OSError as exc:
            logger.error("could not save the game in %s: %s", self.store.state_dir, exc)
            return False
        return True

    def _save_finished(self) -> None:
        if self.store is None or self._finished_saved:
            return
        self._finished_saved = True
        white, black = player_names(self.mode, self.human, self.level)
        try:
            self.store.finish(self.board, white=white, black=black, tags=self._record_tags())
            self.store.clear()
        except OSError as exc:
            logger.error("could not save the finished game: %s", exc)

    # -- lights -----------------------------------------------------------------------------

    def _overlay(self, now: float) -> Overlay:
        """What the lights show over the referee's state at ``now``, as their input
        (:class:`~morris.referee.lights.Overlay`)."""
        setup = self._board_setup
        return Overlay(
            setup=None if setup is None else setup.overlay(now),
            choice=self._choice if now < self._choice_until else None,
            puzzle=self.puzzle is not None,
            remote=self.mode == "remote",
            remote_up=self.remote_up,
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
        if self._subscribers:
            self._publish(self._snapshot(now, lights, status))

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
            link=self.link,
            remote_player=self.remote_player if self.mode == "remote" else None,
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
            link_reason=self.link_reason.render()
            if self.mode == "remote" and self.link_reason is not None
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
        if not self._subscribers:
            # What a new display starts from is the present: only later changes are published.
            self._published = self.snapshot(self._rendered_at)
        self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            with contextlib.suppress(ValueError):
                self._subscribers.remove(subscriber)

        return unsubscribe

    def on_announcement(self, announcer: Announcer) -> Callable[[], None]:
        """Call ``announcer`` with each :class:`~morris.app.narration.Announcement` (what to say
        aloud: :mod:`morris.app.speech`); return a function that stops the calls.

        Called on the controller's loop at the moment of the event, so it must return at once
        (the speaker queues it for its own thread). One that raises is logged and dropped.
        """
        self._announcers.append(announcer)

        def stop() -> None:
            with contextlib.suppress(ValueError):
                self._announcers.remove(announcer)

        return stop

    def _announce(self, announcement: Announcement) -> None:
        for announcer in list(self._announcers):
            try:
                announcer(announcement)
            except Exception:
                logger.exception("an announcer failed; it is dropped")
                with contextlib.suppress(ValueError):
                    self._announcers.remove(announcer)

    def _publish(self, snapshot: Snapshot) -> None:
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

    def describe(self) -> str:
        """One line for the journal, the status file and sd_notify's STATUS= (English, as the
        journal is)."""
        board = self.board
        outcome = board.outcome()
        who = self._who().render("en")
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
        if self.link == "waiting":
            state += ", waiting for the remote player"
        elif self.link == "up":
            where = "a linked board" if self.remote_player == "board" else "a page"
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


def _flag(name: str, value: object) -> str:
    """A setting as a person types it on the command line (``--mode vs-ai``, ``--no-flying``)."""
    flag = name.replace("_", "-")
    if isinstance(value, bool):
        return f"--{flag}" if value else f"--no-{flag}"
    return f"--{flag} {value}"
