"""The firmware logic on CPython in virtual time: scanning, debouncing, lights, buttons, link."""

from __future__ import annotations

from typing import Any

import pytest

from firmware_bridge import protocol as P
from firmware_bridge.emulator import EmulatedPico, MemoryPort
from firmware_bridge.firmware import boardfw


class Bench:
    """A simulated Pico driven tick by tick, with the host end of the link in a MemoryPort."""

    def __init__(self, **overrides: Any) -> None:
        self.sim = EmulatedPico({**EmulatedPico().config, **overrides})
        self.port = MemoryPort()
        self.now = 0
        self.decoder = P.FrameDecoder()
        self.controls: list[int] = []
        self.fw = boardfw.build(
            self.sim.machine, self.sim.config, self.port, self.now, boot_id=42,
            neopixel=self.sim.neopixel, on_control=self.controls.append,
        )  # fmt: skip

    def run(self, ms: int, step: int = 1) -> list[tuple[int, bytes]]:
        """Advance ``ms`` milliseconds; return the frames the firmware sent meanwhile."""
        for _ in range(0, ms, step):
            self.now += step
            self.fw.tick(self.now)
        return self.frames()

    def frames(self) -> list[tuple[int, bytes]]:
        frames, errors = self.decoder.feed(self.port.take())
        assert errors == []
        return frames

    def send(self, ftype: int, payload: bytes = b"") -> list[tuple[int, bytes]]:
        self.port.feed(P.encode_frame(ftype, payload))
        return self.run(1)

    def of(self, ftype: int, frames: list[tuple[int, bytes]]) -> list[bytes]:
        return [payload for t, payload in frames if t == ftype]


def test_boots_with_hello_announcing_capabilities() -> None:
    bench = Bench()
    (hello,) = bench.of(P.HELLO, bench.frames())
    major, _minor, fw, boot_id, sensors, leds, status, buttons, driver, hb, _ = P.unpack_hello(
        hello
    )
    assert major == P.PROTOCOL_MAJOR and fw == boardfw.FIRMWARE_VERSION and boot_id == 42
    assert (sensors, leds, status, buttons, driver, hb) == (24, 28, 4, 4, P.LED_WS2812, 500)


def test_hello_request_and_snapshot_request_are_answered() -> None:
    bench = Bench()
    bench.sim.set_on_wood({0, 9, 23})
    bench.run(50)
    assert bench.of(P.HELLO, bench.send(P.HELLO_REQUEST, P.pack_hello_request()))
    (snap,) = bench.of(P.SNAPSHOT, bench.send(P.SNAPSHOT_REQUEST))
    seq, _time, sensed = P.unpack_snapshot(snap)
    assert sensed == (1 << 0) | (1 << 9) | (1 << 23)
    assert seq == 1  # the one change event so far


def test_a_change_is_reported_once_after_the_debounce_time() -> None:
    bench = Bench()
    bench.frames()
    bench.sim.place(5)
    assert bench.of(P.CHANGE, bench.run(25)) == []  # not yet: 30 ms debounce
    (change,) = bench.of(P.CHANGE, bench.run(20))
    assert P.unpack_change(change)[0] == 1
    assert P.unpack_change(change)[2:] == (1 << 5, 1 << 5)
    assert bench.of(P.CHANGE, bench.run(200)) == []


def test_flicker_shorter_than_the_debounce_is_ignored() -> None:
    bench = Bench()
    bench.frames()
    for _ in range(20):  # a weak magnet: present 10 ms, gone 10 ms
        bench.sim.place(7)
        bench.run(10)
        bench.sim.lift(7)
        bench.run(10)
    assert bench.of(P.CHANGE, bench.frames()) == []
    assert bench.fw.sensor_seq == 0


def test_sliding_across_points_reports_only_where_it_stops() -> None:
    bench = Bench()
    bench.frames()
    sent = []
    for point in (0, 1, 2):  # 15 ms over each point on the way
        bench.sim.set_on_wood({point})
        sent += bench.run(15)
    frames = bench.of(P.CHANGE, sent + bench.run(100))
    states = [P.unpack_change(p)[3] for p in frames]
    assert states == [1 << 2]


def test_matrix_wiring_active_low() -> None:
    bench = Bench(sensor_active_high=False)
    bench.sim.set_on_wood({3, 12, 20})
    bench.run(50)
    assert bench.fw.sensors.stable == (1 << 3) | (1 << 12) | (1 << 20)


def test_buttons_send_press_and_release_with_sequence_numbers() -> None:
    bench = Bench()
    bench.frames()
    bench.sim.press(2)
    sent = bench.run(40)
    bench.sim.release(2)
    events = [P.unpack_button(p) for p in bench.of(P.BUTTON, sent + bench.run(40))]
    assert [(seq, index, pressed) for seq, _, index, pressed in events] == [
        (1, 2, True),
        (2, 2, False),
    ]


def lights(points: dict[int, int], status: dict[int, int] | None = None) -> bytes:
    codes = [points.get(i, P.SIG_OFF) for i in range(24)]
    stat = [(status or {}).get(i, P.SIG_OFF) for i in range(4)]
    return P.pack_lights(7, codes, stat)


def test_lights_blink_on_the_device_with_the_shared_timing() -> None:
    bench = Bench()
    bench.send(P.LIGHTS, lights({0: P.SIG_ON, 1: P.SIG_SLOW, 2: P.SIG_FAST}, {2: P.SIG_FAST}))
    since = bench.fw.elapsed  # the tick that read the LIGHTS frame: the blinks start there
    seen = []
    for _ in range(2000):
        bench.run(1)
        t = bench.fw.elapsed
        seen.append((bench.sim.lit(0), bench.sim.lit(1), bench.sim.lit(2), bench.sim.lit(26), t))
    for on, slow, fast, status_fast, t in seen:
        assert on
        assert slow == P.signal_lit(P.SIG_SLOW, t, since)
        assert fast == P.signal_lit(P.SIG_FAST, t, since) == status_fast
    assert bench.sim.leds[0] == (0, 60, 0)


@pytest.mark.parametrize("driver", ["ws2812", "hc595"])
def test_a_new_blink_is_lit_at_once_and_unchanged_leds_keep_their_phase(driver: str) -> None:
    bench = Bench(led_driver=driver)
    bench.run(600)  # the dark half of a slow blink locked to boot
    bench.send(P.LIGHTS, lights({1: P.SIG_SLOW}, {2: P.SIG_FAST}))
    assert bench.sim.lit(1) and bench.sim.lit(26)  # lit in the tick that read the frame
    first = bench.fw.elapsed
    bench.run(700)  # LED 1 is dark now (lit first..first+500, dark until first+1000)
    assert not bench.sim.lit(1)
    bench.send(P.LIGHTS, lights({1: P.SIG_SLOW, 2: P.SIG_SLOW}, {2: P.SIG_FAST}))
    second = bench.fw.elapsed
    assert bench.sim.lit(2) and not bench.sim.lit(1)  # the new one lit, the old one untouched
    for _ in range(1500):
        bench.run(1)
        t = bench.fw.elapsed
        assert bench.sim.lit(1) == P.signal_lit(P.SIG_SLOW, t, first), t
        assert bench.sim.lit(2) == P.signal_lit(P.SIG_SLOW, t, second), t
        assert bench.sim.lit(26) == P.signal_lit(P.SIG_FAST, t, first), t


def test_lights_after_the_host_came_back_blink_from_that_moment() -> None:
    bench = Bench()
    bench.send(P.LIGHTS, lights({4: P.SIG_SLOW}))
    bench.run(3300)  # the host is silent: everything off
    assert not bench.sim.lit(4)
    bench.run(350)
    bench.send(P.LIGHTS, lights({4: P.SIG_SLOW}))
    assert bench.sim.lit(4)


def test_leds_are_written_only_on_a_change() -> None:
    bench = Bench()
    bench.send(P.LIGHTS, lights({0: P.SIG_ON, 5: P.SIG_SLOW}))
    writes = bench.sim.led_writes
    bench.run(2000)
    # slow blink: 2 s = 4 edges; steady LEDs cause no rewrites, so no flicker on other points.
    assert bench.sim.led_writes - writes == 4


def test_74hc595_chain_shows_the_same_lights() -> None:
    bench = Bench(led_driver="hc595")
    bench.send(P.LIGHTS, lights({0: P.SIG_ON, 13: P.SIG_ON, 23: P.SIG_ON}, {3: P.SIG_ON}))
    lit = [i for i in range(28) if bench.sim.lit(i)]
    assert lit == [0, 13, 23, 27]
    assert P.unpack_hello(bench.fw.hello_payload())[8] == P.LED_HC595  # type: ignore[no-untyped-call]


def test_heartbeats_carry_sequence_and_lights_generation() -> None:
    bench = Bench()
    bench.frames()
    bench.send(P.LIGHTS, lights({0: P.SIG_ON}))
    beats = bench.of(P.HEARTBEAT, bench.run(1100))
    assert len(beats) == 2
    assert P.unpack_heartbeat(beats[-1])[1:] == (0, 7)


def test_host_silence_switches_the_lights_off() -> None:
    bench = Bench()
    bench.send(P.LIGHTS, lights({4: P.SIG_ON}))
    bench.run(2900)
    assert bench.sim.lit(4)
    bench.run(200)
    assert not bench.sim.lit(4)
    assert bench.fw.generation == 0  # so the host's next heartbeat check resends its lights


def test_unknown_frame_type_is_answered_with_an_error_and_skipped() -> None:
    bench = Bench()
    bench.frames()
    (error,) = bench.of(P.ERROR, bench.send(0x7E, b"from the future"))
    assert P.unpack_error(error)[:2] == (P.E_UNKNOWN_TYPE, 0x7E)
    assert bench.of(P.HELLO, bench.send(P.HELLO_REQUEST, P.pack_hello_request()))


def test_garbage_and_bad_payloads_give_error_frames_not_a_crash() -> None:
    bench = Bench()
    bench.frames()
    bench.port.feed(b"\x13\x37garbage\x00" * 50)
    errors = bench.of(P.ERROR, bench.run(1))
    assert len(errors) == 1  # rate limited
    assert P.unpack_error(errors[0])[0] == P.E_BAD_FRAME
    (error,) = bench.of(P.ERROR, bench.send(P.LIGHTS, b"\x00"))
    assert P.unpack_error(error)[:2] == (P.E_BAD_PAYLOAD, P.LIGHTS)
    assert bench.fw.errors_in == 50


def test_control_reaches_the_hook() -> None:
    bench = Bench()
    bench.send(P.CONTROL, P.pack_control(P.CTL_EXIT_TO_REPL))
    assert bench.controls == [P.CTL_EXIT_TO_REPL]


def test_ticks_wrapping_does_not_disturb_timing() -> None:
    bench = Bench()
    bench.now = boardfw.TICKS_PERIOD - 5
    bench.fw._ticks = bench.now
    start = bench.fw.elapsed
    for _ in range(10):
        bench.now = (bench.now + 1) % boardfw.TICKS_PERIOD
        bench.fw.tick(bench.now)
    assert bench.fw.elapsed == start + 10


@pytest.mark.parametrize("driver", ["ws2812", "hc595", "none"])
def test_every_led_driver_builds(driver: str) -> None:
    bench = Bench(led_driver=driver)
    assert bench.of(P.HELLO, bench.frames())


def test_unknown_led_driver_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown led_driver 'apa102'"):
        Bench(led_driver="apa102")
