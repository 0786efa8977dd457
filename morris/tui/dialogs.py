"""The dialogs: mode, colour, level and variant for a fresh game; quitting a game in progress."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, RadioButton, RadioSet, Select

from morris.core import VARIANT_NAMES, VARIANTS
from morris.engine.levels import MAX_LEVEL


@dataclass(frozen=True)
class GameSettings:
    """Who plays the next game, and which game."""

    mode: str = "vs-ai"
    human: str = "white"
    level: int = 5
    variant: str = "standard"

    def describe(self) -> str:
        """``you (white) vs the Pi, level 5`` or ``referee: two players``, and the variant
        unless it is the standard game (``..., Lasker morris``)."""
        if self.mode == "referee":
            who = "referee: two players"
        else:
            who = f"you ({self.human}) vs the Pi, level {self.level}"
        if self.variant == VARIANT_NAMES[0]:
            return who
        return f"{who}, {VARIANTS[self.variant].title}"


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

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: GameSettings) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        """The four choices and the buttons."""
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
            yield Label("The game")
            yield Select(
                [(f"{VARIANTS[name].title}: {VARIANTS[name].summary}", name)
                 for name in VARIANT_NAMES],
                value=self.current.variant,
                allow_blank=False,
                id="variant",
            )  # fmt: skip
            with Horizontal(id="dialog-buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Cancel", id="cancel")

    def chosen(self) -> GameSettings:
        """The settings as chosen now."""
        mode = self.query_one("#mode", RadioSet).pressed_index
        human = self.query_one("#human", RadioSet).pressed_index
        level = self.query_one("#level", Select).value
        variant = self.query_one("#variant", Select).value
        return GameSettings(
            mode="referee" if mode == 1 else "vs-ai",
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
        Binding("y", "answer(True)", "Quit"),
        Binding("n", "answer(False)", "Stay"),
        Binding("escape", "answer(False)", "Stay"),
    ]

    def __init__(self, question: str, *, action: str = "Quit") -> None:
        super().__init__()
        self.question = question
        #: The first button's word: what ``y`` does ("Quit", "New game").
        self.action = action

    def compose(self) -> ComposeResult:
        """The question and the two answers."""
        with Vertical(id="quit-dialog"):
            yield Label(self.question)
            with Horizontal(id="quit-buttons"):
                yield Button(f"{self.action} (y)", variant="warning", id="quit-yes")
                yield Button("Stay (n)", variant="primary", id="quit-no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Go ahead or stay."""
        event.stop()
        self.dismiss(event.button.id == "quit-yes")

    def action_answer(self, quit_: bool) -> None:
        """``y`` goes ahead, ``n`` and Escape stay."""
        self.dismiss(quit_)
