"""The colours of the terminal board: wood, lines, LEDs and pieces."""

from __future__ import annotations

from rich.style import Style

LINE = Style(color="#8a7760")
LABEL = Style(color="#9a9a9a")
PAD = "#6e5238"  # a point of the wooden board, LED dark
LIT = "#ff8c1a"  # the LED glowing
PIECE_COLOURS = {"white": "#ffffff", "black": "#000000", "unknown": "#e040fb"}
EMPTY = "#c8ad8a"
