"""The wooden board wired to a Pico, in MicroPython: pieces, buttons, pins, what the LEDs show.

The stand-ins ``machine`` and ``neopixel`` beside this file read and drive it. It models the
wiring as firmware_bridge/emulator.py does on CPython (a ring pin driven, the position pins read
back through the pieces' switches; a 74HC595 chain shifted and latched), written again here in
MicroPython, so the firmware runs on the real interpreter with nothing of CPython under it.
"""

import config

CONFIG = config.CONFIG

on_wood = set()
pressed = set()
outputs = {}
shift = []
#: What the LED chain shows: an (r, g, b) tuple per LED.
leds = []
#: Called with ``leds`` after every write of the chain (the host is told).
on_show = None

_rings = {}
for _i, _p in enumerate(CONFIG["ring_pins"]):
    _rings[_p] = _i
_positions = {}
for _i, _p in enumerate(CONFIG["position_pins"]):
    _positions[_p] = _i
_buttons = {}
for _i, _p in enumerate(CONFIG.get("button_pins") or ()):
    _buttons[_p] = _i
_width = len(CONFIG["position_pins"])
_active = 1 if CONFIG.get("sensor_active_high", True) else 0
_sr = CONFIG.get("hc595_pins") or (None, None, None)
_count = len(CONFIG["ring_pins"]) * _width + CONFIG.get("status_leds", 0)


def write(pin_id, value):
    """An output pin set to ``value``: a rising clock shifts, a rising latch shows."""
    old = outputs.get(pin_id, 0)
    outputs[pin_id] = value
    if value and not old:
        if pin_id == _sr[1]:
            shift.insert(0, outputs.get(_sr[0], 0))
        elif pin_id == _sr[2]:
            bits = (shift + [0] * _count)[:_count]
            show([(1, 1, 1) if b else (0, 0, 0) for b in bits])
            del shift[:]


def read(pin_id):
    """What an input pin reads: a button to ground, or a position line through the pieces."""
    if pin_id in _buttons:
        return 0 if _buttons[pin_id] in pressed else 1
    if pin_id in _positions:
        col = _positions[pin_id]
        for pin, ring in _rings.items():
            driven = outputs.get(pin, 1 - _active) == _active
            if driven and ring * _width + col in on_wood:
                return _active
        return 1 - _active
    return outputs.get(pin_id, 0)


def show(pixels):
    """The LED chain now shows ``pixels``."""
    global leds
    leds = list(pixels)
    if on_show is not None:
        on_show(leds)
