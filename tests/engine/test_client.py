"""The external-engine client against our own server as a subprocess, and against broken engines."""

from __future__ import annotations

import os
import signal
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from morris import Board
from morris.engine.client import UciEngine, parse_score
from morris.engine.errors import ExternalEngineError
from morris.engine.search import MATE

#: Needs real time: external engines as real subprocesses.
pytestmark = pytest.mark.realtime

SERVER = [sys.executable, "-m", "morris.engine.uci"]


@pytest.fixture(scope="module")
def engine() -> UciEngine:
    with UciEngine.spawn(SERVER, timeout=30) as eng:
        yield eng  # type: ignore[misc]


def test_spawn_reads_the_engine_name(engine: UciEngine) -> None:
    assert engine.name.startswith("morris")


def test_play_returns_a_whole_legal_turn(engine: UciEngine) -> None:
    board = Board()
    for text in ("d6", "f4", "d5", "b4"):
        board.push_notation(text)
    result = engine.play(board, depth=2)
    assert board.is_legal(result.move)
    # d7 closes a mill: the client asks for the removal and joins it to the action.
    assert str(result.move) in ("d7xf4", "d7xb4")
    assert result.depth == 2 and result.nodes > 0


def test_play_with_options_and_a_position_string(engine: UciEngine) -> None:
    engine.configure(Level=3)
    board = Board("WWB...../...B..../........ b 6 6 0 2 -", flying=False)
    result = engine.play(board, depth=1)
    assert board.is_legal(result.move)


def _fake_engine(tmp_path: Path, body: str) -> list[str]:
    script = tmp_path / "fake_engine.py"
    script.write_text(
        textwrap.dedent(
            """
            import sys
            from pathlib import Path
            marker = Path(sys.argv[1])
            def say(line):
                sys.stdout.write(line + "\\n")
                sys.stdout.flush()
            for line in sys.stdin:
                cmd = line.split()[0] if line.split() else ""
                if cmd == "uci":
                    say("id name fake")
                    say("uciok")
                elif cmd == "isready":
                    say("readyok")
                elif cmd == "quit":
                    break
                elif cmd == "go":
            """
        )
        + textwrap.indent(textwrap.dedent(body), " " * 8)
    )
    return [sys.executable, str(script), str(tmp_path / "marker")]


def test_a_crashed_engine_is_restarted_and_given_the_position_again(tmp_path: Path) -> None:
    command = _fake_engine(
        tmp_path,
        """
        if not marker.exists():
            marker.write_text("crashed once")
            sys.exit(3)
        say("info depth 1 score cp 5 nodes 1 pv d6")
        say("bestmove d6")
        """,
    )
    with UciEngine.spawn(command, timeout=10) as eng:
        result = eng.play(Board(), movetime=0.01)
        assert str(result.move) == "d6"
        assert eng.restarts == 1


def test_an_engine_that_never_answers_times_out(tmp_path: Path) -> None:
    command = _fake_engine(tmp_path, "pass\n")
    # Start-up may be slow on a loaded machine; only the search must time out.
    with UciEngine.spawn(command, timeout=30) as eng:
        eng.timeout = 0.3
        with pytest.raises(ExternalEngineError):
            eng.play(Board(), movetime=0.01)


def test_an_illegal_answer_is_an_error(tmp_path: Path) -> None:
    command = _fake_engine(tmp_path, 'say("bestmove a1-a4")\n')
    with (
        UciEngine.spawn(command, timeout=5) as eng,
        pytest.raises(ExternalEngineError, match="illegal"),
    ):
        eng.play(Board(), movetime=0.01)


def test_a_mill_turn_takes_one_movetime_in_all(tmp_path: Path) -> None:
    # The fake engine spends 0.3 s of the 0.5 s on the action, which closes a mill, and records
    # the movetime the client then gives it for the removal.
    record = tmp_path / "removal-go"
    script = tmp_path / "mill_engine.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import sys, time
            def say(line):
                sys.stdout.write(line + "\\n")
                sys.stdout.flush()
            moves = []
            for line in sys.stdin:
                words = line.split()
                if words[:1] == ["uci"]:
                    say("uciok")
                elif words[:1] == ["isready"]:
                    say("readyok")
                elif words[:1] == ["position"]:
                    moves = words[words.index("moves") + 1:] if "moves" in words else []
                elif words[:1] == ["go"] and moves[-1:] == ["d7"]:
                    open({str(record)!r}, "w").write(line)
                    say("bestmove xf4")
                elif words[:1] == ["go"]:
                    time.sleep(0.3)
                    say("bestmove d7")
                elif words[:1] == ["quit"]:
                    break
            """
        )
    )
    board = Board()
    for text in ("d6", "f4", "d5", "b4"):
        board.push_notation(text)
    with UciEngine.spawn([sys.executable, str(script)], timeout=10) as eng:
        result = eng.play(board, movetime=0.5)
    assert str(result.move) == "d7xf4"
    removal_ms = int(record.read_text().split()[-1])
    assert 50 <= removal_ms <= 250


def test_an_engine_that_gives_up_says_why(tmp_path: Path) -> None:
    script = tmp_path / "broken_engine.py"
    script.write_text(
        "import sys\n"
        "print('info string error my binary /opt/x is missing', flush=True)\n"
        "sys.exit(2)\n"
    )
    with pytest.raises(ExternalEngineError) as caught:
        UciEngine.spawn([sys.executable, str(script)], timeout=30)
    message = str(caught.value)
    assert "exit code 2" in message
    assert "my binary /opt/x is missing" in message


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie waiting for its parent counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def test_closing_an_engine_ends_what_it_started(tmp_path: Path) -> None:
    # An adapter-like engine that starts a helper process and ignores quit: closing it must not
    # leave the helper running (as an adapter killed before it stopped its engine would).
    pid_file = tmp_path / "helper.pid"
    script = tmp_path / "adapter.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import subprocess, sys
            helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
            open({str(pid_file)!r}, "w").write(str(helper.pid))
            for line in sys.stdin:
                if line.split()[:1] == ["uci"]:
                    print("uciok", flush=True)
                elif line.split()[:1] == ["isready"]:
                    print("readyok", flush=True)
            """
        )
    )
    eng = UciEngine.spawn([sys.executable, str(script)], timeout=30)
    helper = int(pid_file.read_text())
    try:
        assert not _gone(helper)
        # Before, close() killed only the adapter and then hung on the pipe the helper held open.
        closer = threading.Thread(target=eng.close, daemon=True)
        closer.start()
        closer.join(timeout=20)
        assert not closer.is_alive(), "close() hung on a process the engine started"
        deadline = time.monotonic() + 10
        while not _gone(helper) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _gone(helper)
    finally:
        if not _gone(helper):
            os.kill(helper, signal.SIGKILL)


def test_a_command_that_does_not_exist_fails_to_spawn() -> None:
    with pytest.raises(ExternalEngineError):
        UciEngine.spawn(["/nonexistent/engine"])


def test_close_is_safe_twice() -> None:
    eng = UciEngine.spawn(SERVER, timeout=30)
    eng.close()
    eng.close()


def test_scores_are_read_in_both_notations() -> None:
    assert parse_score(["cp", "-35"]) == -35
    assert parse_score(["mate", "2"]) == MATE - 3
    assert parse_score(["mate", "-1"]) == -(MATE - 2)
    assert parse_score(["wdl", "1"]) is None
