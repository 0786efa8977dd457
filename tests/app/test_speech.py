"""The game said aloud (morris.app.speech): the queue's cutting order, the controller's
announcements, the text in the board's language, espeak-ng's speech in a WAV file, and silence
where espeak-ng or a sound device is missing."""

from __future__ import annotations

import array
import io
import logging
import os
import shutil
import subprocess
import wave
from pathlib import Path

import pytest

from morris.app.config import SpeechConfig
from morris.app.mode import Mode
from morris.app.narration import (
    Announcement,
    Kind,
    hint_announcement,
    mill_announcement,
    mismatch_announcement,
    opponent_turn,
    outcome_announcement,
)
from morris.app.speech import (
    Speaker,
    SpeechQueue,
    espeak_argv,
    sound_device_problem,
    speech_problem,
    start_speech,
)
from morris.core import Move, Outcome, Termination, mask_of
from morris.i18n import LANGUAGES, msg, nmsg
from morris.referee import Flagged, MillClosed
from morris.sim import Simulation
from tests.app.scenario_kit import SETTLE, carry_out_opponent_turn, play, scripted


def said(kind: Kind, text: str = "") -> Announcement:
    return Announcement(kind, msg(text or kind.label))


# -- the queue ------------------------------------------------------------------------------


def test_a_higher_rank_cuts_the_one_being_said_and_drops_the_lower_waiting() -> None:
    queue = SpeechQueue()
    assert not queue.push(said(Kind.TURN))
    assert queue.next() == said(Kind.TURN)
    assert not queue.push(said(Kind.HINT))  # lower: waits its turn
    assert not queue.push(said(Kind.FIXED))
    assert [a.kind for a in queue.pending] == [Kind.HINT, Kind.FIXED]
    assert queue.push(said(Kind.MISTAKE))  # higher: cuts the Pi's turn being said
    assert [a.kind for a in queue.pending] == [Kind.MISTAKE]  # and the lower ones go
    assert queue.next() == said(Kind.MISTAKE)
    assert queue.push(said(Kind.GAME_OVER))
    assert queue.next() == said(Kind.GAME_OVER)
    assert queue.next() is None


def test_the_same_rank_waits_in_order_and_a_newer_of_the_same_kind_replaces_the_older() -> None:
    queue = SpeechQueue()
    queue.push(said(Kind.TURN, "Pi plays {turn}"))
    queue.next()
    assert not queue.push(said(Kind.MILL))  # the same rank as a turn: after it
    assert not queue.push(said(Kind.PUZZLE))
    assert [a.kind for a in queue.pending] == [Kind.MILL, Kind.PUZZLE]
    first = Announcement(Kind.MISTAKE, nmsg("a piece is missing on {points}", "", 1, points="d6"))
    newer = Announcement(Kind.MISTAKE, nmsg("a piece is missing on {points}", "", 1, points="d7"))
    queue.push(first)
    assert queue.pending[0] == first  # higher ranks first
    queue.push(newer)
    assert queue.pending == [newer]  # the stale mistake is gone, the lower ones too
    queue.next()
    assert queue.push(Announcement(Kind.MISTAKE, msg("the board does not match the game")))


def test_the_queue_holds_a_few_announcements_at_most() -> None:
    queue = SpeechQueue(limit=2)
    queue.push(said(Kind.TURN, "a"))
    queue.push(said(Kind.MILL, "b"))
    queue.push(said(Kind.PUZZLE, "c"))
    assert [a.message.msgid for a in queue.pending] == ["a", "b"]


# -- the speaker, with a stand-in for espeak-ng ------------------------------------------------


class FakeEspeak:
    """espeak-ng as the speaker sees it: running until told it ended, or terminated."""

    def __init__(self, argv: list[str], stderr: bytes = b"") -> None:
        self.argv = argv
        self.returncode: int | None = None
        self.stderr: io.BytesIO | None = io.BytesIO(stderr)
        self.terminated = False

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        assert self.returncode is not None, "the test ends the process first"
        return self.returncode

    def terminate(self) -> None:
        self.terminated = True
        self.returncode = -15

    def end(self) -> None:
        self.returncode = 0


class Launcher:
    def __init__(self, stderr: bytes = b"") -> None:
        self.started: list[FakeEspeak] = []
        self.stderr = stderr

    def __call__(self, argv: list[str], **kwargs: object) -> FakeEspeak:
        process = FakeEspeak(argv, self.stderr)
        self.started.append(process)
        return process


def test_the_speaker_cuts_the_process_and_says_the_newer_in_the_game_language() -> None:
    launch = Launcher()
    speaker = Speaker(SpeechConfig(enabled=True), language="de", popen=launch, thread=False)
    speaker.say(opponent_turn(Move.parse("d6xa1"), Mode.VS_AI))
    assert speaker.pump()
    (first,) = launch.started
    assert first.argv == [
        "espeak-ng",
        "-v",
        "de",
        "-s",
        "160",
        "-a",
        "100",
        "--",
        "Pi spielt d6, a1 wegnehmen",
    ]
    speaker.say(hint_announcement(Move.parse("b4")))  # lower: waits
    assert not first.terminated
    over = outcome_announcement(Outcome(Termination.TOO_FEW_PIECES, winner=True))
    speaker.say(over)
    assert first.terminated and speaker.cut == 1
    assert speaker.pump()
    assert launch.started[1].argv[-1] == "Partie zu Ende: Weiß gewinnt, zu wenige Steine"
    launch.started[1].end()
    assert not speaker.pump()  # the hint was dropped by the end of the game
    assert list(speaker.said) == ["Pi spielt d6, a1 wegnehmen", over.message.render("de")]


def test_espeak_complaining_of_no_sound_device_makes_the_speaker_silent_with_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """espeak-ng exits 0 when ALSA finds no card: its stderr is what tells."""
    launch = Launcher(stderr=b"ALSA lib pcm.c: Unknown PCM default\nerror: No such file\n")
    speaker = Speaker(SpeechConfig(enabled=True), language="nl", popen=launch, thread=False)
    with caplog.at_level(logging.WARNING, logger="morris.app.speech"):
        speaker.say(said(Kind.TURN, "new game"))
        speaker.pump()
        launch.started[0].end()
        speaker.pump()
        speaker.say(said(Kind.GAME_OVER, "new game"))
        assert not speaker.pump()
    assert speaker.silent and len(launch.started) == 1
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "error: No such file" in warnings[0].getMessage()


def test_without_espeak_ng_the_board_goes_on_silent(caplog: pytest.LogCaptureFixture) -> None:
    told: list[str] = []
    with Simulation(mode="vs-ai", search=scripted(["d7"])) as sim:
        with caplog.at_level(logging.WARNING, logger="morris.app.speech"):
            speaker = start_speech(
                SpeechConfig(enabled=True), sim.controller, environ={"PATH": ""}, warn=told.append
            )
        assert speaker is None
        assert told == [
            "speech off: espeak-ng is not installed (apt install espeak-ng); the "
            "board goes on silent"
        ]
        assert len(caplog.records) == 1
        play(sim, "d6")
        sim.wait(2.0)
        assert sim.controller.snapshot(sim.now).event == "Pi plays d7"  # the game goes on
    assert start_speech(SpeechConfig(enabled=False), sim.controller) is None


def test_no_sound_device_is_found_without_alsa_playback_or_a_sound_server(tmp_path: Path) -> None:
    dev = tmp_path / "snd"
    dev.mkdir()
    (dev / "pcmC0D0c").touch()  # a capture device only
    assert "no sound device" in (sound_device_problem({}, dev) or "")
    (dev / "pcmC0D0p").touch()
    assert sound_device_problem({}, dev) is None
    assert sound_device_problem({"PULSE_SERVER": "unix:/x"}, tmp_path / "none") is None
    assert "espeak-ng is not installed" in (speech_problem({"PATH": str(tmp_path)}) or "")


# -- the controller's announcements ----------------------------------------------------------


def test_the_controller_announces_the_pi_turn_a_mistake_its_fix_and_a_takeback() -> None:
    heard: list[Announcement] = []
    with Simulation(mode="vs-ai", search=scripted(["d7", "a7"])) as sim:
        sim.controller.on_announcement(heard.append)
        play(sim, "d6")
        sim.wait(2.0)
        assert heard == [opponent_turn(Move.parse("d7"), Mode.VS_AI)]
        assert carry_out_opponent_turn(sim) == "d7"
        sim.lift("d6")  # the person's piece knocked off: no position of the game
        sim.wait(sim.config.referee.flag_delay + 1.0)
        assert heard[-1].kind is Kind.MISTAKE
        assert heard[-1].message.render("en") == "a piece is missing on d6"
        assert heard[-1].message.render("nl") == "er ontbreekt een steen op d6"
        sim.place("d6")
        sim.wait(1.0)
        assert heard[-1] == Announcement(Kind.FIXED, msg("board matches again"))
        sim.press("takeback")
        sim.wait(0.5)
        assert heard[-1].kind is Kind.TAKEBACK, heard
        assert heard[-1].message.render("de").endswith("zurückgenommen")


def test_referee_mode_announces_a_mill_with_what_it_may_take() -> None:
    heard: list[Announcement] = []
    with Simulation(mode="referee") as sim:
        sim.controller.on_announcement(heard.append)
        play(sim, "a1", "b2", "a4", "b4")
        sim.place("a7")
        sim.wait(SETTLE)
        mill = heard[-1]
        assert mill.kind is Kind.MILL
        assert mill.message.render("en") == "mill: take a piece from b2, b4"
        assert mill.message.render("fi") == "mylly: poista yksi nappula kohdista b2, b4"


# -- espeak-ng itself ------------------------------------------------------------------------

ESPEAK_MISSING = shutil.which("espeak-ng") is None
if ESPEAK_MISSING and os.environ.get("MORRIS_REQUIRE_SPEECH") == "1":
    pytest.fail("espeak-ng is missing: apt-get install -y espeak-ng", pytrace=False)

#: One announcement of every kind, as the controller makes them.
EVERY_KIND = [
    opponent_turn(Move.parse("d6xa1"), Mode.VS_AI),
    opponent_turn(Move.parse("a1-a4"), Mode.REMOTE),
    mill_announcement(MillClosed(Move.parse("a7"), removable=mask_of(["b2", "b4"]))),
    mismatch_announcement(Flagged(mask_of(["d6"]), mask_of(["g7", "a1"]), reason=msg(""))),
    Announcement(Kind.FIXED, msg("board matches again")),
    Announcement(Kind.TAKEBACK, nmsg("{n} turn taken back", "{n} turns taken back", 2)),
    hint_announcement(Move.parse("f4")),
    outcome_announcement(Outcome(Termination.BLOCKED, winner=False)),
    Announcement(
        Kind.PUZZLE,
        msg(
            "puzzle: {title}: you play white, find the win",
            title=nmsg("white to move wins in {n}", "", 3),
        ),
    ),
]


def _speech_seconds_and_loudness(path: Path) -> tuple[float, float]:
    with wave.open(str(path)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2)
        frames = wav.readframes(wav.getnframes())
        seconds = wav.getnframes() / wav.getframerate()
    samples = array.array("h", frames)
    rms = (sum(s * s for s in samples) / max(1, len(samples))) ** 0.5
    return seconds, rms


@pytest.mark.realtime
@pytest.mark.skipif(ESPEAK_MISSING, reason="no espeak-ng (apt install espeak-ng; .ci/run does)")
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kind_of_announcement_is_speech_in_each_language(
    language: str, tmp_path: Path
) -> None:
    speaker = Speaker(
        SpeechConfig(enabled=True),
        language=language,
        wav_dir=tmp_path,
        thread=False,
        popen=subprocess.Popen,
    )
    for announcement in EVERY_KIND:
        speaker.say(announcement)
        assert speaker.pump()
        assert speaker._process is not None
        speaker._process.wait(timeout=30)
        speaker.pump()
    assert not speaker.silent
    assert list(speaker.said) == [a.message.render(language) for a in EVERY_KIND]
    if language != "en":  # the text given to espeak-ng was the translation
        for text, announcement in zip(speaker.said, EVERY_KIND, strict=True):
            assert text != announcement.message.render("en"), text
    wavs = sorted(tmp_path.glob("*.wav"))
    assert [w.name.split("-", 1)[1] for w in wavs] == [
        f"{a.kind.label.replace(' ', '-')}.wav" for a in EVERY_KIND
    ]
    for path, text in zip(wavs, speaker.said, strict=True):
        seconds, rms = _speech_seconds_and_loudness(path)
        # espeak-ng at 160 words a minute: some 40 to 200 ms a character, never silence.
        assert 0.04 * len(text) < seconds < 0.2 * len(text) + 1.0, (path.name, seconds, text)
        assert rms > 500, (path.name, rms)


@pytest.mark.realtime
@pytest.mark.skipif(ESPEAK_MISSING, reason="no espeak-ng (apt install espeak-ng; .ci/run does)")
def test_the_configured_voice_rate_and_volume_reach_espeak(tmp_path: Path) -> None:
    slow = tmp_path / "slow.wav"
    fast = tmp_path / "fast.wav"
    text = "Pi pelaa d6, poista a1"
    for path, rate in ((slow, 100), (fast, 300)):
        argv = espeak_argv(text, SpeechConfig(rate=rate, volume=50), "fi", wav=path)
        subprocess.run(argv, check=True, capture_output=True, timeout=30)
    assert _speech_seconds_and_loudness(slow)[0] > 2 * _speech_seconds_and_loudness(fast)[0]
    assert espeak_argv(text, SpeechConfig(voice="en-us"), "fi")[:3] == ["espeak-ng", "-v", "en-us"]
