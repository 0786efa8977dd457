"""Properties of the decoder: whatever bytes arrive, it never raises and never lies."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as P
from firmware_bridge.link import FramedProtocol

frames_st = st.tuples(st.integers(0, 255), st.binary(max_size=60))


def _crc_ok(ftype: int, payload: bytes) -> bool:
    raw = P.cobs_decode(P.encode_frame(ftype, payload)[:-1])
    return P.crc16(raw[:-2]) == (raw[-2] << 8 | raw[-1])


@given(st.lists(st.binary(max_size=300), max_size=20))
@settings(max_examples=300)
def test_any_byte_stream_never_raises_and_yields_only_good_crcs(chunks: list[bytes]) -> None:
    decoder = P.FrameDecoder()
    stream = b"".join(chunks)
    for chunk in chunks:
        frames, errors = decoder.feed(chunk)
        for ftype, payload in frames:
            assert 0 <= ftype <= 255
            # Only what a sender could have sent: the exact encoding is in the input.
            assert P.encode_frame(ftype, payload)[:-1] in stream
        for code, detail in errors:
            assert code in P.ERROR_NAMES and detail


@given(st.lists(frames_st, max_size=15), st.lists(st.binary(max_size=40), max_size=15), st.data())
def test_good_frames_survive_interleaved_garbage(
    frames: list[tuple[int, bytes]], garbage: list[bytes], data: st.DataObject
) -> None:
    stream = b""
    for i, (ftype, payload) in enumerate(frames):
        junk = garbage[i] if i < len(garbage) else b""
        # Garbage ends with a delimiter, as a line glitch followed by the sender's next frame does.
        stream += junk + b"\x00" + P.encode_frame(ftype, payload)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    decoder = P.FrameDecoder()
    got: list[tuple[int, bytes]] = []
    start = 0
    for cut in [*cuts, len(stream)]:
        got += decoder.feed(stream[start:cut])[0]
        start = cut
    # Every frame sent arrives, in order; garbage can add a frame only if it holds a valid one.
    it = iter(got)
    assert all(any(frame == g for g in it) for frame in frames)


@given(st.lists(frames_st, max_size=10))
def test_encoded_frames_decode_exactly(frames: list[tuple[int, bytes]]) -> None:
    stream = b"".join(P.encode_frame(t, p) for t, p in frames)
    assert P.FrameDecoder().feed(stream) == (frames, [])
    assert all(_crc_ok(t, p) for t, p in frames)


@given(st.lists(st.binary(max_size=200), max_size=10))
def test_reader_protocol_survives_anything(chunks: list[bytes]) -> None:
    seen: list[tuple[int, bytes]] = []

    def on_frame(ftype: int, payload: bytes) -> None:
        seen.append((ftype, payload))
        raise RuntimeError("a handler that fails must not stop the reader")

    proto = FramedProtocol(on_frame, lambda exc: None, lambda exc: None)
    for chunk in chunks:
        proto.data_received(chunk)  # never raises
    assert proto.bytes_in == sum(map(len, chunks))
