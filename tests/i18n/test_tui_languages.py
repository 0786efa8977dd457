"""The terminal simulator in Dutch, Finnish and German: the screen, its dialogs, its help, the
input line's errors, the keys' descriptions and Textual's palette commands hold no English text
of the catalog (:func:`tests.i18n.leftovers_kit.english_left_in`), and show the language's own
words.

One stepped app per language (``autoplay=False``, virtual time, as in tests/tui): a turn each,
then the quit question, the help, the new game dialog and Textual's command palette opened over
the board, and a bad line.
"""

from __future__ import annotations

import argparse
import asyncio
import io

import pytest
from rich.console import Console
from textual.command import CommandPalette
from textual.pilot import Pilot

from morris import i18n
from morris.app.config import Config
from morris.commands import sim as sim_command
from morris.core import VARIANT_NAMES
from morris.tui.app import SimulatorApp
from morris.tui.dialogs import HelpScreen, NewGameScreen, QuitScreen, variant_choice
from tests.i18n.leftovers_kit import english_left_in

SIZE = (100, 32)

#: Words each language's screen must show (so the check cannot pass on an empty screen): the
#: events panel, the help's title, the quit question, the pieces' heading, the Pi's turn.
KNOWN = {
    "nl": ("Gebeurtenissen", "Hulp", "Het spel bij zet 1 stoppen?", "Stenen", "Pi speelt"),
    "fi": ("Tapahtumat", "Ohje", "Lopetetaanko peli siirrossa 1?", "Nappulat", "Pi pelaa"),
    "de": ("Ereignisse", "Hilfe", "Die Partie bei Zug 1 beenden?", "Steine", "Pi spielt"),
}

#: A bad line's error in the board's language.
ERRORS = {
    "nl": "'z9' is geen punt: punten zijn a1 .. g7",
    "fi": "'z9' ei ole kohta: kohdat ovat a1 .. g7",
    "de": "'z9' ist kein Punkt: die Punkte sind a1 .. g7",
}


def screen_text(app: SimulatorApp) -> str:
    """What the terminal shows now, as plain text (the render Textual's screenshot makes)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


def seen_in(code: str) -> tuple[list[str], str]:
    """Every text the simulator shows in ``code`` along one short game; and the input line's
    message after a bad line."""
    i18n.set_language(code)
    app = SimulatorApp(Config().with_overrides(game_level=1), autoplay=False)
    shown: list[str] = []
    error: list[str] = []

    async def test(pilot: Pilot[None]) -> None:
        await pilot.pause()
        await pilot.press(*"d6", "enter")
        app.advance(3.0)  # the Pi answers, its turn is lit and told
        await pilot.pause()
        shown.append(screen_text(app))
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        shown.append(screen_text(app))
        await pilot.press("n", "question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown.append(screen_text(app))
        await pilot.press("escape", "s")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        shown.append(screen_text(app))
        await pilot.press("escape", "ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.pause(0.3)  # its commands are gathered by a worker
        shown.append(screen_text(app))
        shown.extend(b.description for _, b, _, _ in app.screen.active_bindings.values())
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press(*"z9", "enter")
        await pilot.pause()
        error.append(str(app.query_one("#message").render()))
        shown.append(screen_text(app))
        # The keys' descriptions (Textual's keys panel) and the palette's commands.
        shown.extend(b.description for _, b, _, _ in app.screen.active_bindings.values())
        shown.extend(f"{c.title}: {c.help}" for c in app.get_system_commands(app.screen))

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await test(pilot)

    asyncio.run(main())
    # The choices of the dialog's menus (drawn once a menu is opened).
    shown.extend(variant_choice(name) for name in VARIANT_NAMES)
    return shown, error[0]


@pytest.mark.parametrize("code", ["nl", "fi", "de"])
def test_the_simulator_speaks_the_boards_language(code: str) -> None:
    shown, error = seen_in(code)
    text = "\n".join(shown)
    assert english_left_in(text, code) == [], text
    for words in KNOWN[code]:
        assert words in text
    assert ERRORS[code] in error


def test_morris_sim_lang_fi_starts_the_simulator_in_finnish(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[SimulatorApp] = []
    monkeypatch.setattr(SimulatorApp, "run", lambda self: started.append(self))
    monkeypatch.setattr(sim_command, "_log_to_file", lambda path: None)  # leave pytest's log
    parser = argparse.ArgumentParser(prog="morris")
    sim_command.register(parser.add_subparsers(dest="command"))
    assert sim_command.run(parser.parse_args(["sim", "--lang", "fi", "--no-save"])) == 0
    app = started.pop()
    keys = {binding.description for _, binding in app._bindings}
    assert {"Uusi peli", "Vihje", "Ohje"} <= keys
    assert app.sub_title == "Mylly simuloidulla laudalla"
