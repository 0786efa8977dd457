"""Faults on the link: nothing a cable or a device does may crash the host or invent a move.

The host runs in virtual time (its heartbeat timeout and reconnect backoff are read from a
morris_device.VirtualClock); the firmware runs on its own thread. Real time is only ever an upper
bound.
"""

from __future__ import annotations

import os
import random

import pytest

from firmware_bridge import LinkState
from firmware_bridge import protocol as P
from morris_device import POINT_INDEX, Signal
from tests.firmware_bridge.bridge_helpers import Harness, eventually

#: Needs real time: a real pseudo-terminal and the link thread.
pytestmark = pytest.mark.realtime


def _set_up_position(h: Harness) -> frozenset[str]:
    h.place("a7", "d6", "c4")
    h.wait_sensors({"a7", "d6", "c4"})
    h.changes.items.clear()
    return h.board.sensors()


def _seq(h: Harness) -> int:
    box: list[int] = []
    h.device.call(lambda fw: box.append(fw.sensor_seq))
    return box[0]


def _still_working(h: Harness, before: frozenset[str]) -> None:
    """The link is up, the reader alive: a real move is still reported, and only it."""
    assert h.board.is_link_up
    h.place("g1")
    h.wait_sensors(set(before) | {"g1"})
    assert [r.sensed for r in h.changes.items] == [before | {"g1"}]


def test_unplug_and_replug_reports_no_move_and_is_back_within_2s(harness: Harness) -> None:
    h = harness
    before = _set_up_position(h)
    h.device.unplug()
    assert h.links.wait_for(lambda items: items == [False])
    assert h.board.link_state is LinkState.DOWN
    assert h.board.sensors() == before
    for _ in range(5):  # attempts while unplugged fail quietly, with backoff
        h.clock.set(h.board.poll(h.clock()))
    assert not h.board.is_link_up
    h.device.replug()  # the pieces did not move meanwhile
    took = h.drive_until_up()
    assert took <= 2.0
    assert h.links.wait_for(lambda items: items == [False, True])
    assert h.board.sensors() == before
    assert h.changes.items == []
    _still_working(h, before)


def test_replug_after_pieces_moved_reports_one_fresh_snapshot_after_link_up(
    harness: Harness,
) -> None:
    h = harness
    _set_up_position(h)
    order: list[str] = []
    h.board.when_link_changed = lambda up: order.append(f"link {up}")
    h.board.when_changed = lambda reading: order.append(f"changed {sorted(reading.sensed)}")
    h.unplug()
    h.board.poll(h.clock())
    h.lift("d6")
    h.place("e5")
    h.device.replug()
    h.drive_until_up()
    assert eventually(lambda: len(order) >= 3)
    assert order == ["link False", "link True", "changed ['a7', 'c4', 'e5']"]


def test_lights_are_restored_after_replug(harness: Harness) -> None:
    h = harness
    h.board.show({"b6": Signal.ON})
    h.unplug()
    h.device.replug()  # a fresh firmware shows nothing
    assert not h.sim.lit(POINT_INDEX["b6"])
    h.drive_until_up()
    assert h.sim.lit(POINT_INDEX["b6"]) or eventually(lambda: h.sim.lit(POINT_INDEX["b6"]))


def test_silent_device_takes_the_link_down_then_back_within_2s(harness: Harness) -> None:
    h = harness
    before = _set_up_position(h)
    h.device.silent = True
    h.clock.advance(1.0)
    h.board.poll(h.clock())
    assert h.board.is_link_up  # 1 s of silence is within the 2 s heartbeat timeout
    h.clock.advance(1.5)
    h.board.poll(h.clock())
    assert h.board.link_state is not LinkState.UP
    assert h.links.items == [False]
    h.place("f2")  # moved while the device could not tell
    for _ in range(4):  # reconnect attempts meet silence
        h.clock.set(h.board.poll(h.clock()))
    h.device.silent = False
    took = h.drive_until_up()
    assert took <= 2.0
    assert h.links.wait_for(lambda items: items == [False, True])
    h.wait_sensors(set(before) | {"f2"})
    assert len(h.changes.items) == 1


def test_garbage_bytes_change_nothing(harness: Harness) -> None:
    h = harness
    before = _set_up_position(h)
    rng = random.Random(7)
    for _ in range(20):
        h.device.write_raw(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))))
    h.device.write_raw(os.urandom(0) + b"\x00")  # end any partial garbage frame
    _still_working(h, before)
    assert h.board.stats.bad_frames + h.board.stats.crc_errors > 0


def test_truncated_frames_change_nothing(harness: Harness) -> None:
    h = harness
    before = _set_up_position(h)
    seq = _seq(h)
    phantom = P.encode_frame(P.CHANGE, P.pack_change(seq + 1, 0, 1 << 23, 0xFFFFFF))
    for cut in range(1, len(phantom) - 1, 3):
        h.device.write_raw(phantom[:cut] + b"\x00")
    _still_working(h, before)


def test_bad_crc_frames_are_dropped(harness: Harness) -> None:
    h = harness
    before = _set_up_position(h)
    seq = _seq(h)
    raw = bytearray(P.cobs_decode(P.encode_frame(P.CHANGE, P.pack_change(seq + 1, 0, 1, 1))[:-1]))
    raw[-1] ^= 0xFF
    h.device.write_raw(P.cobs_encode(bytes(raw)) + b"\x00")
    _still_working(h, before)
    assert h.board.stats.crc_errors == 1


def test_repeated_sequence_numbers_are_ignored(harness: Harness) -> None:
    h = harness
    before = _set_up_position(h)
    seq = _seq(h)
    stale = P.encode_frame(P.CHANGE, P.pack_change(seq, 0, 0xFFFFFF, 0))  # "everything lifted"
    for _ in range(3):
        h.device.write_raw(stale)
    _still_working(h, before)
    assert h.board.stats.duplicates >= 3


def test_missing_sequence_numbers_trigger_a_fresh_snapshot(harness: Harness) -> None:
    h = harness
    before = _set_up_position(h)
    seq = _seq(h)
    # A change that claims events were missed: not applied; the snapshot tells the truth.
    h.device.write_raw(P.encode_frame(P.CHANGE, P.pack_change(seq + 5, 0, 1 << 20, 1 << 20)))
    assert eventually(lambda: h.board.stats.resyncs >= 1)
    assert h.board.stats.gaps >= 1
    assert h.board.sensors() == before
    _still_working(h, before)


def test_a_lost_change_is_recovered_from_the_heartbeat(harness: Harness) -> None:
    h = harness
    before = _set_up_position(h)
    # The device moves on without the host hearing of it (a CHANGE lost on the line).
    h.device.call(lambda fw: setattr(fw, "sensor_seq", fw.sensor_seq + 1))
    assert eventually(lambda: h.board.stats.resyncs >= 1)
    _still_working(h, before)


def test_unknown_frame_types_are_skipped(harness: Harness) -> None:
    h = harness
    before = _set_up_position(h)
    for ftype in (0x40, 0x7F, 0xFE):
        h.device.write_raw(P.encode_frame(ftype, b"a newer firmware says hi"))
    _still_working(h, before)
    assert h.board.stats.unknown_types == {0x40, 0x7F, 0xFE}


def test_device_error_frames_are_logged_not_fatal(harness: Harness) -> None:
    h = harness
    before = _set_up_position(h)
    h.device.write_raw(P.encode_frame(P.ERROR, P.pack_error(P.E_HARDWARE, 0, "LED chain open")))
    h.device.write_raw(P.encode_frame(P.CHANGE, b"short"))  # a payload too short
    _still_working(h, before)
    assert h.board.stats.device_errors == 1 and h.board.stats.payload_errors == 1
    assert "CHANGE" in h.board.stats.last_error


def test_a_flood_of_frames_is_survived(harness: Harness) -> None:
    h = harness
    before = _set_up_position(h)
    seq = _seq(h)
    beat = P.encode_frame(P.HEARTBEAT, P.pack_heartbeat(0, seq, 0))
    dup = P.encode_frame(P.CHANGE, P.pack_change(seq, 0, 0xFFFFFF, 0))
    junk = bytes(range(1, 200)) + b"\x00"
    h.device.write_raw((beat + dup + junk + P.encode_frame(0x66, b"x" * 200)) * 2000)
    assert eventually(lambda: h.board.stats.duplicates >= 2000)
    _still_working(h, before)


def test_device_reboot_takes_a_fresh_snapshot(harness: Harness) -> None:
    h = harness
    before = _set_up_position(h)
    hello = P.pack_hello((1, 0, 0), 0xB007, 24, 28, 4, 4, 1, 500)
    h.device.write_raw(P.encode_frame(P.HELLO, hello))  # a HELLO with a new boot id
    assert h.links.wait_for(lambda items: items == [False, True])
    assert h.board.sensors() == before
    _still_working(h, before)


def test_a_device_that_stops_reading_never_stalls_show_or_sensing(harness: Harness) -> None:
    import time

    h = harness
    before = _set_up_position(h)
    # The firmware stops draining the pty: the host's writes fill it, then block.
    h.device.call(lambda fw: setattr(fw.port, "read", lambda: b""))
    names = sorted(POINT_INDEX)
    slowest = 0.0
    for i in range(3000):
        start = time.monotonic()
        h.board.show({names[i % 24]: Signal.ON, names[(i * 7) % 24]: Signal.SLOW})
        h.board.poll(h.clock())
        slowest = max(slowest, time.monotonic() - start)
    assert slowest < 0.2, f"show() and poll() took up to {slowest:.2f} s"
    # A piece placed meanwhile is still sensed and reported.
    h.place("g1")
    h.wait_sensors(set(before) | {"g1"})
    assert h.board.stats.frames_dropped > 0  # old LIGHTS frames were replaced, not queued


def test_frame_errors_are_warned_about_with_counts_at_most_every_interval(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    import logging

    h = harness
    before = _set_up_position(h)
    # Shorter than the heartbeat timeout, so that moving the host's clock past it keeps the link.
    h.board._frames.noise.interval = 1.0
    seq = _seq(h)
    raw = bytearray(P.cobs_decode(P.encode_frame(P.CHANGE, P.pack_change(seq + 1, 0, 1, 1))[:-1]))
    raw[-1] ^= 0xFF
    bad_crc = P.cobs_encode(bytes(raw)) + b"\x00"
    caplog.set_level(logging.WARNING, logger="firmware_bridge")
    for _ in range(5):
        h.device.write_raw(bad_crc)
    assert eventually(lambda: h.board.stats.crc_errors == 5)
    noisy = [r.getMessage() for r in caplog.records if "noisy link" in r.getMessage()]
    assert len(noisy) == 1 and "1 CRC error " in noisy[0]  # the first at once, the rest held
    h.clock.advance(1.0)
    h.board.poll(h.clock())
    noisy = [r.getMessage() for r in caplog.records if "noisy link" in r.getMessage()]
    assert len(noisy) == 2 and "4 CRC errors" in noisy[1] and h.device.url in noisy[1]
    _still_working(h, before)
