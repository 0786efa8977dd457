"""The board picture as PNG: the same :class:`~morris.web.picture.Scene` as the SVG, drawn with
Pillow (``morris render --format png``, ``GET /api/render.png``); and the game's graph
(:mod:`morris.web.chart`) the same way (``GET /api/games/{id}/chart.png``).

Nothing is laid out here: every line, point, piece, light, mark and label comes from the scene,
in the scene's coordinates, scaled to the picture's width. The colours are the SVG's
(:data:`~morris.web.picture.COLOURS`) and the stroke widths those of its style sheet. A PNG does
not blink: a blinking light is drawn lit, in its signal's colour, as the page shows it at the start
of each blink. Pillow draws without anti-aliasing, so the picture is drawn at
:data:`SUPERSAMPLE` times its size and scaled down.

Pillow is imported when a PNG is first drawn: the daemon that never draws one never loads it.

>>> from morris.web.picture import scene_of_position
>>> data = render_png(scene_of_position("W......./......../.......B w 8 8 0 2 -"), width=120)
>>> data[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from morris.web.picture import (
    COLOURS,
    GLYPH_SIZE,
    LIGHT_RADIUS,
    PIECE_RADIUS,
    UNKNOWN_GLYPH,
    PointMark,
    Scene,
)

if TYPE_CHECKING:
    from PIL import ImageDraw, ImageFont

    from morris.web.chart import Chart

logger = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_WIDTH",
    "MAX_WIDTH",
    "MIN_WIDTH",
    "SUPERSAMPLE",
    "render_chart_png",
    "render_png",
]

#: The picture's width (and height) in pixels unless asked otherwise: twice the SVG's units.
DEFAULT_WIDTH: Final = 720
#: The narrowest and widest picture drawn (a bound on the memory one request may take).
MIN_WIDTH: Final = 60
MAX_WIDTH: Final = 2048
#: Drawn at this many times the size, then scaled down: smooth edges without anti-aliasing.
SUPERSAMPLE: Final = 3
#: Past this many pixels a side, the picture is drawn at twice its size only (memory on a Pi).
_LARGE: Final = 1024

# The stroke widths of the SVG's style sheet (morris.web.picture._style), in scene units.
_LINE_WIDTH: Final = 3.0
_PIECE_OUTLINE: Final = 1.5
_LIGHT_WIDTH: Final = 4.0
_MARK_TO_WIDTH: Final = 2.5
_TAKEN_WIDTH: Final = 3.0
_DOT_RADIUS: Final = 5.0
_FROM_RADIUS: Final = 7.0
_TAKEN_HALF: Final = 8.0
_LABEL_SIZE: Final = 12.0
_CORNER: Final = 12.0
_OUTLINES: Final = {"white": "#444444", "black": "#000000", "unknown": "#444444"}
_SIGNAL_COLOURS: Final = {"on": COLOURS["light"], "slow": COLOURS["slow"], "fast": COLOURS["fast"]}


def _font(size: float) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """Pillow's own font at ``size`` pixels; where Pillow was built without FreeType (from
    source on a 32-bit Pi without libfreetype-dev: docs/INSTALL.md) its small bitmap font,
    which cannot be scaled, with one warning, rather than no picture at all."""
    from PIL import ImageFont, features

    if features.check_module("freetype2"):
        return ImageFont.load_default(size=size)
    global _WARNED_NO_FREETYPE
    if not _WARNED_NO_FREETYPE:
        _WARNED_NO_FREETYPE = True
        logger.warning(
            "Pillow was built without FreeType: the pictures' labels are in its small bitmap "
            "font (install libfreetype-dev and reinstall Pillow for scaled labels)"
        )
    return ImageFont.load_default_imagefont()


_WARNED_NO_FREETYPE = False


def _rgb(colour: str) -> tuple[int, int, int]:
    """``#rrggbb`` as a triple."""
    value = colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def _blend(colour: str, under: str, opacity: float) -> tuple[int, int, int]:
    """``colour`` at ``opacity`` over ``under`` (the SVG's translucent marks, on an opaque PNG)."""
    top, bottom = _rgb(colour), _rgb(under)
    r, g, b = (round(t * opacity + u * (1 - opacity)) for t, u in zip(top, bottom, strict=True))
    return r, g, b


def render_png(scene: Scene, *, width: int = DEFAULT_WIDTH) -> bytes:
    """The scene as PNG bytes, ``width`` pixels square.

    Raises :class:`ValueError` naming the width when it is outside
    :data:`MIN_WIDTH` .. :data:`MAX_WIDTH`.
    """
    from PIL import Image, ImageDraw

    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"width must be {MIN_WIDTH}..{MAX_WIDTH} pixels, not {width}")
    factor = SUPERSAMPLE if width <= _LARGE else 2
    big = width * factor
    k = big / scene.size  # pixels per scene unit

    def px(value: float) -> float:
        return value * k

    def stroke(value: float) -> int:
        return max(1, round(value * k))

    image = Image.new("RGB", (big, big), _rgb("#ffffff"))
    draw = ImageDraw.Draw(image)
    board = COLOURS["board"]
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=px(_CORNER), fill=_rgb(board))
    line = _rgb(COLOURS["line"])
    for x1, y1, x2, y2 in scene.lines:
        draw.line((px(x1), px(y1), px(x2), px(y2)), fill=line, width=stroke(_LINE_WIDTH))
    font = _font(px(_LABEL_SIZE))
    for text, lx, ly in scene.labels:
        draw.text((px(lx), px(ly)), text, fill=line, font=font, anchor="mm")
    glyph_font = _font(px(GLYPH_SIZE))
    for point in scene.points:
        _draw_point(draw, point, px, stroke)
        if point.piece == "unknown":
            draw.text(
                (px(point.x), px(point.y)),
                UNKNOWN_GLYPH,
                fill=_rgb(COLOURS["black"]),
                font=glyph_font,
                anchor="mm",
            )
    picture = image.resize((width, width), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    picture.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _draw_point(
    draw: ImageDraw.ImageDraw,
    point: PointMark,
    px: Callable[[float], float],
    stroke: Callable[[float], int],
) -> None:
    """One point of the scene: its dot, light, marks and piece, in the SVG's order."""
    x, y = px(point.x), px(point.y)
    board = COLOURS["board"]
    draw.circle((x, y), px(_DOT_RADIUS), fill=_rgb(COLOURS["line"]))
    if point.signal in _SIGNAL_COLOURS:
        draw.circle(
            (x, y),
            px(LIGHT_RADIUS) + stroke(_LIGHT_WIDTH) / 2,
            outline=_rgb(_SIGNAL_COLOURS[point.signal]),
            width=stroke(_LIGHT_WIDTH),
        )
    if point.mark == "from":
        draw.circle((x, y), px(_FROM_RADIUS), fill=_blend(COLOURS["mark"], board, 0.6))
    piece, opacity = point.piece, 1.0
    if piece is None and point.lifted:
        piece, opacity = point.lifted, 0.35
    if piece is not None:
        outline = _OUTLINES.get(piece, "#444444")
        draw.circle(
            (x, y),
            px(PIECE_RADIUS) + stroke(_PIECE_OUTLINE) / 2,
            fill=_blend(COLOURS.get(piece, COLOURS["unknown"]), board, opacity),
            outline=_blend(outline, board, opacity),
            width=stroke(_PIECE_OUTLINE),
        )
    if point.mark == "to":
        draw.circle(
            (x, y),
            px(PIECE_RADIUS + 3) + stroke(_MARK_TO_WIDTH) / 2,
            outline=_rgb(COLOURS["mark"]),
            width=stroke(_MARK_TO_WIDTH),
        )
    if point.mark == "taken":
        d = px(_TAKEN_HALF)
        red = _rgb(COLOURS["fast"])
        for dx in (d, -d):
            draw.line((x - d, y - dx, x + d, y + dx), fill=red, width=stroke(_TAKEN_WIDTH))


def render_chart_png(chart: Chart, *, width: int = DEFAULT_WIDTH) -> bytes:
    """The game's graph (:mod:`morris.web.chart`) as PNG bytes, ``width`` pixels wide (its
    height in the chart's proportion): the SVG's areas, curve, band and marks, without the tap
    targets.

    Raises :class:`ValueError` naming the width when it is outside
    :data:`MIN_WIDTH` .. :data:`MAX_WIDTH`.
    """
    from PIL import Image, ImageDraw

    from morris.web import chart as c

    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"width must be {MIN_WIDTH}..{MAX_WIDTH} pixels, not {width}")
    factor = SUPERSAMPLE if width <= _LARGE else 2
    k = width * factor / chart.width
    height = max(1, round(chart.height * width / chart.width))
    big = (width * factor, height * factor)

    def xy(x: float, y: float) -> tuple[float, float]:
        return x * k, y * k

    colours = c.CHART_COLOURS
    image = Image.new("RGB", big, _rgb("#ffffff"))
    draw = ImageDraw.Draw(image)
    x0, x1 = c.LEFT, chart.width - c.RIGHT
    draw.rectangle((*xy(x0, c.TOP), *xy(x1, c.PLOT_BOTTOM)), fill=_rgb(colours["ahead_black"]))
    for run in chart.curve():
        if len(run) == 1:
            (x, y), half = run[0], chart.step / 2
            run = [(x - half, y), (x + half, y)]
        area = [(run[0][0], c.PLOT_BOTTOM), *run, (run[-1][0], c.PLOT_BOTTOM)]
        draw.polygon([xy(x, y) for x, y in area], fill=_rgb(colours["ahead_white"]))
    mid = chart.mid
    dash = 4.0
    x = x0
    while x < x1:
        draw.line((*xy(x, mid), *xy(min(x + dash, x1), mid)), fill=_rgb(colours["frame"]), width=1)
        x += 2 * dash
    for run in chart.curve():
        draw.line(
            [xy(x, y) for x, y in run],
            fill=_rgb(colours["curve"]),
            width=max(1, round(2 * k)),
            joint="curve",
        )
    draw.rectangle(
        (*xy(x0, c.TOP), *xy(x1, c.PLOT_BOTTOM)),
        outline=_rgb(colours["frame"]),
        width=max(1, round(k)),
    )
    font = _font(11 * k)
    frame = _rgb(colours["frame"])
    white_edge, black_edge, band = c.axis_words(chart.lang)
    draw.text(xy(4, c.TOP + 6), white_edge, fill=frame, font=font, anchor="lm")
    draw.text(xy(4, c.PLOT_BOTTOM - 6), black_edge, fill=frame, font=font, anchor="lm")
    draw.text(xy(4, c.BAND_TOP + c.BAND_HEIGHT / 2), band, fill=frame, font=font, anchor="lm")
    for bx0, bx1, result in chart.bands():
        draw.rectangle(
            (*xy(bx0, c.BAND_TOP), *xy(bx1, c.BAND_TOP + c.BAND_HEIGHT)),
            fill=_rgb(c.BAND_COLOURS[result]),
            outline=_rgb("#444444") if result == "white" else None,
        )
    radius = max(1.5, min(4.0, chart.step / 3))
    for point in chart.points:
        if point.threw is not None:
            colour = colours["first"] if point.first else colours["threw"]
            draw.line(
                (*xy(point.x, c.TOP), *xy(point.x, c.PLOT_BOTTOM)),
                fill=_rgb(colour),
                width=max(1, round((2.0 if point.first else 1.5) * k)),
            )
            if point.first:
                draw.text(
                    xy(point.x, c.BAND_TOP + c.BAND_HEIGHT + 7),
                    "??",
                    fill=_rgb(colour),
                    font=font,
                    anchor="mm",
                )
    for point in chart.points:
        if point.y is None:
            continue
        colour = colours["curve"]
        r = radius
        if point.threw is not None:
            colour, r = (colours["first"] if point.first else colours["threw"]), radius + 2
        draw.circle(xy(point.x, point.y), r * k, fill=_rgb(colour), outline=_rgb("#ffffff"))
    picture = image.resize((width, height), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    picture.save(out, format="PNG", optimize=True)
    return out.getvalue()
