"""Dream Home (Klemens Kalicki, Rebel 2016) as formal rules, with exact queries.

Rules files (dreamhome/rules/*.dh) → `compile_rules` → one immutable Ruleset →
houses checked (`house_violations`), scored (`score_house`) and placed into
(`legal_placements`).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dreamhome.dsl.compiler import check_rules, compile_rules
    from dreamhome.engine.placement import Placement, apply_placement, legal_placements
    from dreamhome.house import House, house_from_json, house_to_json, load_house, save_house
    from dreamhome.legality import Violation, house_violations, is_legal
    from dreamhome.scoring import score_components, score_house, score_total

# Where each public name lives. They load on first use (PEP 562), so `import dreamhome.cli`
# starts fast and installs its Ctrl-C handling before Lark, networkx or OR-Tools load.
_HOMES = {
    "check_rules": "dreamhome.dsl.compiler",
    "compile_rules": "dreamhome.dsl.compiler",
    "Placement": "dreamhome.engine.placement",
    "apply_placement": "dreamhome.engine.placement",
    "legal_placements": "dreamhome.engine.placement",
    "House": "dreamhome.house",
    "house_from_json": "dreamhome.house",
    "house_to_json": "dreamhome.house",
    "load_house": "dreamhome.house",
    "save_house": "dreamhome.house",
    "Violation": "dreamhome.legality",
    "house_violations": "dreamhome.legality",
    "is_legal": "dreamhome.legality",
    "score_components": "dreamhome.scoring",
    "score_house": "dreamhome.scoring",
    "score_total": "dreamhome.scoring",
}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'dreamhome' has no attribute {name!r}")


__all__ = [
    "House",
    "Placement",
    "Violation",
    "apply_placement",
    "check_rules",
    "compile_rules",
    "house_from_json",
    "house_to_json",
    "house_violations",
    "is_legal",
    "legal_placements",
    "load_house",
    "save_house",
    "score_components",
    "score_house",
    "score_total",
]
