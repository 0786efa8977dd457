"""The colours and glyphs of the terminal board: wood, lines, LEDs and pieces.

Pieces differ by letter as well as by colour, so a colour-blind person or a monochrome terminal
tells them apart: ``W`` white, ``B`` black, ``?`` a piece on the wood the game has not read
(yet), and a lower-case ``w`` / ``b`` for a piece of the game that is off the wood (lifted).
"""

from __future__ import annotations

from rich.style import Style

LINE = Style(color="#8a7760")
LABEL = Style(color="#9a9a9a")
PAD = "#6e5238"  # a point of the wooden board, LED dark
LIT = "#ff8c1a"  # the LED glowing
PIECE_COLOURS = {"white": "#ffffff", "black": "#000000", "unknown": "#e040fb"}
EMPTY = "#c8ad8a"
OUT_OF_PLAY = "#8a7760"  # a point the variant does not use (six men's morris: the outer square)

#: The glyph of what stands on a point (see the module docstring).
PIECE_GLYPHS = {"white": "W", "black": "B", "unknown": "?"}
#: The glyph of a piece of the game lifted off its point.
LIFTED_GLYPHS = {"white": "w", "black": "b", "unknown": "?"}
