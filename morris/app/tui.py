"""``morris sim`` in the terminal: the simulated board drawn with every point's light.

:class:`SimulatorApp` owns a :class:`~morris.sim.Simulation` (the real controller, referee, lights
and engine on a simulated gpiozero board) and moves its virtual clock along with real time, so the
LEDs blink at their real rates (slow 1 Hz, fast 4 Hz). The person's hands are the mouse (click a
point to put a piece there or take it off), the input line (``d6``, ``a1-a4``, ``xg7``) and the
keys of the four buttons beside the board (``n``, ``t``, ``h``, ``m``).

The Pi searches on a worker thread (:class:`BackgroundRunner`), so the interface stays live at
high levels. Tests pass ``autoplay=False``: no timer, no thread, and :meth:`SimulatorApp.advance`
moves virtual time explicitly, so a game in a test is as deterministic as one in the harness.
"""

from __future__ import annotations

import logging
import queue
import re
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Header, Input, Label, RadioButton, RadioSet, Select, Static

from hardware.interface import POINTS, Signal, StatusLight, signal_level
from morris.app.config import Config
from morris.app.controller import SearchJob
from morris.app.search import Deliver, SearchFunction, ThreadedRunner, make_search
from morris.core import BLACK, COLOR_NAMES, POINT_NAMES, WHITE, Board, Color, Move
from morris.engine.levels import MAX_LEVEL
from morris.sim import THINK_TIME, Simulation

logger = logging.getLogger(__name__)

#: How often the real-time loop advances the simulation, per second.
TICK_RATE = 25
#: The longest step of virtual time one tick may take (after a suspended terminal, say).
MAX_TICK = 0.5
#: Virtual seconds between lifting a piece and putting it down in a typed move ``a1-a4``.
MOVE_PAUSE = 0.3
#: Virtual seconds between the turns of one typed line (``d6 f4``): more than the referee's
#: accept delay, so each is read as a turn of its own.
TOKEN_PAUSE = 1.0
#: How many events the side panel lists.
EVENT_LINES = 6
#: The width of the side panel's text.
PANEL_WIDTH = 38

_FILES = "abcdefg"
_POINT_SET = frozenset(POINTS)


# -- the Pi's searches off the UI thread ------------------------------------------------------


class BackgroundRunner:
    """Runs the Pi's searches on a worker thread; the simulation picks answers up in ``wait``.

    An answer is handed over no sooner than ``think_time`` seconds of ``clock`` after its search
    started, so the Pi never answers faster than a person can follow. Cancelled searches are
    dropped. Implements :class:`morris.sim.SimulationRunner`.
    """

    def __init__(
        self,
        search: SearchFunction,
        *,
        think_time: float = THINK_TIME,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.think_time = think_time
        self._clock = clock
        self._answers: queue.SimpleQueue[tuple[SearchJob, Move | None]] = queue.SimpleQueue()
        self._started: dict[int, float] = {}
        self._ready: list[tuple[float, SearchJob, Move | None]] = []
        self._worker = ThreadedRunner(search, self._answered)

    def _answered(self, job: SearchJob, move: Move | None) -> None:
        # Called on the worker thread: only hand the answer over.
        self._answers.put((job, move))

    def start(self, job: SearchJob) -> None:
        """Queue ``job`` on the worker."""
        self._started[job.job_id] = self._clock()
        self._worker.start(job)

    def cancel(self, job: SearchJob) -> None:
        """Stop ``job``; its answer, if it comes, is dropped."""
        self._worker.cancel(job)
        self._started.pop(job.job_id, None)
        self._ready = [r for r in self._ready if r[1] is not job]

    @property
    def is_busy(self) -> bool:
        """Whether a search is running or its answer is not handed over yet."""
        return bool(self._started)

    def next_deadline(self) -> float | None:
        """Always ``None``: the answers' time is the worker's; the app polls often enough."""
        return None

    def deliver_due(self, now: float, deliver: Deliver) -> None:
        """Hand over every finished answer whose think time has passed."""
        while True:
            try:
                job, move = self._answers.get_nowait()
            except queue.Empty:
                break
            started = self._started.get(job.job_id)
            if started is None or job.cancelled:
                continue
            self._ready.append((started + self.think_time, job, move))
        if not self._ready:
            return
        clock = self._clock()
        due = [r for r in self._ready if r[0] <= clock]
        self._ready = [r for r in self._ready if r[0] > clock]
        for _, job, move in due:
            self._started.pop(job.job_id, None)
            deliver(job, move)

    def close(self, timeout: float = 2.0) -> None:
        """Stop the worker (a running search is cancelled by the controller first)."""
        self._worker.close(timeout)


# -- what is shown at each point --------------------------------------------------------------


@dataclass(frozen=True)
class PointView:
    """One point as drawn: the piece there (as the person sees it) and its LED."""

    piece: str | None  # "white", "black", "unknown" (sensed, not in the game) or None
    lifted: bool  # the game has a piece here, but it is off the board
    signal: Signal  # what the LED shows
    lit: bool  # whether the LED is lit at this instant


def point_views(
    board: Board,
    present: Iterable[str],
    lights: Mapping[str, str],
    now: float,
) -> dict[str, PointView]:
    """Every point's view: the game's pieces on ``board``, the magnets ``present`` on the wood,
    the LED ``lights`` blinking at time ``now``."""
    pieces = board.pieces()
    present = frozenset(present)
    views = {}
    for name in POINTS:
        colour = pieces.get(name)
        signal = Signal(lights.get(name, "off"))
        if name in present:
            piece: str | None = COLOR_NAMES[colour] if colour is not None else "unknown"
        else:
            piece = None
        views[name] = PointView(
            piece=piece,
            lifted=colour is not None and name not in present,
            signal=signal,
            lit=signal_level(signal, now),
        )
    return views


def lifted_colour(board: Board, name: str) -> str:
    """The colour of the game's piece on ``name`` (for drawing a lifted piece)."""
    colour = board.piece_at(name)
    return COLOR_NAMES[colour] if colour is not None else "unknown"


# -- the board widget -------------------------------------------------------------------------

_LINE = Style(color="#8a7760")
_LABEL = Style(color="#9a9a9a")
_PAD = "#6e5238"  # a point of the wooden board, LED dark
_LIT = "#ff8c1a"  # the LED glowing
_PIECE_COLOURS = {"white": "#ffffff", "black": "#000000", "unknown": "#e040fb"}
_EMPTY = "#c8ad8a"


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
    """The 24 points on the 7x7 grid of RULES.md, with their lines, pieces and LEDs.

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
        self.lifted_colours: dict[str, str] = {}
        self._links: list[tuple[str, str]] = []

    def set_links(self, board: Board) -> None:
        """Draw the lines of ``board``'s variant (diagonal links are not drawn)."""
        links = []
        for p, mask in enumerate(board.neighbours):
            for q in range(p + 1, len(POINT_NAMES)):
                if mask >> q & 1:
                    a, b = POINT_NAMES[p], POINT_NAMES[q]
                    if a[0] == b[0] or a[1] == b[1]:
                        links.append((a, b))
        self._links = links
        self.refresh()

    def show(self, views: dict[str, PointView], lifted_colours: dict[str, str]) -> None:
        """Draw ``views`` (redrawn only when something changed)."""
        if views != self.views or lifted_colours != self.lifted_colours:
            self.views = views
            self.lifted_colours = lifted_colours
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
        for name in POINTS:
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
                    put(x, ay, "─", _LINE)
            else:
                for y in range(min(ay, by) + 1, max(ay, by)):
                    put(ax, y, "│", _LINE)
        for rank in range(1, 8):
            put(g.x0, g.y0 + (7 - rank) * g.dy, str(rank), _LABEL)
        for col, letter in enumerate(_FILES):
            put(g.x0 + 4 + col * g.dx, g.y0 + 6 * g.dy + 1, letter, _LABEL)
        for name in POINTS:
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
        bg = _LIT if view is not None and view.lit else _PAD
        if view is None or (view.piece is None and not view.lifted):
            return "·", Style(color=_EMPTY, bgcolor=bg)
        if view.piece is not None:
            return "●", Style(color=_PIECE_COLOURS[view.piece], bgcolor=bg, bold=True)
        colour = self.lifted_colours.get(name, "unknown")
        return "○", Style(color=_PIECE_COLOURS[colour], bgcolor=bg, bold=True)


# -- the side panel ---------------------------------------------------------------------------


def _swatch(lit: bool) -> Text:
    return Text("■", Style(color=_LIT if lit else "#4a3a2a"))


def legend(now: float) -> Text:
    """The light language and the piece symbols, each swatch blinking at its rate."""
    text = Text()
    text.append("Lights\n", Style(bold=True))
    for signal, meaning in (
        (Signal.ON, "put a piece here"),
        (Signal.SLOW, "take this piece off"),
        (Signal.FAST, "wrong: put back / take off"),
    ):
        text.append(" ")
        text.append_text(_swatch(signal_level(signal, now)))
        text.append(f" {signal.value:<5} {meaning}\n")
    text.append("Pieces ")
    for label, colour, glyph in (
        ("white", "white", "●"),
        ("black", "black", "●"),
        ("unread", "unknown", "●"),
        ("lifted", "white", "○"),
    ):
        text.append(glyph, Style(color=_PIECE_COLOURS[colour], bgcolor=_PAD, bold=True))
        text.append(f"{label} ")
    return text


def _status_text(status: Mapping[str, str], now: float) -> Text:
    text = Text()
    names = {
        StatusLight.TURN: "turn",
        StatusLight.THINKING: "thinking",
        StatusLight.ERROR: "error",
        StatusLight.GAME_OVER: "game over",
    }
    text.append("LEDs   ", Style(bold=True))
    for i, (light, label) in enumerate(names.items()):
        signal = Signal(status.get(light.value, "off"))
        lit = signal_level(signal, now)
        if i == 2:
            text.append("\n       ")
        text.append(
            "● ",
            Style(color="#ff4040" if light is StatusLight.ERROR else _LIT)
            if lit
            else Style(color="#555555"),
        )
        text.append(f"{label:<10}", Style(dim=not lit))
    return text


# -- the new-game dialog ----------------------------------------------------------------------


@dataclass(frozen=True)
class GameSettings:
    """Who plays the next game."""

    mode: str = "vs-ai"
    human: str = "white"
    level: int = 5

    def describe(self) -> str:
        """``you (white) vs the Pi, level 5`` or ``referee: two players``."""
        if self.mode == "referee":
            return "referee: two players"
        return f"you ({self.human}) vs the Pi, level {self.level}"


class NewGameScreen(ModalScreen[GameSettings | None]):
    """Choose mode, colour and level, then start a fresh game on a cleared board."""

    DEFAULT_CSS = """
    NewGameScreen { align: center middle; }
    #dialog {
        width: 52; height: auto; border: round $accent; background: $surface; padding: 0 1;
    }
    #dialog Label { margin-top: 1; }
    #dialog RadioSet { width: 100%; }
    #dialog Select { width: 100%; }
    #dialog-buttons { height: auto; margin-top: 1; align-horizontal: right; }
    #dialog-buttons Button { margin-left: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: GameSettings) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        """The three choices and the buttons."""
        with Vertical(id="dialog"):
            yield Label("[b]New game[/b] — the board is cleared")
            yield Label("Mode")
            with RadioSet(id="mode"):
                yield RadioButton("Play against the Pi", value=self.current.mode == "vs-ai")
                yield RadioButton("Referee two players", value=self.current.mode == "referee")
            yield Label("Your colour against the Pi")
            with RadioSet(id="human"):
                yield RadioButton("White (moves first)", value=self.current.human == "white")
                yield RadioButton("Black", value=self.current.human == "black")
            yield Label("The Pi's level")
            yield Select(
                [
                    (
                        f"{n}"
                        + (" (beginner)" if n == 1 else "")
                        + (" (strongest)" if n == MAX_LEVEL else ""),
                        n,
                    )
                    for n in range(1, MAX_LEVEL + 1)
                ],
                value=self.current.level,
                allow_blank=False,
                id="level",
            )
            with Horizontal(id="dialog-buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Cancel", id="cancel")

    def chosen(self) -> GameSettings:
        """The settings as chosen now."""
        mode = self.query_one("#mode", RadioSet).pressed_index
        human = self.query_one("#human", RadioSet).pressed_index
        level = self.query_one("#level", Select).value
        return GameSettings(
            mode="referee" if mode == 1 else "vs-ai",
            human="black" if human == 1 else "white",
            level=level if isinstance(level, int) else self.current.level,
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Start or cancel."""
        event.stop()
        self.dismiss(self.chosen() if event.button.id == "start" else None)

    def action_cancel(self) -> None:
        """Close without a new game."""
        self.dismiss(None)


# -- the app ----------------------------------------------------------------------------------


class InputError(ValueError):
    """A typed line that cannot be carried out; the message says why."""


@dataclass(frozen=True)
class _Action:
    due: float
    kind: str  # "place" or "lift"
    point: str


def parse_actions(text: str, present: frozenset[str], now: float) -> list[_Action]:
    """The hand actions a typed line asks for, checked against the pieces ``present``.

    ``d6`` toggles a piece on d6, ``a1-a4`` lifts the piece on a1 and puts it on a4, ``xg7``
    takes the piece off g7; several may be given (``d6 f4``, ``d6xg7``), each a turn apart.
    ``clear`` takes every piece off (for a new game).
    Raises :class:`InputError` naming the bad part; then nothing is done.
    """
    if text.strip().lower() == "clear":
        return [_Action(now, "lift", name) for name in POINTS if name in present]
    tokens = [t for t in re.split(r"[\s,;]+|(?=x)", text.strip().lower()) if t]
    if not tokens:
        raise InputError("type a point (d6), a move (a1-a4) or a removal (xg7)")
    on_board = set(present)
    actions: list[_Action] = []
    at = now

    def point(name: str, token: str) -> str:
        if name not in _POINT_SET:
            if re.fullmatch(r"[a-g][1-7]", name):
                raise InputError(f"{name} is not a point of the board (in {token!r})")
            raise InputError(f"{name!r} is not a point: points are a1 .. g7, as at the edges")
        return name

    for i, token in enumerate(tokens):
        if i:
            at += TOKEN_PAUSE
        if m := re.fullmatch(r"([a-z]+\d*)-([a-z]+\d*)", token):
            origin, target = point(m[1], token), point(m[2], token)
            if origin not in on_board:
                raise InputError(f"{token}: there is no piece on {origin} to move")
            if target in on_board:
                raise InputError(f"{token}: {target} already has a piece")
            on_board.discard(origin)
            on_board.add(target)
            actions.append(_Action(at, "lift", origin))
            actions.append(_Action(at + MOVE_PAUSE, "place", target))
        elif m := re.fullmatch(r"x([a-z]+\d*)", token):
            name = point(m[1], token)
            if name not in on_board:
                raise InputError(f"{token}: there is no piece on {name} to take off")
            on_board.discard(name)
            actions.append(_Action(at, "lift", name))
        elif re.fullmatch(r"[a-z]+\d*", token):
            name = point(token, token)
            kind = "lift" if name in on_board else "place"
            on_board.symmetric_difference_update({name})
            actions.append(_Action(at, kind, name))
        else:
            raise InputError(
                f"cannot read {token!r}: type a point (d6), a move (a1-a4) or a removal (xg7)"
            )
    return actions


#: The keys of the buttons beside the board; no point name or move uses them.
BUTTON_KEYS = {"n": "new", "t": "takeback", "h": "hint", "m": "mode"}
_APP_KEYS = frozenset({*BUTTON_KEYS, "s", "q"})


class PointInput(Input):
    """The input line: points and moves; the app's single-letter keys pass through it."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """Leave the button keys to the app."""
        return key not in _APP_KEYS and super().check_consume_key(key, character)


class SimulatorApp(App[None]):
    """The simulated board in the terminal, in real time (or stepped, with ``autoplay=False``).

    ``config`` holds the game (mode, colour, level, variant, flying) and the engine's seed;
    ``state_dir`` keeps the unfinished game across runs. With ``threaded`` (default: as
    ``autoplay``) the Pi searches on a worker thread; otherwise in virtual time, deterministically.
    """

    TITLE = "morris sim"
    SUB_TITLE = "Nine Men's Morris on a simulated board"

    CSS = """
    Screen { layout: vertical; }
    #main { height: 1fr; }
    #board-box {
        width: 1fr; border: round $primary-darken-1; border-title-color: $text;
        border-subtitle-color: $text-muted;
    }
    #side { width: 42; border: round $secondary-darken-1; padding: 0 1; }
    #side Static { margin-bottom: 1; }
    #events { height: auto; }
    #buttons { height: 1; }
    #buttons Button { margin-right: 1; min-width: 8; }
    #entry { height: 1; }
    #entry-label { width: auto; padding: 0 1; color: $text-muted; }
    #entry Input { width: 1fr; }
    #message { height: 1; padding: 0 1; }
    #message.error { color: $error; text-style: bold; }
    #message.ok { color: $success; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: they work while the input line has the focus (no point name uses them).
        Binding("n", "button('new')", "New game", priority=True),
        Binding("t", "button('takeback')", "Takeback", priority=True),
        Binding("h", "button('hint')", "Hint", priority=True),
        Binding("m", "button('mode')", "Mode/level", priority=True),
        Binding("s", "setup", "Set up game", priority=True),
        Binding("q", "quit", "Quit", priority=True),
        Binding("escape", "clear_input", "Clear input", show=False),
    ]

    def __init__(
        self,
        config: Config | None = None,
        *,
        state_dir: str | Path | None = None,
        autoplay: bool = True,
        threaded: bool | None = None,
    ) -> None:
        super().__init__()
        self.config = config or Config()
        self.state_dir = Path(state_dir) if state_dir is not None else None
        self.autoplay = autoplay
        self.threaded = autoplay if threaded is None else threaded
        game = self.config.game
        self.settings = GameSettings(game.mode, game.human, game.level)
        self.events: deque[str] = deque(maxlen=EVENT_LINES)
        self._last_event: str | None = None
        self._pending: list[_Action] = []
        self._shown: dict[str, Text] = {}
        self._drawn = False  # the widgets exist
        self._runner: BackgroundRunner | None = None
        self._anchor: tuple[float, float] = (0.0, 0.0)  # (real, virtual) time at the last sync
        self.sim = self._make_simulation(self.settings, resume=True)

    # -- the simulation ---------------------------------------------------------------------

    def _make_simulation(self, settings: GameSettings, *, resume: bool) -> Simulation:
        runner = None
        if self.threaded:
            self._runner = runner = BackgroundRunner(make_search(self.config))
        sim = Simulation(
            mode=settings.mode,
            human=settings.human,
            level=settings.level,
            seed=self.config.engine.seed,
            config=self.config,
            state_dir=self.state_dir,
            resume=resume,
            runner=runner,
        )
        if sim.controller.state.last_event == "resumed":
            # The saved game's pieces are put back on the board, as a person would.
            for name in sim.board.pieces():
                sim.place(name)
            ctl = sim.controller
            self.settings = GameSettings(ctl.mode, ctl.human, ctl.level)
        self._anchor = (time.monotonic(), sim.now)
        return sim

    def _close_simulation(self) -> None:
        self.sim.close()
        if self._runner is not None:
            self._runner.close()
            self._runner = None

    # -- Textual ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Board on the left, the game on the right, buttons and the input line below."""
        yield Header(show_clock=False, icon="●")
        with Horizontal(id="main"):
            with Vertical(id="board-box"):
                yield BoardView(id="board")
            with Vertical(id="side"):
                yield Static(id="game")
                yield Static(id="leds")
                yield Static(id="events")
                yield Static(id="legend")
        with Horizontal(id="buttons"):
            for label, button in (
                ("New game n", "new"),
                ("Takeback t", "takeback"),
                ("Hint h", "hint"),
                ("Mode m", "mode"),
                ("Set up s", "setup"),
                ("Quit q", "quit"),
            ):
                yield Button(label, id=f"button-{button}", compact=True)
        with Horizontal(id="entry"):
            yield Label("Point or move:", id="entry-label")
            yield PointInput(
                placeholder="d6 puts/takes a piece, a1-a4 moves, xg7 removes; Enter",
                id="input",
                compact=True,
            )
        yield Static("", id="message")

    def on_mount(self) -> None:
        """Start the clock (unless stepped by a test) and draw."""
        for button in self.query(Button):
            button.can_focus = False
        box = self.query_one("#board-box")
        box.border_title = "Board"
        box.border_subtitle = "click a point to put or take a piece"
        self.query_one("#side").border_title = "Game"
        self.query_one(BoardView).set_links(self.sim.board)
        self.query_one("#input", Input).focus()
        self._drawn = True
        if self.autoplay:
            self._anchor = (time.monotonic(), self.sim.now)
            self.set_interval(1 / TICK_RATE, self._tick)
        self.refresh_view()

    def on_unmount(self) -> None:
        """Stop the Pi and release the board."""
        self._close_simulation()

    # -- time -------------------------------------------------------------------------------

    def _tick(self) -> None:
        real, virtual = self._anchor
        now = time.monotonic()
        target = virtual + (now - real)
        if target - self.sim.now > MAX_TICK:  # the terminal was stopped: do not race ahead
            target = self.sim.now + MAX_TICK
            self._anchor = (now, target)
        if target > self.sim.now:
            self.advance(target - self.sim.now)
        else:
            self.refresh_view()

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` of virtual time pass, doing the typed actions that fall due.

        Time goes in steps of one tick, as in real time: the simulation looks at the sensors'
        news at the end of each step.
        """
        end = self.sim.now + seconds
        while True:
            step = min(end, self.sim.now + 1 / TICK_RATE)
            while self._pending and self._pending[0].due <= step:
                action = self._pending.pop(0)
                self.sim.wait(max(0.0, action.due - self.sim.now))
                self._do(action)
            self.sim.wait(max(0.0, step - self.sim.now))
            if step >= end:
                break
        self.refresh_view()

    def _do(self, action: _Action) -> None:
        logger.debug("%s %s", action.kind, action.point)
        if action.kind == "place":
            self.sim.place(action.point)
        else:
            self.sim.lift(action.point)

    # -- the person's hands -----------------------------------------------------------------

    def _present(self) -> frozenset[str]:
        """Where pieces are on the wood (the magnets, not yet the debounced reading)."""
        return self.sim.hardware.occupied()

    def toggle(self, point: str) -> None:
        """Put a piece on ``point``, or take the one there off."""
        if point in self._present():
            self.sim.lift(point)
        else:
            self.sim.place(point)
        self.refresh_view()

    def submit(self, text: str) -> bool:
        """Carry out a typed line; show an error and do nothing if it is bad."""
        if self._pending:
            self._say("wait a moment: the last move is still being made", error=True)
            return False
        try:
            actions = parse_actions(text, self._present(), self.sim.now)
        except InputError as exc:
            self._say(str(exc), error=True)
            return False
        self._pending = actions
        self.advance(0.0)
        self._say(f"done: {text.strip()}", error=False)
        return True

    def press(self, button: str) -> None:
        """Press one of the buttons beside the board."""
        self.sim.press(button)
        self.refresh_view()

    def _say(self, text: str, *, error: bool) -> None:
        message = self.query_one("#message", Static)
        message.update(text)
        message.set_class(error, "error")
        message.set_class(not error, "ok")

    # -- events from the widgets ------------------------------------------------------------

    def on_board_view_point_clicked(self, event: BoardView.PointClicked) -> None:
        """A click on the board."""
        self.toggle(event.point)
        done = "put a piece on" if event.point in self._present() else "took the piece off"
        self._say(f"{done} {event.point}", error=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the input line."""
        if self.submit(event.value):
            event.input.value = ""
        else:
            event.input.select_all()  # kept to be corrected, or replaced by typing anew

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A click on one of the buttons."""
        name = (event.button.id or "").removeprefix("button-")
        if name == "quit":
            self.exit()
        elif name == "setup":
            self.action_setup()
        else:
            self.action_button(name)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The board's keys do nothing while the new-game dialog is open."""
        dialog_open = isinstance(self.screen, ModalScreen)
        return not (dialog_open and action in ("button", "setup", "quit"))

    def action_button(self, name: str) -> None:
        """Press ``name``: new, takeback, hint or mode."""
        self.press(name)
        self._say(f"pressed the {name} button", error=False)

    def action_clear_input(self) -> None:
        """Empty the input line and the message."""
        self.query_one("#input", Input).value = ""
        self._say("", error=False)

    def action_setup(self) -> None:
        """Choose mode, colour and level for a fresh game."""
        self.push_screen(NewGameScreen(self.settings), self._start_new_game)

    def _start_new_game(self, settings: GameSettings | None) -> None:
        if settings is None:
            return
        self.start_new_game(settings)

    def start_new_game(self, settings: GameSettings) -> None:
        """A fresh game with ``settings`` on a cleared board."""
        logger.info("new game: %s", settings.describe())
        if self.sim.controller.store is not None:
            self.sim.controller.store.clear()
        self._close_simulation()
        self._pending.clear()
        self.settings = settings
        self.sim = self._make_simulation(settings, resume=False)
        self.query_one(BoardView).set_links(self.sim.board)
        self._note(f"new game: {settings.describe()}")
        self._say(f"new game: {settings.describe()}", error=False)
        self.refresh_view()

    # -- drawing ----------------------------------------------------------------------------

    def _note(self, event: str) -> None:
        line = f"{self.sim.now:5.0f}s  {event}"
        if len(line) > PANEL_WIDTH:  # one line each; the lights show the details
            line = line[: PANEL_WIDTH - 1] + "…"
        self.events.append(line)

    def refresh_view(self) -> None:
        """Show the simulation's state in every widget."""
        sim = self.sim
        now = sim.now
        state = sim.controller.state
        if state.last_event != self._last_event:
            self._last_event = state.last_event
            self._note(state.last_event)
        board = sim.board
        present = self._present()
        views = point_views(board, present, sim.lights(), now)
        lifted = {n: lifted_colour(board, n) for n, v in views.items() if v.lifted}
        if not self._drawn:
            return
        self.query_one(BoardView).show(views, lifted)
        events_text = Text("Events\n", Style(bold=True))
        events_text.append("\n".join(self.events), Style(color="#c0c0c0"))
        self._show("game", self.game_text())
        self._show("leds", _status_text(sim.status(), now))
        self._show("events", events_text)
        self._show("legend", legend(now))
        self.sub_title = self.mode_text()

    def _show(self, widget_id: str, text: Text) -> None:
        # Only what changed is redrawn: most ticks change nothing but a blinking LED.
        if self._shown.get(widget_id) != text:
            self._shown[widget_id] = text
            self.query_one(f"#{widget_id}", Static).update(text)

    def panel_text(self, widget_id: str) -> str:
        """The plain text shown in a side panel widget (``game``, ``leds``, ``events``)."""
        text = self._shown.get(widget_id)
        return text.plain if text is not None else ""

    def mode_text(self) -> str:
        """Who plays, as the controller has it now."""
        ctl = self.sim.controller
        variant = self.sim.config.game.variant
        flying = "flying" if self.sim.board.flying else "no flying"
        if ctl.mode == "referee":
            who = "referee: two players"
        else:
            who = f"you ({ctl.human}) vs the Pi, level {ctl.level}"
        return f"{who} · {variant}, {flying}"

    def turn_text(self) -> str:
        """Whose turn it is, in a few words."""
        board = self.sim.board
        ctl = self.sim.controller
        outcome = board.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return f"draw ({outcome.termination.value})"
            return f"{COLOR_NAMES[outcome.winner]} wins ({outcome.termination.value})"
        side = COLOR_NAMES[board.turn]
        if ctl.pi_color is None:
            return f"{side} to move"
        if board.turn != ctl.pi_color:
            return f"your move ({side})"
        if ctl.state.thinking:
            return f"the Pi ({side}) thinks…"
        return f"the Pi ({side}): do its move"

    def game_text(self) -> Text:
        """Mode, turn and pieces."""
        sim = self.sim
        board = sim.board
        ctl = sim.controller
        text = Text()
        text.append("Mode   ", Style(bold=True))
        text.append(
            "referee: two players\n"
            if ctl.mode == "referee"
            else f"you {ctl.human} · Pi level {ctl.level}\n"
        )
        if board.outcome() is not None:
            text.append("Over   ", Style(bold=True))
            text.append(self.turn_text() + "\n", Style(color="#ffd75f", bold=True))
        else:
            text.append(f"Turn {board.fullmove_number:<2}", Style(bold=True))
            text.append(self.turn_text() + "\n")
        if ctl.referee.is_flagged:
            text.append("       the board does not match!\n", Style(color="#ff5f5f", bold=True))
        text.append("Pieces       in hand  on board\n", Style(bold=True))
        for colour in (WHITE, BLACK):
            name = COLOR_NAMES[colour]
            mark = "◀" if board.turn == colour and board.outcome() is None else " "
            text.append(" ")
            text.append("●", Style(color=_PIECE_COLOURS[name], bgcolor=_PAD, bold=True))
            text.append(
                f" {name:<6}{self._player(colour):<6}{board.pieces_in_hand(colour):>3}"
                f"{board.pieces_on_board(colour):>9} {mark}\n"
            )
        moves = [str(m) for m in board.move_stack]
        text.append("Moves  ", Style(bold=True))
        text.append(self._moves_text(moves) or "none yet")
        return text

    def _player(self, colour: Color) -> str:
        pi = self.sim.controller.pi_color
        if pi is None:
            return ""
        return "(Pi)" if colour == pi else "(you)"

    @staticmethod
    def _moves_text(moves: list[str]) -> str:
        """The turns so far, numbered (White first), the latest kept when they do not fit."""
        numbered = [f"{i // 2 + 1}.{m}" if i % 2 == 0 else m for i, m in enumerate(moves)]
        line = " ".join(numbered)
        return line if len(line) <= 30 else "…" + line[-29:]
