"""Serial bridge over a pseudo-terminal: round-trip latency and frames per second.

    python benchmarks/bench_bridge.py

The firmware on an emulated Pico (firmware_bridge.ptydevice) serves a pty; SerialBoard is the
host end.
Latency: a piece placed on the simulated board until SerialBoard's when_changed runs (debounce
set to 0 here; a real board adds its 30 ms debounce), and a SNAPSHOT_REQUEST until its answer is
applied. Throughput: valid frames per second the host decodes from a burst the device writes.
On a Pico, USB full speed and MicroPython's loop are the limits, not the host.
"""

from __future__ import annotations

import statistics
import threading
import time

from firmware_bridge import SerialBoard
from firmware_bridge import protocol as P
from firmware_bridge.emulator import EmulatedPico
from firmware_bridge.ptydevice import PtyDevice
from morris_device import SensorReading

ROUNDS = 300
BURST = 20_000


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    sim = EmulatedPico({**EmulatedPico().config, "debounce_ms": 0, "scan_interval_ms": 0})
    with PtyDevice(sim) as device, SerialBoard(device.url) as board:
        arrived = threading.Event()

        def changed(reading: SensorReading) -> None:
            arrived.set()

        board.when_changed = changed
        sensor_rtt = []
        for i in range(ROUNDS):
            arrived.clear()
            start = time.perf_counter()
            if i % 2:
                sim.lift(5)
            else:
                sim.place(5)
            if not arrived.wait(5):
                raise SystemExit("no change reported")
            sensor_rtt.append(time.perf_counter() - start)

        snap_rtt = []
        for _ in range(ROUNDS):
            before = board.stats.resyncs
            start = time.perf_counter()
            board.request_snapshot()
            while board.stats.resyncs == before:
                time.sleep(0)
            snap_rtt.append(time.perf_counter() - start)

        seq_box: list[int] = []
        device.call(lambda fw: seq_box.append(fw.sensor_seq))
        beat = P.encode_frame(P.HEARTBEAT, P.pack_heartbeat(0, seq_box[0], 0))
        before = board.stats.frames_in
        start = time.perf_counter()
        device.write_raw(beat * BURST)
        while board.stats.frames_in - before < BURST:
            if time.perf_counter() - start > 30:
                raise SystemExit("burst not received")
            time.sleep(0.001)
        elapsed = time.perf_counter() - start

    ms = 1000.0
    print(f"bridge over a pty ({ROUNDS} rounds, firmware logic on CPython)")
    print(
        f"  sensor change -> when_changed   p50 {statistics.median(sensor_rtt) * ms:.2f} ms"
        f"   p99 {percentile(sensor_rtt, 0.99) * ms:.2f} ms"
    )
    print(
        f"  SNAPSHOT_REQUEST round trip     p50 {statistics.median(snap_rtt) * ms:.2f} ms"
        f"   p99 {percentile(snap_rtt, 0.99) * ms:.2f} ms"
    )
    print(
        f"  host decode throughput          {BURST / elapsed:,.0f} frames/s"
        f"  ({BURST * len(beat) / elapsed / 1e6:.2f} MB/s, {len(beat)} B frames)"
    )


if __name__ == "__main__":
    main()
