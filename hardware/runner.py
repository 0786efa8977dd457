"""Drive a board in real time: a daemon thread that calls ``poll`` at each deadline.

>>> from gpiozero.pins.mock import MockFactory
>>> from hardware import open_board
>>> with open_board("shift-register", pin_factory=MockFactory()) as board:
...     with BoardRunner(board) as runner:
...         runner.is_running
True
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Self

from morris_device import BoardDevice

logger = logging.getLogger(__name__)

__all__ = ["BoardRunner"]


class BoardRunner:
    """Calls ``device.poll(clock())`` and sleeps until the deadline it returns.

    The wait is a timed acquire of a lock that :meth:`stop` releases, so :meth:`stop` is
    immediate and an idle board costs no CPU between deadlines. (An :class:`threading.Event`
    would do the same, but its Python-level condition costs a fifth more per wake-up, and a
    scanned board wakes the runner 100 times a second.) If ``poll`` (or a callback it runs)
    raises, the runner logs it, keeps it in :attr:`exception`, calls :attr:`when_failed` and
    stops.
    """

    def __init__(
        self,
        device: BoardDevice,
        clock: Callable[[], float] = time.monotonic,
        *,
        name: str = "board-runner",
    ) -> None:
        self.device = device
        self.clock = clock
        #: Called with the exception that stopped the runner.
        self.when_failed: Callable[[BaseException], None] | None = None
        #: The exception that stopped the runner, if any.
        self.exception: BaseException | None = None
        self._stop = threading.Event()
        self._wake = threading.Lock()  # held until stop(): the runner sleeps by acquiring it
        self._wake.acquire()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._started = False

    @property
    def is_running(self) -> bool:
        """Whether the thread is alive."""
        return self._thread.is_alive()

    def start(self) -> None:
        """Start polling (once)."""
        if self._started:
            raise RuntimeError("a BoardRunner can be started once")
        self._started = True
        self._thread.start()

    def stop(self, timeout: float | None = 1.0) -> None:
        """Stop polling and wait up to ``timeout`` seconds for the thread. Safe to call twice."""
        if not self._stop.is_set():
            self._stop.set()
            with contextlib.suppress(RuntimeError):  # released by a concurrent stop()
                self._wake.release()
        if self._started and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                delay = self.device.poll(self.clock()) - self.clock()
                if delay > 0 and self._wake.acquire(True, delay):
                    break  # stop() released the lock
        except BaseException as exc:
            if self._stop.is_set():
                return  # the board was closed under us while stopping
            self.exception = exc
            logger.exception("board poll failed; runner stopped")
            if self.when_failed is not None:
                self.when_failed(exc)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
