"""Board to board: this daemon's end of a pairing with another board's web companion.

``morris run --web --mode remote --link http://HOST:PORT --link-token TOKEN`` (or ``[web] link``
and ``link_token``) plays one game on two boards in two houses. This daemon (the paired one)
subscribes to the other's ``/api/events`` and, after every change on either side, takes the next
step of :func:`morris.web.sync.plan_sync`: it posts its own board's accepted turn to the other's
``/api/remote/move``, or makes the other board's turn this board's remote turn. The other daemon
needs nothing but its web companion in mode remote: it counts this pairing as its remote player.

A dropped connection shows "waiting" on this board (and, through its events stream closing, on
the other); the pairing retries with a growing pause (:data:`BACKOFF`), and on reconnect the two
games are compared and the missing turn replayed. A real divergence is refused with a clear event
line, never overwritten. Why the pairing waits is the state's ``link_reason`` ("connection refused
to http://..."). A pairing the two boards cannot play (both persons on one colour, the other board
not in mode remote) is refused, and never shown ``up``: the pairing board says which colour it
plays (:data:`PLAYS_HEADER`) and the other answers 409 naming the clash, which both boards show.
A ``--link-token`` the other board does not check (its companion on its loopback asks none) is
said on the event line once the pairing is up.

The words ``link`` and ``--link`` stay where a person reads them (the options, the
configuration's ``[web] link``, the headers, the catalog's texts); in the code, "link" is the
board's own connection to its device (:mod:`firmware_bridge`).

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

from morris.app.errors import InputError, ServiceError
from morris.app.mode import Mode
from morris.core import BLACK, WHITE
from morris.i18n import Message, msg, plain
from morris.web.host import HostError
from morris.web.sync import GameState, Step, plan_sync

if TYPE_CHECKING:
    import httpx

    from morris.app.config import Config
    from morris.app.controller import Controller
    from morris.app.snapshot import Snapshot

logger = logging.getLogger(__name__)

#: The first and the longest pause between two attempts to connect, seconds.
BACKOFF = (0.5, 8.0)
#: Seconds to wait for the other board to answer a request (its events stream waits forever).
TIMEOUT = 5.0
#: The header by which the other board knows its remote player is a board, not a page.
PAIRING_HEADER = "X-Morris-Link"
#: The header by which the pairing board says the colour its person plays (``white``): the
#: other board's remote colour must be that one.
PLAYS_HEADER = "X-Morris-Link-Plays"


class PairingRefused(ServiceError, ConnectionError):
    """The other board answered the pairing with an error (its words, for the state); raised with
    a :class:`~morris.i18n.Message` (:attr:`ServiceError.message`)."""


def why_not_connected(url: str, exc: BaseException) -> Message:
    """Why the pairing with ``url`` is not up, in words for the state's ``link_reason`` (a message,
    rendered in the reader's language; the exception's own words stay as they are).

    >>> import httpx
    >>> refused = httpx.ConnectError("[Errno 111] Connection refused")
    >>> print(why_not_connected("http://127.0.0.1:8899", refused))
    connection refused to http://127.0.0.1:8899 (is the other board running with --web?)
    """
    import httpx

    if isinstance(exc, PairingRefused):
        return exc.message
    if isinstance(exc, httpx.ConnectError):
        if "refused" in str(exc).lower():
            return msg(
                "connection refused to {url} (is the other board running with {option}?)",
                url=url,
                option="--web",
            )
        return msg("cannot reach {url}: {problem}", url=url, problem=str(exc))
    if isinstance(exc, httpx.TimeoutException):
        return msg("{url} does not answer (timed out)", url=url)
    return msg(
        "the link to {url} was lost: {problem}", url=url, problem=str(exc) or type(exc).__name__
    )


def _error_of(response: httpx.Response) -> str:
    """The ``error`` of a companion's JSON answer, else its text (shortened)."""
    try:
        return str(response.json().get("error", response.text))[:300]
    except ValueError:
        return response.text[:300]


class HostLike(Protocol):
    """What the pairing needs of :class:`morris.web.host.Host`."""

    def call(self, fn: Callable[[Controller, float], Any]) -> Any: ...
    def subscribe(self, callback: Callable[[Snapshot], None]) -> Callable[[], None]: ...


class BoardPairing:
    """The pairing of this board (through ``host``) with the board at ``url`` with ``token``.

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
        plays: str = "",
    ) -> None:
        self.host = host
        self.url = url.rstrip("/")
        self.token = token
        #: The colour this board's person plays (``white``), told to the other board.
        self.plays = plays
        #: Why the pairing is not up, as this board was last told (``None``: up, or not yet known).
        self.reason: Message | None = None
        self._refused: Message | None = None  # a pairing the two games cannot share, seen in sync
        self.backoff = backoff
        self.timeout = timeout
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._lock = threading.Lock()
        self._theirs: GameState | None = None
        self._connected = False
        self._sent: tuple[int, str] | None = None  # the turn last posted, at its index
        self._note: Message | None = None  # the last divergence said on the event line
        self._threads: list[threading.Thread] = []
        self._unsubscribe: Callable[[], None] | None = None
        self._stream: httpx.Response | None = None

    # -- life -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start connecting (and keep at it until :meth:`close`); returns at once (the
        controller's loop may not run yet)."""
        for target, name in (
            (self._read, "morris-pairing-read"),
            (self._work, "morris-pairing-sync"),
        ):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
        logger.info("linking to the board at %s", self.url)

    def close(self) -> None:
        """Stop the pairing's threads. Safe to call twice."""
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
        headers = {PAIRING_HEADER: "board"}
        if self.plays:
            headers[PLAYS_HEADER] = self.plays
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
                    response = source.response
                    if response.is_error:
                        response.read()
                        why = plain(_error_of(response))  # the other board's words
                        if response.status_code == 401:
                            why = msg(
                                "{why} (check {option}: the other board's control token)",
                                why=why,
                                option="--link-token",
                            )
                        raise PairingRefused(
                            msg(
                                "{url} refused the link ({status}): {why}",
                                url=self.url,
                                status=str(response.status_code),
                                why=why,
                            )
                        )
                    self._stream = response
                    for event in source.iter_sse():
                        if self._stop.is_set():
                            break
                        if event.event != "state" or not event.data:
                            continue  # the retry field, keep-alives
                        self._on_state(json.loads(event.data))
                        pause = self.backoff[0]
            except Exception as exc:  # a closed stream, a refused connection, bad JSON
                reason = why_not_connected(self.url, exc)
                if not self._stop.is_set():
                    logger.warning("link to %s: %s", self.url, reason.render("en"))
            else:
                reason = msg("the other board at {url} closed the link", url=self.url)
            finally:
                self._stream = None
            if not self._stop.is_set():
                self._set_connected(False, reason)
            if self._stop.wait(pause):
                break
            pause = min(pause * 2, self.backoff[1])

    def _on_state(self, data: object) -> None:
        theirs = GameState.from_json(data)
        with self._lock:
            self._theirs = theirs
        first = not self._connected
        self._set_connected(True)
        if first and self.token:
            self._check_token()
        self._wake.set()

    def _check_token(self) -> None:
        """Say it once the pairing is up when the other board does not check the token given
        (its companion listens on its loopback, where no token is asked): a wrong one would pass
        unseen."""
        import httpx

        try:
            bare = httpx.get(
                f"{self.url}/api/state", headers={PAIRING_HEADER: "board"}, timeout=self.timeout
            )
        except httpx.HTTPError:
            return
        if bare.status_code != 200:
            return  # a token is asked there: the stream's open, so the one given is right
        note = msg(
            "{option} is not checked: the board at {url} listens on its loopback, where no "
            "token is asked (a token is needed only for a board listening beyond loopback, e.g. "
            "{example})",
            option="--link-token",
            url=self.url,
            example="--listen 0.0.0.0:8700",
        )
        logger.warning("link: %s", note.render("en"))
        self._call(lambda c, now: c.on_remote_connection(True, now, player="board", note=note))

    def _set_connected(self, up: bool, reason: Message | None = None) -> None:
        if up == self._connected and (up or reason == self.reason):
            return
        self._connected = up
        self.reason = None if up else reason
        if up:
            logger.warning("link to %s up", self.url)
        else:
            logger.warning(
                "link to %s down: waiting (%s)", self.url, reason and reason.render("en")
            )
            with self._lock:
                self._theirs = None
                self._sent = None  # what was posted may not have arrived: post it again
                self._note = None
                self._refused = None
        told = self.reason
        self._call(lambda c, now: c.on_remote_connection(up, now, player="board", reason=told))

    # -- the worker -------------------------------------------------------------------------

    def _subscribe(self) -> bool:
        """Hear of every change on this board; wait for its controller's loop to run."""
        while not self._stop.is_set():
            try:
                self._unsubscribe = self.host.subscribe(lambda _snapshot: self._wake.set())
                # From the start the remote player is the other board (not a page here).
                self.host.call(
                    lambda c, now: c.on_remote_connection(self._connected, now, player="board")
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
        step: Step | Message | None = self._call(lambda c, now: _plan(c, theirs))
        if isinstance(step, Message):
            refused = step
            if refused != self._refused:
                self._refused = reason = refused
                logger.warning("link: %s", reason.render("en"))
                self._call(
                    lambda c, now: c.on_remote_connection(
                        self._connected, now, player="board", reason=reason
                    )
                )
            return
        if self._refused is not None:  # mended (a new game, the other board restarted)
            self._refused = None
            self._call(lambda c, now: c.on_remote_connection(self._connected, now, player="board"))
        if step is None or step.kind == "same":
            self._say(None)
            return
        if step.kind == "diverged":
            # The sync's words (morris.web.sync), as it gives them.
            self._say(msg("the linked board's game differs: {why}", why=plain(step.reason)))
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
        # The other board's words, in its language.
        self._say(msg("the linked board refused {move}: {why}", move=move, why=plain(why)))

    def _say(self, note: Message | None) -> None:
        """Put a divergence (or a refusal) on the event line once, and forget it when mended."""
        if note == self._note:
            return
        self._note = note
        if note is not None:
            self._call(
                lambda c, now: c.on_remote_connection(
                    self._connected, now, player="board", note=note
                )
            )

    def _call(self, fn: Callable[[Controller, float], Any]) -> Any:
        try:
            return self.host.call(fn)
        except InputError as exc:
            note = msg("the linked board's turn is refused here: {why}", why=exc.message)
            logger.warning("link: %s", note.render("en"))
            self._note = note
            self.host.call(
                lambda c, now: c.on_remote_connection(
                    self._connected, now, player="board", note=note
                )
            )
            return None


def start_pairing(host: HostLike, config: Config) -> BoardPairing | None:
    """The pairing the configuration asks for (``[web] link``, ``--link``), started; ``None``
    without one."""
    if not config.web.link:
        return None
    pairing = BoardPairing(host, config.web.link, config.web.link_token, plays=config.game.human)
    pairing.start()
    return pairing


def _plan(controller: Controller, theirs: GameState) -> Step | Message:
    """The next step, or why two boards cannot share a game at all (a refusal)."""
    if controller.mode is not Mode.REMOTE:
        return not_remote_here(controller.mode)
    clash = clash_message(controller.human, theirs.mode, theirs.remote_color)
    if clash is not None:
        return clash
    local = WHITE if controller.human == "white" else BLACK
    return plan_sync(controller.board, local, theirs)


def not_remote_here(mode: Mode) -> Message:
    """Why a board in ``mode`` (not remote) cannot pair."""
    return msg("this board is in mode {mode}, not remote", mode=mode)


def pairing_clash(plays: str, mode: str, remote_color: str | None) -> str | None:
    """Why a board whose person plays ``plays`` cannot pair with one in ``mode`` whose remote
    player plays ``remote_color`` (in the colours the persons gave), or ``None``: the words of
    :func:`clash_message` in the board's language.

    >>> print(pairing_clash("white", "remote", "black"))
    both boards play white at the board (--human white on both): start one with --human black
    >>> pairing_clash("white", "remote", "white") is None
    True
    """
    clash = clash_message(plays, mode, remote_color)
    return None if clash is None else clash.render()


def clash_message(plays: str, mode: str, remote_color: str | None) -> Message | None:
    """:func:`pairing_clash` as a message, to render in the reader's language.

    >>> print(clash_message("black", "referee", None).render("de"))
    das andere Brett ist im Modus referee, nicht remote (mit --mode remote starten)
    """
    if mode != Mode.REMOTE:
        return msg(
            "the other board is in mode {mode}, not remote: start it with {option}",
            mode=mode,
            option="--mode remote",
        )
    if remote_color is not None and remote_color != plays:
        if plays == "white":
            return msg(
                "both boards play white at the board ({option} on both): start one with {fix}",
                option="--human white",
                fix="--human black",
            )
        return msg(
            "both boards play black at the board ({option} on both): start one with {fix}",
            option="--human black",
            fix="--human white",
        )
    return None
