"""The terminal simulator in the variants: the diagonals drawn, six men's outer square marked,
the variant chosen in the set-up dialog."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Select

from morris.app.mode import Mode
from morris.core import SixMensMorris, TwelveMensMorris
from morris.tui.app import SimulatorApp
from morris.tui.board import BoardView
from morris.tui.dialogs import GameSettings, NewGameScreen
from tests.tui.test_tui_app import run_app


def drawn(app: SimulatorApp) -> str:
    return app.query_one(BoardView).render().plain


def test_the_diagonals_are_drawn_in_twelve_mens_morris_only() -> None:
    async def twelve(app: SimulatorApp, pilot: Pilot[None]) -> None:
        picture = drawn(app)
        assert "╲" in picture and "╱" in picture
        assert "×" not in picture

    async def standard(app: SimulatorApp, pilot: Pilot[None]) -> None:
        picture = drawn(app)
        assert "╲" not in picture and "╱" not in picture

    run_app(twelve, mode="referee", variant="twelve")
    run_app(twelve, mode="referee", variant="morabaraba")
    run_app(standard, mode="referee")


def test_six_mens_morris_marks_the_outer_square_not_in_play() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        picture = drawn(app)
        assert picture.count("×") == 8  # the outer square's points
        top = next(line for line in picture.splitlines() if line.lstrip().startswith("7"))
        assert "─" not in top  # no line along the outer square

    run_app(test, mode="referee", variant="six")


def test_the_set_up_dialog_offers_every_variant() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await pilot.press("s")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        select = dialog.query_one("#variant", Select)
        assert select.value == "standard"
        select.value = "six"
        await pilot.click("#start")
        await pilot.pause()
        assert type(app.sim.board) is SixMensMorris
        assert drawn(app).count("×") == 8
        assert "Six men's morris" in app.panel_text("events")

    run_app(test, mode="referee")


def test_a_variant_chosen_with_the_board_buttons_redraws_the_lines() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await pilot.press("m")
        await pilot.press("h")  # while the mode is shown: the next variant, twelve
        await pilot.pause()
        app.advance(0.5)
        await pilot.press("n")
        await pilot.pause()
        app.advance(1.0)
        await pilot.pause()
        assert type(app.sim.board) is TwelveMensMorris
        assert "╲" in drawn(app)

    run_app(test, mode="referee")


def test_game_settings_name_a_variant_other_than_the_standard_game() -> None:
    assert GameSettings(Mode.REFEREE).describe() == "referee: two players"
    assert GameSettings(Mode.VS_AI, "black", 3, "lasker").describe() == (
        "you (black) vs the Pi, level 3, Lasker morris"
    )


def test_a_typed_double_mill_takes_both_pieces_off() -> None:
    from morris.tui.grammar import parse_actions

    actions = parse_actions("a1xd6xf4", frozenset({"d6", "f4"}), 0.0)
    assert [(a.kind, a.point) for a in actions] == [
        ("place", "a1"), ("lift", "d6"), ("lift", "f4")
    ]  # fmt: skip
