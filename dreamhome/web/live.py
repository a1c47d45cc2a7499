"""The table, live: each stored change of a game announced to the pages watching it (SSE).

Why a message carries only `{"version", "to_move", "over"}`: the event stream needs no key (a
watch page listens too), so it says nothing private; a page that sees a new version fetches
its own view (with its seat's key, if any). Why the messages coalesce (a subscriber keeps only
the latest): each one is the whole news, so a page that was slow to read misses nothing by
skipping to the newest, and a slow reader can never make the server hold a growing queue.

Why `loop.call_soon_threadsafe`: the moves are made in Starlette's threadpool (a bot's decision
may take a while), the streams live on the event loop; an asyncio.Event may only be set from
its own loop. Why `close`: uvicorn's graceful shutdown waits for every open response, and an
event stream never ends by itself, so `serve` closes them all when it is asked to stop.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator
from typing import Any

HEARTBEAT = 15.0
"""Seconds between comment lines on an idle stream (keeps proxies and browsers from timing out)."""
DEFAULT_STREAMS_PER_CLIENT = 32
"""Event streams one client address may hold open at once."""
DEFAULT_STREAMS = 512
"""Event streams the server holds open at once, all clients together."""


class TooManyStreamsError(Exception):
    """A client (or the server) has as many event streams open as it may: answered 429."""


class Subscriber:
    """One open event stream: the latest message not yet sent, and whether the server closed it."""

    def __init__(self, game_id: str, client: str, loop: asyncio.AbstractEventLoop):
        self.game_id = game_id
        self.client = client
        self.loop = loop
        self.latest: dict[str, Any] | None = None
        self.closed = False
        self._ready = asyncio.Event()

    def deliver(self, message: dict[str, Any] | None) -> None:
        """On the subscriber's loop: keep `message` (None: the server closes the stream)."""
        if message is None:
            self.closed = True
        else:
            self.latest = message
        self._ready.set()

    async def next(self, timeout: float) -> dict[str, Any] | None:
        """The next message; None after `timeout` seconds without one or once closed."""
        try:
            await asyncio.wait_for(self._ready.wait(), timeout)
        except asyncio.TimeoutError:
            return None
        self._ready.clear()
        message, self.latest = self.latest, None
        return None if self.closed else message


class Hub:
    """Who listens to which game; `publish` may be called from any thread."""

    def __init__(self, per_client: int = DEFAULT_STREAMS_PER_CLIENT, total: int = DEFAULT_STREAMS):
        self.per_client = per_client
        self.total = total
        self._subs: dict[str, set[Subscriber]] = {}
        self._clients: dict[str, int] = {}
        self._lock = threading.Lock()
        self._closed = False

    def subscribe(self, game_id: str, client: str) -> Subscriber:
        """A new stream of `game_id` for `client`, or `TooManyStreamsError`; call on the loop."""
        sub = Subscriber(game_id, client, asyncio.get_running_loop())
        with self._lock:
            if self._closed:
                sub.closed = True
                return sub
            if self._clients.get(client, 0) >= self.per_client or self.open() >= self.total:
                raise TooManyStreamsError
            self._subs.setdefault(game_id, set()).add(sub)
            self._clients[client] = self._clients.get(client, 0) + 1
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        with self._lock:
            subs = self._subs.get(sub.game_id)
            if subs is None or sub not in subs:
                return
            subs.discard(sub)
            if not subs:
                del self._subs[sub.game_id]
            left = self._clients[sub.client] - 1
            if left:
                self._clients[sub.client] = left
            else:
                del self._clients[sub.client]

    def open(self) -> int:
        """The streams open now (all games)."""
        return sum(len(s) for s in self._subs.values())

    def publish(self, game_id: str, message: dict[str, Any]) -> None:
        """`message` to every stream of `game_id`, from any thread."""
        with self._lock:
            subs = list(self._subs.get(game_id, ()))
        for sub in subs:
            _call(sub, message)

    def close(self) -> None:
        """End every stream now and refuse new ones (the server is stopping); any thread."""
        with self._lock:
            self._closed = True
            subs = [s for group in self._subs.values() for s in group]
        for sub in subs:
            _call(sub, None)

    async def stream(self, sub: Subscriber, first: dict[str, Any], heartbeat: float = HEARTBEAT) -> AsyncIterator[bytes]:
        """The stream's bytes: `first` at once, then each new message, a comment line after
        `heartbeat` idle seconds; ends when the server closes it (the client's disconnect
        cancels it: Starlette's StreamingResponse listens for it)."""
        try:
            last = first
            yield sse(first)
            while not sub.closed:
                message = await sub.next(heartbeat)
                if sub.closed:
                    break
                if message is None:
                    yield b": keep-alive\n\n"
                elif message != last:
                    last = message
                    yield sse(message)
        finally:
            self.unsubscribe(sub)


def _call(sub: Subscriber, message: dict[str, Any] | None) -> None:
    try:
        sub.loop.call_soon_threadsafe(sub.deliver, message)
    except RuntimeError:  # its loop is closed: the stream is gone
        pass


def sse(message: dict[str, Any]) -> bytes:
    """One Server-Sent Events message of `message` as JSON."""
    return f"data: {json.dumps(message, separators=(',', ':'))}\n\n".encode()
