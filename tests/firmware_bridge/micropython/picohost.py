"""The Pico's side of the lab, in MicroPython: the firmware built on the stand-ins, its serial
port on the host's pty (through the ``hostlink`` module the node runner gives), and the person
at the board (commands from the host).

The firmware files run unchanged: ``boardfw.build`` and ``Firmware.tick`` as the Pico's own
``boardfw.run`` calls them; only the port differs (the runner's pty instead of USB CDC stdio).
"""

import binascii
import gc

import boardfw
import hostlink
import machine
import neopixel
import picoboard
from config import CONFIG

fw = None


class HostPort:
    """The firmware's serial port: bytes to and from the pty, hex-encoded across to JS."""

    def read(self):
        data = hostlink.port_read()
        return binascii.unhexlify(data) if data else b""

    def write(self, data):
        hostlink.port_write(binascii.hexlify(data).decode())


def _report(leds):
    lit = "".join("1" if rgb != (0, 0, 0) else "0" for rgb in leds)
    hostlink.emit("leds " + lit)


def boot(boot_id, on_wood):
    """Power up with pieces on ``on_wood`` (point indices): the firmware says HELLO."""
    global fw
    picoboard.on_wood = set(on_wood)
    picoboard.on_show = _report
    fw = boardfw.build(machine, CONFIG, HostPort(), hostlink.ticks_ms(), boot_id, neopixel=neopixel)
    memory()


def step(now):
    """One pass of the firmware's loop at ``now`` (ms ticks)."""
    fw.tick(now)


def memory():
    """The heap in use after a collection, and the heap free: tells the host."""
    gc.collect()
    hostlink.emit("mem " + str(gc.mem_alloc()) + " " + str(gc.mem_free()))


def command(line):
    """The person at the board: ``place N``, ``lift N``, ``press N``, ``release N``, ``mem``."""
    words = line.split()
    if not words:
        return
    verb = words[0]
    arg = int(words[1]) if len(words) > 1 else 0
    if verb == "place":
        picoboard.on_wood.add(arg)
    elif verb == "lift":
        picoboard.on_wood.discard(arg)
    elif verb == "press":
        picoboard.pressed.add(arg)
    elif verb == "release":
        picoboard.pressed.discard(arg)
    elif verb == "mem":
        memory()
    else:
        hostlink.emit("error unknown command " + verb)
