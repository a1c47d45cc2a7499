"""Functionality bonuses (SCORE-FUNC-*, HELP-ARCHITECT) from their compiled clauses.

A bonus is met when each of its clauses has a face-up card of the clause's room
type on one of the clause's floors. Plain Python reads a house's face-up types
per floor as bit masks (`floor_masks`); the CP-SAT builder (`add_bonuses`)
takes the same clauses with whatever stands for "this type shows on this
floor" in a given model — cell literals, chosen floor rows, or row counts —
so the cell model, the end-game tables and `max` share one encoding. Bonus
points are never negative (the compiler checks), so the upper bounds are exact
under maximisation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from dreamhome.ruleset import ROOM0

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from dreamhome.engine.cpsat import HouseModel, Stage
    from dreamhome.tables import Tables


# ---------------------------------------------------------------- plain Python
def floor_masks(t: Tables, cells: Sequence[int]) -> list[int]:
    """Per floor, the face-up room types on it as a bit mask (bit = 1 << room code)."""
    out = []
    for floor in t.floor_cells:
        mask = 0
        for i in floor:
            c = cells[i]
            if c >= ROOM0:
                mask |= 1 << c
        out.append(mask)
    return out


def bonuses_met(t: Tables, present: Sequence[int]) -> list[int]:
    """Indexes of the bonuses whose every clause holds, given `floor_masks` (a hot path: plain loops)."""
    met = []
    for b, (_points, clauses) in enumerate(t.bonus_clauses):
        for bit, floors in clauses:
            for f in floors:
                if present[f] & bit:
                    break
            else:
                break  # a clause without support
        else:
            met.append(b)
    return met


def functionality_points(t: Tables, present: Sequence[int], bonus_plus: int) -> int:
    """SCORE-FUNC: the printed points of every bonus met, plus `bonus_plus` each (HELP-ARCHITECT)."""
    total = 0
    for points, clauses in t.bonus_clauses:  # bonuses_met's loop, summing as it goes: the hot path
        for bit, floors in clauses:
            for f in floors:
                if present[f] & bit:
                    break
            else:
                break
        else:
            total += points + bonus_plus
    return total


BonusClauses = tuple[tuple[tuple[int, tuple[int, ...]], ...], tuple[tuple[int, int], ...]]
"""Every clause of every bonus in one list, (type bit, floors) each, and per bonus (printed points,
its clauses as bits of that list): `functionality_clauses`."""


def functionality_clauses(t: Tables) -> BonusClauses:
    """SCORE-FUNC-* as clause bits, for a search that meets a bonus's clauses floor by floor (the
    exact `max`): clause k is bit 1 << k (`floor_clause_bits`), a bonus is met when all its bits
    are (`clause_bonuses`)."""
    flat: list[tuple[int, tuple[int, ...]]] = []
    bonuses = []
    for points, clauses in t.bonus_clauses:
        bits = 0
        for bit, floors in clauses:
            bits |= 1 << len(flat)
            flat.append((bit, tuple(floors)))
        bonuses.append((points, bits))
    return tuple(flat), tuple(bonuses)


def floor_clause_bits(clauses: BonusClauses, floor: int, mask: int) -> int:
    """The clauses a floor with these face-up types (`floor_masks`' mask) supports, as bits."""
    met = 0
    for k, (bit, floors) in enumerate(clauses[0]):
        if mask & bit and floor in floors:
            met |= 1 << k
    return met


def clause_bonuses(clauses: BonusClauses, met: int) -> tuple[int, int]:
    """The printed points and the number of the bonuses whose every clause is in `met`
    (SCORE-FUNC; HELP-ARCHITECT pays per bonus met, `helpers.helper_points`)."""
    points = n = 0
    for bonus_points, bits in clauses[1]:
        if met & bits == bits:
            points += bonus_points
            n += 1
    return points, n


# ---------------------------------------------------------------- CP-SAT
Support = Callable[[int, int], Sequence[Any]]  # (room code, floor index) → expressions, any true shows the type


def add_bonuses(model: cp_model.CpModel, t: Tables, support: Support, name: str = "bonus") -> list[tuple[Any, int]]:
    """One literal per bonus, true only if each clause has support on one of its floors.
    Returns (literal, printed points) per bonus; the caller adds them to its objective."""
    out = []
    for b, (points, clauses) in enumerate(t.bonus_clauses):
        lit = model.new_bool_var(f"{name}_{b}")
        for bit, floors in clauses:
            code = bit.bit_length() - 1
            here = [x for f in floors for x in support(code, f)]
            if here:
                model.add(lit <= sum(here))
            else:
                model.add(lit == 0)
        out.append((lit, points))
    return out


def add_functionality(hm: HouseModel, stage: Stage, bonus_plus: int, name: str = "bonus") -> list[Any]:
    """SCORE-FUNC on a stage of the cell model, with the helpers' `bonus_plus`."""
    t = hm.rules.tables

    def support(code: int, f: int) -> list[Any]:
        return [x for c in t.floor_cells[f] for x in hm.face_up_lits(stage, c, code)]

    lits = add_bonuses(hm.model, t, support, name)
    for lit, points in lits:
        hm.add_objective(points + bonus_plus, lit)
    return [lit for lit, _ in lits]
