"""The Pi's searches as the controller drives them: a search for the Pi's turn when the Pi is to
move, one for a hint, and what their answers become on the board.

The searches themselves run through a :class:`~morris.app.jobs.SearchRunner` beside the main
loop; :class:`SearchDriving` is a part of :class:`morris.app.controller.Controller` (one of its
bases) that starts, cancels and answers them.
"""

from __future__ import annotations

import itertools
import logging
from typing import TYPE_CHECKING

from morris.app.jobs import SearchJob, SearchRunner
from morris.app.narration import hint_announcement
from morris.app.values import PositionValues, solution_hint
from morris.core import Board, Move
from morris.i18n import msg, plain

if TYPE_CHECKING:
    from morris.app.config import Config
    from morris.app.narration import Announcement
    from morris.app.puzzle import PuzzleSession
    from morris.app.snapshot import ControllerState
    from morris.referee import Event, Referee

logger = logging.getLogger(__name__)

#: The level the hint button's suggestions are searched at (at least the Pi's own level): the
#: lowest without randomness, so a hint is the best move it sees.
HINT_LEVEL = 6


class SearchDriving:
    """The controller's searches: at most one at a time, for the Pi's turn or a hint."""

    if TYPE_CHECKING:  # what the controller holds for this part
        config: Config
        referee: Referee
        level: int
        state: ControllerState
        values: PositionValues
        puzzle: PuzzleSession | None

        @property
        def board(self) -> Board: ...
        def render(self, now: float) -> None: ...
        def _handle(self, events: list[Event], now: float) -> None: ...
        def _announce(self, announcement: Announcement) -> None: ...
        def _opponent_chose(self, move: Move) -> None: ...
        def _puzzle_turn(self, kind: str, now: float) -> bool: ...

    def __init__(self, runner: SearchRunner) -> None:
        self.runner = runner
        self._job_ids = itertools.count(1)
        self._job: SearchJob | None = None

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
        elif self.referee.opponent_to_move and job.board.position() == self.board.position():
            logger.info("the Pi plays %s", move)
            self._opponent_chose(move)
            self._handle(self.referee.expect(move, now), now)
        if new_warning is not None:  # said once here; the error LED and the status file keep it
            self.state.last_event = msg(
                "{warning}; the Pi plays with its own engine", warning=plain(new_warning)
            )
        self.render(now)

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

    def _request_hint(self, now: float) -> None:
        if self.board.outcome() is not None or self.referee.opponent_to_move:
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
