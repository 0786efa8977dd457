"""BoardRunner: polls at the deadlines, stops at once, keeps the error that stopped it."""

from __future__ import annotations

import threading
from collections.abc import Mapping

import pytest

from hardware.runner import BoardRunner
from morris_device import BoardBase, Signal, StatusLight

#: Needs real time: the board runner thread in real time.
pytestmark = pytest.mark.realtime

PROMPT = 5.0  # real seconds for anything that should happen at once


class FakeBoard(BoardBase):
    def __init__(self, fail_after: int | None = None) -> None:
        super().__init__()
        self.polls: list[float] = []
        self.polled = threading.Event()
        self.fail_after = fail_after

    def sensors(self) -> frozenset[str]:
        return frozenset()

    def show(self, lights: Mapping[str, Signal]) -> None:
        pass

    def set_status(self, light: StatusLight, signal: Signal) -> None:
        pass

    def poll(self, now: float) -> float:
        self.polls.append(now)
        if len(self.polls) >= 3:
            self.polled.set()
        if self.fail_after is not None and len(self.polls) > self.fail_after:
            raise OSError("gpiochip went away")
        return now + 3600.0 if len(self.polls) >= 3 else now  # then sleep for an hour


def test_polls_until_the_deadline_then_waits_and_stops_at_once() -> None:
    board = FakeBoard()
    times = iter(range(1000))
    runner = BoardRunner(board, clock=lambda: float(next(times)))
    with runner:
        assert board.polled.wait(PROMPT)
    assert not runner.is_running  # the hour-long wait was cut short by stop()
    assert len(board.polls) == 3
    assert runner.exception is None


def test_an_error_in_poll_stops_the_runner_and_is_kept() -> None:
    board = FakeBoard(fail_after=1)
    failed = threading.Event()
    errors: list[BaseException] = []
    runner = BoardRunner(board)
    runner.when_failed = lambda exc: (errors.append(exc), failed.set())  # type: ignore[func-returns-value]
    runner.start()
    assert failed.wait(PROMPT)
    runner.stop()
    assert isinstance(runner.exception, OSError)
    assert errors == [runner.exception]
    runner.stop()  # twice is fine
