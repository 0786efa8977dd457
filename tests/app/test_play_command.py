"""``morris play``: a whole game driven through injected streams."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from morris.commands import play
from morris.core import Board, TwelveMensMorris, read_game

# A strong game (tests/data/strong-games.txt) that black wins by blocking white on turn 20.
BLOCKED_GAME = [
    "a7",
    "f4",
    "b4",
    "d2",
    "a4",
    "c4",
    "a1xc4",
    "c4",
    "g7",
    "d6",
    "g1",
    "g4",
    "d7xg4",
    "d1",
    "g4xd1",
    "d3",
    "d1xc4",
    "c4",
    "b4-b6",
    "c4-b4",
]


def drive(lines: list[str], board: Board | None = None, **kwargs: object) -> tuple[int, str]:
    output = io.StringIO()
    code = play.play_game(
        board or Board(),
        io.StringIO("".join(f"{line}\n" for line in lines)),
        output,
        **kwargs,  # type: ignore[arg-type]
    )
    return code, output.getvalue()


def parser() -> argparse.ArgumentParser:
    result = argparse.ArgumentParser(prog="morris")
    play.register(result.add_subparsers(dest="command", required=True))
    return result


def test_a_whole_game_is_refereed_to_its_result_and_saved(tmp_path: Path) -> None:
    save = tmp_path / "game.txt"
    code, out = drive(BLOCKED_GAME, save=save, tags={"White": "Ann", "Black": "Bo"})
    assert code == 0
    assert "Game over: black wins, white cannot move. Result 0-1." in out
    assert "Turn 1: white to place a piece. In hand: white 9, black 9." in out
    assert "Turn 10: white to move a piece. In hand: white 0, black 0." in out
    record = read_game(save.read_text(encoding="utf-8"))
    assert [str(m) for m in record.moves] == BLOCKED_GAME
    assert record.result == "0-1"
    assert record.tags["Termination"] == "blocked"
    assert record.tags["White"] == "Ann"
    assert f"Saved the game to {save}." in out


def test_the_board_and_the_turn_are_shown() -> None:
    _, out = drive(["d6", "quit"])
    assert str(Board()) in out
    assert "6  |   .-------W-------.   |" in out
    assert "Last turn: d6. Turn 1: black to place a piece. In hand: white 8, black 9." in out
    assert "white> " in out and "black> " in out


def test_a_mill_closed_without_a_removal_asks_for_one() -> None:
    lines = ["a1", "b2", "d1", "d2", "g1", "g7", "xd2"]
    _, out = drive([*lines, "quit"])
    assert "g1 closes a mill. Remove which black piece? " in out
    assert "Cannot remove g7: g7 holds no black piece." in out
    assert "Last turn: g1xd2." in out


def test_a_double_mill_asks_for_two_removals_with_the_switch_on() -> None:
    board = Board("W...WW.W/.B.B.BB./........ w 5 5 0 20 -", double_mill_removes_two=True)
    _, out = drive(["a1", "d6", "d6 xf4", "quit"], board)
    assert "a1 closes two mills. Remove which two black pieces? " in out
    assert "Name two pieces, not 1." in out
    assert "Last turn: a1xd6xf4." in out


def test_play_takes_the_variant_and_the_switches() -> None:
    args = parser().parse_args(["play", "--variant", "six", "--remove-from-mills"])
    assert (args.variant, args.flying, args.remove_from_mills) == ("six", None, True)
    assert args.double_mill_removes_two is False


def test_the_removal_prompt_can_be_cancelled() -> None:
    _, out = drive(["a1", "b2", "d1", "d2", "g1", "cancel", "g1xb2", "quit"])
    assert "g1 not played." in out
    assert "Last turn: g1xb2." in out


def test_illegal_input_is_refused_with_the_reason_and_the_game_goes_on(tmp_path: Path) -> None:
    save = tmp_path / "game.txt"
    code, out = drive(["d6", "d6", "d6-d5", "zz", "f4", "quit"], save=save)
    assert code == 0
    assert "Illegal: d6 is occupied." in out
    assert "Illegal: black still has pieces in hand and must place one." in out
    assert "Not a turn: invalid move 'zz'" in out
    assert [str(m) for m in read_game(save.read_text(encoding="utf-8")).moves] == ["d6", "f4"]


def test_undo_takes_back_the_last_turn(tmp_path: Path) -> None:
    save = tmp_path / "game.txt"
    _, out = drive(["undo", "d6", "f4", "undo", "undo", "a1", "quit"], save=save)
    assert "There is no turn to take back." in out
    assert "Took back f4." in out
    assert "Took back d6." in out
    assert [str(m) for m in read_game(save.read_text(encoding="utf-8")).moves] == ["a1"]


def test_help_and_moves() -> None:
    _, out = drive(["help", "moves", "quit"])
    assert "a slide or fly is from-to (a1-a4)" in out
    assert "Legal turns: a7 d7 g7" in out


def test_input_ending_before_the_game_gives_exit_code_1() -> None:
    code, out = drive(["d6"])
    assert code == 1
    assert "Input ended before the game did." in out


def test_quit_without_save_writes_nothing(tmp_path: Path) -> None:
    code, out = drive(["quit"])
    assert code == 0
    assert "Game stopped." in out
    assert "Saved" not in out


def test_options_choose_flying_and_the_variant() -> None:
    args = parser().parse_args(["play", "--no-flying", "--variant", "twelve", "--save", "g.txt"])
    assert args.flying is False
    assert args.variant == "twelve"
    assert args.save == Path("g.txt")
    defaults = parser().parse_args(["play"])
    assert defaults.flying is None and defaults.variant == "standard" and defaults.save is None
    with pytest.raises(SystemExit):
        parser().parse_args(["play", "--variant", "chess"])


def test_run_plays_on_standard_streams(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("a1\nquit\n"))
    args = parser().parse_args(["play", "--variant", "twelve", "--no-flying"])
    assert args.run(args) == 0
    out = capsys.readouterr().out
    assert "Twelve men's morris, flying off." in out
    assert "In hand: white 11, black 12." in out


def test_twelve_mens_morris_is_played_to_a_full_board_draw() -> None:
    white = ["a1", "b6", "c4", "d3", "d5", "d6", "e4", "e5", "f2", "f4", "g1", "g7"]
    black = ["a4", "a7", "b2", "b4", "c3", "c5", "d1", "d2", "d7", "e3", "f6", "g4"]
    turns = [p for pair in zip(white, black, strict=True) for p in pair]
    code, out = drive(turns, TwelveMensMorris())
    assert code == 0
    assert "Game over: a draw, the board is full. Result 1/2-1/2." in out


@pytest.mark.parametrize("where", ["missing/x.txt", "a-directory"])
def test_a_save_path_that_cannot_be_written_is_refused_before_the_game(
    tmp_path: Path,
    where: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "a-directory").mkdir()
    monkeypatch.setattr("sys.stdin", io.StringIO("a1\nquit\n"))
    args = parser().parse_args(["play", "--save", str(tmp_path / where)])
    assert args.run(args) == 2
    out, err = capsys.readouterr()
    assert f"cannot save to {tmp_path / where}" in err
    assert "a1" not in out  # no game was played


def test_a_save_that_fails_after_the_game_prints_the_record(tmp_path: Path) -> None:
    # The directory disappears during the game: the record goes to the output instead.
    gone = tmp_path / "gone"
    code, out = drive(["d6", "f4", "quit"], save=gone / "game.txt")
    assert code == 2
    assert f"Could not save the game to {gone / 'game.txt'}" in out
    record = read_game(out.split("Its record follows:", 1)[1])
    assert [str(m) for m in record.moves] == ["d6", "f4"]


def test_ctrl_c_during_the_game_still_saves_it(tmp_path: Path) -> None:
    class Interrupting(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            line = super().readline()
            if not line:
                raise KeyboardInterrupt
            return line

    save = tmp_path / "game.txt"
    output = io.StringIO()
    code = play.play_game(Board(), Interrupting("d6\nf4\n"), output, save=save)
    assert code == 130
    assert [str(m) for m in read_game(save.read_text(encoding="utf-8")).moves] == ["d6", "f4"]


def test_a_game_record_is_loaded_replayed_and_played_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "kept.txt"
    code, _ = drive([*BLOCKED_GAME[:6], "quit"], save=record, tags={"White": "Ann"})
    assert code == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("a1xd2\nundo\nundo\nquit\n"))
    args = parser().parse_args(["play", "--load", str(record)])
    assert args.run(args) == 0
    out = capsys.readouterr().out
    assert "1. a7 f4 2. b4 d2 3. a4 c4 (*, 6 turns)" in out
    assert "Turn 4: white to place a piece." in out  # play goes on from the record's end
    assert "Took back a1xd2." in out
    assert "Took back c4." in out  # undo steps back into the record


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('[Result "*"]\n\n1. d6 d6 *', "d6"),  # an illegal turn: named with its number
        ('[Variant "nonesuch"]\n\n*', "nonesuch"),
        ("\xff\xfe not text", "utf-8"),
    ],
)
def test_a_bad_record_is_refused_with_exit_2_naming_the_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, error: str
) -> None:
    record = tmp_path / "bad.txt"
    record.write_bytes(text.encode("latin-1"))
    args = parser().parse_args(["play", "--load", str(record)])
    assert args.run(args) == 2
    err = capsys.readouterr().err
    assert str(record) in err and error in err
    assert "Traceback" not in err


def test_a_missing_record_is_refused_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = parser().parse_args(["play", "--load", str(tmp_path / "none.txt")])
    assert args.run(args) == 2
    assert "cannot read" in capsys.readouterr().err
