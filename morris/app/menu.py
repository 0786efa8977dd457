"""The board's menu: the mode button steps the mode and level, the hint button just after it the
variant, both for the next game (a level of the game being played applies at once).

The menu keeps the choices until the new-game button takes them (:meth:`ModeMenu.new_game`);
what a press chose comes back as a :class:`MenuChoice`: the event line, and what the point LEDs
show of it for :data:`MODE_DISPLAY_TIME`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from morris.app.config import Config
from morris.app.mode import Mode
from morris.app.narration import variant_title
from morris.core import VARIANT_NAMES, VARIANTS
from morris.engine.levels import MAX_LEVEL
from morris.i18n import Message, msg
from morris.referee.lights import Choice

logger = logging.getLogger(__name__)

#: How long the mode button's choice is shown on the point LEDs, seconds.
MODE_DISPLAY_TIME = 2.0


@dataclass(frozen=True)
class MenuChoice:
    """What a press of the menu chose: the game's level from now on, the event line, and the
    choice the point LEDs show until ``until`` (:func:`~morris.referee.lights.choice_lights`)."""

    level: int
    event: Message
    choice: Choice
    until: float


class ModeMenu:
    """The mode and variant chosen at the board for the next game."""

    def __init__(self, variant: str, now: float) -> None:
        #: The variant of the next games.
        self.variant = variant
        #: The mode and level chosen for the next game, or ``None`` (the game's stay).
        self.pending_mode: tuple[Mode, int] | None = None
        #: A variant chosen at the board for the next new game, or ``None``.
        self.pending_variant: str | None = None
        self._choosing_until = now  # until then the hint button steps the variant
        # What the mode button changed, put back when the hint button turns it into a choice
        # of variant: (the pending mode and level before, the level before).
        self._before_mode: tuple[tuple[Mode, int] | None, int] | None = None

    def is_choosing(self, now: float) -> bool:
        """Whether the hint button now steps the variant (just after the mode button)."""
        return now < self._choosing_until

    def press_mode(self, mode: Mode, level: int, now: float) -> MenuChoice:
        """vs-ai level 1 .. MAX_LEVEL, then referee mode, then remote, then level 1 again, from
        the game's ``mode`` and ``level``.

        A level change applies to the Pi's next turn; a change of mode to the next game.
        """
        self._before_mode = (self.pending_mode, level)
        game_mode = mode
        mode, level_chosen = self.pending_mode or (mode, level)
        if mode is Mode.REFEREE:
            mode = Mode.REMOTE
        elif mode is Mode.REMOTE:
            mode, level_chosen = Mode.VS_AI, 1
        elif level_chosen >= MAX_LEVEL:
            mode = Mode.REFEREE
        else:
            level_chosen += 1
        if mode is game_mode:
            level = level_chosen
            self.pending_mode = None
        else:
            self.pending_mode = (mode, level_chosen)
        logger.info("mode button: %s level %d", mode, level_chosen)
        if mode is Mode.REFEREE:
            event = msg("referee mode from the next game")
        elif mode is Mode.REMOTE:
            event = msg("remote mode from the next game")
        else:
            event = msg("level {level}", level=level_chosen)
        choice = Choice(count=level_chosen) if mode is Mode.VS_AI else Choice(mode=mode)
        self._choosing_until = now + MODE_DISPLAY_TIME
        return MenuChoice(level, event, choice, self._choosing_until)

    def press_hint(self, level: int, playing: str, now: float) -> MenuChoice:
        """The hint button just after the mode button: the next variant after the one chosen
        (else ``playing``, the game's), for the next new game.

        Cycles standard, twelve, morabaraba, lasker, six; the lights show the choice
        (:func:`~morris.referee.lights.choice_lights`) and the hint button may step on while
        they do. Choosing the variant being played cancels the change. The first such press
        puts back what the mode button changed: choosing a variant leaves the mode and level.
        """
        if self._before_mode is not None:
            self.pending_mode, level = self._before_mode
            self._before_mode = None
        current = self.pending_variant or playing
        name = VARIANT_NAMES[(VARIANT_NAMES.index(current) + 1) % len(VARIANT_NAMES)]
        self.pending_variant = None if name == playing else name
        if self.pending_variant is None:
            self.variant = name
        title = variant_title(name)
        logger.info("variant chosen at the board: %s", name)
        event = (
            msg("{title}: the game being played", title=title)
            if self.pending_variant is None
            else msg("{title} from the next game (press new game)", title=title)
        )
        self._choosing_until = now + MODE_DISPLAY_TIME
        return MenuChoice(level, event, Choice(rules=VARIANTS[name]), self._choosing_until)

    def new_game(self) -> tuple[Mode, int] | None:
        """The new-game button takes the choices: the variant becomes the next games', and the
        mode and level chosen (``None``: the game's stay) are returned."""
        if self.pending_variant is not None:
            self.variant, self.pending_variant = self.pending_variant, None
        pending, self.pending_mode = self.pending_mode, None
        return pending

    def reconfigure(self, config: Config, mode: Mode, human: str, level: int) -> int:
        """A reloaded configuration: its variant for the next games, its level at once when
        the game's ``mode`` and ``human`` stay, else its mode and level for the next game.
        Returns the game's level from now on."""
        self.variant, self.pending_variant = config.game.variant, None
        if config.game.mode is mode and config.game.human == human:
            return config.game.level
        self.pending_mode = (config.game.mode, config.game.level)
        return level
