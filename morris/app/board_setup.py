"""Setting up a position with the board alone: the four buttons and the sensors, no screen.

The board knows no colours, so the person tells them by the order of their hands (docs/REFEREE.md,
"Setting up a position on the board"):

- pressing ``hint`` three times within :data:`ENTER_WINDOW` seconds starts the setup; the pieces
  already on the board keep the colours the game gives them;
- a piece put on an empty point becomes a piece of the selected colour (White's at first); a piece
  lifted is gone;
- ``mode`` switches the selected colour between White's and Black's;
- ``new`` ends the setup: the selected colour moves first, with no pieces in hand (the moving
  phase); a board that is no game (a side with fewer than three pieces, no move for the side to
  move) is refused and the setup goes on;
- ``takeback`` cancels the setup: the lights guide the board back to the game.

While it lasts the point LEDs show each piece's colour (White's steady ``on``, Black's ``slow``)
and the ``turn`` status LED the selected colour (``on`` White, ``slow`` Black): the lights
(:mod:`morris.referee.lights`) take the setup's state as their input (:meth:`BoardSetup.overlay`).

:class:`BoardSetup` is the state of one such setup (the controller owns it and feeds it the sensed
board); :func:`parse_position` reads a position text for any setup, from the board or a page.
"""

from __future__ import annotations

import logging

from morris.app.endings import outcome_words
from morris.app.errors import InputError
from morris.app.narration import colour as colour_word
from morris.core import (
    BLACK,
    COLOR_NAMES,
    NUM_POINTS,
    WHITE,
    Board,
    Color,
    InvalidPositionError,
    Point,
    points_of,
)
from morris.i18n import Message, msg, plain
from morris.referee.lights import SetupOverlay

logger = logging.getLogger(__name__)

#: Three presses of the hint button within this many seconds start a setup on the board.
ENTER_WINDOW = 2.0
#: How many quick hint presses start it.
ENTER_PRESSES = 3
#: How long the error LED blinks after a refused end of setup, seconds.
REFUSED_DISPLAY_TIME = 2.0


def parse_position(game: Board, text: object) -> Board:
    """A new board of ``game``'s variant and rules set up from the position ``text``.

    Raises :class:`InputError` naming the problem: text that is no position of the variant, or a
    position whose game is already over.
    """
    if not isinstance(text, str):
        raise InputError(msg("a position must be text, not {kind}", kind=type(text).__name__))
    text = text.strip()
    if not text:
        raise InputError(
            msg(
                "empty position: give a position text such as {example}",
                example="'W......./......../........ b 8 9 0 1 -'",
            )
        )
    try:
        board = type(game)(text, **game.settings())  # type: ignore[arg-type]
    except InvalidPositionError as exc:
        raise InputError(
            msg(
                "not a position of {variant}: {problem}",
                variant=game.variant_name,
                problem=exc.message,
            )
        ) from None
    outcome = board.outcome()
    if outcome is not None:
        raise InputError(
            msg(
                "the position is already over ({result}, {why}): {text}",
                result=outcome.result(),
                why=outcome_words(outcome),
                text=repr(text),
            )
        )
    return board


class BoardSetup:
    """One position being set up by hand: which piece on the board is whose.

    ``occupied`` is the sensed board at the start (a bitmask), ``game`` the game whose colours the
    pieces already standing keep (a piece standing where the game has none is White's).
    """

    def __init__(self, game: Board, occupied: int) -> None:
        self.game = game
        self.selected: Color = WHITE
        self._colours: dict[Point, Color] = {}
        for p in points_of(occupied):
            colour = game.piece_at(p)
            self._colours[p] = WHITE if colour is None else colour
        self.refused_until = float("-inf")

    def update(self, occupied: int) -> None:
        """The sensed board changed: new pieces take the selected colour, lifted ones are gone."""
        for p in list(self._colours):
            if not occupied >> p & 1:
                del self._colours[p]
        for p in points_of(occupied):
            self._colours.setdefault(p, self.selected)

    def toggle(self) -> Message:
        """The mode button: select the other colour; returns the event line that says which."""
        self.selected = not self.selected
        if self.selected == WHITE:
            return msg("setting up: White's pieces")
        return msg("setting up: Black's pieces")

    def finish(self, occupied: int, now: float) -> Board | Message:
        """The new button, with ``occupied`` sensed: the position set up, to play from; or why it
        is refused (the event line), the error LED then blinking for a moment and the setup
        going on."""
        self.update(occupied)
        try:
            return parse_position(self.game, self.position())
        except InputError as exc:
            self.refused_until = now + REFUSED_DISPLAY_TIME
            counts = self.counts()
            return msg(
                "setup refused ({white} white, {black} black, {side} to move): {reason}",
                white=counts["white"],
                black=counts["black"],
                side=colour_word(self.selected),
                reason=plain(str(exc)),
            )

    @property
    def selected_name(self) -> str:
        """``"white"`` or ``"black"``."""
        return COLOR_NAMES[self.selected]

    def position(self) -> str:
        """The board as a position text: the selected colour to move, nothing in hand."""
        cells = []
        for p in range(NUM_POINTS):
            colour = self._colours.get(p)
            cells.append("." if colour is None else ("W" if colour == WHITE else "B"))
            if p in (7, 15):
                cells.append("/")
        side = "w" if self.selected == WHITE else "b"
        return f"{''.join(cells)} {side} 0 0 0 1 -"

    def counts(self) -> dict[str, int]:
        """Pieces of each colour on the board."""
        return {
            COLOR_NAMES[c]: sum(1 for v in self._colours.values() if v == c) for c in (WHITE, BLACK)
        }

    def overlay(self, now: float) -> SetupOverlay:
        """The setup at ``now`` as the lights' input: each piece's colour, the selected colour,
        and whether a refused ``new`` is still shown."""
        return SetupOverlay(dict(self._colours), self.selected, now < self.refused_until)
