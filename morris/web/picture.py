"""The board picture: one small scene model, drawn as SVG (the page, ``/api/render.svg``).

:func:`scene_of_snapshot` and :func:`scene_of_position` build a :class:`Scene` (the board's lines
from the rules' links, so the diagonals of twelve men's morris and morabaraba come from the
variant's data; the points with their pieces, light signals and the marks of the last turn; the
coordinate labels), and :func:`render_svg` draws it. Other pictures (a PNG, ``morris render``)
draw the same :class:`Scene`.

Each point's light is a ring with the CSS class of its signal (``light on``, ``light slow``,
``light fast``); the blink periods are the device's (:data:`morris_device.BLINK_TIMING`), and a
ring's ``animation-delay`` puts its blink in the phase the LED has (a blink starts lit when the
LED takes its signal). Each point has a round tap target ``<circle class="hit" data-point="d6">``.

>>> picture = render_svg(scene_of_position("W......./......../.......B w 8 8 0 2 -"))
>>> picture.startswith("<svg") and 'data-point="a7"' in picture
True
"""

from __future__ import annotations

import dataclasses
import html
import logging
from collections.abc import Mapping
from dataclasses import dataclass

from morris.app.snapshot import Snapshot
from morris.core import COLOR_NAMES, Board, Move, Rules, find_variant
from morris_device import BLINK_TIMING, POINT_NAMES, Signal

logger = logging.getLogger(__name__)

#: The picture's size in SVG units (square).
SIZE = 360.0
#: Distance from the edge to the outer square's corners, and between neighbouring grid lines.
MARGIN = 30.0
STEP = (SIZE - 2 * MARGIN) / 6
PIECE_RADIUS = 15.0
LIGHT_RADIUS = 21.0
#: The tap target's radius: 24 units is >= 44 px wherever the board is drawn >= 330 px wide.
HIT_RADIUS = STEP / 2
#: The mark on a piece the game has not read yet (the simulator's ``?``), and its size.
UNKNOWN_GLYPH = "?"
GLYPH_SIZE = 18.0

COLOURS = {
    "board": "#e9c98f",
    "line": "#5a3d1e",
    "white": "#f7f3ea",
    "black": "#2b2b2b",
    "unknown": "#9a9a9a",
    "light": "#22c55e",
    "slow": "#f59e0b",
    "fast": "#ef4444",
    "mark": "#2563eb",
}


@dataclass(frozen=True)
class PointMark:
    """One point as drawn."""

    name: str
    x: float
    y: float
    #: ``"white"``, ``"black"``, ``"unknown"`` (a piece the game does not know) or ``None``.
    piece: str | None
    #: The LED's signal: ``"off"``, ``"on"``, ``"slow"`` or ``"fast"``.
    signal: str
    #: Seconds since the LED took its signal (the phase of its blink).
    age: float
    #: The last turn's mark here: ``"to"``, ``"from"``, ``"taken"`` or ``None``.
    mark: str | None
    #: The colour of the game's piece that belongs here but is off the wood (a simulated board
    #: whose piece is lifted), else ``None``.
    lifted: str | None = None


@dataclass(frozen=True)
class Scene:
    """What a picture of the board shows, in picture coordinates (``0 .. size``)."""

    size: float
    #: The board's lines: ``(x1, y1, x2, y2)``.
    lines: tuple[tuple[float, float, float, float], ...]
    points: tuple[PointMark, ...]
    #: The coordinate letters and numbers: ``(text, x, y)``.
    labels: tuple[tuple[str, float, float], ...]
    flipped: bool
    #: A title for the picture (its ``<title>``).
    title: str


def point_xy(name: str, *, flip: bool = False) -> tuple[float, float]:
    """Where point ``name`` is drawn: ``a7`` top left, ``g1`` bottom right (turned by half a
    turn with ``flip``, as seen from Black's side)."""
    column = ord(name[0]) - ord("a")
    row = 7 - int(name[1:])
    if flip:
        column, row = 6 - column, 6 - row
    return MARGIN + column * STEP, MARGIN + row * STEP


def _last_marks(last_move: str | None) -> dict[str, str]:
    if not last_move:
        return {}
    try:
        move = Move.parse(last_move)
    except ValueError:
        return {}
    marks = {POINT_NAMES[move.to_point]: "to"}
    if move.from_point is not None:
        marks[POINT_NAMES[move.from_point]] = "from"
    if move.remove is not None:
        marks[POINT_NAMES[move.remove]] = "taken"
    return marks


def build_scene(
    rules: Rules,
    pieces: Mapping[str, str],
    *,
    lights: Mapping[str, str] | None = None,
    ages: Mapping[str, float] | None = None,
    last_move: str | None = None,
    flip: bool = False,
    title: str = "Mill board",
    on_wood: frozenset[str] | None = None,
) -> Scene:
    """The scene of a board with ``rules``' links, ``pieces`` (point name -> colour name),
    the LED ``lights`` (point name -> signal value; none: all off) of the given ``ages``, and
    the marks of ``last_move`` (a turn's notation). ``on_wood`` (where pieces stand on the wood:
    a simulated board's pins, or the sensors' reading) draws what stands there as the simulator
    does: a game's piece not there as lifted, a piece the game does not know (has not read yet)
    as ``"unknown"``, with a ``?``."""
    lights = lights or {}
    ages = ages or {}
    # Points outside the game (a variant on part of the board) have no links: not drawn.
    in_play = [p for p, mask in enumerate(rules.neighbours) if mask]
    lines = []
    for p in in_play:
        for q in range(p + 1, len(POINT_NAMES)):
            if rules.neighbours[p] >> q & 1:
                (x1, y1), (x2, y2) = (point_xy(POINT_NAMES[i], flip=flip) for i in (p, q))
                lines.append((x1, y1, x2, y2))
    marks = _last_marks(last_move)
    points = []
    for p in in_play:
        name = POINT_NAMES[p]
        x, y = point_xy(name, flip=flip)
        piece, lifted = pieces.get(name), None
        if on_wood is not None:
            piece, lifted = ((piece or "unknown"), None) if name in on_wood else (None, piece)
        points.append(
            PointMark(
                name=name,
                x=x,
                y=y,
                piece=piece,
                lifted=lifted,
                signal=str(lights.get(name, "off")),
                age=max(0.0, float(ages.get(name, 0.0))),
                mark=marks.get(name),
            )
        )
    labels = []
    for i in range(7):
        letter, number = "abcdefg"[i], str(i + 1)
        lx, _ = point_xy(f"{letter}1", flip=flip)
        _, ny = point_xy(f"a{number}", flip=flip)
        labels.append((letter, lx, SIZE - 8.0))
        labels.append((number, 10.0, ny))
    return Scene(SIZE, tuple(lines), tuple(points), tuple(labels), flip, title)


def scene_of_snapshot(
    snapshot: Snapshot, now: float, *, flip: bool = False, on_wood: frozenset[str] | None = None
) -> Scene:
    """The scene of the controller's ``snapshot``, its blinks in their phase at ``now``
    (``on_wood``: see :func:`build_scene`)."""
    rules = find_variant(snapshot.variant).variant
    ages = {name: now - since for name, since in snapshot.lights_since.items()}
    lights = {name: Signal(signal).value for name, signal in snapshot.lights.items()}
    title = f"{snapshot.variant}: {snapshot.turn} to move"
    if snapshot.outcome is not None:
        title = f"{snapshot.variant}: {snapshot.outcome}"
    return build_scene(
        rules,
        snapshot.pieces,
        lights=lights,
        ages=ages,
        last_move=snapshot.moves[-1] if snapshot.moves else None,
        flip=flip,
        title=title,
        on_wood=on_wood,
    )


def scene_of_position(
    position: str, variant: str = "standard", *, last_move: str | None = None, flip: bool = False
) -> Scene:
    """The scene of a position text (no lights). Raises :class:`ValueError` subclasses for an
    unknown variant (:class:`KeyError` is turned into one), a bad position or a bad move."""
    try:
        cls = find_variant(variant)
    except KeyError:
        raise ValueError(f"unknown variant {variant!r}") from None
    board: Board = cls.from_position(position)
    if last_move:
        Move.parse(last_move)
    pieces = {name: COLOR_NAMES[colour] for name, colour in board.pieces().items()}
    turn = COLOR_NAMES[board.turn]
    return build_scene(
        cls.variant, pieces, last_move=last_move, flip=flip, title=f"{variant}: {turn} to move"
    )


#: The app icon's pieces: a white mill along the top, black pieces beside it.
ICON_PIECES = {
    "a7": "white",
    "d7": "white",
    "g7": "white",
    "b4": "black",
    "d3": "black",
    "f4": "black",
    "d5": "white",
}


def icon_scene() -> Scene:
    """The app's icon (manifest, favicon): the standard board with a white mill on its top line,
    lit, and no coordinate labels (too small to read on a home screen)."""
    rules = find_variant("standard").variant
    lights = {name: "on" for name in ("a7", "d7", "g7")}
    scene = build_scene(rules, ICON_PIECES, lights=lights, title="morris")
    return dataclasses.replace(scene, labels=())


def scene_of_query(query: Mapping[str, str], route: str) -> Scene:
    """The scene a picture route's query asks for: ``position`` (required), ``variant``,
    ``last`` (the turn to mark) and ``flip``. Raises :class:`ValueError` naming the problem."""
    position = query.get("position")
    if not position:
        raise ValueError(f"position missing: {route}?position=<position text>")
    try:
        return scene_of_position(
            position,
            query.get("variant", "standard"),
            last_move=query.get("last") or None,
            flip=query.get("flip") in ("1", "true"),
        )
    except ValueError as exc:
        raise ValueError(f"cannot draw {position!r}: {exc}") from None


def _blink_css(signal: Signal) -> str:
    """The CSS of one blinking signal: its period, lit for the device's time on."""
    period, lit = BLINK_TIMING[signal]
    name = signal.value
    percent = f"{100 * lit / period:g}%"
    # step-end holds each keyframe until the next: lit first, from the start of every period.
    return (
        f".light.{name}{{stroke:{COLOURS[name]};opacity:1;"
        f"animation:blink-{name} {period:g}s step-end infinite}}"
        f"@keyframes blink-{name}{{0%{{opacity:1}}{percent}{{opacity:.08}}100%{{opacity:.08}}}}"
    )


def _style() -> str:
    c = COLOURS
    return (
        f".bg{{fill:{c['board']}}}"
        f".ln{{stroke:{c['line']};stroke-width:3;stroke-linecap:round}}"
        f".dot{{fill:{c['line']}}}"
        f".piece.white{{fill:{c['white']};stroke:#444;stroke-width:1.5}}"
        f".piece.black{{fill:{c['black']};stroke:#000;stroke-width:1.5}}"
        f".piece.unknown{{fill:{c['unknown']};stroke:#444;stroke-dasharray:3 2}}"
        ".piece.lifted{opacity:.35;stroke-dasharray:4 3}"
        ".light{fill:none;stroke-width:4;opacity:0}"
        f".light.on{{stroke:{c['light']};opacity:1}}"
        + "".join(_blink_css(signal) for signal in BLINK_TIMING)
        + f".mark.to{{fill:none;stroke:{c['mark']};stroke-width:2.5}}"
        f".mark.from{{fill:{c['mark']};opacity:.6}}"
        f".mark.taken{{stroke:{c['fast']};stroke-width:3;stroke-linecap:round}}"
        ".hit{fill:transparent;cursor:pointer}"
        ".label{font:bold 12px sans-serif;fill:#5a3d1e;text-anchor:middle;"
        "dominant-baseline:middle}"
        f".glyph{{font:bold {_num(GLYPH_SIZE)}px sans-serif;fill:{c['black']};text-anchor:middle;"
        "dominant-baseline:central;pointer-events:none}"
    )


def _delay(signal: str, age: float) -> str:
    """The animation delay that puts a blink ``age`` seconds into its cycle."""
    timing = {blinking.value: t for blinking, t in BLINK_TIMING.items()}.get(signal)
    if timing is None:
        return ""
    period = timing[0]
    return f' style="animation-delay:-{age % period:.3f}s"'


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def render_svg(scene: Scene) -> str:
    """The scene as a standalone SVG document (its style inside)."""
    s = _num(scene.size)
    title = html.escape(scene.title)
    flipped = " flipped" if scene.flipped else ""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {s} {s}" class="board{flipped}"'
        f' role="img" aria-label="{title}">',
        f"<title>{title}</title>",
        f"<style>{_style()}</style>",
        f'<rect class="bg" x="0" y="0" width="{s}" height="{s}" rx="12"/>',
    ]
    for x1, y1, x2, y2 in scene.lines:
        out.append(
            f'<line class="ln" x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}"/>'
        )
    for text, lx, ly in scene.labels:
        out.append(f'<text class="label" x="{_num(lx)}" y="{_num(ly)}">{text}</text>')
    for point in scene.points:
        x, y = _num(point.x), _num(point.y)
        attrs = f'data-point="{point.name}" data-signal="{point.signal}"'
        if point.piece:
            attrs += f' data-piece="{point.piece}"'
        if point.lifted:
            attrs += f' data-lifted="{point.lifted}"'
        if point.mark:
            attrs += f' data-mark="{point.mark}"'
        out.append(f'<g class="point" {attrs}>')
        out.append(f'<circle class="dot" cx="{x}" cy="{y}" r="5"/>')
        out.append(
            f'<circle class="light {point.signal}" cx="{x}" cy="{y}" r="{_num(LIGHT_RADIUS)}"'
            f"{_delay(point.signal, point.age)}/>"
        )
        if point.mark == "from":
            out.append(f'<circle class="mark from" cx="{x}" cy="{y}" r="7"/>')
        if point.piece:
            out.append(
                f'<circle class="piece {point.piece}" cx="{x}" cy="{y}" r="{_num(PIECE_RADIUS)}"/>'
            )
            if point.piece == "unknown":  # the simulator's "?": on the wood, not read yet
                out.append(f'<text class="glyph" x="{x}" y="{y}">{UNKNOWN_GLYPH}</text>')
        elif point.lifted:
            out.append(
                f'<circle class="piece lifted {point.lifted}" cx="{x}" cy="{y}" '
                f'r="{_num(PIECE_RADIUS)}"/>'
            )
        if point.mark == "to":
            out.append(f'<circle class="mark to" cx="{x}" cy="{y}" r="{_num(PIECE_RADIUS + 3)}"/>')
        if point.mark == "taken":
            d = 8.0
            out.append(
                f'<path class="mark taken" d="M{_num(point.x - d)} {_num(point.y - d)}'
                f"L{_num(point.x + d)} {_num(point.y + d)}M{_num(point.x + d)} "
                f'{_num(point.y - d)}L{_num(point.x - d)} {_num(point.y + d)}"/>'
            )
        out.append(
            f'<circle class="hit" cx="{x}" cy="{y}" r="{_num(HIT_RADIUS)}" '
            f'data-point="{point.name}"><title>{point.name}</title></circle>'
        )
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)
