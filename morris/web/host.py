"""The bridge between the web thread and the controller's own thread.

The controller is single-threaded: whatever the page asks is carried out on the controller's
thread, never on the web server's. A :class:`Host` does that for one front end:

* :meth:`Host.call` runs ``fn(controller, now)`` on the controller's thread and returns its result
  (or raises its exception) in the caller; :meth:`Host.submit` is the same without waiting (a
  :class:`concurrent.futures.Future`, which the web app awaits with :func:`asyncio.wrap_future`).
* :meth:`Host.subscribe` delivers every new :class:`~morris.app.snapshot.Snapshot`, and
  :meth:`Host.on_announcement` every :class:`~morris.app.narration.Announcement` (what the board
  says aloud). The callback is called on the controller's thread and must return at once: the
  web app hands it over to its event loop with ``loop.call_soon_threadsafe``.
* :meth:`Host.hand` puts a piece on a point of a simulated board or lifts it (``morris sim
  --web`` and ``morris run --sim --web``); a real board has no such hands (:class:`NoHands`).

Three implementations: :class:`DaemonHost` (a ``("call", ...)`` item on the daemon's queue),
:class:`TuiHost` (the Textual app's loop, for ``morris sim --web`` in a terminal) and
:class:`SimulationHost` (a :class:`morris.sim.Simulation` in virtual time, for tests: calls run
at once in the caller's thread, which the test client's thread is while the test waits for it).
"""

from __future__ import annotations

import abc
import concurrent.futures
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from morris.app.controller import Controller, ControllerCall, run_call
from morris.app.errors import InputError, ServiceError
from morris.app.narration import Announcement
from morris.app.snapshot import Snapshot
from morris_device import POINT_NAMES

if TYPE_CHECKING:
    from morris.app.store import GameStore
    from morris.daemon import Daemon
    from morris.sim import Simulation

logger = logging.getLogger(__name__)

T = TypeVar("T")
#: A subscriber to the controller's snapshots.
SnapshotCallback = Callable[[Snapshot], None]
#: A listener to the controller's announcements.
AnnouncementCallback = Callable[[Announcement], None]

#: How long :meth:`Host.call` waits for the controller's thread, seconds.
CALL_TIMEOUT = 5.0
#: The two things a hand does on a simulated board.
HAND_ACTIONS = ("place", "lift")


class HostError(ServiceError, RuntimeError):
    """The controller's thread did not answer (the service stops, or is stuck)."""


class NoHands(ServiceError, LookupError):
    """A hand on the board was asked of a front end whose board is a real one."""


class Hands(Protocol):
    """A simulated board's hands: :class:`hardware.simulated_board.SimulatedBoard` has them."""

    def place(self, name: str) -> None:
        """Put a piece on ``name``."""

    def lift(self, name: str) -> None:
        """Take the piece off ``name``."""

    def on_wood(self) -> frozenset[str]:
        """The points where a piece stands on the wood."""


def check_point(point: str) -> str:
    """``point`` if it names one of the 24 points; else :class:`InputError` naming it."""
    if point not in POINT_NAMES:
        raise InputError(f"unknown point {point!r} (points are a1 .. g7, e.g. d6)")
    return point


def check_hand(action: str, point: str, on_wood: frozenset[str]) -> None:
    """Refuse a hand's action that cannot be done: an unknown point, a place on a point that
    holds a piece, a lift from an empty one (:class:`InputError`)."""
    if action not in HAND_ACTIONS:
        raise InputError(f"unknown hand action {action!r} (place or lift)")
    check_point(point)
    if action == "place" and point in on_wood:
        raise InputError(f"{point} holds a piece already: lift it first")
    if action == "lift" and point not in on_wood:
        raise InputError(f"no piece stands on {point}")


class Host(abc.ABC):
    """One front end's way to the controller (see the module's docstring)."""

    #: Where the finished games are (``GET /api/games``), or ``None``.
    store: GameStore | None = None

    @abc.abstractmethod
    def submit(self, fn: ControllerCall[T]) -> concurrent.futures.Future[T]:
        """Run ``fn(controller, now)`` on the controller's thread; its future."""

    def call(self, fn: ControllerCall[T], timeout: float = CALL_TIMEOUT) -> T:
        """Run ``fn(controller, now)`` on the controller's thread and return what it returns.

        Raises what ``fn`` raised, or :class:`HostError` if the thread does not answer within
        ``timeout`` seconds.
        """
        future = self.submit(fn)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise HostError(f"the controller did not answer within {timeout:g} s") from None
        except concurrent.futures.CancelledError:
            raise HostError("the controller has stopped") from None

    def snapshot(self) -> Snapshot:
        """The controller's snapshot now."""
        return self.call(lambda controller, now: controller.snapshot(now))

    def subscribe(self, callback: SnapshotCallback) -> Callable[[], None]:
        """Call ``callback`` (on the controller's thread) with every new snapshot; return the
        function that stops it."""
        unsubscribe = self.call(lambda controller, now: controller.subscribe(callback))

        def stop() -> None:
            self.submit(lambda controller, now: unsubscribe())

        return stop

    def on_announcement(self, callback: AnnouncementCallback) -> Callable[[], None]:
        """Call ``callback`` (on the controller's thread) with every announcement the controller
        makes (:meth:`morris.app.controller.Controller.on_announcement`); return the function
        that stops it."""
        stop_calls = self.call(lambda controller, now: controller.on_announcement(callback))

        def stop() -> None:
            self.submit(lambda controller, now: stop_calls())

        return stop

    @property
    def has_hands(self) -> bool:
        """Whether the board is simulated, so that :meth:`hand` works."""
        return False

    def hand(self, action: str, point: str) -> None:
        """``"place"`` a piece on ``point`` or ``"lift"`` it, on a simulated board.

        Raises :class:`NoHands` on a real board, :class:`InputError` for an unknown point, a
        place on a point that holds a piece or a lift from an empty one.
        """
        raise NoHands("the board is a real one: only a simulated board takes pieces from here")

    def on_wood(self) -> frozenset[str] | None:
        """Where pieces stand on the wood of a simulated board (any thread may ask: it only
        reads the simulated pins), ``None`` on a real board."""
        return None

    @abc.abstractmethod
    def clock(self) -> float:
        """The controller's clock now (what ``now`` is in :meth:`call`); any thread may ask."""


class _BoardHands(Host):
    """A host whose hands (if any) are a :class:`Hands` object, used on the controller's
    thread."""

    def __init__(self, hands: Hands | None) -> None:
        self._hands = hands

    def _current_hands(self) -> Hands | None:
        """The simulated board now (the terminal app replaces its own with a new game)."""
        return self._hands

    @property
    def has_hands(self) -> bool:
        """Whether the board is simulated."""
        return self._current_hands() is not None

    def on_wood(self) -> frozenset[str] | None:
        """Where pieces stand on the simulated board's wood."""
        hands = self._current_hands()
        return hands.on_wood() if hands is not None else None

    def hand(self, action: str, point: str) -> None:
        """Place or lift on the simulated board (see :meth:`Host.hand`)."""
        if not self.has_hands:
            super().hand(action, point)
            return
        check_point(point)

        def act(controller: Controller, now: float) -> None:
            hands = self._current_hands()
            assert hands is not None
            check_hand(action, point, hands.on_wood())
            (hands.place if action == "place" else hands.lift)(point)

        self.call(act)


class DaemonHost(_BoardHands):
    """The host of ``morris run --web``: calls are ``("call", (fn, future))`` items on the
    daemon's queue, carried out by its main loop (:meth:`morris.daemon.Daemon.post`).

    On ``morris run --sim`` the daemon's board is a simulated one (``OpenedBoard.keep``), and
    its hands work.
    """

    def __init__(self, daemon: Daemon, store: GameStore | None = None) -> None:
        keep = daemon.board.keep
        hands = keep if all(hasattr(keep, n) for n in ("place", "lift", "on_wood")) else None
        super().__init__(hands)  # type: ignore[arg-type]
        self.daemon = daemon
        self.store = store if store is not None else daemon.store

    def submit(self, fn: ControllerCall[T]) -> concurrent.futures.Future[T]:
        """Queue ``fn`` for the daemon's main loop."""
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        self.daemon.post("call", (fn, future))
        return future

    def clock(self) -> float:
        """The daemon's clock."""
        return self.daemon.clock()


class TuiApp(Protocol):
    """What :class:`TuiHost` needs of the terminal app (:class:`morris.tui.app.SimulatorApp`):
    its simulation, a way onto its loop, and a list of snapshot hooks it calls."""

    @property
    def sim(self) -> Simulation:
        """The simulation the app drives (replaced by a new game)."""

    snapshot_hooks: list[SnapshotCallback]

    @property
    def is_running(self) -> bool:
        """Whether the app's loop runs (Textual)."""

    def call_from_thread(self, callback: Callable[..., Any], *args: Any) -> Any:
        """Run ``callback`` on the app's loop and return its result (Textual)."""

    def refresh_view(self) -> None:
        """Redraw."""


class TuiHost(_BoardHands):
    """The host of ``morris sim --web`` in a terminal: calls run on the Textual app's loop
    (``App.call_from_thread``), where the app drives its simulation.

    The terminal's new-game dialog replaces the app's simulation (and with it the controller):
    snapshots reach the page through the app's ``snapshot_hooks``, which outlive it.
    """

    def __init__(self, app: TuiApp) -> None:
        super().__init__(None)
        self.app = app
        # call_from_thread blocks its caller: one worker thread waits on it for the web loop.
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="morris-web-tui")
        self.store = app.sim.controller.keeper.store

    def submit(self, fn: ControllerCall[T]) -> concurrent.futures.Future[T]:
        """Run ``fn`` on the app's loop, from a worker thread."""

        def on_loop() -> T:
            sim = self.app.sim
            result = fn(sim.controller, sim.now)
            self.app.refresh_view()
            return result

        def from_worker() -> T:
            if not self.app.is_running:
                raise HostError("the terminal app does not run (yet, or any more)")
            try:
                return self.app.call_from_thread(on_loop)  # type: ignore[no-any-return]
            except RuntimeError as exc:  # it stopped between the question and the call
                if self.app.is_running:
                    raise
                raise HostError(f"the terminal app does not run any more: {exc}") from None

        return self._pool.submit(from_worker)

    def subscribe(self, callback: SnapshotCallback) -> Callable[[], None]:
        """Add ``callback`` to the app's snapshot hooks (on its loop)."""
        hooks = self.app.snapshot_hooks
        self.call(lambda controller, now: hooks.append(callback))

        def stop() -> None:
            self.submit(
                lambda controller, now: hooks.remove(callback) if callback in hooks else None
            )

        return stop

    def on_announcement(self, callback: AnnouncementCallback) -> Callable[[], None]:
        """Listen to the announcements of the app's controller, and of the next one when a new
        game in the terminal replaces it (checked at each snapshot, on the app's loop)."""
        listened: list[Any] = [None, None]  # the controller listened to, and its stop

        def follow(controller: Controller) -> None:
            if listened[0] is not controller:
                if listened[1] is not None:
                    listened[1]()
                listened[:] = [controller, controller.on_announcement(callback)]

        def on_snapshot(snapshot: Snapshot) -> None:
            follow(self.app.sim.controller)

        hooks = self.app.snapshot_hooks

        def start(controller: Controller, now: float) -> None:
            follow(controller)
            hooks.append(on_snapshot)

        self.call(start)

        def stop() -> None:
            def undo(controller: Controller, now: float) -> None:
                if on_snapshot in hooks:
                    hooks.remove(on_snapshot)
                if listened[1] is not None:
                    listened[1]()

            self.submit(undo)

        return stop

    def _current_hands(self) -> Hands:
        """The app's simulated board (a new game in the terminal brings a new one)."""
        return self.app.sim.hardware

    def clock(self) -> float:
        """The app's virtual clock (it follows real time)."""
        return self.app.sim.now

    def close(self) -> None:
        """Stop the worker thread."""
        self._pool.shutdown(wait=False, cancel_futures=True)


class SimulationHost(_BoardHands):
    """A host over a :class:`morris.sim.Simulation` in virtual time, for tests.

    Calls run at once, in the caller's thread: with Starlette's ``TestClient`` that is the
    client's portal thread, while the test's own thread waits for the response, so nothing runs
    at the same time. Time passes only in :meth:`wait`.
    """

    def __init__(self, sim: Simulation, *, hands: bool = True) -> None:
        """``hands=False`` serves the simulation as a real board: the page has no hands."""
        super().__init__(sim.hardware if hands else None)
        self.sim = sim
        self.store = sim.controller.keeper.store
        self._lock = threading.Lock()

    def submit(self, fn: ControllerCall[T]) -> concurrent.futures.Future[T]:
        """Run ``fn`` now; a finished future."""
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        with self._lock:
            run_call(future, fn, self.sim.controller, self.sim.now)
        return future

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` of virtual time pass (:meth:`morris.sim.Simulation.wait`)."""
        with self._lock:
            self.sim.wait(seconds)

    def clock(self) -> float:
        """The simulation's virtual clock."""
        return self.sim.now
