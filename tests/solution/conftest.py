"""Solutions of 3 and 4 men's morris, built once per test run by the real Dask build.

The builds go into a directory shared by the xdist workers of one run, under a file lock: the
first worker builds, the others find the sectors finished (the build is resumable). The 4-men
build splits every placing sector of more than :data:`SPLIT4` entries into range tasks. Both run
each moving system on one thread: the reference the tests with more threads compare with.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

#: Entries per range task of the 4-men fixture's build: its 8 largest placing sectors are split,
#: into 58 ranges.
SPLIT4 = 1 << 15


def _built(
    tmp_path_factory: pytest.TempPathFactory, men: int, workers: int, split: int | None = None
) -> Path:
    from morris.solver.solution import build_solution

    base = tmp_path_factory.getbasetemp()
    # Under xdist each worker has its own base inside the run's; without it the run's own base.
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    directory = shared / f"solution-{men}"
    with (shared / f"solution-{men}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        extra = {} if split is None else {"split": split}
        build_solution(directory, men, workers=workers, memory=8 << 30, threads=1, **extra)
    return directory


@pytest.fixture(scope="session")
def solved3(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The directory of the solved 3 men's morris (built with one worker)."""
    yield _built(tmp_path_factory, 3, 1)


@pytest.fixture(scope="session")
def solved4(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The directory of the solved 4 men's morris (built with two workers, large placing sectors
    split into ranges of :data:`SPLIT4` entries)."""
    yield _built(tmp_path_factory, 4, 2, SPLIT4)
