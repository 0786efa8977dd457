"""The solved game where a person sees it (a real 3 men's solution, built once per run): the
hint keeps the value in every mode, the snapshot carries the position's value, the
``engine.solution`` key, and the review's values before and after each turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from morris.app.config import parse_config
from morris.app.errors import ConfigError
from morris.app.review import review_record
from morris.app.values import describe_value, plain_value
from morris.core import Board, GameRecord, Move
from morris.engine.solution import Solution
from morris.engine.solution.analyse import turn_values
from tests.app.scenario_kit import moves, play, position, resumed, scripted, shown

pytestmark = [pytest.mark.realtime, pytest.mark.slow]  # the solution's build (Dask) is real

#: White to move wins in 5 plies, 3 of its turns (3 against 3, flying): a4-d7, d5-a7 or
#: d5-a1; a4-d6 only draws.
WON = position(white="g4 a4 d5", black="f4 e4 c3", fullmove=1)
FASTEST = {"a4-d7", "d5-a7", "d5-a1"}


@pytest.fixture(scope="module")
def solution(solved3: Path) -> Solution:
    """The solved 3 men's morris."""
    return Solution.load(solved3, 3)


def drawing_hint(job: object) -> Move:
    """A search whose hint throws the win away (what the solution must overrule)."""
    return Move.parse("a4-d6")


def hinted(sim: object) -> str:
    lights = shown(sim)  # type: ignore[arg-type]
    (origin,) = [p for p, s in lights.items() if s == "slow"]
    (target,) = [p for p, s in lights.items() if s == "on"]
    return f"{origin}-{target}"


def test_the_solution_and_the_fastest_wins_agree_on_the_position(solution: Solution) -> None:
    best = [str(m) for m, r in turn_values(solution, Board(WON)) if r and r.distance == 5]
    assert set(best) == FASTEST


@pytest.mark.parametrize("mode", ["referee", "vs-ai"])
def test_the_hint_is_a_fastest_win_where_the_solution_covers_the_position(
    tmp_path: Path, solution: Solution, mode: str
) -> None:
    search = scripted([], fallback=drawing_hint)
    with resumed(tmp_path, Board(WON), mode=mode, level=1, search=search, solution=solution) as sim:
        sim.press("hint")
        sim.wait(1.5)
        assert hinted(sim) in FASTEST
        assert not [j for j in search.searched if j.kind == "hint"]  # type: ignore[attr-defined]


def test_without_the_solution_the_hint_is_the_search(tmp_path: Path) -> None:
    with resumed(tmp_path, Board(WON), search=scripted([], fallback=drawing_hint)) as sim:
        sim.press("hint")
        sim.wait(1.5)
        assert hinted(sim) == "a4-d6"


def test_outside_the_solution_the_hint_is_the_search(tmp_path: Path, solution: Solution) -> None:
    # Five against four: no sector of 3 men's morris holds it.
    board = Board(position(white="g4 a4 d5 a1 g1", black="f4 e4 c3 d1", fullmove=1))
    search = scripted([], fallback=lambda job: Move.parse("a4-a7"))
    with resumed(tmp_path, board, search=search, solution=solution) as sim:
        assert sim.controller.snapshot(sim.now).solution is None
        sim.press("hint")
        sim.wait(1.5)
        assert hinted(sim) == "a4-a7"


def test_the_snapshot_carries_the_value_and_follows_the_game(
    tmp_path: Path, solution: Solution
) -> None:
    with resumed(tmp_path, Board(WON), solution=solution) as sim:
        value = plain_value(sim.controller.snapshot(sim.now).solution)  # its words as text
        assert value == {
            "value": "win", "distance": 5, "plies": 5, "wins_in": 3, "for": "white",
            "text": "white wins in 3",
        }  # fmt: skip
        play(sim, "a4-d6")
        assert moves(sim) == ["a4-d6"]
        after = plain_value(sim.controller.snapshot(sim.now).solution)
        assert after is not None and after["for"] == "black" and after["text"] == "draw"


def test_a_variant_the_solution_does_not_play_has_no_value(
    tmp_path: Path, solution: Solution
) -> None:
    from morris.core import find_variant

    lasker = find_variant("lasker")(WON)  # the same board, but it may move while placing
    with resumed(tmp_path, lasker, solution=solution) as sim:
        assert sim.board.variant_name == "lasker"
        assert sim.controller.snapshot(sim.now).solution is None


def test_the_engine_solution_key_names_the_directory(tmp_path: Path) -> None:
    config = parse_config(f'[engine]\nsolution = "{tmp_path}"\n')
    assert config.solution_dir() == tmp_path
    assert parse_config("").solution_dir({"MORRIS_DATA_DIR": str(tmp_path)}) == (
        tmp_path / "solution"
    )


@pytest.mark.parametrize(
    ("text", "says"),
    [("solution = 3", "expected text"), ("solution = 'FILE'", "must be a directory")],
)
def test_a_bad_solution_key_is_refused_naming_it(tmp_path: Path, text: str, says: str) -> None:
    afile = tmp_path / "file"
    afile.write_text("x")
    with pytest.raises(ConfigError, match=f"engine.solution.*{says}"):
        parse_config(f"[engine]\n{text.replace('FILE', str(afile))}\n", source="c.toml")


def test_the_review_gives_the_solutions_values_and_marks_the_win_thrown_away(
    solution: Solution,
) -> None:
    board = Board(WON)
    for text in ("a4-d6", "f4-a4"):
        board.push(Move.parse(text))
    record = GameRecord.from_board(board)
    review = review_record(record, solution=solution, search=False)
    first = review.turns[0]
    assert describe_value(first.solution_before) == "white wins in 3"
    assert describe_value(first.solution_after) == "draw"
    assert first.threw == "solution" and first.mistake
    assert review.first_mistake is first and review.solution
    data = review.to_json()
    assert data["solution"] is True
    assert data["turns"][0]["solution_before"]["text"] == "white wins in 3"
    assert data["turns"][0]["threw"] == "solution"
    assert review_record(record, search=False).to_json()["turns"][0]["solution_before"] is None


def test_morris_review_prints_the_solved_values(
    solved3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from morris.app.store import GameStore
    from morris.cli import main

    board = Board(WON)
    for text in ("a4-d6", "f4-a4"):
        board.push(Move.parse(text))
    saved = GameStore(tmp_path).finish(board, white="Ann", black="Bob")
    args = ["review", str(saved), "--no-tables", "--depth", "2", "--solution", str(solved3)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "solved" in out.splitlines()[0]
    assert "white wins in 3" in out and "<< first (solution)" in out
    assert "First result thrown away: 1. a4-d6 (white): white wins in 3 -> draw" in out
    assert main([*args[:-2], "--no-solution"]) == 0
    assert "solved" not in capsys.readouterr().out.splitlines()[0]


def test_the_commands_take_the_solution_directory_from_the_configuration(
    solved3: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from morris.cli import main

    config = tmp_path / "c.toml"
    config.write_text(f'[engine]\nsolution = "{solved3}"\n')
    assert main(["analyse", "startpos", "--config", str(config)]) == 0
    assert "white to move: win in 12" in capsys.readouterr().out  # 23 plies
    assert main(["tables", "info", "--men", "3", "--config", str(config)]) == 0
    assert f"solved, in {solved3}" in capsys.readouterr().out.replace("\n", "")
    config.write_text("[engine]\nsolution = 3\n")
    with pytest.raises(SystemExit) as exited:
        main(["analyse", "startpos", "--config", str(config)])
    assert exited.value.code == 2
    assert "engine.solution: expected text, got 3" in capsys.readouterr().err
