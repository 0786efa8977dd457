# mypy: allow-untyped-defs, allow-incomplete-defs, allow-untyped-calls, allow-any-generics
"""The board firmware's logic: scan, debounce, light, and speak the protocol.

Runs on the Pico under MicroPython (flashed as ``boardfw.py`` beside ``protocol.py``,
``config.py`` and ``main.py``) and on CPython in the tests, where ``machine`` and ``neopixel``
are stand-ins (:mod:`firmware_bridge.emulator`). Nothing here imports ``machine``: the modules
are passed in, and time is passed to :meth:`Firmware.tick` as a value, so tests run it in
virtual time. Valid MicroPython only: no typing, no dataclasses, no f-string specials.
"""

try:
    from firmware_bridge import protocol as P
except ImportError:  # on the Pico, protocol.py sits beside this file
    import protocol as P  # type: ignore[import-not-found,no-redef]

FIRMWARE_VERSION = (1, 1, 0)

# MicroPython's ticks_ms() wraps at 2**30; all arithmetic on raw ticks goes through ticks_diff.
TICKS_PERIOD = 1 << 30
_TICKS_HALF = TICKS_PERIOD // 2

ERROR_INTERVAL_MS = 100  # at most one ERROR frame about garbage per this many ms


def ticks_diff(new, old):
    """``new - old`` for ticks that wrap at TICKS_PERIOD (as ``time.ticks_diff``)."""
    return ((new - old + _TICKS_HALF) % TICKS_PERIOD) - _TICKS_HALF


class Debouncer:
    """Accepts a bit's new value only once it read the same for ``debounce_ms`` without a break.

    A weak magnet flickering at a point, or a piece slid across it, never changes the state.
    """

    def __init__(self, count, debounce_ms, initial=0):
        self.count = count
        self.debounce_ms = debounce_ms
        self.stable = initial
        self._since = [0] * count
        self._pending = 0  # bits whose raw value differs from stable, since _since[i]

    def update(self, raw, now):
        """Feed one raw reading at ``now`` (ms); return the debounced state."""
        diff = raw ^ self.stable
        if not diff and not self._pending:
            return self.stable
        since = self._since
        for i in range(self.count):
            bit = 1 << i
            if diff & bit:
                if not self._pending & bit:
                    self._pending |= bit
                    since[i] = now
                if now - since[i] >= self.debounce_ms:
                    self.stable ^= bit
                    self._pending &= ~bit
            else:
                self._pending &= ~bit
        return self.stable


class MatrixScanner:
    """Reads a diode matrix: ring lines driven one at a time, position lines read back."""

    def __init__(self, machine, ring_pins, position_pins, active_high=True):
        Pin = machine.Pin
        self._active = 1 if active_high else 0
        idle = 1 - self._active
        self._rings = [Pin(p, Pin.OUT, value=idle) for p in ring_pins]
        pull = Pin.PULL_DOWN if active_high else Pin.PULL_UP
        self._positions = [Pin(p, Pin.IN, pull) for p in position_pins]
        self.count = len(ring_pins) * len(position_pins)

    def read(self):
        """One full scan; bit ``ring * positions + position`` set where a piece is sensed."""
        active = self._active
        idle = 1 - active
        width = len(self._positions)
        mask = 0
        for r, ring in enumerate(self._rings):
            ring.value(active)
            base = r * width
            for c, pos in enumerate(self._positions):
                if pos.value() == active:
                    mask |= 1 << (base + c)
            ring.value(idle)
        return mask


class ButtonBank:
    """Buttons to ground with internal pull-ups; bit ``i`` set while button ``i`` is held."""

    def __init__(self, machine, pins):
        Pin = machine.Pin
        self._pins = [Pin(p, Pin.IN, Pin.PULL_UP) for p in pins]
        self.count = len(pins)

    def read(self):
        mask = 0
        for i, pin in enumerate(self._pins):
            if not pin.value():
                mask |= 1 << i
        return mask


class Ws2812Leds:
    """A WS2812 chain; each LED shows its signal's colour when lit. Writes only on a change."""

    driver = P.LED_WS2812

    def __init__(self, machine, neopixel, pin, count, colors):
        self.count = count
        self._np = neopixel.NeoPixel(machine.Pin(pin, machine.Pin.OUT), count)
        self._colors = colors
        self._on = colors.get(P.SIG_ON, (40, 40, 40))

    def write(self, frame):
        """``frame[i]`` is the signal code LED ``i`` is lit with, or 0 for dark."""
        np = self._np
        colors = self._colors
        for i in range(self.count):
            code = frame[i]
            np[i] = colors.get(code, self._on) if code else (0, 0, 0)
        np.write()


class Hc595Leds:
    """74HC595 shift registers: LED ``i`` is output ``i % 8`` of chip ``i // 8`` (chip 0 first)."""

    driver = P.LED_HC595

    def __init__(self, machine, data, clock, latch, count):
        Pin = machine.Pin
        self.count = count
        self._bits = ((count + 7) // 8) * 8
        self._data = Pin(data, Pin.OUT, value=0)
        self._clock = Pin(clock, Pin.OUT, value=0)
        self._latch = Pin(latch, Pin.OUT, value=0)

    def write(self, frame):
        data = self._data
        clock = self._clock
        count = self.count
        for i in range(self._bits - 1, -1, -1):  # the first bit shifted in ends up furthest
            data.value(1 if i < count and frame[i] else 0)
            clock.value(1)
            clock.value(0)
        self._latch.value(1)
        self._latch.value(0)


class Firmware:
    """The protocol end on the microcontroller. Call :meth:`tick` often with the current ticks.

    ``port`` has ``read() -> bytes`` (non-blocking, ``b""`` when nothing waits) and
    ``write(data)``. ``on_control(command)`` is called for CONTROL frames (exit, reset,
    bootloader) after the reply is written.
    """

    def __init__(
        self, port, scanner, buttons, leds, config, boot_id, now, link_led=None, on_control=None
    ):
        self.port = port
        self.scanner = scanner
        self.buttons = buttons
        self.leds = leds
        self.link_led = link_led
        self.on_control = on_control
        self.boot_id = boot_id
        self.n_points = scanner.count
        self.n_status = leds.count - scanner.count if leds is not None else 0
        self.scan_interval = config.get("scan_interval_ms", 2)
        self.heartbeat_ms = config.get("heartbeat_ms", 500)
        self.host_timeout = config.get("host_timeout_ms", 3000)
        self.decoder = P.FrameDecoder()
        self._ticks = now
        self.elapsed = 0  # ms since boot, never wraps
        self.sensor_seq = 0
        self.button_seq = 0
        self.points = bytearray(self.n_points)
        self.status = bytearray(max(self.n_status, 0))
        # Per LED (points, then status), the ms since boot at which it took its code: its blink
        # starts lit then, so a new signal shows at once and an unchanged one keeps its phase.
        self.since = [0] * (self.n_points + len(self.status))
        self.generation = 0
        self.host_seen = None
        self.frames_in = 0
        self.errors_in = 0
        self.sensors = Debouncer(self.n_points, config.get("debounce_ms", 30), scanner.read())
        nb = buttons.count if buttons is not None else 0
        initial = buttons.read() if buttons is not None else 0
        self.button_state = Debouncer(nb, config.get("button_debounce_ms", 20), initial)
        self._next_scan = 0
        self._next_heartbeat = self.heartbeat_ms
        self._next_error = 0
        self._shown = None
        self.send(P.HELLO, self.hello_payload())

    # --- output ---------------------------------------------------------------------------

    def send(self, ftype, payload=b""):
        self.port.write(P.encode_frame(ftype, payload))

    def hello_payload(self):
        return P.pack_hello(
            FIRMWARE_VERSION,
            self.boot_id,
            self.n_points,
            self.leds.count if self.leds is not None else 0,
            self.n_status,
            self.buttons.count if self.buttons is not None else 0,
            self.leds.driver if self.leds is not None else P.LED_NONE,
            self.heartbeat_ms,
        )

    def send_error(self, code, ref_type, message):
        self.send(P.ERROR, P.pack_error(code, ref_type, message))

    # --- the loop -------------------------------------------------------------------------

    def tick(self, now: int) -> None:
        """Do what is due at ``now`` (raw ms ticks, may wrap): read frames, scan, light."""
        self.elapsed += ticks_diff(now, self._ticks)
        self._ticks = now
        t = self.elapsed
        data = self.port.read()
        if data:
            self.receive(data, t)
        if t >= self._next_scan:
            self._next_scan = t + self.scan_interval
            self.scan(t)
        if self.host_seen is not None and t - self.host_seen > self.host_timeout:
            self.host_seen = None  # the Pi is gone: show nothing stale until it returns
            self.generation = 0
            self.set_lights(b"", b"", t)
        if t >= self._next_heartbeat:
            self._next_heartbeat = t + self.heartbeat_ms
            self.send(P.HEARTBEAT, P.pack_heartbeat(t, self.sensor_seq, self.generation))
        self.render(t)

    def scan(self, t):
        old = self.sensors.stable
        new = self.sensors.update(self.scanner.read(), t)
        if new != old:
            self.sensor_seq = (self.sensor_seq + 1) & 0xFFFF
            self.send(P.CHANGE, P.pack_change(self.sensor_seq, t, old ^ new, new))
        if self.buttons is not None:
            old = self.button_state.stable
            new = self.button_state.update(self.buttons.read(), t)
            changed = old ^ new
            for i in range(self.buttons.count):
                if changed & (1 << i):
                    self.button_seq = (self.button_seq + 1) & 0xFFFF
                    pressed = bool(new & (1 << i))
                    self.send(P.BUTTON, P.pack_button(self.button_seq, t, i, pressed))

    def render(self, t):
        if self.leds is None:
            return
        frame = bytearray(self.leds.count)
        lit = P.signal_lit
        since = self.since
        for i, code in enumerate(self.points):
            if lit(code, t, since[i]):
                frame[i] = code
        base = self.n_points
        for i, code in enumerate(self.status):
            if lit(code, t, since[base + i]):
                frame[base + i] = code
        if frame != self._shown:
            self._shown = frame
            self.leds.write(frame)
        if self.link_led is not None:
            self.link_led.value(1 if self.host_seen is not None else 0)

    def set_lights(self, points, status, t):
        """Show these codes (missing ones off) from ``t`` on; a changed LED's blink starts lit."""
        since = self.since
        for i in range(len(self.points)):
            code = points[i] if i < len(points) else P.SIG_OFF
            if self.points[i] != code:
                self.points[i] = code
                since[i] = t
        base = self.n_points
        for i in range(len(self.status)):
            code = status[i] if i < len(status) else P.SIG_OFF
            if self.status[i] != code:
                self.status[i] = code
                since[base + i] = t

    # --- input ----------------------------------------------------------------------------

    def receive(self, data, t):
        frames, errors = self.decoder.feed(data)
        if errors:
            self.errors_in += len(errors)
            if t >= self._next_error:
                self._next_error = t + ERROR_INTERVAL_MS
                code, detail = errors[-1]
                self.send_error(code, 0, detail)
        for ftype, payload in frames:
            self.frames_in += 1
            self.host_seen = t
            try:
                self.handle(ftype, payload, t)
            except ValueError as exc:
                self.send_error(P.E_BAD_PAYLOAD, ftype, str(exc))

    def handle(self, ftype, payload, t):
        if ftype == P.HEARTBEAT or ftype == P.ERROR:
            return
        if ftype == P.HELLO_REQUEST:
            major = P.unpack_hello_request(payload)[0]
            if major != P.PROTOCOL_MAJOR:
                self.send_error(P.E_VERSION, ftype, f"host speaks protocol {major}")
            self.send(P.HELLO, self.hello_payload())
        elif ftype == P.SNAPSHOT_REQUEST:
            self.send(P.SNAPSHOT, P.pack_snapshot(self.sensor_seq, t, self.sensors.stable))
        elif ftype == P.LIGHTS:
            generation, points, status = P.unpack_lights(payload)
            self.set_lights(points, status, t)
            self.generation = generation
        elif ftype == P.CONTROL:
            command = P.unpack_control(payload)
            if self.on_control is not None:
                self.on_control(command)
        else:
            self.send_error(P.E_UNKNOWN_TYPE, ftype, f"unknown frame type 0x{ftype:02x}")


def build(
    machine, config, port, now: int, boot_id: int = 0, neopixel=None, on_control=None
) -> "Firmware":
    """Make the :class:`Firmware` for ``config`` on ``machine`` (the real module or a stand-in)."""
    scanner = MatrixScanner(
        machine,
        config["ring_pins"],
        config["position_pins"],
        config.get("sensor_active_high", True),
    )
    pins = config.get("button_pins") or ()
    buttons = ButtonBank(machine, pins) if pins else None
    count = scanner.count + config.get("status_leds", 0)
    driver = config.get("led_driver", "ws2812")
    if driver == "ws2812":
        if neopixel is None:
            import neopixel  # type: ignore[import-not-found,no-redef]
        leds = Ws2812Leds(machine, neopixel, config["ws2812_pin"], count, config.get("colors", {}))
    elif driver == "hc595":
        data, clock, latch = config["hc595_pins"]
        leds = Hc595Leds(machine, data, clock, latch, count)  # type: ignore[assignment]
    elif driver is None or driver == "none":
        leds = None
    else:
        raise ValueError(f"unknown led_driver {driver!r} (use 'ws2812' or 'hc595')")
    link_led = None
    if config.get("link_led_pin") is not None:
        link_led = machine.Pin(config["link_led_pin"], machine.Pin.OUT, value=0)
    return Firmware(port, scanner, buttons, leds, config, boot_id, now, link_led, on_control)


class StdioPort:
    """USB CDC through MicroPython's stdio, raw: Ctrl-C (0x03) no longer interrupts."""

    def __init__(self):
        import select
        import sys

        import micropython  # type: ignore[import-not-found]

        micropython.kbd_intr(-1)
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self):
        buf = bytearray()
        while len(buf) < 512 and self._poll.poll(0):
            buf.extend(self._in.read(1))
        return bytes(buf)

    def write(self, data):
        self._out.write(data)

    def close(self):
        import micropython

        micropython.kbd_intr(3)


def run(config):
    """The Pico's main loop. Returns (to the REPL) if MODE is held at power-up, or on request."""
    import os
    import time

    import machine  # type: ignore[import-not-found]

    pins = list(config.get("button_pins") or ())
    if len(pins) >= 4 and not machine.Pin(pins[3], machine.Pin.IN, machine.Pin.PULL_UP).value():
        print("MODE held at boot: firmware not started, REPL left free")
        return
    port = StdioPort()
    state = {"running": True}

    def on_control(command):
        if command == P.CTL_EXIT_TO_REPL:
            state["running"] = False
        elif command == P.CTL_RESET:
            machine.reset()
        elif command == P.CTL_BOOTLOADER:
            machine.bootloader()

    boot_id = int.from_bytes(os.urandom(4), "big")
    fw = build(machine, config, port, time.ticks_ms(), boot_id, on_control=on_control)  # type: ignore[attr-defined]
    try:
        while state["running"]:
            fw.tick(time.ticks_ms())  # type: ignore[attr-defined]
            time.sleep_ms(1)  # type: ignore[attr-defined]
    finally:
        if fw.leds is not None:
            fw.leds.write(bytearray(fw.leds.count))
        port.close()
