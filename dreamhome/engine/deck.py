"""The decks (COMP-5): every card the rules deal, and what is left of them beside a house.

One reading of "the deck minus this house" for `place`'s default pool, the
solver bot's pool, `max`'s printed cards under empty rooms and the generator.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from dreamhome.ruleset import FACE_DOWN, ROOM0

if TYPE_CHECKING:
    from dreamhome.engine.roof import RoofCard
    from dreamhome.house import House
    from dreamhome.ruleset import Ruleset


def room_cards(rules: Ruleset) -> Counter[int]:
    """The room deck: room code → how many cards of it the game has."""
    return Counter({r.code: r.count for r in rules.rooms})


def roof_cards(rules: Ruleset) -> list[RoofCard]:
    """The roof deck as (colour index, window) cards: the first `windows` of each colour carry one."""
    return [(r.index, k < r.windows) for r in rules.roofs for k in range(r.count)]


def house_room_cards(rules: Ruleset, house: House) -> Counter[int]:
    """The room cards a house holds or has discarded: face up, printed under empty rooms, its pile."""
    used: Counter[int] = Counter()
    for i, code in enumerate(house.cells):
        if code >= ROOM0:
            used[code] += 1
        elif code == FACE_DOWN and house.under[i]:
            used[house.under[i]] += 1
    for rid in house.discard_rooms:
        used[rules.room(rid).code] += 1
    return used


def rooms_left(rules: Ruleset, house: House, seen: Iterable[int] = ()) -> dict[int, int]:
    """The room deck minus the house's cards and any other cards `seen` (codes): what may still
    come. Only positive counts are kept."""
    left = room_cards(rules)
    left.subtract(house_room_cards(rules, house))
    for code in seen:
        if left[code] > 0:
            left[code] -= 1
    return {code: n for code, n in left.items() if n > 0}
