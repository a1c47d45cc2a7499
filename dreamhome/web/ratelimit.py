"""Requests a second per client address: a token bucket each (`RateLimit`, an ASGI middleware).

Why per address and not per game or seat: a flood needs no game; the address is the one thing
every request has. Why a bucket: a page's load (the page, its assets, its first views) is a
burst that must pass, a steady flood must not. The buckets kept are capped (least recently seen
dropped first), so many addresses cannot grow the server's memory. Time here is the monotonic
clock: a limit is about time, and nothing of a game depends on it.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

DEFAULT_RATE = 20.0
"""Requests a second one client address may send, on average."""
DEFAULT_BURST = 40
"""Requests one client address may send at once (a page's load is about 8)."""
MAX_CLIENTS = 10_000
"""Buckets kept at most (least recently seen dropped first)."""


def client_of(scope: Scope) -> str:
    """The client's address as the server saw it ("" if the server does not say)."""
    client = scope.get("client")
    return str(client[0]) if client else ""


class Buckets:
    """A token bucket per key: `rate` tokens a second, at most `burst` kept."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str) -> bool:
        """True if `key` may send one more request now (a token taken), False if not."""
        now = self.clock()
        tokens, then = self._buckets.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        allowed = tokens >= 1.0 - 1e-9  # a client exactly at its rate passes, float rounding or not
        self._buckets[key] = (max(0.0, tokens - 1.0) if allowed else tokens, now)
        while len(self._buckets) > MAX_CLIENTS:
            self._buckets.popitem(last=False)
        return allowed


class RateLimit:
    """Refuses a request beyond its client's bucket with 429, one line of JSON and Retry-After.
    `rate` None: no limit (tests of other things, a load test's own server)."""

    def __init__(self, app: ASGIApp, rate: float | None = DEFAULT_RATE, burst: int = DEFAULT_BURST):
        self.app = app
        self.buckets = None if rate is None else Buckets(rate, burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.buckets is not None and not self.buckets.take(client_of(scope)):
            answer = JSONResponse(
                {"error": "too many requests from this address; wait a moment and try again"},
                status_code=429,
                headers={"retry-after": "1"},
            )
            await answer(scope, receive, send)
            return
        await self.app(scope, receive, send)
