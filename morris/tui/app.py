"""``morris sim`` in the terminal: the simulated board drawn with every point's light.

:class:`SimulatorApp` owns a :class:`~morris.sim.Simulation` (the real controller, referee, lights
and engine on a simulated gpiozero board) and moves its virtual clock along with real time, so the
LEDs blink at their real rates (slow 1 Hz, fast 4 Hz). The person's hands are the mouse (click a
point to put a piece there or take it off), the input line (``d6``, ``a1-a4``, ``xg7``, read by
:mod:`morris.tui.grammar`) and the keys of the four buttons beside the board (``n``, ``t``, ``h``,
``m``). What each point shows comes from :mod:`morris.app.view`; the widgets are in
:mod:`morris.tui.board`, :mod:`morris.tui.panels` (every text of the side panel) and
:mod:`morris.tui.dialogs`.

The Pi searches on a worker thread (:class:`~morris.app.jobs.BackgroundRunner`), so the interface
stays live at high levels. Tests pass ``autoplay=False``: no timer, no thread, and
:meth:`SimulatorApp.advance` moves virtual time explicitly, so a game in a test is as
deterministic as one in the harness.

Every word on the screen is in the board's language (:mod:`morris.i18n`: ``morris sim --lang``,
``[ui] language``, the locale), the keys bindings' descriptions and Textual's own palette
commands too; what a person types (point names, ``clear``) and the keys are the same in every
language.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Header, Input, Label, Static

from morris.app.config import Config
from morris.app.errors import InputError
from morris.app.jobs import BackgroundRunner, make_search
from morris.app.snapshot import Snapshot
from morris.app.view import point_views
from morris.i18n import N_, _
from morris.sim import Simulation
from morris.tui.board import BoardView
from morris.tui.dialogs import (
    GameSettings,
    HelpScreen,
    NewGameScreen,
    QuitScreen,
    localize_bindings,
    localize_tree,
)
from morris.tui.grammar import CLEAR, HandAction, parse_actions
from morris.tui.panels import game_text, legend, mode_text, status_text

if TYPE_CHECKING:
    from morris.engine.solution import Solution

logger = logging.getLogger(__name__)

#: How often the real-time loop advances the simulation, per second.
TICK_RATE = 25
#: The longest step of virtual time one tick may take (after a suspended terminal, say).
MAX_TICK = 0.5
#: How many events the side panel lists.
EVENT_LINES = 6


#: The keys of the buttons beside the board; no point name or move uses them.
BUTTON_KEYS = {"n": "new", "t": "takeback", "h": "hint", "m": "mode"}
_APP_KEYS = frozenset({*BUTTON_KEYS, "s", "q", "question_mark"})

#: What the message line says after a button of the board is pressed.
_PRESSED = {
    "new": N_("pressed the new button"),
    "takeback": N_("pressed the takeback button"),
    "hint": N_("pressed the hint button"),
    "mode": N_("pressed the mode button"),
}


class PointInput(Input):
    """The input line: points and moves. On an empty line the app's single-letter keys are the
    buttons; once something is typed every letter is text (``hello`` presses no hint)."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """Leave the button keys to the app while the line is empty."""
        if key in _APP_KEYS and not self.value:
            return False
        return super().check_consume_key(key, character)


class SimulatorApp(App[None]):
    """The simulated board in the terminal, in real time (or stepped, with ``autoplay=False``).

    ``config`` holds the game (mode, colour, level, variant, flying) and the engine's seed;
    ``state_dir`` keeps the unfinished game across runs; ``solution`` is the solved game (the
    Pi's play, the hints, the value in the game panel). With ``threaded`` (default: as
    ``autoplay``) the Pi searches on a worker thread; otherwise in virtual time, deterministically.
    """

    TITLE = "morris sim"

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
    #message { height: auto; max-height: 3; padding: 0 1; }
    #message.error { color: $error; text-style: bold; }
    #message.ok { color: $success; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: they work while the input line has the focus (no point name uses them).
        # The descriptions are put in the board's language per app (localize_bindings).
        Binding("n", "button('new')", N_("New game"), priority=True),
        Binding("t", "button('takeback')", N_("Takeback"), priority=True),
        Binding("h", "button('hint')", N_("Hint"), priority=True),
        Binding("m", "button('mode')", N_("Mode/level"), priority=True),
        Binding("s", "set_up", N_("Set up game"), priority=True),
        Binding("q", "quit", N_("Quit"), priority=True),
        Binding("question_mark,f1", "help", N_("Help"), priority=True),
        Binding("escape", "clear_input", N_("Clear input"), show=False),
    ]

    def __init__(
        self,
        config: Config | None = None,
        *,
        state_dir: str | Path | None = None,
        autoplay: bool = True,
        threaded: bool | None = None,
        insist: Iterable[str] = (),
        solution: Solution | None = None,
    ) -> None:
        super().__init__()
        localize_bindings(self)
        self.sub_title = _("Nine men's morris on a simulated board")
        #: The solved game (the Pi's play, the hints, the value in the game panel), or None.
        self.solution = solution
        self.config = config or Config()
        self.insist = frozenset(insist)
        self.state_dir = Path(state_dir) if state_dir is not None else None
        self.autoplay = autoplay
        self.threaded = autoplay if threaded is None else threaded
        game = self.config.game
        self.settings = GameSettings(game.mode, game.human, game.level, game.variant)
        self.events: deque[str] = deque(maxlen=EVENT_LINES)
        self._last_event: str | None = None
        self._pending: list[HandAction] = []
        self._shown: dict[str, Text] = {}
        self._drawn = False  # the widgets exist
        self._runner: BackgroundRunner | None = None
        self._anchor: tuple[float, float] = (0.0, 0.0)  # (real, virtual) time at the last sync
        #: Called with every snapshot of whichever simulation the app drives (a new game
        #: replaces it): the web companion's hook (``morris sim --web``).
        self.snapshot_hooks: list[Callable[[Snapshot], None]] = []
        #: A line shown once the app is up (the web companion's address).
        self.notice: str | None = None
        self.sim = self._make_simulation(self.settings, resume=True)

    # -- the simulation ---------------------------------------------------------------------

    def _make_simulation(self, settings: GameSettings, *, resume: bool) -> Simulation:
        runner = None
        if self.threaded:
            search = make_search(self.config, solution=self.solution)
            self._runner = runner = BackgroundRunner(search)
        sim = Simulation(
            mode=settings.mode,
            human=settings.human,
            level=settings.level,
            variant=settings.variant,
            seed=self.config.engine.seed,
            config=self.config,
            state_dir=self.state_dir,
            resume=resume,
            insist=self.insist,
            runner=runner,
            solution=self.solution,
        )
        self.snapshot = sim.controller.snapshot(sim.now)
        self._tell_hooks(self.snapshot)
        self._last_event = None
        self._note_event(self.snapshot, sim.now)
        sim.controller.subscribe(self._on_snapshot)
        if sim.controller.resumed:
            # The saved game's pieces are put back on the board, as a person would.
            for name in sim.board.pieces():
                sim.place(name)
            ctl = sim.controller
            self.settings = GameSettings(ctl.mode, ctl.human, ctl.level, sim.board.variant_name)
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
            for label, key, button in (
                (_("New game"), "n", "new"),
                (_("Takeback"), "t", "takeback"),
                (_("Hint"), "h", "hint"),
                (_("Mode"), "m", "mode"),
                (_("Set up"), "s", "set_up"),
                (_("Quit"), "q", "quit"),
                (_("Help"), "?", "help"),
            ):
                yield Button(f"{label} {key}", id=f"button-{button}", compact=True)
        with Horizontal(id="entry"):
            yield Label(_("Point or move:"), id="entry-label")
            yield PointInput(
                placeholder=_(
                    "d6 puts/takes a piece, a1-a4 moves, xg7 removes, clear; ? help; Enter"
                ),
                id="input",
                compact=True,
            )
        yield Static("", id="message")

    def on_mount(self) -> None:
        """Start the clock (unless stepped by a test) and draw."""
        localize_tree(self.screen)
        for button in self.query(Button):
            button.can_focus = False
        box = self.query_one("#board-box")
        box.border_title = _("Board")
        box.border_subtitle = _("click a point to put or take a piece")
        self.query_one("#side").border_title = _("Game")
        self.query_one(BoardView).set_links(self.sim.board)
        self.query_one("#input", Input).focus()
        self._drawn = True
        if self.notice:
            self.notify(self.notice, timeout=30)
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

    def _do(self, action: HandAction) -> None:
        logger.debug("%s %s", action.kind, action.point)
        if action.kind == "place":
            self.sim.place(action.point)
        else:
            self.sim.lift(action.point)

    # -- the person's hands -----------------------------------------------------------------

    def _on_wood(self) -> frozenset[str]:
        """Where pieces are on the wood (the magnets, not yet the debounced reading)."""
        return self.sim.hardware.on_wood()

    def toggle(self, point: str) -> None:
        """Put a piece on ``point``, or take the one there off."""
        if point in self._on_wood():
            self.sim.lift(point)
        else:
            self.sim.place(point)
        self.refresh_view()

    def submit(self, text: str) -> bool:
        """Carry out a typed line; show an error and do nothing if it is bad."""
        if text.strip() == "?":  # the help's key, pasted or typed after a word was deleted
            self.action_help()
            return True
        if self._pending:
            self._say(_("wait a moment: the last move is still being made"), error=True)
            return False
        if "/" in text:  # a position text (rings with '/' between): set it up
            return self._set_up(text)
        try:
            actions = parse_actions(text, self._on_wood(), self.sim.now)
        except InputError as exc:
            self._say(str(exc), error=True)
            return False
        self._pending = actions
        self.advance(0.0)
        self._say(_("done: {line}").format(line=text.strip()), error=False)
        return True

    def _set_up(self, position: str) -> bool:
        """A typed position text: play from it; the lights guide the board to it."""
        try:
            self.sim.setup(position)
        except InputError as exc:
            self._say(str(exc), error=True)
            return False
        self.refresh_view()
        self._say(
            _("set up: put a piece where a light is on, take away those blinking"), error=False
        )
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
        if event.point in self._on_wood():
            done = _("put a piece on {point}")
        else:
            done = _("took the piece off {point}")
        self._say(done.format(point=event.point), error=False)

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
            self.action_quit()
        elif name == "set_up":
            self.action_set_up()
        elif name == "help":
            self.action_help()
        else:
            self.action_button(name)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The board's keys do nothing while a dialog is open, nor while a line is being typed
        (then the letter goes into the line)."""
        if action not in ("button", "set_up", "quit", "help"):
            return True
        if isinstance(self.screen, ModalScreen):
            return False
        return not self._typing()

    def _typing(self) -> bool:
        if not self._drawn:
            return False
        entry = self.query_one("#input", Input)
        return entry.has_focus and bool(entry.value)

    def action_button(self, name: str) -> None:
        """Press ``name``: new, takeback, hint or mode; new asks first during a game (``n``
        then ``y``), as quitting does."""
        snap = self.snapshot
        if name == "new" and snap.moves and snap.outcome is None:
            if self.state_dir is not None:
                kept = _(
                    "It is kept among the finished games, result * ({path}: morris review "
                    "reads it)."
                ).format(path=self.state_dir / "games")
            else:
                kept = _("It is not kept (--no-save).")
            ask = _("Start a new game, leaving the game at turn {turn}?")
            question = f"{ask.format(turn=snap.fullmove)} {kept}"
            self.push_screen(QuitScreen(question, action=_("New game")), self._new_confirmed)
            return
        self._press_button(name)

    def _new_confirmed(self, confirmed: bool | None) -> None:
        if confirmed:
            self._press_button("new")

    def _press_button(self, name: str) -> None:
        self.press(name)
        if name == "new" and self._on_wood():
            # The new game starts from the empty board: the lights show what to take off.
            self._say(
                _("new game: take the pieces off the board (type {clear})").format(clear=CLEAR),
                error=False,
            )
        else:
            self._say(_(_PRESSED[name]) if name in _PRESSED else name, error=False)

    def action_clear_input(self) -> None:
        """Empty the input line and the message."""
        self.query_one("#input", Input).value = ""
        self._say("", error=False)

    def action_set_up(self) -> None:
        """Choose mode, colour, level and variant for a fresh game (starting from the game's own
        now: the mode button may have changed the level since the last game was set up)."""
        snap = self.snapshot
        current = GameSettings(snap.mode, snap.human, snap.level, snap.variant)
        self.push_screen(NewGameScreen(current), self._start_new_game)

    def action_quit(self) -> None:  # type: ignore[override]
        """Quit, after asking if a game is in progress (``q`` then ``y``)."""
        snap = self.snapshot
        if not snap.moves or snap.outcome is not None:
            self.exit()
            return
        if self.state_dir is not None:
            kept = _("It is kept in {path} and resumes next time.").format(path=self.state_dir)
        else:
            kept = _("It is not saved (--no-save).")
        ask = _("Quit the game at turn {turn}?").format(turn=snap.fullmove)
        self.push_screen(QuitScreen(f"{ask} {kept}"), self._quit)

    def action_help(self) -> None:
        """Show what the input line reads and what the keys do (``?`` or F1)."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_command_palette(self) -> None:
        """Textual's command palette (ctrl+p), its prompt and keys in the board's language."""
        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            palette = CommandPalette(placeholder=_("Search for commands…"), id="--command-palette")
            self.push_screen(palette)
            # Its widgets (the search line, the list) exist once it is mounted.
            self.call_after_refresh(localize_tree, palette)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's palette commands (theme, keys, screenshot ...) in the board's language."""
        for command in super().get_system_commands(screen):
            yield command._replace(title=_(command.title), help=_(command.help))

    def _quit(self, confirmed: bool | None) -> None:
        if confirmed:
            self.exit()

    def _start_new_game(self, settings: GameSettings | None) -> None:
        if settings is None:
            return
        self.start_new_game(settings)

    def start_new_game(self, settings: GameSettings) -> None:
        """A fresh game with ``settings`` on a cleared board."""
        logger.info("new game: %s", settings.describe())
        controller = self.sim.controller
        controller.keep_abandoned()  # a game left half-way stays among the finished (result *)
        if controller.keeper.store is not None:
            controller.keeper.store.clear()
        self._close_simulation()
        self._pending.clear()
        self.settings = settings
        self.sim = self._make_simulation(settings, resume=False)
        self.query_one(BoardView).set_links(self.sim.board)
        started = _("new game: {game}").format(game=settings.describe())
        self._note(started, self.sim.now)
        self._say(started, error=False)
        self.refresh_view()

    # -- drawing ----------------------------------------------------------------------------

    def _note(self, event: str, now: float) -> None:
        # In full: the panel wraps a long event ("board does not match: ...") over lines.
        self.events.append(f"{now:5.0f}s  {event}")

    def _note_event(self, snapshot: Snapshot, now: float) -> None:
        if snapshot.event != self._last_event:
            self._last_event = snapshot.event
            self._note(snapshot.event, now)

    def _on_snapshot(self, snapshot: Snapshot) -> None:
        # Called by the controller after every change, inside the simulation's wait: every
        # event reaches the panel, even several between two redraws.
        self.snapshot = snapshot
        self._note_event(snapshot, self.sim.now)
        self._tell_hooks(snapshot)

    def _tell_hooks(self, snapshot: Snapshot) -> None:
        for hook in list(self.snapshot_hooks):
            try:
                hook(snapshot)
            except Exception:
                logger.exception("a snapshot hook failed; it is dropped")
                self.snapshot_hooks.remove(hook)

    def refresh_view(self) -> None:
        """Show the controller's snapshot in every widget."""
        now = self.sim.now
        snap = self.snapshot
        views = point_views(snap.pieces, self._on_wood(), snap.lights, snap.lights_since, now)
        if not self._drawn:
            return
        boards = self.query(BoardView)
        if not boards:  # the app is closing (a tick after its widgets were taken down)
            return
        board_view = boards.first()
        if board_view.variant != snap.variant:  # a variant chosen at the board (mode, hint, new)
            board_view.set_links(self.sim.board)
        board_view.show(views)
        events_text = Text(_("Events") + "\n", Style(bold=True))
        events_text.append("\n".join(self.events), Style(color="#c0c0c0"))
        self._show("game", game_text(snap))
        self._show("leds", status_text(snap.status, snap.status_since, now))
        self._show("events", events_text)
        self._show("legend", legend(now))
        self.sub_title = mode_text(snap, self.sim.board.rules)

    def _show(self, widget_id: str, text: Text) -> None:
        # Only what changed is redrawn: most ticks change nothing but a blinking LED.
        if self._shown.get(widget_id) != text:
            self._shown[widget_id] = text
            self.query_one(f"#{widget_id}", Static).update(text)

    def panel_text(self, widget_id: str) -> str:
        """The plain text shown in a side panel widget (``game``, ``leds``, ``events``)."""
        text = self._shown.get(widget_id)
        return text.plain if text is not None else ""
