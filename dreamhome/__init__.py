"""Dream Home (Klemens Kalicki, Rebel 2016) as formal rules, with exact queries.

Rules files (dreamhome/rules/*.dh) → `compile_rules` → one immutable Ruleset →
houses checked (`house_violations`), scored (`score_house`) and placed into
(`legal_placements`).
"""

from dreamhome.dsl.compiler import check_rules, compile_rules
from dreamhome.engine.placement import Placement, apply_placement, legal_placements
from dreamhome.house import House, house_from_json, house_to_json, load_house, save_house
from dreamhome.legality import Violation, house_violations, is_legal
from dreamhome.scoring import score_components, score_house, score_total

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
