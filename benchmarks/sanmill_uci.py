"""Speak our engine protocol on stdin/stdout and drive the Sanmill console engine behind it.

    python benchmarks/sanmill_uci.py /path/to/sanmill      # or: SANMILL_BIN=/path/to/sanmill
    morris match level:9 "cmd:python benchmarks/sanmill_uci.py /path/to/sanmill" --games 20

Sanmill (github.com/calcitem/Sanmill) is the strongest open-source Mill engine and our yardstick:
a console binary built by its own project's instructions (docs/SANMILL.md says what the adapter
needs of it and how to measure against it). This adapter translates between the two dialects:

Ours (docs/ENGINE.md, "Protocol: `morris engine`"):
    position startpos moves d6 f4 a1-a4 xg7 ; go movetime MS ; bestmove d6 | a1-a4 | xg7
Sanmill's console engine:
    position startpos moves (2,1) (2,3) (3,6)->(3,7) -(3,2) ; go (no arguments) ;
    answer line "info score N bestmove TOKEN" (TOKEN may be "draw"), plus debug chatter. A binary
    that prints "info depth D score V pv TOKEN" (see docs/SANMILL.md) also reports every
    completed iteration; V is from the side to move, one piece = 5.

Sanmill square ``(f,r)``: f = 1 inner ring, 2 middle, 3 outer; r = 1 at the top midpoint, then
clockwise (so d5, d6, d7 are (1,1), (2,1), (3,1) and a1 is (3,6)).

Time: Sanmill's own ``MoveTime`` option is whole seconds (set to 60 here, a safety cap); the adapter
sends ``stop`` itself when the movetime is used up, and Sanmill answers at once with the best move
of its last completed iteration.

Input is read in a thread, so ``stop``, ``isready`` and ``quit`` are answered during a search; other
commands wait until the search has answered. Unknown commands and options get an ``info string``
line.

Environment: SANMILL_BIN (engine path when none is given as an argument), SANMILL_WRAPPER_LOG
(append a timestamped transcript of both conversations to this file).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

logger = logging.getLogger("sanmill_uci")
#: The transcript (``SANMILL_WRAPPER_LOG``): every line in and out, both sides.
transcript = logging.getLogger("sanmill_uci.transcript")

#: Our point names per Sanmill ring f, in Sanmill's rank order r = 1..8.
RINGS: dict[int, tuple[str, ...]] = {
    1: ("d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5"),  # Sanmill squares 8..15
    2: ("d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6"),  # squares 16..23
    3: ("d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7"),  # squares 24..31
}
OURS_TO_SAN: dict[str, str] = {
    name: f"({f},{r})" for f, names in RINGS.items() for r, name in enumerate(names, start=1)
}
SAN_TO_OURS: dict[str, str] = {san: name for name, san in OURS_TO_SAN.items()}

SKILL = "30"
#: Standard Nine Men's Morris as in docs/RULES.md (see docs/SANMILL.md for the correspondence).
#: Every name exists in Sanmill's ucioption.cpp.
RULE_OPTIONS: tuple[tuple[str, str], ...] = (
    ("PiecesCount", "9"),
    ("flyPieceCount", "3"),
    ("PiecesAtLeastCount", "3"),
    ("HasDiagonalLines", "false"),
    ("MillFormationActionInPlacingPhase", "0"),
    ("MayMoveInPlacingPhase", "false"),
    ("IsDefenderMoveFirst", "false"),
    ("MayRemoveMultiple", "false"),
    ("MayRemoveFromMillsAlways", "false"),
    ("RestrictRepeatedMillsFormation", "false"),
    ("OneTimeUseMill", "false"),
    ("BoardFullAction", "0"),
    ("StalemateAction", "0"),
    ("MayFly", "true"),
    # 101, not 100: Sanmill counts slides, not turns, and ends the game at the slide that reaches
    # its rule even when it closes a mill (REPLAY_RULES below). RULES.md counts whole turns: the
    # removal of a mill closed on the 100th turn resets the count. One more keeps the mill turn.
    ("NMoveRule", "101"),
    ("EndgameNMoveRule", "101"),
    ("ThreefoldRepetitionRule", "true"),
)
#: The strongest search without the perfect database.
SEARCH_OPTIONS: tuple[tuple[str, str], ...] = (
    ("Algorithm", "2"),  # MTD(f) alpha-beta (Sanmill's default)
    ("SkillLevel", SKILL),  # depth cap 30 (the maximum); only honoured with DeveloperMode false
    ("DeveloperMode", "false"),
    ("DrawOnHumanExperience", "true"),  # Sanmill's default: shallow fixed depths early in placing
    ("ConsiderMobility", "true"),  # Sanmill's default
    # The engine's built-in default (GameOptions); its UCI table says true but never applies it
    # at start-up.
    ("FocusOnBlockingPaths", "false"),
    ("AiIsLazy", "false"),
    ("Shuffling", "true"),
    ("UsePerfectDatabase", "false"),
    ("MoveTime", "60"),  # seconds; > 0 enables iterative deepening; the adapter stops earlier
)
BASE_OPTIONS = RULE_OPTIONS + SEARCH_OPTIONS
#: Sanmill options a client may change through us: lower-cased name -> Sanmill's spelling.
PASSTHROUGH: dict[str, str] = {n.lower(): n for n, _ in BASE_OPTIONS if n != "MoveTime"}
PASSTHROUGH["hash"] = "Hash"
#: Sanmill's N-move rules as the adapter sets them (a client may change them by name).
N_MOVE_RULES = tuple((n, v) for n, v in RULE_OPTIONS if n in ("NMoveRule", "EndgameNMoveRule"))
#: While Sanmill replays the moves of a position. Sanmill ends the game by its N-move rule at the
#: slide that reaches it, even in the middle of a turn (a slide that closes a mill, before its
#: removal), and silently drops the rest of the move list: it would answer for a position that is
#: not ours. Our match runner has judged every move of the list, so the replay runs without the
#: rule, and the rule is set again for the search.
REPLAY_RULES = (
    ("NMoveRule", "200"),
    ("EndgameNMoveRule", "200"),
)
#: Sanmill's draw rules while it searches on after claiming a draw.
RELAXED_DRAW_RULES = (("ThreefoldRepetitionRule", "false"), *REPLAY_RULES)

MIN_SEARCH_S = 0.02  # never stop Sanmill before it finished its first iteration
STOP_MARGIN_S = 0.015  # send stop this much before the movetime is up (answer latency)
STARTUP_TIMEOUT_S = 20.0  # for Sanmill's uciok and readyok
DEFAULT_MOVETIME_MS = 1000  # our MoveTime option: the budget of a bare "go"
NAME = "Sanmill (calcitem/Sanmill console engine, via sanmill_uci)"

#: Exit code when the Sanmill binary is missing or cannot be started.
EXIT_NO_ENGINE = 2
#: Exit code when Sanmill stops answering at start-up or ends while being set up.
EXIT_ENGINE_FAILED = 1


# -- translation (pure) -------------------------------------------------------------------------


def _square(name: str, token: str) -> str:
    try:
        return OURS_TO_SAN[name]
    except KeyError:
        raise ValueError(f"bad point {name!r} in token {token!r}") from None


def to_sanmill_tokens(tokens: Iterable[str]) -> list[str]:
    """Our move tokens -> Sanmill's: ``d6`` -> ``(2,1)``, ``a1-a4`` -> ``(3,6)->(3,7)``,
    ``xg7`` -> ``-(3,2)``; ``a1-a4xg7`` gives two tokens. Empty tokens are skipped.

    Raises :class:`ValueError` on a bad token.
    """
    result: list[str] = []
    for token in tokens:
        text = token.strip().lower()
        if not text:
            continue
        action, sep, removal = text.partition("x")
        if sep and not removal:
            raise ValueError(f"bad move token {token!r}: nothing after 'x'")
        if action:
            source, dash, target = action.partition("-")
            if dash:
                result.append(f"{_square(source, token)}->{_square(target, token)}")
            else:
                result.append(_square(action, token))
        elif not sep:
            raise ValueError(f"bad move token {token!r}")
        if removal:
            result.append("-" + _square(removal, token))
    return result


def to_ours(token: str) -> str:
    """One Sanmill token -> ours: ``(2,1)`` -> ``d6``, ``(3,6)->(3,7)`` -> ``a1-a4``,
    ``-(3,2)`` -> ``xg7``.

    Raises :class:`ValueError` on anything else (``draw``, ``none``, bad squares).
    """

    def point(square: str) -> str:
        try:
            return SAN_TO_OURS[square.strip()]
        except KeyError:
            raise ValueError(f"bad Sanmill token {token!r}") from None

    if token.startswith("-"):
        return "x" + point(token[1:])
    if "->" in token:
        source, _, target = token.partition("->")
        return f"{point(source)}-{point(target)}"
    return point(token)


#: Our points in the order of the position text's first field (docs/RULES.md, "Position text":
#: the outer square, the middle, the inner, each from its top-left corner clockwise).
POSITION_ORDER = (
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4",
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4",
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4",
)  # fmt: skip


def to_sanmill_fen(position: Sequence[str]) -> str:
    """Our position text (its fields; docs/RULES.md, "Position text") -> Sanmill's FEN: the
    pieces file by file (``O`` white, ``@`` black, ``*`` empty), the side to move, the phase and
    action (placing while a piece is in hand, else moving and selecting), pieces on the board
    and in hand, nothing to remove and no last mills (a position of ours is at a turn's start),
    the no-removal count as Sanmill's rule-50 count, and the turn number.

    Raises :class:`ValueError` on a malformed position (the fields named).
    """
    if len(position) not in (6, 7):
        raise ValueError(f"a position has 6 or 7 fields, not {len(position)}")
    points = position[0].replace("/", "").upper()
    if len(points) != 24 or set(points) - set("WB."):
        raise ValueError(f"bad points field {position[0]!r}")
    if position[1] not in ("w", "b"):
        raise ValueError(f"bad side to move {position[1]!r}")
    try:
        hand_w, hand_b, count, turn = (int(x) for x in position[2:6])
    except ValueError:
        raise ValueError(f"bad numbers in {' '.join(position[2:6])!r}") from None
    on = dict(zip(POSITION_ORDER, points, strict=True))
    files = [
        "".join({"W": "O", "B": "@"}.get(on[name], "*") for name in RINGS[f]) for f in sorted(RINGS)
    ]
    placing = hand_w + hand_b > 0
    phase, action = ("p", "p") if placing else ("m", "s")
    return (
        f"{'/'.join(files)} {position[1]} {phase} {action} "
        f"{points.count('W')} {hand_w} {points.count('B')} {hand_b} "
        f"0 0 0 0 0 0 0 {count} {turn}"
    )


def white_to_move(tokens: Sequence[str]) -> bool:
    """Whether white is to move after our tokens from the start (removal tokens take no turn)."""
    return sum(1 for t in tokens if not t.strip().lower().startswith("x")) % 2 == 0


# -- the engine process ---------------------------------------------------------------------------

#: An event on the main loop's queue: ("in", our input line) or ("eng", a Sanmill output line);
#: None as the line means that side closed its output.
Event = tuple[str, str | None]


def out(line: str) -> None:
    """One line of our protocol on stdout."""
    transcript.debug("OUT %s", line)
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Sanmill:
    """The Sanmill process; its output lines go to the shared event queue as ("eng", line)."""

    def __init__(self, binary: str, events: queue.Queue[Event]) -> None:
        self.events = events
        self.proc = subprocess.Popen(
            [binary],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        threading.Thread(target=self._read, name="sanmill-output", daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            for raw in self.proc.stdout:
                line = raw.rstrip("\r\n")
                transcript.debug("< %s", line)
                self.events.put(("eng", line))
        except (OSError, ValueError):
            pass
        self.events.put(("eng", None))

    def send(self, line: str) -> None:
        transcript.debug("> %s", line)
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError) as exc:
            logger.warning("cannot send %r to Sanmill: %s", line, exc)

    def close(self) -> None:
        self.send("quit")
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            logger.warning("Sanmill did not quit; killing it")
            self.proc.kill()
            self.proc.wait()


@dataclass
class Search:
    """A Sanmill search in progress."""

    ms: float | None  # our budget in milliseconds (None: until stopped or done)
    depth: int | None
    retry: bool  # the second search after Sanmill claimed a draw
    deadline: float | None  # monotonic time to send stop
    start: float
    stopped: bool = False


class Adapter:
    """The main loop: our protocol in, Sanmill behind."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.events: queue.Queue[Event] = queue.Queue()
        self.eng: Sanmill | None = None
        self.position = "position startpos"
        self.white_to_move = True
        self.movetime_ms = DEFAULT_MOVETIME_MS
        self.search: Search | None = None
        self.deferred: list[str] = []  # input lines waiting for the search to end
        self.quitting = False
        #: Sanmill's N-move rules as set (by us or a client), put back after each replay.
        self.n_move_rules = dict(N_MOVE_RULES)

    # -- engine ------------------------------------------------------------------------------

    def engine(self) -> Sanmill:
        """The running Sanmill, started and set up on first use."""
        if self.eng is None:
            try:
                self.eng = Sanmill(self.binary, self.events)
            except OSError as exc:
                out(f"info string error sanmill-uci: cannot start Sanmill {self.binary!r}: {exc}")
                raise SystemExit(EXIT_NO_ENGINE) from None
            self.eng.send("uci")
            self._wait_engine(lambda line: line.strip() == "uciok")
            for name, value in BASE_OPTIONS:
                self.eng.send(f"setoption name {name} value {value}")
            self.eng.send("isready")
            self._wait_engine(lambda line: line.strip() == "readyok")
        return self.eng

    def _wait_engine(self, done: Callable[[str], bool]) -> str:
        end = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            try:
                kind, line = self.events.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                out("info string error sanmill-uci: Sanmill did not answer at start-up")
                raise SystemExit(EXIT_ENGINE_FAILED) from None
            if kind == "in":
                self.deferred.append("quit" if line is None else line)
                continue
            if line is None:
                out("info string error sanmill-uci: Sanmill ended")
                raise SystemExit(EXIT_ENGINE_FAILED)
            if done(line):
                return line

    def _set_options(self, options: Iterable[tuple[str, str]]) -> None:
        eng = self.engine()
        for name, value in options:
            eng.send(f"setoption name {name} value {value}")

    # -- input -------------------------------------------------------------------------------

    def _stdin(self) -> None:
        for raw in sys.stdin:
            self.events.put(("in", raw.rstrip("\r\n")))
        self.events.put(("in", None))

    def run(self) -> None:
        threading.Thread(target=self._stdin, name="sanmill-uci-input", daemon=True).start()
        while not self.quitting:
            if self.deferred and self.search is None:
                self.handle(self.deferred.pop(0))
                continue
            timeout = None
            search = self.search
            if search is not None and not search.stopped and search.deadline is not None:
                timeout = max(0.0, search.deadline - time.monotonic())
            try:
                kind, line = self.events.get(timeout=timeout)
            except queue.Empty:
                self.stop_search()
                continue
            if kind == "in":
                self.input_line("quit" if line is None else line)
            elif line is None:
                self.engine_ended()
            elif self.search is not None:
                self.engine_line(line)
        if self.eng is not None:
            self.eng.close()

    def input_line(self, line: str) -> None:
        transcript.debug("IN %s", line)
        if self.search is None:
            self.handle(line)
            return
        words = line.split()
        word = words[0].lower() if words else ""
        if word == "stop":
            self.stop_search()
        elif word == "isready":
            out("readyok")
        elif word == "quit":
            self.stop_search()
            self.quitting = True
        elif word:
            self.deferred.append(line)

    def engine_ended(self) -> None:
        logger.error("Sanmill ended")
        out("info string error sanmill-uci: Sanmill ended")
        if self.search is not None:
            out("bestmove (none)")
        self.eng = None
        self.search = None

    def handle(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        cmd = words[0].lower()
        if cmd == "uci":
            self.engine()
            out(f"id name {NAME}")
            out("id author the Sanmill developers")
            out(f"option name MoveTime type spin default {DEFAULT_MOVETIME_MS} min 0 max 600000")
            out("option name Flying type check default true")
            out(f"option name SkillLevel type spin default {SKILL} min 0 max 30")
            out("uciok")
        elif cmd == "isready":
            self.engine()
            out("readyok")
        elif cmd == "setoption":
            self.setoption(words)
        elif cmd == "ucinewgame":
            self.engine().send("ucinewgame")
        elif cmd == "position":
            self.set_position(words)
        elif cmd == "go":
            self.go(words)
        elif cmd == "stop":
            pass  # no search running
        elif cmd == "quit":
            self.quitting = True
        elif cmd == "d":
            out(f"info string sanmill-uci: {self.position}")
        else:
            out(f"info string error unknown command {words[0]!r}")

    def setoption(self, words: Sequence[str]) -> None:
        low = [w.lower() for w in words]
        if "name" not in low:
            out("info string error setoption without name")
            return
        i = low.index("name")
        j = low.index("value") if "value" in low else len(words)
        name = " ".join(words[i + 1 : j])
        value = " ".join(words[j + 1 :])
        key = name.lower()
        if key == "flying":
            self._set_options([("MayFly", value.lower())])
        elif key == "movetime":
            try:
                self.movetime_ms = int(value)
            except ValueError:
                out(f"info string error bad MoveTime {value!r}")
        elif key in PASSTHROUGH:
            self._set_options([(PASSTHROUGH[key], value)])
            if PASSTHROUGH[key] in self.n_move_rules:
                self.n_move_rules[PASSTHROUGH[key]] = value
        elif key == "variant" and value.lower() != "standard":
            out(f"info string error sanmill-uci: variant {value!r} not supported")
        else:
            out(f"info string sanmill-uci: option {name!r} ignored")

    def set_position(self, words: Sequence[str]) -> None:
        rest = list(words[1:])
        low = [w.lower() for w in rest]
        if not rest or low[0] not in ("startpos", "fen"):
            out(
                "info string error sanmill-uci: only 'position startpos|fen TEXT [moves ...]' "
                "is supported"
            )
            return
        end = low.index("moves") if "moves" in low else len(rest)
        moves = rest[end + 1 :]
        start, white_first = "startpos", True
        try:
            if low[0] == "fen":
                start = "fen " + to_sanmill_fen(rest[1:end])
                white_first = rest[2] == "w"
            tokens = to_sanmill_tokens(moves)
        except ValueError as exc:
            out(f"info string error sanmill-uci: bad position {' '.join(rest)!r} ({exc})")
            return
        self.position = f"position {start}" + (" moves " + " ".join(tokens) if tokens else "")
        self.white_to_move = white_to_move(moves) == white_first

    # -- search ------------------------------------------------------------------------------

    def go(self, words: Sequence[str]) -> None:
        low = [w.lower() for w in words]

        def arg(name: str) -> int | None:
            if name not in low:
                return None
            try:
                return int(low[low.index(name) + 1])
            except (IndexError, ValueError):
                return None

        ms: float | None = arg("movetime")
        depth = arg("depth")
        if ms is None and (arg("wtime") is not None or arg("btime") is not None):
            left = arg("wtime" if self.white_to_move else "btime") or 0
            inc = arg("winc" if self.white_to_move else "binc") or 0
            ms = max(50, left // 30 + inc)
        if ms is None and depth is None and "infinite" not in low:
            ms = self.movetime_ms
        self.start_search(ms, depth, retry=False)

    def start_search(self, ms: float | None, depth: int | None, *, retry: bool) -> None:
        eng = self.engine()
        if depth is not None:
            eng.send(f"setoption name SkillLevel value {max(1, min(30, depth))}")
        self._set_options(REPLAY_RULES)
        eng.send(self.position)
        if not retry:  # a search on after a draw claim keeps the rules relaxed
            self._set_options(self.n_move_rules.items())
        eng.send("go")
        now = time.monotonic()
        deadline = None
        if ms is not None:
            deadline = now + max(MIN_SEARCH_S, ms / 1000.0 - STOP_MARGIN_S)
        self.search = Search(ms=ms, depth=depth, retry=retry, deadline=deadline, start=now)

    def stop_search(self) -> None:
        if self.search is not None and not self.search.stopped:
            self.search.stopped = True
            if self.eng is not None:
                self.eng.send("stop")

    def engine_line(self, line: str) -> None:
        search = self.search
        assert search is not None
        words = line.split()
        if words[:1] == ["info"] and "depth" in words and "bestmove" not in words:
            self.report_iteration(words, search)
            return
        if "bestmove" not in words:
            return  # Sanmill's debug chatter
        i = words.index("bestmove")
        token = words[i + 1] if i + 1 < len(words) else "(none)"
        self.search = None
        eng = self.engine()
        if search.depth is not None:
            eng.send(f"setoption name SkillLevel value {SKILL}")
        if token == "draw" and not search.retry:
            # Sanmill claims a draw (threefold repetition / N-move rule) instead of moving. Our
            # match runner adjudicates draws itself, so it asks only when by our rules the game
            # goes on: ask again with Sanmill's draw rules relaxed.
            logger.info("Sanmill claims a draw in %s; searching on", self.position)
            out("info string sanmill-uci: Sanmill claims a draw; searching on without draw rules")
            self._set_options(RELAXED_DRAW_RULES)
            ms = search.ms
            if ms is not None:
                ms = max(MIN_SEARCH_S * 1000, ms - (time.monotonic() - search.start) * 1000)
            self.start_search(ms, search.depth, retry=True)
            return
        if search.retry:
            self._set_options([("ThreefoldRepetitionRule", "true"), *self.n_move_rules.items()])
        try:
            ours = to_ours(token)
        except ValueError:
            logger.error("Sanmill answered %r in %s", token, self.position)
            out(f"info string error sanmill-uci: Sanmill answered {token!r}")
            ours = "(none)"
        out(f"bestmove {ours}")

    def report_iteration(self, words: Sequence[str], search: Search) -> None:
        """Sanmill's "info depth D score V pv TOKEN" as our info line (score in centi-pieces)."""
        try:
            depth = int(words[words.index("depth") + 1])
            value = int(words[words.index("score") + 1])
            pv = to_ours(words[words.index("pv") + 1]) if "pv" in words else ""
        except (IndexError, ValueError):
            return
        elapsed = int((time.monotonic() - search.start) * 1000)
        line = f"info depth {depth} score cp {value * 20} time {elapsed}"
        out(line + (f" pv {pv}" if pv else ""))


# -- command line ---------------------------------------------------------------------------------


def find_binary(given: str | None) -> str | None:
    """The Sanmill binary: the argument, else SANMILL_BIN; a bare name is looked up on PATH.

    None if there is none or it is not an executable file.
    """
    path = given or os.environ.get("SANMILL_BIN")
    if not path:
        return None
    if os.sep not in path:
        path = shutil.which(path) or path
    if os.path.isfile(path) and os.access(path, os.X_OK):
        return os.path.abspath(path)
    return None


def _set_up_logging(log_file: str | None, verbose: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.WARNING,
        stream=sys.stderr,
        format="sanmill_uci %(levelname)s %(message)s",
    )
    transcript.propagate = False
    if log_file:
        handler = logging.FileHandler(log_file)
        handler.setFormatter(logging.Formatter("%(created).3f %(message)s"))
        transcript.addHandler(handler)
        transcript.setLevel(logging.DEBUG)
    else:
        transcript.addHandler(logging.NullHandler())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Drive the Sanmill console engine through our engine protocol "
        "(docs/ENGINE.md, docs/SANMILL.md)."
    )
    parser.add_argument(
        "sanmill", nargs="?", help="path of the Sanmill console engine (default: $SANMILL_BIN)"
    )
    parser.add_argument(
        "--log",
        default=os.environ.get("SANMILL_WRAPPER_LOG"),
        help="append a transcript of both conversations here (default: $SANMILL_WRAPPER_LOG)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="diagnostics on stderr")
    args = parser.parse_args(argv)
    _set_up_logging(args.log, args.verbose)

    binary = find_binary(args.sanmill)
    if binary is None:
        given = args.sanmill or os.environ.get("SANMILL_BIN")
        reason = (
            f"Sanmill binary {given!r} not found or not executable"
            if given
            else "no Sanmill binary given (argument or SANMILL_BIN)"
        )
        logger.error(reason)
        out(f"info string error sanmill-uci: {reason}")
        return EXIT_NO_ENGINE
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
        Adapter(binary).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
