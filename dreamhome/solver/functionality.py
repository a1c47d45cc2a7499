"""Functionality bonuses (SCORE-FUNC-*, HELP-ARCHITECT) from their compiled clauses.

A bonus literal may be true only if every clause has a face-up card of its
room type on one of its floors; bonus points are never negative (the compiler
checks), so the upper bounds are exact under maximisation.
"""

from __future__ import annotations

from dreamhome.solver.model import HouseModel, Stage


def add_functionality(hm: HouseModel, stage: Stage, bonus_plus: int, name: str = "bonus") -> list:
    rules = hm.rules
    m = hm.model
    board = rules.board
    lits = []
    for b, bonus in enumerate(rules.bonuses):
        lit = m.new_bool_var(f"{name}_{b}")
        for clause in bonus.clauses:
            room = rules.room(clause.room).code
            cells = [c for f in clause.floors for c in board.floor_cells[board.floor_index(f)]]
            support = [x for c in cells for x in hm.face_up_lits(stage, c, room)]
            if support:
                m.add(lit <= sum(support))
            else:
                m.add(lit == 0)
        hm.add_objective(bonus.points + bonus_plus, lit)
        lits.append(lit)
    return lits
