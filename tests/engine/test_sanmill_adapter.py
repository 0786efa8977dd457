"""The Sanmill adapter (benchmarks/sanmill_uci.py): its square translation, and whole conversations
through it with our real client against a fake Sanmill that speaks Sanmill's console dialect.

The fake is a small Python script written into tmp_path: ``uci`` -> ``uciok``, ``isready`` ->
``readyok``, ``setoption`` and ``position`` recorded to a file, ``go`` -> some chatter, then
``info score 3 bestmove TOKEN``. It replays the recorded move list to see whether the last action
closed a mill (then it answers a removal at once, as Sanmill's shallow removal search does);
otherwise it answers from a table and waits for ``stop``, so every search lasts until the adapter's
own movetime stop (or the test's ``stop``). No test sleeps; every wait has a deadline.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from morris import Board
from morris.core.moves import Move
from morris.core.points import LINKS, MILLS, parse_point
from morris.engine.client import UciEngine
from morris.engine.errors import ExternalEngineError

ROOT = Path(__file__).resolve().parents[2]
ADAPTER = ROOT / "benchmarks" / "sanmill_uci.py"
sys.path.insert(0, str(ADAPTER.parent))

import sanmill_uci  # noqa: E402
from sanmill_uci import OURS_TO_SAN, SAN_TO_OURS, to_ours, to_sanmill_tokens  # noqa: E402

#: Needs real time: the adapter and its fake engines as real subprocesses.
pytestmark = pytest.mark.realtime

WAIT = 30.0  # seconds: a generous deadline for any single answer

OPENING = "d6 f4 d5 b4"  # white's d7 closes the mill d5-d6-d7
# A game into the moving phase, with a removal on the way; white to move, a1-a4 is legal.
MOVING = "d6 f4 d5 b4 d7xf4 b2 e5 g7 f4 d2 f6 c5 a1 d3 e4 e3 g1 g4"
MOVING_SANMILL = (
    "(2,1) (2,3) (1,1) (2,7) (3,1) -(2,3) (2,6) (1,2) (3,2) (2,3) (2,5) (2,2) (1,8) (3,6) (1,5) "
    "(1,3) (1,4) (3,4) (3,3)"
)

FAKE_SANMILL = """
import sys
from pathlib import Path

RECORD = Path(__file__).with_name("received.txt")
ANSWERS = json.loads(ANSWERS_JSON)          # Sanmill move list -> answer; default (3,6) = a1
DRAW_CLAIMS = json.loads(DRAW_CLAIMS_JSON)  # move lists where it claims a draw while it may


def say(line):
    sys.stdout.write(line + "\\n")
    sys.stdout.flush()


def record(line):
    with RECORD.open("a") as fh:
        fh.write(line + "\\n")


def square(token):
    f, r = token.strip("()").split(",")
    return int(f), int(r)


def wrap(r):
    return (r - 1) % 8 + 1


def lines_through(f, r):
    if r % 2:  # a midpoint: its side of the ring and its spoke
        return [[(f, wrap(r - 1)), (f, r), (f, wrap(r + 1))], [(1, r), (2, r), (3, r)]]
    before = [(f, wrap(r - 2)), (f, wrap(r - 1)), (f, r)]
    return [before, [(f, r), (f, wrap(r + 1)), (f, wrap(r + 2))]]  # a corner: two sides


def replay(moves):
    board, side, pending = {}, "w", False
    for token in moves:
        if token.startswith("-"):
            del board[square(token[1:])]
            pending, side = False, "b" if side == "w" else "w"
            continue
        if "->" in token:
            source, target = token.split("->")
            del board[square(source)]
            to = square(target)
        else:
            to = square(token)
        board[to] = side
        if any(all(board.get(p) == side for p in line) for line in lines_through(*to)):
            pending = True
        else:
            side = "b" if side == "w" else "w"
    return board, side, pending


options = {}
moves = []
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        say("Sanmill fake by the tests")
        say("id name Sanmill fake")
        say("option name MoveTime type spin default 1 min 0 max 60")
        say("uciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "setoption":
        record(line.strip())
        if "value" in words:
            options[words[2]] = words[words.index("value") + 1]
    elif words[0] == "position":
        record(line.strip())
        moves = words[words.index("moves") + 1:] if "moves" in words else []
        # Like Sanmill: the slide that reaches the N-move rule ends the game, even one that
        # closes a mill, and the rest of the list (its removal too) is dropped.
        limit, slides = int(options.get("NMoveRule", "101")), 0
        for i, token in enumerate(moves):
            slides = slides + 1 if "->" in token else 0
            if slides >= limit:
                moves = moves[:i + 1]
                break
    elif words[0] == "go":
        record("go")
        say("IDS: ")
        board, side, pending = replay(moves)
        if pending:
            theirs = sorted(sq for sq, colour in board.items() if colour != side)
            say("info score 7 bestmove -(%d,%d)" % theirs[0])
            continue
        key = " ".join(moves)
        if key in DRAW_CLAIMS and options.get("ThreefoldRepetitionRule") == "true":
            say("Draw")
            say("info score -1 bestmove draw")
            continue
        answer = ANSWERS.get(key, "(3,6)")
        say("info depth 1 score 2 pv " + answer)
        for waiting in sys.stdin:  # a long search: until stop
            if waiting.split()[:1] == ["stop"]:
                break
        say("Algorithm bestMove = " + answer)
        say("info score 3 bestmove " + answer)
    elif words[0] == "quit":
        break
"""


def write_fake(
    tmp_path: Path, answers: dict[str, str] | None = None, draw_claims: list[str] | None = None
) -> Path:
    """The fake Sanmill as an executable file; it records what it gets in received.txt."""
    script = tmp_path / "fake_sanmill"
    body = FAKE_SANMILL.replace("ANSWERS_JSON", repr(json.dumps(answers or {}))).replace(
        "DRAW_CLAIMS_JSON", repr(json.dumps(draw_claims or []))
    )
    script.write_text(f"#!{sys.executable}\nimport json\n" + textwrap.dedent(body))
    script.chmod(0o755)
    return script


def received(fake: Path, prefix: str) -> list[str]:
    """The lines starting with ``prefix`` the fake Sanmill got, in order."""
    lines = fake.with_name("received.txt").read_text().splitlines()
    return [line for line in lines if line.startswith(prefix)]


def board_after(moves: str) -> Board:
    board = Board()
    for text in moves.split():
        board.push_notation(text)
    return board


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Callable[[Path], UciEngine]]:
    """Start the adapter on a fake Sanmill through our real client; closed after the test."""
    engines: list[UciEngine] = []

    def start(fake: Path) -> UciEngine:
        engine = UciEngine.spawn([sys.executable, str(ADAPTER), str(fake)], timeout=WAIT)
        engines.append(engine)
        return engine

    yield start
    for engine in engines:
        engine.close()


# -- translation --------------------------------------------------------------------------------


def test_the_square_mapping_covers_the_24_points_and_round_trips() -> None:
    assert len(OURS_TO_SAN) == len(SAN_TO_OURS) == 24
    for name, san in OURS_TO_SAN.items():
        parse_point(name)  # one of our points
        assert SAN_TO_OURS[san] == name
        assert to_ours(san) == name
        assert to_sanmill_tokens([name]) == [san]
    assert {(f, r) for f in (1, 2, 3) for r in range(1, 9)} == {
        tuple(int(n) for n in san.strip("()").split(",")) for san in SAN_TO_OURS
    }


def test_the_square_mapping_follows_the_board_geometry() -> None:
    # The spokes run inner to outer at odd r (r = 1 is the top midpoint); a1 is the outer ring's
    # bottom-left corner, sixth clockwise from d7.
    assert [OURS_TO_SAN[n] for n in ("d5", "d6", "d7")] == ["(1,1)", "(2,1)", "(3,1)"]
    assert [OURS_TO_SAN[n] for n in ("g4", "d1", "a4")] == ["(3,3)", "(3,5)", "(3,7)"]
    assert OURS_TO_SAN["a1"] == "(3,6)"
    assert OURS_TO_SAN["g7"] == "(3,2)"
    assert OURS_TO_SAN["c5"] == "(1,8)"

    def point(f: int, r: int) -> int:
        return parse_point(SAN_TO_OURS[f"({f},{r})"])

    # Sanmill's links: around each ring, and along the spokes at odd r. They are exactly ours.
    ring = {frozenset((point(f, r), point(f, r % 8 + 1))) for f in (1, 2, 3) for r in range(1, 9)}
    spokes = {frozenset((point(f, r), point(f + 1, r))) for f in (1, 2) for r in (1, 3, 5, 7)}
    assert ring | spokes == {frozenset(link) for link in LINKS}
    # Sanmill's mills: three on a side of a ring (corner, midpoint, corner), and the spokes.
    sides = {
        frozenset((point(f, r - 1 if r > 1 else 8), point(f, r), point(f, r + 1)))
        for f in (1, 2, 3)
        for r in (1, 3, 5, 7)
    }
    spoke_mills = {frozenset(point(f, r) for f in (1, 2, 3)) for r in (1, 3, 5, 7)}
    assert sides | spoke_mills == {frozenset(mill) for mill in MILLS}


@pytest.mark.parametrize(
    ("ours", "sanmill"),
    [
        (["d6"], ["(2,1)"]),
        (["a1-a4"], ["(3,6)->(3,7)"]),
        (["xg7"], ["-(3,2)"]),
        (["a1-a4xg7"], ["(3,6)->(3,7)", "-(3,2)"]),
        (["d7xf4"], ["(3,1)", "-(2,3)"]),
        (["D6", " a1-a4 ", "", "XG7"], ["(2,1)", "(3,6)->(3,7)", "-(3,2)"]),
    ],
)
def test_our_tokens_translate_to_sanmill_and_back(ours: list[str], sanmill: list[str]) -> None:
    assert to_sanmill_tokens(ours) == sanmill
    back = [to_ours(token) for token in sanmill]
    assert "".join(back) == "".join(t.strip().lower() for t in ours)


@pytest.mark.parametrize("token", ["h8", "d4", "a1-", "-a4", "a1-h8", "a1-a4-a7", "x", "d6x", "xx"])
def test_bad_tokens_of_ours_raise(token: str) -> None:
    with pytest.raises(ValueError):
        to_sanmill_tokens([token])


@pytest.mark.parametrize("token", ["draw", "(none)", "(4,1)", "(1,9)", "-(0,1)", "(1,1)->", "a1"])
def test_bad_sanmill_tokens_raise(token: str) -> None:
    with pytest.raises(ValueError):
        to_ours(token)


def test_side_to_move_counts_turns_not_removal_tokens() -> None:
    assert sanmill_uci.white_to_move([])
    assert not sanmill_uci.white_to_move(["d6"])
    assert not sanmill_uci.white_to_move(["d6", "f4", "d5", "b4", "d7", "xf4"])
    assert not sanmill_uci.white_to_move(["d6", "f4", "d5", "b4", "d7xf4"])
    assert sanmill_uci.white_to_move(["d6", "f4", "d5", "b4", "d7", "xf4", "b2"])


def test_the_position_order_is_the_core_s() -> None:
    from morris.core.points import POINT_NAMES

    assert sanmill_uci.POSITION_ORDER == POINT_NAMES


def position(text: str) -> list[str]:
    """A position text's fields, as the adapter gets them from a ``position fen`` line."""
    return text.split()


def test_a_position_becomes_sanmill_s_fen_file_by_file() -> None:
    # White on a7 d7 g1 (outer) and b6 (middle); black on c5 d5 e4 c3 (inner); moving phase.
    fen = sanmill_uci.to_sanmill_fen(position("WW..W.../W......./BB.B..B. w 0 0 5 24 -"))
    # Sanmill's files: 1 inner (d5 e5 e4 e3 d3 c3 c4 c5), 2 middle (d6 ... b6), 3 outer (d7 ...).
    assert fen == "@*@**@*@/*******O/O**O***O w m s 4 0 4 0 0 0 0 0 0 0 0 5 24"
    placing = sanmill_uci.to_sanmill_fen(position(".W....../.W.....B/.W...... b 6 7 0 3 -"))
    assert placing.split()[1:8] == ["b", "p", "p", "3", "6", "1", "7"]


@pytest.mark.parametrize(
    "text",
    [
        "WW..W.../W......./BB.B..B.",  # fields missing
        "WW..W.../W......./BB.B..B w 0 0 5 24 -",  # 23 points
        "WW..W.../W......./BB.B..X. w 0 0 5 24 -",  # not a piece
        "WW..W.../W......./BB.B..B. W 0 0 5 24 -",  # side in upper case
        "WW..W.../W......./BB.B..B. w 0 x 5 24 -",  # not a number
    ],
)
def test_a_malformed_position_is_refused_with_the_field_named(text: str) -> None:
    with pytest.raises(ValueError, match=r"field|points|side|numbers"):
        sanmill_uci.to_sanmill_fen(position(text))


# -- conversations through the adapter ------------------------------------------------------------


def test_a_placement_from_the_start(tmp_path: Path, spawn: Callable[[Path], UciEngine]) -> None:
    fake = write_fake(tmp_path)
    engine = spawn(fake)
    assert engine.name.startswith("Sanmill")
    result = engine.play(Board(), movetime=0.2)
    assert result.move == Move.parse("a1")
    assert received(fake, "position") == ["position startpos"]
    # The adapter set Sanmill up for our rules.
    setoptions = received(fake, "setoption")
    assert "setoption name NMoveRule value 101" in setoptions
    assert "setoption name ThreefoldRepetitionRule value true" in setoptions
    assert "setoption name HasDiagonalLines value false" in setoptions


def test_a_position_of_ours_reaches_sanmill_as_its_fen_and_black_answers(
    tmp_path: Path, spawn: Callable[[Path], UciEngine]
) -> None:
    fake = write_fake(tmp_path, answers={"": "(1,3)->(1,4)"})
    engine = spawn(fake)
    board = Board("WW..W.../W......./BB.B.... b 0 0 5 24 -")
    result = engine.play(board, movetime=0.2)
    assert result.move == Move.parse("e4-e3")  # the fake's answer, a slide of black's
    assert received(fake, "position") == [
        "position fen @*@****@/*******O/O**O***O b m s 4 0 3 0 0 0 0 0 0 0 0 5 24"
    ]


def test_a_mill_turn_joins_the_removal_that_comes_as_a_second_answer(
    tmp_path: Path, spawn: Callable[[Path], UciEngine]
) -> None:
    fake = write_fake(tmp_path, answers={"(2,1) (2,3) (1,1) (2,7)": "(3,1)"})
    engine = spawn(fake)
    board = board_after(OPENING)
    result = engine.play(board, movetime=0.2)
    assert result.move == Move.parse("d7xf4")
    assert board.is_legal(result.move)
    assert received(fake, "position") == [
        "position startpos moves (2,1) (2,3) (1,1) (2,7)",
        "position startpos moves (2,1) (2,3) (1,1) (2,7) (3,1)",
    ]


def test_a_slide_after_a_game_with_a_removal(
    tmp_path: Path, spawn: Callable[[Path], UciEngine]
) -> None:
    fake = write_fake(tmp_path, answers={MOVING_SANMILL: "(3,6)->(3,7)"})
    engine = spawn(fake)
    board = board_after(MOVING)
    result = engine.play(board, movetime=0.2)
    assert result.move == Move.parse("a1-a4")
    assert board.is_legal(result.move)
    assert received(fake, "position") == [f"position startpos moves {MOVING_SANMILL}"]


def test_a_draw_claim_is_searched_again_without_sanmills_draw_rules(
    tmp_path: Path, spawn: Callable[[Path], UciEngine]
) -> None:
    fake = write_fake(tmp_path, answers={"(2,1)": "(2,3)"}, draw_claims=["(2,1)"])
    engine = spawn(fake)
    result = engine.play(board_after("d6"), movetime=0.2)
    assert result.move == Move.parse("f4")
    engine.close()  # the fake has read everything the adapter sent once both have quit
    assert received(fake, "position") == ["position startpos moves (2,1)"] * 2
    lines = fake.with_name("received.txt").read_text().splitlines()
    first, second = (i for i, line in enumerate(lines) if line.startswith("position"))
    assert "setoption name ThreefoldRepetitionRule value false" in lines[first:second]
    assert "setoption name NMoveRule value 200" in lines[first:second]
    # ... and put back once Sanmill has moved.
    assert lines[second + 1 :] == [
        "go",
        "setoption name ThreefoldRepetitionRule value true",
        "setoption name NMoveRule value 101",
        "setoption name EndgameNMoveRule value 101",
    ]


def test_a_position_is_replayed_whole_past_sanmills_n_move_rule(
    tmp_path: Path, spawn: Callable[[Path], UciEngine]
) -> None:
    # Sanmill's N-move rule would end its replay at the slide that reaches it (here, with the rule
    # set to 1, the first slide), and it would answer for the position before the rest.
    moves = f"{MOVING} a1-a4 d2-d1"
    fake = write_fake(
        tmp_path, answers={f"{MOVING_SANMILL} (3,6)->(3,7) (2,5)->(3,5)": "(3,7)->(3,6)"}
    )
    engine = spawn(fake)
    engine.configure(NMoveRule=1)
    board = board_after(moves)
    result = engine.play(board, movetime=0.2)
    assert result.move == Move.parse("a4-a1")
    engine.close()
    lines = fake.with_name("received.txt").read_text().splitlines()
    at = lines.index(f"position startpos moves {MOVING_SANMILL} (3,6)->(3,7) (2,5)->(3,5)")
    # The rule is set again, as the client asked, for Sanmill's own search.
    assert lines[at + 1 : at + 4] == [
        "setoption name NMoveRule value 1",
        "setoption name EndgameNMoveRule value 101",
        "go",
    ]


def test_sanmill_bin_is_the_fallback_for_the_path(
    tmp_path: Path, spawn: Callable[[Path], UciEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = write_fake(tmp_path)
    log = tmp_path / "transcript.log"
    monkeypatch.setenv("SANMILL_BIN", str(fake))
    monkeypatch.setenv("SANMILL_WRAPPER_LOG", str(log))
    with UciEngine.spawn([sys.executable, str(ADAPTER)], timeout=WAIT) as engine:
        assert engine.play(Board(), movetime=0.1).move == Move.parse("a1")
    transcript = log.read_text()
    assert "> position startpos" in transcript
    assert "< info score 3 bestmove (3,6)" in transcript
    assert "OUT bestmove a1" in transcript


class Session:
    """The adapter as a raw subprocess, for what the client does not do (go infinite, stop)."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(ADAPTER), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            env=env,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, done: Callable[[str], bool]) -> list[str]:
        """Lines up to and including the first one ``done`` accepts."""
        deadline = time.monotonic() + WAIT
        seen: list[str] = []
        while True:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            assert line is not None, f"the adapter ended; it said {seen}"
            seen.append(line)
            if done(line):
                return seen

    def close(self) -> int:
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                self.send("quit")
        try:
            return self.proc.wait(timeout=WAIT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def test_stop_and_isready_are_answered_during_a_long_search(tmp_path: Path) -> None:
    fake = write_fake(tmp_path)
    session = Session(str(fake))
    try:
        session.send("uci")
        session.until(lambda line: line == "uciok")
        session.send("position startpos moves d6")
        session.send("go infinite")  # the fake searches until it is stopped
        session.send("isready")
        before = session.until(lambda line: line == "readyok")
        assert not any(line.startswith("bestmove") for line in before)
        session.send("d")  # not answered during a search: it waits for the bestmove
        session.send("stop")
        after = session.until(lambda line: line.startswith("info string sanmill-uci: position"))
        assert after[-2:] == [
            "bestmove a1",
            "info string sanmill-uci: position startpos moves (2,1)",
        ]
        assert any(line.startswith("info depth 1 score cp 40") for line in before + after)
        assert received(fake, "position") == ["position startpos moves (2,1)"]
    finally:
        assert session.close() == 0


def _run_adapter(args: list[str], sanmill_bin: str | None) -> subprocess.CompletedProcess[str]:
    """The adapter run once with ``uci`` as its input, ``SANMILL_BIN`` set or not."""
    env = {k: v for k, v in os.environ.items() if k != "SANMILL_BIN"}
    if sanmill_bin is not None:
        env["SANMILL_BIN"] = sanmill_bin
    return subprocess.run(
        [sys.executable, str(ADAPTER), *args],
        input="uci\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=WAIT,
        check=False,
    )


@pytest.mark.parametrize("where", ["argument", "environment"])
def test_a_missing_binary_is_an_error_line_and_exit_code_2(tmp_path: Path, where: str) -> None:
    missing = str(tmp_path / "no-sanmill-here")
    if where == "environment":
        result = _run_adapter([], sanmill_bin=missing)
    else:
        result = _run_adapter([missing], sanmill_bin=None)
    assert result.returncode == 2
    assert result.stdout.startswith("info string error sanmill-uci: Sanmill binary")
    assert "no-sanmill-here" in result.stdout


def test_no_binary_at_all_is_an_error_too() -> None:
    result = _run_adapter([], sanmill_bin=None)
    assert result.returncode == 2
    assert result.stdout.startswith("info string error sanmill-uci: no Sanmill binary")


def test_the_client_sees_a_missing_binary_as_an_engine_error(tmp_path: Path) -> None:
    with pytest.raises(ExternalEngineError):
        UciEngine.spawn([sys.executable, str(ADAPTER), str(tmp_path / "nothing")], timeout=WAIT)
