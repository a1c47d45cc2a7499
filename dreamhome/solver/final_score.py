"""The final house's score as CP-SAT terms: every scoring rule area at once.

`optimize` and `place` both end on a house that scores by SCORE-*; this adds
PLACE-C and each rule area's terms for it, with the helpers the house holds
(HELP-ARCHITECT, HELP-DESIGNER) and its outside tokens.
"""

from __future__ import annotations

from dreamhome.house import House
from dreamhome.solver.annex import add_annex_points
from dreamhome.solver.functionality import add_functionality
from dreamhome.solver.furnishings import add_tokens
from dreamhome.solver.model import HouseModel, Stage
from dreamhome.solver.rooms import add_max_size, add_room_points


def helper_amounts(rules, house: House) -> tuple[int, int, int]:
    """(bonus_plus, empty_room, token_plus) summed over the helpers the house holds (HELP-COPIES)."""
    t = rules.tables
    return (
        sum(t.helper_bonus_plus.get(h, 0) for h in house.helpers),
        sum(t.helper_empty_room.get(h, 0) for h in house.helpers),
        sum(t.helper_token_plus.get(h, 0) for h in house.helpers),
    )


def outside_points(rules, house: House, token_plus: int) -> int:
    """Tokens kept outside the house (SCORE-FURN): fixed points, whatever the end game does."""
    return sum(rules.furnishing(f).points + token_plus for f in house.outside)


def add_final_score(hm: HouseModel, stage: Stage, house: House) -> None:
    rules = hm.rules
    bonus_plus, empty_plus, token_plus = helper_amounts(rules, house)
    add_max_size(hm, stage)
    add_room_points(hm, stage)
    add_annex_points(hm, stage)
    add_functionality(hm, stage, bonus_plus)
    add_tokens(hm, stage, token_plus)
    if empty_plus:
        hm.add_objective(empty_plus, sum(hm.down_lits(stage)))
    hm.constant += outside_points(rules, house, token_plus)
