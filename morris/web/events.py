"""Server-sent events: every change in the controller, to every open page, at once.

One :class:`Hub` subscribes to the controller through the :class:`~morris.web.host.Host` (the
first time a page connects) and keeps it. The controller calls it on its own thread; the hub hands
each snapshot to the web server's event loop (``loop.call_soon_threadsafe``), where every
connected page's queue gets it. A page that reads slowly keeps only the newest snapshot: it never
holds the others up, and never sees a stale state after a fresh one.

The controller publishes a snapshot whenever anything a page shows changes, every sensor reading
among them (:attr:`~morris.app.controller.Snapshot.sensed`): a piece put down or lifted reaches
the pages at once, before the referee has read a turn from it. A snapshot is encoded once for
all the pages that see it alike (the same access, ``flip`` and hands), not once per page: with
fifty pages open a change costs one picture and one JSON text per kind of page.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import StreamingResponse

from morris.app.controller import Snapshot
from morris.web.host import Host
from morris.web.state import state_json

logger = logging.getLogger(__name__)

#: Seconds between keep-alive comments on a quiet stream (proxies and phones drop idle ones).
KEEPALIVE = 15.0
#: How long a page waits before it reconnects after the stream ends (the ``retry:`` field), ms.
RETRY_MS = 1000


def sse(event: str, data: dict[str, Any]) -> bytes:
    """One server-sent event.

    >>> sse("state", {"turn": "white"})
    b'event: state\\ndata: {"turn":"white"}\\n\\n'
    """
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


class Hub:
    """The fan-out of the controller's snapshots to the connected pages."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self._queues: set[asyncio.Queue[Snapshot | None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._subscribed: asyncio.Future[None] | None = None
        self._closing = False
        # The newest snapshot's events, by how a page sees it: encoded once for all alike.
        self._encoded_for: Snapshot | None = None
        self._encoded: dict[tuple[bool, str, bool], bytes] = {}

    @property
    def clients(self) -> int:
        """How many pages are connected."""
        return len(self._queues)

    def _on_snapshot(self, snapshot: Snapshot) -> None:
        """Called by the controller, on its thread: hand over, never wait."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._fan_out, snapshot)

    def close(self) -> None:
        """End every open stream (the server stops); call on the event loop."""
        self._closing = True
        self._fan_out(None)

    def encode(self, snapshot: Snapshot, *, sim: bool, access: str, flip: bool) -> bytes:
        """The ``state`` event of ``snapshot`` for a page with this access, ``flip`` and hands;
        the newest snapshot's events are kept, so pages alike share one (on the event loop)."""
        shared = snapshot is self._encoded_for
        key = (sim, access, flip)
        event = self._encoded.get(key) if shared else None
        if event is None:
            state = state_json(
                snapshot,
                self.host.clock(),
                sim=sim,
                access=access,
                flip=flip,
                present=self.host.present(),
            )
            event = sse("state", state)
            if shared:
                self._encoded[key] = event
        return event

    def _fan_out(self, snapshot: Snapshot | None) -> None:
        self._encoded_for, self._encoded = snapshot, {}
        for queue in self._queues:
            if queue.full():
                queue.get_nowait()  # the page is behind: only the newest state matters
            queue.put_nowait(snapshot)

    async def _subscribe(self) -> None:
        """Subscribe once (the first page), on a worker thread: the call waits for the
        controller's thread."""
        if self._subscribed is None:
            self._loop = asyncio.get_running_loop()
            self._subscribed = self._loop.create_future()
            try:
                await self._loop.run_in_executor(None, self.host.subscribe, self._on_snapshot)
            except BaseException as exc:
                self._subscribed.set_exception(exc)
                self._subscribed = None
                raise
            self._subscribed.set_result(None)
        await asyncio.shield(self._subscribed)

    async def stream(
        self, request: Request, *, sim: bool, access: str, flip: bool
    ) -> StreamingResponse:
        """The event stream of one page: its state now, then one ``state`` per change."""
        await self._subscribe()
        queue: asyncio.Queue[Snapshot | None] = asyncio.Queue(maxsize=1)
        self._queues.add(queue)
        try:
            first = await asyncio.get_running_loop().run_in_executor(None, self.host.snapshot)
        except BaseException:
            self._queues.discard(queue)
            raise

        def encode(snapshot: Snapshot) -> bytes:
            return self.encode(snapshot, sim=sim, access=access, flip=flip)

        async def events() -> AsyncIterator[bytes]:
            try:
                yield f"retry: {RETRY_MS}\n\n".encode() + encode(first)
                while True:
                    try:
                        snapshot = await asyncio.wait_for(queue.get(), KEEPALIVE)
                    except TimeoutError:
                        if await request.is_disconnected():
                            return
                        yield b": keep-alive\n\n"
                        continue
                    if snapshot is None or self._closing:
                        return
                    yield encode(snapshot)
            finally:
                self._queues.discard(queue)

        return StreamingResponse(
            events(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )
