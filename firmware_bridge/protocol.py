"""The wire protocol between the Pi and the board's microcontroller (see PROTOCOL.md).

This one file runs on both ends: imported as ``firmware_bridge.protocol`` on the Pi, and copied
as ``protocol.py`` onto the Pico beside the firmware. It must therefore stay valid MicroPython:
no ``__future__`` imports, no ``typing``, no dataclasses or enums, annotations only with builtin
names (MicroPython parses them but never evaluates them), and nothing here may raise out of the
stream decoder, whatever bytes arrive.

A frame on the wire is ``COBS(type | payload | crc16) 0x00``: the type byte, the payload, and a
CRC-16/CCITT-FALSE (big-endian) over type and payload, COBS-encoded so that ``0x00`` only ever
marks the end of a frame. A receiver that sees garbage simply drops bytes until the next
``0x00`` and is in step again.

>>> frame = encode_frame(HEARTBEAT, b"")
>>> frame[-1]
0
>>> decoder = FrameDecoder()
>>> frames, errors = decoder.feed(b"noise\\x00" + frame)
>>> frames
[(8, b'')]
>>> errors[0][0] == E_BAD_CRC or errors[0][0] == E_BAD_FRAME
True
"""

import struct

try:  # noqa: SIM105 (MicroPython has no contextlib) - typing is for annotations only
    from typing import Any
except ImportError:
    pass

#: Protocol version spoken here: (major, minor). A peer with another *major* is refused; minor
#: versions only add frame types and append fields to payloads, which older peers ignore.
PROTOCOL_MAJOR = 1
PROTOCOL_MINOR = 1

#: Largest decoded frame (type + payload + CRC), in bytes.
MAX_FRAME = 256
#: Largest encoded frame without its delimiter: COBS adds one byte per 254 and one at the start.
MAX_ENCODED = MAX_FRAME + MAX_FRAME // 254 + 1

# Frame types. Device -> host: HELLO, SNAPSHOT, CHANGE, BUTTON. Host -> device: HELLO_REQUEST,
# SNAPSHOT_REQUEST, LIGHTS, CONTROL. Both ways: HEARTBEAT, ERROR.
HELLO = 0x01
HELLO_REQUEST = 0x02
SNAPSHOT_REQUEST = 0x03
SNAPSHOT = 0x04
CHANGE = 0x05
LIGHTS = 0x06
BUTTON = 0x07
HEARTBEAT = 0x08
ERROR = 0x09
CONTROL = 0x0A

FRAME_NAMES = {
    HELLO: "HELLO",
    HELLO_REQUEST: "HELLO_REQUEST",
    SNAPSHOT_REQUEST: "SNAPSHOT_REQUEST",
    SNAPSHOT: "SNAPSHOT",
    CHANGE: "CHANGE",
    LIGHTS: "LIGHTS",
    BUTTON: "BUTTON",
    HEARTBEAT: "HEARTBEAT",
    ERROR: "ERROR",
    CONTROL: "CONTROL",
}

# Signal codes in LIGHTS (the order of morris_device.Signal). A code a receiver does not
# know is shown steady on: a newer host's signal is never silently hidden.
SIG_OFF = 0
SIG_ON = 1
SIG_SLOW = 2
SIG_FAST = 3

#: Blink (period, time on) in milliseconds, the same as morris_device.BLINK_TIMING (which the
#: firmware cannot import; tests/firmware_bridge/test_bridge_protocol.py holds them equal): lit
#: first.
BLINK_MS = {SIG_SLOW: (1000, 500), SIG_FAST: (250, 125)}

# LED drivers announced in HELLO.
LED_NONE = 0
LED_WS2812 = 1
LED_HC595 = 2

# CONTROL commands.
CTL_EXIT_TO_REPL = 1
CTL_RESET = 2
CTL_BOOTLOADER = 3

# Error codes, in ERROR frames and in the decoder's error list.
E_BAD_FRAME = 1  # COBS could not be decoded, or the frame is shorter than type + CRC
E_BAD_CRC = 2
E_TOO_LONG = 3  # no delimiter within MAX_ENCODED bytes; the bytes up to the next 0x00 dropped
E_UNKNOWN_TYPE = 4
E_BAD_PAYLOAD = 5
E_VERSION = 6
E_OVERFLOW = 7  # the sender dropped frames it could not send
E_HARDWARE = 8

ERROR_NAMES = {
    E_BAD_FRAME: "bad frame",
    E_BAD_CRC: "bad CRC",
    E_TOO_LONG: "frame too long",
    E_UNKNOWN_TYPE: "unknown frame type",
    E_BAD_PAYLOAD: "bad payload",
    E_VERSION: "unsupported protocol version",
    E_OVERFLOW: "overflow",
    E_HARDWARE: "hardware fault",
}


def _make_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _make_table()


def _crc16_table(data: bytes, crc: int = 0xFFFF) -> int:
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


try:  # CPython has it in C; MicroPython's binascii does not.
    from binascii import crc_hqx as _crc_hqx  # type: ignore[attr-defined,unused-ignore]

    def crc16(data: bytes, crc: int = 0xFFFF) -> int:
        """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): ``crc16(b"123456789") == 0x29B1``."""
        return _crc_hqx(data, crc)

except ImportError:
    crc16 = _crc16_table


def cobs_encode(data: bytes) -> bytes:
    """COBS-encode ``data``: the result has no zero byte and is at most 1 + len/254 longer."""
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out.extend(block)
                block = bytearray()
    out.append(len(block) + 1)
    out.extend(block)
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo :func:`cobs_encode`; raises ``ValueError`` naming the problem if it is not COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError(f"zero byte inside a COBS block at offset {i}")
        end = i + code
        if end > n:
            raise ValueError(f"COBS block at offset {i} runs past the end ({end} > {n})")
        out.extend(data[i + 1 : end])
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(ftype: int, payload: bytes = b"") -> bytes:
    """One frame ready to write: COBS(type | payload | CRC) followed by the ``0x00`` delimiter."""
    body = bytes([ftype]) + bytes(payload)
    if len(body) + 2 > MAX_FRAME:
        raise ValueError(f"frame of {len(body) + 2} bytes exceeds MAX_FRAME={MAX_FRAME}")
    crc = crc16(body)
    return cobs_encode(body + bytes([crc >> 8, crc & 0xFF])) + b"\x00"


def decode_frame(encoded: bytes) -> tuple[int, bytes]:
    """Decode one frame without its delimiter into ``(type, payload)``.

    Raises ``ValueError`` (message naming the problem) for bad COBS, a short frame or a bad CRC.
    """
    raw = cobs_decode(encoded)
    if len(raw) < 3:
        raise ValueError(f"frame of {len(raw)} bytes is shorter than type + CRC")
    body = raw[:-2]
    got = (raw[-2] << 8) | raw[-1]
    want = crc16(body)
    if got != want:
        raise ValueError(f"bad CRC: frame says 0x{got:04x}, computed 0x{want:04x}")
    return body[0], bytes(body[1:])


class FrameDecoder:
    """Turns a byte stream into frames; garbage, truncated and corrupt frames become errors.

    ``feed(data)`` returns ``(frames, errors)``: ``frames`` is a list of ``(type, payload)``
    with a verified CRC, ``errors`` a list of ``(code, detail)`` with ``code`` one of the ``E_*``
    constants. It never raises, whatever ``data`` holds.
    """

    def __init__(self, max_encoded: int = MAX_ENCODED) -> None:
        self.max_encoded = max_encoded
        self._buf = b""
        self._discarding = False

    def reset(self) -> None:
        """Forget any partial frame (after the link was reopened)."""
        self._buf = b""
        self._discarding = False

    def feed(self, data: bytes) -> tuple[list[tuple[int, bytes]], list[tuple[int, str]]]:
        frames: list[tuple[int, bytes]] = []
        errors: list[tuple[int, str]] = []
        buf = self._buf + bytes(data)
        start = 0
        while True:
            end = buf.find(b"\x00", start)
            if end < 0:
                break
            chunk = buf[start:end]
            start = end + 1
            if self._discarding:
                self._discarding = False
                continue
            if not chunk:
                continue  # an empty frame: senders may send a lone 0x00 to flush a receiver
            if len(chunk) > self.max_encoded:
                errors.append((E_TOO_LONG, f"frame of {len(chunk)} bytes before its delimiter"))
                continue
            self._decode(chunk, frames, errors)
        rest = buf[start:]
        if len(rest) > self.max_encoded:
            if not self._discarding:
                errors.append((E_TOO_LONG, f"no delimiter within {self.max_encoded} bytes"))
            self._discarding = True
            rest = b""
        self._buf = rest
        return frames, errors

    @staticmethod
    def _decode(
        chunk: bytes, frames: list[tuple[int, bytes]], errors: list[tuple[int, str]]
    ) -> None:
        try:
            raw = cobs_decode(chunk)
        except ValueError as exc:
            errors.append((E_BAD_FRAME, str(exc)))
            return
        if len(raw) < 3:
            errors.append((E_BAD_FRAME, f"frame of {len(raw)} bytes is shorter than type + CRC"))
            return
        body = raw[:-2]
        got = (raw[-2] << 8) | raw[-1]
        want = crc16(body)
        if got != want:
            detail = f"type 0x{body[0]:02x}: frame says 0x{got:04x}, computed 0x{want:04x}"
            errors.append((E_BAD_CRC, detail))
            return
        frames.append((body[0], bytes(body[1:])))


# --- payloads ------------------------------------------------------------------------------
# Every unpack_* accepts a longer payload than it knows (a newer peer appends fields) and raises
# ValueError naming the frame if the payload is too short.

_HELLO = ">BBBBBIBBBBBHB"  # major minor fw.major fw.minor fw.patch boot_id sensors leds status
#                            buttons led_driver heartbeat_ms flags
_SNAPSHOT = ">HII"  # seq time_ms sensed
_CHANGE = ">HIII"  # seq time_ms changed sensed
_BUTTON = ">HIBB"  # seq time_ms index pressed
_HEARTBEAT = ">IHH"  # time_ms sensor_seq lights_generation
_LIGHTS_HEAD = ">HBB"  # generation n_points n_status


def _unpack(fmt: str, payload: bytes, name: str) -> tuple[Any, ...]:
    size = struct.calcsize(fmt)
    if len(payload) < size:
        raise ValueError(f"{name} payload of {len(payload)} bytes, need at least {size}")
    return struct.unpack(fmt, payload[:size])


def pack_hello(
    firmware: tuple[int, int, int],
    boot_id: int,
    sensors: int,
    leds: int,
    status: int,
    buttons: int,
    led_driver: int,
    heartbeat_ms: int,
    flags: int = 0,
) -> bytes:
    """HELLO: protocol version, firmware (major, minor, patch), boot id and capabilities."""
    return struct.pack(
        _HELLO,
        PROTOCOL_MAJOR,
        PROTOCOL_MINOR,
        firmware[0],
        firmware[1],
        firmware[2],
        boot_id & 0xFFFFFFFF,
        sensors,
        leds,
        status,
        buttons,
        led_driver,
        heartbeat_ms,
        flags,
    )


def unpack_hello(payload: bytes) -> tuple[Any, ...]:
    """``(major, minor, (fw major, minor, patch), boot_id, sensors, leds, status, buttons,
    led_driver, heartbeat_ms, flags)``"""
    v = _unpack(_HELLO, payload, "HELLO")
    return (v[0], v[1], (v[2], v[3], v[4]), v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12])


def pack_hello_request() -> bytes:
    return bytes([PROTOCOL_MAJOR, PROTOCOL_MINOR])


def unpack_hello_request(payload: bytes) -> tuple[int, int]:
    """``(major, minor)`` of the host's protocol."""
    major, minor = _unpack(">BB", payload, "HELLO_REQUEST")
    return major, minor


def pack_snapshot(seq: int, time_ms: int, sensed: int) -> bytes:
    return struct.pack(_SNAPSHOT, seq & 0xFFFF, time_ms & 0xFFFFFFFF, sensed)


def unpack_snapshot(payload: bytes) -> tuple[int, int, int]:
    """``(seq, time_ms, sensed)``; ``sensed`` has bit ``i`` set when sensor ``i`` is."""
    seq, time_ms, sensed = _unpack(_SNAPSHOT, payload, "SNAPSHOT")
    return seq, time_ms, sensed


def pack_change(seq: int, time_ms: int, changed: int, sensed: int) -> bytes:
    return struct.pack(_CHANGE, seq & 0xFFFF, time_ms & 0xFFFFFFFF, changed, sensed)


def unpack_change(payload: bytes) -> tuple[int, int, int, int]:
    """``(seq, time_ms, changed, sensed)``: the bits that changed and the whole state after."""
    seq, time_ms, changed, sensed = _unpack(_CHANGE, payload, "CHANGE")
    return seq, time_ms, changed, sensed


def pack_button(seq: int, time_ms: int, index: int, pressed: bool) -> bytes:
    return struct.pack(_BUTTON, seq & 0xFFFF, time_ms & 0xFFFFFFFF, index, 1 if pressed else 0)


def unpack_button(payload: bytes) -> tuple[int, int, int, bool]:
    """``(seq, time_ms, index, pressed)``"""
    seq, time_ms, index, pressed = _unpack(_BUTTON, payload, "BUTTON")
    return seq, time_ms, index, pressed != 0


def pack_heartbeat(time_ms: int, sensor_seq: int, lights_generation: int) -> bytes:
    return struct.pack(
        _HEARTBEAT, time_ms & 0xFFFFFFFF, sensor_seq & 0xFFFF, lights_generation & 0xFFFF
    )


def unpack_heartbeat(payload: bytes) -> tuple[int, int, int]:
    """``(time_ms, sensor_seq, lights_generation)`` (a host's heartbeat may be empty)."""
    time_ms, sensor_seq, generation = _unpack(_HEARTBEAT, payload, "HEARTBEAT")
    return time_ms, sensor_seq, generation


def pack_lights(generation: int, points: list[int], status: list[int]) -> bytes:
    """LIGHTS: a generation number (1..65535; 0 means "none") and one signal code per LED."""
    return (
        struct.pack(_LIGHTS_HEAD, generation & 0xFFFF, len(points), len(status))
        + bytes(points)
        + bytes(status)
    )


def unpack_lights(payload: bytes) -> tuple[int, bytes, bytes]:
    """``(generation, points, status)`` with ``points`` and ``status`` as bytes of signal codes."""
    generation, n_points, n_status = _unpack(_LIGHTS_HEAD, payload, "LIGHTS")
    need = 4 + n_points + n_status
    if len(payload) < need:
        raise ValueError(f"LIGHTS payload of {len(payload)} bytes, need {need}")
    return generation, payload[4 : 4 + n_points], payload[4 + n_points : need]


def pack_error(code: int, ref_type: int, message: str) -> bytes:
    text = message.encode("utf-8")[:200]
    return bytes([code & 0xFF, ref_type & 0xFF]) + text


def unpack_error(payload: bytes) -> tuple[int, int, str]:
    """``(code, ref_type, message)``; ``ref_type`` is the frame type it is about, or 0."""
    code, ref_type = _unpack(">BB", payload, "ERROR")
    return code, ref_type, payload[2:].decode("utf-8", "replace")


def pack_control(command: int) -> bytes:
    return bytes([command])


def unpack_control(payload: bytes) -> int:
    command: int = _unpack(">B", payload, "CONTROL")[0]
    return command


def seq_delta(new: int, old: int) -> int:
    """How far 16-bit sequence number ``new`` is ahead of ``old``, in -32768..32767."""
    return ((new - old + 0x8000) & 0xFFFF) - 0x8000


def signal_lit(code: int, time_ms: int, since_ms: int) -> bool:
    """Whether an LED showing signal ``code`` since ``since_ms`` is lit at ``time_ms``.

    A blink starts lit when the LED takes the code, as ``morris_device.signal_level`` has it.
    """
    if code == SIG_OFF:
        return False
    timing = BLINK_MS.get(code)
    if timing is None:
        return True
    return (time_ms - since_ms) % timing[0] < timing[1]
