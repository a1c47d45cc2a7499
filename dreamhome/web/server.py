"""Running the app under uvicorn on a socket bound here (so `--port 0` can print its real URL)."""

from __future__ import annotations

import asyncio
import ipaddress
import os
import signal
import socket
import threading
from collections.abc import Callable
from pathlib import Path

from dreamhome.interrupt import Interrupted

LOCAL = ("127.0.0.1", "localhost", "::1")


_caught: list[int] = []


def _remember(signum: int, frame: object) -> None:
    _caught.append(signum)


def default_signals() -> None:
    """SIGINT and SIGTERM only noted for the server process, set before anything else.

    uvicorn stops gracefully on both signals by its own handlers once it runs. Before that, a
    handler that raises (the CLI's, made for CP-SAT solves, or Python's KeyboardInterrupt) can
    strike wherever the main thread is: one that arrived while the server started was lost and
    the server served on, deaf to SIGTERM, and one raised inside the event loop's construction
    left a half-built loop that printed a traceback as it was collected. A noted signal stops
    the server as soon as it runs (`serve`), and the command then ends as interrupted."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _remember)
        signal.signal(signal.SIGINT, _remember)


def default_data_dir() -> Path:
    """Where games are kept unless `--data` says otherwise: the user's data folder (XDG)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "dreamhome" / "games"


def is_local(host: str) -> bool:
    return host in LOCAL


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on (host, port); port 0 lets the system choose a free one."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP spelt out: asyncio switches Nagle off (TCP_NODELAY) only on sockets whose
    # proto says TCP, and with Nagle on, each answer waited ~40 ms for the client's delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    return sock


def url_of(sock: socket.socket) -> str:
    """The address to open: the one bound, or the loopback one for an unspecified address
    (0.0.0.0, ::), which is not a Host name the table answers to (`served_hosts`)."""
    host, port = sock.getsockname()[:2]
    if ipaddress.ip_address(host).is_unspecified:
        host = "::1" if ":" in host else "127.0.0.1"
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def served_hosts(sock: socket.socket, allow_hosts: tuple[str, ...] = ()) -> list[str]:
    """The Host names the table answers to besides the loopback names: the address bound (not
    an unspecified one such as 0.0.0.0, which no page should name) and the `--allow-host` names."""
    host = sock.getsockname()[0]
    bound = [] if ipaddress.ip_address(host).is_unspecified else [host]
    return [*bound, *allow_hosts]


def serve(
    sock: socket.socket,
    data_dir: Path,
    say: Callable[[str], None],
    log_level: str = "warning",
    lang: str = "en",
    allow_hosts: tuple[str, ...] = (),
    max_games: int | None = None,
    rate: float | None = 20.0,
) -> None:
    """Serve the table on `sock` until interrupted (Ctrl-C stops uvicorn cleanly); `lang` is the
    page's language until the person picks another; `allow_hosts` the Host names served besides
    the loopback names and the address bound; `max_games` the games kept at most (default
    `store.DEFAULT_MAX_GAMES`); `rate` the requests a second per client address (`ratelimit.DEFAULT_RATE`; None: no limit;
    bursts of twice that)."""
    import uvicorn

    from dreamhome.web.app import LOCAL_HOSTS, create_app
    from dreamhome.web.rulesets import RULESETS
    from dreamhome.web.store import DEFAULT_MAX_GAMES

    host = sock.getsockname()[0]
    extra = served_hosts(sock, allow_hosts)
    app = create_app(
        data_dir,
        allowed_hosts=extra,
        lang=lang,
        max_games=max_games or DEFAULT_MAX_GAMES,
        rate=rate,
        burst=2 * int(rate or 0),
        review_on_end=True,  # a game's review is ready by the time someone asks for it
    )
    # Every ruleset compiled now, in a worker thread, so no page waits for one (a page asking
    # before this is done waits for that one ruleset in its own worker, never on the event loop).
    threading.Thread(target=RULESETS.warm, name="dreamhome-warm-rules", daemon=True).start()
    # A game left with a bot to move (the last server stopped between two of its decisions) moves
    # on now: no read moves a game, only a change does (`bots.BotMover`).
    threading.Thread(target=app.state.tables.mover.resume, name="dreamhome-resume-bots", daemon=True).start()
    config = uvicorn.Config(app, log_level=log_level, access_log=False, lifespan="off", timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    say(f"Dream Home table at {url_of(sock)} (games kept in {data_dir}; language {lang}); Ctrl-C stops it")
    if not is_local(host) or allow_hosts:
        names = ", ".join(dict.fromkeys([*LOCAL_HOSTS, *extra]))
        say(f"answering to the Host names {names} (--allow-host NAME adds one)")

    async def run() -> None:
        # uvicorn's own handlers take over inside serve(); a signal noted before they did (or
        # handed back by uvicorn when it ends: it re-raises what it caught) stops it here.
        # uvicorn waits for every open answer before it stops, and an event stream never ends
        # by itself: once the server is asked to stop, the streams are closed (`live.Hub.close`).
        task = asyncio.ensure_future(server.serve(sockets=[sock]))
        while not task.done():
            if _caught:
                server.should_exit = True
            if server.should_exit:
                app.state.live.close()
            await asyncio.sleep(0.05)
        await task

    try:
        asyncio.run(run())
    finally:
        app.state.reviews.close()  # the review workers end with the server, a review half done or not
        app.state.tables.mover.close()  # no bot's move tried again: the games stay as last stored
    if _caught:
        raise Interrupted(_caught[0])
