"""The solved k men's morris: build time and memory per unit, rates, size, an extrapolation to
nine men's morris, and the probe time.

    python benchmarks/bench_solution.py [--men 3 4] [--dir DIR] [--dask-workers N] [--threads T]

Solves every unit of each ``--men`` in turn (the units a Dask task runs, in dependency order,
reusing the sector files already in ``--dir``), each in a forked child so that its CPU seconds
and peak memory are its own (the child's resident set includes what it shares with this
process: the bulk index tables, as in a Dask worker); with ``--dask-workers`` it also times the
real distributed build on a fresh directory. From the measured rates (CPU seconds per entry for
the moving-phase retrograde analysis, apart for the units where a side flies, and per entry and
empty point for the placing sectors) it extrapolates the build of every k up to 9: CPU time,
the time on N workers (bounded by the longest chain of pieces that must run one after another:
the moving systems, and of each placing sector larger than ``--split`` one range and its
assembly), the largest unit's memory
(``plan.unit_memory``, checked against the measured peaks) and the size on disk. The largest
moving system of the largest ``--men`` is solved again on one thread and on ``--threads`` (default:
the cores): its wall time gives the speed-up the chain of moving systems gets when each runs on
every core of its machine (the "chain, threads" column). Then it times the probe.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Final

import numpy as np

from morris.engine.solution import Solution, build_units
from morris.engine.solution.sectors import SectorKey, Unit
from morris.engine.solution.storage import open_sector
from morris.engine.solution.symmetry import bulk_tables, index_of_key
from morris.solver.solution import build_solution
from morris.solver.solution.plan import unit_entries, unit_memory
from morris.solver.solution.ranges import DEFAULT_SPLIT, plan_ranges
from morris.solver.solution.solve import machine_cores, solve_unit
from morris.solver.solution.write import finished, write_sector

PROBES = 20_000


def _work(unit: Unit) -> tuple[str, float]:
    """The kind of a unit and the measure of its work the rates are per: entries for a moving
    system (a side with three pieces flies: many more turns), entries x empty points while
    placing."""
    if unit.moving:
        flies = any(min(k.mover_on, k.other_on) == 3 for k in unit.keys)
        return ("flying" if flies else "sliding"), float(unit_entries(unit))
    key = unit.keys[0]
    return "placing", float(index_of_key(key).size * (24 - key.mover_on - key.other_on))


def _solve_in_child(
    source: Path, unit: Unit, target: Path | None = None, threads: int = 1
) -> tuple[float, float]:
    """Solve ``unit`` from the files in ``source`` into ``target`` (default ``source``) in a
    forked child on ``threads`` threads: (its CPU seconds, its peak MB)."""
    pid = os.fork()
    if pid == 0:  # the child: solve, write, and leave without Python's clean-up
        status = 0
        try:
            solved = {d: open_sector(source, d).dist for d in unit.dependencies()}
            codes = solve_unit(unit, solved, threads=threads)
            for k in unit.keys:
                write_sector(target or source, k, codes[k])
        except BaseException:
            traceback.print_exc()
            status = 1
        os._exit(status)
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        raise RuntimeError(f"solving {unit.name} failed")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


Rates = dict[str, list[tuple[float, float]]]
_HEAD: Final = (
    f"{'unit':<18} {'entries':>11} {'cpu s':>8} {'ns/entry':>9} {'peak MB':>8} {'declared MB':>11}"
)


def _measured(rates: Rates, unit: Unit, used: float, mb: float, show: bool = False) -> None:
    kind, work = _work(unit)
    rates[kind].append((work, used))
    entries = unit_entries(unit)
    if show or used > 0.5 or entries > 100_000:
        print(
            f"{unit.name:<18} {entries:>11,} {used:>8.1f} {used / entries * 1e9:>9.0f}"
            f" {mb:>8.0f} {unit_memory(unit) / 2**20:>11.0f}"
        )


def measure(directory: Path, men: int) -> Rates:
    """Solve the units of ``men`` one by one; per kind, (work, CPU seconds) of each unit solved."""
    rates: Rates = {"flying": [], "sliding": [], "placing": []}
    print(f"\n{men} men's morris: units solved, each in a child process")
    print(_HEAD)
    wall0 = time.perf_counter()
    cpu = 0.0
    peak = 0.0
    for unit in build_units(men):
        if all(finished(directory, k) is not None for k in unit.keys):
            continue
        used, mb = _solve_in_child(directory, unit)
        cpu += used
        peak = max(peak, mb)
        _measured(rates, unit, used, mb)
    wall = time.perf_counter() - wall0
    entries = sum(unit_entries(u) for u in build_units(men))
    size = sum(p.stat().st_size for p in directory.glob("sector-*.msol"))
    print(
        f"all units of {men} solved now: {cpu:.1f} CPU s, {wall:.1f} s wall, peak {peak:.0f} MB;"
        f" {entries:,} entries in all; {size / 1e6:.2f} MB on disk"
        f" ({entries / 4e6:.2f} MB win/draw/loss)"
    )
    return rates


def measure_again(directory: Path, men: int, names: list[str]) -> Rates:
    """Solve the named units of ``men`` again from the files in ``directory`` (into a scratch
    directory) and measure them: the rates of the largest units without a whole build."""
    units = {u.name: u for u in build_units(men)}
    rates: Rates = {"flying": [], "sliding": [], "placing": []}
    print(f"\n{men} men's morris: units solved again, each in a child process")
    print(_HEAD)
    for name in names:
        if name not in units:
            raise SystemExit(f"--again: no unit {name!r} in {men} men's morris")
        with tempfile.TemporaryDirectory() as out:
            used, mb = _solve_in_child(directory, units[name], Path(out))
        _measured(rates, units[name], used, mb, show=True)
    return rates


def thread_speedup(directory: Path, men: int, threads: int) -> float:
    """Wall time of the largest moving system of ``men`` on one thread over that on
    ``threads`` (each solved again from the files in ``directory``, in a child process)."""
    unit = max((u for u in build_units(men) if u.moving), key=unit_entries)
    print(f"\n{unit.name} ({unit_entries(unit):,} entries) solved again on 1 and {threads} threads")
    walls = []
    for n in (1, threads):
        with tempfile.TemporaryDirectory() as out:
            t0 = time.perf_counter()
            used, _ = _solve_in_child(directory, unit, Path(out), threads=n)
            walls.append(time.perf_counter() - t0)
        print(f"  {n} threads: {walls[-1]:.2f} s wall, {used:.2f} CPU s")
    print(f"  speed-up {walls[0] / walls[1]:.2f} on {threads} threads")
    return walls[0] / walls[1]


def _rate(points: list[tuple[float, float]]) -> float:
    """CPU seconds per unit of work, from the largest units measured (the small ones are
    dominated by fixed costs)."""
    points = sorted(points)[-3:]
    return sum(c for _, c in points) / sum(w for w, _ in points)


def assembly_rate(directory: Path, men: int) -> float:
    """CPU seconds per entry of assembling a split placing sector: its file written again
    from its codes (the largest placing sector of ``men`` built in ``directory``)."""
    key = max(
        (u.keys[0] for u in build_units(men) if not u.moving), key=lambda k: index_of_key(k).size
    )
    codes = np.array(open_sector(directory, key).dist, dtype=np.uint16)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.process_time()
        write_sector(Path(tmp), key, codes)
        cpu = time.process_time() - t0
    print(
        f"assembly of {key.name} ({codes.size:,} entries): {cpu:.3f} CPU s, "
        f"{cpu / codes.size * 1e9:.0f} ns an entry"
    )
    return cpu / codes.size


def spread_chain(
    units: list[Unit],
    cost: dict[Unit, float],
    split: int,
    assembly: float,
    speedup: float = 1.0,
) -> tuple[float, float]:
    """(the longest chain of work that must run one piece after another, the work the split
    adds) when every placing sector of more than ``split`` entries is solved in ranges.

    A moving system is one piece (``speedup`` times faster: on several threads); a split placing
    sector is one of its ranges (they run side by side) then its assembly (``assembly`` CPU
    seconds an entry); each piece waits for the sectors its turns reach. On N workers the build
    takes at least the longer of CPU time / N and this.
    """
    chain: dict[SectorKey, float] = {}
    extra = 0.0
    for unit in units:
        before = max((chain[d] for d in unit.dependencies()), default=0.0)
        piece = cost[unit] / speedup if unit.moving else cost[unit]
        if not unit.moving:
            ranges = plan_ranges(unit.keys[0], split)
            if len(ranges) > 1:
                merge = assembly * unit_entries(unit)
                piece = cost[unit] / len(ranges) + merge
                extra += merge
        for k in unit.keys:
            chain[k] = before + piece
    return max(chain.values()), extra


def extrapolate(
    rates: Rates,
    workers: list[int],
    split: int = DEFAULT_SPLIT,
    assembly: float = 0.0,
    speedup: float = 1.0,
) -> None:
    """Print the predicted build of every k from 3 to 9 (placing sectors split into ranges of
    ``split`` entries, each assembled at ``assembly`` CPU seconds an entry; the last chain with
    each moving system ``speedup`` times faster, on the threads of its machine)."""
    per = {kind: _rate(points) for kind, points in rates.items() if points}
    print(
        f"\nrates (CPU): moving {per['sliding'] * 1e9:.0f} ns per entry, "
        f"{per['flying'] * 1e9:.0f} where a side flies; placing "
        f"{per['placing'] * 1e9:.0f} ns per entry and empty point"
    )
    head = " ".join(f"{f'{n} workers h':>12}" for n in workers)
    print(
        f"{'men':>3} {'units':>6} {'entries':>16} {'CPU h':>10} {head} {'chain h':>8}"
        f" {'unsplit':>8} {'threads':>8} {'largest GB':>10}"
        f" {'W/D/L GB':>9} {'+dist GB':>9}"
    )
    for men in range(3, 10):
        units = build_units(men)
        cost: dict[Unit, float] = {}
        for unit in units:
            kind, work = _work(unit)
            cost[unit] = per[kind] * work
        total = sum(cost.values())
        critical, extra = spread_chain(units, cost, split, assembly)
        unsplit, _ = spread_chain(units, cost, 1 << 62, assembly)  # one task a unit
        threaded, _ = spread_chain(units, cost, split, assembly, speedup)
        total += extra
        entries = sum(unit_entries(u) for u in units)
        on = " ".join(f"{max(total / n, critical) / 3600:>12.2f}" for n in workers)
        largest = max(unit_memory(u) for u in units) / 2**30
        print(
            f"{men:>3} {len(units):>6} {entries:>16,} {total / 3600:>10.2f} {on}"
            f" {critical / 3600:>8.2f} {unsplit / 3600:>8.2f} {threaded / 3600:>8.2f}"
            f" {largest:>10.1f} {entries / 4 / 1e9:>9.2f} {entries / 1e9:>9.2f}"
        )


def probe_time(directory: Path, men: int) -> None:
    """Mean time of ``probe_key`` and ``probe_wdl`` on random entries of every sector."""
    t0 = time.perf_counter()
    solution = Solution.load(directory, men)
    load = time.perf_counter() - t0
    rng = np.random.default_rng(0)
    positions = []
    for key in solution.keys:
        index = index_of_key(key)
        picked = rng.integers(0, index.size, size=max(1, PROBES // len(solution.keys)))
        mover, other = index.decode(picked.astype(np.int64))
        positions += [(key, int(m), int(o)) for m, o in zip(mover, other, strict=True)]
    t0 = time.perf_counter()
    for key, m, o in positions:
        solution.probe_key(key, m, o)
    full = (time.perf_counter() - t0) / len(positions)
    t0 = time.perf_counter()
    for key, m, o in positions:
        solution.probe_wdl(key, m, o)
    wdl = (time.perf_counter() - t0) / len(positions)
    moving = [(k, m, o) for k, m, o in positions if solution.removal_data(k) is not None]
    t0 = time.perf_counter()
    for key, m, o in moving:
        solution.removal_result(key, m, o)
    removal = (time.perf_counter() - t0) / max(1, len(moving))
    print(
        f"\nprobe ({men} men, {len(positions):,} random positions): load with checksums "
        f"{load:.2f} s, value and distance {full * 1e6:.1f} µs, 2-bit value {wdl * 1e6:.1f} µs"
        + (f", removal distance {removal * 1e6:.1f} µs ({len(moving):,} moving)" if moving else "")
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--men", type=int, nargs="+", default=[3, 4])
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--dask-workers", type=int, default=None)
    parser.add_argument("--workers", type=int, nargs="+", default=[2, 16, 64])
    parser.add_argument(
        "--again",
        nargs="+",
        metavar="UNIT",
        default=[],
        help="units of the largest --men (such as '6v6' or '5v6 + 6v5') to solve again from the"
        " files in --dir and measure, after the units --men builds",
    )
    parser.add_argument("--split", type=int, default=DEFAULT_SPLIT)
    parser.add_argument(
        "--threads",
        type=int,
        default=machine_cores(),
        help="threads of the speed-up measured on the largest moving system (default: the cores)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.dir or Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        t0 = time.process_time()
        bulk_tables()
        print(f"bulk index tables: {time.process_time() - t0:.1f} CPU s once per process")
        rates: Rates = {"flying": [], "sliding": [], "placing": []}
        for men in args.men:
            for kind, points in measure(directory, men).items():
                rates[kind] += points
        if args.again:
            for kind, points in measure_again(directory, max(args.men), args.again).items():
                rates[kind] += points
        if args.dask_workers:
            fresh = Path(tmp) / "dask"
            t0 = time.perf_counter()
            build_solution(fresh, max(args.men), workers=args.dask_workers, split=args.split)
            print(
                f"\nDask build of {max(args.men)} men on {args.dask_workers} workers, split "
                f"{args.split:,}: {time.perf_counter() - t0:.1f} s wall"
            )
        speedup = thread_speedup(directory, max(args.men), args.threads)
        extrapolate(
            rates, args.workers, args.split, assembly_rate(directory, max(args.men)), speedup
        )
        probe_time(directory, max(args.men))
    return 0


if __name__ == "__main__":
    sys.exit(main())
