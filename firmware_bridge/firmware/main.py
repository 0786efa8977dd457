"""Entry point on the Pico: MicroPython runs main.py at power-up. See ../README.md to flash."""

import boardfw  # type: ignore[import-not-found]
from config import CONFIG  # type: ignore[import-not-found]

boardfw.run(CONFIG)
