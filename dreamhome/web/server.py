"""Running the app under uvicorn on a socket bound here (so `--port 0` can print its real URL)."""

from __future__ import annotations

import os
import signal
import socket
import threading
from collections.abc import Callable
from pathlib import Path

LOCAL = ("127.0.0.1", "localhost", "::1")


def default_signals() -> None:
    """Python's own SIGINT/SIGTERM handling for the server process, set before anything else.

    uvicorn stops gracefully on both signals by its own handlers once it runs. Before that, the
    CLI's handlers (interrupt.py, made for CP-SAT solves) raise `Interrupted` wherever the main
    thread happens to be; one that arrived while the server was starting was lost and the
    server served on, deaf to SIGTERM. With the defaults a signal before uvicorn's handlers
    ends the process (SIGTERM) or raises KeyboardInterrupt (Ctrl-C: "interrupted", exit 130)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)


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
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(sock: socket.socket, data_dir: Path, say: Callable[[str], None], log_level: str = "warning", lang: str = "en") -> None:
    """Serve the table on `sock` until interrupted (Ctrl-C stops uvicorn cleanly); `lang` is the
    page's language until the person picks another."""
    import uvicorn

    from dreamhome.web.app import LOCAL_HOSTS, create_app

    host = sock.getsockname()[0]
    app = create_app(data_dir, allowed_hosts=LOCAL_HOSTS if is_local(host) else ["*"], lang=lang)
    config = uvicorn.Config(app, log_level=log_level, access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    say(f"Dream Home table at {url_of(sock)} (games kept in {data_dir}; language {lang}); Ctrl-C stops it")
    server.run(sockets=[sock])
