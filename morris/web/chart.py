"""The game's graph: the review's scores over the whole game as one chart (the review page,
``morris review --svg``, ``GET /api/games/{id}/chart.svg`` and ``.png``).

:func:`chart_of_review` turns a review's JSON (:meth:`morris.app.review.Review.to_json`) into a
:class:`Chart`: one point per position of the game (the start, then after each turn), its score
from White's side (the review's scores are the mover's), the solved result where the solved game
or the endgame tables know it (a band under the curve: won by White, drawn, won by Black), and
the turns that threw a result away. :func:`render_chart_svg` draws it; the PNG
(:func:`morris.web.png.render_chart_png`) draws the same chart, so nothing is laid out twice.

The curve is White's share: the light area under it grows as White stands better, the dark one
above it as Black does; a score of ``s`` centi-pieces is drawn at ``tanh(s / SCALE)`` of the half
height, a forced win at the edge. Every position has a tap target ``<rect class="hit"
data-ply="k">`` (the columns tile the chart, so a tap anywhere picks the nearest turn) and every
point with a score a ``<circle class="pt" data-ply="k" data-score="s">`` (White's score).

>>> review = {"start": "s", "result": "*", "turns": [
...     {"ply": 1, "label": "1.", "move": "d6", "mover": "white", "score_before": 0,
...      "score_after": 50, "threw": None, "mistake": False}]}
>>> chart = chart_of_review(review)
>>> [(p.ply, p.score) for p in chart.points]
[(0, 0), (1, 50)]
>>> render_chart_svg(chart).startswith("<svg")
True
"""

from __future__ import annotations

import html
import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from morris import i18n
from morris.i18n import N_
from morris.web.picture import COLOURS

logger = logging.getLogger(__name__)

__all__ = [
    "Chart",
    "ChartPoint",
    "band_word",
    "chart_of_review",
    "render_chart_svg",
    "white_score",
]

#: The chart's size in SVG units (a page asks for its own width: the text then stays 11 px).
WIDTH: Final = 720.0
HEIGHT: Final = 172.0
#: The narrowest and widest chart drawn.
MIN_CHART_WIDTH: Final = 240.0
MAX_CHART_WIDTH: Final = 2048.0
#: The plot inside it: left and right margins, the top and the curve's bottom, the band below.
LEFT: Final = 44.0
RIGHT: Final = 10.0
TOP: Final = 8.0
PLOT_BOTTOM: Final = 134.0
BAND_TOP: Final = 140.0
BAND_HEIGHT: Final = 12.0
#: A score of SCALE centi-pieces is drawn at tanh(1) (76 %) of the half height.
SCALE: Final = 600.0
#: Scores beyond this are forced results (:data:`morris.engine.search.MATE_BOUND`).
MATE_BOUND: Final = 99_000

#: The band's colours for a known result.
BAND_COLOURS: Final = {"white": COLOURS["white"], "draw": "#9ca3af", "black": COLOURS["black"]}
CHART_COLOURS: Final = {
    "ahead_white": "#f3ead8",
    "ahead_black": "#4a4039",
    "frame": COLOURS["line"],
    "curve": COLOURS["mark"],
    "threw": "#d97706",
    "first": COLOURS["fast"],
    "cursor": COLOURS["mark"],
}


@dataclass(frozen=True)
class ChartPoint:
    """One position of the game on the chart."""

    #: 0 the start, k after the k-th turn.
    ply: int
    #: The turn that led here (``"12..."`` and its move), empty at the start.
    label: str
    move: str
    #: White's score here in centi-pieces (a forced result beyond :data:`MATE_BOUND`), or
    #: ``None`` where the review has none (a variant the engine does not play; still running).
    score: int | None
    #: Where the point is drawn; ``y`` is ``None`` without a score.
    x: float
    y: float | None
    #: The result known here with perfect play (``"white"``, ``"draw"``, ``"black"``) and who
    #: knows it (``"solution"``, ``"tables"``, ``"end"``), or ``None``.
    known: str | None
    known_by: str | None
    #: The turn that led here threw a result away (by whose judgement), and was the first to.
    threw: str | None
    first: bool


@dataclass(frozen=True)
class Chart:
    """The game's graph, in chart coordinates (``0 .. width``, ``0 .. height``)."""

    width: float
    height: float
    points: tuple[ChartPoint, ...]
    #: The title (who played, the result).
    title: str
    #: The language of its words (``None``: the board's).
    lang: str | None = None

    @property
    def mid(self) -> float:
        """The height of the even score (0)."""
        return (TOP + PLOT_BOTTOM) / 2

    def column(self, ply: int) -> tuple[float, float]:
        """The x span of position ``ply``'s tap target: halfway to each neighbour."""
        x = self.points[ply].x
        step = self.step
        return max(LEFT, x - step / 2), min(self.width - RIGHT, x + step / 2)

    @property
    def step(self) -> float:
        """The distance between two positions."""
        return (self.width - LEFT - RIGHT) / max(1, len(self.points) - 1)

    def curve(self) -> list[list[tuple[float, float]]]:
        """The curve as runs of points with a score (a position without one breaks it)."""
        runs: list[list[tuple[float, float]]] = [[]]
        for point in self.points:
            if point.y is None:
                if runs[-1]:
                    runs.append([])
                continue
            runs[-1].append((point.x, point.y))
        return [run for run in runs if run]

    def bands(self) -> list[tuple[float, float, str]]:
        """The known results as ``(x0, x1, result)`` strips, one per run of the same result."""
        strips: list[tuple[float, float, str]] = []
        for point in self.points:
            if point.known is None:
                continue
            x0, x1 = self.column(point.ply)
            if strips and strips[-1][2] == point.known and abs(strips[-1][1] - x0) < 1e-6:
                strips[-1] = (strips[-1][0], x1, point.known)
            else:
                strips.append((x0, x1, point.known))
        return strips


def _tr(lang: str | None, message: str) -> str:
    """``message`` in language ``lang`` (``None``: the board's)."""
    return i18n.translations(lang or i18n.language()).gettext(message)


def band_word(result: str, lang: str | None = None) -> str:
    """A known result's words, in language ``lang`` (``None``: the board's; :mod:`morris.i18n`)."""
    words = {"white": N_("White wins"), "draw": N_("drawn"), "black": N_("Black wins")}
    return _tr(lang, words[result])


def axis_words(lang: str | None = None) -> tuple[str, str, str]:
    """The chart's three labels: White's edge, Black's edge, the band (in language ``lang``)."""
    return _tr(lang, N_("W")), _tr(lang, N_("B")), _tr(lang, N_("solved"))


def white_score(score: int | None, mover: str) -> int | None:
    """A score of the review (the mover's) from White's side.

    >>> white_score(120, "black"), white_score(120, "white"), white_score(None, "white")
    (-120, 120, None)
    """
    if score is None:
        return None
    return score if mover == "white" else -score


def score_height(score: int) -> float:
    """Where White's ``score`` is drawn: ``-1`` (Black wins) .. ``1`` (White wins).

    >>> score_height(0), score_height(100_000 - 7), score_height(-(100_000 - 7))
    (0.0, 1.0, -1.0)
    """
    if abs(score) > MATE_BOUND:
        return 1.0 if score > 0 else -1.0
    return math.tanh(score / SCALE)


def _winner(value: str, side: str) -> str:
    """The result ``value`` (``win``/``draw``/``loss``) for ``side``, as the winner."""
    if value == "draw":
        return "draw"
    other = "black" if side == "white" else "white"
    return side if value == "win" else other


def _known(turn: Mapping[str, Any] | None, when: str, mover: str) -> tuple[str | None, str | None]:
    """The result known before or after (``when``) a turn: the solved game's value first (it
    names its side), then the tables' verdict (the mover's)."""
    if turn is None:
        return None, None
    solved = turn.get(f"solution_{when}")
    if isinstance(solved, Mapping) and solved.get("value") in ("win", "draw", "loss"):
        return _winner(str(solved["value"]), str(solved.get("for", mover))), "solution"
    verdict = turn.get(f"wdl_{when}")
    if isinstance(verdict, Mapping) and verdict.get("value") in ("win", "draw", "loss"):
        source = "end" if verdict.get("source") == "end" else "tables"
        return _winner(str(verdict["value"]), mover), source
    return None, None


def chart_of_review(
    review: Mapping[str, Any], *, width: float = WIDTH, lang: str | None = None
) -> Chart:
    """The chart of a review's JSON (or of its outline while it runs: positions without scores
    are drawn without a point), ``width`` units wide, its words in language ``lang`` (``None``:
    the board's). Raises :class:`ValueError` for JSON that
    is not a review, or a width outside :data:`MIN_CHART_WIDTH` .. :data:`MAX_CHART_WIDTH`."""
    if not MIN_CHART_WIDTH <= width <= MAX_CHART_WIDTH:
        raise ValueError(
            f"width must be {MIN_CHART_WIDTH:g}..{MAX_CHART_WIDTH:g} units, not {width:g}"
        )
    turns: Sequence[Mapping[str, Any]] = review.get("turns") or []
    if not isinstance(turns, Sequence) or not all(isinstance(t, Mapping) for t in turns):
        raise ValueError("not a review: 'turns' must be a list of turns")
    count = len(turns)
    inner = width - LEFT - RIGHT
    half = (PLOT_BOTTOM - TOP) / 2
    mid = (TOP + PLOT_BOTTOM) / 2
    points = []
    for ply in range(count + 1):
        if ply == 0:
            turn = turns[0] if turns else None
            mover = str(turn["mover"]) if turn else "white"
            score = white_score(turn.get("score_before"), mover) if turn else None
            known, by = _known(turn, "before", mover)
            label = move = ""
            threw, first = None, False
        else:
            turn = turns[ply - 1]
            mover = str(turn["mover"])
            score = white_score(turn.get("score_after"), mover)
            known, by = _known(turn, "after", mover)
            label, move = str(turn.get("label", f"{ply}.")), str(turn.get("move", ""))
            threw, first = turn.get("threw"), bool(turn.get("mistake"))
        x = LEFT + (inner * ply / count if count else inner / 2)
        y = None if score is None else mid - half * score_height(int(score))
        points.append(
            ChartPoint(
                ply=ply,
                label=label,
                move=move,
                score=None if score is None else int(score),
                x=x,
                y=y,
                known=known,
                known_by=by,
                threw=None if threw is None else str(threw),
                first=first,
            )
        )
    tags = review.get("tags") or {}
    title = _tr(lang, N_("{white} vs {black}: {result}, the score over the game")).format(
        white=tags.get("White", "white"),
        black=tags.get("Black", "black"),
        result=review.get("result", "*"),
    )
    return Chart(width, HEIGHT, tuple(points), title, lang)


def describe_point(point: ChartPoint, lang: str | None = None) -> str:
    """A point's tooltip: the turn, White's score, the known result, a thrown result (in
    language ``lang``, ``None``: the board's)."""
    from morris.app.review import score_words

    head = _tr(lang, N_("the start")) if point.ply == 0 else f"{point.label} {point.move}"
    text = _tr(lang, N_("{turn}: {score} (White's score)")).format(
        turn=head, score=score_words(point.score).render(lang)
    )
    if point.known is not None:
        source = {
            "solution": N_("by the solved game"),
            "tables": N_("by the endgame tables"),
            "end": N_("the game is over"),
        }.get(point.known_by or "")
        text += ", " + _tr(lang, N_("{result} ({source})")).format(
            result=band_word(point.known, lang), source=_tr(lang, source) if source else ""
        )
    if point.threw is not None:
        first = N_("the first turn that threw a result away")
        text += ", " + _tr(lang, first if point.first else N_("a turn that threw a result away"))
    return text


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _style() -> str:
    c = CHART_COLOURS
    return (
        f".black-side{{fill:{c['ahead_black']}}}"
        f".white-side{{fill:{c['ahead_white']}}}"
        f".frame{{fill:none;stroke:{c['frame']};stroke-width:1}}"
        f".even{{stroke:{c['frame']};stroke-width:1;stroke-dasharray:4 4;opacity:.7}}"
        f".curve{{fill:none;stroke:{c['curve']};stroke-width:2;stroke-linejoin:round}}"
        f".pt{{fill:{c['curve']}}}"
        f".pt.threw{{fill:{c['threw']};stroke:#fff;stroke-width:1}}"
        f".pt.first{{fill:{c['first']};stroke:#fff;stroke-width:1.5}}"
        f".threw-line{{stroke:{c['threw']};stroke-width:1.5;stroke-dasharray:3 3}}"
        f".first-line{{stroke:{c['first']};stroke-width:2}}"
        f".band.white{{fill:{BAND_COLOURS['white']};stroke:#444;stroke-width:.5}}"
        f".band.draw{{fill:{BAND_COLOURS['draw']}}}"
        f".band.black{{fill:{BAND_COLOURS['black']}}}"
        f".cursor{{stroke:{c['cursor']};stroke-width:2}}"
        ".hit{fill:transparent;cursor:pointer}"
        f".axis{{font:11px sans-serif;fill:{c['frame']};dominant-baseline:middle}}"
        f".mark-text{{font:bold 11px sans-serif;fill:{c['first']};text-anchor:middle}}"
    )


def render_chart_svg(chart: Chart, *, cursor: int | None = None) -> str:
    """The chart as a standalone SVG document (its style inside); ``cursor``: the position to
    mark with a line (the page moves it: ``<line class="cursor">``)."""
    w, h = _num(chart.width), _num(chart.height)
    title = html.escape(chart.title)
    x0, x1 = LEFT, chart.width - RIGHT
    mid = chart.mid
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" class="chart"'
        f' role="img" aria-label="{title}">',
        f"<title>{title}</title>",
        f"<style>{_style()}</style>",
        f'<rect class="black-side" x="{_num(x0)}" y="{_num(TOP)}" width="{_num(x1 - x0)}" '
        f'height="{_num(PLOT_BOTTOM - TOP)}"/>',
    ]
    for run in chart.curve():
        # White's share: from the curve down to the plot's bottom.
        first_x, last_x = run[0][0], run[-1][0]
        if len(run) == 1:
            first_x, last_x = run[0][0] - chart.step / 2, run[0][0] + chart.step / 2
            run = [(first_x, run[0][1]), (last_x, run[0][1])]
        area = " ".join(f"{_num(x)},{_num(y)}" for x, y in run)
        out.append(
            f'<polygon class="white-side" points="{_num(first_x)},{_num(PLOT_BOTTOM)} {area} '
            f'{_num(last_x)},{_num(PLOT_BOTTOM)}"/>'
        )
    out.append(
        f'<line class="even" x1="{_num(x0)}" y1="{_num(mid)}" x2="{_num(x1)}" y2="{_num(mid)}"/>'
    )
    for run in chart.curve():
        line = " ".join(f"{_num(x)},{_num(y)}" for x, y in run)
        out.append(f'<polyline class="curve" points="{line}"/>')
    out.append(
        f'<rect class="frame" x="{_num(x0)}" y="{_num(TOP)}" width="{_num(x1 - x0)}" '
        f'height="{_num(PLOT_BOTTOM - TOP)}"/>'
    )
    white_edge, black_edge, band = (html.escape(word) for word in axis_words(chart.lang))
    out.append(f'<text class="axis" x="4" y="{_num(TOP + 6)}">{white_edge}</text>')
    out.append(f'<text class="axis" x="4" y="{_num(PLOT_BOTTOM - 6)}">{black_edge}</text>')
    out.append(f'<text class="axis" x="4" y="{_num(BAND_TOP + BAND_HEIGHT / 2)}">{band}</text>')
    for bx0, bx1, result in chart.bands():
        out.append(
            f'<rect class="band {result}" x="{_num(bx0)}" y="{_num(BAND_TOP)}" '
            f'width="{_num(bx1 - bx0)}" height="{_num(BAND_HEIGHT)}">'
            f"<title>{html.escape(band_word(result, chart.lang))}</title></rect>"
        )
    for point in chart.points:
        if point.threw is None:
            continue
        kind = "first-line" if point.first else "threw-line"
        out.append(
            f'<line class="{kind}" x1="{_num(point.x)}" y1="{_num(TOP)}" x2="{_num(point.x)}" '
            f'y2="{_num(PLOT_BOTTOM)}"/>'
        )
        if point.first:
            below = _num(BAND_TOP + BAND_HEIGHT + 11)
            out.append(f'<text class="mark-text" x="{_num(point.x)}" y="{below}">??</text>')
    shown = chart.points[cursor] if cursor is not None and 0 <= cursor < len(chart.points) else None
    cx = _num(shown.x) if shown is not None else "-10"
    out.append(
        f'<line class="cursor" x1="{cx}" y1="{_num(TOP)}" x2="{cx}" y2="{_num(PLOT_BOTTOM)}"'
        f' data-ply="{"" if shown is None else shown.ply}"/>'
    )
    radius = max(1.5, min(4.0, chart.step / 3))
    for point in chart.points:
        if point.y is None:
            continue
        kind = "pt first" if point.first else "pt threw" if point.threw else "pt"
        r = radius + (2.0 if point.threw else 0.0)
        out.append(
            f'<circle class="{kind}" cx="{_num(point.x)}" cy="{_num(point.y)}" r="{_num(r)}" '
            f'data-ply="{point.ply}" data-score="{point.score}"/>'
        )
    for point in chart.points:
        hx0, hx1 = chart.column(point.ply)
        out.append(
            f'<rect class="hit" x="{_num(hx0)}" y="0" width="{_num(hx1 - hx0)}" '
            f'height="{h}" data-ply="{point.ply}" data-x="{_num(point.x)}">'
            f"<title>{html.escape(describe_point(point, chart.lang))}</title></rect>"
        )
    out.append("</svg>")
    return "".join(out)
