"""End-game semantics in plain Python: which helper uses a house holds, the best
pick from the roof discard, and replaying actions on a House with every rule checked.

The CP-SAT query (optimize.py) decides; this module replays its decision on the
real house with the ordinary legality code, so every answer is checked by a
second, independent path before it is returned.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from dreamhome.engine.furnishings import award_tokens_complete, resolve_tokens
from dreamhome.engine.helpers import keeps_rooms_open
from dreamhome.engine.placement import Placement, face_up_ok, placement_refusal
from dreamhome.engine.roof import RoofCard, best_roof_discard_picks
from dreamhome.engine.rooms import category_ok, floors_fit
from dreamhome.house import House
from dreamhome.ruleset import EMPTY, FACE_DOWN, ROOM0, Ruleset
from dreamhome.tables import Tables
from dreamhome.vocabulary import effect_timing

# The end-game roles, named by what the effect does (END-ORDER); a rules file names the cards.
ROOM_DISCARD_SWAP = "room_discard_swap"  # swap(house, room_discard) at end (END-SUPPLIER)
HOUSE_SWAP = "house_swap"  # swap(house, house) at end (END-HANDYMAN)
ROOF_DISCARD_TAKE = "roof_discard_take"  # take(roof_discard, roof_pile) at end (END-ROOFER)
FLOOR_SWAP = "floor_swap"  # swap(floor, floor) at end (END-FLOOR-SWAP)


@dataclass(frozen=True)
class EndRole:
    """An end-game role (END-ORDER): the effect shape that plays it, the rule it follows, and
    whether the most uses that can change a house are the board's spaces or the roof's size
    (`use_caps`)."""

    name: str
    effect: str
    places: tuple[str, ...]
    rule: str
    capped_by_roof: bool = False
    pairs: str | None = None  # a swap of two house cards: "any" two, or two of "one_floor"; else None


# Every end-game role, in the order a player's uses are listed and searched; everything else
# (the roles' names, the effect → role map, `HelperUses`' fields, the caps) is derived from it.
END_ROLE_SPECS: tuple[EndRole, ...] = (
    EndRole(ROOM_DISCARD_SWAP, "swap", ("house", "room_discard"), "END-SUPPLIER"),
    EndRole(HOUSE_SWAP, "swap", ("house", "house"), "END-HANDYMAN", pairs="any"),
    EndRole(ROOF_DISCARD_TAKE, "take", ("roof_discard", "roof_pile"), "END-ROOFER", capped_by_roof=True),
    EndRole(FLOOR_SWAP, "swap", ("floor", "floor"), "END-FLOOR-SWAP", pairs="one_floor"),
)
END_ROLES = tuple(r.name for r in END_ROLE_SPECS)
_ROLE_OF_EFFECT: dict[tuple[str, tuple[str, ...]], str] = {(r.effect, r.places): r.name for r in END_ROLE_SPECS}
SWAP_ROLES = tuple(r for r in END_ROLE_SPECS if r.pairs is not None)  # the roles that swap two house cards
_SPEC = {r.name: r for r in END_ROLE_SPECS}


def pair_ok(rules: Ruleset, role: str, a: int, b: int) -> bool:
    """Whether a swap of `role` may swap cells a and b at all: any two (END-HANDYMAN), or two
    of one floor (`pairs = "one_floor"`)."""
    pairs = _SPEC[role].pairs
    if pairs == "any":
        return True
    if pairs == "one_floor":
        floor = rules.tables.cell_floor
        return floor[a] == floor[b]
    raise ValueError(f"{role} swaps no two house cards")


# The end game's readings of other rule areas, imported here so the end game's callers find them together.
__all__ = [
    "END_ROLES",
    "FLOOR_SWAP",
    "END_ROLE_SPECS",
    "SWAP_ROLES",
    "EndRole",
    "HOUSE_SWAP",
    "ROOF_DISCARD_TAKE",
    "ROOM_DISCARD_SWAP",
    "HelperUses",
    "ReplayError",
    "best_roof_discard_picks",
    "end_role",
    "find_sequence",
    "helper_uses",
    "use_caps",
    "resolve_tokens",
    "pair_ok",
    "pair_swap_house",
    "supply_fits",
    "swap_pair",
    "supplied",
    "swap_in_house",
    "swapped",
    "swap_keeps_b_and_c",
    "swap_with_room_discard",
    "take_from_roof_discard",
]


@dataclass(frozen=True)
class HelperUses:
    """End-game uses a house holds, one entry per use, each the id of the card that gives it
    (END-ORDER, HELP-COPIES). Fields are the roles of `END_ROLES`."""

    room_discard_swap: tuple[str, ...] = ()
    house_swap: tuple[str, ...] = ()
    roof_discard_take: tuple[str, ...] = ()
    floor_swap: tuple[str, ...] = ()

    def of(self, role: str) -> tuple[str, ...]:
        return tuple(getattr(self, role))


if {f.name for f in fields(HelperUses)} != set(END_ROLES):
    raise RuntimeError(f"HelperUses needs one field per end-game role: {', '.join(END_ROLES)}")


def end_role(name: str, places: tuple[str, ...]) -> str | None:
    """The end-game role of an effect shape, or None if it is no end-game use."""
    return _ROLE_OF_EFFECT.get((name, places))


def use_caps(rules: Ruleset) -> dict[str, int]:
    """TOOL-TIMING: the most uses of each end-game role that can change a house; more are never
    searched. A house swap or a room-discard swap changes at most one or two spaces, and any
    rearrangement of the spaces takes fewer swaps than the board has spaces; the roof scores its
    best `size` cards (SCORE-ROOF), so more roof takes than that never add a point."""
    return {r.name: rules.roof_scoring.size if r.capped_by_roof else rules.board.size for r in END_ROLE_SPECS}


def helper_uses(rules: Ruleset, house: House) -> HelperUses:
    """The end-game uses of the cards a house holds (END-ORDER, HELP-COPIES, TOOL-TIMING): every
    effect of a helper or a tool that acts `at end`, `uses` times, capped per role (`use_caps`)."""
    found: dict[str, list[str]] = {role: [] for role in END_ROLES}
    caps = use_caps(rules)
    for cid in house.helpers + house.tools:
        for effect in rules.held(cid).effects:
            places = effect.places()
            role = end_role(effect.name, places)
            if role is not None and effect_timing(effect.name, places, effect.timing, effect.flags) == "end":
                found[role] += [cid] * min(effect.uses, caps[role] - len(found[role]))
    return HelperUses(**{role: tuple(ids) for role, ids in found.items()})


class ReplayError(RuntimeError):
    """An end-game action that the rules do not allow at that moment."""


def swap_with_room_discard(rules: Ruleset, house: House, cell: int, incoming: str, face_down: bool) -> House:
    """END-SUPPLIER: the incoming card must be legal on the emptied space (or go face down)."""
    if incoming not in house.discard_rooms:
        raise ReplayError(f"no {incoming} in the room discard pile")
    if face_down and rules.options["swap_face_down"] != "allowed":
        raise ReplayError("swap_face_down is forbidden by the rules in use")
    code, under = house.cells[cell], house.under[cell]
    if code < ROOM0 and code != FACE_DOWN:
        raise ReplayError(f"{rules.board.cells[cell]} holds no card")
    outgoing = rules.room_of_code(code).id if code >= ROOM0 else (rules.room_of_code(under).id if under else None)
    emptied = house.place(cell, EMPTY)
    if placement_refusal(rules, emptied, incoming, Placement(cell, face_down)) is not None:  # legal_placements' test, one cell
        raise ReplayError(
            f"{incoming} cannot go {'face down ' if face_down else ''}on {rules.board.cells[cell]} (PLACE-B/C/CLOSED/MERGE)"
        )
    pile = list(house.discard_rooms)
    pile.remove(incoming)
    if outgoing:
        pile.append(outgoing)
    placed = supplied(emptied, cell, rules.room(incoming).code, face_down)
    if not award_tokens_complete(rules, placed):
        raise ReplayError(f"{incoming} on {rules.board.cells[cell]} would leave an award token in an incomplete room (VAR-CAR)")
    return placed.changed(discard_rooms=tuple(pile))


def supplied(emptied: House, cell: int, code: int, face_down: bool) -> House:
    """END-SUPPLIER: the card of type `code` on the emptied `cell`, face up, or face down over it
    (the replay and the game's list of uses build the house after a supply the same way)."""
    return emptied.place(cell, FACE_DOWN, 0, code) if face_down else emptied.place(cell, code)


def supply_fits(rules: Ruleset, house: House, cell: int, code: int, face_down: bool) -> bool:
    """END-SUPPLIER on the house as it stands: may a card of type `code` replace the card on
    `cell` (PLACE-B/C/CLOSED/MERGE face up, PLACE-EMPTY face down)? The same test as
    `swap_with_room_discard`, without the pile; it reads only the cell's floor and the helpers,
    so the end-game tables ask it once per floor row."""
    if face_down:
        return rules.options["swap_face_down"] == "allowed"
    return face_up_ok(rules, house.place(cell, EMPTY), cell, code, keeps_rooms_open(rules, house))


def swap_keeps_b_and_c(t: Tables, cells: tuple[int, ...], a: int, b: int) -> bool:
    """PLACE-B and PLACE-C after swapping cells a and b of a legal house (only their floors
    change), from the index tables: the game lists every house swap with it."""
    if _misplaced_by_swap(t, cells, a, b) is not None:
        return False
    swapped = list(cells)
    swapped[a], swapped[b] = cells[b], cells[a]
    return floors_fit(t, swapped, {t.cell_floor[a], t.cell_floor[b]})


def _misplaced_by_swap(t: Tables, cells: tuple[int, ...], a: int, b: int) -> tuple[int, int] | None:
    """PLACE-B after swapping cells a and b: the first (cell, card) where a face-up card would
    stand on a floor its category may not, or None."""
    for here, card in ((b, cells[a]), (a, cells[b])):
        if card >= ROOM0 and not category_ok(t, here, card):
            return here, card
    return None


def swapped(house: House, a: int, b: int) -> House:
    """The house with cells a and b exchanged, each card with its token and what lies under it
    (END-HANDYMAN: a token travels with its card)."""
    cells, tokens, under = list(house.cells), list(house.tokens), list(house.under)
    for seq in (cells, tokens, under):
        seq[a], seq[b] = seq[b], seq[a]
    return house.changed(cells=tuple(cells), tokens=tuple(tokens), under=tuple(under))


def swap_in_house(rules: Ruleset, house: House, a: int, b: int) -> House:
    """END-HANDYMAN: swap two cards with their tokens; PLACE-B and PLACE-C must hold after, and
    every award token stay in a complete room (VAR-CAR)."""
    after = swapped(house, a, b)
    if not swap_keeps_b_and_c(rules.tables, house.cells, a, b):
        raise ReplayError(f"swap {rules.board.cells[a]} ↔ {rules.board.cells[b]}: {_broken_by_swap(rules, house.cells, a, b)}")
    if not award_tokens_complete(rules, after):
        raise ReplayError(f"swap {rules.board.cells[a]} ↔ {rules.board.cells[b]}: an award token in an incomplete room (VAR-CAR)")
    return after


def _broken_by_swap(rules: Ruleset, cells: tuple[int, ...], a: int, b: int) -> str:
    """Which rule a refused swap of cells `a` and `b` breaks, and where, read as
    `swap_keeps_b_and_c` reads it: a card that may not stand on its new floor (PLACE-B), else a
    room grown past its maximum on one of the two floors (PLACE-C). `dreamhome check` of the
    swapped house says the same with every detail (legality sits above the engine)."""
    names = rules.board.cells
    misplaced = _misplaced_by_swap(rules.tables, cells, a, b)
    if misplaced is not None:
        here, card = misplaced
        return f"PLACE-B at {names[here]} ({rules.room_of_code(card).name.lower()} on that floor)"
    return f"PLACE-C on the floor of {names[a]} or {names[b]} (a room past its maximum size)"


def swap_pair(rules: Ruleset, house: House, a: int, b: int, role: str = HOUSE_SWAP) -> House:
    """A swap of two house cards by `role` (`SWAP_ROLES`): its pair rule (`pair_ok`), then
    END-HANDYMAN's swap with tokens, PLACE-B and PLACE-C."""
    if not pair_ok(rules, role, a, b):
        raise ReplayError(f"{_SPEC[role].rule}: {rules.board.cells[a]} and {rules.board.cells[b]} cannot be swapped by {role}")
    return swap_in_house(rules, house, a, b)


def pair_swap_house(rules: Ruleset, house: House, a: int, b: int, role: str, in_play: bool) -> House:
    """The house after a swap of two of its cards by `role` (`swap_pair`); during play
    (TOOL-TIMING) a room keeps its best token at once (END-HANDYMAN), at the end when the player
    is done. The game's handler builds the house here, and a bot valuing the swap reads the same."""
    after = swap_pair(rules, house, a, b, role)
    return resolve_tokens(rules, after) if in_play else after


def take_from_roof_discard(rules: Ruleset, house: House, roof: RoofCard) -> House:
    pile = list(house.discard_roofs)
    if roof not in pile:
        raise ReplayError("that roof card is not in the roof discard pile")
    pile.remove(roof)
    return replace(house, roofs=house.roofs + (roof,), discard_roofs=tuple(pile))


def _key(rules: Ruleset, house: House, cell: int) -> tuple[str, int, int]:
    """What a cell holds, as scoring and the rules see it: (kind, room code, token)."""
    code = house.cells[cell]
    if code == FACE_DOWN:
        return ("down", house.under[cell], 0)
    return ("token" if house.tokens[cell] else "up", code, house.tokens[cell])


def find_sequence(
    rules: Ruleset, house: House, target: list[tuple[str, int, int]], uses: HelperUses, budget: int = 200_000
) -> list | None:
    """An order of room-discard swaps and swaps of two house cards (`SWAP_ROLES`) that turns
    `house` into `target` (one key per cell), every step legal at its moment; None if there is none.
    A step is (ROOM_DISCARD_SWAP, cell, room id, face down) or (role, cell, cell).

    Depth-first over actions, deepened step by step (the fewest actions first, room-discard
    swaps before the swap roles, in their order): a branch is cut when more cells differ from the
    target than the remaining actions can fix (2 per swap, 1 per room-discard swap), so many uses
    (TOOL-TIMING) cost no deeper search than the target needs.
    """
    n = rules.board.size
    swap_down = rules.options["swap_face_down"] == "allowed"
    steps = [0]
    roles = [r.name for r in SWAP_ROLES]
    pairs = {role: [(a, b) for a in range(n) for b in range(a + 1, n) if pair_ok(rules, role, a, b)] for role in roles}

    def search(current: House, s_left: int, h_left: tuple[int, ...]) -> list | None:
        keys = [_key(rules, current, c) for c in range(n)]
        wrong = [c for c in range(n) if keys[c] != target[c]]
        if not wrong:
            return []
        h_total = sum(h_left)
        if len(wrong) > 2 * h_total + s_left:
            return None
        steps[0] += 1
        if steps[0] > budget:
            raise TimeoutError("reachability search budget exhausted")
        if s_left:
            for room_id in sorted(set(current.discard_rooms)):
                room = rules.room(room_id).code
                for cell in range(n):
                    for face_down in (False, True) if swap_down else (False,):
                        new_key = ("down", room, 0) if face_down else ("up", room, 0)
                        misses = len(wrong) - (keys[cell] != target[cell]) + (new_key != target[cell])
                        if misses > 2 * h_total + s_left - 1:
                            continue
                        try:
                            nxt = swap_with_room_discard(rules, current, cell, room_id, face_down)
                        except ReplayError:
                            continue
                        rest = search(nxt, s_left - 1, h_left)
                        if rest is not None:
                            return [(ROOM_DISCARD_SWAP, cell, room_id, face_down)] + rest
        for i, role in enumerate(roles):
            if not h_left[i]:
                continue
            after = h_left[:i] + (h_left[i] - 1,) + h_left[i + 1 :]
            for a, b in pairs[role]:
                if keys[a] == keys[b]:
                    continue
                misses = (
                    len(wrong) - (keys[a] != target[a]) - (keys[b] != target[b]) + (keys[b] != target[a]) + (keys[a] != target[b])
                )
                if misses > 2 * (h_total - 1) + s_left:
                    continue
                try:
                    nxt = swap_in_house(rules, current, a, b)
                except ReplayError:
                    continue
                rest = search(nxt, s_left, after)
                if rest is not None:
                    return [(role, a, b)] + rest
        return None

    s_max = len(uses.room_discard_swap)
    h_max = tuple(len(uses.of(role)) for role in roles)
    for total in range(s_max + sum(h_max) + 1):
        for s_now in range(min(s_max, total), -1, -1):
            for h_now in _splits(total - s_now, h_max):
                found = search(house, s_now, h_now)
                if found is not None:
                    return found
    return None


def _splits(total: int, caps: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way to spend `total` uses over the swap roles, each at most its cap (the first role most)."""
    if not caps:
        return [()] if total == 0 else []
    out = []
    for first in range(min(caps[0], total), -1, -1):
        out += [(first, *rest) for rest in _splits(total - first, caps[1:])]
    return out
