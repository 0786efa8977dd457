"""Server-sent events: every change in the controller, to every open page, at once.

One :class:`Hub` subscribes to the controller through the :class:`~morris.web.host.Host` (the
first time a page connects) and keeps it. The controller calls it on its own thread; the hub hands
each snapshot to the web server's event loop (``loop.call_soon_threadsafe``), where every
connected page's queue gets it. A page that reads slowly keeps only the newest snapshot: it never
holds the others up, and never sees a stale state after a fresh one.

The controller publishes a snapshot whenever anything a page shows changes, every sensor reading
among them (:attr:`~morris.app.snapshot.Snapshot.sensed`): a piece put down or lifted reaches
the pages at once, before the referee has read a turn from it. A snapshot is encoded once for
all the pages that see it alike (the same access, ``flip`` and hands), not once per page: with
fifty pages open a change costs one picture and one JSON text per kind of page.

Each page reads its own language (:func:`morris.web.language.request_language`), and every text
the server renders for it (the event line, the solved value's words) is in that language: a kind
of page is its access, ``flip``, hands and language, so fifty pages in two languages cost two
encodings of a change, not fifty.

What the board says aloud (:class:`~morris.app.narration.Announcement`, the same the daemon's
speech says) reaches the pages as an ``announcement`` event: ``{"id", "kind", "rank", "text",
"lang"}``, the text in the page's language and ``lang`` its BCP-47 tag for the browser's speech
synthesis (``fi-FI``); ``id`` counts up from 1 in the server's life, ``rank`` is the kind's (a
newer one of a higher rank cuts an older one, as the board's own queue does). The hub listens to
the controller's announcements from the first page on; a page gets those made while it is
connected (a page that reads slowly keeps the newest few).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import StreamingResponse

from morris import i18n
from morris.app.narration import Announcement
from morris.app.snapshot import Snapshot
from morris.web.host import Host
from morris.web.language import SPEECH_TAGS
from morris.web.state import state_json

logger = logging.getLogger(__name__)

#: Seconds between keep-alive comments on a quiet stream (proxies and phones drop idle ones).
KEEPALIVE = 15.0
#: How long a page waits before it reconnects after the stream ends (the ``retry:`` field), ms.
RETRY_MS = 1000
#: How many announcements wait at most for a page that reads slowly (the oldest go first).
ANNOUNCEMENTS_KEPT = 4


def sse(event: str, data: dict[str, Any]) -> bytes:
    """One server-sent event.

    >>> sse("state", {"turn": "white"})
    b'event: state\\ndata: {"turn":"white"}\\n\\n'
    """
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


class Outbox:
    """What one page has yet to be sent: the newest snapshot (an older one is stale) and the
    announcements made since it read last (the newest :data:`ANNOUNCEMENTS_KEPT`)."""

    def __init__(self) -> None:
        self.snapshot: Snapshot | None = None
        self.announcements: deque[tuple[int, Announcement]] = deque(maxlen=ANNOUNCEMENTS_KEPT)
        self.closed = False
        self.ready = asyncio.Event()

    def put_snapshot(self, snapshot: Snapshot) -> None:
        """Hand over ``snapshot`` (it replaces one not sent yet)."""
        self.snapshot = snapshot
        self.ready.set()

    def put_announcement(self, number: int, announcement: Announcement) -> None:
        """Hand over announcement ``number``."""
        self.announcements.append((number, announcement))
        self.ready.set()

    def close(self) -> None:
        """End the page's stream."""
        self.closed = True
        self.ready.set()

    def take(self) -> tuple[Snapshot | None, list[tuple[int, Announcement]]]:
        """What is waiting, emptied."""
        snapshot, self.snapshot = self.snapshot, None
        announcements = list(self.announcements)
        self.announcements.clear()
        self.ready.clear()
        return snapshot, announcements


class Hub:
    """The fan-out of the controller's snapshots and announcements to the connected pages."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self._outboxes: set[Outbox] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._subscribed: asyncio.Future[None] | None = None
        self._closing = False
        # The newest snapshot's events, by how a page sees it: encoded once for all alike.
        self._encoded_for: Snapshot | None = None
        self._encoded: dict[tuple[bool, str, bool, str], bytes] = {}
        # The announcements so far, and the newest one's events by language.
        self._announced = 0
        self._spoken: dict[tuple[int, str], bytes] = {}

    @property
    def clients(self) -> int:
        """How many pages are connected."""
        return len(self._outboxes)

    def _on_snapshot(self, snapshot: Snapshot) -> None:
        """Called by the controller, on its thread: hand over, never wait."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._fan_out, snapshot)

    def _on_announcement(self, announcement: Announcement) -> None:
        """Called by the controller, on its thread, for each thing the board says."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._announce, announcement)

    def close(self) -> None:
        """End every open stream (the server stops); call on the event loop."""
        self._closing = True
        for outbox in self._outboxes:
            outbox.close()

    def encode(
        self, snapshot: Snapshot, *, sim: bool, access: str, flip: bool, lang: str | None = None
    ) -> bytes:
        """The ``state`` event of ``snapshot`` for a page with this access, ``flip``, hands and
        language; the newest snapshot's events are kept, so pages alike share one (on the event
        loop)."""
        shared = snapshot is self._encoded_for
        key = (sim, access, flip, lang or "")
        event = self._encoded.get(key) if shared else None
        if event is None:
            state = state_json(
                snapshot,
                self.host.clock(),
                sim=sim,
                access=access,
                flip=flip,
                on_wood=self.host.on_wood(),
                lang=lang,
            )
            event = sse("state", state)
            if shared:
                self._encoded[key] = event
        return event

    def encode_announcement(self, number: int, announcement: Announcement, lang: str) -> bytes:
        """The ``announcement`` event of announcement ``number`` in language ``lang`` (the
        newest one's are kept, one per language)."""
        key = (number, lang)
        event = self._spoken.get(key)
        if event is None:
            event = sse(
                "announcement",
                {
                    "id": number,
                    "kind": announcement.kind.label,
                    "rank": announcement.rank,
                    "text": announcement.message.render(lang),
                    "lang": SPEECH_TAGS.get(lang, lang),
                },
            )
            if number == self._announced:
                if any(n != number for n, _ in self._spoken):
                    self._spoken = {}
                self._spoken[key] = event
        return event

    def _fan_out(self, snapshot: Snapshot | None) -> None:
        if snapshot is None:
            self.close()
            return
        self._encoded_for, self._encoded = snapshot, {}
        for outbox in self._outboxes:
            outbox.put_snapshot(snapshot)  # a page behind gets only the newest state

    def _announce(self, announcement: Announcement) -> None:
        self._announced += 1
        for outbox in self._outboxes:
            outbox.put_announcement(self._announced, announcement)

    async def _subscribe(self) -> None:
        """Subscribe once (the first page), on a worker thread: the call waits for the
        controller's thread."""
        if self._subscribed is None:
            self._loop = asyncio.get_running_loop()
            self._subscribed = self._loop.create_future()
            try:
                await self._loop.run_in_executor(None, self.host.subscribe, self._on_snapshot)
                await self._loop.run_in_executor(
                    None, self.host.on_announcement, self._on_announcement
                )
            except BaseException as exc:
                self._subscribed.set_exception(exc)
                self._subscribed = None
                raise
            self._subscribed.set_result(None)
        await asyncio.shield(self._subscribed)

    async def stream(
        self, request: Request, *, sim: bool, access: str, flip: bool, lang: str | None = None
    ) -> StreamingResponse:
        """The event stream of one page: its state now, then one ``state`` per change and one
        ``announcement`` for each thing the board says, in the page's language ``lang``."""
        await self._subscribe()
        outbox = Outbox()
        self._outboxes.add(outbox)
        try:
            first = await asyncio.get_running_loop().run_in_executor(None, self.host.snapshot)
        except BaseException:
            self._outboxes.discard(outbox)
            raise
        spoken = lang or i18n.language()

        def encode(snapshot: Snapshot) -> bytes:
            return self.encode(snapshot, sim=sim, access=access, flip=flip, lang=lang)

        async def events() -> AsyncIterator[bytes]:
            try:
                yield f"retry: {RETRY_MS}\n\n".encode() + encode(first)
                while True:
                    try:
                        await asyncio.wait_for(outbox.ready.wait(), KEEPALIVE)
                    except TimeoutError:
                        if await request.is_disconnected():
                            return
                        yield b": keep-alive\n\n"
                        continue
                    if outbox.closed or self._closing:
                        return
                    snapshot, announcements = outbox.take()
                    chunk = b"" if snapshot is None else encode(snapshot)
                    for number, announcement in announcements:
                        chunk += self.encode_announcement(number, announcement, spoken)
                    if chunk:
                        yield chunk
            finally:
                self._outboxes.discard(outbox)

        return StreamingResponse(
            events(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )
