"""The companion's review of saved games and its PNG pictures: ``/review``,
``GET /api/games/{id}/review`` and ``GET /api/render.png``.

A review (:mod:`morris.app.review`) takes seconds on a Pi, so it never runs on the event loop or
the controller's thread: :class:`Reviewer` computes one review at a time on a worker thread of its
own (the C search lets go of the interpreter lock while it searches, so the daemon's loop runs
beside it) and keeps the answers in memory, the newest :data:`KEPT_REVIEWS`, keyed by the record's
text (a game's review is computed once). At most :data:`MAX_WAITING` games wait for a review;
more are refused (503) until one is done.

``GET /api/games/{id}/review`` answers the review's JSON (:meth:`Review.to_json`, plus ``id``
and ``status: "done"``) when it is done, waiting for it; with ``?wait=0`` it answers at once
while the review runs: ``202``, ``status: "running"``, ``done`` and ``total`` (positions
searched, of), and the turns with their positions but no scores yet. A record that cannot be
reviewed is a 422 naming the problem, an unknown id a 404.

``GET /api/games/{id}/chart.svg`` and ``chart.png`` (``?width=``; ``?turn=`` for the cursor in
the SVG) are the game's graph (:mod:`morris.web.chart`) of the finished review, waiting for it
as the review does: the page draws it under the board, and the PNG shares it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import logging
import queue
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, cast

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from morris.app.errors import ReviewError
from morris.web.games import GameList
from morris.web.host import HostError
from morris.web.language import request_language
from morris.web.picture import scene_of_query

if TYPE_CHECKING:
    from morris.app.values import ValueJson
    from morris.engine.solution import Solution
    from morris.engine.tables import EndgameTables

logger = logging.getLogger(__name__)

#: The reviews kept in memory (a review of 200 turns is some 80 KB of JSON).
KEPT_REVIEWS: Final = 16
#: Games that may wait for their review at once.
MAX_WAITING: Final = 4

Review = dict[str, Any]
ReviewFunction = Callable[..., Review]


def _review_json(
    text: str,
    *,
    tables: EndgameTables | None,
    progress: Callable[[int, int], None],
    stop: Callable[[], bool],
    solution: Solution | None = None,
) -> Review:
    """The review of a record's text as JSON (what the worker runs)."""
    from morris.app.review import review_text

    review = review_text(text, tables=tables, solution=solution, progress=progress, stop=stop)
    return review.to_json()


def in_language(review: Review, code: str) -> Review:
    """``review`` (its JSON) with the solved values' words (``text``) in language ``code``: a
    review is made once, in the board's language, and each page reads it in its own."""
    from morris.app.values import value_words

    def value(v: Any) -> Any:
        if not isinstance(v, dict):
            return v
        return {**v, "text": value_words(cast("ValueJson", v)).render(code)}

    turns = [
        {
            **turn,
            "solution_before": value(turn.get("solution_before")),
            "solution_after": value(turn.get("solution_after")),
        }
        if isinstance(turn, dict)
        else turn
        for turn in review.get("turns") or []
    ]
    return {**review, "turns": turns}


def _language(request: Request) -> str:
    return request_language(request.query_params, request.cookies, request.headers)


def _outline_json(text: str, solution: Solution | None = None) -> Review:
    """The turns and positions of a record's text, without the engine (with the solved game's
    values, which take milliseconds)."""
    from morris.app.review import review_text

    return review_text(text, search=False, solution=solution).to_json()


class _Job:
    """One game waiting for (or under) review."""

    def __init__(self, key: str, text: str) -> None:
        self.key = key
        self.text = text
        self.future: concurrent.futures.Future[Review] = concurrent.futures.Future()
        self.done = 0
        self.total = 0


class Reviewer:
    """Reviews game records on one worker thread and keeps the newest answers.

    ``tables_dir`` is where the endgame tables are (default: the data directory,
    :func:`morris.app.paths.tables_dir`), ``solution_dir`` the solved game (default:
    :func:`morris.app.paths.solution_dir`); they are opened with the first review, the solved
    game from ``solution_source`` when it gives one (the controller's, so the process maps it
    once). ``review`` is the function that reviews a text (tests give a quick one).
    """

    def __init__(
        self,
        *,
        tables_dir: Path | None = None,
        solution_dir: Path | None = None,
        solution_source: Callable[[], Solution | None] | None = None,
        review: ReviewFunction = _review_json,
        kept: int = KEPT_REVIEWS,
        max_waiting: int = MAX_WAITING,
    ) -> None:
        self._tables_dir = tables_dir
        self._tables: EndgameTables | None = None
        self._tables_loaded = False
        self._solution_dir = solution_dir
        self._solution_source = solution_source
        self._solution: Solution | None = None
        self._solution_loaded = False
        self._review = review
        self._kept = kept
        self._max_waiting = max_waiting
        self._answers: OrderedDict[str, concurrent.futures.Future[Review]] = OrderedDict()
        self._jobs: dict[str, _Job] = {}
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._lock = threading.Lock()
        self._closed = False
        self._thread: threading.Thread | None = None

    def submit(self, text: str) -> tuple[concurrent.futures.Future[Review], _Job | None]:
        """The future review of ``text`` (done at once if it was reviewed before) and its job
        while it waits or runs. Raises :class:`ReviewError` when too many games wait."""
        key = hashlib.sha256(text.encode()).hexdigest()
        with self._lock:
            answer = self._answers.get(key)
            if answer is not None:
                self._answers.move_to_end(key)
                return answer, None
            job = self._jobs.get(key)
            if job is not None:
                return job.future, job
            if self._closed:
                raise ReviewError("the companion is stopping: no more reviews")
            if len(self._jobs) >= self._max_waiting:
                raise ReviewError(
                    f"{len(self._jobs)} games are being reviewed already: ask again in a while"
                )
            job = _Job(key, text)
            self._jobs[key] = job
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._work, name="morris-review", daemon=True
                )
                self._thread.start()
        self._queue.put(job)
        return job.future, job

    def _tables_for_review(self) -> EndgameTables | None:
        if not self._tables_loaded:
            from morris.app.jobs import load_tables

            self._tables = load_tables(self._tables_dir)
            self._tables_loaded = True
        return self._tables

    def solution(self) -> Solution | None:
        """The solved game the reviews use (loaded at the first call), or None."""
        with self._lock:
            if not self._solution_loaded:
                from morris.app.jobs import load_solution

                if self._solution_source is not None:
                    try:
                        self._solution = self._solution_source()
                    except HostError as exc:
                        logger.warning("the review opens its own solved game: %s", exc)
                if self._solution is None:
                    self._solution = load_solution(self._solution_dir)
                self._solution_loaded = True
            return self._solution

    def _work(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return

            def progress(done: int, total: int, job: _Job = job) -> None:
                job.done, job.total = done, total

            try:
                answer = self._review(
                    job.text,
                    tables=self._tables_for_review(),
                    solution=self.solution(),
                    progress=progress,
                    stop=lambda: self._closed,
                )
            except Exception as exc:  # handed to whoever waits; a ReviewError names the record
                if not isinstance(exc, ReviewError):
                    logger.exception("the review failed")
                self._keep(job)
                job.future.set_exception(exc)
            else:
                self._keep(job)
                job.future.set_result(answer)

    def _keep(self, job: _Job) -> None:
        """Keep ``job``'s answer (before anyone hears of it: a request that follows the answer
        must find it kept), forgetting the oldest beyond :data:`KEPT_REVIEWS`."""
        with self._lock:
            self._jobs.pop(job.key, None)
            self._answers[job.key] = job.future
            while len(self._answers) > self._kept:
                self._answers.popitem(last=False)

    def close(self) -> None:
        """Stop: the running review ends at its next position, waiting ones are dropped."""
        with self._lock:
            self._closed = True
        self._queue.put(None)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def routes(games: GameList, reviewer: Reviewer | None = None) -> list[Route]:
    """The review's and the PNG's routes over the companion's saved ``games``, reviewed by
    ``reviewer``."""
    handlers = _Reviews(games, reviewer or Reviewer())
    return [
        Route("/api/games/{game_id}/review", handlers.review, methods=["GET"]),
        Route("/api/games/{game_id}/chart.svg", handlers.chart_svg, methods=["GET"]),
        Route("/api/games/{game_id}/chart.png", handlers.chart_png, methods=["GET"]),
        Route("/api/render.png", handlers.render_png, methods=["GET"]),
    ]


class _Reviews:
    """The handlers of :func:`routes`: the saved games, the reviewer, one PNG drawn at a time."""

    def __init__(self, games: GameList, reviewer: Reviewer) -> None:
        self.games = games
        self.reviewer = reviewer
        # One PNG drawn at a time: each takes a few megabytes while it is drawn.
        self._drawing = threading.Lock()

    async def _finished(self, game_id: str) -> Review | JSONResponse:
        """The finished review of game ``game_id`` (waited for), or the error response."""
        text = await asyncio.get_running_loop().run_in_executor(None, self.games.text, game_id)
        if text is None:
            return _error(404, f"no saved game {game_id!r}")
        try:
            future, _ = self.reviewer.submit(text)
        except ReviewError as exc:
            return _error(503, str(exc))
        try:
            return await asyncio.wrap_future(future)
        except ReviewError as exc:
            return _error(422, f"game {game_id!r} cannot be reviewed: {exc}")

    async def review(self, request: Request) -> Response:
        """``GET /api/games/{id}/review[?wait=0]``."""
        game_id = request.path_params["game_id"]
        loop = asyncio.get_running_loop()
        text = await loop.run_in_executor(None, self.games.text, game_id)
        if text is None:
            return _error(404, f"no saved game {game_id!r}")
        try:
            future, job = self.reviewer.submit(text)
        except ReviewError as exc:
            return _error(503, str(exc))
        if not future.done() and request.query_params.get("wait") in ("0", "false"):
            # The turns and positions at once (milliseconds), so the page can step through the
            # game while the engine works.
            try:
                solution = await loop.run_in_executor(None, self.reviewer.solution)
                outline = await loop.run_in_executor(None, _outline_json, text, solution)
            except ReviewError as exc:
                return _error(422, f"game {game_id!r} cannot be reviewed: {exc}")
            done, total = (job.done, job.total) if job is not None else (0, 0)
            return JSONResponse(
                {
                    **in_language(outline, _language(request)),
                    "id": game_id,
                    "status": "running",
                    "done": done,
                    "total": total,
                },
                status_code=202,
            )
        answer = await self._finished(game_id)
        if isinstance(answer, JSONResponse):
            return answer
        return JSONResponse(
            {**in_language(answer, _language(request)), "id": game_id, "status": "done"}
        )

    async def chart_svg(self, request: Request) -> Response:
        """``GET /api/games/{id}/chart.svg[?turn=k&width=w]``: the game's graph, its cursor on
        turn ``k`` (0 the start), ``w`` units wide (default 720: a page gives its own width)."""
        from morris.web.chart import WIDTH, chart_of_review, render_chart_svg

        query = request.query_params
        turn = query.get("turn")
        if turn is not None and not turn.isdigit():
            return _error(400, f"turn must be a turn's number (0 the start), not {turn!r}")
        try:
            width = float(query.get("width", WIDTH))
        except ValueError:
            return _error(400, f"width must be a number, not {query.get('width')!r}")
        answer = await self._finished(request.path_params["game_id"])
        if isinstance(answer, JSONResponse):
            return answer
        try:
            chart = chart_of_review(answer, width=width, lang=_language(request))
        except ValueError as exc:
            return _error(400, str(exc))
        svg = render_chart_svg(chart, cursor=None if turn is None else int(turn))
        return Response(svg, media_type="image/svg+xml")

    async def chart_png(self, request: Request) -> Response:
        """``GET /api/games/{id}/chart.png[?width=720]``: the game's graph as PNG."""
        from morris.web.chart import chart_of_review
        from morris.web.png import DEFAULT_WIDTH, render_chart_png

        query = request.query_params
        try:
            width = int(query.get("width", DEFAULT_WIDTH))
        except ValueError:
            return _error(400, f"width must be a number of pixels, not {query.get('width')!r}")
        answer = await self._finished(request.path_params["game_id"])
        if isinstance(answer, JSONResponse):
            return answer
        chart = chart_of_review(answer, lang=_language(request))

        def draw() -> bytes:
            with self._drawing:
                return render_chart_png(chart, width=width)

        try:
            data = await asyncio.get_running_loop().run_in_executor(None, draw)
        except ValueError as exc:
            return _error(400, str(exc))
        return Response(data, media_type="image/png")

    async def render_png(self, request: Request) -> Response:
        """``GET /api/render.png?position=...&variant=standard&last=d6&flip=1&width=720``."""
        from morris.web.png import DEFAULT_WIDTH, render_png

        query = request.query_params
        try:
            width = int(query.get("width", DEFAULT_WIDTH))
        except ValueError:
            return _error(400, f"width must be a number of pixels, not {query.get('width')!r}")
        try:
            scene = scene_of_query(query, "/api/render.png")
        except ValueError as exc:
            return _error(400, str(exc))

        def draw() -> bytes:
            with self._drawing:
                return render_png(scene, width=width)

        try:
            data = await asyncio.get_running_loop().run_in_executor(None, draw)
        except ValueError as exc:
            return _error(400, str(exc))
        return Response(data, media_type="image/png")
