"""Game records: writing, reading, and the errors that name the line and the move."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from morris.core import (
    Board,
    GameRecord,
    GameRecordError,
    Move,
    TwelveMensMorris,
    read_game,
    read_games,
    write_game,
)
from tests.core.games import make_board, play_random_game, position_after, strong_games

#: Tag values as people type or paste them: quotes, backslashes, brackets, accents, line breaks.
tag_values = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 400),
    white=tag_values,
    black=tag_values,
    event=tag_values,
    flying=st.booleans(),
    twelve=st.booleans(),
)
def test_write_then_read_gives_the_same_record(
    seed: int, plies: int, white: str, black: str, event: str, flying: bool, twelve: bool
) -> None:
    board: Board = TwelveMensMorris(flying=flying) if twelve else Board(flying=flying)
    play_random_game(board, random.Random(seed))
    while len(board.move_stack) > plies:
        board.pop()
    record = GameRecord.from_board(board, White=white, Black=black, Event=event)
    text = write_game(record)
    again = read_game(text)
    assert again == record
    assert again.tags["White"] == white
    assert again.board() == board
    assert again.board().outcome() == board.outcome()
    assert write_game(again) == text


def test_a_tag_with_line_breaks_stays_on_its_line() -> None:
    record = GameRecord.from_board(Board(), Event='Club night\nround "2"\\3\u2028end')
    text = write_game(record)
    assert '[Event "Club night\\nround \\"2\\"\\\\3\\u2028end"]' in text.splitlines()
    assert read_game(text).tags["Event"] == 'Club night\nround "2"\\3\u2028end'


def test_a_move_number_is_never_wrapped_away_from_its_move() -> None:
    game = strong_games()[0]
    board = position_after(game, len(game.turns))
    for width in range(8, 40):
        lines = write_game(GameRecord.from_board(board), width=width).splitlines()
        moves = lines[lines.index("") + 1 :]
        assert all(not line.rstrip().endswith(".") for line in moves), width


def test_a_finished_game_records_its_result_and_termination() -> None:
    game = strong_games()[0]
    board = position_after(game, len(game.turns))
    record = GameRecord.from_board(board, White="Ann")
    assert record.result == "1-0"
    assert record.tags["Termination"] == "blocked"
    text = write_game(record)
    assert text.startswith('[White "Ann"]\n[Result "1-0"]\n[Variant "standard"]\n')
    assert text.rstrip().endswith("f4-f6 21. e4-f4 1-0")
    assert "\n\n1. b2 a1 2. d2 d6 3. f2xd6 f4" in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_records_keep_the_settings_and_the_start_position() -> None:
    board = make_board("a1 d1 g4 b6", "b2 d6 f4 c5", turn="b", flying=False, no_removal_limit=None)
    start_position = board.position()
    board.push_notation("c5-d5")
    record = read_game(write_game(GameRecord.from_board(board)))
    assert record.tags["Flying"] == "false"
    assert record.tags["NoRemovalLimit"] == "off"
    assert record.tags["Position"] == start_position
    start = record.start_board()
    assert start.turn is False and start.flying is False and start.no_removal_limit is None
    assert "\n20... c5-d5 *" in write_game(record)
    assert record.board() == board


def test_reading_accepts_a_removal_written_as_its_own_token() -> None:
    record = read_game("1. a1 b2 2. d1 d2 3. g1 xb2 *")
    assert [str(m) for m in record.moves] == ["a1", "b2", "d1", "d2", "g1xb2"]
    record = read_game("1. a1 b2 2. d1 d2 3. g1\nxb2 d6 *")
    assert [str(m) for m in record.moves][-2:] == ["g1xb2", "d6"]


def test_reading_accepts_comments_move_numbers_and_results() -> None:
    text = '[Event "x"]\n\n1.a1 {a comment b2} b2 ; to the end of the line d6\n2... d1 1/2-1/2\n'
    record = read_game(text)
    assert [str(m) for m in record.moves] == ["a1", "b2", "d1"]
    assert record.result == "1/2-1/2"


def test_reading_several_games() -> None:
    text = '[Result "*"]\n\n1. a1 b2 *\n\n[Result "*"]\n\n1. d6 *\n'
    games = read_games(text)
    assert [[str(m) for m in g.moves] for g in games] == [["a1", "b2"], ["d6"]]
    with pytest.raises(GameRecordError, match="expected one game, found 2"):
        read_game(text)
    with pytest.raises(GameRecordError, match="expected one game, found 0"):
        read_game("")


def test_a_record_without_result_is_unfinished() -> None:
    record = read_game("1. a1 b2")
    assert record.result == "*"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1. a1 b2\n2. d1 d2\n3. g1 d6 *", "line 3: move 5 ('g1') is illegal: g1 closes a mill"),
        ("1. a1 b2\n2. a1 d2 *", "line 2: move 3 ('a1') is illegal: a1 is occupied"),
        ("1. a1 b2\n\n2. d1 zz *", "line 3: move 4: invalid move 'zz'"),
        ("1. a1 xb2 *", "line 1: removal 'xb2' follows no move that closed a mill"),
        ("1. a1 b2 2. d1 d2 3. g1 xzz *", "line 1: move 5: invalid move 'g1xzz'"),
        ("1. a1 b2 2. d1 d2 3. g1 xd6 *", "line 1: move 5 ('g1 xd6') is illegal: d6 holds no"),
        ("1. a1 b2 1-0 d6", "line 1: 'd6' after the result '1-0'"),
        ('[Result "1-0"]\n\n1. a1 0-1', "the Result tag '1-0' and the result '0-1'"),
        ("[Result 1-0]\n\n1. a1 *", "line 1: malformed tag line '[Result 1-0]'"),
        ('[Variant "chess"]\n\n1. a1 *', "tag Variant: unknown variant 'chess'"),
        ('[Flying "maybe"]\n\n1. a1 *', "tag Flying: 'maybe' is not true or false"),
        ('[NoRemovalLimit "lots"]\n\n1. a1 *', "tag NoRemovalLimit: 'lots' is not a number"),
        ('[Position "nonsense"]\n\n1. a1 *', "tag Position: a position has 7 fields"),
    ],
)
def test_reading_errors_name_the_line_and_the_move(text: str, message: str) -> None:
    with pytest.raises(GameRecordError) as info:
        read_game(text)
    assert message in str(info.value)


def test_record_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        read_game("1. zz *")


def test_tags_control_the_settings() -> None:
    record = read_game('[Flying "no"]\n[ThreefoldRepetition "off"]\n[NoRemovalLimit "40"]\n\n*')
    assert record.settings() == {
        "flying": False,
        "threefold_repetition": False,
        "no_removal_limit": 40,
    }
    start = record.start_board().settings()
    assert {name: start[name] for name in record.settings()} == record.settings()


def test_the_board_of_a_record_is_the_game_at_its_end() -> None:
    record = read_game("1. a1 b2 2. d1 d2 3. g1xb2 *")
    board = record.board()
    assert board.move_stack == [Move.parse(t) for t in ("a1", "b2", "d1", "d2", "g1xb2")]
    assert board.piece_at("b2") is None
