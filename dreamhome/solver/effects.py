"""End-game swap effects (END-SUPPLIER, END-HANDYMAN) as a final-house relaxation.

The variables say where every card of the house ends up:
- `move[c, d]`: the card that stood on cell d stands on cell c at the end (the
  house swap moves cards, with their tokens, END-HANDYMAN);
- `new[c, k]`: cell c ends with a card of class k taken from the room discard
  pile (END-SUPPLIER; a plain face-up card, or face down under the option
  `swap_face_down`); the card it replaced went to the pile with its token lost.

Constraints every reachable final house satisfies: one card per cell, each
card of the house in at most one cell, no more new cards than room-discard swaps,
no more of a type than the pile can give, and at most 2 × house swaps cells
touched by moves (every move starts and ends on a cell some swap touched; `swaps.Swaps`).
PLACE-B holds by construction; rooms.add_max_size adds PLACE-C.

The order-dependent rules (the room-discard swap's card obeys PLACE-CLOSED/MERGE when it
arrives; a house swap's intermediate house keeps PLACE-C) are not in the model:
optimize.py checks the proposed final house by searching for an action
sequence with the ordinary rules code, and cuts it off if there is none, so
the answer stays exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model

from dreamhome.engine.cpsat import HouseModel, Stage, house_class
from dreamhome.house import House
from dreamhome.solver.expr import Expr, PairLits
from dreamhome.solver.swaps import Swaps


@dataclass
class FinalHouse:
    stage: Stage
    move: PairLits
    new: PairLits
    class_lits: dict[tuple[int, int], list[cp_model.IntVar]]  # (cell, class) → its literals, for no-good cuts
    unchanged: list[cp_model.IntVar | int]  # per cell: it still holds its own card (0: it cannot)


def add_final_house(
    hm: HouseModel, house: House, n_sup: int, swaps: Swaps, discard: dict[int, int], incoming: list[int], name: str = "end"
) -> FinalHouse:
    m = hm.model
    n = hm.rules.board.size
    own = [hm.index[house_class(house, d)] for d in range(n)]
    move: PairLits = {}
    new: PairLits = {}
    content: list[dict[int, list[cp_model.IntVar]]] = []
    for c in range(n):
        allowed = set(hm.allowed[c])
        here: dict[int, list[cp_model.IntVar]] = {}
        for d in range(n):
            if own[d] not in allowed or not swaps.can_move(hm.rules, c, d):
                continue
            if d != c and own[d] == own[c]:
                continue  # moving a card onto its twin changes nothing (symmetry)
            lit = m.new_bool_var(f"{name}_m{c}_{d}")
            move[c, d] = lit
            here.setdefault(own[d], []).append(lit)
        if n_sup:
            for k in incoming:
                if k in allowed and k != own[c]:
                    lit = m.new_bool_var(f"{name}_n{c}_{k}")
                    new[c, k] = lit
                    here.setdefault(k, []).append(lit)
        m.add_exactly_one([v for lits in here.values() for v in lits])
        content.append(here)
    for d in range(n):
        m.add_at_most_one([move[c, d] for c in range(n) if (c, d) in move])
    if n_sup:
        m.add(sum(new.values()) <= n_sup)
        for printed, available in discard.items():
            takes = [v for (c, k), v in new.items() if hm.classes[k].printed == printed]
            if not takes:
                continue
            # Cards of this printed type that leave the house may come back with a later room-discard swap.
            returns: list[Expr] = []
            if n_sup >= 2:
                returns = [
                    1 - sum(move[c, d] for c in range(n) if (c, d) in move)
                    for d in range(n)
                    if hm.classes[own[d]].printed == printed
                ]
            m.add(sum(takes) <= available + sum(returns))
    if swaps:
        swaps.add_budget(hm, move, n, name)
    class_lits = {(c, k): lits for c, here in enumerate(content) for k, lits in here.items()}
    unchanged = [move.get((c, c), 0) for c in range(n)]
    stage = Stage(content)
    return FinalHouse(stage, move, new, class_lits, unchanged)
