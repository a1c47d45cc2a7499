"""One Chromium per test process for the table's browser tests (tests/test_table_*page.py,
tests/test_web_review_progress.py, tests/test_web_security.py, tests/test_html.py), and what
they share: the two sizes every page is checked at, and axe-core's verdict on a page.

Launching Playwright's driver and Chromium costs about two seconds of CPU, and each browser
test used to pay it; now the first browser test of a worker does, and each test gets fresh
contexts of the same browser (the contexts it opened are closed after it, so no page, cookie
or storage outlives its test). A test module asks for it by importing the fixtures
(`from tests.helpers.table_browser import chromium_fixture, shared_chromium_fixture`) and
naming `chromium` among its test's arguments.

Playwright's sync API marks its event loop as the thread's running loop between its calls
(playwright/_impl/_greenlets.py: wait_for_future). Kept for the whole run, that mark would make
every later `asyncio.run` of the same process fail ("cannot be called from a running event
loop"), in tests that have nothing to do with a browser (tests/test_web_load.py runs one). So
the mark is set only while a test holds the browser (the `chromium` fixture) and cleared after."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.paths import ROOT
from tests.helpers.web import CHROMIUM, playwright_api

AXE = ROOT / "tests" / "vendor" / "axe.min.js"
ARTIFACTS = ROOT / "test-artifacts"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

_SHARED: dict[str, Any] = {}
"""This process's Playwright, its event loop and its Chromium, once launched."""


def _launched() -> Any:
    """The process's Chromium, launched on the first call (the test skipped without it)."""
    if "browser" not in _SHARED:
        sync_api = playwright_api()
        playwright = sync_api.sync_playwright().start()
        _SHARED["loop"] = asyncio.get_running_loop()  # the driver's loop, marked running by start()
        _SHARED["playwright"] = playwright
        _SHARED["browser"] = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        asyncio._set_running_loop(None)
    return _SHARED["browser"]


@pytest.fixture(scope="session", name="shared_chromium")
def shared_chromium_fixture() -> Iterator[Any]:
    """The process's Chromium, closed at the end of the run (by whichever module's copy of this
    fixture ends first: each test module that imports it holds its own, all of one browser)."""
    yield _launched()
    if "browser" in _SHARED:
        asyncio._set_running_loop(_SHARED["loop"])
        try:
            _SHARED["browser"].close()
            _SHARED["playwright"].stop()
        finally:
            _SHARED.clear()
            asyncio._set_running_loop(None)


@pytest.fixture(name="chromium")
def chromium_fixture(shared_chromium: Any) -> Iterator[Any]:
    """The shared Chromium for one test: Playwright's loop marked running meanwhile (see the
    module's docstring); every context the test opened closed after it."""
    asyncio._set_running_loop(_SHARED["loop"])
    try:
        yield shared_chromium
        for context in shared_chromium.contexts:
            context.close()
    finally:
        asyncio._set_running_loop(None)


def open_page(browser: Any, errors: list[str], viewport: dict[str, int] | None = None, **options: Any) -> Any:
    """A page in a context of its own (a person's own browser) at `viewport` (1280×800 by
    default), its script errors kept in `errors`; `options` are the context's (`bypass_csp=True`
    where axe-core is to be injected into the page)."""
    context = browser.new_context(viewport=viewport or DESKTOP, **options)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def axe_problems(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now (the vendored
    axe.min.js; the test's browser contexts bypass the page's CSP only to inject it)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "async () => (await axe.run(document)).violations"
        ".map(v => [v.id, v.impact, v.nodes.length, v.nodes.slice(0, 3).map(n => n.target.join(' '))])"
    )
    return [f"{rule} ({impact}, {count}: {where})" for rule, impact, count, where in found if impact in ("serious", "critical")]


def axe_at_both_sizes(page: Any) -> dict[str, list[str]]:
    """axe-core's problems at 1280×800 and at 390×844 of the page as loaded (the layout is CSS
    media queries alone: a resize redraws it without a second load); the page left at 1280×800.
    Only the sizes with problems are named."""
    found = {}
    for name, size in (("1280x800", DESKTOP), ("390x844", PHONE)):
        page.set_viewport_size(size)
        problems = axe_problems(page)
        if problems:
            found[name] = problems
    page.set_viewport_size(DESKTOP)
    return found


def artifact(name: str) -> str:
    """Where a screenshot named `name` goes (test-artifacts/, git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return str(Path(ARTIFACTS, name))
