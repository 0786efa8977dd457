"""Speech: from the Pi's reply chosen to the first sample espeak-ng writes.

    python benchmarks/bench_speech.py [--rounds 50] [--language de]

Each round is a turn of a game against the Pi on the simulated board (the controller, the
speaker's thread and espeak-ng as ``morris run --speak`` runs them, the loop idle once the turn
is handled, as the daemon's waits for its next event): the clock starts when the
search's reply reaches the controller (``on_search_done``, where the Pi's turn is chosen and
announced) and stops when the first audio sample after the WAV header comes out of espeak-ng.
Here espeak-ng writes its samples to a pipe (``--stdout``) instead of the sound device: this
machine has none, and the device's own buffering (ALSA's period, some 10 to 20 ms) comes on top on
a board. Also measured: espeak-ng alone (process start to first sample, the same text) and its
CPU time per announcement.

The Pi Zero 2 W figure is an estimate, not a measurement: the CPU-bound path (process start,
loading the voice, synthesising the first chunk) scaled by 8 to 10, the ratio this project measures
for its Python and C work between this machine and a Pi Zero 2 W's Cortex-A53 at 1 GHz
(docs/TABLES.md, bench_solution_size.py); the first announcement after boot also reads
espeak-ng's data from the SD card, which is not in it.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from morris.app.config import SpeechConfig
from morris.app.speech import Speaker, espeak_argv
from morris.core import Move
from morris.i18n import set_language
from morris.sim import Simulation

PI_SLOWER = (8, 10)
WAV_HEADER = 44


class FirstSample:
    """Starts espeak-ng writing to a pipe and notes when its first sample arrives."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.done = threading.Event()

    def __call__(self, argv: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        kwargs["stdout"] = subprocess.PIPE
        process = subprocess.Popen([*argv[:-2], "--stdout", *argv[-2:]], **kwargs)
        threading.Thread(target=self._read, args=(process,), daemon=True).start()
        return process

    def _read(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None
        seen = 0
        while seen <= WAV_HEADER:
            chunk = process.stdout.read1(4096)
            if not chunk:
                break
            seen += len(chunk)
        self.times.append(time.perf_counter())
        process.stdout.read()  # let it finish
        self.done.set()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def through_the_controller(rounds: int, language: str) -> list[float]:
    """The Pi's reply chosen -> the first sample, ``rounds`` times (ms)."""
    set_language(language)
    replies = ["d7", "b6", "f6", "b2", "f2", "d1", "a7", "g7", "a1"]
    latencies = []
    while len(latencies) < rounds:
        first = FirstSample()
        speaker = Speaker(SpeechConfig(enabled=True), popen=first)
        with Simulation(mode="vs-ai", search=_scripted(replies)) as sim:
            sim.controller.on_announcement(speaker.say)
            chosen: list[float] = []
            original = sim.controller.on_search_done

            def timed(
                job: Any, move: Any, now: float, original: Any = original, chosen: Any = chosen
            ) -> None:
                chosen.append(time.perf_counter())
                original(job, move, now)

            sim.controller.on_search_done = timed  # type: ignore[method-assign]
            for point in ("d6", "b4", "f4"):
                if len(latencies) >= rounds:
                    break
                first.done.clear()
                sim.place(point)
                asked = len(chosen)
                while len(chosen) == asked:  # the person's turn accepted, the Pi's reply chosen
                    sim.wait(0.05)
                # Then the loop is idle, as the daemon's is between events (a simulation moving
                # virtual time on would hold the interpreter lock the speaker's thread needs).
                if not first.done.wait(10.0):
                    raise SystemExit("espeak-ng wrote nothing in 10 s")
                latencies.append((first.times[-1] - chosen[-1]) * 1000)
                for name, signal in sim.lights().items():  # carry out the Pi's placement
                    if signal == "on":
                        sim.place(name)
                sim.wait(2.0)
        speaker.close()
    return latencies


def _scripted(replies: list[str]) -> Any:
    def search(job: Any) -> Move | None:
        for text in replies:
            move = Move.parse(text)
            if job.board.is_legal(move):
                return move
        return None

    return search


def espeak_alone(rounds: int, language: str, text: str) -> tuple[list[float], float]:
    """espeak-ng's start to its first sample (ms), and its CPU time per run (ms)."""
    argv = espeak_argv(text, SpeechConfig(), language)
    times = []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(rounds):
        start = time.perf_counter()
        process = subprocess.Popen(
            [*argv[:-2], "--stdout", *argv[-2:]],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert process.stdout is not None
        seen = 0
        while seen <= WAV_HEADER:
            chunk = process.stdout.read1(4096)
            if not chunk:
                break
            seen += len(chunk)
        times.append((time.perf_counter() - start) * 1000)
        process.stdout.read()
        process.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) / rounds * 1000
    return times, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--language", default="de", choices=("en", "nl", "fi", "de"))
    args = parser.parse_args()
    latencies = through_the_controller(args.rounds, args.language)
    text = {"en": "Pi plays b4", "nl": "Pi speelt b4", "fi": "Pi pelaa b4", "de": "Pi spielt b4"}
    alone, cpu = espeak_alone(args.rounds, args.language, text[args.language])
    median, p95 = statistics.median(latencies), percentile(latencies, 95)
    print(f"speech ({args.language}), {len(latencies)} announcements of the Pi's turn:")
    print(f"  reply chosen -> first sample: median {median:.1f} ms, p95 {p95:.1f} ms")
    print(
        f"  espeak-ng alone, start -> first sample: median {statistics.median(alone):.1f} ms, "
        f"p95 {percentile(alone, 95):.1f} ms; CPU {cpu:.1f} ms an announcement"
    )
    low, high = PI_SLOWER
    print(
        f"  Pi Zero 2 W (estimate, x{low} to x{high}): median {median * low:.0f} to "
        f"{median * high:.0f} ms, p95 {p95 * low:.0f} to {p95 * high:.0f} ms"
    )


if __name__ == "__main__":
    main()
