"""The cards a player holds (RES-TOOL, TOOL-TIMING, TOOL-LAST): which of them can act now, and
one use of one of them spent.

Module functions taking the state, as the handlers (`handlers.py`) and the round's flow
(`flow.py`) are: the held cards are the house's tools and helpers plus the state's
`tool_rounds`, `tool_spent` and `helper_spent`, each list slot by slot beside the house's, so
they are read and changed where the state keeps them, not in a copy that could drift from it.
The legal-action generators (`legal.py`) read them, the handlers spend them; `GameState`
answers `card_for`, `usable_cards` and `token_cells` from here for the callers outside the
game (the renderers, the table, the tests).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from dreamhome.game.actions import Action
from dreamhome.game.phases import Phase
from dreamhome.game.roles import SCAFFOLD as SCAFFOLD_ROLE
from dreamhome.game.roles import (
    TAKE_ROOM_AT_ROUND_START,
    TOOL_ROLES,
    has_end_effect,
    timed_cards,
    timed_effect,
    tools_with_role,
)
from dreamhome.game.values import Resource
from dreamhome.ruleset import EMPTY, SCAFFOLD, Effect, Ruleset
from dreamhome.scoring import rooms_of
from dreamhome.vocabulary import DURING_PLAY

if TYPE_CHECKING:
    from dreamhome.game.state import GameState


def card_for(state: GameState, action: Action) -> str | None:
    """The id of the helper or tool card the actor uses for `action`, if it holds one: the
    card `action_text` names, which the renderers name in a player's language."""
    helper = getattr(action, "helper", None)
    if isinstance(helper, str) and state.rules.has_held(helper):
        return helper
    if action.role == SCAFFOLD_ROLE:  # the scaffold card just taken (TOOL-SCAFFOLDING), not any of its kind
        return state.scaffold_card.id if state.scaffold_card is not None else scaffold_id(state.rules)
    actor = state.actor
    if action.role == TAKE_ROOM_AT_ROUND_START and 0 <= actor < state.n and state.phase == Phase.ROUND_START:
        taker = round_start_taker(state, actor)
        if taker is not None:
            return taker
    if action.role in TOOL_ROLES and 0 <= actor < state.n:  # a tool used during play (scaffold: above)
        usable = usable_cards(state, actor, action.role, state.timing_now())
        if usable:
            return _held_id(state, actor, *usable[0])
        return next((c.id for c in tools_with_role(state.rules, action.role)), None)
    return None


def usable_cards(state: GameState, p: int, role: str, timing: str) -> list[tuple[str, int]]:
    """TOOL-TIMING, RES-TOOL, TOOL-LAST: the player's cards that can play `role` at `timing` now,
    as (kind, slot in the house's tools or helpers): tools first, in the order taken, then
    helpers; each with uses left; a tool taken in the last round only for `at end`."""
    ids = timed_cards(state.rules, role, timing)
    if not ids:
        return []
    house = state.houses[p]
    last = state.rules.game.rounds
    out: list[tuple[str, int]] = []
    for i, (tool, taken) in enumerate(zip(house.tools, state.tool_rounds[p])):
        if (
            tool in ids
            and not (timing in DURING_PLAY and taken >= last)
            and _spent(state, p, "tool", i) < _uses(state.rules, tool, role, timing)
        ):
            out.append(("tool", i))
    for j, helper in enumerate(house.helpers):
        if helper in ids and _spent(state, p, "helper", j) < _uses(state.rules, helper, role, timing):
            out.append(("helper", j))
    return out


def _held_id(state: GameState, p: int, kind: str, slot: int) -> str:
    """The id of the card in `slot` of the player's tools or helpers (`usable_cards`' pairs)."""
    house = state.houses[p]
    return house.tools[slot] if kind == "tool" else house.helpers[slot]


def _uses(rules: Ruleset, card: str, role: str, timing: str) -> int:
    effect = timed_effect(rules.held(card), role, timing)
    return effect.uses if effect is not None else 0


def _spent(state: GameState, p: int, kind: str, slot: int) -> int:
    spent = state.tool_spent[p] if kind == "tool" else state.helper_spent[p]
    return spent[slot] if slot < len(spent) else 0


def round_start_take_fits(state: GameState, p: int) -> bool:
    """TOOL-TIMING: the player holds a card whose round-start take fits now (`round_start_taker`)."""
    return round_start_taker(state, p) is not None


def round_start_taker(state: GameState, p: int) -> str | None:
    """TOOL-TIMING: the card a round-start take of player `p` uses: of the cards that can make it now,
    the first tool held, else the first helper. A take leaves a room card for every turn still to
    come this round (one with `skip_turn` also removes its user's turn); one without `skip_turn` is
    a room card more, so its user's house must keep a space for every turn it has left. A card
    whose take does not fit cannot make the move, so it does not hide the next one that can."""
    for kind, slot in usable_cards(state, p, TAKE_ROOM_AT_ROUND_START, "round_start"):
        card = _held_id(state, p, kind, slot)
        effect = timed_effect(state.rules.held(card), TAKE_ROOM_AT_ROUND_START, "round_start")
        if effect is not None and _take_fits(state, p, "skip_turn" in effect.flags and p not in state.skip):
            return card
    return None


def _take_fits(state: GameState, p: int, skips: bool) -> bool:
    turns = sum(1 for q in state.order if q not in state.skip) - skips
    if sum(1 for r in state.track_rooms if r is not None) - 1 < turns:
        return False
    if skips:
        return True
    # A room card more for this player: its house must still hold it and one per turn to come.
    own_turns = state.rules.game.rounds - state.round + (p not in state.skip)
    return sum(1 for c in state.houses[p].cells if c in (EMPTY, SCAFFOLD)) - 1 >= own_turns


def token_cells(state: GameState, p: int, furn_id: str) -> list[int]:
    """FURN-TYPE, FURN-ONE: cards of rooms of the printed type that hold no token."""
    house = state.houses[p]
    printed = state.rules.furnishing(furn_id).room
    assert printed is not None  # FURN-TYPE: a furnishing placed as a token names its room
    code = state.rules.room(printed).code
    return [
        c
        for room, cells in rooms_of(state.rules, house)
        if room == code and not any(house.tokens[i] for i in cells)
        for c in cells
    ]


def use_role(state: GameState, p: int, role: str, timing: str, card: str | None = None) -> Effect:
    """RES-TOOL, TOOL-TIMING: one use of the first usable card of the role at this timing (or of
    `card`); a tool whose uses are spent is discarded (unless it still acts at the end), a
    helper is kept; `skip_turn` costs the user's turn this round."""
    for kind, slot in usable_cards(state, p, role, timing):
        cid = _held_id(state, p, kind, slot)
        if card is not None and cid != card:
            continue
        held = state.rules.held(cid)
        effect = timed_effect(held, role, timing)
        assert effect is not None
        spent = _spent(state, p, kind, slot) + 1
        if kind == "tool":
            if spent >= effect.uses and not has_end_effect(held):
                _discard_tool(state, p, slot)
            else:
                state.tool_spent[p][slot] = spent
        else:
            helpers = state.helper_spent[p]
            helpers += [0] * (len(state.houses[p].helpers) - len(helpers))
            helpers[slot] = spent
        if "skip_turn" in effect.flags:
            state.skip.add(p)
        return effect
    raise AssertionError("no usable card for this action")


def scaffold_id(rules: Ruleset) -> str:
    """The id of the first tool card with the scaffold role (RES-TOOL)."""
    return tools_with_role(rules, SCAFFOLD_ROLE)[0].id


def spend_helper(state: GameState, p: int, role: str, card: str) -> None:
    """END-ORDER: one end-game use of the role gone; during play (TOOL-TIMING) one use of `card`."""
    if state.phase == Phase.END:
        state.end_left[role].pop(0)
        while card in state.houses[p].tools and not any(card in left for left in state.end_left.values()):
            _discard_tool(state, p, state.houses[p].tools.index(card))
    else:
        use_role(state, p, role, "before_take", card)


def _discard_tool(state: GameState, p: int, slot: int) -> None:
    """RES-TOOL: the tool in `slot` of the player's tools, its uses spent, leaves the game (with
    its round taken and its uses spent, which follow the tools slot by slot)."""
    house = state.houses[p]
    state.gone.append(Resource("tool", house.tools[slot]))
    state.houses[p] = replace(house, tools=house.tools[:slot] + house.tools[slot + 1 :])
    state.tool_rounds[p] = state.tool_rounds[p][:slot] + state.tool_rounds[p][slot + 1 :]
    state.tool_spent[p] = state.tool_spent[p][:slot] + state.tool_spent[p][slot + 1 :]
