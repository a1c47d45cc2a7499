"""CP-SAT models of a fixed house, for the tests that compare a rule area's CP-SAT reading with
its plain-Python one (tests/test_engine.py, tests/test_catalogue.py)."""

from __future__ import annotations

from dreamhome.engine.cpsat import HouseModel, Stage, classes_for, house_class
from dreamhome.house import House
from dreamhome.ruleset import EMPTY, SCAFFOLD, Ruleset


def fixed_stage(rules: Ruleset, house: House) -> tuple[HouseModel, Stage]:
    """A CP-SAT model whose one stage is this house, every cell fixed to its card class."""
    hm = HouseModel(rules, classes_for(rules, [house]))
    content: list[dict[int, list]] = []
    for cell, code in enumerate(house.cells):
        if code in (EMPTY, SCAFFOLD):
            content.append({})
            continue
        lit = hm.model.new_bool_var(f"cell{cell}")
        hm.model.add(lit == 1)
        content.append({hm.index[house_class(house, cell)]: [lit]})
    return hm, Stage(content)
