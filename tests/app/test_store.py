"""Saving games: atomic saves of the unfinished game, records of finished ones, damaged files."""

from __future__ import annotations

import logging
import os
from datetime import datetime
from pathlib import Path

import pytest

import morris
from morris.app.errors import StoreError
from morris.app.store import GameStore, SavedGame, atomic_write, decode_game
from morris.engine import MAX_LEVEL

TURNS = ["d6", "f4", "d2", "b4", "d7", "g7", "a7", "g1", "c5", "g4xd2"]


def _played() -> morris.Board:
    board = morris.Board()
    for turn in TURNS:
        board.push_notation(turn)
    return board


def test_saved_game_comes_back_whole(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    store.save(SavedGame(_played(), mode="vs-ai", human="black", level=7))
    loaded = GameStore(tmp_path).load()
    assert loaded is not None
    assert [str(m) for m in loaded.board.move_stack] == TURNS
    assert loaded.board.position() == _played().position()
    assert (loaded.mode, loaded.human, loaded.level) == ("vs-ai", "black", 7)
    loaded.board.pop()  # the turns can be taken back after a restart


def test_settings_and_variant_survive(tmp_path: Path) -> None:
    board = morris.TwelveMensMorris(flying=False, no_removal_limit=None)
    board.push_notation("a1")
    store = GameStore(tmp_path)
    store.save(SavedGame(board))
    loaded = store.load()
    assert loaded is not None
    assert isinstance(loaded.board, morris.TwelveMensMorris)
    assert loaded.board.flying is False
    assert loaded.board.no_removal_limit is None


@pytest.mark.parametrize("name", morris.VARIANT_NAMES)
def test_every_variant_and_the_removal_switches_survive(tmp_path: Path, name: str) -> None:
    import random

    from tests.core.games import play_random_game

    board = morris.find_variant(name)(remove_from_mills=True, double_mill_removes_two=True)
    boards = play_random_game(board, random.Random(name))
    middle = boards[len(boards) // 2]  # a game going on, Morabaraba's bar and all
    store = GameStore(tmp_path)
    store.save(SavedGame(middle))
    loaded = store.load()
    assert loaded is not None
    assert type(loaded.board) is type(board)
    assert loaded.board.position() == middle.position()
    assert loaded.board.settings() == middle.settings()
    assert loaded.board.move_stack == middle.move_stack


def test_a_game_saved_at_a_level_that_no_longer_exists_resumes_at_the_top(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = GameStore(tmp_path)
    store.save(SavedGame(_played(), mode="vs-ai", human="white", level=MAX_LEVEL))
    text = store.current_path.read_text()
    gone = MAX_LEVEL + 1
    store.current_path.write_text(text.replace(f'"level": {MAX_LEVEL}', f'"level": {gone}'))
    loaded = GameStore(tmp_path).load()
    assert loaded is not None
    assert loaded.level == MAX_LEVEL
    assert [str(m) for m in loaded.board.move_stack] == TURNS
    assert f"level {gone} does not exist, the game goes on at {MAX_LEVEL}" in caplog.text


def test_no_saved_game(tmp_path: Path) -> None:
    assert GameStore(tmp_path).load() is None


def test_damaged_file_is_moved_aside(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = GameStore(tmp_path)
    store.current_path.write_text('{"format": 1, "variant": "standard", "sett')
    assert store.load() is None
    assert not store.current_path.exists()
    assert (tmp_path / "game.json.bad").exists()
    assert "bad JSON" in caplog.text


def test_a_file_that_is_not_utf8_is_moved_aside(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = GameStore(tmp_path)
    store.current_path.write_bytes(b'{"format": 1, "variant": "caf\xe9"}')
    assert store.load() is None
    assert not store.current_path.exists()
    assert (tmp_path / "game.json.bad").read_bytes() == b'{"format": 1, "variant": "caf\xe9"}'
    assert "not UTF-8" in caplog.text


def test_every_damaged_file_is_kept(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    for n in range(3):
        store.current_path.write_text(f"damaged {n}")
        assert store.load() is None
    kept = {p.name: p.read_text() for p in tmp_path.glob("game.json.bad*")}
    assert kept == {
        "game.json.bad": "damaged 0",
        "game.json.bad.2": "damaged 1",
        "game.json.bad.3": "damaged 2",
    }


def test_temporaries_of_a_killed_save_are_cleaned_at_start(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    stale = tmp_path / ".game.json.k1ll3d_x.tmp"
    young = tmp_path / ".game.json.inflight.tmp"
    others = [tmp_path / ".status.json.abc.tmp", tmp_path / "notes.tmp", tmp_path / "game.json.x"]
    for path in (stale, young, *others):
        path.write_text("half a game")
    old = datetime(2020, 1, 1).timestamp()
    for path in (stale, *others):
        os.utime(path, (old, old))
    store.save(SavedGame(_played()))
    assert GameStore(tmp_path).load() is not None
    assert not stale.exists()
    assert young.exists() and all(p.exists() for p in others)


def test_illegal_saved_move_is_named() -> None:
    text = (
        '{"format": 1, "variant": "standard", "settings": {}, '
        '"start": "......../......../........ w 9 9 0 1 -", "moves": ["d6", "d6"]}'
    )
    with pytest.raises(StoreError, match=r"move 2 \(d6\) is illegal: d6 is occupied"):
        decode_game(text)


def test_atomic_write_leaves_old_file_when_writing_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    atomic_write(path, "old")

    def broken_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError):
        atomic_write(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left


def test_finished_game_becomes_a_record(tmp_path: Path) -> None:
    board = morris.Board()
    for line in (Path(__file__).parents[1] / "data" / "strong-games.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            for turn in line.split()[2:]:
                board.push_notation(turn)
            break
    store = GameStore(tmp_path)
    path = store.finish(board, white="Ann", black="morris level 5", now=datetime(2026, 11, 29))
    assert path.parent == tmp_path / "games"
    record = morris.read_game(path.read_text())
    assert record.tags["White"] == "Ann"
    assert record.result == board.result() != "*"
    assert record.board().position() == board.position()
    again = store.finish(board, white="Ann", black="morris level 5", now=datetime(2026, 11, 29))
    assert again != path  # two games in the same second are both kept


def test_the_log_says_a_turn_was_played_only_after_it_is_saved(tmp_path: Path) -> None:
    from morris.sim import Simulation

    order: list[str] = []

    class WatchedStore(GameStore):
        def save(self, saved: SavedGame) -> None:
            super().save(saved)
            order.append(f"saved after {len(saved.board.move_stack)} turns")

    class Journal(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if "d6" in record.getMessage():
                order.append(record.getMessage())

    journal = Journal(logging.DEBUG)
    controller_log = logging.getLogger("morris.app.controller")
    controller_log.addHandler(journal)
    level = controller_log.level
    controller_log.setLevel(logging.INFO)
    try:
        with Simulation(mode="referee", state_dir=tmp_path) as sim:
            sim.controller.keeper.store = WatchedStore(tmp_path)
            sim.place("d6")
            sim.wait(2.0)
    finally:
        controller_log.removeHandler(journal)
        controller_log.setLevel(level)
    assert order == ["saved after 1 turns", "white played d6"]
