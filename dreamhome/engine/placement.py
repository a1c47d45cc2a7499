"""Where can this room card go now? (PLACE-A/B/C/CLOSED/MERGE/EMPTY/SCAFFOLD)

The game driver calls this for every room card it deals with, so it reads the
Ruleset's flat tables and walks at most one floor row per candidate cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from dreamhome.engine.helpers import keeps_rooms_open
from dreamhome.engine.rooms import category_ok, fits
from dreamhome.house import House
from dreamhome.ruleset import EMPTY, FACE_DOWN, SCAFFOLD, Ruleset


@dataclass(frozen=True, order=True)
class Placement:
    cell: int
    face_down: bool

    def describe(self, rules: Ruleset) -> str:
        return f"{rules.board.cells[self.cell]}{' face down' if self.face_down else ''}"


def free_supported_cells(rules: Ruleset, house: House) -> list[int]:
    """Spaces a card (or the scaffold) could go on: empty and held up (PLACE-A)."""
    cells = house.cells
    below = rules.tables.below
    return [i for i, c in enumerate(cells) if c == EMPTY and (below[i] < 0 or cells[below[i]] != EMPTY)]


def face_up_ok(rules: Ruleset, house: House, cell: int, code: int, keep_open: bool) -> bool:
    """PLACE-B, PLACE-C, PLACE-CLOSED and PLACE-MERGE for a face-up card on `cell`.

    The cell itself is assumed free (empty or scaffold) and supported.
    """
    t = rules.tables
    if not category_ok(t, cell, code):
        return False
    cells = house.cells
    tokens = house.tokens
    size = 1
    held_tokens = 0
    for step in (t.left, t.right):
        j = step[cell]
        run_tokens = 0
        while j >= 0 and cells[j] == code:
            size += 1
            if tokens[j]:
                run_tokens += 1
            j = step[j]
        if run_tokens and not keep_open:
            return False  # PLACE-CLOSED: a token closes the room
        held_tokens += run_tokens
    return fits(t, code, size) and held_tokens <= 1  # PLACE-C, PLACE-MERGE/FURN-ONE


def legal_placements(rules: Ruleset, house: House, card: str | int) -> list[Placement]:
    """Every legal way to place this room card now: face up, then face down, per cell.

    `card` is a room id or a room cell code. Spaces holding scaffold take
    the card too (PLACE-SCAFFOLD).
    """
    code = rules.room(card).code if isinstance(card, str) else card
    t = rules.tables
    cells = house.cells
    below = t.below
    keep_open = keeps_rooms_open(rules, house)
    # TOOL-SCAFFOLDING: a room card must replace each scaffold before the end (ROUND-6). When the
    # cards still to come (this one and one a round after it) are no more than the scaffolds,
    # this card goes on one. A board with one space per round forces it anyway (the scaffold
    # is then the last free space); a board with spaces to spare needs it said.
    scaffolds = cells.count(SCAFFOLD)
    only_scaffold = scaffolds > 0 and rules.game.rounds - sum(1 for c in cells if c >= FACE_DOWN) <= scaffolds
    out = []
    for i, c in enumerate(cells):
        if c != SCAFFOLD and (c != EMPTY or only_scaffold):
            continue
        b = below[i]
        if b >= 0 and cells[b] == EMPTY:
            continue
        if face_up_ok(rules, house, i, code, keep_open):
            out.append(Placement(i, False))
        out.append(Placement(i, True))
    return out


def apply_placement(rules: Ruleset, house: House, card: str | int, placement: Placement) -> House:
    """The house after placing the card (the scaffold it replaces is discarded)."""
    code = rules.room(card).code if isinstance(card, str) else card
    if placement.face_down:
        return house.place(placement.cell, FACE_DOWN, 0, code)
    return house.place(placement.cell, code)


__all__ = [
    "Placement",
    "legal_placements",
    "apply_placement",
    "free_supported_cells",
    "face_up_ok",
]
