"""Is this house state legal, and if not, which rule does it break and where.

A state check cannot see history (PLACE-CLOSED is about the order cards came
in), so it checks what any reachable state must satisfy: support, categories,
sizes, tokens, card counts and scaffolding.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from dreamhome.house import House
from dreamhome.ruleset import EMPTY, FACE_DOWN, ROOM0, SCAFFOLD, Ruleset


@dataclass(frozen=True)
class Violation:
    rule: str
    cell: str | None
    message: str

    def to_json(self) -> dict:
        return {"rule": self.rule, "cell": self.cell, "message": self.message}

    def __str__(self) -> str:
        where = f" at {self.cell}" if self.cell else ""
        return f"{self.rule}{where}: {self.message}"


def _what(rules: Ruleset, code: int) -> str:
    if code == SCAFFOLD:
        return "scaffolding"
    if code == FACE_DOWN:
        return "an empty room"
    return f"a {rules.room_of_code(code).name.lower()} card"


def house_violations(rules: Ruleset, house: House) -> list[Violation]:
    t = rules.tables
    cells = house.cells
    tokens = house.tokens
    names = rules.board.cells
    out: list[Violation] = []

    # PLACE-A support and PLACE-B categories, cell by cell.
    below = t.below
    allowed = t.allowed
    for i, c in enumerate(cells):
        if c == EMPTY:
            if tokens[i]:
                out.append(Violation("FURN-TYPE", names[i], "a token lies on an empty space"))
            continue
        b = below[i]
        if b >= 0 and cells[b] == EMPTY:
            out.append(Violation("PLACE-A", names[i], f"{_what(rules, c)} stands over the empty space {names[b]}"))
        if c >= ROOM0:
            if not allowed[i][c]:
                room = rules.room_of_code(c)
                out.append(
                    Violation(
                        "PLACE-B",
                        names[i],
                        f"a {room.category} card ({room.name.lower()}) cannot go on a {rules.board.cell_kind[i]} floor",
                    )
                )
            tok = tokens[i]
            if tok and t.token_room[tok] != c:
                furn = rules.furnishings[tok - 1]
                where = f"the {rules.room(furn.room).name.lower()}" if furn.room else "outside the house"
                out.append(
                    Violation(
                        "FURN-TYPE",
                        names[i],
                        f"{furn.name} belongs {'in ' if furn.room else ''}{where}, "
                        f"not on a {rules.room_of_code(c).name.lower()} card",
                    )
                )
        elif tokens[i]:
            out.append(Violation("FURN-TYPE", names[i], f"a token lies on {_what(rules, c)}"))

    # PLACE-C sizes and FURN-ONE, room by room.
    for floor in t.floor_cells:
        run_code = -1
        start = 0
        length = 0
        n_tok = 0
        for k, i in enumerate(floor + (-1,)):
            c = cells[i] if i >= 0 else -1
            if c == run_code and c >= ROOM0:
                length += 1
                n_tok += 1 if tokens[i] else 0
                continue
            if run_code >= ROOM0:
                room_cells = floor[start : start + length]
                if length > t.max_size[run_code]:
                    room = rules.room_of_code(run_code)
                    out.append(
                        Violation(
                            "PLACE-C",
                            names[room_cells[0]],
                            f"a {room.name.lower()} of {length} cards is larger than its maximum of {room.max_size}",
                        )
                    )
                if n_tok > 1:
                    out.append(
                        Violation("FURN-ONE", names[room_cells[0]], f"a room holds {n_tok} tokens; a room holds at most one")
                    )
                full_only = [tokens[j] for j in room_cells if tokens[j] and t.token_closes_full_only[tokens[j]]]
                if full_only and length != t.max_size[run_code]:
                    furn = rules.furnishings[full_only[0] - 1]
                    out.append(
                        Violation(
                            "VAR-CAR",
                            names[room_cells[0]],
                            f"the {furn.name.lower()} goes only in a complete {rules.room_of_code(run_code).name.lower()}",
                        )
                    )
            run_code, start, length = c, k, 1
            n_tok = 1 if i >= 0 and tokens[i] else 0

    # Outside tokens (FURN-TYPE) and card counts against the manifest (COMP-5).
    for fid in house.outside:
        furn = rules.furnishing(fid)
        if not furn.outside:
            out.append(Violation("FURN-TYPE", None, f"{furn.name} goes in a {rules.room(furn.room).name.lower()}, not outside"))
    used = Counter(rules.furnishings[tok - 1].id for tok in tokens if tok)
    used.update(house.outside)
    for fid, n in used.items():
        furn = rules.furnishing(fid)
        if n > furn.count:
            out.append(Violation("COMP-5", None, f"{n} {furn.name.lower()} tokens; the game has {furn.count}"))
    room_cards = Counter(c for c in cells if c >= ROOM0)
    room_cards.update(u for u in house.under if u)
    room_cards.update(rules.room(r).code for r in house.discard_rooms)
    for code, n in room_cards.items():
        room = rules.room_of_code(code)
        if n > room.count:
            out.append(Violation("COMP-5", None, f"{n} {room.name.lower()} cards; the deck holds {room.count}"))
    roof_cards = Counter(house.roofs + house.discard_roofs)
    for colour in rules.roofs:
        n = roof_cards[(colour.index, True)] + roof_cards[(colour.index, False)]
        w = roof_cards[(colour.index, True)]
        if n > colour.count or w > colour.windows:
            out.append(
                Violation(
                    "COMP-5",
                    None,
                    f"{n} {colour.name.lower()} roof cards ({w} with a window); the deck "
                    f"holds {colour.count} ({colour.windows} with a window)",
                )
            )
    held = Counter(house.helpers + house.tools)
    for cid, n in held.items():
        card = rules.held(cid)
        if n > card.count:
            out.append(Violation("COMP-5", None, f"{n} {card.name.lower()} cards; the deck holds {card.count}"))

    # TOOL-SCAFFOLDING: no more scaffolding than the deck's scaffolding cards.
    scaffolds = cells.count(SCAFFOLD)
    if scaffolds:
        limit = sum(c.count for c in rules.cards_with_effect("scaffold"))
        if scaffolds > limit:
            first = cells.index(SCAFFOLD)
            out.append(Violation("TOOL-SCAFFOLDING", names[first], f"{scaffolds} scaffoldings; the game has {limit}"))
    return out


def is_legal(rules: Ruleset, house: House) -> bool:
    return not house_violations(rules, house)
