"""What a route of the companion is given: :class:`ControllerCalls`, the controller's commands
and state as a request handler awaits them, and the errors a route answers with.

Every route module plugs in one way: a function ``routes(...) -> list[Route]`` that takes only
what its handlers need (:func:`morris.web.remote.routes` and :func:`morris.web.puzzle.routes`
take the calls, :func:`morris.web.review.routes` the saved games and the reviewer), listed by
:class:`morris.web.app.Companion` beside its own.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from morris.app.errors import InputError, ServiceError
from morris.i18n import Message, msg, plain
from morris.web.host import Host, HostError, NoHands
from morris.web.language import request_language
from morris.web.state import state_json

if TYPE_CHECKING:
    from morris.app.controller import Controller

logger = logging.getLogger(__name__)

T = TypeVar("T")


class WebError(HTTPException, ServiceError, ValueError):
    """A request refused with a 4xx and a JSON error ``{"error": detail}`` (a
    :class:`~morris.i18n.Message` is rendered in the request's language)."""

    def __init__(self, status_code: int, detail: str | Message) -> None:
        super().__init__(status_code, detail)  # type: ignore[arg-type]
        self.words = detail

    def __str__(self) -> str:
        return str(self.words)


def no_answer(exc: Exception) -> Message:
    """Why the game did not answer a call (a 503's words)."""
    why = exc.message if isinstance(exc, ServiceError) else plain(str(exc) or type(exc).__name__)
    return msg("the game does not answer: {why}", why=why)


def error(status: int, message: str) -> JSONResponse:
    """The JSON error response ``{"error": message}``."""
    return JSONResponse({"error": message}, status_code=status)


async def read_json(request: Request) -> dict[str, Any]:
    """The request's body as a JSON object; a 400 naming the problem otherwise."""
    raw = await request.body()
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise WebError(400, f"the body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise WebError(400, f"the body must be a JSON object, not {type(data).__name__}")
    return data


class ControllerCalls:
    """The controller, reached through ``host`` from a request handler: its commands run on its
    own thread and awaited here, and the state JSON for a request."""

    def __init__(self, host: Host) -> None:
        self.host = host

    async def run(self, fn: Callable[[Controller, float], T]) -> T:
        """``fn(controller, now)`` on the controller's thread, awaited here. An
        :class:`InputError` becomes a 400, a controller that does not answer a 503."""
        try:
            return await asyncio.wait_for(asyncio.wrap_future(self.host.submit(fn)), 5.0)
        except InputError as exc:
            raise WebError(400, exc.message) from None
        except (HostError, TimeoutError) as exc:
            raise WebError(503, no_answer(exc)) from None

    async def off_loop(self, fn: Callable[[], T]) -> T:
        """A blocking host call, in a worker thread (the event loop goes on)."""
        try:
            return await asyncio.get_running_loop().run_in_executor(None, fn)
        except InputError as exc:
            raise WebError(400, exc.message) from None
        except NoHands as exc:
            raise WebError(404, exc.message) from None
        except HostError as exc:
            raise WebError(503, no_answer(exc)) from None

    @staticmethod
    def access(request: Request) -> str:
        """The request's access, as the security middleware found it."""
        return str(getattr(request.state, "access", None) or "")

    @staticmethod
    def language(request: Request) -> str:
        """The request's language (the page's: :func:`request_language`)."""
        return request_language(request.query_params, request.cookies, request.headers)

    async def current_state(self, request: Request) -> dict[str, Any]:
        """The state JSON for this request (its access and ``?flip=``)."""
        snapshot = await self.run(lambda controller, now: controller.snapshot(now))
        return state_json(
            snapshot,
            self.host.clock(),
            sim=self.host.has_hands,
            access=self.access(request),
            flip=request.query_params.get("flip") in ("1", "true"),
            on_wood=self.host.on_wood(),
            lang=self.language(request),
        )
