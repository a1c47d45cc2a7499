"""Furnishing tokens (SCORE-FURN, FURN-ONE, FURN-TYPE, END-HANDYMAN, HELP-DESIGNER).

Plain Python: the points of the tokens a house holds (`token_points`), and the
end-game resolution of a room that a swap left with several tokens
(`resolve_tokens`). CP-SAT: `add_tokens`, the same rules on a model stage.

Each token travels with its card. At the end a token counts if its card is
still in the house and it is the one kept in its room: two tokens standing in
one room of the final house may not both be kept (the owner keeps the best;
the maximisation picks it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dreamhome.engine.rooms import rooms_of

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from dreamhome.engine.cpsat import HouseModel, Stage
    from dreamhome.house import House
    from dreamhome.ruleset import Ruleset
    from dreamhome.tables import Tables


# ---------------------------------------------------------------- plain Python
def token_points(rules: Ruleset, house: House, token_plus: int) -> int:
    """SCORE-FURN: every token in the house and outside it, each with the helpers' `token_plus`."""
    t = rules.tables
    total = 0
    n = 0
    for tok in house.tokens:
        if tok:
            total += t.token_points[tok]
            n += 1
    for fid in house.outside:
        total += rules.furnishing(fid).points
        n += 1
    return total + token_plus * n


def token_value(t: Tables, token: int, token_plus: int) -> int:
    """SCORE-FURN: one token's points (by token code) with the helpers' `token_plus` (HELP-DESIGNER)."""
    return t.token_points[token] + token_plus


def token_room(t: Tables, token: int) -> int:
    """FURN-TYPE: the room type code a token (by code) stands in; 0 for a token kept outside."""
    return t.token_room[token]


def takes_token(t: Tables, token: int, code: int, size: int) -> bool:
    """FURN-TYPE, VAR-CAR: a room of this type and size may hold this token: its printed type, and
    complete (its type's maximum size) for an award token (`Tables.token_closes_full_only`)."""
    return t.token_room[token] == code and (not t.token_closes_full_only[token] or size == t.max_size[code])


def holds_award_token(rules: Ruleset, house: House) -> bool:
    """VAR-CAR: the house holds a token that needs a complete room (a swap moves tokens with their
    cards, never adds one: a lister asks this once for every swap of the house)."""
    closes = rules.tables.token_closes_full_only
    return any(tok and closes[tok] for tok in house.tokens)


def award_tokens_complete(rules: Ruleset, house: House) -> bool:
    """VAR-CAR: every award token (`Tables.token_closes_full_only`) stands in a complete room of
    its type. An end-game swap must keep it so: a helper that takes one card of such a room away
    from under its token would leave a house no rule allows (`legality` reports it as VAR-CAR)."""
    t = rules.tables
    if not holds_award_token(rules, house):
        return True
    for code, cells in rooms_of(rules, house):
        for i in cells:
            tok = house.tokens[i]
            if tok and t.token_closes_full_only[tok] and len(cells) != t.max_size[code]:
                return False
    return True


def outside_points(rules: Ruleset, house: House, token_plus: int) -> int:
    """Tokens kept outside the house (SCORE-FURN): fixed points, whatever the end game does."""
    return sum(rules.furnishing(f).points + token_plus for f in house.outside)


def kept_token(t: Tables, tokens: list[int] | tuple[int, ...], cells: tuple[int, ...]) -> int | None:
    """FURN-ONE at the end: of the tokens in one room, the one its owner keeps (the best; ties: the
    lower code), as a cell; None for a room without tokens."""
    held = [i for i in cells if tokens[i]]
    if not held:
        return None
    return max(held, key=lambda i: (t.token_points[tokens[i]], -tokens[i]))


def resolve_tokens(rules: Ruleset, house: House) -> House:
    """END-HANDYMAN: a room left with several tokens keeps its best one."""
    tokens = list(house.tokens)
    t = rules.tables
    for _code, cells in rooms_of(rules, house):
        keep = kept_token(t, tokens, cells)
        for i in cells:
            if tokens[i] and i != keep:
                tokens[i] = 0
    return house.changed(tokens=tuple(tokens))


# ---------------------------------------------------------------- CP-SAT


def add_tokens(hm: HouseModel, stage: Stage, token_plus: int, name: str = "token") -> dict[int, cp_model.IntVar]:
    """SCORE-FURN and FURN-ONE on a stage: a token counts if its card is there and it is the one
    kept in its room."""
    rules = hm.rules
    t = rules.tables
    m = hm.model
    kept: dict[int, cp_model.IntVar] = {}
    token_classes = [k for k, c in enumerate(hm.classes) if c.kind == "token"]
    for k in token_classes:
        cls = hm.classes[k]
        alive = m.new_bool_var(f"{name}_{k}")
        m.add(alive <= hm.count(stage, k))
        hm.add_objective(t.token_points[cls.token] + token_plus, alive)
        kept[k] = alive
    for i, k1 in enumerate(token_classes):
        for k2 in token_classes[i + 1 :]:
            room = hm.classes[k1].room
            if hm.classes[k2].room != room:
                continue  # tokens of different room types never share a room
            for floor in t.floor_cells:
                for a in range(len(floor)):
                    for b in range(a + 1, min(len(floor), a + t.max_size[room])):
                        between = [hm.face_up(stage, c, room) for c in floor[a + 1 : b]]
                        for first, second in ((k1, k2), (k2, k1)):
                            at_a = hm.class_lits(stage, floor[a], first)
                            at_b = hm.class_lits(stage, floor[b], second)
                            if not at_a or not at_b:
                                continue
                            # both kept only if they do not share a room
                            m.add(kept[first] + kept[second] + sum(at_a) + sum(at_b) + sum(between) <= 3 + len(between))
    return kept
