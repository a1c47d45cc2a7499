"""The flow of a game between decisions (ROUND-*, END-ORDER): dealing, the turn order, the
resource card taken, the award token, the end game and the final scores. `GameState` runs
these forced steps after every action's handler."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, cast

from dreamhome.engine.endgame import END_ROLES, helper_uses, resolve_tokens
from dreamhome.engine.placement import free_supported_cells
from dreamhome.game.held import HeldCards
from dreamhome.game.legal import LEGAL_BY_PHASE
from dreamhome.game.phases import Phase
from dreamhome.game.roles import SCAFFOLD as SCAFFOLD_ROLE
from dreamhome.game.roles import has_end_effect, has_role
from dreamhome.game.values import Resource
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import final_score, rooms_of

if TYPE_CHECKING:
    from dreamhome.game.state import GameState


class GameFlow(HeldCards):
    """The forced steps of a game."""

    def _start_round(self) -> None:
        g = self.rules.game
        self.round += 1
        if self.round > g.rounds:
            self._start_end()
            return
        self.track_rooms = [self.room_deck.pop() for _ in range(g.deal_rooms)]
        self.track_res = [None] + [self.res_deck.pop() for _ in range(g.deal_resources)]
        self.track_res += [None] * (len(self.track_rooms) - len(self.track_res))
        self._note(
            "deal",
            rooms=[_room_id(self.rules, r) for r in self.track_rooms],
            resources=[r.to_dict() if r else None for r in self.track_res],
        )
        self.order = [(self.first + i) % self.n for i in range(self.n)]
        self.skip = set()
        self.took_zero = None
        if self.rules.game.discards_at_round_start(self.n) and self.rules.options["round_discard"] == "on":  # ROUND-1
            self.phase, self.actor = Phase.DISCARD, self.first  # ROUND-1, ROUND-ORDER
        else:
            self.round_start_window()

    def discard_column(self, k: int) -> None:
        room, res = self.track_rooms[k], self.track_res[k]
        self.track_rooms[k] = None
        self.track_res[k] = None
        if room is not None:
            self.room_discard.append(room)
        if res is not None:
            self.discard_resource(res)

    def discard_resource(self, res: Resource) -> None:
        if res.kind == "roof":
            self.roof_discard.append((self.rules.roof(res.id).index, res.window))  # ROUND-5
        else:
            self.gone.append(res)  # other resource cards leave the game

    def round_start_window(self) -> None:
        """TOOL-JACKHAMMER, TOOL-TIMING: the holders of a round-start use, in turn order, before any turn."""
        self.jack_queue = [p for p in self.order if len(LEGAL_BY_PHASE[Phase.ROUND_START](cast("GameState", self), p)) > 1]
        self.next_round_start_tool()

    def next_round_start_tool(self) -> None:
        if self.jack_queue:
            self.actor = self.jack_queue.pop(0)
            self.phase = Phase.ROUND_START
            return
        self.turn_index = -1
        self.next_turn()

    def next_turn(self) -> None:
        if self.after_place == Phase.ROUND_START and self.phase != Phase.TURN and self.pending_room is None:
            self.after_place = Phase.TURN
            self.next_round_start_tool()
            return
        self.turn_index += 1
        while self.turn_index < len(self.order) and self.order[self.turn_index] in self.skip:
            self.turn_index += 1
        if self.turn_index >= len(self.order):
            self._end_round()
            return
        self.actor = self.order[self.turn_index]
        self.phase = Phase.TURN
        self.pending_room = self.pending_res = None

    def _end_round(self) -> None:
        for k in range(len(self.track_rooms)):  # ROUND-5: leftovers are discarded
            self.discard_column(k)
        if self.took_zero is not None:
            self.first = self.took_zero
        self._start_round()

    def take_resource(self, p: int) -> None:
        res = self.pending_res
        house = self.houses[p]
        self.scaffold_pending = False
        if res is None or res.kind == "furnishing":
            pass
        elif res.kind == "roof":
            self.houses[p] = replace(house, roofs=house.roofs + ((self.rules.roof(res.id).index, res.window),))
            self.pending_res = None
        elif res.kind == "helper":  # HELP-DESIGNER applies at once: the house holds it now
            self.houses[p] = replace(house, helpers=house.helpers + (res.id,))
            self.helper_spent[p] = self.helper_spent[p] + [0] * (len(house.helpers) + 1 - len(self.helper_spent[p]))
            self.pending_res = None
        elif res.kind == "tool":
            self.pending_res = None
            last = self.round >= self.rules.game.rounds  # TOOL-LAST (a tool that acts at the end is kept)
            if last and not has_end_effect(self.rules.held(res.id)):
                self.gone.append(res)
            elif has_role(self.rules.held(res.id), SCAFFOLD_ROLE):
                self.scaffold_pending = True
                self.scaffold_card = res
            else:
                self.houses[p] = replace(house, tools=house.tools + (res.id,))
                self.tool_rounds[p] = self.tool_rounds[p] + [self.round]
                self.tool_spent[p] = self.tool_spent[p] + [0]
        if self.scaffold_pending and free_supported_cells(self.rules, self.houses[p]):
            self.phase = Phase.SCAFFOLD_BEFORE
        else:
            self.phase = Phase.PLACE

    def after_placement(self, p: int) -> None:
        if self.scaffold_pending:
            if free_supported_cells(self.rules, self.houses[p]):
                self.phase = Phase.SCAFFOLD_AFTER
                return
            self.scaffold_pending = False
            assert self.scaffold_card is not None
            self.gone.append(self.scaffold_card)
            self._note("scaffold_discarded", player=p)
        res = self.pending_res
        if res is not None and res.kind == "furnishing":
            furn = self.rules.furnishing(res.id)
            if furn.outside:
                self.houses[p] = replace(self.houses[p], outside=self.houses[p].outside + (furn.id,))
                self.gone.append(res)
                self.pending_res = None
            elif self.token_cells(p, res.id):
                self.phase = Phase.TOKEN
                return
            else:
                self._note("furnishing_discarded", player=p, furnishing=res.id)
                self.gone.append(res)
                self.pending_res = None
        self.next_turn()

    def check_award(self, p: int) -> None:
        """VAR-CAR: the first complete room of an award token's type gets it, automatically."""
        if self.car_awarded:
            return
        t = self.rules.tables
        for furn in self.rules.furnishings:
            if furn.award != "first_complete":
                continue
            code = t.token_room[furn.code]
            house = self.houses[p]
            for room, cells in rooms_of(self.rules, house):
                if room == code and len(cells) == t.max_size[code] and not any(house.tokens[i] for i in cells):
                    self.houses[p] = house.with_token(cells[0], furn.code)
                    self.car_awarded = True
                    self._note("award", player=p, token=furn.id, cell=self.rules.board.cells[cells[0]])
                    return

    def _start_end(self) -> None:
        self.phase = Phase.END
        self.end_queue = [(self.first + i) % self.n for i in range(self.n)]  # END-ORDER
        self.next_end_player()

    def next_end_player(self) -> None:
        while self.end_queue:
            p = self.end_queue.pop(0)
            uses = helper_uses(self.rules, self.houses[p])
            self.end_left = {role: list(uses.of(role)) for role in END_ROLES}
            if any(self.end_left.values()):
                self.actor = p
                self.phase = Phase.END
                return
            self.houses[p] = resolve_tokens(self.rules, self.houses[p])
        for house in self.houses:
            final_score(self.rules, house)  # ROUND-6: a house no finished game leaves is refused, not scored
        self.phase = Phase.DONE
        self.actor = -1
        self._note("scores", scores=self.returns(), winners=self.winners())


def _room_id(rules: Ruleset, code: int | None) -> str | None:
    return rules.room_of_code(code).id if code is not None else None
