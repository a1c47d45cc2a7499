"""Helpers' scoring (HELP-ARCHITECT, HELP-DESIGNER, HELP-COPIES): what the `score(...)` and
`tokens_keep_open` effects of the helpers a house holds add.

One reading for every scorer: the fast and explained scorers, the CP-SAT final score, the
end-game tables and `max` all take their amounts from `helper_amounts`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple, TypeVar

if TYPE_CHECKING:
    from dreamhome.house import House
    from dreamhome.ruleset import Ruleset
    from dreamhome.tables import Tables


class HelperAmounts(NamedTuple):
    """Points a house's helpers add: per functionality bonus met, per empty room, per token.
    A named tuple: the hot scorer builds one per house."""

    bonus_plus: int = 0
    empty_room: int = 0
    token_plus: int = 0


NONE = HelperAmounts()


def card_amounts(t: Tables, card_id: str) -> HelperAmounts:
    """What one copy of a helper adds (HELP-COPIES: copies add up)."""
    return HelperAmounts(
        t.helper_bonus_plus.get(card_id, 0), t.helper_empty_room.get(card_id, 0), t.helper_token_plus.get(card_id, 0)
    )


def helper_amounts(t: Tables, helpers: Iterable[str]) -> HelperAmounts:
    """The amounts of every helper held, summed copy by copy."""
    bonus_plus = empty_room = token_plus = 0
    for h in helpers:
        bonus_plus += t.helper_bonus_plus.get(h, 0)
        empty_room += t.helper_empty_room.get(h, 0)
        token_plus += t.helper_token_plus.get(h, 0)
    return HelperAmounts(bonus_plus, empty_room, token_plus) if (bonus_plus or empty_room or token_plus) else NONE


Count = TypeVar("Count")  # an int, or a CP-SAT linear expression of one


def empty_room_points(amounts: HelperAmounts, rooms: Count) -> Count:
    """HELP-ARCHITECT: what the helpers pay for `rooms` empty rooms (face-down cards, PLACE-EMPTY;
    an empty space is none). The one reading of the `empty_room` amount: the scorers, the CP-SAT
    final score, the end-game tables and both `max` engines call it, on a count or a CP-SAT
    expression."""
    return amounts.empty_room * rooms  # type: ignore[operator, return-value]


def helper_points(amounts: HelperAmounts, bonuses: int, empty_rooms: int) -> int:
    """What the helpers add to the printed points beyond their tokens' (`token_plus` is paid with
    each token, `furnishings.token_value`): per functionality bonus met and per empty room."""
    return amounts.bonus_plus * bonuses + empty_room_points(amounts, empty_rooms)


def keeps_rooms_open(rules: Ruleset, house: House) -> bool:
    """HELP-DESIGNER: tokens do not close this owner's rooms (PLACE-CLOSED does not apply)."""
    keeps = rules.tables.keeps_open
    return any(h in keeps for h in house.helpers) if keeps else False
