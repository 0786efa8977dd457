"""The review of a game record: scores, table verdicts and the first turn that threw a result
away (``morris.app.review``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from morris.app.errors import ReviewError
from morris.app.review import THRESHOLD, Review, format_score, review_record, review_text
from morris.commands.review import format_review
from morris.core import Board, GameRecord, Move, point_name
from morris.engine.result import Value
from morris.engine.tables import EndgameTables
from morris.solver.tables import build_tables
from tests.core.games import StrongGame, strong_games
from tests.engine.helpers import sampled_position

RANK = {"loss": 0, "draw": 1, "win": 2}


@pytest.fixture(scope="module")
def tables_3v3(tmp_path_factory: pytest.TempPathFactory) -> EndgameTables:
    """Real endgame tables of 3 against 3 pieces, flying on (a few seconds to build)."""
    directory = tmp_path_factory.mktemp("tables")
    build_tables(directory, max_pieces=6, flying=(True,))
    return EndgameTables.load(directory)


def record_of(game: StrongGame, **tags: str) -> GameRecord:
    board = Board()
    for text in game.turns:
        board.push_notation(text)
    return GameRecord.from_board(board, **tags)


def without_time(review: Review) -> dict[str, object]:
    data = review.to_json()
    del data["elapsed"]
    return data


# Strong game 3 of tests/data/strong-games.txt: black wins on turn 20, white having let a mill
# through on turn 15 (the engine sees the loss from there).
BLUNDERED = strong_games()[2]
# Strong game 7: white lets a drawn 3 v 3 ending become a loss in 15 turns on turn 127.
DRAW_THROWN = strong_games()[6]


def test_every_turn_is_listed_with_the_positions_before_and_after() -> None:
    record = record_of(BLUNDERED)
    review = review_record(record)
    assert [t.move for t in review.turns] == list(BLUNDERED.turns)
    board = Board()
    for turn in review.turns:
        assert turn.before == board.position()
        assert turn.mover == ("white" if board.turn else "black")
        board.push_notation(turn.move)
        assert turn.after == board.position()
    assert review.end == board.position()
    assert [t.label for t in review.turns[:3]] == ["1.", "1...", "2."]
    # The last turn won the game: the result is known exactly, from the end of the game.
    last = review.turns[-1]
    assert last.mover == "black"
    assert last.wdl_after is not None
    assert (last.wdl_after.value, last.wdl_after.distance) == (Value.WIN, 0)
    assert last.ends_game and not review.turns[-2].ends_game
    assert review.to_json()["turns"][-1]["wdl_after"] == {
        "value": "win",
        "distance": 0,
        "plies": 0,
        "wins_in": 0,
        "source": "end",
    }
    assert all(t.score_before is not None and t.score_after is not None for t in review.turns)


def test_a_review_gives_the_same_answer_every_time() -> None:
    record = record_of(BLUNDERED)
    assert without_time(review_record(record)) == without_time(review_record(record))


def test_the_engine_marks_the_turn_that_let_a_mill_through() -> None:
    review = review_record(record_of(BLUNDERED))
    first = review.first_mistake
    assert first is not None
    assert (first.ply, first.label, first.move, first.mover) == (15, "8.", "g4xd1", "white")
    assert first.threw == "engine"
    assert first.score_before is not None and first.score_after is not None
    assert first.score_before - first.score_after >= THRESHOLD
    assert format_score(first.score_after).startswith("loss ")
    assert [t.ply for t in review.turns if t.mistake] == [15]
    assert review.to_json()["first_mistake"] == 15


def test_without_tables_no_turn_has_a_verdict_before_the_end() -> None:
    review = review_record(record_of(DRAW_THROWN), depth=1)
    assert all(t.wdl_before is None for t in review.turns)
    assert not review.tables


@pytest.mark.slow
def test_the_tables_mark_a_draw_thrown_away(tables_3v3: EndgameTables) -> None:
    review = review_record(record_of(DRAW_THROWN), tables=tables_3v3)
    assert review.tables
    first = review.first_mistake
    assert first is not None
    assert (first.ply, first.label, first.move) == (127, "64.", "e5-c4")
    assert first.threw == "tables"
    # A loss in 15 plies: black, the winner, needs 8 of its turns.
    shown = review.to_json()["turns"][first.ply - 1]
    assert shown["wdl_before"] == {
        "value": "draw",
        "distance": 0,
        "plies": 0,
        "wins_in": 0,
        "source": "tables",
    }
    assert (shown["wdl_after"]["plies"], shown["wdl_after"]["wins_in"]) == (15, 8)
    assert "    draw   loss 8  << first (tables)" in format_review(review)
    # From there on black, winning, takes the shortest way: one turn nearer the end every turn.
    black = [t for t in review.turns[first.ply :] if t.mover == "black"]
    assert black
    for turn in black:
        assert turn.wdl_before is not None and turn.wdl_after is not None
        assert turn.wdl_before.value is turn.wdl_after.value is Value.WIN
        assert turn.wdl_before.distance is not None
        assert turn.wdl_after.distance == turn.wdl_before.distance - 1


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1))
@pytest.mark.slow
def test_the_mark_agrees_with_the_tables_for_any_turn(tables_3v3: EndgameTables, seed: int) -> None:
    rng = random.Random(seed)
    board = sampled_position(rng, 3, 3, turn=rng.choice("wb"))
    if board.outcome() is not None:
        return
    scored = tables_3v3.turn_results(
        board.occupied_co(True), board.occupied_co(False), board.turn, board.flying
    )
    assert scored is not None
    (origin, target, removed), result = rng.choice(scored)
    move = Move.parse(
        f"{point_name(origin)}-{point_name(target)}"
        + ("" if removed is None else f"x{point_name(removed)}")
    )
    before = tables_3v3.probe(
        board.occupied_co(True), board.occupied_co(False), board.turn, board.flying
    )
    assert before is not None
    board.push(move)
    review = review_record(GameRecord.from_board(board), tables=tables_3v3, depth=2)
    (turn,) = review.turns
    assert turn.wdl_before is not None and turn.wdl_after is not None
    assert turn.wdl_before == before
    assert turn.wdl_after.value is result.value
    thrown = RANK[result.value.value] < RANK[before.value.value]
    assert (turn.threw == "tables") is thrown
    assert turn.mistake is thrown
    if result.value is Value.WIN and before.value is Value.WIN:
        assert turn.wdl_after.distance >= before.distance - 1


def test_a_game_from_a_set_up_position_with_black_to_move() -> None:
    board = Board("WWW...../BB....../B....... b 0 0 0 30 -")
    board.push(next(iter(board.legal_moves)))
    review = review_record(GameRecord.from_board(board))
    assert [t.label for t in review.turns] == ["30..."]
    assert review.start == "WWW...../BB....../B....... b 0 0 0 30 -"


def test_a_record_that_is_not_a_game_is_refused_naming_the_problem() -> None:
    with pytest.raises(ReviewError, match=r"line 1: move 2 \('d6'\) is illegal"):
        review_text("1. d6 d6 *\n")
    with pytest.raises(ReviewError, match="Variant"):
        review_text('[Variant "chess"]\n\n1. d6 *\n')


def test_a_review_can_be_stopped() -> None:
    with pytest.raises(ReviewError, match="stopped"):
        review_record(record_of(BLUNDERED), stop=lambda: True)


def test_progress_counts_every_position() -> None:
    seen: list[tuple[int, int]] = []
    review_record(record_of(BLUNDERED), progress=lambda done, total: seen.append((done, total)))
    total = len(BLUNDERED.turns) + 1
    assert seen == [(n, total) for n in range(1, total + 1)]


def test_a_game_the_store_saved_can_be_reviewed(tmp_path: Path) -> None:
    from morris.app.store import GameStore

    board = record_of(BLUNDERED).board()
    path = GameStore(tmp_path).finish(board, white="Ann", black="morris level 5")
    review = review_text(path.read_text(encoding="utf-8"))
    assert review.tags["White"] == "Ann"
    assert review.first_mistake is not None and review.first_mistake.ply == 15
