"""The companion's puzzle route: ``POST /api/puzzle`` starts a puzzle from the solved game.

The body is JSON, every field optional: ``{"wins_in": 3, "seed": 0, "men": null}``. The puzzle
is made off the event loop and off the controller's thread (sampling takes a moment), then
started on the controller (:meth:`morris.app.controller.Controller.start_puzzle`): the lights
guide the person to set it up. The answer is the new state (its ``puzzle`` field says how the
puzzle stands). Bad input is a 400 naming it; no solved game, or a moment the game cannot take a
puzzle (mode remote), a 409.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from morris.app.errors import InputError, NotNowError
from morris.engine.errors import SolutionError
from morris.i18n import Message, msg
from morris.web.calls import ControllerCalls, WebError, read_json

if TYPE_CHECKING:
    from morris.app.controller import Controller
    from morris.engine.solution import Solution
    from morris.engine.solution.puzzles import Puzzle

logger = logging.getLogger(__name__)

#: The puzzle's length when the body does not say.
DEFAULT_WINS_IN = 3


def routes(calls: ControllerCalls) -> list[Route]:
    """``POST /api/puzzle`` over the controller's ``calls``. The puzzles come from the
    controller's solved game (:meth:`morris.app.controller.Controller.puzzle_source`), the one
    the Pi and the board's own puzzles use: one copy in the process."""

    async def start(request: Request) -> Response:
        """``POST /api/puzzle``."""
        from morris.app.puzzle import make_puzzle

        data = await read_json(request) if await request.body() else {}
        unknown = sorted(set(data) - {"wins_in", "seed", "men"})
        if unknown:
            raise WebError(400, f"unknown field(s) {', '.join(unknown)}: give wins_in, seed, men")
        wins_in, seed, men = (
            data.get("wins_in", DEFAULT_WINS_IN),
            data.get("seed", 0),
            data.get("men"),
        )

        def source(controller: Controller, now: float) -> Solution | Message:
            try:
                return controller.puzzle_source()
            except NotNowError as exc:  # no solved game: say what to build
                return exc.message

        solution = await calls.run(source)
        if isinstance(solution, Message):
            raise WebError(409, solution)
        try:
            puzzle: Puzzle = await asyncio.get_running_loop().run_in_executor(
                None, make_puzzle, solution, wins_in, seed, men
            )
        except InputError as exc:
            raise WebError(400, exc.message) from None
        except SolutionError as exc:  # a damaged file, now dropped from the solution (logged)
            raise WebError(409, msg("no puzzle: {reason}", reason=exc.message)) from None

        def begin(controller: Controller, now: float) -> Message | None:
            try:
                controller.start_puzzle(puzzle, solution, now)
            except NotNowError as exc:
                return exc.message
            return None

        refused = await calls.run(begin)
        if refused is not None:
            raise WebError(409, refused)
        return JSONResponse(await calls.current_state(request))

    return [Route("/api/puzzle", start, methods=["POST"])]
