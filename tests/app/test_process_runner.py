"""The daemon's search process: answers, cancellation, a crashed child, closing."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator

import pytest

from morris.app.config import Config
from morris.app.jobs import ProcessRunner, SearchJob
from morris.core import Board, Move
from morris.engine import MAX_LEVEL

#: Needs real time: searches in a real child process.
pytestmark = pytest.mark.realtime

TIMEOUT = 60.0  # an upper bound: the child is a fresh interpreter on a possibly busy machine


class Answers:
    """Collects what the runner delivers, from its reader thread."""

    def __init__(self) -> None:
        self.items: list[tuple[int, Move | None]] = []
        self._cond = threading.Condition()

    def __call__(self, job: SearchJob, move: Move | None) -> None:
        with self._cond:
            self.items.append((job.job_id, move))
            self._cond.notify_all()

    def wait_for(self, count: int) -> list[tuple[int, Move | None]]:
        with self._cond:
            assert self._cond.wait_for(lambda: len(self.items) >= count, TIMEOUT), self.items
            return list(self.items)


@pytest.fixture
def answers() -> Answers:
    return Answers()


@pytest.fixture
def runner(answers: Answers) -> Iterator[ProcessRunner]:
    config = Config().with_overrides(engine_movetime=30.0)
    runner = ProcessRunner(config, answers)
    yield runner
    runner.close()


def job(job_id: int, level: int = 1, board: Board | None = None) -> SearchJob:
    return SearchJob(job_id, "move", board or Board(), level=level, movetime=30.0)


def test_the_search_process_answers_with_a_legal_move(
    runner: ProcessRunner, answers: Answers
) -> None:
    board = Board()
    board.push_notation("d6")
    runner.start(job(1, board=board))
    [(job_id, move)] = answers.wait_for(1)
    assert job_id == 1
    assert move is not None and move in board.legal_moves
    assert runner.pid is not None and runner.pid != os.getpid()


def test_a_cancelled_search_stops_and_is_never_delivered(
    runner: ProcessRunner, answers: Answers
) -> None:
    long = job(1, level=MAX_LEVEL)  # ten million nodes: it would think for seconds
    runner.start(long)
    runner.cancel(long)
    runner.start(job(2))
    items = answers.wait_for(1)
    assert [job_id for job_id, _ in items] == [2]


def test_a_killed_search_process_is_restarted_and_asked_again(
    runner: ProcessRunner, answers: Answers
) -> None:
    runner.start(job(1))
    answers.wait_for(1)
    first = runner.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)
    runner.start(job(2))  # sent to the dead child, or to the new one: answered either way
    items = answers.wait_for(2)
    assert items[1][0] == 2 and items[1][1] is not None
    assert runner.pid != first


def test_close_is_safe_twice(answers: Answers) -> None:
    runner = ProcessRunner(Config(), answers)
    runner.close()
    runner.close()
