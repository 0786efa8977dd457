"""The controller's narration in Dutch, Finnish and German: games played on the simulated board
(virtual time), every event line and every announcement rendered in each language, and none
holds an English text of the catalog (the English catalog's words, checked piece by piece)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from morris import i18n
from morris.app.narration import Announcement
from morris.app.snapshot import Snapshot
from morris.sim import Simulation
from tests.app.scenario_kit import SETTLE, carry_out_opponent_turn, play, position, scripted
from tests.i18n.leftovers_kit import english_left_in

TRANSLATED = ("nl", "fi", "de")


class Recorder:
    """Every event line and announcement of a simulation."""

    def __init__(self, sim: Simulation) -> None:
        self.events: list[i18n.Message] = []
        self.announcements: list[Announcement] = []
        sim.controller.subscribe(self._snapshot)
        sim.controller.on_announcement(self.announcements.append)

    def _snapshot(self, snapshot: Snapshot) -> None:
        if not self.events or self.events[-1] != snapshot.event_message:
            self.events.append(snapshot.event_message)

    def messages(self) -> Iterator[i18n.Message]:
        yield from self.events
        for announcement in self.announcements:
            yield announcement.message


@pytest.fixture(scope="module")
def narrated() -> list[i18n.Message]:
    """The narration of a few games: against the Pi (its turns, a mistake and its fix, the
    mode button, a takeback, a new game), refereed (a mill, a removal, the end of the game)."""
    messages: list[i18n.Message] = []
    with Simulation(mode="vs-ai", search=scripted(["d7", "a7", "g7"])) as sim:
        record = Recorder(sim)
        play(sim, "d6")
        sim.wait(2.0)
        carry_out_opponent_turn(sim)
        sim.lift("d6")
        sim.wait(sim.config.referee.flag_delay + 1.0)
        sim.place("d6")
        sim.wait(1.0)
        sim.press("mode")
        sim.wait(3.0)
        sim.press("takeback")
        sim.wait(2.0)
        sim.press("new")
        sim.wait(2.0)
        messages += record.messages()
    with Simulation(mode="referee") as sim:
        record = Recorder(sim)
        sim.setup(position("a7 d7 g4", "a1 d1 f2", turn="w"))
        for name in ("a7", "d7", "g4", "a1", "d1", "f2"):
            sim.place(name)
        sim.wait(SETTLE)
        play(sim, "g4-g7xa1", pause=1.0)  # a mill, and Black is down to two pieces
        assert sim.board.outcome() is not None
        messages += record.messages()
    return messages


def test_the_games_were_narrated_through_the_catalogs(narrated: list[i18n.Message]) -> None:
    english = [m.render("en") for m in narrated]
    for expected in ("Pi plays d7", "board does not match", "board matches again", "level 2",
                     "took back", "new game", "mill with", "game over: 1-0"):  # fmt: skip
        assert any(expected in text for text in english), (expected, english)
    untranslated = [m for m in narrated if not m.translate and m.msgid.strip() and not m.params]
    assert not untranslated, f"narration that is no catalog message: {untranslated}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_narration_in_each_language_holds_no_english(
    language: str, narrated: list[i18n.Message]
) -> None:
    for message in narrated:
        text = message.render(language)
        english = english_left_in(text, language)
        assert not english, f"{language}: {text!r} holds English {english}"
        assert text != message.render("en") or not re.search(r"[a-z]{3}", text), text


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_simulators_legend_and_leds_hold_no_english(language: str) -> None:
    from morris.tui.panels import legend, status_text
    from morris_device import Signal, StatusLight

    before = i18n.language()
    i18n.set_language(language)
    try:
        shown = legend(0.0).plain + "\n" + status_text({StatusLight.TURN: Signal.ON}, {}, 0.0).plain
    finally:
        i18n.set_language(before)
    also = frozenset({"Lights", "Pieces", "LEDs", "thinking"})
    assert not english_left_in(shown, language, also=also), shown
