"""The side panel's texts: the status LEDs, the legend of the light language and the solved
game's value of the position."""

from __future__ import annotations

from collections.abc import Mapping

from rich.style import Style
from rich.text import Text

from morris.app.values import Value, describe_value
from morris.i18n import N_, _
from morris.tui import colours
from morris_device import Signal, StatusLight, signal_level


def _swatch(lit: bool) -> Text:
    return Text("■", Style(color=colours.LIT if lit else "#4a3a2a"))


#: The lights' signals as the legend names them (the wiring's names, ``on``, ``slow``,
#: ``fast``, are :class:`morris_device.Signal`'s values, the same in every language).
_SIGNAL_WORDS = {
    # TRANSLATORS: a point's light in the legend: lit steadily.
    Signal.ON: N_("on"),
    # TRANSLATORS: a point's light in the legend: blinking slowly (1 Hz).
    Signal.SLOW: N_("slow"),
    # TRANSLATORS: a point's light in the legend: blinking fast (4 Hz).
    Signal.FAST: N_("fast"),
}


def legend(now: float) -> Text:
    """The light language and the piece symbols, each swatch blinking at its rate."""
    text = Text()
    text.append(_("Lights") + "\n", Style(bold=True))
    signals = [
        (signal, _(_SIGNAL_WORDS[signal]), meaning)
        for signal, meaning in (
            (Signal.ON, _("put a piece here")),
            (Signal.SLOW, _("take this piece off")),
            (Signal.FAST, _("wrong: put back / take off")),
        )
    ]
    width = max(5, *(len(word) for _signal, word, _meaning in signals))
    for signal, word, meaning in signals:
        text.append(" ")
        text.append_text(_swatch(signal_level(signal, now, since=0.0)))  # a sample
        text.append(f" {word:<{width}} {meaning}\n")
    text.append(_("Pieces") + "\n", Style(bold=True))
    for pieces, meaning in (
        ((("white", "W"), ("black", "B")), _("white, black")),
        ((("unknown", "?"),), _("on the wood, not read as a turn yet")),
        ((("white", "w"), ("black", "b")), _("lifted: the game's piece is off")),
    ):
        text.append(" ")
        for colour, glyph in pieces:
            text.append(
                glyph, Style(color=colours.PIECE_COLOURS[colour], bgcolor=colours.PAD, bold=True)
            )
            text.append(" ")
        text.append(f"{meaning}\n" if len(pieces) == 2 else f"   {meaning}\n")
    text.rstrip()
    return text


#: The status LEDs' names (their words in the catalogs).
_LED_WORDS = {
    StatusLight.TURN: N_("turn"),
    StatusLight.THINKING: N_("thinking"),
    StatusLight.ERROR: N_("error"),
    StatusLight.GAME_OVER: N_("game over"),
}


def status_text(
    status: Mapping[StatusLight, Signal], since: Mapping[StatusLight, float], now: float
) -> Text:
    """The four status LEDs, each lit or dark at ``now`` (blinking from its ``since``)."""
    text = Text()
    names = {light: _(word) for light, word in _LED_WORDS.items()}
    heading = _("LEDs")
    indent = max(7, len(heading) + 1)
    text.append(heading.ljust(indent), Style(bold=True))
    for i, (light, label) in enumerate(names.items()):
        signal = status.get(light, Signal.OFF)
        lit = signal_level(signal, now, since.get(light, now))
        if i == 2:
            text.append("\n" + " " * indent)
        text.append(
            "● ",
            Style(color="#ff4040" if light is StatusLight.ERROR else colours.LIT)
            if lit
            else Style(color="#555555"),
        )
        text.append(f"{label:<10}", Style(dim=not lit))
    return text


def solution_text(value: Value | None) -> Text:
    """The solved game's value of the position as a line of the game panel ("Solved white wins
    in 12"), or nothing where no solution covers the position."""
    text = Text()
    if value is not None:
        text.append(_("Solved") + " ", Style(bold=True))
        text.append(describe_value(value) + "\n", Style(color="#87d7ff"))
    return text
