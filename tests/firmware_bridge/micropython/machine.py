"""Stand-in for MicroPython's ``machine`` module, in MicroPython: pins wired to ``picoboard``."""

import picoboard


class Pin:
    """A GPIO pin; outputs drive the board's wiring, inputs read it."""

    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, pin_id, mode=-1, pull=-1, value=None):
        self.id = pin_id
        self.mode = mode
        if value is not None:
            picoboard.write(pin_id, 1 if value else 0)

    def value(self, v=None):
        if v is None:
            return picoboard.read(self.id)
        picoboard.write(self.id, 1 if v else 0)
        return None

    def on(self):
        picoboard.write(self.id, 1)

    def off(self):
        picoboard.write(self.id, 0)


def reset():
    raise SystemExit("machine.reset()")


def bootloader():
    raise SystemExit("machine.bootloader()")
