"""Endgame tables against an independent brute-force search written here from docs/RULES.md."""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from morris.cli import main
from morris.commands.options import default_tables_dir
from morris.core.points import MILL_MASKS, NEIGHBOURS, POINTS
from morris.engine.encoding import popcount
from morris.engine.result import Result, Value
from morris.engine.tables import EndgameTables, TableError, TableKey, index_of, read_manifest
from morris.solver.tables import build_tables, verify_tables

FULL = (1 << 24) - 1

# --------------------------------------------------------------------------------------------
# Brute force, from the rules: a turn is a slide (a fly with exactly three pieces when flying is
# on); closing a line of three with the moved piece removes one opponent piece not in a mill
# (any piece if all are in mills); two pieces left or no turn on your move loses.


def _points(mask: int) -> list[int]:
    return [p for p in POINTS if mask >> p & 1]


def _in_mill(bits: int, p: int) -> bool:
    return any(m >> p & 1 and bits & m == m for m in MILL_MASKS)


BruteTurn = tuple[tuple[int, int, int | None], int, int]
Search = Callable[[int, int, int], bool]


def brute_turns(me: int, opp: int, flying: bool) -> list[BruteTurn]:
    """Every turn as ((from, to, removed), my pieces after, opponent pieces after)."""
    empty = FULL & ~(me | opp)
    flies = flying and me.bit_count() == 3
    out: list[BruteTurn] = []
    for p in _points(me):
        for q in _points(empty if flies else NEIGHBOURS[p] & empty):
            after = (me & ~(1 << p)) | (1 << q)
            if _in_mill(after, q):
                free = [r for r in _points(opp) if not _in_mill(opp, r)] or _points(opp)
                out.extend(((p, q, r), after, opp & ~(1 << r)) for r in free)
            else:
                out.append(((p, q, None), after, opp))
    return out


def make_search(flying: bool) -> tuple[Search, Search]:
    """(wins_within, loses_within) for the side to move, by exhaustive memoised search."""

    @cache
    def wins_within(me: int, opp: int, n: int) -> bool:
        if n < 1:
            return False
        for _, after, left in brute_turns(me, opp, flying):
            if left.bit_count() < 3 or loses_within(left, after, n - 1):
                return True
        return False

    @cache
    def loses_within(me: int, opp: int, n: int) -> bool:
        if n < 0:
            return False
        turns = brute_turns(me, opp, flying)
        if not turns:
            return True
        if n < 2:
            return False
        return all(
            left.bit_count() >= 3 and wins_within(left, after, n - 1) for _, after, left in turns
        )

    return wins_within, loses_within


def random_position(rng: random.Random, mover: int, other: int) -> tuple[int, int]:
    points = rng.sample(range(24), mover + other)
    return sum(1 << p for p in points[:mover]), sum(1 << p for p in points[mover:])


# --------------------------------------------------------------------------------------------
# Fixtures: 3v3 (both flying rules) built once per module; 4v3 and 3v4 for the slow tests.


@pytest.fixture(scope="module")
def small_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("tables6")
    build_tables(directory, max_pieces=6)
    return directory


@pytest.fixture(scope="module")
def small(small_dir: Path) -> EndgameTables:
    return EndgameTables.load(small_dir)


@pytest.fixture(scope="module")
def seven_dir(tmp_path_factory: pytest.TempPathFactory, small_dir: Path) -> Path:
    directory = tmp_path_factory.mktemp("tables7")
    for f in small_dir.iterdir():
        shutil.copy(f, directory / f.name)
    build_tables(directory, max_pieces=7)
    return directory


@pytest.fixture(scope="module")
def seven(seven_dir: Path) -> EndgameTables:
    return EndgameTables.load(seven_dir)


def sample_positions(
    tables: EndgameTables, mover: int, other: int, flying: bool, n: int, seed: int
) -> Iterator[tuple[int, int, Result]]:
    rng = random.Random(seed)
    for _ in range(n):
        me, opp = random_position(rng, mover, other)
        res = tables.probe(me, opp, True, flying)
        assert res is not None
        yield me, opp, res


def check_against_search(
    tables: EndgameTables, mover: int, other: int, flying: bool, n: int, horizon: int, seed: int
) -> None:
    """A WIN(d) wins within d turns and not within d - 2, a LOSS(d) loses within d turns and
    survives d - 2; beyond ``horizon`` turns only the short bound is checked."""
    wins_within, loses_within = make_search(flying)
    for me, opp, res in sample_positions(tables, mover, other, flying, n, seed):
        d = res.distance
        if res.value is Value.WIN:
            assert wins_within(me, opp, d) if d <= horizon else not wins_within(me, opp, horizon)
            assert d < 3 or not wins_within(me, opp, min(d - 2, horizon)), (me, opp, res)
            assert not loses_within(me, opp, horizon - 1)
        elif res.value is Value.LOSS:
            assert loses_within(me, opp, d) if d <= horizon else not loses_within(me, opp, horizon)
            assert d < 2 or not loses_within(me, opp, min(d - 2, horizon)), (me, opp, res)
            assert not wins_within(me, opp, horizon)
        else:
            assert not wins_within(me, opp, horizon), (me, opp)
            assert not loses_within(me, opp, horizon - 1), (me, opp)


# --------------------------------------------------------------------------------------------
# Tests.


def test_index_is_a_bijection_over_every_placement() -> None:
    from morris.engine.tables.index import stored_decode, stored_index

    key = TableKey(3, 3, True)
    idx = np.arange(key.size, dtype=np.int64)
    mover, other = stored_decode(key, idx)
    assert not (mover & other).any()
    assert (popcount(mover) == 3).all() and (popcount(other) == 3).all()
    assert (stored_index(key, mover, other) == idx).all()
    for i in range(0, key.size, 7919):
        assert index_of(key, int(mover[i]), int(other[i])) == i


def test_3v3_no_flying_matches_brute_force(small: EndgameTables) -> None:
    check_against_search(small, 3, 3, False, n=60, horizon=7, seed=1)


def test_3v3_flying_matches_brute_force(small: EndgameTables) -> None:
    check_against_search(small, 3, 3, True, n=25, horizon=3, seed=2)


@pytest.mark.slow
@pytest.mark.parametrize("flying", [False, True])
@pytest.mark.parametrize(("mover", "other"), [(4, 3), (3, 4)])
def test_4v3_and_3v4_match_brute_force(
    seven: EndgameTables, mover: int, other: int, flying: bool
) -> None:
    check_against_search(seven, mover, other, flying, n=30, horizon=5 if flying else 7, seed=3)


def mate_puzzles(
    tables: EndgameTables, flying: bool, distance: int, count: int, seed: int
) -> list[tuple[int, int]]:
    """Positions the table calls WIN(distance), found by random sampling."""
    rng = random.Random(seed)
    found: list[tuple[int, int]] = []
    while len(found) < count:
        me, opp = random_position(rng, 3, 3)
        if tables.probe(me, opp, True, flying) == Result(Value.WIN, distance):
            found.append((me, opp))
    return found


@pytest.mark.parametrize(("flying", "distance"), [(False, 3), (False, 5), (False, 7), (True, 3)])
def test_mate_in_n_puzzles_solved_by_exhaustive_search(
    small: EndgameTables, flying: bool, distance: int
) -> None:
    wins_within, loses_within = make_search(flying)
    for me, opp in mate_puzzles(small, flying, distance, count=4, seed=distance):
        assert wins_within(me, opp, distance)
        assert not wins_within(me, opp, distance - 2)
        best = small.best_turns(me, opp, True, flying)
        assert best
        # every turn the table recommends keeps the mate: the opponent loses within d - 1
        outcomes = {t: (after, left) for t, after, left in brute_turns(me, opp, flying)}
        for turn in best:
            after, left = outcomes[turn]
            assert left.bit_count() < 3 or loses_within(left, after, distance - 1)


@pytest.mark.parametrize("flying", [False, True])
def test_best_turns_play_a_won_game_out_in_exactly_the_distance(
    small: EndgameTables, flying: bool
) -> None:
    rng = random.Random(11)
    played = 0
    while played < 8:
        white, black = random_position(rng, 3, 3)
        start = small.probe(white, black, True, flying)
        assert start is not None
        if start.value is not Value.WIN or start.distance < 9:
            continue
        played += 1
        me, opp, plies = white, black, 0
        while True:
            turns = small.best_turns(me, opp, True, flying)
            assert turns is not None
            if not turns:
                break  # blocked: the side to move has lost
            p, q, r = rng.choice(turns)
            me = (me & ~(1 << p)) | (1 << q)
            if r is not None:
                opp &= ~(1 << r)
            plies += 1
            if opp.bit_count() < 3:
                break
            me, opp = opp, me
        assert plies == start.distance
        assert plies % 2 == 1  # the side that started made the last turn


def symmetries() -> list[list[int]]:
    """The 16 permutations of the points: rotations, mirror, inner/outer ring swap."""
    out = []
    for swap in (False, True):
        for mirror in (False, True):
            for turn in range(4):
                perm = []
                for p in POINTS:
                    ring, pos = divmod(p, 8)
                    if mirror:
                        pos = (2 - pos) % 8
                    pos = (pos + 2 * turn) % 8
                    perm.append((2 - ring if swap else ring) * 8 + pos)
                out.append(perm)
    return out


def permute(mask: int, perm: list[int]) -> int:
    return sum(1 << perm[p] for p in _points(mask))


def test_the_sixteen_symmetries_keep_links_and_mills() -> None:
    links = {frozenset((p, q)) for p in POINTS for q in _points(NEIGHBOURS[p])}
    for perm in symmetries():
        assert {frozenset(perm[p] for p in link) for link in links} == links
        assert {permute(m, perm) for m in MILL_MASKS} == set(MILL_MASKS)
    assert len({tuple(p) for p in symmetries()}) == 16


@pytest.mark.parametrize("flying", [False, True])
def test_values_are_invariant_under_the_board_symmetries(
    small: EndgameTables, flying: bool
) -> None:
    rng = random.Random(5)
    for _ in range(200):
        me, opp = random_position(rng, 3, 3)
        res = small.probe(me, opp, True, flying)
        for perm in symmetries():
            assert small.probe(permute(me, perm), permute(opp, perm), True, flying) == res


def test_colours_are_symmetric(small: EndgameTables) -> None:
    rng = random.Random(6)
    for _ in range(100):
        white, black = random_position(rng, 3, 3)
        assert small.probe(white, black, True, True) == small.probe(black, white, False, True)


def test_verify_passes_on_a_sample(small: EndgameTables) -> None:
    reports = verify_tables(small, sample=20_000, seed=3)
    assert {r.key for r in reports} == {TableKey(3, 3, True), TableKey(3, 3, False)}
    assert all(r.ok and r.checked == 20_000 for r in reports)


@pytest.mark.slow
def test_verify_passes_on_every_position(small: EndgameTables, seven: EndgameTables) -> None:
    for tables in (small, seven):
        reports = verify_tables(tables)
        assert all(r.ok and r.checked == r.key.size for r in reports)


def test_verify_finds_a_wrong_value(small_dir: Path, tmp_path: Path) -> None:
    tables = EndgameTables.load(small_dir)
    key = TableKey(3, 3, False)
    codes = np.array(tables.codes(key))
    codes[::50] = np.where(codes[::50] == 0, 2, 0)
    broken = EndgameTables({key: codes}, {})
    (report,) = verify_tables(broken, sample=3000)
    assert report.errors >= 20 and not report.ok
    assert "stored" in report.examples[0] and "successors say" in report.examples[0]


def test_probe_returns_none_for_material_not_covered(small: EndgameTables) -> None:
    rng = random.Random(7)
    white, black = random_position(rng, 4, 3)
    assert small.probe(white, black, True, True) is None
    assert small.best_turns(white, black, True, True) is None
    white, black = random_position(rng, 3, 2)
    assert small.probe(white, black, True, True) is None
    assert not small.covers(4, 4, True, False)
    assert small.covers(3, 3, False, False)


def test_blocked_position_is_a_loss_in_zero(small: EndgameTables) -> None:
    # black's pieces a7, d7, g7 are blocked by white's a4, d6, g4 (no flying)
    black = (1 << 0) | (1 << 1) | (1 << 2)
    white = (1 << 7) | (1 << 9) | (1 << 3)
    assert small.probe(white, black, False, False) == Result(Value.LOSS, 0)
    assert small.best_turns(white, black, False, False) == []
    # with flying on the same position is not lost at once
    assert small.probe(white, black, False, True) != Result(Value.LOSS, 0)


def test_manifest_counts_add_up(small: EndgameTables, small_dir: Path) -> None:
    for key, info in read_manifest(small_dir).items():
        assert info.won + info.drawn + info.lost == key.size
        codes = np.asarray(small.codes(key)).astype(np.int64)
        assert info.drawn == int((codes == 0).sum())
        assert info.longest_win == int(codes[(codes > 0) & (codes % 2 == 0)].max()) - 1


def test_corrupted_file_gives_an_error_naming_the_file(small_dir: Path, tmp_path: Path) -> None:
    for f in small_dir.iterdir():
        shutil.copy(f, tmp_path / f.name)
    target = tmp_path / TableKey(3, 3, True).filename
    data = bytearray(target.read_bytes())
    data[-100] ^= 0xFF
    target.write_bytes(bytes(data))
    with pytest.raises(TableError, match=target.name):
        EndgameTables.load(tmp_path)
    target.write_bytes(bytes(data[:-10]))
    with pytest.raises(TableError, match=target.name):
        EndgameTables.load(tmp_path, check=False)
    target.unlink()
    with pytest.raises(TableError, match=target.name):
        EndgameTables.load(tmp_path)


def test_build_reuses_tables_already_built(small_dir: Path, tmp_path: Path) -> None:
    for f in small_dir.iterdir():
        shutil.copy(f, tmp_path / f.name)
    calls: list[tuple[str, int, int]] = []
    infos = build_tables(tmp_path, max_pieces=6, progress=lambda *a: calls.append(a))
    assert len(infos) == 2
    assert all(done == total for _, done, total in calls)


def test_cli_info_and_verify(small_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tables", "info", "--dir", str(small_dir)]) == 0
    out = capsys.readouterr().out
    assert "3v3" in out and "2,691,920" in out
    assert main(["tables", "verify", "--dir", str(small_dir), "--sample", "500", "--quiet"]) == 0
    assert "ok" in capsys.readouterr().out


def test_cli_info_on_an_empty_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tables", "info", "--dir", str(tmp_path)]) == 1
    assert "no tables" in capsys.readouterr().out


def test_default_directory_follows_the_environment(tmp_path: Path) -> None:
    assert default_tables_dir({"MORRIS_DATA_DIR": str(tmp_path)}) == tmp_path
    assert default_tables_dir({"XDG_DATA_HOME": str(tmp_path)}) == tmp_path / "morris" / "tables"
    assert default_tables_dir({}).parts[-3:] == ("share", "morris", "tables")
