"""Distances to the next removal of the moving-phase sectors under the no-removal rule: built
with the solution, within the sector files' values, consistent position by position, agreeing
with a brute-force search, refused when damaged or made for another build; and what they change
for play, for the values shown and for perfection under the rule (with a limit of 20 turns,
where some wins of 4 men's morris cannot be won)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from morris.core import Board
from morris.engine.errors import SolutionError
from morris.engine.result import Value, result_of
from morris.engine.solution import SectorKey, Solution, sector_keys
from morris.engine.solution.analyse import position_text
from morris.engine.solution.play import known_value, perfect_turn, rule_value
from morris.engine.solution.removals import open_removals, removal_filename
from morris.engine.solution.storage import DRAW, open_sector
from morris.engine.solution.symmetry import index_of_key
from morris.solver.solution import build_solution, verify_solution
from morris.solver.solution.removals import finished_removals, write_removals
from morris.solver.solution.write import wdl_of
from tests.solution.brute import board_of, removal_decided

pytestmark = [pytest.mark.realtime, pytest.mark.slow]

#: The no-removal limit of the tests where the rule draws some wins.
LIMIT = 20
MOVING4 = [SectorKey(m, o, 0, 0) for m, o in ((3, 3), (3, 4), (4, 3), (4, 4))]


def test_every_moving_sector_has_removal_distances_with_its_values(solved4: Path) -> None:
    solution = Solution.load(solved4, 4)
    assert solution.removals_complete and solution.removal_limit == 100
    # No removal of 4 men's morris is 100 turns away: the rule draws none of its wins.
    assert solution.longest_removal == 26 and solution.rule_drawn == 0
    for key in MOVING4:
        data = solution.removal_data(key)
        assert data is not None
        removal = np.asarray(data.dist).astype(np.int64)
        end = np.asarray(solution.data(key).dist).astype(np.int64)
        assert np.array_equal(wdl_of(removal), solution.data(key).wdl)
        decided = end > 0
        # A removal comes no later than the end: the fastest win ends by one.
        assert np.all(removal[decided] <= end[decided])
        if key == SectorKey(3, 3, 0, 0):
            assert np.array_equal(removal, end)  # every removal there leaves two: the end
        elif key != SectorKey(4, 4, 0, 0):
            assert np.any(removal[decided] < end[decided])


def test_every_removal_distance_of_four_men_is_consistent_with_its_successors(
    solved4: Path, limited4: Path
) -> None:
    for directory in (solved4, limited4):
        reports = verify_solution(Solution.load(directory, 4))
        removals = [r for r in reports if r.name.endswith("to removals")]
        assert sorted(r.key for r in removals) == sorted(MOVING4)
        assert all(r.complete and r.ok for r in removals)
        placing = [r for r in reports if r.name.endswith("under the rule")]
        assert sorted(r.key for r in placing) == sorted(k for k in sector_keys(4) if k.placing)
        assert all(r.complete and r.ok for r in placing)


def test_sampled_removal_distances_agree_with_a_brute_force_search(limited4: Path) -> None:
    solution = Solution.load(limited4, 4)

    def after_removal(board: Board) -> str:
        # A removal's target under the rule from a count of 0 (its own removal distances).
        turn = board.turn
        mover, other = board.occupied_co(turn), board.occupied_co(not turn)
        found = solution.removal_result(SectorKey(mover.bit_count(), other.bit_count(), 0, 0),
                                        mover, other)  # fmt: skip
        assert found is not None
        if found.value is Value.DRAW or (found.distance or 0) > LIMIT:
            return "draw"
        return str(found.value.value)

    depth = 3
    checked = 0
    rng = np.random.default_rng(3)
    # Sliding pieces (4v4), and pieces that slide against three that fly (4v3): the searches
    # stay small three turns deep.
    for key in (SectorKey(4, 4, 0, 0), SectorKey(4, 3, 0, 0)):
        data = solution.removal_data(key)
        assert data is not None
        codes = np.asarray(data.dist)
        pools = [np.flatnonzero(codes == c) for c in range(7)]
        picked = np.concatenate([rng.choice(p, size=min(4, p.size), replace=False) for p in pools])
        movers, others = index_of_key(key).decode(picked.astype(np.int64))
        for entry, mover, other in zip(picked, movers, others, strict=True):
            stored = result_of(int(codes[entry]))
            brute = removal_decided(board_of(4, int(mover), int(other), (0, 0), True), depth,
                                    after_removal)  # fmt: skip
            if stored.value is not Value.DRAW and (stored.distance or 0) <= depth:
                assert brute == (stored.value.value, stored.distance), (key, int(entry), stored)
            else:
                assert brute is None, (key.name, int(entry), stored)
            checked += 1
    assert checked >= 30


def test_a_damaged_removal_file_is_refused_then_rebuilt(solved3: Path, tmp_path: Path) -> None:
    for path in solved3.glob("*.msol"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    victim = tmp_path / removal_filename(SectorKey(3, 3, 0, 0))
    good = victim.read_bytes()
    victim.write_bytes(good[:-1] + bytes([good[-1] ^ 1]))
    with pytest.raises(SolutionError, match="checksum mismatch"):
        Solution.load(tmp_path, 3)
    result = build_solution(tmp_path, 3, workers=1, memory=4 << 30)
    assert result.solved == [] and len(result.removals) == len(sector_keys(3))
    assert victim.read_bytes() == good


def test_removal_distances_made_for_another_build_or_limit_are_not_used(
    solved3: Path, tmp_path: Path
) -> None:
    key = SectorKey(3, 3, 0, 0)
    sha = open_sector(solved3, key).info.sha256
    codes = open_removals(solved3, key, sha)
    assert codes is not None
    write_removals(tmp_path, key, codes.dist, "0" * 64)
    with pytest.raises(SolutionError, match="another build of sector 3v3"):
        open_removals(tmp_path, key, sha)
    assert finished_removals(tmp_path, key, sha) is None
    assert not (tmp_path / removal_filename(key)).exists()  # removed, to be built again
    write_removals(tmp_path, key, codes.dist, sha, 100)
    assert finished_removals(tmp_path, key, sha, 100) is not None
    assert finished_removals(tmp_path, key, sha, 50) is None  # made for another limit


def _entry_with(solution: Solution, key: SectorKey, removal: int, longer_by: int) -> str:
    """A won position of ``key`` whose removal comes ``removal`` turns away and whose end at
    least ``longer_by`` turns later."""
    end = np.asarray(solution.data(key).dist).astype(np.int64)
    data = solution.removal_data(key)
    assert data is not None
    near = np.asarray(data.dist).astype(np.int64)
    entries = np.flatnonzero((near == removal + 1) & (end >= removal + 1 + longer_by))
    assert entries.size, (key.name, removal, longer_by)
    mover, other = index_of_key(key).decode(entries[:1].astype(np.int64))
    return position_text(key, int(mover[0]), int(other[0]))


def _at_count(position: str, count: int) -> Board:
    fields = position.split()
    return Board(" ".join([*fields[:4], str(count), *fields[5:]]))


def test_a_win_that_would_outrun_the_limit_hurries_to_its_removal(solved4: Path) -> None:
    solution = Solution.load(solved4, 4)
    position = _entry_with(solution, SectorKey(3, 4, 0, 0), 3, 20)
    board = _at_count(position, 97)  # 3 turns before the limit
    rule = rule_value(solution, board)
    assert rule is not None and (rule.value, rule.distance) == (Value.WIN, 3)
    shown = known_value(solution, board)
    # A win, in more turns than the fastest: it must hurry to the removal.
    assert shown is not None and (shown.value, shown.distance) == (Value.WIN, None)
    found = perfect_turn(solution, board, random.Random(0))
    assert found is not None and found[1].value is Value.WIN
    board.push(found[0])
    after = rule_value(solution, board)
    assert found[0].remove is not None or (after is not None and after.distance == 2)
    # A turn later and the removal comes too late: the rule draws it, and the page says so.
    late = known_value(solution, _at_count(position, 98))
    assert late is not None and late.value is Value.DRAW
    # Without the removal distances the value cannot be told.
    bare = Solution(solved4, {k: solution.data(k) for k in solution.keys})
    assert not bare.removals_complete and bare.rule_drawn is None
    assert known_value(bare, _at_count(position, 90)) is None
    assert known_value(solution, _at_count(position, 90)) is not None


@pytest.fixture(scope="module")
def limited4(solved4: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 4 men's sectors with removal distances for a no-removal limit of :data:`LIMIT`."""
    directory = tmp_path_factory.mktemp("limited4")
    for path in solved4.glob("sector-*.msol"):
        (directory / path.name).symlink_to(path)
    result = build_solution(directory, 4, workers=1, memory=4 << 30, removal_limit=LIMIT)
    assert result.solved == [] and len(result.removals) == len(sector_keys(4))
    return directory


def test_under_a_short_limit_some_wins_are_draws_and_the_rest_are_won(limited4: Path) -> None:
    from morris.engine.solution.analyse import board_class
    from morris.solver.solution.perfection import play_out, sample_positions

    solution = Solution.load(limited4, 4)
    assert solution.removal_limit == LIMIT and (solution.rule_drawn or 0) > 0
    board = board_class(4)
    outcomes: dict[str, list[str]] = {"won": [], "drawn": [], "rule drawn": []}
    for sample in sample_positions(solution, 6, np.random.default_rng(5)):
        if sample.key.placing:
            continue
        result = play_out(solution, 4, sample.position, 7, sample.entry, no_removal_limit=LIMIT)
        kind = (
            "rule drawn" if sample.rule_drawn else "won" if sample.value is Value.WIN else "drawn"
        )
        outcomes[kind].append(result)
        # What the page shows is the value under the rule.
        shown = known_value(solution, board(sample.position, no_removal_limit=LIMIT))
        assert shown is not None and shown.value is sample.value
    assert outcomes["won"] and set(outcomes["won"]) == {"engine"}
    assert outcomes["rule drawn"] and "defender" not in outcomes["rule drawn"]
    assert outcomes["drawn"] and "defender" not in outcomes["drawn"]


def test_late_in_placing_the_rule_value_is_searched_and_played(limited4: Path) -> None:
    from morris.engine.solution.analyse import board_class
    from morris.engine.solution.play import placing_rule_value
    from morris.solver.solution.perfection import play_out, sample_positions

    solution = Solution.load(limited4, 4)
    found: dict[Value | None, int] = {}
    for sample in sample_positions(solution, 12, np.random.default_rng(9)):
        if not sample.key.placing or sample.key.mover_hand + sample.key.other_hand > 2:
            continue
        board = board_class(4)(sample.position, no_removal_limit=LIMIT)
        rule = placing_rule_value(solution, board)
        found[rule] = found.get(rule, 0) + 1
        result = play_out(solution, 4, sample.position, 7, sample.entry, no_removal_limit=LIMIT)
        if rule is Value.WIN:
            assert result == "engine", sample.position
        else:
            assert rule is Value.DRAW and result != "defender", sample.position
            shown = known_value(solution, board)
            assert shown is not None and shown.value is Value.DRAW
        if sample.rule_drawn:  # a win of the solution the rule draws
            assert rule is Value.DRAW
            found[None] = found.get(None, 0) + 1
    assert found.get(Value.WIN) and found.get(Value.DRAW) and found.get(None)


def test_every_placing_sector_has_its_values_under_the_rule(solved4: Path, limited4: Path) -> None:
    # Under 100 turns the rule draws nothing of 4 men's morris: the values are the solution's.
    # Under 20 it draws wins and losses of the solution, never the other way round.
    full, limited = Solution.load(solved4, 4), Solution.load(limited4, 4)
    assert full.placing_rules_complete and limited.placing_rules_complete
    drawn = 0
    for key in (k for k in sector_keys(4) if k.placing):
        values = full.data(key).wdl
        for solution, limit in ((full, 100), (limited, LIMIT)):
            data = solution.removal_data(key)
            assert data is not None and data.info.limit == limit
            rule = wdl_of(np.asarray(data.dist).astype(np.int64))
            if limit == 100:
                assert np.array_equal(rule, values) and data.info.rule_drawn == 0
            else:
                changed = rule != values
                assert np.all(rule[changed] == wdl_of(np.zeros(1, np.int64))[0])  # to a draw
                assert int(np.count_nonzero(changed)) == data.info.rule_drawn
                drawn += data.info.rule_drawn
    assert drawn > 0


def test_the_placing_values_under_the_rule_are_those_a_search_to_the_moving_phase_finds(
    limited4: Path,
) -> None:
    # The search (play.placing_rule_value) goes placement by placement to the moving phase and
    # reads the removal distances there: another way to the same values, where it fits.
    from morris.engine.solution.analyse import board_class
    from morris.engine.solution.play import placing_rule, placing_rule_value
    from morris.solver.solution.perfection import sample_positions

    solution = Solution.load(limited4, 4)
    seen: dict[tuple[Value, Value], int] = {}
    for sample in sample_positions(solution, 10, np.random.default_rng(3)):
        if not sample.key.placing or sample.key.mover_hand + sample.key.other_hand > 3:
            continue
        board = board_class(4)(sample.position, no_removal_limit=LIMIT)
        searched = placing_rule_value(solution, board, max_nodes=200_000)
        stored = placing_rule(solution, board)
        assert searched is not None and stored is searched, sample.position
        solved = solution.probe_key(sample.key, *_sides(sample.position))
        assert solved is not None
        seen[(solved.value, stored)] = seen.get((solved.value, stored), 0) + 1
    # Wins kept, wins the rule draws, and draws.
    assert seen.get((Value.WIN, Value.WIN)) and seen.get((Value.WIN, Value.DRAW))
    assert seen.get((Value.DRAW, Value.DRAW))


def _sides(position: str) -> tuple[int, int]:
    """The bitboards (side to move, other side) of a position."""
    board = Board(position)
    return board.occupied_co(board.turn), board.occupied_co(not board.turn)


def test_early_in_placing_the_engine_plays_for_wins_within_the_rule(limited4: Path) -> None:
    # With more in hand than a search can reach: a placing win of the solution that the rule
    # draws is a drawn position, which the engine holds; a placing win within the rule is won.
    from morris.engine.solution.analyse import board_class
    from morris.solver.solution.perfection import play_out, sample_positions

    solution = Solution.load(limited4, 4)
    outcomes: dict[str, list[str]] = {"won": [], "rule drawn": []}
    for sample in sample_positions(solution, 8, np.random.default_rng(11)):
        if not sample.key.placing or (sample.value is not Value.WIN and not sample.rule_drawn):
            continue
        if sample.key.mover_hand + sample.key.other_hand <= 3:
            continue
        result = play_out(solution, 4, sample.position, 7, sample.entry, no_removal_limit=LIMIT)
        outcomes["rule drawn" if sample.rule_drawn else "won"].append(result)
        board = board_class(4)(sample.position, no_removal_limit=LIMIT)
        shown = known_value(solution, board)
        assert shown is not None and shown.value is sample.value
    assert outcomes["won"] and set(outcomes["won"]) == {"engine"}
    assert outcomes["rule drawn"] and "defender" not in outcomes["rule drawn"]


def test_the_placing_values_under_the_rule_skip_the_draws_and_are_the_same(
    limited4: Path,
) -> None:
    # The build spares the Bellman step the placing positions the sector file says are drawn
    # (the rule never decides a drawn position): the codes are those of the step over all.
    from morris.engine.solution.sectors import Unit
    from morris.solver.solution.removals import removal_leaves, solve_removals

    skipped = 0
    for key in (k for k in sector_keys(4) if k.placing):
        unit = Unit((key,))
        leaves = removal_leaves(limited4, unit, LIMIT)
        own = open_sector(limited4, key)
        every = solve_removals(unit, leaves)[key]
        spared = solve_removals(unit, leaves, values=own)[key]
        assert np.array_equal(spared, every), key.name
        skipped += int(np.count_nonzero(own.wdl == DRAW))
    assert skipped > 0
    with pytest.raises(SolutionError, match="the values given are"):
        other = next(k for k in sector_keys(4) if k.placing and k != key)
        solve_removals(unit, leaves, values=open_sector(limited4, other))
