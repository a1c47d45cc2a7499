"""Where the tests' files are."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "tests" / "data"
EXAMPLES = ROOT / "examples"
GOLDEN = ROOT / "tests" / "golden"
