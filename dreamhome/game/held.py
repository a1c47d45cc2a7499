"""The cards a player holds (RES-TOOL, TOOL-TIMING, TOOL-LAST): which of them can act now, and
one use of one of them spent. `GameState` inherits these readings."""

from __future__ import annotations

from dataclasses import replace

from dreamhome.game.actions import Action
from dreamhome.game.fields import GameFields
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
from dreamhome.ruleset import EMPTY, SCAFFOLD, Effect
from dreamhome.scoring import rooms_of
from dreamhome.vocabulary import DURING_PLAY


class HeldCards(GameFields):
    """What each player holds and may use now."""

    def card_for(self, action: Action) -> str | None:
        """The id of the helper or tool card the actor uses for `action`, if it holds one: the
        card `action_text` names, which the renderers name in a player's language."""
        helper = getattr(action, "helper", None)
        if isinstance(helper, str) and self.rules.has_held(helper):
            return helper
        if action.role == SCAFFOLD_ROLE:  # the scaffold card just taken (TOOL-SCAFFOLDING), not any of its kind
            return self.scaffold_card.id if self.scaffold_card is not None else self.scaffold_id()
        if action.role == TAKE_ROOM_AT_ROUND_START and 0 <= self.actor < self.n and self.phase == Phase.ROUND_START:
            taker = self.round_start_taker(self.actor)
            if taker is not None:
                return taker
        if action.role in TOOL_ROLES and 0 <= self.actor < self.n:  # a tool used during play (scaffold: above)
            usable = self.usable_cards(self.actor, action.role, self.timing_now())
            if usable:
                return self._held_id(self.actor, *usable[0])
            return next((c.id for c in tools_with_role(self.rules, action.role)), None)
        return None

    def usable_cards(self, p: int, role: str, timing: str) -> list[tuple[str, int]]:
        """TOOL-TIMING, RES-TOOL, TOOL-LAST: the player's cards that can play `role` at `timing` now,
        as (kind, slot in the house's tools or helpers): tools first, in the order taken, then
        helpers; each with uses left; a tool taken in the last round only for `at end`."""
        ids = timed_cards(self.rules, role, timing)
        if not ids:
            return []
        house = self.houses[p]
        last = self.rules.game.rounds
        out: list[tuple[str, int]] = []
        for i, (tool, taken) in enumerate(zip(house.tools, self.tool_rounds[p])):
            if (
                tool in ids
                and not (timing in DURING_PLAY and taken >= last)
                and self._spent(p, "tool", i) < self._uses(tool, role, timing)
            ):
                out.append(("tool", i))
        for j, helper in enumerate(house.helpers):
            if helper in ids and self._spent(p, "helper", j) < self._uses(helper, role, timing):
                out.append(("helper", j))
        return out

    def _uses(self, card: str, role: str, timing: str) -> int:
        effect = timed_effect(self.rules.held(card), role, timing)
        return effect.uses if effect is not None else 0

    def _spent(self, p: int, kind: str, slot: int) -> int:
        spent = self.tool_spent[p] if kind == "tool" else self.helper_spent[p]
        return spent[slot] if slot < len(spent) else 0

    def round_start_take_fits(self, p: int) -> bool:
        """TOOL-TIMING: the player holds a card whose round-start take fits now (`round_start_taker`)."""
        return self.round_start_taker(p) is not None

    def round_start_taker(self, p: int) -> str | None:
        """TOOL-TIMING: the card a round-start take of player `p` uses: of the cards that can make it now,
        the first tool held, else the first helper. A take leaves a room card for every turn still to
        come this round (one with `skip_turn` also removes its user's turn); one without `skip_turn` is
        a room card more, so its user's house must keep a space for every turn it has left. A card
        whose take does not fit cannot make the move, so it does not hide the next one that can."""
        for kind, slot in self.usable_cards(p, TAKE_ROOM_AT_ROUND_START, "round_start"):
            card = self._held_id(p, kind, slot)
            effect = timed_effect(self.rules.held(card), TAKE_ROOM_AT_ROUND_START, "round_start")
            if effect is not None and self._take_fits(p, "skip_turn" in effect.flags and p not in self.skip):
                return card
        return None

    def _take_fits(self, p: int, skips: bool) -> bool:
        turns = sum(1 for q in self.order if q not in self.skip) - skips
        if sum(1 for r in self.track_rooms if r is not None) - 1 < turns:
            return False
        if skips:
            return True
        # A room card more for this player: its house must still hold it and one per turn to come.
        own_turns = self.rules.game.rounds - self.round + (p not in self.skip)
        return sum(1 for c in self.houses[p].cells if c in (EMPTY, SCAFFOLD)) - 1 >= own_turns

    def token_cells(self, p: int, furn_id: str) -> list[int]:
        """FURN-TYPE, FURN-ONE: cards of rooms of the printed type that hold no token."""
        house = self.houses[p]
        printed = self.rules.furnishing(furn_id).room
        assert printed is not None  # FURN-TYPE: a furnishing placed as a token names its room
        code = self.rules.room(printed).code
        return [
            c
            for room, cells in rooms_of(self.rules, house)
            if room == code and not any(house.tokens[i] for i in cells)
            for c in cells
        ]

    def use_role(self, p: int, role: str, timing: str, card: str | None = None) -> Effect:
        """RES-TOOL, TOOL-TIMING: one use of the first usable card of the role at this timing (or of
        `card`); a tool whose uses are spent is discarded (unless it still acts at the end), a
        helper is kept; `skip_turn` costs the user's turn this round."""
        for kind, slot in self.usable_cards(p, role, timing):
            cid = self._held_id(p, kind, slot)
            if card is not None and cid != card:
                continue
            held = self.rules.held(cid)
            effect = timed_effect(held, role, timing)
            assert effect is not None
            spent = self._spent(p, kind, slot) + 1
            if kind == "tool":
                if spent >= effect.uses and not has_end_effect(held):
                    house = self.houses[p]
                    self.gone.append(Resource("tool", cid))
                    self.houses[p] = replace(house, tools=house.tools[:slot] + house.tools[slot + 1 :])
                    self.tool_rounds[p] = self.tool_rounds[p][:slot] + self.tool_rounds[p][slot + 1 :]
                    self.tool_spent[p] = self.tool_spent[p][:slot] + self.tool_spent[p][slot + 1 :]
                else:
                    self.tool_spent[p][slot] = spent
            else:
                helpers = self.helper_spent[p]
                helpers += [0] * (len(self.houses[p].helpers) - len(helpers))
                helpers[slot] = spent
            if "skip_turn" in effect.flags:
                self.skip.add(p)
            return effect
        raise AssertionError("no usable card for this action")

    def scaffold_id(self) -> str:
        """The id of the first tool card with the scaffold role (RES-TOOL)."""
        return tools_with_role(self.rules, SCAFFOLD_ROLE)[0].id

    def spend_helper(self, p: int, role: str, card: str) -> None:
        """END-ORDER: one end-game use of the role gone; during play (TOOL-TIMING) one use of `card`."""
        if self.phase == Phase.END:
            self.end_left[role].pop(0)
            house = self.houses[p]
            while card in house.tools and not any(card in left for left in self.end_left.values()):
                slot = house.tools.index(card)  # RES-TOOL: a tool whose uses are spent is discarded
                self.gone.append(Resource("tool", card))
                self.houses[p] = replace(house, tools=house.tools[:slot] + house.tools[slot + 1 :])
                self.tool_rounds[p] = self.tool_rounds[p][:slot] + self.tool_rounds[p][slot + 1 :]
                self.tool_spent[p] = self.tool_spent[p][:slot] + self.tool_spent[p][slot + 1 :]
                house = self.houses[p]
        else:
            self.use_role(p, role, "before_take", card)
