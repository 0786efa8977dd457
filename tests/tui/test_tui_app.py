"""``morris sim``'s terminal app, driven headless through Textual's pilot in virtual time.

The app runs with ``autoplay=False``: no real-time timer and no search thread; the tests move
the simulation's clock with :meth:`SimulatorApp.advance`, so every run plays the same game.
"""

from __future__ import annotations

import argparse
import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Label, RadioButton, Select

from morris.app.config import Config
from morris.app.errors import InputError
from morris.app.jobs import BackgroundRunner, SearchJob
from morris.commands import sim as sim_command
from morris.core import Board, Move, read_game
from morris.tui.app import SimulatorApp
from morris.tui.board import BoardView
from morris.tui.dialogs import HelpScreen, NewGameScreen, QuitScreen
from morris.tui.grammar import parse_actions
from tests.app.scenario_kit import save_game

SIZE = (100, 32)


def run_app(
    test: Callable[[SimulatorApp, Pilot[None]], Awaitable[None]],
    *,
    state_dir: Path | None = None,
    **game: object,
) -> SimulatorApp:
    """Run ``test`` against a stepped app (level 1 unless given) at the size of a small terminal."""
    overrides = {"game_level": 1, **{f"game_{k}": v for k, v in game.items()}}
    app = SimulatorApp(Config().with_overrides(**overrides), state_dir=state_dir, autoplay=False)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await test(app, pilot)

    asyncio.run(main())
    return app


async def click_point(app: SimulatorApp, pilot: Pilot[None], point: str) -> None:
    board = app.query_one(BoardView)
    assert await pilot.click(BoardView, offset=board.offset_of(point))
    await pilot.pause()


async def type_line(pilot: Pilot[None], text: str) -> None:
    await pilot.press(*text, "enter")
    await pilot.pause()


def lit_points(app: SimulatorApp) -> dict[str, str]:
    return {p: v for p, v in app.sim.lights().items() if v != "off"}


def message(app: SimulatorApp) -> str:
    return str(app.query_one("#message").render())


# -- clicking and typing ----------------------------------------------------------------------


def test_a_click_puts_a_piece_and_the_pi_answer_lights_up() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await click_point(app, pilot, "d6")
        board = app.query_one(BoardView)
        assert app.sim.hardware.on_wood() == {"d6"}
        assert board.views["d6"].piece == "unknown"  # on the wood, not yet read as a turn

        app.advance(1.5)
        await pilot.pause()
        assert app.sim.board.piece_at("d6") is not None
        assert board.views["d6"].piece == "white"
        lit = lit_points(app)
        assert list(lit.values()) == ["on"], lit  # the Pi's placement: put its piece here
        (reply,) = lit
        assert board.views[reply].signal.value == "on" and board.views[reply].lit
        assert "the Pi (black): do its move" in app.panel_text("game")
        assert "Pi plays" in app.panel_text("events")

        await click_point(app, pilot, reply)  # carry out the Pi's move
        app.advance(1.5)
        await pilot.pause()
        assert app.sim.board.pieces() == {"d6": True, reply: False}
        assert board.views[reply].piece == "black"
        assert lit_points(app) == {}
        assert "your move (white)" in app.panel_text("game")

    run_app(test)


def test_clicking_a_piece_again_lifts_it() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await click_point(app, pilot, "a7")
        app.advance(1.0)
        await click_point(app, pilot, "a7")
        app.advance(0.2)
        await pilot.pause()
        view = app.query_one(BoardView).views["a7"]
        assert app.sim.hardware.on_wood() == set()
        assert view.piece is None and view.lifted  # the game's piece is off the board

    run_app(test, mode="referee")


def test_a_typed_point_and_a_typed_move() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await type_line(pilot, "d6")
        assert app.sim.hardware.on_wood() == {"d6"}
        assert message(app) == "done: d6"
        app.advance(1.0)
        assert app.sim.board.pieces() == {"d6": True}

        await type_line(pilot, "d6-d7")
        assert app.sim.hardware.on_wood() == set()  # lifted; put down a moment later
        app.advance(0.5)
        assert app.sim.hardware.on_wood() == {"d7"}

    run_app(test, mode="referee")


def test_a_wrong_board_is_drawn_with_its_lights_and_the_error_led() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await type_line(pilot, "a7")
        app.advance(1.0)
        await type_line(pilot, "xa7 g1")  # black takes white's piece away and puts one on g1
        app.advance(8.0)  # past the grace time
        await pilot.pause()
        views = app.query_one(BoardView).views
        assert views["a7"].lifted and views["a7"].signal.value == "on"  # put it back
        assert views["g1"].piece == "unknown" and views["g1"].signal.value == "fast"
        assert app.sim.status()["error"] == "fast"
        assert "the board does not match" in app.panel_text("game")
        # The event in full, never cut: the panel wraps it.
        assert (
            "board does not match: no legal turn of black explains the board; "
            "new pieces on g1; pieces gone from a7" in app.panel_text("events")
        )

        await type_line(pilot, "a7 xg1")  # put right: the game goes on
        app.advance(3.0)
        await pilot.pause()
        assert lit_points(app) == {}
        assert "does not match" not in app.panel_text("game")

    run_app(test, mode="referee")


def test_in_real_time_the_pi_answers_from_its_thread() -> None:
    app = SimulatorApp(Config().with_overrides(game_level=1))  # autoplay, threaded

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await click_point(app, pilot, "d6")
            for _ in range(200):  # the real-time loop moves the clock; at most ~10 s
                await pilot.pause(0.05)
                if lit_points(app):
                    break
            assert app.sim.now > 0.5
            assert list(lit_points(app).values()) == ["on"]
            assert "Pi plays" in app.panel_text("events")

    asyncio.run(main())


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("z9", "'z9' is not a point"),
        ("b1", "b1 is not a point of the board"),
        ("a1-a4", "there is no piece on a1 to move"),
        ("xg7", "there is no piece on g7 to take off"),
        ("d6-", "cannot read 'd6-'"),
    ],
)
def test_bad_input_shows_an_error_and_changes_nothing(line: str, error: str) -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        before = app.sim.board.position()
        await type_line(pilot, line)
        assert error in message(app)
        assert app.query_one("#message").has_class("error")
        assert app.query_one("#input", Input).value == line  # kept, to be corrected
        app.advance(1.0)
        assert app.sim.hardware.on_wood() == set()
        assert app.sim.board.position() == before

    run_app(test)


def test_parse_actions_reads_points_moves_and_removals() -> None:
    actions = parse_actions("a1-a4xg7", frozenset({"a1", "g7"}), now=10.0)
    assert [(a.kind, a.point) for a in actions] == [
        ("lift", "a1"),
        ("place", "a4"),
        ("lift", "g7"),
    ]
    assert actions[0].due == 10.0 and actions[1].due > 10.0 and actions[2].due > actions[1].due
    toggles = parse_actions("d6, d6", frozenset(), now=0.0)
    assert [(a.kind, a.point) for a in toggles] == [("place", "d6"), ("lift", "d6")]
    cleared = parse_actions("clear", frozenset({"a1", "g7"}), now=0.0)
    assert sorted((a.kind, a.point) for a in cleared) == [("lift", "a1"), ("lift", "g7")]
    with pytest.raises(InputError, match="already has a piece"):
        parse_actions("a1-a4", frozenset({"a1", "a4"}), now=0.0)
    with pytest.raises(InputError):
        parse_actions("   ", frozenset(), now=0.0)


# -- the buttons ------------------------------------------------------------------------------


def test_the_mode_key_raises_the_level_and_shows_it_on_the_leds() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await pilot.press("m")
        app.advance(0.5)
        await pilot.pause()
        assert app.sim.controller.level == 2
        assert "Pi level 2" in app.panel_text("game")
        assert "level 2" in app.panel_text("events")
        assert len(lit_points(app)) == 2  # the level, shown on the point LEDs for a moment
        app.advance(3.0)
        assert lit_points(app) == {}

    run_app(test)


def test_hint_takeback_and_new_game_keys() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await pilot.press("h")
        app.advance(1.5)
        await pilot.pause()
        hint = lit_points(app)
        assert len(hint) == 1 and next(iter(hint.values())) == "on"  # put a piece here

        app.advance(5.0)  # the hint goes out
        await type_line(pilot, "d6")
        app.advance(1.0)
        assert app.sim.board.move_stack == [Move.parse("d6")]
        await pilot.press("t")
        app.advance(1.0)
        await pilot.pause()
        assert "took back d6" in app.panel_text("events")
        assert app.sim.board.move_stack == []

        await pilot.press("n")
        app.advance(0.5)
        await pilot.pause()
        assert "new game" in app.panel_text("events")

    run_app(test)


def test_the_visible_buttons_press_the_board_buttons() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await pilot.click("#button-mode")
        app.advance(0.2)
        assert app.sim.controller.level == 2
        await pilot.click("#button-quit")
        await pilot.pause()

    app = run_app(test)
    assert app.return_code == 0


def test_the_set_up_dialog_starts_a_refereed_game() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await type_line(pilot, "d6")
        await pilot.press("s")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        await pilot.press("n")  # the board's keys sleep while the dialog is open
        assert isinstance(app.screen, NewGameScreen)
        referee = dialog.query(RadioButton)[1]
        await pilot.click(referee)
        dialog.query_one("#level", Select).value = 3
        await pilot.click("#start")
        await pilot.pause()
        assert not isinstance(app.screen, NewGameScreen)
        assert app.sim.controller.mode == "referee"
        assert app.sim.hardware.on_wood() == set()  # a fresh board
        assert "referee: two players" in app.panel_text("game")
        assert "new game: referee" in app.panel_text("events")

    run_app(test)


def test_the_set_up_dialog_starts_from_the_level_the_mode_key_chose() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await pilot.press("m")  # level 1 -> 2
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.query_one("#level", Select).value == 2

    run_app(test)


def test_letters_typed_into_a_line_are_text_not_buttons() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await pilot.press(*"e4hmnt")
        await pilot.pause()
        assert app.query_one("#input", Input).value == "e4hmnt"
        assert app.sim.controller.level == 1  # m did not press the mode button
        assert "pressed" not in message(app)
        assert app.sim.board.move_stack == []

    run_app(test)


def test_quitting_a_game_in_progress_asks_first() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await type_line(pilot, "d6")
        app.advance(2.0)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        assert "turn 1" in app.screen.question and "not saved" in app.screen.question
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, QuitScreen)
        assert app.is_running
        await pilot.press("q", "y")
        await pilot.pause()
        assert not app.is_running

    run_app(test)


def test_a_new_game_during_a_game_asks_first_and_keeps_the_game_left(tmp_path: Path) -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        for turn in ("d6", "f4"):
            await type_line(pilot, turn)
            app.advance(2.0)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        assert "turn 2" in app.screen.question and "result *" in app.screen.question
        await pilot.press("n")  # stay
        await pilot.pause()
        assert not isinstance(app.screen, QuitScreen)
        assert [str(m) for m in app.sim.board.move_stack] == ["d6", "f4"]
        assert not (tmp_path / "games").exists()
        await pilot.press("n", "y")
        await pilot.pause()
        app.advance(1.0)
        [kept] = (tmp_path / "games").glob("*.txt")
        record = read_game(kept.read_text(encoding="utf-8"))
        assert record.result == "*" and [str(m) for m in record.moves] == ["d6", "f4"]
        assert "take the pieces off" in message(app)

    run_app(test, state_dir=tmp_path, mode="referee")


def test_pieces_differ_by_letter_not_only_by_colour() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await type_line(pilot, "d6")
        app.advance(1.5)
        await type_line(pilot, "f4")
        app.advance(1.5)
        await type_line(pilot, "f4-f6")  # a piece in the hand: lifted, not yet put down
        await pilot.pause()
        drawn = app.query_one(BoardView).render().plain
        assert " W " in drawn  # white on d6
        assert " b " in drawn  # black's piece lifted off f4
        legend = app.panel_text("legend")
        assert "on the wood, not read as a turn yet" in legend and "lifted" in legend

    run_app(test, mode="referee")


def test_a_game_resumed_at_turn_20_is_numbered_from_20(tmp_path: Path) -> None:
    board = Board("B..B...B/..W..W../W..B.... w 0 0 4 20 -")
    save_game(tmp_path, board, mode="referee")

    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        app.advance(2.0)  # the saved pieces are put back and the board settles
        await type_line(pilot, "c5-d5")
        app.advance(2.0)
        await pilot.pause()
        game = app.panel_text("game")
        assert "Turn 20 black to move" in game
        assert "20.c5-d5" in game

    run_app(test, state_dir=tmp_path, mode="referee")


def test_escape_closes_the_dialog_without_a_new_game() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        sim = app.sim
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)  # the dialog is open
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, NewGameScreen)  # and closed by Escape
        assert app.sim is sim  # without a new game
        await pilot.press("h")  # the board's keys work again once it is closed
        await pilot.pause()
        assert "pressed the hint button" in str(app.query_one("#message").render())

    run_app(test)


# -- keeping the game -------------------------------------------------------------------------


def test_the_game_is_kept_in_the_state_dir(tmp_path: Path) -> None:
    async def first(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await type_line(pilot, "d6")
        app.advance(1.0)

    async def second(app: SimulatorApp, pilot: Pilot[None]) -> None:
        app.advance(0.5)
        await pilot.pause()
        assert app.sim.board.pieces() == {"d6": True}
        assert app.sim.hardware.on_wood() == {"d6"}  # the saved pieces are set up again
        assert "resumed" in app.panel_text("events")

    run_app(first, state_dir=tmp_path)
    run_app(second, state_dir=tmp_path)


# -- the search thread ------------------------------------------------------------------------


def test_background_runner_hands_answers_over_in_deliver_due() -> None:
    move = Move.parse("d6")
    started = threading.Event()

    def search(job: SearchJob) -> Move | None:
        started.set()
        return move

    runner = BackgroundRunner(search, think_time=0.0)
    job = SearchJob(1, "move", Board(), level=1, movetime=1.0)
    dropped = SearchJob(2, "move", Board(), level=1, movetime=1.0)
    runner.start(job)
    runner.start(dropped)
    runner.cancel(dropped)
    assert started.wait(5.0)
    runner.close()  # waits for the worker: both jobs are done
    delivered: list[tuple[SearchJob, Move | None]] = []
    runner.deliver_due(0.0, lambda j, m: delivered.append((j, m)))
    assert delivered == [(job, move)]
    assert not runner.is_busy
    runner.deliver_due(0.0, lambda j, m: delivered.append((j, m)))
    assert len(delivered) == 1


def test_background_runner_waits_the_think_time() -> None:
    now = [0.0]
    runner = BackgroundRunner(lambda job: Move.parse("d6"), think_time=0.3, clock=lambda: now[0])
    job = SearchJob(1, "move", Board(), level=1, movetime=1.0)
    runner.start(job)
    runner.close()
    delivered: list[SearchJob] = []
    runner.deliver_due(0.0, lambda j, m: delivered.append(j))
    assert delivered == []
    now[0] = 0.3
    runner.deliver_due(0.0, lambda j, m: delivered.append(j))
    assert delivered == [job]


# -- the command ------------------------------------------------------------------------------


def _parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="morris")
    sim_command.register(parser.add_subparsers(dest="command"))
    return parser.parse_args(["sim", *argv])


def test_morris_sim_reads_the_game_flags() -> None:
    args = _parse("--mode", "referee", "--level", "3", "--no-flying", "--seed", "7")
    assert (args.mode, args.level, args.flying, args.seed) == ("referee", 3, False, 7)
    assert args.run is sim_command.run


def test_morris_sim_rejects_a_bad_config_with_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[game]\nlevel = 99\n")
    assert sim_command.run(_parse("--config", str(bad))) == 2
    assert "level" in capsys.readouterr().err
    assert sim_command.run(_parse("--config", str(tmp_path / "missing.toml"))) == 2


def test_morris_sim_keeps_the_game_by_default_and_passes_the_flags_it_was_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[SimulatorApp] = []
    monkeypatch.setattr(SimulatorApp, "run", lambda self: started.append(self))
    monkeypatch.setattr(sim_command, "_log_to_file", lambda path: None)  # leave pytest's log
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert sim_command.run(_parse("--level", "4")) == 0
    app = started.pop()
    assert app.state_dir == tmp_path / "morris" / "sim"
    assert app.state_dir.is_dir()
    assert app.insist == {"level"}
    assert sim_command.run(_parse("--no-save")) == 0
    assert started.pop().state_dir is None


def test_a_typed_position_is_set_up_and_a_bad_one_is_refused() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await type_line(pilot, "WWW..BB./......../........ x 2 3 0 20 -")
        assert "side to move" in message(app)
        assert app.sim.board.position() == Board().position()
        app.query_one("#input", Input).value = ""
        await type_line(pilot, "WWW..BB./......../........ b 2 3 0 20 -")
        assert "set up" in message(app)
        app.advance(2.0)
        assert lit_points(app) == dict.fromkeys(["a7", "d7", "g7", "d1", "a1"], "on")

    run_app(test, mode="referee")


def test_the_help_opens_from_its_keys_and_its_button() -> None:
    async def test(app: SimulatorApp, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        labels = " ".join(str(label.render()) for label in app.screen.query(Label))
        assert "move the piece on a1 to a4" in labels and "Set up game" in labels
        await pilot.press("h")  # the board's keys sleep while the help is open
        assert "pressed" not in message(app)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.click("#help-close")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        await pilot.click("#button-help")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)

    run_app(test)
