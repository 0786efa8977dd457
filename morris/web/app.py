"""The companion's web app (Starlette): the page, the live state and the board's buttons.

Routes (docs/WEB.md has them with examples):

========================================  =================================================
``GET /``                                 the page (``?token=...`` sets the cookie, then
                                          redirects to ``/``)
``GET /static/{name}``                    its script and style (a fixed list, no paths)
``GET /manifest.webmanifest``             the web app manifest ("add to home screen")
``GET /icons/icon-{size}.png``            its icons (192, 512), ``/favicon.ico`` and
                                          ``/icons/icon.svg``
``GET /sw.js``                            the service worker that keeps the page shell
``GET /api/state``                        the game as JSON (:func:`morris.web.state.state_json`)
``GET /api/events``                       server-sent events: one ``state`` per change (every
                                          sensor reading among them), one
                                          ``announcement`` per thing the board says
``GET /api/positions``                    every position of the game now (the move list's
                                          taps)
``POST /api/press/{button}``              new, takeback, hint, mode: as the board's buttons
``POST /api/sim/place/{point}``           a simulated board only: put a piece on ``point``
``POST /api/sim/lift/{point}``            ... or lift it
``GET /api/games``                        the saved game records: id, tags, result, date
``GET /api/games/{id}``                   one record's text
``GET /api/render.svg?position=...``      a position's picture (``variant``, ``last``,
                                          ``flip``)
``GET /api/render.png?position=...``      the same picture as PNG (and ``width``)
``GET /api/games/{id}/review``            a saved game's review (:mod:`morris.web.review`)
``GET /api/games/{id}/chart.svg``         the game's graph (and ``chart.png``)
``GET /review``                           the review page
``POST /api/setup``, ``/api/remote/move``  position setup and the remote player's turn
``GET /api/remote/legal``                 (:mod:`morris.web.remote`)
``POST /api/puzzle``                      a puzzle (:mod:`morris.web.puzzle`)
========================================  =================================================

Every route reaches the controller only through the :class:`~morris.web.host.Host`, by the
:class:`~morris.web.calls.ControllerCalls` over it. The routes of the other modules plug in one
way: each module's ``routes(...)`` takes only what its handlers need and returns its list
(:mod:`morris.web.calls`). Bad input
gets a 4xx with ``{"error": "..."}`` naming the problem, and the game is unchanged.

Each request has a language (:func:`morris.web.language.request_language`: ``?lang=``, the
page's ``morris_lang`` cookie, ``Accept-Language``): the pages come in it (``<html lang>`` and
the catalog of their texts inside, :class:`~morris.web.language.PageCatalogs`), and so do the
texts the server renders (the state's event line, the solved values, the announcements).
"""

from __future__ import annotations

import asyncio
import json
import logging
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from morris.app.controller import Controller
from morris.i18n import Message
from morris.web import puzzle, remote, review
from morris.web.calls import ControllerCalls, WebError, error
from morris.web.events import Hub
from morris.web.games import GameList
from morris.web.host import Host
from morris.web.language import PageCatalogs
from morris.web.picture import render_svg, scene_of_query
from morris.web.remote import Presence
from morris.web.review import Reviewer
from morris.web.security import COOKIE, Policy, SecurityMiddleware
from morris_device import ButtonName

if TYPE_CHECKING:
    from morris.engine.solution import Solution

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: The page's files: name -> media type. Nothing else is ever read from the package.
STATIC_FILES = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "setup.js": "text/javascript; charset=utf-8",
    "remote.js": "text/javascript; charset=utf-8",
    "puzzle.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "review.html": "text/html; charset=utf-8",
    "review.js": "text/javascript; charset=utf-8",
    "strings.js": "text/javascript; charset=utf-8",
    "shell.js": "text/javascript; charset=utf-8",
    "speech.js": "text/javascript; charset=utf-8",
    "sw.js": "text/javascript; charset=utf-8",
    "manifest.webmanifest": "application/manifest+json",
}
#: The app icons' sizes in pixels (the manifest names them; Android wants 192 and 512).
ICON_SIZES = (192, 512)
#: The favicon's size (a PNG: every browser takes one at /favicon.ico).
FAVICON_SIZE = 64
BUTTONS = tuple(b.value for b in ButtonName)


def static_text(name: str) -> str:
    """One of the page's files, from the package (:data:`STATIC_FILES`)."""
    return resources.files("morris.web").joinpath("static", name).read_text(encoding="utf-8")


class Companion:
    """The routes over one :class:`Host` and :class:`Policy`; :attr:`app` is the ASGI app."""

    def __init__(
        self,
        host: Host,
        policy: Policy | None = None,
        *,
        tables_dir: Path | None = None,
        solution_dir: Path | None = None,
        reviewer: Reviewer | None = None,
    ) -> None:
        self.host = host
        #: The controller as the handlers reach it (and the routes of the other modules).
        self.calls = ControllerCalls(host)
        self.policy = policy or Policy()
        self.hub = Hub(host)
        self.presence = Presence(host)
        self.games = GameList(host.store.games_dir if host.store is not None else None)
        self._static = {name: static_text(name) for name in STATIC_FILES}
        self.catalogs = PageCatalogs(self._static[name] for name in STATIC_FILES if ".js" in name)
        self._icons: dict[str, tuple[bytes, str]] = {}
        reviewer = reviewer or Reviewer(
            tables_dir=tables_dir, solution_dir=solution_dir, solution_source=self._solution
        )
        routes = [
            Route("/review", self.review_page, methods=["GET"]),
            *review.routes(self.games, reviewer),
            Route("/", self.page, methods=["GET"]),
            Route("/static/{name}", self.static, methods=["GET"]),
            Route("/manifest.webmanifest", self.manifest, methods=["GET"]),
            Route("/sw.js", self.service_worker, methods=["GET"]),
            Route("/favicon.ico", self.favicon, methods=["GET"]),
            Route("/icons/{name}", self.icon, methods=["GET"]),
            Route("/api/state", self.state, methods=["GET"]),
            Route("/api/positions", self.positions, methods=["GET"]),
            Route("/api/events", self.events, methods=["GET"]),
            Route("/api/press/{button}", self.press, methods=["POST"]),
            Route("/api/sim/{action}/{point}", self.sim_hand, methods=["POST"]),
            Route("/api/games", self.game_list, methods=["GET"]),
            Route("/api/games/{game_id}", self.game_text, methods=["GET"]),
            Route("/api/render.svg", self.render, methods=["GET"]),
            *remote.routes(self.calls),
            *puzzle.routes(self.calls),
        ]
        self.app = Starlette(
            routes=routes,
            middleware=[Middleware(SecurityMiddleware, policy=self.policy)],
            exception_handlers={
                HTTPException: self._http_error,
                Exception: self._unexpected,
            },
        )

    # -- plumbing ---------------------------------------------------------------------------

    def _solution(self) -> Solution | None:
        """The controller's solved game (what the Pi plays from), for the reviews: one copy in
        the process. Called on the reviewer's thread."""
        return self.host.call(lambda controller, now: controller.values.solution)

    async def _http_error(self, request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if exc.status_code == 404 and not isinstance(exc, WebError):
            message = f"no such route: {request.method} {request.url.path}"
        elif exc.status_code == 405 and not isinstance(exc, WebError):
            message = f"method {request.method} not allowed on {request.url.path}"
        elif isinstance(exc, WebError) and isinstance(exc.words, Message):
            message = exc.words.render(self.calls.language(request))
        else:
            message = str(exc.detail)
        return error(exc.status_code, message)

    async def _unexpected(self, request: Request, exc: Exception) -> Response:
        logger.exception("the companion failed on %s %s", request.method, request.url.path)
        return error(500, f"internal error: {type(exc).__name__}")

    # -- the page ---------------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        """The page; a valid ``?token=`` goes into a cookie and out of the address bar."""
        if "token" in request.query_params:
            if self.policy.tokens is None:
                return RedirectResponse("/", status_code=303)
            # This token alone: a valid cookie beside it must not make a bad link good.
            if self.policy.access([request.query_params["token"]]) is None:
                return error(403, "this link's token is not valid (any more)")
            response = RedirectResponse("/", status_code=303)
            response.set_cookie(
                COOKIE,
                request.query_params["token"],
                httponly=True,
                samesite="strict",
                max_age=400 * 24 * 3600,
            )
            return response
        return self._html("index.html", request)

    async def review_page(self, request: Request) -> Response:
        """The review page (:mod:`morris.web.review`)."""
        return self._html("review.html", request)

    def _html(self, name: str, request: Request) -> Response:
        """A page in the request's language: its ``<html lang>``, and the catalog of its texts
        inside it (a JSON data block: the Content-Security-Policy runs no inline script)."""
        code = self.calls.language(request)
        # "</" never ends the data block early ("<\/" is the same JSON text).
        catalog = json.dumps(self.catalogs.catalog(code), ensure_ascii=False).replace("</", "<\\/")
        text = self._static[name].replace("{{lang}}", code).replace("{{catalog}}", catalog)
        return Response(
            text,
            media_type=STATIC_FILES[name],
            headers={
                "Content-Language": code,
                "Vary": "Accept-Language, Cookie",
                "Cache-Control": "no-cache",
            },
        )

    async def static(self, request: Request) -> Response:
        """One of the page's files, by name from the fixed list."""
        name = request.path_params["name"]
        if name not in self._static or name.endswith(".html"):
            raise WebError(404, f"no such file: {name!r}")
        return Response(self._static[name], media_type=STATIC_FILES[name])

    async def manifest(self, request: Request) -> Response:
        """``GET /manifest.webmanifest``: what "add to home screen" installs."""
        return Response(
            self._static["manifest.webmanifest"],
            media_type=STATIC_FILES["manifest.webmanifest"],
            headers={"Cache-Control": "no-cache"},
        )

    async def service_worker(self, request: Request) -> Response:
        """``GET /sw.js``: the service worker, from the root so that it serves the whole page."""
        return Response(
            self._static["sw.js"],
            media_type=STATIC_FILES["sw.js"],
            headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
        )

    async def favicon(self, request: Request) -> Response:
        """``GET /favicon.ico``: the icon as a small PNG."""
        data, media = await self._icon(f"icon-{FAVICON_SIZE}.png")
        return Response(data, media_type=media, headers={"Cache-Control": "max-age=86400"})

    async def icon(self, request: Request) -> Response:
        """``GET /icons/icon-{192|512}.png`` and ``/icons/icon.svg``: the app's icons."""
        name = request.path_params["name"]
        allowed = {"icon.svg", *(f"icon-{size}.png" for size in ICON_SIZES)}
        if name not in allowed:
            raise WebError(404, f"no such icon: {name!r} (icons: {', '.join(sorted(allowed))})")
        data, media = await self._icon(name)
        return Response(data, media_type=media, headers={"Cache-Control": "max-age=86400"})

    async def _icon(self, name: str) -> tuple[bytes, str]:
        """An icon, drawn once (the board's own picture, :func:`morris.web.picture.icon_scene`)
        and kept."""
        kept = self._icons.get(name)
        if kept is None:
            from morris.web.picture import icon_scene

            if name.endswith(".svg"):
                kept = (render_svg(icon_scene()).encode(), "image/svg+xml")
            else:
                from morris.web.png import render_png

                size = int(name.removeprefix("icon-").removesuffix(".png"))
                data = await asyncio.get_running_loop().run_in_executor(
                    None, lambda: render_png(icon_scene(), width=size)
                )
                kept = (data, "image/png")
            self._icons[name] = kept
        return kept

    # -- the game ---------------------------------------------------------------------------

    async def state(self, request: Request) -> Response:
        """``GET /api/state``."""
        return JSONResponse(await self.calls.current_state(request))

    async def positions(self, request: Request) -> Response:
        """``GET /api/positions``: the game now, position by position: ``positions[0]`` the
        start, ``positions[k]`` after ``moves[k-1]`` (the page shows one when its turn is tapped
        in the move list)."""

        def replay(controller: Controller, now: float) -> dict[str, Any]:
            board = controller.board.copy()
            moves = [str(m) for m in board.move_stack]
            after = [board.position()]
            while board.move_stack:
                board.pop()
                after.append(board.position())
            after.reverse()
            return {"variant": board.variant_name, "moves": moves, "positions": after}

        return JSONResponse(await self.calls.run(replay))

    async def events(self, request: Request) -> Response:
        """``GET /api/events``: a ``state`` event now and after every change (409 for a paired
        board that cannot be the remote player here: :meth:`Presence.refusal`)."""
        refused = await self.presence.refusal(request)
        if refused is not None:
            raise WebError(409, f"link refused: {refused}")
        stream = await self.hub.stream(
            request,
            sim=self.host.has_hands,
            access=self.calls.access(request),
            flip=request.query_params.get("flip") in ("1", "true"),
            lang=self.calls.language(request),
        )
        return await self.presence.track(request, stream)

    async def press(self, request: Request) -> Response:
        """``POST /api/press/{new|takeback|hint|mode}``: the board's button."""
        button = request.path_params["button"]
        if button not in BUTTONS:
            raise WebError(404, f"no button {button!r} (buttons: {', '.join(BUTTONS)})")
        await self.calls.run(lambda controller, now: controller.on_button(button, now))
        return JSONResponse(await self.calls.current_state(request))

    async def sim_hand(self, request: Request) -> Response:
        """``POST /api/sim/place/{point}`` and ``/api/sim/lift/{point}``."""
        action = request.path_params["action"]
        point = request.path_params["point"].strip().lower()  # D6 as the terminal takes it
        if action not in ("place", "lift"):
            raise WebError(404, f"no such route: {request.method} {request.url.path}")
        if not self.host.has_hands:
            raise WebError(404, "the board is a real one: only a simulated board takes pieces")
        await self.calls.off_loop(lambda: self.host.hand(action, point))
        return JSONResponse(await self.calls.current_state(request))

    # -- games and pictures -----------------------------------------------------------------

    async def game_list(self, request: Request) -> Response:
        """``GET /api/games``."""
        return JSONResponse({"games": await self.calls.off_loop(self.games.listing)})

    async def game_text(self, request: Request) -> Response:
        """``GET /api/games/{id}``: the record, found by id in the listing."""
        game_id = request.path_params["game_id"]
        text = await self.calls.off_loop(lambda: self.games.text(game_id))
        if text is None:
            raise WebError(404, f"no saved game {game_id!r}")
        return Response(text, media_type="text/plain; charset=utf-8")

    async def render(self, request: Request) -> Response:
        """``GET /api/render.svg?position=...&variant=standard&last=d6&flip=1``."""
        try:
            scene = scene_of_query(request.query_params, "/api/render.svg")
        except ValueError as exc:
            raise WebError(400, str(exc)) from None
        return Response(render_svg(scene), media_type="image/svg+xml")


def create_app(host: Host, policy: Policy | None = None) -> Starlette:
    """The companion's ASGI app over ``host``, guarded by ``policy`` (default: loopback)."""
    return Companion(host, policy).app
