"""Stand-ins for the table's review worker (`web.reviews.Compute`): module-level, so a spawned
worker process imports them by name. Each call leaves a file in `calls`, so a test counts the
reviews computed across processes."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from dreamhome.i18n import LANGUAGES


def counted_pages(calls: str, busy: float, record: dict[str, Any], source: str) -> dict[str, str]:
    """A page per language naming the record's digest, after `busy` seconds of pure Python work
    (the interpreter held, as a real review holds it); one file in `calls` per call."""
    Path(calls, f"{os.getpid()}-{time.monotonic_ns()}").write_text(source)
    end = time.process_time() + busy
    spin = 0
    while time.process_time() < end:
        spin += 1
    return {lang: f"<p>{lang} {source} {record['digest']}</p>" for lang in LANGUAGES}


def calls_in(folder: Path) -> int:
    return sum(1 for _ in folder.iterdir())


def unjudged_pages(record: dict[str, Any], source: str) -> dict[str, str]:
    """The real review page of `record` in every language, each decision judged as good as the
    best (no solve: a page's markup in a second rather than a review's 15 s), for tests of the
    page itself, not of the review's judgement."""
    from unittest import mock

    from dreamhome.players.evaluation import Evaluation
    from dreamhome.render.review_page import review_html
    from dreamhome.review.game import review_record

    def equal(state: Any, chosen: Any, work: float) -> Evaluation:
        legal = state.legal_actions()
        return Evaluation(len(legal), legal.index(chosen), 0.0, 0.0, True)

    with mock.patch("dreamhome.review.walk.evaluate", equal):
        review = review_record(record, source)
    return {lang: review_html(review, lang) for lang in LANGUAGES}
