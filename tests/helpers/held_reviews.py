"""A stand-in for the table's review worker (`web.reviews.Compute`) that holds the review until
the test lets it go, for tests of the page shown while a review is under way
(tests/test_web_review_progress.py). Module-level, so a spawned worker imports it by name.

Why not a worker busy for a fixed time (tests/helpers/reviews.counted_pages): a browser test
must finish its checks of the waiting page before the review replaces it, and on a loaded
machine no fixed time is sure to be long enough, while every second of it is CPU burnt. Held
by a file instead, the review comes exactly when the test has seen what it needed."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dreamhome.i18n import LANGUAGES


def held_pages(
    gate: str, record: dict[str, Any], source: str, on_progress: Callable[[int, int], None] | None = None
) -> dict[str, str]:
    """A page per language naming the record's digest, said as two "decisions": the first done
    at once, the second once the file `gate` exists (at most two minutes later)."""
    if on_progress is not None:
        on_progress(1, 2)
    deadline = time.monotonic() + 120
    while not Path(gate).exists():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{gate} never came")
        time.sleep(0.05)
    if on_progress is not None:
        on_progress(2, 2)
    return {lang: f"<p>{lang} {source} {record['digest']}</p>" for lang in LANGUAGES}
