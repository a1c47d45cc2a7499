"""Stand-ins for the table's review worker (`web.reviews.Compute`): module-level, so a spawned
worker process imports them by name. Each call leaves a file in `calls`, so a test counts the
reviews computed across processes."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dreamhome.i18n import LANGUAGES

Progress = Callable[[int, int], None] | None


def counted_pages(calls: str, busy: float, record: dict[str, Any], source: str, on_progress: Progress = None) -> dict[str, str]:
    """A page per language naming the record's digest, after `busy` seconds of pure Python work
    (the interpreter held, as a real review holds it), said as two "decisions": the first done
    before the work, the second after; one file in `calls` per call."""
    Path(calls, f"{os.getpid()}-{time.monotonic_ns()}").write_text(source)
    if on_progress is not None:
        on_progress(1, 2)
    end = time.process_time() + busy
    spin = 0
    while time.process_time() < end:
        spin += 1
    if on_progress is not None:
        on_progress(2, 2)
    return {lang: f"<p>{lang} {source} {record['digest']}</p>" for lang in LANGUAGES}


def calls_in(folder: Path) -> int:
    return sum(1 for _ in folder.iterdir())


def unjudged_pages(record: dict[str, Any], source: str, on_progress: Progress = None) -> dict[str, str]:
    """The real review page of `record` in every language, each decision judged as good as the
    best (no solve: a page's markup in a second rather than a review's 15 s), for tests of the
    page itself, not of the review's judgement."""
    from unittest import mock

    from dreamhome.players.evaluation import Evaluation
    from dreamhome.render.review_page import review_html
    from dreamhome.review.game import review_record

    def equal(state: Any, chosen: Any, work: float, samples: int = 0) -> Evaluation:
        legal = state.legal_actions()
        return Evaluation(len(legal), legal.index(chosen), 0.0, 0.0, True)

    with mock.patch("dreamhome.review.walk.evaluate", equal):
        review = review_record(record, source, on_decision=on_progress)
    return {lang: review_html(review, lang) for lang in LANGUAGES}


def reviewed(get: Callable[..., Any], url: str, timeout: float = 120.0, **options: Any) -> Any:
    """The answer of `GET url` (a review page) once the review is ready: asked again while the
    server answers 202 (the page that says how far the review is), as that page reloads itself."""
    deadline = time.monotonic() + timeout
    while True:
        r = get(url, **options)
        if r.status_code != 202:
            return r
        assert "review-progress" in r.text and "<script>" in r.text, r.text
        assert time.monotonic() < deadline, "the review did not come"
        time.sleep(0.5)


def failing_pages(calls: str, record: dict[str, Any], source: str, on_progress: Progress = None) -> dict[str, str]:
    """A review that fails as a damaged record would (a `DreamhomeError`, one line), after
    saying it began; one file in `calls` per call."""
    from dreamhome.errors import DreamhomeError

    Path(calls, f"{os.getpid()}-{time.monotonic_ns()}").write_text(source)
    if on_progress is not None:
        on_progress(0, 3)
    raise DreamhomeError(f"{source}: no review today")
