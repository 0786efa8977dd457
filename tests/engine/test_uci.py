"""Protocol conversations with the engine server, over a scripted transport (python-chess style)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from morris import Board, Move
from morris.engine.errors import ProtocolError
from morris.engine.uci import UciServer, apply_tokens, moves_to_tokens
from tests.engine.helpers import Conversation

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def conv() -> Conversation:
    return Conversation()


def test_uci_handshake_lists_the_options(conv: Conversation) -> None:
    answer = conv.send("uci")
    assert answer[0].startswith("id name ")
    assert answer[1].startswith("id author ")
    assert answer[-1] == "uciok"
    options = " ".join(answer)
    for name in ("Level", "MoveTime", "Flying", "Threads"):
        assert f"option name {name} type" in options
    assert conv.send("isready") == ["readyok"]


def test_go_depth_gives_info_lines_then_a_legal_bestmove(conv: Conversation) -> None:
    answer = conv.send("ucinewgame", "position startpos moves d6 f4", "go depth 3")
    infos = [line for line in answer if line.startswith("info depth")]
    assert [line.split()[2] for line in infos] == ["1", "2", "3"]
    for word in ("score", "nodes", "nps", "pv"):
        assert f" {word} " in infos[-1]
    assert answer[-1].startswith("bestmove ")
    board = Board()
    board.push_notation("d6")
    board.push_notation("f4")
    assert Move.parse(answer[-1].split()[1]) in board.legal_moves


def test_after_a_mill_closing_action_go_answers_the_removal(conv: Conversation) -> None:
    # d7 closes d7-d6-d5: the removal comes as its own token.
    answer = conv.send("position startpos moves d6 f4 d5 b4 d7", "go depth 2")
    best = answer[-1].split()[1]
    assert best in ("xf4", "xb4")
    assert conv.send(f"position startpos moves d6 f4 d5 b4 d7 {best}", "d")[-1].startswith(
        "info string position"
    )


def test_the_engine_answers_only_the_action_of_a_mill_turn(conv: Conversation) -> None:
    answer = conv.send("position startpos moves d6 f4 d5 b4", "go depth 2")
    assert answer[-1] == "bestmove d7"  # the removal comes on the next go


def test_compound_and_split_removals_are_both_accepted(conv: Conversation) -> None:
    for moves in ("d6 f4 d5 b4 d7xf4 g7", "d6 f4 d5 b4 d7 xf4 g7"):
        answer = conv.send(f"position startpos moves {moves}", "d")
        assert not any("error" in line for line in answer)
        assert answer[-1] == "info string position .WB...../.W.....B/.W...... w 6 6 0 4 -"


@pytest.mark.parametrize(
    "line",
    [
        "hello",
        "go depth x",
        "go sideways",
        "setoption name Level value 99",
        "setoption name NoSuchOption value 1",
        "setoption name Threads value 4",
        "position somewhere",
        "position startpos moves d6 d6",
        "position startpos moves xg7",
        "position startpos moves d6 f4 d5 b4 d7 g7",
        "position fen not a position",
        "position fen ......../......../........ w ² 9 0 1 -",
        f"position fen ......../......../........ w 9 9 {'9' * 5000} 1 -",
        "go depth ١",
        f"go nodes {'9' * 5000}",
        "go movetime ²",
        "setoption name Seed value 99999999999999999999999",
        "setoption name MoveTime value -5",
        "setoption name Level value ٣",
    ],
)
def test_bad_input_gets_an_error_line_never_a_crash(
    conv: Conversation, line: str, caplog: pytest.LogCaptureFixture
) -> None:
    answer = conv.send(line)
    assert len(answer) == 1 and answer[0].startswith("info string error ")
    assert conv.send("isready") == ["readyok"]
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


@pytest.mark.realtime  # the search runs on the server's thread while we talk
def test_a_node_budget_beyond_any_search_is_searched_until_stop(
    conv: Conversation, caplog: pytest.LogCaptureFixture
) -> None:
    server = conv.server
    server.handle("position startpos")
    server.handle("go nodes 999999999999999999999999")
    server.handle("stop")
    server.wait()
    assert conv.lines[-1].startswith("bestmove ") and conv.lines[-1] != "bestmove (none)"
    assert not [line for line in conv.lines if "error" in line]
    assert not [r for r in caplog.records if r.exc_info]


_words = st.sampled_from(
    ["uci", "isready", "ucinewgame", "position", "go", "setoption", "d", "stop", "debug"]
)
# fmt: off
_TOKENS = [
    "startpos", "fen", "moves", "name", "value", "Level", "Seed", "MoveTime", "Threads",
    "Flying", "Variant", "depth", "nodes", "movetime", "wtime", "movestogo", "searchmoves",
    "d6", "a1-a4", "xg7", "d6xg7", "0", "1", "-1", "²", "١", "9" * 30, "9" * 5000,
    "......../......../........", "w", "b", "-", "nodes 999999999999999999999999",
    "fen ......../......../........ w ² 9 0 1 -", "name Seed value 99999999999999999999",
]
# fmt: on
_tokens = st.sampled_from(_TOKENS) | st.text(max_size=6)


@pytest.mark.realtime  # a search may start on the server's thread
@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.tuples(_words, st.lists(_tokens, max_size=8)), min_size=1, max_size=4))
@example(lines=[("go", ["nodes", "999999999999999999999999"])])
@example(lines=[("position", ["fen", "......../......../........", "w", "²", "9", "0", "1", "-"])])
def test_no_input_line_makes_the_protocol_print_a_traceback(
    lines: list[tuple[str, list[str]]],
) -> None:
    import logging

    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("morris")
    logger.addHandler(handler)
    answers: list[str] = []
    server = UciServer(answers.append)
    try:
        for word, tokens in lines:
            server.handle(" ".join([word, *tokens]))
            if server.searching:
                server.handle("stop")
                server.wait()
    finally:
        server.handle("quit")
        logger.removeHandler(handler)
    assert not [r for r in records if r.exc_info and r.levelno >= logging.WARNING]
    assert "bestmove (none)" not in answers or any("game over" in a for a in answers)


def test_a_bad_position_keeps_the_previous_one(conv: Conversation) -> None:
    conv.send("position startpos moves d6")
    conv.send("position startpos moves d6 d6")
    assert conv.server.board.move_stack == [Move.parse("d6")]


def test_options_change_the_game(conv: Conversation) -> None:
    conv.send("setoption name Flying value false", "setoption name Level value 2")
    assert conv.server.board.flying is False
    assert conv.server.options.level == 2
    conv.send("setoption name Variant value twelve", "position startpos")
    assert conv.server.board.pieces_in_hand(True) == 12


@pytest.mark.realtime  # the search runs on the server's thread while we talk
def test_isready_and_stop_are_answered_during_a_search(conv: Conversation) -> None:
    server = conv.server
    server.handle("position startpos")
    server.handle("go infinite")
    server.handle("isready")
    server.handle("stop")
    server.wait()
    assert "readyok" in conv.lines
    assert conv.lines.index("readyok") < len(conv.lines) - 1
    assert conv.lines[-1].startswith("bestmove ")


def test_go_on_a_finished_game_says_so(conv: Conversation) -> None:
    answer = conv.send("position fen WWW...../......../BB...... b 0 0 0 1 -", "go depth 1")
    assert answer[-1] == "bestmove (none)"
    assert "game over" in answer[0]


def test_quit_ends_the_conversation(conv: Conversation) -> None:
    conv.server.handle("position startpos")
    conv.server.handle("go infinite")
    assert conv.server.handle("quit") is False
    assert not conv.server.searching


def test_tokens_round_trip_a_game() -> None:
    board = Board()
    for text in ("d6", "f4", "d5", "b4", "d7xf4"):
        board.push_notation(text)
    tokens = moves_to_tokens(board.move_stack)
    assert tokens == ["d6", "f4", "d5", "b4", "d7", "xf4"]
    replay = Board()
    assert apply_tokens(replay, tokens) is None
    assert replay == board
    assert apply_tokens(Board(), tokens[:-1]) == Move.parse("d7")
    with pytest.raises(ProtocolError, match="removal"):
        apply_tokens(Board(), ["d6", "xf4"])


@pytest.mark.realtime  # a real subprocess
def test_a_real_subprocess_conversation() -> None:
    script = "uci\nisready\nposition startpos moves d6 f4\ngo depth 2\nquit\n"
    proc = subprocess.run(
        [sys.executable, "-m", "morris", "engine", "--no-tables"],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert "uciok" in out and "readyok" in out
    assert out[-1].startswith("bestmove ")
