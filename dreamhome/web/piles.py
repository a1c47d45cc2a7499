"""The two discard piles as the page draws them in the end game (issue 33, "the end game on the
board"): each distinct card once, with how many of it lie in the pile, and the key a legal
action that takes a card from a pile names it by, so a click on the pile's card narrows the
choices to the uses that take that card (END-SUPPLIER: a room card; END-ROOFER: a roof card).

Why distinct cards with a count, not every card: the room discard pile holds some 36 cards by the
end, of about 14 kinds; a swap takes a card of a kind, not the fifth card of it, so one card per kind is
what a person picks from. Both piles are public (SEE-1): every page sees them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from dreamhome.game.actions import Action, SwapWithRoomDiscard, TakeFromRoofDiscard
from dreamhome.i18n import DEFAULT_LANG
from dreamhome.render.action_text import roof_text
from dreamhome.ruleset import Ruleset

ROOM_PILE = "room"
ROOF_PILE = "roof"


def room_key(room: str) -> str:
    """The key of a room card of the room discard pile (`room:<id>`)."""
    return f"{ROOM_PILE}:{room}"


def roof_key(roof: str, window: bool) -> str:
    """The key of a roof card of the roof discard pile (`roof:<id>:<1 with a window, else 0>`)."""
    return f"{ROOF_PILE}:{roof}:{int(window)}"


def pile_key(action: Action) -> str | None:
    """The pile card `action` takes (its key), or None for an action that takes none."""
    if isinstance(action, SwapWithRoomDiscard):
        return room_key(action.room)
    if isinstance(action, TakeFromRoofDiscard):
        return roof_key(action.color, action.window)
    return None


def pile_cards(
    rules: Ruleset, room_discard: tuple[int, ...], roof_discard: tuple[tuple[int, bool], ...], lang: str = DEFAULT_LANG
) -> dict[str, Any]:
    """`piles` of the view: the room discard pile's kinds (`id`, `count`, `key`, `text` in
    `lang`) in the order the rules list the rooms, and the roof discard pile's (the same and
    `window`) in the order the rules list the roofs, windows last."""
    rooms = Counter(rules.room_of_code(code).id for code in room_discard)
    roofs = Counter((rules.roofs[code].id, window) for code, window in roof_discard)
    room_order = [room.id for room in rules.rooms]
    roof_order = [(roof.id, window) for window in (False, True) for roof in rules.roofs]
    return {
        "room": [
            {"id": r, "count": rooms[r], "key": room_key(r), "text": rules.card_name(r, lang)} for r in room_order if rooms[r]
        ],
        "roof": [
            {"id": r, "window": w, "count": roofs[(r, w)], "key": roof_key(r, w), "text": roof_text(rules, r, w, lang)}
            for r, w in roof_order
            if roofs[(r, w)]
        ],
    }
