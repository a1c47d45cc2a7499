"""Where can this room card go now? (PLACE-A/B/C/CLOSED/MERGE/EMPTY/SCAFFOLD)

The game driver calls this for every room card it deals with, so it reads the
Ruleset's flat tables and walks at most one floor row per candidate cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from dreamhome.engine.helpers import keeps_rooms_open
from dreamhome.engine.rooms import category_ok, fits
from dreamhome.errors import DreamhomeError
from dreamhome.house import House
from dreamhome.ruleset import EMPTY, FACE_DOWN, SCAFFOLD, Ruleset
from dreamhome.vocabulary import SKIP_TURN_SHAPES, effect_timing, shape_key

MAX_FILLINGS = 100_000
"""The most ways to fill a board's spaces with a final house's cards `fillings` lists."""


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
    return face_up_refusal(rules, house, cell, code, keep_open) is None


def face_up_refusal(rules: Ruleset, house: House, cell: int, code: int, keep_open: bool) -> str | None:
    """The rule a face-up card on `cell` breaks (PLACE-B, PLACE-CLOSED, PLACE-C or PLACE-MERGE),
    None if it breaks none: `face_up_ok`'s one test, said by rule so the table can tell a person
    why a cell is refused (issue 33). The cell itself is assumed free and supported."""
    t = rules.tables
    if not category_ok(t, cell, code):
        return "PLACE-B"
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
            return "PLACE-CLOSED"  # a token closes the room
        held_tokens += run_tokens
    if not fits(t, code, size):
        return "PLACE-C"
    return "PLACE-MERGE" if held_tokens > 1 else None  # FURN-ONE


def _scaffold_only(rules: Ruleset, cells: tuple[int, ...]) -> bool:
    """TOOL-SCAFFOLDING: a room card must replace each scaffold before the end (ROUND-6). When the
    cards still to come (this one and one a round after it) are no more than the scaffolds,
    this card goes on one. A board with one space per round forces it anyway (the scaffold
    is then the last free space); a board with spaces to spare needs it said."""
    scaffolds = cells.count(SCAFFOLD)
    return scaffolds > 0 and rules.game.rounds - sum(1 for c in cells if c >= FACE_DOWN) <= scaffolds


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
    only_scaffold = _scaffold_only(rules, cells)
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


def placement_refusal(rules: Ruleset, house: House, card: str | int, placement: Placement) -> str | None:
    """The rule that refuses `placement` of this room card now, None if it is legal: the tests of
    `legal_placements` in its order, said by rule (PLACE-FIXED: the space holds a card;
    TOOL-SCAFFOLDING: the card must go on the scaffold space; PLACE-A: nothing below; then
    `face_up_refusal` for a face-up card)."""
    code = rules.room(card).code if isinstance(card, str) else card
    cells = house.cells
    here = cells[placement.cell]
    if here != SCAFFOLD and here != EMPTY:
        return "PLACE-FIXED"
    if here == EMPTY and _scaffold_only(rules, cells):
        return "TOOL-SCAFFOLDING"
    b = rules.tables.below[placement.cell]
    if b >= 0 and cells[b] == EMPTY:
        return "PLACE-A"
    if placement.face_down:
        return None
    return face_up_refusal(rules, house, placement.cell, code, keeps_rooms_open(rules, house))


def apply_placement(rules: Ruleset, house: House, card: str | int, placement: Placement) -> House:
    """The house after placing the card (the scaffold it replaces is discarded)."""
    code = rules.room(card).code if isinstance(card, str) else card
    if placement.face_down:
        return house.place(placement.cell, FACE_DOWN, 0, code)
    return house.place(placement.cell, code)


# ---------------------------------------------------------------- the final house (ROUND-6)
def extra_room_takes(rules: Ruleset) -> int:
    """TOOL-TIMING: the most room cards a house can receive beyond one a round: a round-start take
    without `skip_turn` (the shapes `skip_turn` is for, read from the vocabulary) brings a card
    more, each copy of its card as often as its `uses`."""
    extra = 0
    for card in rules.helpers + rules.tools:
        for e in card.effects:
            places = e.places()
            if (
                shape_key(e.name, places) in SKIP_TURN_SHAPES
                and effect_timing(e.name, places, e.timing, e.flags) == "round_start"
                and "skip_turn" not in e.flags
            ):
                extra += card.count * e.uses
    return extra


def final_room_cards(rules: Ruleset) -> range:
    """ROUND-6: how many room cards a finished house may hold: one a round (face up or face down,
    an empty space is none), and one more per round-start take without `skip_turn`
    (`extra_room_takes`), never more than the board's spaces."""
    rounds = rules.game.rounds
    return range(rounds, max(rounds, min(rounds + extra_room_takes(rules), rules.board.size)) + 1)


def final_resource_cards(rules: Ruleset) -> int:
    """ROUND-3, END-ROOFER: the most resource cards a finished house can show: one a round (a turn
    takes at most one column's resource card), and the roof cards the end game's takes from the
    roof discard pile can add (every copy of such a card, as often as its `uses`)."""
    takes = sum(
        card.count * e.uses
        for card in rules.helpers + rules.tools
        for e in card.effects
        if shape_key(e.name, e.places()) == ("take", ("roof_discard", "roof_pile"))
    )
    return rules.game.rounds + takes


def fillings(rules: Ruleset, cards: int) -> list[tuple[bool, ...]]:
    """Every way `cards` room cards can fill a final house's spaces (per cell, filled or not):
    no card above an empty space (PLACE-A). The board full is the one way when `cards` is its size.
    Refuses (DreamhomeError) a board with more than `MAX_FILLINGS` ways."""
    below = rules.board.below
    n = len(below)
    if cards >= n:
        return [(True,) * n] if cards == n else []
    order: list[int] = []  # cells, each after the cell it stands on
    placed: set[int] = set()
    while len(order) < n:
        for i in range(n):
            if i not in placed and (below[i] < 0 or below[i] in placed):
                order.append(i)
                placed.add(i)
    out: list[tuple[bool, ...]] = []
    filled = [False] * n

    def walk(k: int, left: int) -> None:
        if left == 0:
            out.append(tuple(filled))
            if len(out) > MAX_FILLINGS:
                raise DreamhomeError(f"max: more than {MAX_FILLINGS:,} ways to place {cards} room cards on the board")
            return
        if n - k < left:
            return
        i = order[k]
        if below[i] < 0 or filled[below[i]]:
            filled[i] = True
            walk(k + 1, left - 1)
            filled[i] = False
        walk(k + 1, left)

    walk(0, cards)
    return out


__all__ = [
    "extra_room_takes",
    "final_room_cards",
    "final_resource_cards",
    "fillings",
    "Placement",
    "legal_placements",
    "apply_placement",
    "free_supported_cells",
    "face_up_ok",
]
