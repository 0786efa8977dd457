"""Stand-in for MicroPython's ``neopixel`` module, in MicroPython: the chain shows on the board."""

import picoboard


class NeoPixel:
    """A WS2812 chain of ``n`` LEDs on ``pin``; ``write()`` shows the buffer."""

    def __init__(self, pin, n):
        self.pin = pin
        self.n = n
        self._pixels = [(0, 0, 0)] * n

    def __setitem__(self, i, color):
        self._pixels[i] = tuple(color)

    def __getitem__(self, i):
        return self._pixels[i]

    def __len__(self):
        return self.n

    def write(self):
        picoboard.show(self._pixels)
