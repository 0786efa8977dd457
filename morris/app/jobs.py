"""Running the Pi's searches: which engine, and how its answers reach the main loop.

:func:`make_search` turns the configuration into a function from a :class:`SearchJob` to a move:
the built-in engine at the job's level, or an external engine speaking the protocol of
``morris engine`` (:class:`ExternalSearch`: if that engine cannot start, or fails again after its
restart, the Pi plays on with the built-in engine and the job says why). Three runners carry
jobs out; :func:`builtin_runner` picks the daemon's:

- :class:`ThreadedRunner` (the daemon with the C search; an external engine, which is its own
  process already; tests): one worker thread; the main loop never waits for it. The C search
  releases the interpreter lock while it searches (``morris/engine/_native.c``), so the board's
  scanning and lights run beside it, and the daemon stays one process (about 26 MiB).
- :class:`ProcessRunner` (the daemon when the C search is not built, or ``MORRIS_NATIVE=0``):
  the search runs in a child process. The Python search holds the interpreter lock, and its big
  allocations (a transposition table freed at the end of a search) held the board's scanning up
  by 150 ms at the 99th percentile here, more on a Pi. A process leaves them alone and uses a
  second core, for about 35 MiB more (the child and multiprocessing's resource tracker). A
  takeback or new game stops the running search through a shared value.
- :class:`VirtualRunner` (the simulator): computes the move at once and hands it over after a
  fixed think time of *virtual* seconds, so games in the simulator are deterministic.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import queue
import shlex
import shutil
import signal
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from morris.app.config import Config
from morris.core import Board, Move
from morris.i18n import N_, Message, msg, plain

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.sharedctypes import Synchronized

    from morris.engine.client import UciEngine
    from morris.engine.solution import Solution
    from morris.engine.tables import EndgameTables

logger = logging.getLogger(__name__)

#: Virtual seconds the Pi "thinks" before its turn is shown (the simulator's runners).
THINK_TIME = 0.3


@dataclass
class SearchJob:
    """One search for the runner: the Pi's turn or a hint."""

    job_id: int
    kind: str  # "move" or "hint"
    board: Board
    level: int
    movetime: float
    cancelled: bool = False
    #: Set by the search when it did not play as configured (the external engine failed and the
    #: built-in one answered): the controller shows it.
    warning: str | None = None

    def is_cancelled(self) -> bool:
        """The stop callback handed to the engine."""
        return self.cancelled


class SearchRunner(Protocol):
    """Runs searches away from the main loop.

    The owner of the runner (the daemon, the simulator) routes each finished search back to
    :meth:`Controller.on_search_done` on the main loop, with the time it arrives.
    """

    def start(self, job: SearchJob) -> None:
        """Begin ``job``."""
        ...

    def cancel(self, job: SearchJob) -> None:
        """Ask ``job`` to stop; its result, if any, is ignored."""
        ...

    def close(self) -> None:
        """Stop all work."""
        ...


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


def load_solution(directory: Path | None = None) -> Solution | None:
    """The solved sectors in ``directory`` (default: ``solution`` in the data directory; the
    daemon and the simulator give :meth:`Config.solution_dir`, the ``engine.solution`` key), or
    ``None``: what ``morris tables build --men K`` made there."""
    from morris.app.paths import solution_dir
    from morris.engine.solution import Solution, SolutionError

    directory = directory or solution_dir()
    if not any(directory.glob("sector-*.msol")):
        logger.info("no solved game in %s (build it with `morris tables build --men K`)", directory)
        return None
    try:
        solution = Solution.load(directory, check=False)
    except (SolutionError, OSError) as exc:
        logger.warning("the solved game in %s not used: %s", directory, exc)
        return None
    logger.info("%d solved sectors loaded from %s", len(solution.keys), directory)
    return solution


def make_search(
    config: Config,
    *,
    virtual: bool = False,
    tables: EndgameTables | None = None,
    solution: Solution | None = None,
) -> SearchFunction:
    """The search function the configuration asks for.

    With ``virtual`` (the simulator) the built-in engine searches by its level's budget only,
    never by the wall clock, so its moves depend on nothing but the seed and the position.
    """
    if config.engine.command:
        # The built-in engine stands by: it answers if the external one cannot.
        own = config.with_overrides(engine_command="")
        builtin = make_search(own, virtual=virtual, tables=tables, solution=solution)
        return ExternalSearch(config, builtin)
    from morris.engine import Engine

    seed = config.engine.seed
    movetime = None if virtual else config.engine.movetime

    def search(job: SearchJob) -> Move | None:
        engine = Engine(job.level, seed=job_seed(seed, job), tables=tables, solution=solution)
        if job.board.outcome() is not None:
            return None
        result = engine.play(job.board, movetime=movetime, stop=job.is_cancelled)
        return result.move

    return search


def engine_command_problem(command: str) -> str | None:
    """Why the external engine ``command`` (``engine.command``) cannot run, or ``None``.

    Its program must be a path to an executable file, or a name found on ``PATH``.
    """
    try:
        words = shlex.split(command)
    except ValueError as exc:
        return f"engine.command {command!r} is not a command line: {exc}"
    if not words:
        return None
    program = words[0]
    if os.sep in program:
        path = Path(program)
        if not path.is_file():
            return f"engine.command: {program} does not exist"
        if not os.access(path, os.X_OK):
            return f"engine.command: {program} is not executable (chmod +x {program})"
        return None
    if shutil.which(program) is None:
        return f"engine.command: {program!r} is not found on PATH ({os.environ.get('PATH', '')})"
    return None


class ExternalSearch:
    """Searches with the external engine of ``engine.command``, falling back to ``fallback``.

    When the engine cannot be started, or fails again after the restart the client gives it, it
    is given up for good (until the daemon restarts or reloads): :attr:`failure` says why, the
    job's :attr:`SearchJob.warning` carries it to the controller, and ``fallback`` (the built-in
    engine) answers this job and every later one. The Pi never waits for an engine that is gone.
    """

    def __init__(self, config: Config, fallback: SearchFunction) -> None:
        self.command = config.engine.command
        self.movetime = config.engine.movetime
        self._fallback = fallback
        self._engine: UciEngine | None = None
        self._level: int | None = None
        #: Why the external engine was given up, or ``None`` while it is used.
        self.failure: str | None = None

    def __call__(self, job: SearchJob) -> Move | None:
        """The move for ``job``: the external engine's, or the built-in one's once it failed."""
        from morris.engine.errors import ExternalEngineError

        if self.failure is None:
            try:
                return self._play(job)
            except (ExternalEngineError, OSError, ValueError) as exc:
                if job.board.outcome() is not None:
                    return None  # asked about a finished game: nothing wrong with the engine
                self._give_up(exc)
        job.warning = self.failure
        return self._fallback(job)

    def _play(self, job: SearchJob) -> Move | None:
        from morris.engine.client import UciEngine

        if self._engine is None:
            self._engine = UciEngine.spawn(shlex.split(self.command))
            self._level = None
        if self._level != job.level:
            self._engine.configure(Level=job.level)
            self._level = job.level
        return self._engine.play(job.board, movetime=self.movetime).move

    def _give_up(self, exc: BaseException) -> None:
        problem = engine_command_problem(self.command) or f"{type(exc).__name__}: {exc}"
        self.failure = f"external engine failed ({problem})"
        logger.error("%s; the Pi plays with its own engine", self.failure)
        engine, self._engine = self._engine, None
        if engine is not None:
            with contextlib.suppress(Exception):
                engine.close()

    def close(self) -> None:
        """Stop the external engine, if it runs."""
        if self._engine is not None:
            self._engine.close()
            self._engine = None


def builtin_runner(
    config: Config,
    deliver: Deliver,
    *,
    tables_dir: Path | None = None,
    solution: Solution | None = None,
) -> ThreadedRunner | ProcessRunner:
    """The daemon's runner for the built-in engine: a thread where the C search runs (it releases
    the interpreter lock), a process where the search is Python (it would hold it; the process
    maps the solution of :meth:`Config.solution_dir` itself)."""
    from morris.engine.search import native_enabled

    if native_enabled():
        tables = None if tables_dir is None else load_tables(tables_dir)
        return ThreadedRunner(make_search(config, tables=tables, solution=solution), deliver)
    logger.info("the search is Python (no C loop): it runs in its own process")
    return ProcessRunner(config, deliver, tables_dir=tables_dir)


#: How the built-in engine runs, as the status file's ``engine`` field writes it (English, a
#: field programs read) and in words (:func:`engine_words_of`): (search, where) -> message id.
_BUILTIN_WORDS: dict[tuple[str, str], str] = {
    ("C search", "a thread"): N_("built-in, C search in a thread"),
    ("C search", "its own process"): N_("built-in, C search in its own process"),
    ("Python search", "a thread"): N_("built-in, Python search in a thread"),
    ("Python search", "its own process"): N_("built-in, Python search in its own process"),
}


def describe_engine(config: Config, runner: object) -> str:
    """Which engine the Pi plays with, and how it runs: the status file's ``engine`` field
    (English, as programs read it; :func:`engine_words_of` gives its words for ``morris
    status``)."""
    if config.engine.command:
        return f"external: {config.engine.command}"
    from morris.engine.search import native_enabled

    search = "C search" if native_enabled() else "Python search"
    where = "its own process" if isinstance(runner, ProcessRunner) else "a thread"
    return f"built-in, {search} in {where}"


def engine_words_of(field: str) -> Message:
    """The status file's ``engine`` field (:func:`describe_engine`) in words, to render in the
    reader's language; a field it does not know stays as it is.

    >>> engine_words_of("built-in, C search in a thread").render("de")
    'eingebaut, C-Suche in einem Thread'
    >>> engine_words_of("external: stockfish-morris --x").render("nl")
    'extern: stockfish-morris --x'
    """
    if field.startswith("external: "):
        return msg("external: {command}", command=field.removeprefix("external: "))
    for (search, where), words in _BUILTIN_WORDS.items():
        if field == f"built-in, {search} in {where}":
            return msg(words)
    return plain(field)


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


def _search_process(
    conn: Connection, cancelled: Synchronized[int], config: Config, tables_dir: str | None
) -> None:
    """The child process of :class:`ProcessRunner`: answers jobs until told to stop."""
    # The daemon decides when its search process stops (systemd signals the whole group).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    tables = None if tables_dir is None else load_tables(Path(tables_dir))
    solution = load_solution(config.solution_dir())
    search = make_search(config, tables=tables, solution=solution)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        job_id = job.job_id

        def stopped(job_id: int = job_id) -> bool:
            return cancelled.value >= job_id

        job.is_cancelled = stopped
        try:
            move = None if stopped() else search(job)
            answer: tuple[int, str | None, str | None] = (
                job_id,
                None if move is None else str(move),
                None,
            )
        except Exception as exc:  # reported to the parent, which logs it
            answer = (job_id, None, f"{type(exc).__name__}: {exc}")
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return


class ProcessRunner:
    """Searches in a child process; answers go to ``deliver`` from a reader thread.

    If the child dies (killed, out of memory), it is started again and the search that was
    running is asked again, once.
    """

    def __init__(self, config: Config, deliver: Deliver, *, tables_dir: Path | None = None) -> None:
        self._config = config
        self._deliver = deliver
        self._tables_dir = None if tables_dir is None else str(tables_dir)
        self._ctx = multiprocessing.get_context("spawn")
        # Written by the daemon's main loop only, read by the child: no lock needed.
        self._cancelled: Synchronized[int] = self._ctx.Value("q", 0, lock=False)
        self._jobs: dict[int, SearchJob] = {}
        self._retried: set[int] = set()
        self._lock = threading.Lock()
        self._closing = False
        self._conn: Connection | None = None
        self._process: multiprocessing.process.BaseProcess | None = None
        self._reader: threading.Thread | None = None
        self._start_child()

    @property
    def pid(self) -> int | None:
        """The search process's id (for tests and the journal)."""
        return None if self._process is None else self._process.pid

    def _start_child(self) -> None:
        parent, child = self._ctx.Pipe()
        process = self._ctx.Process(
            target=_search_process,
            args=(child, self._cancelled, self._config, self._tables_dir),
            name="morris-search",
            daemon=True,
        )
        process.start()
        child.close()
        self._conn, self._process = parent, process
        self._reader = threading.Thread(
            target=self._read, args=(parent,), name="morris-search-reader", daemon=True
        )
        self._reader.start()
        logger.info("search process %d started", process.pid)

    def start(self, job: SearchJob) -> None:
        """Send ``job`` to the search process."""
        with self._lock:
            self._jobs[job.job_id] = job
            conn = self._conn
        assert conn is not None
        try:
            conn.send(job)
        except (OSError, ValueError) as exc:
            logger.warning("search process unreachable (%s); the reader restarts it", exc)

    def cancel(self, job: SearchJob) -> None:
        """Stop ``job``: the engine in the child sees it at its next check."""
        job.cancelled = True
        if self._cancelled.value < job.job_id:
            self._cancelled.value = job.job_id
        with self._lock:
            self._jobs.pop(job.job_id, None)

    def _read(self, conn: Connection) -> None:
        while True:
            try:
                job_id, text, error = conn.recv()
            except (EOFError, OSError):
                break
            with self._lock:
                job = self._jobs.pop(job_id, None)
            if error is not None:
                logger.error("search %d failed in the search process: %s", job_id, error)
            if job is None or job.cancelled:
                continue
            self._deliver(job, None if text is None else Move.parse(text))
        if self._closing:
            return
        logger.error("the search process stopped unexpectedly; starting it again")
        with self._lock:
            pending = sorted(self._jobs.values(), key=lambda j: j.job_id)
        self._start_child()
        for job in pending:
            if job.job_id in self._retried:
                with self._lock:
                    self._jobs.pop(job.job_id, None)
                self._deliver(job, None)
            else:
                self._retried.add(job.job_id)
                self.start(job)

    def close(self, timeout: float = 5.0) -> None:
        """Stop the search process (waiting at most ``timeout`` seconds). Safe to call twice."""
        if self._closing:
            return
        self._closing = True
        self._cancelled.value = 2**62  # stop whatever runs
        conn, process = self._conn, self._process
        if conn is not None:
            with contextlib.suppress(OSError, ValueError):
                conn.send(None)
        if process is not None:
            process.join(timeout)
            if process.is_alive():
                process.kill()
                process.join(1.0)
        if conn is not None:
            conn.close()


class BackgroundRunner:
    """Runs the Pi's searches on a worker thread; the simulation picks answers up in ``wait``.

    An answer is handed over no sooner than ``think_time`` seconds of ``clock`` after its search
    started, so the Pi never answers faster than a person can follow. Cancelled searches are
    dropped. Implements :class:`morris.sim.SimulationRunner`; the terminal UI uses it.
    """

    def __init__(
        self,
        search: SearchFunction,
        *,
        think_time: float = THINK_TIME,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.think_time = think_time
        self._clock = clock
        self._answers: queue.SimpleQueue[tuple[SearchJob, Move | None]] = queue.SimpleQueue()
        self._started: dict[int, float] = {}
        self._ready: list[tuple[float, SearchJob, Move | None]] = []
        self._worker = ThreadedRunner(search, self._answered)

    def _answered(self, job: SearchJob, move: Move | None) -> None:
        # Called on the worker thread: only hand the answer over.
        self._answers.put((job, move))

    def start(self, job: SearchJob) -> None:
        """Queue ``job`` on the worker."""
        self._started[job.job_id] = self._clock()
        self._worker.start(job)

    def cancel(self, job: SearchJob) -> None:
        """Stop ``job``; its answer, if it comes, is dropped."""
        self._worker.cancel(job)
        self._started.pop(job.job_id, None)
        self._ready = [r for r in self._ready if r[1] is not job]

    @property
    def is_busy(self) -> bool:
        """Whether a search is running or its answer is not handed over yet."""
        return bool(self._started)

    def next_deadline(self) -> float | None:
        """Always ``None``: the answers' time is the worker's; the app polls often enough."""
        return None

    def deliver_due(self, now: float, deliver: Deliver) -> None:
        """Hand over every finished answer whose think time has passed."""
        while True:
            try:
                job, move = self._answers.get_nowait()
            except queue.Empty:
                break
            started = self._started.get(job.job_id)
            if started is None or job.cancelled:
                continue
            self._ready.append((started + self.think_time, job, move))
        if not self._ready:
            return
        clock = self._clock()
        due = [r for r in self._ready if r[0] <= clock]
        self._ready = [r for r in self._ready if r[0] > clock]
        for _, job, move in due:
            self._started.pop(job.job_id, None)
            deliver(job, move)

    def close(self, timeout: float = 2.0) -> None:
        """Stop the worker (a running search is cancelled by the controller first)."""
        self._worker.close(timeout)
