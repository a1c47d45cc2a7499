"""Completing a house in play, then the end game: the relaxation behind `place` bounds.

Every cell of the final house holds either one of the house's cards (where it
stands, or moved by a house swap: `move[c, d]`) or a *fresh* card
(`fresh[c, k]`): a card still to come from the pool, filling a free cell
(empty or scaffold, PLACE-SCAFFOLD), or one a room-discard swap takes from the room
discard pile at the end. Constraints:
- one card per cell; each card of the house in at most one cell;
- fresh cards: one per free cell plus one per card a room-discard swap swaps out
  (at most the room-discard swaps); of each type no more than the pool holds, plus
  what the suppliers take from the discard pile; empty rooms (PLACE-EMPTY)
  may be any card the pool still has;
- moves touch at most 2 cells per swap of two house cards (`swaps.Swaps`);
- PLACE-B by the classes a cell accepts, PLACE-C on the final house;
- without a swap of two house cards, no fresh face-up card may join a room holding a token
  (PLACE-CLOSED, unless HELP-DESIGNER keeps rooms open) nor join two rooms
  with a token each (PLACE-MERGE / FURN-ONE).
With no room-discard swap and no house swap this is exactly the set of completions
(filling bottom-up meets PLACE-A); with them it relaxes the order of the end
game, so the value is an upper bound (docs/SOLVER.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from dreamhome.engine.cpsat import CardClass, HouseModel, Stage, house_class
from dreamhome.house import House
from dreamhome.ruleset import EMPTY, SCAFFOLD, Ruleset
from dreamhome.solver.expr import Expr, PairLits
from dreamhome.solver.swaps import Swaps


@dataclass(frozen=True)
class InHand:
    """The room card in hand, placed by the model itself.

    `face_up`: per room type, the expression that is 1 when the card in hand is of that type and
    goes face up (placed face down it is an empty room). `from_pool`: per room type, the
    expression that is 1 when the card in hand is of that type and `pool` still counts it: a card
    the model chooses among several on the track, the pool holding them all (solver.place
    `best_take_now`). A card already taken is not in the pool and has no `from_pool`."""

    face_up: dict[int, Expr]
    from_pool: dict[int, Expr] = field(default_factory=dict)


@dataclass
class Completion:
    stage: Stage
    move: PairLits
    fresh: PairLits


def completion_classes(house: House, rules: Ruleset, types: list[int]) -> list[CardClass]:
    seen: set[CardClass] = set()
    for cell, code in enumerate(house.cells):
        if code not in (EMPTY, SCAFFOLD):
            seen.add(house_class(house, cell))
    for t in types:
        seen.add(CardClass("up", t))
    seen.add(CardClass("down", 0))  # a fresh empty room: any card the pool still has
    order = {"up": 0, "token": 1, "down": 2}
    return sorted(seen, key=lambda c: (order[c.kind], c.room, c.token, c.origin))


def add_completion(
    hm: HouseModel,
    house: House,
    pool: dict[int, int],
    discard: dict[int, int],
    n_sup: int,
    swaps: Swaps,
    keep_open: bool,
    name: str = "fin",
    hand: InHand | None = None,
) -> Completion:
    """`hand`: the card in hand is one fresh card more than the pool holds (less the one it
    takes from the pool, `InHand.from_pool`), of its type when placed face up, else an empty room."""
    m = hm.model
    rules = hm.rules
    n = rules.board.size
    occupied = [c for c in range(n) if house.cells[c] not in (EMPTY, SCAFFOLD)]
    free = [c for c in range(n) if house.cells[c] in (EMPTY, SCAFFOLD)]
    own = {d: hm.index[house_class(house, d)] for d in occupied}
    in_hand = hand.face_up if hand is not None else {}
    from_pool = hand.from_pool if hand is not None else {}
    upper = dict(pool)  # the most cards of each type there can be
    for room in in_hand:
        upper[room] = upper.get(room, 0) + 1
    fresh_classes = [
        k
        for k, c in enumerate(hm.classes)
        if (c.kind == "up" and (upper.get(c.room) or discard.get(c.room))) or (c.kind == "down" and c.room == 0)
    ]
    move: PairLits = {}
    fresh: PairLits = {}
    content: list[dict[int, list[cp_model.IntVar]]] = []
    for c in range(n):
        allowed = set(hm.allowed[c])
        here: dict[int, list[cp_model.IntVar]] = {}
        for d in occupied:
            if own[d] not in allowed or not swaps.can_move(rules, c, d):
                continue
            if d != c and c in own and own[d] == own[c]:
                continue  # a card moved onto its twin changes nothing
            lit = m.new_bool_var(f"{name}_m{c}_{d}")
            move[c, d] = lit
            here.setdefault(own[d], []).append(lit)
        if c in free or n_sup or swaps:
            for k in fresh_classes:
                if k in allowed:
                    lit = m.new_bool_var(f"{name}_f{c}_{k}")
                    fresh[c, k] = lit
                    here.setdefault(k, []).append(lit)
        m.add_exactly_one([v for lits in here.values() for v in lits])
        content.append(here)
    out: list[Expr] = []
    for d in occupied:
        stays = [move[c, d] for c in range(n) if (c, d) in move]
        m.add_at_most_one(stays)
        out.append(1 - sum(stays))
    m.add(sum(out) <= n_sup)
    m.add(sum(fresh.values()) == len(free) + sum(out))
    # Fresh cards by type: the pool (and the card in hand), plus what the suppliers take from the discard pile.
    taken: list[cp_model.IntVar] = []
    for room in sorted(set(pool) | set(discard) | set(in_hand)):
        ups = fresh_of_type(hm, fresh, room)
        if not ups:
            continue
        extra: cp_model.IntVar | int = 0
        if n_sup and discard.get(room):
            extra = m.new_int_var(0, min(n_sup, discard[room]), f"{name}_sup{room}")
            taken.append(extra)
        m.add(sum(ups) <= pool.get(room, 0) + extra + in_hand.get(room, 0) - from_pool.get(room, 0))
    if taken:
        m.add(sum(taken) <= n_sup)
    downs = [v for (c, k), v in fresh.items() if hm.classes[k].kind == "down"]
    all_fresh = list(fresh.values())
    if downs:
        cards_in_hand = (1 if hand is not None else 0) - sum(from_pool.values())
        m.add(sum(all_fresh) <= sum(pool.values()) + cards_in_hand + (sum(taken) if taken else 0))
    if swaps:
        swaps.add_budget(hm, move, n, name)
    stage = Stage(content)
    if not swaps:
        _closure(hm, stage, fresh, keep_open, name)
    return Completion(stage, move, fresh)


def fresh_of_type(hm: HouseModel, fresh: PairLits, room: int) -> list[cp_model.IntVar]:
    """The literals "a fresh face-up card of this type on some cell"."""
    return [v for (_c, k), v in fresh.items() if hm.classes[k].kind == "up" and hm.classes[k].room == room]


def _closure(hm: HouseModel, stage: Stage, fresh: PairLits, keep_open: bool, name: str) -> None:
    """PLACE-CLOSED / PLACE-MERGE for fresh face-up cards in the final house."""
    m = hm.model
    t = hm.rules.tables
    for floor in t.floor_cells:
        for room in hm.types:
            tokens_here = any(hm.token_lits(stage, c, room) for c in floor)
            if not tokens_here:
                continue
            left = _run_token(hm, stage, floor, room, f"{name}_lt{room}")
            right = _run_token(hm, stage, floor[::-1], room, f"{name}_rt{room}")[::-1]
            for j, cell in enumerate(floor):
                ups = [
                    v for (c, k), v in fresh.items() if c == cell and hm.classes[k].kind == "up" and hm.classes[k].room == room
                ]
                if not ups:
                    continue
                lt = left[j - 1] if j > 0 else 0
                rt = right[j + 1] if j + 1 < len(floor) else 0
                if keep_open:
                    if not isinstance(lt, int) and not isinstance(rt, int):
                        m.add(sum(ups) + lt + rt <= 2)
                else:
                    for side in (lt, rt):
                        if not isinstance(side, int):
                            m.add(sum(ups) + side <= 1)


def _run_token(hm: HouseModel, stage: Stage, cells: Sequence[int], room: int, name: str) -> list[cp_model.IntVar | int]:
    """has[j] is forced to 1 when the run of face-up `room` cards ending at cells[j] holds a token (0: it never is)."""
    m = hm.model
    out: list[cp_model.IntVar | int] = []
    for j, cell in enumerate(cells):
        tokens = hm.token_lits(stage, cell, room)
        ups = hm.face_up_lits(stage, cell, room)
        prev = out[j - 1] if j > 0 else 0
        if not tokens and (not ups or isinstance(prev, int)):
            out.append(0)
            continue
        has = m.new_bool_var(f"{name}_{cell}")
        for lit in tokens:
            m.add(has >= lit)
        if not isinstance(prev, int) and ups:
            m.add(has >= sum(ups) + prev - 1)
        out.append(has)
    return out
