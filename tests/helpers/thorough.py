"""Whether the suite runs its wider checks (`DREAMHOME_THOROUGH=1`): 150 property examples
instead of 60, and CP-SAT proving every catalogue variant's best house beside the search.

Asked for by name, never read from a CI service's `CI` variable: the suite does the same work on
every machine (with `CI` it once did 2.5 times the examples and 17 more minutes of proofs in CI
than on a developer's machine — a 40-minute CI run against a 27-minute local one)."""

from __future__ import annotations

import os

THOROUGH = bool(os.environ.get("DREAMHOME_THOROUGH"))
