"""`cyclic_gc_paused()`: Python's cyclic garbage collector held off for one piece of work.

Two hot paths allocate many small objects that reference counting frees and no cycle holds:
the rules compiler (one object per token and field: the collector traversed them again and
again as they piled up, about half the time of a 20,000-declaration file) and the end-game
query (about 10⁴ short-lived containers; with the rules loaded, a full collection traverses
some 90,000 live objects, ≈ 50 ms of CPU, frees nothing, and landed inside 3 of 40 queries).
Both run under this pause; collection resumes afterwards, as the caller had it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Hold off the cyclic collector for the `with` block; its state is restored after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
