"""The board widget: the 24 points on the 7x7 grid with lines, pieces and LEDs; clicks on them.

The lines are the variant's links: the diagonal corner lines of twelve men's morris and
morabaraba are drawn with ``╲`` and ``╱``; in six men's morris the outer square, not in play,
has no lines and its points are marked ``×``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from morris.app.view import PointView
from morris.core import ALL_POINTS, Board
from morris.tui import colours
from morris_device import POINT_NAMES

_FILES = "abcdefg"


@dataclass(frozen=True)
class _Geometry:
    x0: int
    y0: int
    dx: int
    dy: int

    def centre(self, name: str) -> tuple[int, int]:
        col, row = _FILES.index(name[0]), 7 - int(name[1])
        return self.x0 + 4 + col * self.dx, self.y0 + row * self.dy


class BoardView(Widget):
    """The 24 points on the 7x7 grid of docs/RULES.md, with their lines, pieces and LEDs.

    Clicking a point posts :class:`BoardView.PointClicked`.
    """

    DEFAULT_CSS = """
    BoardView { width: 1fr; height: 1fr; }
    """

    class PointClicked(Message):
        """The person clicked a point."""

        def __init__(self, point: str) -> None:
            super().__init__()
            self.point = point

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.views: dict[str, PointView] = {}
        self._links: list[tuple[str, str]] = []
        self.in_play = ALL_POINTS
        #: The variant whose lines are drawn.
        self.variant = ""

    def set_links(self, board: Board) -> None:
        """Draw the lines and the points in play of ``board``'s variant."""
        links = []
        for p, mask in enumerate(board.neighbours):
            for q in range(p + 1, len(POINT_NAMES)):
                if mask >> q & 1:
                    links.append((POINT_NAMES[p], POINT_NAMES[q]))
        self._links = links
        self.in_play = board.points_in_play
        self.variant = board.variant_name
        self.refresh()

    def show(self, views: dict[str, PointView]) -> None:
        """Draw ``views`` (redrawn only when something changed)."""
        if views != self.views:
            self.views = views
            self.refresh()

    # -- geometry ---------------------------------------------------------------------------

    def _geometry(self) -> _Geometry:
        width, height = self.content_size
        dx = max(4, min(10, (width - 6) // 6))
        dy = max(2, min(5, (height - 2) // 6))
        used_w, used_h = 4 + 6 * dx + 2, 6 * dy + 2
        return _Geometry(max(0, (width - used_w) // 2), max(0, (height - used_h) // 2), dx, dy)

    def offset_of(self, name: str) -> tuple[int, int]:
        """Where ``name`` is drawn, relative to the widget (for clicks in tests)."""
        x, y = self._geometry().centre(name)
        return x + self.gutter.left, y + self.gutter.top

    def point_at(self, x: int, y: int) -> str | None:
        """The point drawn at content offset (``x``, ``y``), or ``None``."""
        geometry = self._geometry()
        for name in POINT_NAMES:
            cx, cy = geometry.centre(name)
            if abs(x - cx) <= 2 and abs(y - cy) <= max(0, geometry.dy // 2 - 1):
                return name
        return None

    def on_click(self, event: events.Click) -> None:
        """A click on a point toggles a piece there."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        point = self.point_at(offset.x, offset.y)
        if point is not None:
            self.post_message(self.PointClicked(point))

    # -- drawing ----------------------------------------------------------------------------

    def render(self) -> Text:
        """The board as text."""
        width, height = self.content_size
        g = self._geometry()
        cells: list[list[tuple[str, Style | None]]] = [[(" ", None)] * width for _ in range(height)]

        def put(x: int, y: int, char: str, style: Style | None) -> None:
            if 0 <= y < height and 0 <= x < width:
                cells[y][x] = (char, style)

        for a, b in self._links:
            (ax, ay), (bx, by) = g.centre(a), g.centre(b)
            if ay == by:
                for x in range(min(ax, bx) + 2, max(ax, bx) - 1):
                    put(x, ay, "─", colours.LINE)
            elif ax == bx:
                for y in range(min(ay, by) + 1, max(ay, by)):
                    put(ax, y, "│", colours.LINE)
            else:  # a diagonal corner line: one slanted stroke per row between the points
                if ay > by:
                    (ax, ay), (bx, by) = (bx, by), (ax, ay)
                stroke = "╲" if bx > ax else "╱"
                for y in range(ay + 1, by):
                    put(ax + (bx - ax) * (y - ay) // (by - ay), y, stroke, colours.LINE)
        for rank in range(1, 8):
            put(g.x0, g.y0 + (7 - rank) * g.dy, str(rank), colours.LABEL)
        for col, letter in enumerate(_FILES):
            put(g.x0 + 4 + col * g.dx, g.y0 + 6 * g.dy + 1, letter, colours.LABEL)
        for name in POINT_NAMES:
            view = self.views.get(name)
            x, y = g.centre(name)
            glyph, style = self._cell(name, view)
            put(x - 1, y, " ", style)
            put(x, y, glyph, style)
            put(x + 1, y, " ", style)

        text = Text(no_wrap=True, overflow="crop")
        for i, row in enumerate(cells):
            if i:
                text.append("\n")
            run, run_style = "", None
            for char, cell_style in row:
                if cell_style != run_style and run:
                    text.append(run, run_style)
                    run = ""
                run_style = cell_style
                run += char
            if run:
                text.append(run, run_style)
        return text

    def _cell(self, name: str, view: PointView | None) -> tuple[str, Style]:
        bg = colours.LIT if view is not None and view.lit else colours.PAD
        if view is None or (view.piece is None and view.lifted is None):
            if not self.in_play >> POINT_NAMES.index(name) & 1:
                return "×", Style(color=colours.OUT_OF_PLAY, bgcolor=bg)
            return "·", Style(color=colours.EMPTY, bgcolor=bg)
        if view.piece is not None:
            glyph = colours.PIECE_GLYPHS[view.piece]
            return glyph, Style(color=colours.PIECE_COLOURS[view.piece], bgcolor=bg, bold=True)
        colour = view.lifted or "unknown"
        return colours.LIFTED_GLYPHS[colour], Style(color=colours.PIECE_COLOURS[colour], bgcolor=bg)
