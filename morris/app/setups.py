"""Playing from a position set up: a position text (:meth:`SetupDriving.set_up`), the board's own
setup with its buttons (:mod:`morris.app.board_setup`) and the puzzles
(:mod:`morris.app.puzzle`), as the controller drives them.

:class:`SetupDriving` is a part of :class:`morris.app.controller.Controller` (one of its bases):
it holds the controller's commands and reactions for these, and the controller holds the state
they share (the referee, the mode, the event line).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from morris.app.board_setup import (
    ENTER_PRESSES,
    ENTER_WINDOW,
    REFUSED_DISPLAY_TIME,
    BoardSetup,
    parse_position,
)
from morris.app.errors import InputError, NotNowError
from morris.app.menu import MODE_DISPLAY_TIME
from morris.app.mode import Mode
from morris.app.narration import hint_announcement
from morris.app.puzzle import PuzzleSession
from morris.core import COLOR_NAMES, Board, Color, mask_of
from morris.engine.errors import SolutionError
from morris.i18n import Message, msg
from morris.referee.lights import Choice
from morris_device import BoardDevice, ButtonName

if TYPE_CHECKING:
    from morris.app.config import Config
    from morris.app.narration import Announcement
    from morris.app.snapshot import ControllerState
    from morris.engine.solution import Solution
    from morris.engine.solution.puzzles import Puzzle
    from morris.referee import Event, Referee

logger = logging.getLogger(__name__)

#: The length of the puzzle the board asks for first (``hint`` in the board setup), and the
#: longest it steps to (the point LEDs show it: at most the 24 points, and a length a person
#: can count at a glance).
BOARD_PUZZLE_LENGTH = 2
BOARD_PUZZLE_MAX = 9


class SetupDriving:
    """The controller's position setups and puzzles."""

    if TYPE_CHECKING:  # what the controller holds for this part
        device: BoardDevice
        config: Config
        referee: Referee
        mode: Mode
        human: str
        state: ControllerState
        puzzle: PuzzleSession | None
        puzzle_solution: Solution | None
        _board_setup: BoardSetup | None
        _board_puzzles: int
        _hint_presses: list[float]
        _choice: Choice | None
        _choice_until: float

        @property
        def board(self) -> Board: ...
        @property
        def opponent_color(self) -> Color | None: ...
        def render(self, now: float) -> None: ...
        def _handle(self, events: list[Event], now: float) -> None: ...
        def _announce(self, announcement: Announcement) -> None: ...
        def _cancel_search(self) -> None: ...

    def set_up(self, position: str, now: float) -> None:
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
        """Play the ``puzzle`` (:mod:`morris.app.puzzle`): the lights guide the board to
        its position, the person plays the winning side (the side to move), the Pi defends from
        ``solution``. It lasts until ``new``, another setup or another puzzle.

        Raises :class:`InputError` when the configured rules are not the solved game's, and
        :class:`NotNowError` in mode remote; the game is then unchanged.
        """
        if self.mode is Mode.REMOTE:
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
        self.mode, self.human = Mode.VS_AI, COLOR_NAMES[board.turn]
        self.referee.opponent_color = self.opponent_color
        self.referee.takebacks = True
        logger.info("puzzle %s: %s", puzzle.title, puzzle.position)
        self._handle(self.referee.set_up(board, now, sensed), now)
        self.render(now)

    def puzzle_source(self) -> Solution:
        """The solved game the puzzles come from, opened on first use (one copy in the process
        for the board's puzzles, the page's and a script's). Raises
        :class:`~morris.app.puzzle.NoSolutionError` saying what to build when there is none."""
        from morris.app.puzzle import solution_for

        self.puzzle_solution = solution_for(self.puzzle_solution, self.config)
        return self.puzzle_solution

    def _board_puzzle(self, now: float, wins_in: int) -> None:
        """A puzzle asked for at the board: ``wins_in`` turns long (from 1 again past the longest
        the solution holds), its length shown as that many points ``on`` for a moment, as the
        mode button shows a level. Without a solved game the event line says what to build and
        the error LED blinks; the board setup (if any) goes on."""
        from morris.app.puzzle import make_puzzle
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
        self.referee.opponent_color = self.opponent_color
        self.referee.takebacks = self.mode is not Mode.REMOTE
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
            self.state.last_event = setup.toggle()
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
            board = setup.finish(sensed, now)
            if isinstance(board, Message):
                self.state.last_event = board
                logger.warning("%s", board.render("en"))
                return
            self._board_setup = None
            self._handle(self.referee.set_up(board, now, sensed), now)

    def _puzzle_turn(self, kind: str, now: float) -> bool:
        """In a puzzle the solution answers at once: the Pi's defence, or a hint's winning turn
        (counted). False where it has none (the search answers then)."""
        assert self.puzzle is not None
        try:
            if kind == "move":
                move = self.puzzle.pi_turn(self.board)
            elif not self.puzzle.is_set_up:
                return True  # no hint before the board shows the puzzle
            else:
                move = self.puzzle.hint_turn(self.board)
        except SolutionError as exc:
            self.state.last_event = self._puzzle_broken(exc)
            # The search answers in the game the puzzle leaves, if the Pi plays a side there.
            return kind == "move" and not self.referee.opponent_to_move
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
