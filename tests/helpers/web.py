"""The table's app under a real uvicorn server, for tests that need a browser or real sockets."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def served(folder: Path) -> Iterator[str]:
    """`dreamhome serve`'s app over `folder`, on a free loopback port in a thread of this process;
    yields its URL and stops the server on exit."""
    import uvicorn

    from dreamhome.web.app import create_app
    from dreamhome.web.server import bind, url_of

    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(folder), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.05)
        yield url_of(sock)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
