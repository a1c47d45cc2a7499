"""The table's app under a real uvicorn server, for tests that need a browser or real sockets."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def served(folder: Path, **app_options: Any) -> Iterator[str]:
    """`dreamhome serve`'s app over `folder` (`create_app`'s options), on a free loopback port in
    a thread of this process; yields its URL and stops the server on exit (its event streams
    closed first: uvicorn waits for every open answer)."""
    import uvicorn

    from dreamhome.web.app import create_app
    from dreamhome.web.server import bind, url_of

    sock = bind("127.0.0.1", 0)
    app = create_app(folder, **app_options)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.05)
        yield url_of(sock)
    finally:
        app.state.live.close()
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
        app.state.reviews.close()


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
"""The system's Chromium, which the browser tests drive through Playwright."""


def playwright_api() -> Any:
    """`playwright.sync_api`, or the test skipped: no Chromium, or no Playwright."""
    import pytest

    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (apt-get install chromium; .ci/run installs it)")
    return pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


def settle(page: Any) -> None:
    """Wait until the table page is done with its request (table.js marks `body.busy` meanwhile)."""
    page.wait_for_selector("body:not(.busy)", state="attached")


def play_one(page: Any) -> str:
    """One decision by clicks as a person makes it: a held card that can act (then its
    highlighted target), else a highlighted track column, else a highlighted cell of the house,
    else a choice button; where the click leaves several choices, the first of them. Answers
    which way the decision was made."""
    how = "choice"
    if page.locator("#my-house .held-card.legal").count():
        page.locator("#my-house .held-card.legal").first.click()
        settle(page)
        assert page.locator("#filter-note").is_visible()  # the card's uses, and only them, are offered
        how = "card"
        targets = page.locator("#track .column.legal, #my-house .cell.legal")
        if targets.count():
            targets.first.click()
            settle(page)
    elif page.locator("#track .column.legal").count():
        page.locator("#track .column.legal").first.click()
        how = "column"
    elif page.locator("#my-house .cell.legal").count():
        page.locator("#my-house .cell.legal").first.click()
        how = "cell"
    else:
        page.locator("#choices button.choice").first.click()
    settle(page)
    if page.locator("#filter-note").is_visible():
        page.locator("#choices li:not([hidden]) button.choice").first.click()
        settle(page)
    return how
