"""Serving the companion: uvicorn on a thread of its own, beside the controller's loop.

:func:`start_companion` binds the listener at once (a port in use is a :class:`ListenError`
before anything else starts), makes the tokens for a listener beyond loopback, prints the
address (and the token links with a QR code of the control link) and starts the server thread.
uvicorn runs plain (h11, the asyncio loop: no uvloop or httptools), which is light enough for a Pi
Zero 2 W. :meth:`CompanionServer.stop` ends it.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import io
import logging
import socket
import sys
import threading
from pathlib import Path
from typing import TextIO

import uvicorn

from morris.app.config import Config, parse_listen
from morris.app.errors import ServiceError
from morris.web.app import Companion
from morris.web.host import Host
from morris.web.security import Policy, Tokens, is_loopback, load_tokens

logger = logging.getLogger(__name__)

#: How long :meth:`CompanionServer.stop` waits for the server thread, seconds.
STOP_TIMEOUT = 5.0


class ListenError(ServiceError, OSError):
    """The companion cannot listen where it was told to (the port is in use, say)."""


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port``. Raises :class:`ListenError` naming them."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ListenError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock: socket.socket | None = None
    try:
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(64)
    except OSError as exc:
        if sock is not None:
            sock.close()
        why = exc.strerror or str(exc)
        if exc.errno == errno.EADDRINUSE:
            why = "the port is in use"
        elif exc.errno in (errno.EAFNOSUPPORT, errno.EPERM, errno.EACCES):
            why += (
                " (as a service: run `sudo morris install-service` again after changing [web], "
                "so that its unit allows the listener)"
            )
        raise ListenError(f"cannot listen on {host}:{port}: {why}") from None
    sock.set_inheritable(True)
    return sock


def url_of(host: str, port: int) -> str:
    """The address a browser opens for a listener on ``host:port`` (a wildcard listener's
    own name for this machine).

    >>> url_of("127.0.0.1", 8700), url_of("::1", 80)
    ('http://127.0.0.1:8700/', 'http://[::1]:80/')
    """
    if host in ("0.0.0.0", "::", ""):
        host = _lan_address() or socket.gethostname()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def _lan_address() -> str | None:
    """This machine's address on the local network (the one a route outwards would use)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET: nothing is sent by a UDP connect
        return str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()


def qr_text(link: str) -> str:
    """A QR code of ``link`` for a terminal (segno, compact)."""
    import segno

    out = io.StringIO()
    segno.make(link, error="l").terminal(out=out, compact=True)
    return out.getvalue()


class CompanionServer:
    """The companion's uvicorn server on its own thread."""

    def __init__(self, companion: Companion, sock: socket.socket, url: str) -> None:
        self.companion = companion
        self.url = url
        self._socket = sock
        config = uvicorn.Config(
            companion.app,
            loop="asyncio",
            http="h11",
            ws="none",
            lifespan="off",
            access_log=False,
            log_level="warning",
            log_config=None,  # the command line sets up logging, not uvicorn
            timeout_graceful_shutdown=1,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._serve, name="morris-web", daemon=True)
        self._loop: asyncio.AbstractEventLoop | None = None

    def _serve(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception:
            logger.exception("the web companion stopped")

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        await self._server.serve(sockets=[self._socket])

    def start(self) -> None:
        """Start serving."""
        self._thread.start()

    @property
    def started(self) -> bool:
        """Whether uvicorn is up."""
        return bool(self._server.started)

    def stop(self) -> None:
        """Stop serving (open event streams are closed). Safe to call twice."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            # Open event streams end first: uvicorn's shutdown waits for running responses.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.companion.hub.close)
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(STOP_TIMEOUT)
        self._socket.close()


def start_configured_companion(
    host: Host, config: Config, *, state_dir: Path | None
) -> CompanionServer:
    """:func:`start_companion` as the configuration says: on ``web.listen``, the reviews with
    the configured endgame tables and solved game (what ``morris run`` and ``morris sim``
    serve)."""
    return start_companion(
        host,
        config.web.listen,
        state_dir=state_dir,
        tables_dir=config.tables_dir(),
        solution_dir=config.solution_dir(),
    )


def start_companion(
    host: Host,
    listen: str,
    *,
    state_dir: Path | None,
    out: TextIO | None = None,
    tokens: Tokens | None = None,
    tables_dir: Path | None = None,
    solution_dir: Path | None = None,
) -> CompanionServer:
    """Serve the companion over ``host`` on ``listen`` (``HOST:PORT``) and say where.

    ``tables_dir`` is where the review finds the endgame tables (the config's ``engine.tables``;
    ``None``: the data directory), ``solution_dir`` the solved game (``engine.solution``).

    Beyond loopback the tokens are ``tokens`` or those kept in ``state_dir``
    (:func:`morris.web.security.load_tokens`). Raises :class:`ListenError` (or a
    :class:`~morris.app.errors.ConfigError` for a bad ``listen``) before anything is served.
    """
    out = out if out is not None else sys.stdout
    address, port = parse_listen(listen)
    sock = bind(address, port)
    port = sock.getsockname()[1]  # port 0: the one the system chose
    if not is_loopback(address) and tokens is None:
        try:
            tokens = load_tokens(state_dir)
        except Exception:
            sock.close()
            raise
    policy = Policy(host=address, port=port, tokens=None if is_loopback(address) else tokens)
    url = url_of(address, port)
    server = CompanionServer(
        Companion(host, policy, tables_dir=tables_dir, solution_dir=solution_dir), sock, url
    )
    server.start()
    logger.info("web companion on %s", url)
    if policy.tokens is None:
        print(f"morris: web companion on {url}", file=out, flush=True)
    else:
        control = f"{url}?token={policy.tokens.control}"
        watch = f"{url}?token={policy.tokens.watch}"
        print(
            f"morris: web companion on {url}\n"
            f"  control (keep it to yourself): {control}\n"
            f"  watch (spectators, read-only): {watch}\n"
            f"  scan to control from a phone:\n{qr_text(control)}",
            file=out,
            flush=True,
        )
    return server
