"""The daemon speaks beside its loop ([speech] enabled): the Pi's turn reaches the speaker while
the lights show it, and the speaker stops with the daemon; where it cannot speak, the daemon
plays on silent."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from morris.app import speech
from morris.app.config import SpeechConfig, board_from_config
from morris.app.controller import Controller
from morris.app.store import GameStore
from morris.core import Move
from morris.daemon import Daemon
from morris.daemon import loop as daemon_loop
from tests.app.test_speech import Launcher
from tests.daemon.daemon_kit import (
    DaemonThread,
    FakeSystemd,
    real_time_board,
    sim_config,
    wait_until,
)
from tests.daemon.test_daemon_loop import first_move, pi_search

pytestmark = pytest.mark.realtime


class Ended(Launcher):
    """espeak-ng that has said its text at once."""

    def __call__(self, argv: list[str], **kwargs: object):  # type: ignore[no-untyped-def]
        process = super().__call__(argv, **kwargs)
        process.end()
        return process


def _daemon(tmp_path: Path, systemd: FakeSystemd) -> tuple[Daemon, object]:
    board = real_time_board()
    state = tmp_path / "state"
    state.mkdir()
    config = sim_config().with_overrides(speech_enabled=True)
    daemon = Daemon(
        config,
        board.opened,
        notifier=systemd.notifier(0.2),
        store=GameStore(state),
        search=pi_search,
    )
    return daemon, board


def test_the_daemon_says_the_pis_turn_and_stops_the_speaker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[speech.Speaker] = []

    def start(config: SpeechConfig, controller: Controller) -> speech.Speaker:
        speaker = speech.Speaker(config, language="de", popen=Ended())
        controller.on_announcement(speaker.say)
        made.append(speaker)
        return speaker

    monkeypatch.setattr(daemon_loop, "start_speech", start)
    systemd = FakeSystemd(tmp_path)
    daemon, board = _daemon(tmp_path, systemd)
    after = board_from_config(sim_config())
    after.push(Move.parse("d6"))
    reply = first_move(after)
    thread = DaemonThread(daemon).start()
    try:
        systemd.wait_for("READY", "1")
        board.sim.place("d6")  # type: ignore[attr-defined]
        wait_until(lambda: str(reply) in board.lit_now(), "the Pi's turn lit")  # type: ignore[attr-defined]
        wait_until(lambda: bool(made and made[0].said), "the Pi's turn said")
        assert list(made[0].said) == [f"Pi spielt {reply}"]
    finally:
        assert thread.stop() == 0
        systemd.close()
    assert made[0]._closed and made[0]._thread is not None and not made[0]._thread.is_alive()


def test_without_a_sound_device_the_daemon_warns_once_and_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(speech, "speech_problem", lambda environ=None: "no sound device")
    systemd = FakeSystemd(tmp_path)
    daemon, board = _daemon(tmp_path, systemd)
    thread = DaemonThread(daemon).start()
    try:
        with caplog.at_level(logging.WARNING, logger="morris.app.speech"):
            systemd.wait_for("READY", "1")
            board.sim.place("d6")  # type: ignore[attr-defined]
            wait_until(lambda: len(daemon.controller.board.move_stack) == 1, "d6 played")  # type: ignore[union-attr]
        assert daemon.speaker is None
    finally:
        assert thread.stop() == 0
        systemd.close()
    said = [r.getMessage() for r in caplog.records if r.name == "morris.app.speech"]
    assert said == ["speech off: no sound device; the board goes on silent"]
