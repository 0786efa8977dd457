"""The protocol's client side: run an external engine as a subprocess and ask it for moves.

>>> with UciEngine.spawn([sys.executable, "-m", "morris", "engine"]) as engine:  # doctest: +SKIP
...     result = engine.play(Board(), movetime=0.5)

:class:`UciEngine` has the same ``play()`` as the in-process :class:`~morris.engine.engine.Engine`,
so the daemon and ``morris match`` can use either. Every wait has a timeout; an engine that crashes
(or stops answering) is restarted once per call and given the position again.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from types import TracebackType

from morris.core.board import Board
from morris.core.moves import Move
from morris.core.points import Point, parse_point
from morris.core.rules import STANDARD
from morris.core.variant import engine_rules
from morris.engine.engine import SearchInfo, SearchResult
from morris.engine.errors import EngineCrashed, EngineTimeout, ExternalEngineError
from morris.engine.search import MATE
from morris.engine.uci import moves_to_tokens, second_removal_missing
from morris.i18n import msg

__all__ = ["UciEngine"]

logger = logging.getLogger(__name__)

#: Time allowed for an answer on top of the search time asked for, in seconds.
DEFAULT_TIMEOUT = 10.0
#: ``movetime`` used when ``play`` is given no budget at all.
DEFAULT_MOVETIME = 1.0
#: The least share of ``movetime`` the removal of a mill turn gets when the action used it up.
REMOVAL_SHARE = 0.1


_EOF = object()

#: How long to wait for the next line of an engine that has ended (its output is closed, so the
#: reader thread ends at once: a bound, not a delay).
_DRAIN_WAIT = 1.0


def parse_score(words: Sequence[str]) -> int | None:
    """``cp N`` or ``mate N`` (moves; negative when losing) as a search score."""
    if len(words) < 2:
        return None
    try:
        value = int(words[1])
    except ValueError:
        return None
    if words[0] == "cp":
        return value
    if words[0] == "mate":
        if value > 0:
            return MATE - (2 * value - 1)
        return -(MATE - 2 * -value)
    return None


def _check(value: bool) -> str:
    """A check option's value."""
    return "true" if value else "false"


class UciEngine:
    """An external engine speaking the UCI-style protocol of :mod:`morris.engine.uci`.

    Use :meth:`spawn`; close it with :meth:`close` or a ``with`` block.
    """

    def __init__(self, command: Sequence[str], *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.command = list(command)
        self.timeout = timeout
        self.engine_name = self.command[0] if self.command else "engine"
        self.options: dict[str, str] = {}
        self.restarts = 0
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._sent: dict[str, str] = {}
        self._said = ""  # the last "info string" the engine printed, for error messages

    @classmethod
    def spawn(cls, command: Sequence[str], *, timeout: float = DEFAULT_TIMEOUT) -> UciEngine:
        """Start ``command`` and do the ``uci`` handshake.

        Raises :class:`ExternalEngineError` if it cannot be started or does not answer ``uciok``
        in time.
        """
        if not command:
            raise ValueError("an engine command must not be empty")
        engine = cls(command, timeout=timeout)
        try:
            engine._start()
        except BaseException:
            engine.close()
            raise
        return engine

    @property
    def name(self) -> str:
        """The engine's ``id name``."""
        return self.engine_name

    def __repr__(self) -> str:
        return f"UciEngine({self.command!r})"

    # -- process ----------------------------------------------------------------------------

    def _start(self) -> None:
        try:
            self._proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
                # Its own process group: closing it also ends whatever it started (an adapter's
                # engine, a shell's command), not only the process we hold.
                start_new_session=True,
            )
        except OSError as exc:
            raise ExternalEngineError(
                msg(
                    "cannot start engine {command}: {reason}",
                    command=repr(self.command),
                    reason=exc.strerror or str(exc),
                )
            ) from exc
        self._lines = queue.Queue()
        self._sent = {}
        self._said = ""
        threading.Thread(
            target=self._read, args=(self._proc, self._lines), name="morris-uci-client", daemon=True
        ).start()
        self.send("uci")
        for line in self._until(lambda w: w[:1] == ["uciok"], time.monotonic() + self.timeout):
            words = line.split()
            if words[:2] == ["id", "name"]:
                self.engine_name = " ".join(words[2:]) or self.engine_name
        for name, value in self.options.items():
            self._setoption(name, value)
        self._ready()

    @staticmethod
    def _read(proc: subprocess.Popen[str], lines: queue.Queue[object]) -> None:
        assert proc.stdout is not None
        try:
            for line in proc.stdout:
                lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        lines.put(_EOF)

    def send(self, line: str) -> None:
        """Send one command line. Raises :class:`EngineCrashed` if the engine is gone."""
        proc = self._proc
        if proc is None or proc.stdin is None or proc.poll() is not None:
            self._drain()
            raise EngineCrashed(f"engine {self.name!r} is not running{self._last_words()}")
        logger.debug("> %s", line)
        try:
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
        except (OSError, ValueError) as exc:
            raise EngineCrashed(f"engine {self.name!r} closed its input: {exc}") from exc

    def _next(self, deadline: float) -> str:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise EngineTimeout(f"engine {self.name!r} did not answer in time")
        try:
            item = self._lines.get(timeout=remaining)
        except queue.Empty:
            raise EngineTimeout(f"engine {self.name!r} did not answer in time") from None
        if item is _EOF:
            if self._proc is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self._proc.wait(timeout=1.0)  # its output is closed: it is ending
            raise EngineCrashed(f"engine {self.name!r} ended{self._last_words()}")
        assert isinstance(item, str)
        self._heard(item)
        return item

    def _heard(self, line: str) -> None:
        """Log a line the engine printed and keep it if it is an ``info string``."""
        logger.debug("< %s", line)
        if line.startswith("info string"):
            self._said = line[len("info string") :].strip()

    def _drain(self) -> None:
        """Read what an engine that has ended printed before it ended, for its last ``info
        string``: it may end before the first command is sent, its lines not yet read."""
        while True:
            try:
                item = self._lines.get(timeout=_DRAIN_WAIT)
            except queue.Empty:
                return
            if item is _EOF:
                return
            assert isinstance(item, str)
            self._heard(item)

    def _last_words(self) -> str:
        """How the engine ended, for an error message: exit code and its last ``info string``."""
        proc = self._proc
        code = proc.poll() if proc is not None else None
        text = "" if code is None else f" with exit code {code}"
        if self._said:
            text += f" after saying {self._said!r}"
        return text

    def _until(self, done: Callable[[list[str]], bool], deadline: float) -> list[str]:
        seen = []
        while True:
            line = self._next(deadline)
            seen.append(line)
            if done(line.split()):
                return seen

    def _ready(self) -> None:
        self.send("isready")
        self._until(lambda w: w[:1] == ["readyok"], time.monotonic() + self.timeout)

    def _setoption(self, name: str, value: str) -> None:
        if self._sent.get(name) != value:
            self.send(f"setoption name {name} value {value}")
            self._sent[name] = value

    def configure(self, **options: str | int | bool) -> None:
        """Set options (``Level=5``, ``Flying=False``); they are sent again after a restart."""
        for name, value in options.items():
            text = str(value).lower() if isinstance(value, bool) else str(value)
            self.options[name] = text
            self._setoption(name, text)

    def _restart(self) -> None:
        self.restarts += 1
        logger.warning("restarting engine %r", self.name)
        self._kill()
        self._start()

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)  # what it started, if any is left
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def close(self) -> None:
        """Ask the engine to quit, then make sure it is gone. Safe to call twice."""
        proc = self._proc
        if proc is None:
            return
        try:
            self.send("quit")
            proc.wait(timeout=2)
        except (ExternalEngineError, subprocess.TimeoutExpired):
            pass
        self._kill()

    def __enter__(self) -> UciEngine:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- playing ----------------------------------------------------------------------------

    def play(
        self,
        board: Board,
        *,
        movetime: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        stop: Callable[[], bool] | None = None,
        info: Callable[[SearchInfo], None] | None = None,
    ) -> SearchResult:
        """Ask the engine for its turn on ``board`` (not changed), removal included.

        Raises :class:`~morris.core.rules.UnsupportedVariant` for a board with rules beyond its
        data (the engine is told only the variant's name and its settings, as options),
        :class:`ValueError` if the game is over, :class:`ExternalEngineError` if the engine fails
        twice (it is restarted once) or answers an illegal turn.
        """
        engine_rules(board)
        outcome = board.outcome()
        if outcome is not None:
            raise ValueError(
                f"the game is over ({outcome.termination.value}, {outcome.result()}): "
                f"no move to search in {board.position()}"
            )
        if movetime is None and depth is None and nodes is None:
            movetime = DEFAULT_MOVETIME
        try:
            return self._play(board, movetime, depth, nodes, stop, info)
        except ExternalEngineError as exc:
            logger.warning("engine %r failed (%s); restarting it once", self.name, exc)
            self._restart()
            return self._play(board, movetime, depth, nodes, stop, info)

    def _position(self, board: Board, extra: Sequence[str] = ()) -> str:
        root = board.copy()
        while root.move_stack:
            root.pop()
        start = (
            "startpos" if root.position() == type(root)().position() else f"fen {root.position()}"
        )
        tokens = [*moves_to_tokens(board.move_stack), *extra]
        return f"position {start}" + (f" moves {' '.join(tokens)}" if tokens else "")

    def _play(
        self,
        board: Board,
        movetime: float | None,
        depth: int | None,
        nodes: int | None,
        stop: Callable[[], bool] | None,
        info: Callable[[SearchInfo], None] | None,
    ) -> SearchResult:
        start = time.monotonic()
        if self._proc is None:
            self._start()
        self._send_rules(board)
        self.send(self._position(board))
        token, last = self._go(board, movetime, depth, nodes, stop, info)
        try:
            action = Move.parse(token)
        except ValueError:
            raise ExternalEngineError(f"engine {self.name!r} answered {token!r}") from None
        if action.remove is None and board.is_legal(action) is False and board.closes_mill(action):
            # The engine names the removal on the next go, as Mill engines do (and a double
            # mill's second removal on the go after). The turn gets one movetime in all, as the
            # built-in engine's does: each removal has what is left, and at least a tenth.
            point = self._removal(board, action, start, movetime, depth, nodes, stop)
            action = Move(action.from_point, action.to_point, point)
            if second_removal_missing(board, action):
                point = self._removal(board, action, start, movetime, depth, nodes, stop)
                action = Move(action.from_point, action.to_point, action.remove, point)
        reason = board.illegal_reason(action)
        if reason is not None:
            raise ExternalEngineError(f"engine {self.name!r} played illegal {action}: {reason}")
        depth_done, score, nodes_done, pv = last
        if not pv or pv[0] != action:
            pv = [action]
        return SearchResult(
            action, score, depth_done, nodes_done, pv or [action], time.monotonic() - start
        )

    def _send_rules(self, board: Board) -> None:
        """The game's rules as options: Flying always, the variant and the removal switches when
        they differ from the standard game or were sent before (an engine that knows only the
        standard game, as Sanmill's console, is not asked about options it may lack)."""
        self._setoption("Flying", "true" if board.flying else "false")
        rules = board.rules
        for name, value, default in (
            ("Variant", board.variant_name, STANDARD.name),
            ("RemoveFromMills", _check(rules.remove_from_mills), "false"),
            ("DoubleMillRemovesTwo", _check(rules.double_mill_removes_two), "false"),
        ):
            if value != default or name in self._sent:
                self._setoption(name, value)

    def _removal(
        self,
        board: Board,
        action: Move,
        start: float,
        movetime: float | None,
        depth: int | None,
        nodes: int | None,
        stop: Callable[[], bool] | None,
    ) -> Point:
        """Ask for the next removal of ``action`` (its removals so far given with it)."""
        self.send(self._position(board, moves_to_tokens([action])))
        left = None
        if movetime is not None:
            left = max(movetime - (time.monotonic() - start), movetime * REMOVAL_SHARE)
        removal, _ = self._go(board, left, depth, nodes, stop, None)
        if not removal.lower().startswith("x"):
            raise ExternalEngineError(f"engine {self.name!r} answered {removal!r}, not a removal")
        try:
            return parse_point(removal[1:])
        except ValueError:
            raise ExternalEngineError(f"engine {self.name!r} answered {removal!r}") from None

    def _go(
        self,
        board: Board,
        movetime: float | None,
        depth: int | None,
        nodes: int | None,
        stop: Callable[[], bool] | None,
        info: Callable[[SearchInfo], None] | None,
    ) -> tuple[str, tuple[int, int, int, list[Move]]]:
        parts = ["go"]
        if movetime is not None:
            parts += ["movetime", str(max(1, int(movetime * 1000)))]
        if depth is not None:
            parts += ["depth", str(depth)]
        if nodes is not None:
            parts += ["nodes", str(nodes)]
        self.send(" ".join(parts))
        started = time.monotonic()
        budget = (movetime or 0.0) + self.timeout
        deadline = started + budget
        stopped = False
        last: tuple[int, int, int, list[Move]] = (0, 0, 0, [])
        while True:
            if stop is not None and not stopped and stop():
                self.send("stop")
                stopped = True
                deadline = min(deadline, time.monotonic() + self.timeout)
            wait = min(deadline, time.monotonic() + 0.05) if stop is not None else deadline
            try:
                line = self._next(wait)
            except EngineTimeout:
                if time.monotonic() < deadline:
                    continue
                raise
            words = line.split()
            if not words:
                continue
            if words[0] == "bestmove":
                if len(words) < 2 or words[1] in ("(none)", "none", "0000", "-"):
                    raise ExternalEngineError(
                        f"engine {self.name!r} found no move in {board.position()}"
                    )
                return words[1], last
            if words[0] == "info" and "depth" in words:
                last = self._parse_info(words, last, started, info)

    @staticmethod
    def _parse_info(
        words: list[str],
        last: tuple[int, int, int, list[Move]],
        started: float,
        info: Callable[[SearchInfo], None] | None,
    ) -> tuple[int, int, int, list[Move]]:
        depth, score, nodes, pv = last
        try:
            for i, word in enumerate(words):
                if word == "depth":
                    depth = int(words[i + 1])
                elif word == "nodes":
                    nodes = int(words[i + 1])
                elif word == "score":
                    parsed = parse_score(words[i + 1 : i + 3])
                    score = parsed if parsed is not None else score
        except (IndexError, ValueError):
            return last
        if "pv" in words:
            pv = []
            for token in words[words.index("pv") + 1 :]:
                try:
                    if token.startswith("x") and pv:
                        prev = pv.pop()
                        pv.append(Move(prev.from_point, prev.to_point, parse_point(token[1:])))
                    else:
                        pv.append(Move.parse(token))
                except ValueError:
                    break
        if info is not None:
            info(SearchInfo(depth, score, nodes, time.monotonic() - started, pv))
        return depth, score, nodes, pv


if __name__ == "__main__":  # pragma: no cover - a quick manual check
    with UciEngine.spawn([sys.executable, "-m", "morris.engine.uci"]) as e:
        print(e.play(Board(), movetime=0.2))
