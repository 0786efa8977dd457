"""Figures for the hardware layer: scan and refresh CPU, latency to notification, turn to lights,
sim speed.

    python benchmarks/bench_hardware.py [--seconds 3] [--samples 200]

CPU use is measured with time.process_time() while a BoardRunner drives a board on gpiozero's
MockFactory in real time (a mock pin costs less than an lgpio call on a Pi, so treat the figures
as a floor for a desktop and expect several times more on a Pi Zero/3).
"""

from __future__ import annotations

import argparse
import random
import statistics
import threading
import time

from gpiozero.pins.mock import MockFactory

from hardware import load_profile, open_board
from hardware.runner import BoardRunner
from hardware.simulated_board import SimulatedBoard
from hardware.wiring import ShiftRegisterChain
from morris.app.config import Config
from morris.sim import Simulation
from morris_device import POINT_NAMES, SensorReading, Signal

#: A referee game whose last placement closes the mill a7-d7-g7: black's a1 and g1 then blink.
_MILL_GAME = ("a7", "a1", "d7", "g1")
_MILL_CLOSING = "g7"


def cpu_share(
    profile_name: str,
    seconds: float,
    *,
    scan_hz: float | None = None,
    lights: dict[str, Signal] | None = None,
) -> float:
    """CPU seconds per real second while a runner polls the board."""
    profile = load_profile(profile_name)
    if scan_hz is not None:
        profile = profile.replace(scan_hz=scan_hz)
    with open_board(profile, pin_factory=MockFactory()) as board:
        if lights:
            board.show(lights)
        with BoardRunner(board):
            cpu0, wall0 = time.process_time(), time.perf_counter()
            time.sleep(seconds)
            cpu1, wall1 = time.process_time(), time.perf_counter()
    return (cpu1 - cpu0) / (wall1 - wall0)


def chain_update_cost(repeats: int = 2000) -> float:
    """Microseconds to shift out and latch the 32 bits of the 74HC595 chain once."""
    with open_board("shift-register", pin_factory=MockFactory(), clock=lambda: 0.0) as board:
        chain = next(b for b in board._outputs if isinstance(b, ShiftRegisterChain))
        start = time.perf_counter()
        for i in range(repeats):
            chain.write({POINT_NAMES[i % 24]: True})
        return (time.perf_counter() - start) / repeats * 1e6


def latency_virtual(scan_hz: float, samples: int = 200) -> tuple[float, float, float]:
    """Sensor change -> notification in virtual time: (min, mean, max) in ms."""
    rng = random.Random(1)
    profile = load_profile("shift-register").replace(scan_hz=scan_hz)
    delays: list[float] = []
    with SimulatedBoard(profile) as sim:
        readings: list[SensorReading] = []
        sim.device.when_changed = readings.append
        for i in range(samples):
            sim.wait(rng.uniform(0.05, 0.2))  # a random phase against the scan
            placed = sim.now + rng.uniform(0.0, 1.0 / scan_hz)
            sim.advance(placed)
            point = POINT_NAMES[i % 24]
            (sim.lift if point in sim.on_wood() else sim.place)(point)
            readings.clear()
            sim.wait(0.2)
            delays.append((readings[0].timestamp - placed) * 1000)
    return min(delays), statistics.mean(delays), max(delays)


def latency_real(samples: int = 30) -> tuple[float, float]:
    """Sensor change -> callback in real time on a runner: (median, max) in ms."""
    delays: list[float] = []
    with SimulatedBoard(clock=time.monotonic) as sim:
        got = threading.Event()
        sim.device.when_changed = lambda reading: got.set()
        with BoardRunner(sim.device):
            for i in range(samples):
                got.clear()
                start = time.monotonic()
                (sim.lift if i % 2 else sim.place)("d6")
                got.wait(1.0)
                delays.append((time.monotonic() - start) * 1000)
                time.sleep(0.02)
    return statistics.median(delays), max(delays)


def turn_to_lights(profile_name: str, samples: int) -> list[float]:
    """From the sensed change that completes a turn to the first visible change of the LEDs, in
    virtual time, in seconds, measured from the moment the referee's debounce lets the change
    stand (the reading's time + ``referee.debounce``): what ``accept_delay`` counts from.

    Each sample is a fresh referee game on the simulated board whose last placement closes a
    mill, at a random instant against the blink period and the scan; the first visible change is
    the first level change read back from the pins of any point LED.
    """
    rng = random.Random(2)
    debounce = Config().referee.debounce
    return [_mill_to_lights(profile_name, rng) - debounce for _ in range(samples)]


def _mill_to_lights(profile_name: str, rng: random.Random) -> float:
    """One sample of :func:`turn_to_lights`: the sensor report of the mill -> the first LED edge."""
    with Simulation(mode="referee", profile=profile_name) as sim:
        for point in _MILL_GAME:
            sim.place(point)
            sim.wait(1.0)
        sim.wait(rng.uniform(0.0, 1.0))  # any phase of the blink period...
        sim.wait(rng.uniform(0.0, 0.01))  # ... and of the scan
        device = sim.hardware.device
        report = device.when_changed
        assert report is not None
        sensed: list[float] = []

        def record(reading: SensorReading) -> None:
            if _MILL_CLOSING in reading.sensed and not sensed:
                sensed.append(reading.timestamp)
            report(reading)

        device.when_changed = record
        sim.place(_MILL_CLOSING)
        sim.wait(1.5)
        history = sim.hardware.circuit.history
        first = min(t for p in POINT_NAMES for t, _ in history[p] if t > sensed[0])
        return first - sensed[0]


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def sim_speed(profile_name: str, virtual_seconds: float = 300.0) -> float:
    """Real seconds to run ``virtual_seconds`` of a simulated board with blinking LEDs."""
    with SimulatedBoard(profile_name) as sim:
        sim.device.show({"a7": Signal.FAST, "d6": Signal.SLOW, "c3": Signal.ON})
        start = time.perf_counter()
        for t in range(1, int(virtual_seconds) + 1):
            if t % 7 == 0:
                (sim.lift if "e4" in sim.on_wood() else sim.place)("e4")
            sim.advance(float(t))
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="real seconds per CPU figure")
    parser.add_argument("--samples", type=int, default=200, help="turns per turn-to-lights figure")
    args = parser.parse_args()
    s = args.seconds
    print("CPU use in real time (BoardRunner on MockFactory, one core = 100 %):")
    for hz in (100, 200):
        share = cpu_share("shift-register", s, scan_hz=hz)
        print(f"  3x8 sensor matrix scan at {hz} Hz (+4 direct buttons): {share:6.1%}")
    blink = dict.fromkeys(POINT_NAMES, Signal.FAST)
    print(
        f"  ... at 100 Hz with all 24 LEDs fast-blinking on the 595 chain: "
        f"{cpu_share('shift-register', s, lights=blink):6.1%}"
    )
    print(
        f"  4x8 input + 4x8 LED matrix ('matrix' profile, 100 Hz frames): "
        f"{cpu_share('matrix', s, lights=blink):6.1%}"
    )
    print(f"  one 74HC595 chain update (32 bits shifted and latched): {chain_update_cost():.0f} us")
    print("Sensor change -> notification (debounce 3 scans):")
    for hz in (100, 200):
        lo, mean, hi = latency_virtual(hz)
        print(
            f"  virtual time, {hz} Hz: min {lo:.1f} ms, mean {mean:.1f} ms, max {hi:.1f} ms "
            f"({lo * hz / 1000:.0f}-{hi * hz / 1000:.0f} scan periods)"
        )
    median, worst = latency_real()
    print(f"  real time, 100 Hz, runner thread: median {median:.1f} ms, max {worst:.1f} ms")
    referee = Config().referee
    print(
        f"Turn -> lights (a mill closed at a random instant; from the settled change, i.e. the "
        f"sensor report + debounce {referee.debounce:g} s; target accept_delay "
        f"{referee.accept_delay:g} s + one scan period):"
    )
    for name in ("shift-register", "matrix", "direct"):
        delays = turn_to_lights(name, args.samples)
        scan = 1.0 / load_profile(name).scan_hz
        p99 = percentile(delays, 0.99)
        print(
            f"  {name}: min {min(delays) * 1000:.1f} ms, p50 {percentile(delays, 0.5) * 1000:.1f}"
            f" ms, p99 {p99 * 1000:.1f} ms, max {max(delays) * 1000:.1f} ms "
            f"({'meets' if p99 <= referee.accept_delay + scan + 1e-9 else 'misses'} the target "
            f"{(referee.accept_delay + scan) * 1000:.0f} ms)"
        )
    print("Simulator speed (300 virtual seconds, LEDs blinking, a piece moved every 7 s):")
    for name in ("shift-register", "matrix", "direct"):
        print(f"  {name}: {sim_speed(name):.2f} s real")


if __name__ == "__main__":
    main()
