"""Running the Pi's searches: which engine, and how its answers reach the main loop.

:func:`make_search` turns the configuration into a function from a :class:`SearchJob` to a move:
the built-in engine at the job's level, or an external engine speaking the protocol of
``morris engine``. Two runners carry jobs out:

- :class:`ThreadedRunner` (the daemon): one worker thread; the main loop never waits for it and a
  takeback or new game cancels the running search through its stop callback.
- :class:`VirtualRunner` (the simulator): computes the move at once and hands it over after a
  fixed think time of *virtual* seconds, so games in the simulator are deterministic.
"""

from __future__ import annotations

import logging
import queue
import shlex
import threading
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from morris.app.config import Config
from morris.app.controller import SearchJob
from morris.core import Move

if TYPE_CHECKING:
    from morris.engine.tables import EndgameTables

logger = logging.getLogger(__name__)

SearchFunction = Callable[[SearchJob], Move | None]
Deliver = Callable[[SearchJob, Move | None], None]


def job_seed(seed: int, job: SearchJob) -> int:
    """A seed for one search: the configured seed mixed with the position, so the same game
    gives the same moves however it was reached (takebacks included)."""
    return zlib.crc32(f"{seed}:{job.level}:{job.board.position()}".encode())


def load_tables(directory: Path | None = None) -> EndgameTables | None:
    """The endgame tables in ``directory`` (default: the data directory), or ``None``."""
    from morris.app.paths import tables_dir
    from morris.engine.tables import EndgameTables, TableError

    directory = directory or tables_dir()
    if not (directory / "manifest.json").exists():
        logger.info("no endgame tables in %s (build them with `morris tables build`)", directory)
        return None
    try:
        tables = EndgameTables.load(directory, check=False)
    except (TableError, OSError) as exc:
        logger.warning("endgame tables in %s not used: %s", directory, exc)
        return None
    logger.info("endgame tables loaded from %s", directory)
    return tables


def make_search(
    config: Config, *, virtual: bool = False, tables: EndgameTables | None = None
) -> SearchFunction:
    """The search function the configuration asks for.

    With ``virtual`` (the simulator) the built-in engine searches by its level's budget only,
    never by the wall clock, so its moves depend on nothing but the seed and the position.
    """
    if config.engine.command:
        return _external_search(config)
    from morris.engine import Engine

    seed = config.engine.seed
    movetime = None if virtual else config.engine.movetime

    def search(job: SearchJob) -> Move | None:
        engine = Engine(job.level, seed=job_seed(seed, job), tables=tables)
        if job.board.outcome() is not None:
            return None
        result = engine.play(job.board, movetime=movetime, stop=job.is_cancelled)
        return result.move

    return search


def _external_search(config: Config) -> SearchFunction:
    from morris.engine.client import UciEngine

    command = shlex.split(config.engine.command)
    engine: UciEngine | None = None
    level: int | None = None

    def search(job: SearchJob) -> Move | None:
        nonlocal engine, level
        if engine is None:
            engine = UciEngine.spawn(command)
        if level != job.level:
            engine.configure(Level=job.level)
            level = job.level
        result = engine.play(job.board, movetime=config.engine.movetime)
        return result.move

    return search


class VirtualRunner:
    """Searches at once, answers after ``think_time`` virtual seconds (the simulator)."""

    def __init__(self, search: SearchFunction, clock: Callable[[], float], think_time: float):
        self._search = search
        self._clock = clock
        self.think_time = think_time
        self._pending: list[tuple[float, SearchJob, Move | None]] = []

    def start(self, job: SearchJob) -> None:
        """Compute the answer now; it is handed over at ``now + think_time``."""
        move = self._search(job)
        self._pending.append((self._clock() + self.think_time, job, move))

    def cancel(self, job: SearchJob) -> None:
        """Forget ``job``'s answer."""
        self._pending = [p for p in self._pending if p[1] is not job]

    def next_deadline(self) -> float | None:
        """When the next answer is due."""
        return min((due for due, _, _ in self._pending), default=None)

    def deliver_due(self, now: float, deliver: Deliver) -> None:
        """Hand over every answer due by ``now``."""
        due = [p for p in self._pending if p[0] <= now]
        self._pending = [p for p in self._pending if p[0] > now]
        for _, job, move in due:
            deliver(job, move)

    def close(self) -> None:
        """Forget every pending answer."""
        self._pending.clear()


class ThreadedRunner:
    """One worker thread runs the searches; answers go to ``deliver`` from that thread."""

    def __init__(self, search: SearchFunction, deliver: Deliver) -> None:
        self._search = search
        self._deliver = deliver
        self._jobs: queue.Queue[SearchJob | None] = queue.Queue()
        self._thread = threading.Thread(target=self._work, name="morris-search", daemon=True)
        self._thread.start()

    def start(self, job: SearchJob) -> None:
        """Queue ``job``; the worker takes it as soon as the current search stops."""
        self._jobs.put(job)

    def cancel(self, job: SearchJob) -> None:
        """Stop ``job`` (the engine checks the flag often and returns quickly)."""
        job.cancelled = True

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            if job.cancelled:
                continue
            try:
                move = self._search(job)
            except Exception:
                logger.exception("search %d failed", job.job_id)
                move = None
            if not job.cancelled:
                self._deliver(job, move)

    def close(self, timeout: float = 5.0) -> None:
        """Stop the worker (waiting at most ``timeout`` seconds for a running search)."""
        self._jobs.put(None)
        self._thread.join(timeout)
