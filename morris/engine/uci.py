"""The engine protocol: a UCI-style text dialect over a pair of text streams.

It follows the dialect of Sanmill (the strongest open-source Mill engine), so either engine can
stand in for the other::

    > uci
    < id name morris 0.1.0
    < id author the morris-board developers
    < option name Level type spin default 8 min 1 max 8
    < ...
    < uciok
    > position startpos moves d6 f4 d2 b4 d7
    > go depth 4
    < info depth 1 score cp 85 nodes 31 nps 31000 time 1 pv xb4
    < ...
    < bestmove xb4

One token per action: a placement ``d6``, a slide or fly ``a1-a4``, a removal ``xg7`` as its own
token after the action that closed the mill, and where a double mill removes two (a variant's
rule) the second removal as one more token (``d6 xg7 xa1``). The compounds ``d6xg7`` and
``d6xg7xa1`` are accepted too. After a mill-closing action, ``go`` answers the removal token, and
after the first removal of a double mill the second. Unknown or malformed commands get an
``info string error ...`` line; nothing the peer sends makes the server crash.

The search runs in a worker thread, so ``stop``, ``isready`` and ``quit`` are answered during
``go``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TextIO

from morris.core.board import Board
from morris.core.moves import InvalidMoveError, InvalidPositionError, Move
from morris.core.points import POINT_NAMES, parse_point
from morris.core.rules import STANDARD
from morris.core.variant import VARIANT_NAMES, find_variant
from morris.engine.engine import Engine, SearchInfo, format_score
from morris.engine.errors import ProtocolError
from morris.engine.levels import LEVELS, MAX_DEPTH, MAX_LEVEL, MIN_LEVEL

if TYPE_CHECKING:
    from morris.engine.tables import EndgameTables

logger = logging.getLogger(__name__)

ENGINE_NAME = "morris 0.1.0"
ENGINE_AUTHOR = "the morris-board developers"


def move_tokens(move: Move) -> list[str]:
    """The protocol tokens of a turn: the action, then ``x..`` for each piece it removes."""
    tokens = [str(move.without_removal())]
    for removed in (move.remove, move.second_remove):
        if removed is not None:
            tokens.append(f"x{POINT_NAMES[removed]}")
    return tokens


def moves_to_tokens(moves: Iterable[Move]) -> list[str]:
    """The protocol tokens of a list of turns."""
    return [token for move in moves for token in move_tokens(move)]


def apply_tokens(board: Board, tokens: Iterable[str]) -> Move | None:
    """Play protocol tokens on ``board``; return the pending turn if the last one closed a mill
    and its removal has not come yet, or a double mill and its second removal has not (the turn
    is then *not* pushed; its ``remove`` says which).

    Raises :class:`ProtocolError` naming the token for bad syntax or an illegal turn.
    """
    pending: Move | None = None
    for token in tokens:
        text = token.strip()
        try:
            if text[:1].lower() == "x":
                if pending is None:
                    raise ProtocolError(f"{text!r}: a removal token without a mill before it")
                removed = parse_point(text[1:])
                if pending.remove is None:
                    move = Move(pending.from_point, pending.to_point, removed)
                    if second_removal_missing(board, move):
                        pending = move  # a double mill: its second removal must follow
                        continue
                else:
                    move = Move(pending.from_point, pending.to_point, pending.remove, removed)
                pending = None
            else:
                if pending is not None:
                    raise ProtocolError(
                        f"{text!r}: {pending} closed a mill, its removal must follow"
                    )
                move = Move.parse(text)
                if move.remove is None and _only_removal_missing(board, move):
                    pending = move  # legal once its removal comes: wait for the x.. token
                    continue
                if move.second_remove is None and second_removal_missing(board, move):
                    pending = move  # d6xg7 of a double mill: wait for the second x.. token
                    continue
            reason = board.illegal_reason(move)
            if reason is not None:
                raise ProtocolError(f"illegal move {text!r}: {reason}")
            board.push(move)
        except (InvalidMoveError, ValueError) as exc:
            if isinstance(exc, ProtocolError):
                raise
            raise ProtocolError(f"bad move token {text!r}: {exc}") from None
    return pending


def _still_due(move: Move, pending: Move | None) -> list[str]:
    """The tokens of ``move`` the peer has not given yet: all of them, or after the action
    (``pending``) its removals, or after a double mill's first removal the other one."""
    tokens = move_tokens(move)
    if pending is None:
        return tokens
    if pending.remove is None:
        return tokens[1:]
    return [f"x{POINT_NAMES[r]}" for r in move.removals if r != pending.remove]


def second_removal_missing(board: Board, move: Move) -> bool:
    """Whether ``move`` (an action and its first removal) is legal once a second is added."""
    if move.remove is None or move.second_remove is not None or board.outcome() is not None:
        return False
    if board.removals_due(move) != 2:
        return False
    return any(
        (m.from_point, m.to_point) == (move.from_point, move.to_point) and move.remove in m.removals
        for m in board.legal_moves
    )


def _only_removal_missing(board: Board, action: Move) -> bool:
    """Whether ``action`` closes a mill and is legal once its removal (or removals) is added."""
    if board.outcome() is not None or not board.removals_due(action):
        return False
    return any(
        (m.from_point, m.to_point) == (action.from_point, action.to_point)
        for m in board.legal_moves
    )


@dataclass
class Options:
    """The settings a peer can change with ``setoption``.

    ``flying`` and the removal switches are ``None`` until the peer sets them: the variant's
    default then (six men's morris flies not, the others do; no variant removes from mills or
    two for a double mill by default).
    """

    level: int = MAX_LEVEL
    movetime: float = 1.0
    flying: bool | None = None
    variant: str = STANDARD.name
    seed: int = 0
    remove_from_mills: bool | None = None
    double_mill_removes_two: bool | None = None


#: The largest node budget ``go nodes`` passes on (the C search counts in a signed 64-bit word);
#: a bigger number means "no node limit" in practice and is cut to this.
MAX_NODES = 2**62
#: The largest time in milliseconds ``go`` reads (``movetime``, ``wtime`` ...): about 31 years.
MAX_MILLISECONDS = 10**12
#: The largest seed (``setoption name Seed``), as ``uci`` announces it.
MAX_SEED = 2**31 - 1


def _parse_int(text: str, what: str) -> int:
    """An integer in ASCII digits (an optional sign), or :class:`ProtocolError` naming ``what``.

    ``int()`` also takes digits such as ``'١'`` and refuses texts of thousands of digits with a
    bare ``ValueError``; a peer's number is checked here first.
    """
    digits = text.removeprefix("-").removeprefix("+")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 30:
        shown = text if len(text) <= 20 else f"{text[:20]}... ({len(text)} characters)"
        raise ProtocolError(f"{what}: {shown!r} is not a whole number")
    return int(text)


def _parse_bool(value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in ("true", "1", "on", "yes"):
        return True
    if lowered in ("false", "0", "off", "no"):
        return False
    raise ProtocolError(f"{value!r} is not true or false")


#: The check options of the board's settings, by their lower-case name, and the Options field.
_SETTING_OPTIONS = {
    "flying": "flying",
    "removefrommills": "remove_from_mills",
    "doublemillremovestwo": "double_mill_removes_two",
}

#: Commands answered at once while a search runs; the others wait for it to end.
_DURING_SEARCH = frozenset({"stop", "isready", "quit", "ponderhit", "debug"})


class UciServer:
    """The protocol's engine side: feed it lines with :meth:`handle`, or :meth:`run` a stream.

    ``write`` receives each answer line (without newline); it is called from the search thread too,
    under a lock. ``engine_factory(level, seed)`` makes the engine (the tables are bound there).
    """

    def __init__(
        self,
        write: Callable[[str], None],
        *,
        tables: EndgameTables | None = None,
        clock: Callable[[], float] = time.monotonic,
        engine_factory: Callable[[int, int], Engine] | None = None,
    ) -> None:
        self._write_raw = write
        self._lock = threading.Lock()
        self._clock = clock
        self._tables = tables
        self._factory = engine_factory or (
            lambda level, seed: Engine(level, seed=seed, clock=clock, tables=tables)
        )
        self.options = Options()
        self.board: Board = Board()
        self.pending: Move | None = None
        self._worker: threading.Thread | None = None
        self._stop = threading.Event()
        self.running = True

    # -- output -----------------------------------------------------------------------------

    def send(self, line: str) -> None:
        """Write one answer line."""
        with self._lock:
            self._write_raw(line)

    def error(self, message: str) -> None:
        """Report a problem with the peer's input."""
        logger.info("protocol error: %s", message)
        self.send(f"info string error {message}")

    # -- the loop ---------------------------------------------------------------------------

    def run(self, stream: TextIO) -> None:
        """Answer every line of ``stream`` until ``quit`` or the end of the stream."""
        for line in stream:
            if not self.handle(line):
                return
        self.handle("quit")

    def handle(self, line: str) -> bool:
        """Answer one command line; return False once ``quit`` has been handled."""
        tokens = line.split()
        if not tokens:
            return self.running
        command, args = tokens[0], tokens[1:]
        handler = getattr(self, f"_cmd_{command.lower()}", None)
        if handler is None:
            self.error(f"unknown command {line.strip()!r}")
            return self.running
        if command.lower() not in _DURING_SEARCH and self.searching:
            # Like Stockfish: other commands wait for the running search to end.
            self.wait()
        try:
            handler(args)
        except ProtocolError as exc:
            self.error(str(exc))
        except Exception as exc:  # never crash on input
            # The peer gets the error line; the traceback is for a developer (-vv), because a
            # traceback on the engine's stderr reads as a crash to the program that runs it.
            logger.debug("command %r failed", line, exc_info=True)
            self.error(f"{command}: {exc}")
        return self.running

    @property
    def searching(self) -> bool:
        """Whether a ``go`` is running."""
        return self._worker is not None and self._worker.is_alive()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a running search to end (for tests and ``quit``)."""
        worker = self._worker
        if worker is not None:
            worker.join(timeout)

    # -- commands ---------------------------------------------------------------------------

    def _cmd_uci(self, args: list[str]) -> None:
        self.send(f"id name {ENGINE_NAME}")
        self.send(f"id author {ENGINE_AUTHOR}")
        o = self.options
        self.send(f"option name Level type spin default {o.level} min {MIN_LEVEL} max {MAX_LEVEL}")
        self.send(
            f"option name SkillLevel type spin default {o.level} min {MIN_LEVEL} max {MAX_LEVEL}"
        )
        self.send(
            f"option name MoveTime type spin default {int(o.movetime * 1000)} min 0 max 600000"
        )
        self.send("option name Flying type check default true")
        self.send("option name RemoveFromMills type check default false")
        self.send("option name DoubleMillRemovesTwo type check default false")
        self.send("option name Threads type spin default 1 min 1 max 1")
        self.send(f"option name Seed type spin default {o.seed} min 0 max 2147483647")
        choices = " ".join(f"var {name}" for name in VARIANT_NAMES)
        self.send(f"option name Variant type combo default {STANDARD.name} {choices}")
        self.send("uciok")

    def _cmd_isready(self, args: list[str]) -> None:
        self.send("readyok")

    def _cmd_ucinewgame(self, args: list[str]) -> None:
        self.board = self._new_board()
        self.pending = None

    def _cmd_debug(self, args: list[str]) -> None:
        pass

    def _cmd_d(self, args: list[str]) -> None:
        for row in str(self.board).splitlines():
            self.send(f"info string {row}")
        self.send(f"info string position {self.board.position()}")
        if self.pending is not None:
            self.send(f"info string pending removal after {self.pending}")

    def _cmd_setoption(self, args: list[str]) -> None:
        if not args or args[0].lower() != "name":
            raise ProtocolError("setoption needs 'name N [value V]'")
        rest = args[1:]
        if "value" in [a.lower() for a in rest]:
            i = [a.lower() for a in rest].index("value")
            name, value = " ".join(rest[:i]), " ".join(rest[i + 1 :])
        else:
            name, value = " ".join(rest), ""
        key = name.lower().replace(" ", "")
        o = self.options
        try:
            if key in ("level", "skilllevel"):
                level = _parse_int(value, name)
                if level not in LEVELS:
                    raise ProtocolError(f"Level must be {MIN_LEVEL}..{MAX_LEVEL}, not {value!r}")
                o.level = level
            elif key == "movetime":
                ms = _parse_int(value, name)
                if not 0 <= ms <= MAX_MILLISECONDS:
                    raise ProtocolError(f"MoveTime must be 0..{MAX_MILLISECONDS}, not {value!r}")
                o.movetime = ms / 1000
            elif key in _SETTING_OPTIONS:
                # The game so far is replayed under the new setting; the option and the game
                # stay as they were if it cannot be.
                changed = replace(o)
                setattr(changed, _SETTING_OPTIONS[key], _parse_bool(value))
                self.board = self._rebuild(self.board, changed)
                self.options = changed
                self._say_tables()
            elif key == "threads":
                if _parse_int(value, name) != 1:
                    raise ProtocolError(f"only Threads 1 is supported, not {value!r}")
            elif key == "seed":
                seed = _parse_int(value, name)
                if not 0 <= seed <= MAX_SEED:
                    raise ProtocolError(f"Seed must be 0..{MAX_SEED}, not {value!r}")
                o.seed = seed
            elif key == "variant":
                try:
                    cls = find_variant(value)
                except ValueError as exc:
                    raise ProtocolError(f"option {name!r}: {exc}") from None
                o.variant = cls.variant.name
                self.board = self._new_board()
                self.pending = None
                self._say_tables()
            else:
                raise ProtocolError(f"no such option {name!r}")
        except ValueError as exc:
            if isinstance(exc, ProtocolError):
                raise
            raise ProtocolError(f"option {name!r}: bad value {value!r}") from None

    def _new_board(self, position: str | None = None, options: Options | None = None) -> Board:
        o = self.options if options is None else options
        cls = find_variant(o.variant)
        return cls(
            position,
            flying=o.flying,
            remove_from_mills=o.remove_from_mills,
            double_mill_removes_two=o.double_mill_removes_two,
        )

    def _rebuild(self, board: Board, options: Options) -> Board:
        """The game so far under ``options``; :class:`ProtocolError` if a turn of it is not
        legal under them (a removal from a mill, say)."""
        new = self._new_board(self._root_position(board), options)
        for move in board.move_stack:
            reason = new.illegal_reason(move)
            if reason is not None:
                raise ProtocolError(
                    f"the game so far cannot be played with this setting: {move}: {reason} "
                    f"(send ucinewgame or a new position first)"
                )
            new.push(move)
        return new

    @staticmethod
    def _root_position(board: Board) -> str | None:
        """The position the game of ``board`` started from (None: the empty board)."""
        root = board.copy()
        while root.move_stack:
            root.pop()
        return None if root.position() == type(root)().position() else root.position()

    def _say_tables(self) -> None:
        """Tell the peer when the endgame tables cannot serve the game now set (and why)."""
        if self._tables is None:
            return
        from morris.engine.tables import table_refusal

        why = table_refusal(self.board.rules)
        if why is not None:
            self.send(f"info string endgame tables not used: {why}")

    def _cmd_position(self, args: list[str]) -> None:
        if not args:
            raise ProtocolError("position needs 'startpos' or 'fen ...'")
        lowered = [a.lower() for a in args]
        moves_at = lowered.index("moves") if "moves" in lowered else len(args)
        if lowered[0] == "startpos":
            if moves_at != 1:
                raise ProtocolError(f"unexpected {' '.join(args[1:moves_at])!r} after startpos")
            board = self._new_board()
        elif lowered[0] == "fen":
            text = " ".join(args[1:moves_at])
            try:
                board = self._new_board(text)
            except InvalidPositionError as exc:
                raise ProtocolError(f"bad position: {exc}") from None
        else:
            raise ProtocolError(f"position needs 'startpos' or 'fen ...', not {args[0]!r}")
        pending = apply_tokens(board, args[moves_at + 1 :])
        self.board, self.pending = board, pending

    def _cmd_go(self, args: list[str]) -> None:
        movetime: float | None = self.options.movetime
        depth: int | None = None
        nodes: int | None = None
        times: dict[str, int] = {}
        searchmoves: list[str] = []
        i = 0
        try:
            while i < len(args):
                word = args[i].lower()
                # Numbers beyond what the search can use mean "as much as you like": cut them.
                if word == "movetime":
                    movetime = min(_parse_int(args[i + 1], "go movetime"), MAX_MILLISECONDS) / 1000
                    i += 2
                elif word == "depth":
                    depth = min(_parse_int(args[i + 1], "go depth"), MAX_DEPTH)
                    movetime = None
                    i += 2
                elif word == "nodes":
                    nodes = min(_parse_int(args[i + 1], "go nodes"), MAX_NODES)
                    movetime = None
                    i += 2
                elif word in ("wtime", "btime", "winc", "binc", "movestogo"):
                    times[word] = min(_parse_int(args[i + 1], f"go {word}"), MAX_MILLISECONDS)
                    i += 2
                elif word == "infinite":
                    depth = MAX_DEPTH
                    movetime = None
                    i += 1
                elif word == "searchmoves":
                    i += 1
                    while i < len(args) and args[i].lower() not in (
                        "movetime", "depth", "nodes", "infinite", "wtime", "btime",
                    ):  # fmt: skip
                        searchmoves.append(args[i])
                        i += 1
                elif word == "ponder":
                    i += 1
                else:
                    raise ProtocolError(f"go: unknown argument {args[i]!r}")
        except IndexError:
            raise ProtocolError(f"go: a number must follow {args[i]!r}") from None
        if (depth is not None and depth < 1) or (nodes is not None and nodes < 1):
            raise ProtocolError("go: depth and nodes must be at least 1")
        if movetime is not None and movetime < 0:
            raise ProtocolError("go: movetime must not be negative")
        if times:
            side = "w" if self.board.turn else "b"
            left = times.get(f"{side}time")
            if left is not None:
                inc = times.get(f"{side}inc", 0)
                togo = max(1, times.get("movestogo", 30))
                movetime = max(0.01, min(left / 1000 * 0.8, left / 1000 / togo + inc / 1000))
        board = self.board
        if board.outcome() is not None:
            outcome = board.outcome()
            assert outcome is not None
            self.send(f"info string game over ({outcome.termination.value}, {outcome.result()})")
            self.send("bestmove (none)")
            return
        allowed: list[Move] | None = None
        if self.pending is not None:
            p = self.pending
            allowed = [
                m
                for m in board.legal_moves
                if (m.from_point, m.to_point) == (p.from_point, p.to_point)
                and (p.remove is None or p.remove in m.removals)
            ]
        if searchmoves:
            wanted = []
            for token in searchmoves:
                try:
                    wanted.append(Move.parse(token))
                except InvalidMoveError:
                    raise ProtocolError(f"go searchmoves: bad move {token!r}") from None
            actions = {(m.from_point, m.to_point) for m in wanted}
            legal = allowed if allowed is not None else list(board.legal_moves)
            allowed = [m for m in legal if m in wanted or (m.from_point, m.to_point) in actions]
            if not allowed:
                raise ProtocolError("go searchmoves: none of the moves is legal")
        engine = self._factory(self.options.level, self.options.seed)
        self._stop.clear()
        worker = threading.Thread(
            target=self._search,
            args=(engine, board.copy(), movetime, depth, nodes, allowed, self.pending),
            name="morris-uci-search",
            daemon=True,
        )
        self._worker = worker
        worker.start()

    def _search(
        self,
        engine: Engine,
        board: Board,
        movetime: float | None,
        depth: int | None,
        nodes: int | None,
        allowed: list[Move] | None,
        pending: Move | None,
    ) -> None:
        start = self._clock()

        def info(i: SearchInfo) -> None:
            # The tokens of the turn already given are not repeated.
            pv = [*_still_due(i.pv[0], pending), *moves_to_tokens(i.pv[1:])] if i.pv else []
            self.send(
                f"info depth {i.depth} score {format_score(i.score)} nodes {i.nodes} "
                f"nps {i.nps} time {int(i.elapsed * 1000)} pv {' '.join(pv)}".rstrip()
            )

        try:
            result = engine.play(
                board,
                movetime=movetime,
                depth=depth,
                nodes=nodes,
                stop=self._stop.is_set,
                info=info,
                searchmoves=allowed,
            )
        except Exception as exc:
            # A bug, not the peer's input (go checks that): the line says it, -vv shows where.
            logger.error("search failed: %s", exc)
            logger.debug("search failed", exc_info=True)
            self.error(f"search failed: {exc}")
            self.send("bestmove (none)")
            return
        logger.debug("search done in %.3f s", self._clock() - start)
        self.send(f"bestmove {_still_due(result.move, pending)[0]}")

    def _cmd_stop(self, args: list[str]) -> None:
        self._stop.set()

    def _cmd_ponderhit(self, args: list[str]) -> None:
        pass

    def _cmd_quit(self, args: list[str]) -> None:
        self._stop.set()
        self.wait()
        self.running = False


def serve(
    input_stream: TextIO, output_stream: TextIO, *, tables: EndgameTables | None = None
) -> None:
    """Run the protocol over two text streams (``morris engine`` uses stdin and stdout)."""

    def write(line: str) -> None:
        output_stream.write(line + "\n")
        output_stream.flush()

    UciServer(write, tables=tables).run(input_stream)


if __name__ == "__main__":  # python -m morris.engine.uci: the protocol without the CLI
    import sys

    serve(sys.stdin, sys.stdout)
