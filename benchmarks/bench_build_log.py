"""What a real build of the solved game measured, and what is left of it: the rates in a
solution directory's ``build-log.jsonl`` (one line a task, written by the tasks themselves) and,
from them, the CPU hours still to go for ``--men K``.

    python benchmarks/bench_build_log.py --dir DIR [--men 9] [--workers 2]

Rates are CPU seconds per entry (the worker process's, its C threads included), by what the task
did: a moving system's retrograde analysis (``solve``) and its removal distances
(``removals``), each apart for the units where a side flies (three pieces: many more turns); a
placing sector's Bellman step (whole, or ``range`` tasks, and apart their ``assembly``) and its
values under the rule (``removals`` of a placing sector). The rates come from the largest tasks
of each kind (the upper half of its entries, where the small ones' overheads no longer count),
so what is left is weighed at the sizes it has. A kind not measured yet is named, and left out
of the sum.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from morris.engine.solution.removals import removal_filename
from morris.engine.solution.sectors import MAX_MEN, MIN_MEN, Unit, build_units
from morris.solver.solution.plan import unit_entries
from morris.solver.solution.ranges import DEFAULT_SPLIT, plan_ranges
from morris.solver.solution.tasks import BUILD_LOG


def kind_of(unit: Unit) -> str:
    """``flying`` (a moving system where a side has three pieces), ``sliding`` or ``placing``."""
    if unit.moving:
        return "flying" if any(min(k.mover_on, k.other_on) == 3 for k in unit.keys) else "sliding"
    return "placing"


def read_log(path: Path) -> list[dict[str, object]]:
    """The log's lines (a line that is not a JSON object is reported and skipped)."""
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            print(f"{path}:{n}: not JSON, skipped", file=sys.stderr)
            continue
        if isinstance(row, dict) and {"task", "name", "entries", "cpu_s"} <= set(row):
            out.append(row)
        else:
            print(f"{path}:{n}: not a task's line, skipped", file=sys.stderr)
    return out


def rates(rows: list[dict[str, object]], units: dict[str, Unit]) -> dict[str, float]:
    """CPU seconds an entry by work: ``solve sliding``, ``removals flying``, ``placing`` (a
    placing sector solved whole, or a range of one), ``assembly`` (a split sector's file from
    its parts), ``placing rule``."""
    samples: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for row in rows:
        task, name = str(row["task"]), str(row["name"])
        entries, cpu = int(str(row["entries"])), float(str(row["cpu_s"]))
        if task in ("range", "assemble"):  # a split sector's step, range by range; its file
            samples["placing" if task == "range" else "assembly"].append((entries, cpu))
            continue
        unit = units.get(name)
        if unit is None:
            continue
        kind = kind_of(unit)
        if kind == "placing":
            work = "placing rule" if task == "removals" else "placing"
        else:
            work = f"{task} {kind}"
        samples[work].append((entries, cpu))
    out = {}
    for work, found in samples.items():
        found.sort()
        upper = found[len(found) // 2 :]  # the larger half
        out[work] = sum(c for _, c in upper) / max(1, sum(e for e, _ in upper))
    return out


def left(directory: Path, units: list[Unit]) -> dict[str, int]:
    """Entries still to do, by work (a split placing sector's: its ranges without a part file,
    and its assembly)."""
    out: dict[str, int] = defaultdict(int)
    for unit in units:
        kind = kind_of(unit)
        entries = unit_entries(unit)
        if not all((directory / k.filename).exists() for k in unit.keys):
            if kind == "placing":
                ranges = plan_ranges(unit.keys[0], DEFAULT_SPLIT)
                if len(ranges) > 1:
                    out["assembly"] += entries
                    entries = sum(r.size for r in ranges if not (directory / r.filename).exists())
            out["placing" if kind == "placing" else f"solve {kind}"] += entries
        if not all((directory / removal_filename(k)).exists() for k in unit.keys):
            out["placing rule" if kind == "placing" else f"removals {kind}"] += entries
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the measured rates and what is left; 2 for bad input."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, required=True, help="the solution directory")
    parser.add_argument("--men", type=int, default=MAX_MEN, help="the game to finish (default 9)")
    parser.add_argument("--workers", type=int, default=2, help="workers for the wall time")
    args = parser.parse_args(argv)
    if not MIN_MEN <= args.men <= MAX_MEN:
        print(f"--men must be {MIN_MEN}..{MAX_MEN}, not {args.men}", file=sys.stderr)
        return 2
    if args.workers < 1:
        print(f"--workers must be at least 1, not {args.workers}", file=sys.stderr)
        return 2
    path = args.dir / BUILD_LOG
    if not path.is_file():
        print(f"{path}: no build log (a build writes it as its tasks end)", file=sys.stderr)
        return 2
    units = build_units(args.men)
    rows = read_log(path)
    measured = rates(rows, {u.name: u for u in units})
    print(f"{path}: {len(rows)} tasks, {sum(float(str(r['cpu_s'])) for r in rows) / 3600:.2f} "
          "CPU hours")  # fmt: skip
    print(f"{'work':<18} {'ns an entry':>12} {'entries left':>14} {'CPU hours left':>15}")
    total = 0.0
    missing = []
    for work, entries in sorted(left(args.dir, units).items()):
        rate = measured.get(work)
        if rate is None:
            missing.append(work)
            print(f"{work:<18} {'not measured':>12} {entries:>14,} {'-':>15}")
            continue
        hours = rate * entries / 3600
        total += hours
        print(f"{work:<18} {rate * 1e9:>12.0f} {entries:>14,} {hours:>15.2f}")
    for work in sorted(set(measured) - set(left(args.dir, units))):
        print(f"{work:<18} {measured[work] * 1e9:>12.0f} {0:>14,} {0:>15.2f}")
    print(
        f"left for {args.men} men's morris: {total:.2f} CPU hours, {total / args.workers:.2f} h "
        f"on {args.workers} workers with a core each"
        + (f" (not counted: {', '.join(missing)}, not measured yet)" if missing else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
