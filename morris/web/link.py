"""Board to board: this daemon's end of a link to another board's web companion.

``morris run --web --mode remote --link http://HOST:PORT --link-token TOKEN`` (or ``[web] link``
and ``link_token``) plays one game on two boards in two houses. This daemon (the linked one)
subscribes to the other's ``/api/events`` and, after every change on either side, takes the next
step of :func:`morris.web.sync.plan_sync`: it posts its own board's accepted turn to the other's
``/api/remote/move``, or makes the other board's turn this board's remote turn. The other daemon
needs nothing but its web companion in mode remote: it counts this link as its remote player.

A dropped connection shows "waiting" on this board (and, through its events stream closing, on
the other); the link retries with a growing pause (:data:`BACKOFF`), and on reconnect the two
games are compared and the missing turn replayed. A real divergence is refused with a clear event
line, never overwritten.

Two threads, both daemons: a reader on the other's event stream (httpx, httpx-sse) and a worker
that talks to this board's controller only through the host (:meth:`Host.call`, on the
controller's own thread) and posts turns.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from morris.app.errors import InputError
from morris.core import BLACK, WHITE
from morris.web.host import HostError
from morris.web.sync import GameState, Step, plan_sync

if TYPE_CHECKING:
    import httpx

    from morris.app.config import Config
    from morris.app.controller import Controller, Snapshot

logger = logging.getLogger(__name__)

#: The first and the longest pause between two attempts to connect, seconds.
BACKOFF = (0.5, 8.0)
#: Seconds to wait for the other board to answer a request (its events stream waits forever).
TIMEOUT = 5.0
#: The header by which the other board knows its remote player is a board, not a page.
LINK_HEADER = "X-Morris-Link"


class HostLike(Protocol):
    """What the link needs of :class:`morris.web.host.Host`."""

    def call(self, fn: Callable[[Controller, float], Any]) -> Any: ...
    def subscribe(self, callback: Callable[[Snapshot], None]) -> Callable[[], None]: ...


class BoardLink:
    """The link from this board (through ``host``) to the board at ``url`` with ``token``.

    :meth:`start` starts its threads; :meth:`close` stops them (safe twice). ``backoff`` is the
    first and the longest pause between attempts to connect.
    """

    def __init__(
        self,
        host: HostLike,
        url: str,
        token: str = "",
        *,
        backoff: tuple[float, float] = BACKOFF,
        timeout: float = TIMEOUT,
    ) -> None:
        self.host = host
        self.url = url.rstrip("/")
        self.token = token
        self.backoff = backoff
        self.timeout = timeout
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._lock = threading.Lock()
        self._theirs: GameState | None = None
        self._connected = False
        self._sent: tuple[int, str] | None = None  # the turn last posted, at its index
        self._note: str | None = None  # the last divergence said on the event line
        self._threads: list[threading.Thread] = []
        self._unsubscribe: Callable[[], None] | None = None
        self._stream: httpx.Response | None = None

    # -- life -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start connecting (and keep at it until :meth:`close`); returns at once (the
        controller's loop may not run yet)."""
        for target, name in ((self._read, "morris-link-read"), (self._work, "morris-link-sync")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
        logger.info("linking to the board at %s", self.url)

    def close(self) -> None:
        """Stop the link's threads. Safe to call twice."""
        self._stop.set()
        self._wake.set()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        stream = self._stream
        if stream is not None:
            stream.close()  # wakes the reader out of its wait for the next event
        for thread in self._threads:
            thread.join(timeout=self.timeout)
        self._threads.clear()

    @property
    def is_connected(self) -> bool:
        """Whether the other board's event stream is open now."""
        return self._connected

    # -- the reader -------------------------------------------------------------------------

    def _headers(self) -> dict[str, str]:
        headers = {LINK_HEADER: "board"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return headers

    def _read(self) -> None:
        import httpx
        from httpx_sse import connect_sse

        pause = self.backoff[0]
        timeout = httpx.Timeout(self.timeout, read=None)
        while not self._stop.is_set():
            try:
                with (
                    httpx.Client(timeout=timeout, headers=self._headers()) as client,
                    connect_sse(client, "GET", f"{self.url}/api/events") as source,
                ):
                    source.response.raise_for_status()
                    self._stream = source.response
                    for event in source.iter_sse():
                        if self._stop.is_set():
                            break
                        if event.event != "state" or not event.data:
                            continue  # the retry field, keep-alives
                        self._on_state(json.loads(event.data))
                        pause = self.backoff[0]
            except Exception as exc:  # a closed stream, a refused connection, bad JSON
                if not self._stop.is_set():
                    logger.warning("link to %s: %s", self.url, exc or type(exc).__name__)
            finally:
                self._stream = None
            self._set_connected(False)
            if self._stop.wait(pause):
                break
            pause = min(pause * 2, self.backoff[1])

    def _on_state(self, data: object) -> None:
        theirs = GameState.from_json(data)
        with self._lock:
            self._theirs = theirs
        self._set_connected(True)
        self._wake.set()

    def _set_connected(self, up: bool) -> None:
        if up == self._connected:
            return
        self._connected = up
        if up:
            logger.warning("link to %s up", self.url)
        else:
            logger.warning("link to %s down: waiting", self.url)
            with self._lock:
                self._theirs = None
                self._sent = None  # what was posted may not have arrived: post it again
                self._note = None
        self._call(lambda c, now: c.on_remote_link(up, now, player="board"))

    # -- the worker -------------------------------------------------------------------------

    def _subscribe(self) -> bool:
        """Hear of every change on this board; wait for its controller's loop to run."""
        while not self._stop.is_set():
            try:
                self._unsubscribe = self.host.subscribe(lambda _snapshot: self._wake.set())
                # From the start the remote player is the other board (not a page here).
                self.host.call(
                    lambda c, now: c.on_remote_link(self._connected, now, player="board")
                )
                return True
            except Exception as exc:  # the loop is not running yet (or no more)
                logger.debug("link: the controller does not answer yet: %s", exc)
                self._stop.wait(self.backoff[0])
        return False

    def _work(self) -> None:
        if not self._subscribe():
            return
        while not self._stop.is_set():
            self._wake.wait(timeout=1.0)
            self._wake.clear()
            if self._stop.is_set():
                break
            with self._lock:
                theirs = self._theirs
            if theirs is None:
                continue
            try:
                self._sync(theirs)
            except HostError as exc:  # this board's loop stops (or is stuck): try again later
                logger.info("link: this board does not answer: %s", exc)
            except Exception:
                logger.exception("the link's sync failed; it tries again at the next change")

    def _sync(self, theirs: GameState) -> None:
        step: Step | None = self._call(lambda c, now: _plan(c, theirs))
        if step is None or step.kind == "same":
            self._say(None)
            return
        if step.kind == "diverged":
            self._say(f"the linked board's game differs: {step.reason}")
            return
        assert step.move is not None
        move = step.move
        if step.kind == "receive":
            self._call(lambda c, now: c.remote_move(move, now))
        elif self._sent != (len(theirs.moves), move):
            self._post(move, len(theirs.moves))

    def _post(self, move: str, index: int) -> None:
        import httpx

        try:
            response = httpx.post(
                f"{self.url}/api/remote/move",
                json={"move": move},
                headers=self._headers(),
                timeout=self.timeout,
            )
        except httpx.HTTPError as exc:
            logger.warning("link to %s: could not send %s: %s", self.url, move, exc)
            return
        if response.is_success:
            with self._lock:
                self._sent = (index, move)
            logger.info("sent %s to the linked board", move)
            return
        try:
            why = str(response.json().get("error", response.text))
        except ValueError:
            why = response.text
        self._say(f"the linked board refused {move}: {why}")

    def _say(self, note: str | None) -> None:
        """Put a divergence (or a refusal) on the event line once, and forget it when mended."""
        if note == self._note:
            return
        self._note = note
        if note is not None:
            self._call(
                lambda c, now: c.on_remote_link(self._connected, now, player="board", note=note)
            )

    def _call(self, fn: Callable[[Controller, float], Any]) -> Any:
        try:
            return self.host.call(fn)
        except InputError as exc:
            note = f"the linked board's turn is refused here: {exc}"
            logger.warning("link: %s", note)
            self._note = note
            self.host.call(
                lambda c, now: c.on_remote_link(self._connected, now, player="board", note=note)
            )
            return None


def start_link(host: HostLike, config: Config) -> BoardLink | None:
    """The link the configuration asks for (``[web] link``, ``--link``), started; ``None``
    without one."""
    if not config.web.link:
        return None
    link = BoardLink(host, config.web.link, config.web.link_token)
    link.start()
    return link


def _plan(controller: Controller, theirs: GameState) -> Step:
    if controller.mode != "remote":
        return Step("diverged", reason=f"this board is in mode {controller.mode}, not remote")
    local = WHITE if controller.human == "white" else BLACK
    return plan_sync(controller.board, local, theirs)
