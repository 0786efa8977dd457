"""Who may do what on the companion: tokens, origins, request sizes and rates.

* On a loopback listener (the default, ``127.0.0.1:8700``) only this machine reaches the page:
  no token is asked for, but the ``Host`` header must name the loopback listener (a web page
  elsewhere cannot reach it by pointing a name of its own at 127.0.0.1).
* Beyond loopback every ``/api`` request needs a token: the **control** token for writes
  (``POST``) and reads, the **watch** token (spectators) for reads only. Tokens are made with
  :mod:`secrets`, kept in the state directory (:data:`TOKENS_FILE`, mode 0600) and compared in
  constant time (:func:`hmac.compare_digest`). A token comes as ``Authorization: Bearer ...``,
  as ``?token=...`` or in the ``morris_token`` cookie that the page link sets.
* Everywhere: a request whose ``Origin`` is not the page's own is refused (403); there are no CORS
  headers; a body over :data:`MAX_BODY` bytes is refused (413); writes are limited per client
  (429, :class:`RateLimiter`).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from morris.app.errors import ServiceError

logger = logging.getLogger(__name__)

#: The tokens' file in the state directory.
TOKENS_FILE = "web-tokens.json"
#: The cookie the page link sets.
COOKIE = "morris_token"
#: The largest request body taken, bytes.
MAX_BODY = 16 * 1024
#: Writes per client: a burst of this many ...
RATE_BURST = 30
#: ... refilled at this many per second.
RATE_PER_SECOND = 10.0
#: How many clients the rate limiter remembers.
RATE_CLIENTS = 256

CONTROL = "control"
WATCH = "watch"

Scope = dict[str, Any]
Receive = Callable[[], Any]
Send = Callable[[dict[str, Any]], Any]
ASGIApp = Callable[[Scope, Receive, Send], Any]


class TokenError(ServiceError, OSError):
    """The tokens' file cannot be read or written."""


@dataclass(frozen=True)
class Tokens:
    """The two tokens of a listener beyond loopback."""

    control: str
    watch: str

    @classmethod
    def generate(cls) -> Tokens:
        """Two fresh random tokens."""
        return cls(secrets.token_urlsafe(24), secrets.token_urlsafe(24))


def load_tokens(state_dir: Path | None) -> Tokens:
    """The tokens kept in ``state_dir`` (made and saved there the first time); fresh ones,
    kept nowhere, without a state directory. Raises :class:`TokenError`."""
    if state_dir is None:
        return Tokens.generate()
    path = Path(state_dir) / TOKENS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        tokens = Tokens(str(data["control"]), str(data["watch"]))
        if len(tokens.control) >= 16 and len(tokens.watch) >= 16:
            return tokens
        logger.warning("%s holds tokens too short; making new ones", path)
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError, TypeError) as exc:
        logger.warning("cannot read the tokens in %s (%s); making new ones", path, exc)
    tokens = Tokens.generate()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"control": tokens.control, "watch": tokens.watch}, handle)
    except OSError as exc:
        raise TokenError(f"cannot keep the web tokens in {path}: {exc.strerror}") from None
    logger.info("new web tokens kept in %s", path)
    return tokens


def is_loopback(host: str) -> bool:
    """Whether listening on ``host`` reaches only this machine.

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass
class RateLimiter:
    """A token bucket per client: :data:`RATE_BURST` writes at once, then
    :data:`RATE_PER_SECOND` a second."""

    burst: float = RATE_BURST
    per_second: float = RATE_PER_SECOND
    clock: Callable[[], float] = time.monotonic
    _buckets: OrderedDict[str, tuple[float, float]] = field(default_factory=OrderedDict)

    def allow(self, client: str) -> bool:
        """Whether ``client`` may write now (and count it)."""
        now = self.clock()
        level, then = self._buckets.pop(client, (self.burst, now))
        level = min(self.burst, level + (now - then) * self.per_second)
        allowed = level >= 1.0
        self._buckets[client] = (level - 1.0 if allowed else level, now)
        while len(self._buckets) > RATE_CLIENTS:
            self._buckets.popitem(last=False)
        return allowed


@dataclass
class Policy:
    """The rules of one listener (see the module's docstring)."""

    host: str = "127.0.0.1"
    port: int = 8700
    #: ``None`` on loopback: no token is needed there.
    tokens: Tokens | None = None
    max_body: int = MAX_BODY
    limiter: RateLimiter = field(default_factory=RateLimiter)

    @property
    def loopback(self) -> bool:
        """Whether the listener is on loopback."""
        return is_loopback(self.host)

    def allowed_hosts(self) -> frozenset[str] | None:
        """The ``Host`` headers taken, or ``None`` for any (beyond loopback, where the token
        guards)."""
        if not self.loopback:
            return None
        return frozenset(f"{name}:{self.port}" for name in ("127.0.0.1", "localhost", "[::1]"))

    def access(self, presented: list[str]) -> str | None:
        """``"control"``, ``"watch"`` or ``None`` for the tokens ``presented``."""
        if self.tokens is None:
            return CONTROL
        found = None
        for token in presented:
            # Both compared every time, in constant time: the answer's timing tells nothing.
            is_control = hmac.compare_digest(token.encode(), self.tokens.control.encode())
            is_watch = hmac.compare_digest(token.encode(), self.tokens.watch.encode())
            if is_control:
                return CONTROL
            if is_watch:
                found = WATCH
        return found


def _headers(scope: Scope) -> dict[str, str]:
    headers: dict[str, str] = {}
    for key, value in scope.get("headers", []):
        headers.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
    return headers


def presented_tokens(scope: Scope) -> list[str]:
    """The tokens a request carries: its bearer header, ``?token=`` and the cookie."""
    headers = _headers(scope)
    tokens = []
    auth = headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        tokens.append(auth[7:].strip())
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    tokens += query.get("token", [])[:1]
    if "cookie" in headers:
        cookie: SimpleCookie = SimpleCookie()
        try:
            cookie.load(headers["cookie"])
        except Exception:  # a malformed cookie header carries no token
            cookie = SimpleCookie()
        if COOKIE in cookie:
            tokens.append(cookie[COOKIE].value)
    return [t for t in tokens if t]


async def _json_error(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


#: Headers on every response: no sniffing, no referrer (a token may be in the URL), no
#: framing, and only the page's own scripts.
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        b"default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        b"frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
]


class SecurityMiddleware:
    """The ASGI middleware that enforces a :class:`Policy` before any route runs.

    It puts the request's access (``"control"``, ``"watch"`` or ``None``) in the scope's
    ``state`` (``request.state.access``).
    """

    def __init__(self, app: ASGIApp, policy: Policy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the request; refuse it with a JSON error, or pass it on."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = self.policy
        headers = _headers(scope)
        path: str = scope.get("path", "")
        method: str = scope.get("method", "GET")
        host = headers.get("host", "")
        allowed = policy.allowed_hosts()
        if allowed is not None and host not in allowed:
            await _json_error(send, 403, f"unknown host {host!r}: use http://{min(allowed)}/")
            return
        origin = headers.get("origin")
        if origin is not None and origin != f"http://{host}":
            await _json_error(send, 403, f"foreign origin {origin!r} refused")
            return
        access = policy.access(presented_tokens(scope))
        scope.setdefault("state", {})["access"] = access
        is_api = path.startswith("/api/")
        writes = method not in ("GET", "HEAD", "OPTIONS")
        if is_api and access is None:
            await _json_error(send, 401, "a token is needed: open the link shown at start")
            return
        if is_api and writes and access != CONTROL:
            await _json_error(send, 403, "the spectator link is read-only")
            return
        if writes:
            client = (scope.get("client") or ("?", 0))[0]
            if not policy.limiter.allow(str(client)):
                await _json_error(send, 429, "too many requests: slow down")
                return
        bounded = await self._bounded(scope, receive, send, headers)
        if bounded is None:
            return

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, bounded, send_with_headers)

    async def _bounded(
        self, scope: Scope, receive: Receive, send: Send, headers: dict[str, str]
    ) -> Receive | None:
        """A ``receive`` that replays the body, read whole here if it is small enough; ``None``
        after refusing one too large (413)."""
        limit = self.policy.max_body
        declared = headers.get("content-length")
        if declared is not None:
            if not declared.isdigit():
                await _json_error(send, 400, f"bad Content-Length {declared!r}")
                return None
            if int(declared) > limit:
                await _json_error(send, 413, f"request body over {limit} bytes")
                return None
        if scope.get("method") in ("GET", "HEAD") and declared is None:
            return receive
        body = b""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if len(body) > limit:
                await _json_error(send, 413, f"request body over {limit} bytes")
                return None
            if not message.get("more_body"):
                break
        done = False

        async def replay() -> dict[str, Any]:
            nonlocal done
            if not done:
                done = True
                return {"type": "http.request", "body": body, "more_body": False}
            result: dict[str, Any] = await receive()
            return result

        return replay
