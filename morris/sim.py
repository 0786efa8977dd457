"""The simulated board with the whole product on it, in virtual time.

The harness tests and acceptance checks play through::

    from morris.sim import Simulation
    sim = Simulation(mode="vs-ai", human="white", level=1, seed=0)
    sim.place("d6")        # the person places a piece
    sim.wait(2.0)          # the turn is accepted, the Pi thinks and shows its reply
    sim.lights()           # {"a1": "off", ..., "g7": "on"}: put the Pi's piece on g7
    sim.board              # the morris.Board as the referee has accepted it

It runs the real controller over the real hardware code: the default wiring profile built from
gpiozero devices on MockFactory pins (:class:`hardware.simulated_board.SimulatedBoard`), the real
referee and lights, and the real engine. Time is virtual: nothing happens between calls, and
:meth:`wait` moves the clock forward, calling every device scan, referee timer and search answer at
its due time. The Pi's play depends only on the seed, the level and the position.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from hardware.profiles import DEFAULT_PROFILE
from hardware.simulated_board import SimulatedBoard
from morris.app.config import Config
from morris.app.controller import Controller
from morris.app.jobs import (
    THINK_TIME,
    Deliver,
    SearchFunction,
    SearchJob,
    VirtualRunner,
    make_search,
)
from morris.app.mode import Mode
from morris.app.store import GameStore
from morris.core import Board, Move
from morris_device import ButtonName, ButtonPress, SensorReading, StatusLight
from morris_device.clock import VirtualClock

if TYPE_CHECKING:
    from morris.engine.solution import Solution
    from morris.engine.solution.puzzles import Puzzle

logger = logging.getLogger(__name__)

_MIN_STEP = 0.001


class SimulationRunner(Protocol):
    """A search runner the simulation drives: answers are handed over inside :meth:`wait`."""

    def start(self, job: SearchJob) -> None: ...
    def cancel(self, job: SearchJob) -> None: ...
    def next_deadline(self) -> float | None: ...
    def deliver_due(self, now: float, deliver: Deliver) -> None: ...
    def close(self) -> None: ...


#: How long :meth:`Simulation.press` holds a button, seconds. A shorter press (the 50 ms it was)
#: went unseen on a board that had been quiet for two seconds and scanned at its idle rate.
PRESS_TIME = 0.15


class Simulation:
    """A person at a simulated board, playing the Pi (``mode="vs-ai"``), refereed
    (``"referee"``) or against a remote player (``"remote"``, whose turns come through
    :meth:`remote_move`).

    ``human`` is the person's colour against the Pi, ``level`` the Pi's level (1-9), ``seed``
    its randomness. ``flying``, ``variant``, ``remove_from_mills``, ``double_mill_removes_two``
    and the other settings come from ``config`` where not given.
    ``state_dir`` keeps the game across simulations (as the daemon does across restarts);
    ``insist`` names the settings given explicitly (``"mode"``, ``"level"`` ...) that a saved game
    must not contradict (see :meth:`morris.app.controller.Controller`: a different level is taken
    into the resumed game, a different mode, colour, variant or flying rule starts a new one and
    keeps the saved game as a record).
    ``runner`` replaces the default :class:`VirtualRunner` (``search`` and ``think_time`` are then
    unused); the caller closes it. ``solution`` is the solved game
    (:func:`morris.app.jobs.load_solution`), or a directory of sector files: the Pi plays from
    it, the hints, the snapshot's values and the puzzles (:meth:`puzzle`) come from
    it; without one, the first puzzle opens the configured ``engine.solution`` directory.
    """

    def __init__(
        self,
        mode: Mode | str = Mode.VS_AI,
        human: str = "white",
        level: int = 1,
        seed: int = 0,
        *,
        flying: bool | None = None,
        variant: str | None = None,
        remove_from_mills: bool | None = None,
        double_mill_removes_two: bool | None = None,
        config: Config | None = None,
        profile: str | None = None,
        state_dir: str | Path | None = None,
        resume: bool = True,
        insist: Iterable[str] = (),
        think_time: float = THINK_TIME,
        search: SearchFunction | None = None,
        runner: SimulationRunner | None = None,
        solution: Solution | str | Path | None = None,
    ) -> None:
        base = config or Config()
        self.config = base.with_overrides(
            game_mode=mode,
            game_human=human,
            game_level=level,
            game_flying=flying,
            game_variant=variant,
            game_remove_from_mills=remove_from_mills,
            game_double_mill_removes_two=double_mill_removes_two,
            engine_seed=seed,
            hardware_backend="sim",
        )
        if isinstance(solution, str | Path):
            from morris.engine.solution import Solution

            solution = Solution.load(Path(solution), check=False)
        self.clock = VirtualClock(0.0)
        self.hardware = SimulatedBoard(profile or DEFAULT_PROFILE, clock=self.clock)
        device = self.hardware.device
        # Another runner (the terminal app's worker thread) trades determinism for a live UI.
        self.runner: SimulationRunner = (
            runner
            if runner is not None
            else VirtualRunner(
                search or make_search(self.config, virtual=True, solution=solution),
                self.clock,
                think_time,
            )
        )
        store = GameStore(Path(state_dir)) if state_dir is not None else None
        self.controller = Controller(
            device,
            self.config,
            self.runner,
            store=store,
            now=self.now,
            resume=resume,
            insist=insist,
            solution=solution,
        )
        device.when_changed = self._on_reading
        device.when_pressed = self._on_press
        self._closed = False

    # -- the person's hands -----------------------------------------------------------------

    def place(self, point: str) -> None:
        """Put a piece on ``point`` (the sensors see it at the next scan)."""
        self.hardware.place(point)

    def lift(self, point: str) -> None:
        """Take the piece off ``point``."""
        self.hardware.lift(point)

    def move(self, origin: str, target: str, *, pause: float = 0.3) -> None:
        """Lift the piece on ``origin``, wait ``pause`` seconds, put it on ``target``."""
        self.lift(origin)
        self.wait(pause)
        self.place(target)

    def press(self, button: str) -> None:
        """Press and release a button: ``"new"``, ``"takeback"``, ``"hint"`` or ``"mode"``.

        Held for :data:`PRESS_TIME`, as a finger does: long enough for the idle scan of a quiet
        board (every 40 ms) to confirm it.
        """
        name = ButtonName(button)
        self.hardware.press(name)
        self.wait(PRESS_TIME)
        self.hardware.release(name)

    # -- the page's and the remote player's commands ---------------------------------------

    def setup(self, position: str) -> None:
        """Play from ``position``: the lights then guide the person to arrange the board.
        Raises ``InputError`` for a bad position.

        The harness's name for the controller's :meth:`~morris.app.controller.Controller.set_up`
        (the verb is ``set_up`` everywhere else; ``setup`` stays here, the harness's public
        name that scripts call)."""
        self.controller.set_up(position, self.now)

    def puzzle(self, wins_in: int, seed: int = 0, *, men: int | None = None) -> Puzzle:
        """Start a puzzle "white to move wins in ``wins_in``" drawn (seeded) from the
        solution (:meth:`morris.app.controller.Controller.start_puzzle`): the lights then guide
        the person to set it up, and the Pi defends perfectly. Returns the puzzle.

        Raises :class:`~morris.app.puzzle.NoSolutionError` when no solved game is there, and
        ``InputError`` for a bad request.
        """
        from morris.app.puzzle import make_puzzle

        puzzle = make_puzzle(self.solution, wins_in, seed, men)
        self.start_puzzle(puzzle)
        return puzzle

    def start_puzzle(self, puzzle: Puzzle) -> None:
        """Play ``puzzle`` (one of :func:`morris.engine.solution.puzzles.generate_puzzles`)."""
        self.controller.start_puzzle(puzzle, self.solution, self.now)

    @property
    def solution(self) -> Solution:
        """The solved game the puzzles come from (opened on first use)."""
        return self.controller.puzzle_source()

    def remote_move(self, move: str) -> None:
        """The remote player's turn in mode ``"remote"``
        (:meth:`morris.app.controller.Controller.remote_move`), shown by the lights."""
        self.controller.remote_move(move, self.now)

    def remote_link(self, up: bool) -> None:
        """The remote player connects (``True``) or goes away."""
        self.controller.on_remote_connection(up, self.now)

    # -- time -------------------------------------------------------------------------------

    @property
    def now(self) -> float:
        """The virtual time, seconds since the simulation started."""
        return self.clock()

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` of virtual time pass, doing everything that falls due in order."""
        if seconds < 0:
            raise ValueError(f"cannot wait a negative time: {seconds}")
        end = self.now + seconds
        device = self.hardware.device
        while True:
            now = self.now
            due = [end, max(device.next_poll, now)]
            for deadline in (self.controller.next_deadline(), self.runner.next_deadline()):
                if deadline is not None:
                    due.append(max(deadline, now + _MIN_STEP))
            step = min(due)
            self.hardware.advance(step)  # device scans and blink edges up to ``step``
            self.clock.set(step)
            self.runner.deliver_due(step, self._deliver)
            self.controller.poll(step)
            if step >= end:
                return

    # -- callbacks from the device and the runner -------------------------------------------

    def _on_reading(self, reading: SensorReading) -> None:
        self.controller.on_sensors(reading.sensed, reading.timestamp)

    def _on_press(self, press: ButtonPress) -> None:
        self.controller.on_button(press.button, press.timestamp)

    def _deliver(self, job: SearchJob, move: Move | None) -> None:
        self.controller.on_search_done(job, move, self.now)

    # -- what the person sees ---------------------------------------------------------------

    def lights(self) -> dict[str, str]:
        """The signal of every point LED, as the wiring drives it: ``"off"``, ``"on"``,
        ``"slow"`` or ``"fast"``."""
        return {name: signal.value for name, signal in self.hardware.lights().items()}

    def status(self) -> dict[str, str]:
        """The signal of each status LED (``turn``, ``thinking``, ``error``, ``game_over``)."""
        return {light.value: self.hardware.status_signal(light).value for light in StatusLight}

    @property
    def board(self) -> Board:
        """The game as the referee has accepted it."""
        return self.controller.board

    @property
    def sensed(self) -> frozenset[str]:
        """The points where the sensors see a piece."""
        return self.hardware.device.sensors()

    def describe(self) -> str:
        """One line: who plays, whose turn, what happened last."""
        return f"{self.controller.describe()}; {self.controller.state.last_event}"

    def close(self) -> None:
        """Release the simulated board. Safe to call twice."""
        if not self._closed:
            self._closed = True
            self.controller.close()
            self.hardware.close()

    def __enter__(self) -> Simulation:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
