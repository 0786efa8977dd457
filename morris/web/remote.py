"""The companion's routes for position setup and the remote opponent, and who the remote player is.

========================================  =================================================
``POST /api/setup``                       play from a position text (JSON
                                          ``{"position": "..."}`` or a ``text/plain`` body);
                                          the lights then guide the board to it
``POST /api/remote/move``                 ``{"move": "d6xg7"}``: the remote player's turn
                                          (mode remote), shown on the board like the Pi's
``GET /api/remote/legal``                 the remote player's legal turns now, and the one
                                          waiting to be carried out on the board
========================================  =================================================

Errors are 4xx JSON ``{"error": ...}`` naming the problem, the game unchanged: 400 for text that
is no position or no move, or an illegal move; 409 for a turn out of turn, in another mode,
after the game, or while another remote turn waits.

:class:`Presence` counts who plays the remote side: in mode remote every page with the control
token that has ``/api/events`` open is the remote player, until a paired board connects (its
requests carry ``X-Morris-Link: board``, :mod:`morris.web.pairing`): from then on the board is the
remote player and the pages are this board's view. The first to connect makes the connection ``up``;
when the last goes, the board shows "waiting". A board whose person plays the colour this board's
person plays (its :data:`~morris.web.pairing.PLAYS_HEADER`), or one pairing while this board is not
in mode remote, is refused (409, naming the clash): it never counts as the remote player, and
this board's state says why (``link_reason``).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterable, AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from morris.app.errors import NotNowError
from morris.app.mode import Mode
from morris.core import COLOR_NAMES
from morris.i18n import Message
from morris.web.calls import ControllerCalls, WebError, read_json
from morris.web.pairing import PAIRING_HEADER, PLAYS_HEADER, pairing_clash

if TYPE_CHECKING:
    from morris.app.controller import Controller
    from morris.web.host import Host

logger = logging.getLogger(__name__)


class Presence:
    """The remote players connected through the event stream, told to the controller."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self._count = {"page": 0, "board": 0}
        self._board_seen = False
        self._lock = threading.Lock()  # one telling at a time, so the last word is the count's

    def _tell(self) -> None:
        with self._lock:
            if self._count["board"]:
                self._board_seen = True
            # Once a board has paired, it is the remote player: the pages are the board's view.
            player = "board" if self._board_seen else "page"
            up = self._count[player] > 0
            try:
                self.host.call(lambda c, now: c.on_remote_connection(up, now, player=player))
            except Exception as exc:  # the service stops: nobody is left to tell
                logger.debug("could not tell the remote player's connection: %s", exc)

    async def refusal(self, request: Request) -> str | None:
        """Why the paired board making ``request`` (``X-Morris-Link: board``) cannot be the
        remote player here, in the colours both persons gave, or ``None`` (a page, or a board
        that may pair). A refusal is told to the controller (the state's ``link_reason``)."""
        if request.headers.get(PAIRING_HEADER) != "board":
            return None
        plays = request.headers.get(PLAYS_HEADER)

        def check(controller: Controller, now: float) -> str | None:
            clash: str | None
            if controller.mode is not Mode.REMOTE:
                clash = f"this board is in mode {controller.mode}, not remote"
            else:
                remote = controller.remote_color
                name = None if remote is None else COLOR_NAMES[remote]
                clash = None if plays is None else pairing_clash(plays, Mode.REMOTE, name)
            if clash is not None:
                controller.on_remote_connection(
                    False, now, player="board", reason=f"a linked board was refused: {clash}"
                )
            return clash

        try:
            return await _off_loop_value(lambda: self.host.call(check))
        except Exception as exc:  # the service stops: nobody is left to refuse
            logger.debug("could not check the paired board: %s", exc)
            return None

    async def track(self, request: Request, response: Response) -> Response:
        """Count the stream ``response`` (to ``request``) as a remote player while it is open;
        a spectator (read-only access) is no player."""
        if not isinstance(response, StreamingResponse):
            return response
        if getattr(request.state, "access", None) == "watch":
            return response
        role = "board" if request.headers.get(PAIRING_HEADER) == "board" else "page"
        response.body_iterator = self._counted(request, response.body_iterator, role)
        return response

    async def _counted(
        self, request: Request, body: AsyncIterable[Any], role: str
    ) -> AsyncIterator[Any]:
        """``inner``'s chunks while the client is there. A client that goes (a board switched
        off, a phone closed) is noticed at once, not at the stream's next keep-alive."""
        inner = aiter(body)
        self._count[role] += 1
        await _off_loop(self._tell)
        gone = asyncio.ensure_future(_disconnected(request))
        step: asyncio.Future[Any] | None = None
        try:
            while True:
                step = asyncio.ensure_future(anext(inner))
                step.add_done_callback(_quiet)
                await asyncio.wait({step, gone}, return_when=asyncio.FIRST_COMPLETED)
                if not step.done():
                    break
                try:
                    chunk = step.result()
                except StopAsyncIteration:
                    break
                yield chunk
        finally:
            # Also when the server cancels the stream: nothing here may wait, and the
            # controller is told from a worker thread all the same.
            gone.cancel()
            if step is not None and not step.done():
                step.cancel()
            self._count[role] -= 1
            asyncio.get_running_loop().run_in_executor(None, self._tell)


def _quiet(task: asyncio.Future[Any]) -> None:
    """Take a finished task's exception (a stream's end) so that nobody warns of it."""
    if not task.cancelled():
        task.exception()


async def _disconnected(request: Request) -> None:
    """Return once the client has gone (the ASGI ``http.disconnect`` message)."""
    while True:
        message = await request.receive()
        if message.get("type") == "http.disconnect":
            return


async def _off_loop_value(fn: Callable[[], str | None]) -> str | None:
    return await asyncio.get_running_loop().run_in_executor(None, fn)


async def _off_loop(fn: Callable[[], None]) -> None:
    await asyncio.get_running_loop().run_in_executor(None, fn)


def routes(calls: ControllerCalls) -> list[Route]:
    """The setup and remote routes over the controller's ``calls``."""

    async def set_up(request: Request) -> Response:
        """``POST /api/setup``."""
        if request.headers.get("content-type", "").startswith("application/json"):
            data = await read_json(request)
            position = data.get("position")
            if not isinstance(position, str):
                raise WebError(400, 'the body must be {"position": "<position text>"}')
        else:
            raw = await request.body()
            try:
                position = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise WebError(400, "the position text is not UTF-8") from None
        await calls.run(lambda c, now: c.set_up(position, now))
        return JSONResponse(await calls.current_state(request))

    async def remote_move(request: Request) -> Response:
        """``POST /api/remote/move``."""
        data = await read_json(request)
        move = data.get("move")
        if not isinstance(move, str):
            raise WebError(400, 'the body must be {"move": "<turn>"}, e.g. {"move": "d6xg7"}')
        refused = await calls.run(lambda c, now: _not_now(c.remote_move, move, now))
        if refused is not None:
            raise WebError(409, refused)
        return JSONResponse(await calls.current_state(request))

    async def legal(request: Request) -> Response:
        """``GET /api/remote/legal``."""
        return JSONResponse(await calls.run(lambda c, now: remote_turns(c)))

    return [
        Route("/api/setup", set_up, methods=["POST"]),
        Route("/api/remote/move", remote_move, methods=["POST"]),
        Route("/api/remote/legal", legal, methods=["GET"]),
    ]


def _not_now(fn: Callable[[str, float], None], move: str, now: float) -> Message | None:
    """Run ``fn``; a :class:`NotNowError` comes back as its message (the route's 409)."""
    try:
        fn(move, now)
    except NotNowError as exc:
        return exc.message
    return None


def remote_turns(controller: Controller) -> dict[str, Any]:
    """What the remote player's page needs to compose a turn: ``turn`` (whether it is the
    remote player's), ``moves`` (its legal turns, in notation), ``waiting`` (its turn shown on
    the board, not yet carried out)."""
    board = controller.board
    remote = controller.remote_color
    waiting = controller.referee.expected if remote is not None else None
    mine = (
        remote is not None
        and board.turn == remote
        and board.outcome() is None
        and not controller.is_setting_up
    )
    return {
        "turn": mine and waiting is None,
        "moves": sorted(str(m) for m in board.legal_moves) if mine and waiting is None else [],
        "waiting": None if waiting is None else str(waiting),
    }
