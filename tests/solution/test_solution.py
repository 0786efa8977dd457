"""The solved 3 and 4 men's morris: consistency of every position, the endgame tables
reproduced, agreement with a brute-force search on sampled positions, the start values."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from morris.engine.result import Value, result_of
from morris.engine.solution import SectorKey, Solution, start_sector
from morris.engine.solution.symmetry import index_of_key
from morris.engine.tables import EndgameTables, TableKey
from morris.engine.tables.index import stored_decode
from morris.solver.solution import verify_solution
from morris.solver.tables import build_tables
from tests.solution.brute import board_of, decided

pytestmark = [pytest.mark.realtime, pytest.mark.slow]


def test_the_start_of_three_men_is_a_win_and_of_four_men_a_draw(
    solved3: Path, solved4: Path
) -> None:
    three = Solution.load(solved3, 3)
    four = Solution.load(solved4, 4)
    start3 = three.probe_key(start_sector(3), 0, 0)
    start4 = four.probe_key(start_sector(4), 0, 0)
    assert start3 is not None and (start3.value, start3.distance) == (Value.WIN, 23)
    assert start4 is not None and start4.value is Value.DRAW


def test_every_position_of_four_men_is_consistent_with_its_successors(solved4: Path) -> None:
    solution = Solution.load(solved4, 4)
    reports = verify_solution(solution)
    assert len(reports) == 31 + 31  # the sectors, then their removal files
    assert all(r.complete for r in reports)
    assert [r for r in reports if not r.ok] == []


def test_the_check_keeps_nothing_decoded(solved4: Path) -> None:
    """9 men's codes are tens of gigabytes: what the check decodes (a sector and its successors
    at a time) is gone when it returns."""
    verify_solution(Solution.load(solved4, 4))  # the index tables every check shares, made once
    solution = Solution.load(solved4, 4)
    # Every sector's values and distances and its removal codes, a byte an entry at least.
    decoded = 3 * sum(index_of_key(key).size for key in solution.keys)
    tracemalloc.start()
    try:
        reports = verify_solution(solution)
        kept = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert all(r.ok for r in reports)
    assert kept < decoded // 4, f"{kept} bytes kept, {decoded} decoded in all"


def test_the_endgame_tables_come_out_the_same(solved4: Path, tmp_path: Path) -> None:
    build_tables(tmp_path, max_pieces=7, flying=(True,))
    tables = EndgameTables.load(tmp_path)
    solution = Solution.load(solved4, 4)
    for table in (TableKey(3, 3, True), TableKey(4, 3, True), TableKey(3, 4, True)):
        key = SectorKey(table.mover, table.other, 0, 0)
        index = index_of_key(key)
        codes = np.asarray(solution.data(key).dist)
        for start in range(0, table.size, 1 << 21):
            idx = np.arange(start, min(table.size, start + (1 << 21)), dtype=np.int64)
            mover, other = stored_decode(table, idx)
            expected = np.asarray(tables.codes(table))[idx]
            assert np.array_equal(codes[index.index(mover, other)], expected), table.name
    # 4v4 is not in the basic tables: its counts are those docs/TABLES.md gives for them.
    info = solution.info(SectorKey(4, 4, 0, 0))
    assert (info.won, info.drawn, info.lost, info.longest_win) == (2456, 51480175, 339, 9)


def _samples(solution: Solution, men: int, seed: int) -> list[tuple[SectorKey, int, int, int]]:
    """(sector, mover, other, code) of sampled entries: short results and long or drawn ones."""
    rng = np.random.default_rng(seed)
    out = []
    for key in solution.keys:
        index = index_of_key(key)
        codes = np.asarray(solution.data(key).dist)
        short = np.flatnonzero((codes > 0) & (codes <= 4))
        other = np.flatnonzero((codes == 0) | (codes > 4))
        for pool, count in ((short, 6), (other, 3)):
            if pool.size == 0:
                continue
            picked = rng.choice(pool, size=min(count, pool.size), replace=False)
            mover_bits, other_bits = index.decode(picked.astype(np.int64))
            out += [
                (key, int(m), int(o), int(codes[i]))
                for m, o, i in zip(mover_bits, other_bits, picked, strict=True)
            ]
    return out


@pytest.mark.parametrize(("men", "seed"), [(3, 1), (4, 2)])
def test_sampled_positions_agree_with_a_brute_force_search(
    solved3: Path, solved4: Path, men: int, seed: int
) -> None:
    solution = Solution.load(solved3 if men == 3 else solved4, men)
    depth = 3
    checked = 0
    for key, mover, other, code in _samples(solution, men, seed):
        white_to_move = key.white_to_move is not False
        white, black = (mover, other) if white_to_move else (other, mover)
        hands = (
            (key.mover_hand, key.other_hand) if white_to_move else (key.other_hand, key.mover_hand)
        )
        brute = decided(board_of(men, white, black, hands, white_to_move), depth)
        stored = result_of(code)
        if (
            stored.value is not Value.DRAW
            and stored.distance is not None
            and stored.distance <= depth
        ):
            assert brute == (stored.value.value, stored.distance), (key.name, mover, other)
        else:
            assert brute is None, (key.name, mover, other, stored)  # nothing forced that soon
        checked += 1
    assert checked >= 20


def test_a_wrong_code_in_a_sound_file_is_found_and_named(solved3: Path, tmp_path: Path) -> None:
    # The files' checksums are right (written by the writers): only the check against the
    # successors can tell. One code of a placing sector, one of its values under the rule.
    from morris.engine.solution.removals import open_removals
    from morris.engine.solution.storage import open_sector
    from morris.solver.solution.removals import write_removals
    from morris.solver.solution.write import write_sector

    for path in solved3.glob("*.msol"):
        (tmp_path / path.name).symlink_to(path)
    key = SectorKey(2, 3, 1, 0)
    codes = np.asarray(open_sector(solved3, key).dist).copy()
    entry = int(np.flatnonzero(codes > 2)[0])
    codes[entry] += 2  # a win (or loss) two turns longer: the same value, a wrong distance
    (tmp_path / key.filename).unlink()
    info = write_sector(tmp_path, key, codes)
    rule = open_removals(solved3, key, open_sector(solved3, key).info.sha256)
    assert rule is not None
    wrong = np.asarray(rule.dist).copy()
    wrong[entry] = 0  # called a draw under the rule
    (tmp_path / "removals-2-3-1-0.msol").unlink()
    write_removals(tmp_path, key, wrong, info.sha256, rule.info.limit, rule.info.rule_drawn)
    reports = {r.name: r for r in verify_solution(Solution.load(tmp_path, 3))}
    bad = reports["2v3 h1/0"]
    assert not bad.ok and bad.errors >= 1 and f"#{entry} " in bad.examples[0]
    assert not reports["2v3 h1/0 under the rule"].ok
    assert [n for n, r in reports.items() if not r.ok] == ["2v3 h1/0", "2v3 h1/0 under the rule"]
