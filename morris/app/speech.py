"""The game said aloud: the controller's announcements spoken by espeak-ng, in the board's language.

The controller hands each :class:`~morris.app.narration.Announcement` to :meth:`Speaker.say` on its
own loop; ``say`` only queues it and returns. A thread of the speaker's own runs espeak-ng (one
process an announcement, writing to the sound device), so speech never delays the lights or the
referee, as the web companion runs beside the loop too.

The queue (:class:`SpeechQueue`) keeps what a player needs to hear now: a newer announcement of
a higher rank cuts the one being said (the espeak-ng process is stopped) and drops the waiting ones
of a lower rank; a newer one of the same kind replaces the older (a second "a piece is missing"
makes the first stale). The ranks are :class:`~morris.app.narration.Kind`'s: the end of the game
above a mistake on the board, above the Pi's turn and a mill, above a hint or a takeback, above
"the board matches again".

Without espeak-ng, or without a sound device, :func:`start_speech` logs one warning and the board
goes on silent. The voice, rate and volume come from ``[speech]`` (docs/CONFIG.md).
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import threading
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Protocol

from morris.app.config import SpeechConfig
from morris.app.narration import Announcement
from morris.i18n import language as board_language

if TYPE_CHECKING:
    from morris.app.controller import Controller

logger = logging.getLogger(__name__)

#: The program that speaks (Debian's package ``espeak-ng``).
ESPEAK = "espeak-ng"
#: espeak-ng's voice for each language of the catalogs.
VOICES: Mapping[str, str] = {"en": "en-gb", "nl": "nl", "fi": "fi", "de": "de"}
#: How many announcements may wait at most (the oldest of the lowest rank goes first).
QUEUE_LIMIT = 4


class SpeechQueue:
    """Which announcement to say next, and whether a new one cuts the one being said.

    Pure bookkeeping, no thread and no clock: :class:`Speaker` holds one under its lock.
    """

    def __init__(self, limit: int = QUEUE_LIMIT) -> None:
        self.limit = limit
        #: The announcement being said, or ``None``.
        self.current: Announcement | None = None
        #: The announcements waiting, the next first (higher ranks first, then oldest first).
        self.pending: list[Announcement] = []

    def push(self, announcement: Announcement) -> bool:
        """Queue ``announcement``; return whether it cuts the one being said (which then ends
        at once: the caller stops it)."""
        rank, kind = announcement.rank, announcement.kind
        self.pending = [p for p in self.pending if p.rank >= rank and p.kind is not kind]
        at = next((i for i, p in enumerate(self.pending) if p.rank < rank), len(self.pending))
        self.pending.insert(at, announcement)
        del self.pending[self.limit :]
        current = self.current
        return current is not None and (rank > current.rank or kind is current.kind)

    def next(self) -> Announcement | None:
        """The announcement to say now (it becomes :attr:`current`), or ``None``."""
        self.current = self.pending.pop(0) if self.pending else None
        return self.current


class Process(Protocol):
    """What the speaker needs of a :class:`subprocess.Popen`."""

    stderr: IO[bytes] | None
    returncode: int | None

    def poll(self) -> int | None: ...
    def wait(self, timeout: float | None = None) -> int: ...
    def terminate(self) -> None: ...


Popen = Callable[..., Process]


def sound_device_problem(
    environ: Mapping[str, str] = os.environ, dev: Path = Path("/dev/snd")
) -> str | None:
    """Why there is no sound device to speak on, or ``None``: an ALSA playback device
    (``/dev/snd/pcmC*D*p``) or a PulseAudio/PipeWire server of the user."""
    if any(dev.glob("pcmC*D*p")):
        return None
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    if environ.get("PULSE_SERVER") or (
        runtime and any((Path(runtime) / name).exists() for name in ("pulse/native", "pipewire-0"))
    ):
        return None
    return f"no sound device ({dev} has no playback device and no sound server runs)"


def speech_problem(environ: Mapping[str, str] = os.environ) -> str | None:
    """Why the board cannot speak here, or ``None``."""
    if shutil.which(ESPEAK, path=environ.get("PATH")) is None:
        return f"{ESPEAK} is not installed (apt install espeak-ng)"
    return sound_device_problem(environ)


def espeak_argv(
    text: str, config: SpeechConfig, language: str, *, wav: Path | None = None
) -> list[str]:
    """espeak-ng's command line that says ``text`` (to the sound device, or into ``wav``)."""
    voice = config.voice or VOICES.get(language, language)
    argv = [ESPEAK, "-v", voice, "-s", str(config.rate), "-a", str(config.volume)]
    if wav is not None:
        argv += ["-w", str(wav)]
    return [*argv, "--", text]


class Speaker:
    """Says announcements through espeak-ng, one at a time, on a thread of its own.

    ``language``: the board's (default: :func:`morris.i18n.language` at each announcement).
    ``wav_dir``: write each announcement into a WAV file there instead of the sound device
    (``0001-turn.wav``, ...). ``popen``: how the process is started (tests and the benchmark
    pass their own). ``thread=False`` starts no thread: :meth:`pump` then does its work.
    """

    def __init__(
        self,
        config: SpeechConfig,
        *,
        language: str | None = None,
        wav_dir: Path | None = None,
        popen: Popen = subprocess.Popen,
        thread: bool = True,
    ) -> None:
        self.config = config
        self.language = language
        self.wav_dir = wav_dir
        self._popen = popen
        self.queue = SpeechQueue()
        #: The texts handed to espeak-ng, newest last (the last 50).
        self.said: deque[str] = deque(maxlen=50)
        #: How many announcements were cut while being said.
        self.cut = 0
        self.silent = False
        self._cond = threading.Condition()
        self._process: Process | None = None
        self._cutting = False
        self._count = 0
        self._closed = False
        self._thread: threading.Thread | None = None
        if thread:
            self._thread = threading.Thread(target=self._run, name="speech", daemon=True)
            self._thread.start()

    # -- the controller's side --------------------------------------------------------------

    def say(self, announcement: Announcement) -> None:
        """Queue ``announcement`` (returns at once); it may cut the one being said."""
        with self._cond:
            if self._closed or self.silent:
                return
            if self.queue.push(announcement) and self._process is not None:
                self._cutting = True
                self.cut += 1
                logger.debug("speech: %s cuts in", announcement.kind.label)
                self._stop_process(self._process)
            self._cond.notify()

    def close(self) -> None:
        """Stop speaking and end the thread."""
        with self._cond:
            self._closed = True
            self.queue.pending.clear()
            if self._process is not None:
                self._stop_process(self._process)
            self._cond.notify()
        if self._thread is not None:
            self._thread.join(timeout=2.0)

    # -- the speaker's side -----------------------------------------------------------------

    def pump(self) -> bool:
        """Finish the process that has ended and start the next announcement; return whether
        one is being said (the thread calls this; without a thread a test does)."""
        with self._cond:
            process = self._process
            if process is not None:
                if process.poll() is None:
                    return True
                self._finished(process)
            if self._closed or self.silent:
                return False
            announcement = self.queue.next()
            if announcement is None:
                return False
            self._process = self._start(announcement)
            return self._process is not None

    def _start(self, announcement: Announcement) -> Process | None:
        language = self.language or board_language()
        text = announcement.message.render(language)
        self._count += 1
        wav = None
        if self.wav_dir is not None:
            wav = (
                self.wav_dir / f"{self._count:04d}-{announcement.kind.label.replace(' ', '-')}.wav"
            )
        argv = espeak_argv(text, self.config, language, wav=wav)
        self.said.append(text)
        logger.debug("speech: %s", text)
        try:
            return self._popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
        except OSError as exc:
            self._go_silent(f"{ESPEAK} cannot be started: {exc}")
            return None

    def _finished(self, process: Process) -> None:
        self._process = None
        cut, self._cutting = self._cutting, False
        errors = b""
        if process.stderr is not None:
            errors = process.stderr.read()
            process.stderr.close()
        self.queue.current = None
        if cut:
            return
        # espeak-ng exits 0 even when it found no sound device: its complaint is on stderr.
        lines = errors.decode(errors="replace").strip().splitlines()
        if process.returncode or any(line.startswith("error") for line in lines):
            self._go_silent(f"{ESPEAK} failed: {lines[-1] if lines else process.returncode}")

    def _go_silent(self, why: str) -> None:
        self.silent = True
        self.queue.pending.clear()
        logger.warning("speech off: %s; the board goes on silent", why)

    @staticmethod
    def _stop_process(process: Process) -> None:
        if process.poll() is None:
            process.terminate()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._closed and self._process is None and not self.queue.pending:
                    self._cond.wait()
                if self._closed and self._process is None:
                    return
            self.pump()
            process = self._process
            if process is not None:
                try:
                    process.wait(timeout=60.0)
                except subprocess.TimeoutExpired:
                    self._stop_process(process)
            elif self._closed:
                return


def start_speech(
    config: SpeechConfig,
    controller: Controller,
    *,
    environ: Mapping[str, str] = os.environ,
    warn: Callable[[str], None] | None = None,
) -> Speaker | None:
    """Speak ``controller``'s announcements when ``config.enabled``: the :class:`Speaker`, or
    ``None`` (speech off, or impossible here: one warning through ``warn`` and the log)."""
    if not config.enabled:
        return None
    problem = speech_problem(environ)
    if problem is not None:
        text = f"speech off: {problem}; the board goes on silent"
        logger.warning("%s", text)
        if warn is not None:
            warn(text)
        return None
    speaker = Speaker(config)
    controller.on_announcement(speaker.say)
    logger.info("speech on (%s, voice %s)", board_language(), config.voice or "the language's")
    return speaker
