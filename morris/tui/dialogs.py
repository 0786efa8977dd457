"""The dialogs: mode, colour, level and variant for a fresh game; quitting a game in progress;
the help. Their words are in the board's language (:mod:`morris.i18n`), the keys the same in
every language."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Button, Label, RadioButton, RadioSet, Select

from morris.app.mode import Mode
from morris.app.narration import COLOUR_WORDS, VARIANT_SUMMARIES, VARIANT_TITLES
from morris.core import BLACK, VARIANT_NAMES, VARIANTS, WHITE
from morris.engine.levels import MAX_LEVEL
from morris.i18n import N_, _


def colour_word(name: str) -> str:
    """The colour ``"white"`` or ``"black"`` in the board's language."""
    if name not in ("white", "black"):
        return name
    return _(COLOUR_WORDS[WHITE if name == "white" else BLACK])


def variant_title(name: str) -> str:
    """The variant's name in the board's language."""
    return _(VARIANT_TITLES[name]) if name in VARIANT_TITLES else VARIANTS[name].title


def variant_summary(name: str) -> str:
    """What the variant is, in a few words, in the board's language."""
    return _(VARIANT_SUMMARIES[name]) if name in VARIANT_SUMMARIES else VARIANTS[name].summary


#: Textual's own texts the simulator shows (its palette's commands, its widgets' keys in the keys
#: panel), here for the catalogs: they are looked up by their English words, so one that Textual
#: renames stays English until the catalogs follow.
TEXTUAL_TEXTS = (
    N_("Theme"),
    N_("Change the current theme"),
    N_("Quit the application as soon as possible"),
    N_("Keys"),
    N_("Hide the keys and widget help panel"),
    N_("Show help for the focused widget and a summary of available keys"),
    N_("Minimize"),
    N_("Minimize the widget and restore to normal size"),
    N_("Maximize"),
    N_("Maximize the focused widget"),
    N_("Screenshot"),
    N_("Save an SVG 'screenshot' of the current screen"),
    N_("Quit the app and return to the command prompt."),
    N_("palette"),
    N_("Open the command palette"),
    N_("Focus Next"),
    N_("Focus Previous"),
    N_("Copy selected text"),
    N_("Scroll Up"),
    N_("Scroll Down"),
    N_("Scroll Left"),
    N_("Scroll Right"),
    N_("Scroll Home"),
    N_("Scroll End"),
    N_("Page Up"),
    N_("Page Down"),
    N_("Page Left"),
    N_("Page Right"),
    N_("Move cursor left"),
    N_("Move cursor right or accept the completion suggestion"),
    N_("Move cursor left and select"),
    N_("Move cursor left a word"),
    N_("Move cursor left a word and select"),
    N_("Move cursor right and select"),
    N_("Move cursor right a word"),
    N_("Move cursor right a word and select"),
    N_("Go to start"),
    N_("Go to end"),
    N_("Delete character left"),
    N_("Delete character right"),
    N_("Select all"),
    N_("Select line start"),
    N_("Select line end"),
    N_("Submit"),
    N_("Delete left to start of word"),
    N_("Delete all to the left"),
    N_("Delete right to start of word"),
    N_("Delete all to the right"),
    N_("Cut selected text"),
    N_("Paste text from the clipboard"),
    N_("Press button"),
    N_("Previous option"),
    N_("Next option"),
    N_("Toggle"),
    N_("Show menu"),
    N_("Up"),
    N_("Down"),
    N_("First"),
    N_("Last"),
    N_("Select"),
    N_("Dismiss menu"),
    N_("Search for commands…"),
    N_("Go to bottom"),
    N_("Go to top"),
    N_("Next command"),
    N_("Previous command"),
    N_("Exit the command palette"),
    N_("Next page"),
    N_("Previous page"),
)


def variant_choice(name: str) -> str:
    """The variant as the new game dialog offers it: its name and what it is ("Lasker morris:
    10 pieces, may move instead of placing"), the name alone where the words say no more."""
    title, summary = variant_title(name), variant_summary(name)
    return title if summary.casefold() == title.casefold() else f"{title}: {summary}"


def localize_bindings(node: DOMNode) -> None:
    """Put ``node``'s key bindings' descriptions and tooltips (the keys panel, the footer) in
    the board's language: a class's ``BINDINGS`` are made once, at import, in English."""
    bindings = node._bindings  # Textual keeps each instance's own copy here
    for key, found in bindings.key_to_bindings.items():
        bindings.key_to_bindings[key] = [
            replace(
                binding,
                description=_(binding.description) if binding.description else "",
                tooltip=_(binding.tooltip) if binding.tooltip else "",
            )
            for binding in found
        ]


def localize_tree(node: DOMNode) -> None:
    """:func:`localize_bindings` for ``node`` and every widget in it (Textual's own widgets:
    the input line, the buttons, the menus)."""
    localize_bindings(node)
    for child in node.query("*"):
        localize_bindings(child)


@dataclass(frozen=True)
class GameSettings:
    """Who plays the next game, and which game."""

    mode: Mode = Mode.VS_AI
    human: str = "white"
    level: int = 5
    variant: str = "standard"

    def describe(self) -> str:
        """``you (white) vs the Pi, level 5`` or ``referee: two players``, and the variant
        unless it is the standard game (``..., Lasker morris``)."""
        if self.mode is Mode.REFEREE:
            who = _("referee: two players")
        else:
            who = _("you ({colour}) vs the Pi, level {level}").format(
                colour=colour_word(self.human), level=self.level
            )
        if self.variant == VARIANT_NAMES[0]:
            return who
        return f"{who}, {variant_title(self.variant)}"


class NewGameScreen(ModalScreen[GameSettings | None]):
    """Choose mode, colour, level and variant, then start a fresh game on a cleared board."""

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

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, current: GameSettings) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        """The four choices and the buttons."""
        with Vertical(id="dialog"):
            title, cleared = _("New game"), _("the board is cleared")
            yield Label(f"[b]{title}[/b] — {cleared}")
            yield Label(_("Mode"))
            with RadioSet(id="mode"):
                yield RadioButton(_("Play against the Pi"), value=self.current.mode is Mode.VS_AI)
                yield RadioButton(_("Referee two players"), value=self.current.mode is Mode.REFEREE)
            yield Label(_("Your colour against the Pi"))
            with RadioSet(id="human"):
                yield RadioButton(_("White (moves first)"), value=self.current.human == "white")
                yield RadioButton(_("Black"), value=self.current.human == "black")
            yield Label(_("The Pi's level"))
            beginner, strongest = _("beginner"), _("strongest")
            yield Select(
                [
                    (
                        f"{n}"
                        + (f" ({beginner})" if n == 1 else "")
                        + (f" ({strongest})" if n == MAX_LEVEL else ""),
                        n,
                    )
                    for n in range(1, MAX_LEVEL + 1)
                ],
                value=self.current.level,
                allow_blank=False,
                id="level",
            )
            yield Label(_("The game"))
            yield Select(
                [(variant_choice(name), name) for name in VARIANT_NAMES],
                value=self.current.variant,
                allow_blank=False,
                id="variant",
            )  # fmt: skip
            with Horizontal(id="dialog-buttons"):
                yield Button(_("Start"), variant="primary", id="start")
                yield Button(_("Cancel"), id="cancel")

    def on_mount(self) -> None:
        """The keys of the dialog's widgets in the board's language."""
        localize_tree(self)

    def chosen(self) -> GameSettings:
        """The settings as chosen now."""
        mode = self.query_one("#mode", RadioSet).pressed_index
        human = self.query_one("#human", RadioSet).pressed_index
        level = self.query_one("#level", Select).value
        variant = self.query_one("#variant", Select).value
        return GameSettings(
            mode=Mode.REFEREE if mode == 1 else Mode.VS_AI,
            human="black" if human == 1 else "white",
            level=level if isinstance(level, int) else self.current.level,
            variant=variant if isinstance(variant, str) else self.current.variant,
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Start or cancel."""
        event.stop()
        self.dismiss(self.chosen() if event.button.id == "start" else None)

    def action_cancel(self) -> None:
        """Close without a new game."""
        self.dismiss(None)


class QuitScreen(ModalScreen[bool]):
    """Ask before a game in progress is left (quitting, or a new game): ``y`` (or the first
    button) goes ahead, ``n`` or Escape stays."""

    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    #quit-dialog {
        width: 56; height: auto; border: round $warning; background: $surface; padding: 0 1;
    }
    #quit-dialog Label { margin-top: 1; width: 100%; }
    #quit-buttons { height: auto; margin-top: 1; align-horizontal: right; }
    #quit-buttons Button { margin-left: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("Go ahead")),
        Binding("n", "answer(False)", N_("Stay")),
        Binding("escape", "answer(False)", N_("Stay")),
    ]

    def __init__(self, question: str, *, action: str | None = None) -> None:
        super().__init__()
        self.question = question
        #: The first button's word: what ``y`` does ("Quit", "New game"), in the board's
        #: language.
        self.action = _("Quit") if action is None else action

    def compose(self) -> ComposeResult:
        """The question and the two answers."""
        with Vertical(id="quit-dialog"):
            yield Label(self.question)
            with Horizontal(id="quit-buttons"):
                yield Button(f"{self.action} (y)", variant="warning", id="quit-yes")
                yield Button(_("Stay") + " (n)", variant="primary", id="quit-no")

    def on_mount(self) -> None:
        """The keys of the dialog's buttons in the board's language."""
        localize_tree(self)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Go ahead or stay."""
        event.stop()
        self.dismiss(event.button.id == "quit-yes")

    def action_answer(self, quit_: bool) -> None:
        """``y`` goes ahead, ``n`` and Escape stay."""
        self.dismiss(quit_)


class HelpScreen(ModalScreen[None]):
    """What the input line reads and what the keys do (``?`` or F1); Escape, ``q`` or the button
    closes it. What is typed (the point names, ``clear``) and the keys are the same in every
    language; what they do is said in the board's."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help-dialog {
        width: 76; height: auto; max-height: 100%; border: round $accent; background: $surface;
        padding: 0 1;
    }
    #help-dialog Label { width: 100%; }
    #help-dialog .heading { margin-top: 1; text-style: bold; }
    #help-buttons { height: auto; margin-top: 1; align-horizontal: right; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", N_("Close")),
    ]

    def compose(self) -> ComposeResult:
        """The forms of the input line, the keys and the close button."""
        typed = (
            ("d6", _("put a piece on d6, or take the one there off")),
            ("a1-a4", _("move the piece on a1 to a4")),
            ("xg7", _("take the piece off g7 (after a mill)")),
            ("d6 f4  a1xg7", _("several at once, one turn after the other")),
            ("clear", _("take every piece off the board (for a new game)")),
            ("W..B/...", _("a position text (rings with / between): set it up")),
        )
        keys = (
            ("n", _("New game")),
            ("t", _("Takeback")),
            ("h", _("Hint")),
            ("m", _("Mode/level")),
            ("s", _("Set up game")),
            ("q", _("Quit")),
            ("?  F1", _("this help")),
            ("Esc", _("Clear input")),
        )
        with Vertical(id="help-dialog"):
            yield Label(_("Help"), classes="heading")
            yield Label(_("On the input line, then Enter:"), classes="heading")
            for form, meaning in typed:
                yield Label(f"  {form:<14}{meaning}")
            yield Label(
                _(
                    "Point names are a1 .. g7, as at the board's edges; clear is typed as it is "
                    "in every language."
                )
            )
            yield Label(_("Keys, on an empty line:"), classes="heading")
            for key, meaning in keys:
                yield Label(f"  {key:<14}{meaning}")
            yield Label(_("A click on a point puts a piece there or takes it off."))
            with Horizontal(id="help-buttons"):
                yield Button(_("Close") + " (Esc)", variant="primary", id="help-close")

    def on_mount(self) -> None:
        """The keys of the help's button in the board's language."""
        localize_tree(self)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Close."""
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
