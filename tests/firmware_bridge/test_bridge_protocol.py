"""The wire format shared by both ends: framing, CRC, payloads, version rules."""

from __future__ import annotations

from typing import cast

import pytest

from firmware_bridge import protocol as P
from firmware_bridge.firmware.config import CONFIG
from firmware_bridge.lights import SIGNAL_CODES
from morris_device import BLINK_TIMING, Signal, signal_level


def test_crc_is_ccitt_false_on_both_implementations() -> None:
    assert P.crc16(b"123456789") == 0x29B1
    assert P._crc16_table(b"123456789") == 0x29B1
    data = bytes(range(256)) * 3
    assert P._crc16_table(data) == P.crc16(data)


@pytest.mark.parametrize("data", [b"", b"\x00", b"\x00\x00", b"a\x00b", bytes(range(256)) * 2])
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    encoded = P.cobs_encode(data)
    assert 0 not in encoded
    assert P.cobs_decode(encoded) == data


def test_cobs_decode_names_the_problem() -> None:
    with pytest.raises(ValueError, match="runs past the end"):
        P.cobs_decode(b"\x05ab")
    with pytest.raises(ValueError, match="zero byte"):
        P.cobs_decode(b"\x02a\x00")


def test_frame_round_trip() -> None:
    frame = P.encode_frame(P.CHANGE, P.pack_change(7, 1234, 0b101, 0b100))
    assert frame.endswith(b"\x00") and frame.count(0) == 1
    ftype, payload = P.decode_frame(frame[:-1])
    assert ftype == P.CHANGE
    assert P.unpack_change(payload) == (7, 1234, 0b101, 0b100)


def test_oversized_frame_is_refused() -> None:
    with pytest.raises(ValueError, match="exceeds MAX_FRAME"):
        P.encode_frame(P.ERROR, bytes(P.MAX_FRAME))


def test_decoder_resynchronises_after_garbage_and_reports_it() -> None:
    good = P.encode_frame(P.HEARTBEAT, P.pack_heartbeat(1, 2, 3))
    decoder = P.FrameDecoder()
    frames, errors = decoder.feed(b"\xff\xfe junk \x01\x00" + good + good)
    assert frames == [(P.HEARTBEAT, P.pack_heartbeat(1, 2, 3))] * 2
    assert [code for code, _ in errors] == [P.E_BAD_FRAME]


def test_bad_crc_is_reported_not_delivered() -> None:
    raw = bytearray(P.cobs_decode(P.encode_frame(P.SNAPSHOT, P.pack_snapshot(1, 2, 3))[:-1]))
    raw[3] ^= 0x40
    frames, errors = P.FrameDecoder().feed(P.cobs_encode(bytes(raw)) + b"\x00")
    assert frames == []
    assert errors[0][0] == P.E_BAD_CRC and "computed" in errors[0][1]


def test_truncated_frame_costs_only_itself_and_the_frame_it_merges_with() -> None:
    one = P.encode_frame(P.HEARTBEAT, P.pack_heartbeat(1, 1, 1))
    two = P.encode_frame(P.HEARTBEAT, P.pack_heartbeat(2, 2, 2))
    frames, errors = P.FrameDecoder().feed(one[:5] + one + two)
    # The cut-off bytes run into the next frame up to its delimiter: one error, then in step.
    assert frames == [(P.HEARTBEAT, P.pack_heartbeat(2, 2, 2))]
    assert len(errors) == 1


def test_stream_without_delimiter_is_bounded() -> None:
    decoder = P.FrameDecoder()
    _, errors = decoder.feed(b"\x01" * (P.MAX_ENCODED * 3))
    assert [code for code, _ in errors] == [P.E_TOO_LONG]
    _, errors = decoder.feed(b"\x01" * 10 + b"\x00")  # still the same overlong run: dropped
    assert errors == []
    good = P.encode_frame(P.HEARTBEAT, b"")
    assert decoder.feed(good) == ([(P.HEARTBEAT, b"")], [])


def test_frames_split_anywhere_decode_the_same() -> None:
    stream = b"".join(P.encode_frame(P.BUTTON, P.pack_button(i, i, i % 4, True)) for i in range(20))
    decoder = P.FrameDecoder()
    frames = []
    for i in range(len(stream)):
        frames += decoder.feed(stream[i : i + 1])[0]
    assert [P.unpack_button(p)[0] for _, p in frames] == list(range(20))


def test_newer_peer_longer_payload_is_read_by_its_known_prefix() -> None:
    payload = P.pack_snapshot(3, 4, 5) + b"new fields"
    assert P.unpack_snapshot(payload) == (3, 4, 5)


def test_short_payload_names_the_frame() -> None:
    with pytest.raises(ValueError, match="CHANGE payload of 3 bytes"):
        P.unpack_change(b"abc")
    with pytest.raises(ValueError, match="LIGHTS payload"):
        P.unpack_lights(P.pack_lights(1, [1] * 24, [0] * 4)[:10])


def test_hello_round_trip() -> None:
    payload = P.pack_hello((1, 2, 3), 0xDEADBEEF, 24, 28, 4, 4, P.LED_WS2812, 500)
    major, minor, fw, boot, sensors, leds, status, buttons, driver, hb, flags = P.unpack_hello(
        payload
    )
    assert (major, minor) == (P.PROTOCOL_MAJOR, P.PROTOCOL_MINOR)
    assert (fw, boot, sensors, leds, status, buttons, driver, hb, flags) == (
        (1, 2, 3), 0xDEADBEEF, 24, 28, 4, 4, P.LED_WS2812, 500, 0,
    )  # fmt: skip


def test_lights_and_error_round_trip() -> None:
    points = [P.SIG_ON, P.SIG_SLOW] + [P.SIG_OFF] * 22
    assert P.unpack_lights(P.pack_lights(9, points, [P.SIG_FAST] * 4)) == (
        9, bytes(points), bytes([P.SIG_FAST] * 4),
    )  # fmt: skip
    assert P.unpack_error(P.pack_error(P.E_BAD_CRC, P.CHANGE, "oops")) == (
        P.E_BAD_CRC, P.CHANGE, "oops",
    )  # fmt: skip


def test_sequence_numbers_wrap() -> None:
    assert P.seq_delta(0, 0xFFFF) == 1
    assert P.seq_delta(5, 5) == 0
    assert P.seq_delta(3, 5) == -2
    assert P.seq_delta(0x10, 0xFFF0) == 0x20


def test_every_signal_has_its_code_in_the_order_of_signal() -> None:
    assert {signal: code for code, signal in enumerate(Signal)} == SIGNAL_CODES


def test_the_firmware_blinks_exactly_the_signals_of_the_shared_timing() -> None:
    # The firmware cannot import morris_device: its BLINK_MS is held to BLINK_TIMING here.
    assert {
        SIGNAL_CODES[signal]: (round(period * 1000), round(on * 1000))
        for signal, (period, on) in BLINK_TIMING.items()
    } == P.BLINK_MS


def test_the_firmware_has_a_colour_for_every_lit_signal() -> None:
    colours = cast(dict[int, object], CONFIG["colors"])
    assert set(colours) == {SIGNAL_CODES[signal] for signal in Signal if signal is not Signal.OFF}


@pytest.mark.parametrize("signal", list(Signal))
def test_device_blinking_matches_the_shared_timing(signal: Signal) -> None:
    code = SIGNAL_CODES[signal]
    for since in (0, 370, 1234):
        for ms in range(since, since + 3000, 5):
            expected = signal_level(signal, ms / 1000, since / 1000)
            assert P.signal_lit(code, ms, since) == expected, (ms, since)


def test_a_blink_on_the_device_starts_lit_when_the_led_takes_it() -> None:
    for code in (P.SIG_SLOW, P.SIG_FAST):
        for since in (0, 1, 499, 777):
            assert P.signal_lit(code, since, since)
            assert not P.signal_lit(code, since + P.BLINK_MS[code][1], since)


def test_unknown_signal_code_is_shown_on() -> None:
    assert P.signal_lit(9, 0, 0) and P.signal_lit(9, 777, 3)
