"""The game of Dream Home, 2–4 players, every rule of RULES.md (OpenSpiel-style API).

`GameState` owns the shuffled decks (a seeded RNG used once, at setup), the
track, the houses, held cards, discard piles, the first-player marker and the
phase. `legal_actions()` lists the real alternatives of the player to act;
`apply_action()` checks the action is one of them (else `IllegalAction` naming
the rule, the state unchanged), applies it, then runs the forced steps
(dealing, discards, single-option decisions, the car, scoring) by itself,
recording each in `events`.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, replace

from dreamhome.engine.endgame import helper_uses, resolve_tokens, swap_in_house, swap_keeps_b_and_c, swap_with_room_discard
from dreamhome.engine.helpers import keeps_rooms_open
from dreamhome.engine.placement import (
    Placement,
    apply_placement,
    face_up_ok,
    free_supported_cells,
    legal_placements,
)
from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import (
    Action,
    DeferScaffolding,
    DiscardColumn,
    EndTurn,
    HandymanSwap,
    PassTool,
    PlaceRoom,
    PlaceScaffolding,
    PlaceToken,
    RooferTake,
    SupplierSwap,
    TakeColumn,
    UseDrill,
    UseJackhammer,
    UseMixer,
)
from dreamhome.house import House
from dreamhome.ruleset import EMPTY, ROOM0, SCAFFOLD, Ruleset
from dreamhome.scoring import rooms_of, score_total

DISCARD, JACKHAMMER, TURN, SCAFFOLD_BEFORE, PLACE, SCAFFOLD_AFTER, TOKEN, END, DONE = (
    "discard",
    "jackhammer",
    "turn",
    "scaffold_before",
    "place",
    "scaffold_after",
    "token",
    "end",
    "done",
)


class IllegalAction(DreamhomeError):  # noqa: N818 - OpenSpiel-style name
    def __init__(self, rule: str, message: str):
        self.rule = rule
        super().__init__(f"{rule}: {message}")


@dataclass(frozen=True)
class Resource:
    """A resource card: a roof (id = colour), a furnishing, a helper or a tool."""

    kind: str
    id: str
    window: bool = False

    def to_dict(self) -> dict:
        return {"kind": self.kind, "id": self.id, "window": self.window}

    def text(self) -> str:
        if self.kind == "roof":
            return f"{self.id} roof" + (" with window" if self.window else "")
        return f"{self.kind} {self.id}"


def _tool_with(rules: Ruleset, effect: str) -> set[str]:
    return {c.id for c in rules.tools if c.effect(effect) is not None}


class GameState:
    def __init__(self, rules: Ruleset, players: int, seed: int, first_player: int | None = None):
        g = rules.game
        if not g.min_players <= players <= g.max_players:
            raise DreamhomeError(f"players must be {g.min_players}–{g.max_players} under these rules, got {players}")
        self.rules = rules
        self.n = players
        self.seed = seed
        rng = random.Random(seed)
        rooms = [r.code for r in rules.rooms for _ in range(r.count)]
        res = [Resource("roof", r.id, k < r.windows) for r in rules.roofs for k in range(r.count)]
        res += [Resource("furnishing", f.id) for f in rules.furnishings if f.is_card for _ in range(f.count)]
        res += [Resource(c.kind, c.id) for c in rules.helpers + rules.tools for _ in range(c.count)]
        rng.shuffle(rooms)
        rng.shuffle(res)
        if len(rooms) < g.rounds * g.deal_rooms or len(res) < g.rounds * g.deal_resources:
            raise DreamhomeError(
                f"the decks cannot fill the rounds: {len(rooms)} room and {len(res)} resource cards for {g.rounds} rounds"
            )
        self.room_deck = rooms
        self.res_deck = res
        self.first = rng.randrange(players) if first_player is None else first_player
        if not 0 <= self.first < players:
            raise DreamhomeError(f"first player must be a seat from 0 to {players - 1}")
        self.initial_first = self.first
        self.houses = [House.empty(rules) for _ in range(players)]
        self.tool_rounds: list[list[int]] = [[] for _ in range(players)]  # round each held tool was taken
        self.room_discard: list[int] = []
        self.roof_discard: list[tuple[int, bool]] = []
        self.gone: list[Resource] = []  # resource cards that left the game (RES-TOOL, RES-FURN, ROUND-5)
        self.car_awarded = False
        self.round = 0
        self.phase = DONE
        self.actor = -1
        self.events: list[dict] = []
        self.track_rooms: list[int | None] = []
        self.track_res: list[Resource | None] = []
        # within a round / a turn
        self.order: list[int] = []
        self.turn_index = 0
        self.skip: set[int] = set()
        self.took_zero: int | None = None
        self.jack_queue: list[int] = []
        self.pending_room: int | None = None
        self.pending_res: Resource | None = None
        self.scaffold_pending = False
        self.scaffold_card: Resource | None = None
        self.after_place = TURN  # where a placement returns to: the turn, or the jackhammer window
        self.end_queue: list[int] = []
        self.end_left: dict[str, list[str]] = {}
        self._start_round()
        self._settle()

    # ---- OpenSpiel-style API -----------------------------------------
    def current_player(self) -> int:
        return -1 if self.phase == DONE else self.actor

    def is_terminal(self) -> bool:
        return self.phase == DONE

    def returns(self) -> list[int]:
        return [score_total(self.rules, h) for h in self.houses]

    def winners(self) -> list[int]:
        """SCORE-WIN: most points; tie: most children on face-up room cards (option tiebreak)."""
        scores = self.returns()
        best = max(scores)
        tied = [p for p, s in enumerate(scores) if s == best]
        if len(tied) > 1 and self.rules.options["tiebreak"] == "children":
            kids = {p: self._children(p) for p in tied}
            most = max(kids.values())
            tied = [p for p in tied if kids[p] == most]
        return tied

    def _children(self, player: int) -> int:
        return sum(self.rules.room_of_code(c).children for c in self.houses[player].cells if c >= ROOM0)

    def clone(self) -> GameState:
        twin = copy.copy(self)
        for name in (
            "room_deck",
            "res_deck",
            "houses",
            "room_discard",
            "roof_discard",
            "gone",
            "events",
            "track_rooms",
            "track_res",
            "order",
            "jack_queue",
            "end_queue",
        ):
            setattr(twin, name, list(getattr(self, name)))
        twin.tool_rounds = [list(x) for x in self.tool_rounds]
        twin.skip = set(self.skip)
        twin.end_left = {k: list(v) for k, v in self.end_left.items()}
        return twin

    def action_text(self, action: Action) -> str:
        return action.text()

    def _ix(self, name: str) -> int:
        return self.rules.board.index[name]

    # ---- legal actions -------------------------------------------------
    def legal_actions(self) -> list[Action]:
        cached = getattr(self, "_legal", None)
        if cached is not None and cached[0] == self._version():
            return list(cached[1])
        actions = self._legal_actions()
        self._legal = (self._version(), actions)
        return list(actions)

    def _version(self) -> tuple:
        return (getattr(self, "_mutations", 0), len(self.events), self.phase, self.actor)

    def _legal_actions(self) -> list[Action]:
        p = self.actor
        if self.phase == DONE:
            return []
        if self.phase == DISCARD:
            return [DiscardColumn(k) for k in range(1, len(self.track_rooms)) if self.track_rooms[k] is not None]
        if self.phase == JACKHAMMER:
            return [UseJackhammer(k) for k, r in enumerate(self.track_rooms) if r is not None] + [PassTool()]
        if self.phase == TURN:
            return self._turn_actions(p)
        if self.phase == SCAFFOLD_BEFORE:
            names = self.rules.board.cells
            return [PlaceScaffolding(names[c]) for c in free_supported_cells(self.rules, self.houses[p])] + [DeferScaffolding()]
        if self.phase == SCAFFOLD_AFTER:
            return [PlaceScaffolding(self.rules.board.cells[c]) for c in free_supported_cells(self.rules, self.houses[p])]
        if self.phase == PLACE:
            room = self.rules.room_of_code(self.pending_room).id
            return [
                PlaceRoom(room, self.rules.board.cells[pl.cell], pl.face_down)
                for pl in legal_placements(self.rules, self.houses[p], room)
            ]
        if self.phase == TOKEN:
            return [PlaceToken(self.pending_res.id, self.rules.board.cells[c]) for c in self._token_cells(p, self.pending_res.id)]
        if self.phase == END:
            return self._end_actions(p)
        raise AssertionError(self.phase)

    def _usable_tools(self, p: int, effect: str) -> list[str]:
        house = self.houses[p]
        ids = _tool_with(self.rules, effect)
        return [t for t, r in zip(house.tools, self.tool_rounds[p]) if t in ids and r < self.rules.game.rounds]

    def _turn_actions(self, p: int) -> list[Action]:
        out: list[Action] = [TakeColumn(k) for k, r in enumerate(self.track_rooms) if r is not None]
        if self._usable_tools(p, "swap"):
            tools = {t: self.rules.held(t).effect("swap").places() for t in self._usable_tools(p, "swap")}
            if ("house", "track") in tools.values():
                out += self._drill_actions(p)
            if ("track", "track") in tools.values():
                cols = [k for k, r in enumerate(self.track_rooms) if r is not None]
                out += [
                    UseMixer(a, b)
                    for i, a in enumerate(cols)
                    for b in cols[i + 1 :]
                    if self.track_rooms[a] != self.track_rooms[b]
                ]
        return out

    def _drill_actions(self, p: int) -> list[Action]:
        house = self.houses[p]
        out = []
        face_down_ok = self.rules.options["swap_face_down"] == "allowed"
        for cell, code in enumerate(house.cells):
            if code < ROOM0:
                continue  # TOOL-DRILL: only face-up cards, never an empty room
            emptied = house.place(cell, EMPTY)
            for k, incoming in enumerate(self.track_rooms):
                if incoming is None:
                    continue
                options = legal_placements(self.rules, emptied, incoming)
                name = self.rules.board.cells[cell]
                if Placement(cell, False) in options:
                    out.append(UseDrill(name, k, False))
                if face_down_ok:
                    out.append(UseDrill(name, k, True))
        return out

    def _token_cells(self, p: int, furn_id: str) -> list[int]:
        """FURN-TYPE, FURN-ONE: cards of rooms of the printed type that hold no token."""
        house = self.houses[p]
        code = self.rules.room(self.rules.furnishing(furn_id).room).code
        return [
            c
            for room, cells in rooms_of(self.rules, house)
            if room == code and not any(house.tokens[i] for i in cells)
            for c in cells
        ]

    def _end_actions(self, p: int) -> list[Action]:
        rules = self.rules
        t = rules.tables
        house = self.houses[p]
        left = self.end_left
        out: list[Action] = []
        if left["supplier"] and self.room_discard:
            helper = left["supplier"][0]
            keep_open = keeps_rooms_open(rules, house)
            face_down_ok = rules.options["swap_face_down"] == "allowed"
            incoming = sorted(set(self.room_discard))
            for cell in range(rules.board.size):
                emptied = house.place(cell, EMPTY)
                for code in incoming:
                    room_id = rules.room_of_code(code).id
                    name = rules.board.cells[cell]
                    if face_up_ok(rules, emptied, cell, code, keep_open):  # END-SUPPLIER: legal as during play
                        out.append(SupplierSwap(helper, name, room_id, False))
                    if face_down_ok:
                        out.append(SupplierSwap(helper, name, room_id, True))
        if left["handyman"]:
            helper = left["handyman"][0]
            n = rules.board.size
            cells = house.cells
            for a in range(n):
                for b in range(a + 1, n):
                    if (cells[a], house.tokens[a], house.under[a]) == (cells[b], house.tokens[b], house.under[b]):
                        continue
                    if swap_keeps_b_and_c(t, cells, a, b):  # END-HANDYMAN: PLACE-B and PLACE-C hold
                        out.append(HandymanSwap(helper, rules.board.cells[a], rules.board.cells[b]))
        if left["roofer"]:
            helper = left["roofer"][0]
            for colour, window in sorted(set(self.roof_discard)):
                out.append(RooferTake(helper, rules.roofs[colour].id, window))
        out.append(EndTurn())
        return out

    def _house_with_piles(self, p: int) -> House:
        rules = self.rules
        return replace(
            self.houses[p],
            discard_rooms=tuple(rules.room_of_code(c).id for c in self.room_discard),
            discard_roofs=tuple(self.roof_discard),
        )

    # ---- applying ------------------------------------------------------
    def apply_action(self, action: Action) -> None:
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalAction(
                self._rule_for(action), f"{self.action_text(action)!r} is not legal now (phase {self.phase}, player {self.actor})"
            )
        self._record(self.actor, action)
        self._apply(action)
        self._settle()

    def _rule_for(self, action: Action) -> str:
        return {
            DiscardColumn: "ROUND-1",
            UseJackhammer: "TOOL-JACKHAMMER",
            UseDrill: "TOOL-DRILL",
            UseMixer: "TOOL-MIXER",
            TakeColumn: "ROUND-COLUMN",
            PlaceRoom: "PLACE-A",
            PlaceScaffolding: "TOOL-SCAFFOLDING",
            DeferScaffolding: "TOOL-SCAFFOLDING",
            PlaceToken: "FURN-TYPE",
            SupplierSwap: "END-SUPPLIER",
            HandymanSwap: "END-HANDYMAN",
            RooferTake: "END-ROOFER",
            EndTurn: "END-ORDER",
            PassTool: "TOOL-JACKHAMMER",
        }.get(type(action), "ROUND-3")

    def _record(self, player: int, action: Action, forced: bool = False) -> None:
        self.events.append(
            {
                "round": self.round,
                "player": player,
                "action": action.to_dict(),
                "text": self.action_text(action),
                **({"forced": True} if forced else {}),
            }
        )

    def _note(self, kind: str, **data) -> None:
        self.events.append({"round": self.round, "event": kind, **data})

    def _settle(self) -> None:
        """Apply single-option decisions by themselves (forced steps), recorded as such."""
        while self.phase != DONE:
            legal = self.legal_actions()
            if len(legal) != 1:
                return
            self._record(self.actor, legal[0], forced=True)
            self._apply(legal[0])

    def _apply(self, action: Action) -> None:
        self._mutations = getattr(self, "_mutations", 0) + 1  # invalidates the legal-action cache
        rules = self.rules
        p = self.actor
        if isinstance(action, DiscardColumn):
            self._discard_column(action.column)
            self._jackhammer_window()
        elif isinstance(action, UseJackhammer):
            self._use_tool(p, "take_room")
            room = self.track_rooms[action.column]
            self.track_rooms[action.column] = None
            res = self.track_res[action.column]
            self.track_res[action.column] = None
            if res is not None:
                self._discard_resource(res)
            self.skip.add(p)
            self.pending_room, self.pending_res = room, None
            self.after_place = JACKHAMMER
            self.phase = PLACE
        elif isinstance(action, PassTool):
            self._next_jackhammer()
        elif isinstance(action, UseDrill):
            self._use_tool(p, "swap", ("house", "track"))
            house = self.houses[p]
            cell = self._ix(action.cell)
            outgoing = house.cells[cell]
            incoming = self.track_rooms[action.column]
            emptied = house.place(cell, EMPTY)
            self.houses[p] = apply_placement(rules, emptied, incoming, Placement(cell, action.face_down))
            self.track_rooms[action.column] = outgoing  # its token is lost (TOOL-DRILL)
            self._check_car(p)
        elif isinstance(action, UseMixer):
            self._use_tool(p, "swap", ("track", "track"))
            t = self.track_rooms
            t[action.a], t[action.b] = t[action.b], t[action.a]
        elif isinstance(action, TakeColumn):
            k = action.column
            self.pending_room, self.pending_res = self.track_rooms[k], self.track_res[k]
            self.track_rooms[k] = None
            self.track_res[k] = None
            if k == 0:
                self.took_zero = p  # ROUND-4 / ROUND-ORDER: leads the next round
            self.after_place = TURN
            self._take_resource(p)
        elif isinstance(action, PlaceScaffolding):
            self.houses[p] = self.houses[p].place(self._ix(action.cell), SCAFFOLD)
            self.scaffold_pending = False
            self.phase = PLACE if self.pending_room is not None else self.phase
            if self.pending_room is None:
                self._after_placement(p)
        elif isinstance(action, DeferScaffolding):
            self.phase = PLACE
        elif isinstance(action, PlaceRoom):
            cell = self._ix(action.cell)
            if self.houses[p].cells[cell] == SCAFFOLD:  # PLACE-SCAFFOLD: the scaffolding is discarded
                self.gone.append(Resource("tool", self._scaffold_id()))
            self.houses[p] = apply_placement(rules, self.houses[p], action.room, Placement(cell, action.face_down))
            self.pending_room = None
            self._check_car(p)
            self._after_placement(p)
        elif isinstance(action, PlaceToken):
            self.houses[p] = self.houses[p].with_token(self._ix(action.cell), rules.furnishing(action.token).code)
            self.gone.append(self.pending_res)  # the card leaves the game; its token stays (RES-FURN)
            self.pending_res = None
            self._next_turn()
        elif isinstance(action, SupplierSwap):
            house = swap_with_room_discard(rules, self._house_with_piles(p), self._ix(action.cell), action.room, action.face_down)
            self.room_discard = [rules.room(r).code for r in house.discard_rooms]
            self.houses[p] = replace(house, discard_rooms=(), discard_roofs=())
            self.end_left["supplier"].pop(0)
        elif isinstance(action, HandymanSwap):
            self.houses[p] = swap_in_house(rules, self.houses[p], self._ix(action.a), self._ix(action.b))
            self.end_left["handyman"].pop(0)
        elif isinstance(action, RooferTake):
            roof = (rules.roof(action.color).index, action.window)
            self.roof_discard.remove(roof)
            self.houses[p] = replace(self.houses[p], roofs=self.houses[p].roofs + (roof,))
            self.end_left["roofer"].pop(0)
        elif isinstance(action, EndTurn):
            self._finish_end(p)
        else:  # pragma: no cover
            raise AssertionError(action)

    # ---- steps ---------------------------------------------------------
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
            rooms=[self.rules.room_of_code(r).id for r in self.track_rooms],
            resources=[r.to_dict() if r else None for r in self.track_res],
        )
        self.order = [(self.first + i) % self.n for i in range(self.n)]
        self.skip = set()
        self.took_zero = None
        if self.n in (2, 3) and self.rules.options["round_discard"] == "on":
            self.phase, self.actor = DISCARD, self.first  # ROUND-1, ROUND-ORDER
        else:
            self._jackhammer_window()

    def _discard_column(self, k: int) -> None:
        room, res = self.track_rooms[k], self.track_res[k]
        self.track_rooms[k] = None
        self.track_res[k] = None
        if room is not None:
            self.room_discard.append(room)
        if res is not None:
            self._discard_resource(res)

    def _discard_resource(self, res: Resource) -> None:
        if res.kind == "roof":
            self.roof_discard.append((self.rules.roof(res.id).index, res.window))  # ROUND-5
        else:
            self.gone.append(res)  # other resource cards leave the game

    def _jackhammer_window(self) -> None:
        self.jack_queue = [p for p in self.order if self._usable_tools(p, "take_room")]
        self._next_jackhammer()

    def _next_jackhammer(self) -> None:
        if self.jack_queue:
            self.actor = self.jack_queue.pop(0)
            self.phase = JACKHAMMER
            return
        self.turn_index = -1
        self._next_turn()

    def _next_turn(self) -> None:
        if self.after_place == JACKHAMMER and self.phase != TURN and self.pending_room is None:
            self.after_place = TURN
            self._next_jackhammer()
            return
        self.turn_index += 1
        while self.turn_index < len(self.order) and self.order[self.turn_index] in self.skip:
            self.turn_index += 1
        if self.turn_index >= len(self.order):
            self._end_round()
            return
        self.actor = self.order[self.turn_index]
        self.phase = TURN
        self.pending_room = self.pending_res = None

    def _end_round(self) -> None:
        for k in range(len(self.track_rooms)):  # ROUND-5: leftovers are discarded
            self._discard_column(k)
        if self.took_zero is not None:
            self.first = self.took_zero
        self._start_round()

    def _use_tool(self, p: int, effect: str, places: tuple[str, ...] | None = None) -> None:
        house = self.houses[p]
        for i, (tool, taken) in enumerate(zip(house.tools, self.tool_rounds[p])):
            eff = self.rules.held(tool).effect(effect)
            if eff is not None and (places is None or eff.places() == places) and taken < self.rules.game.rounds:
                self.gone.append(Resource("tool", tool))  # RES-TOOL: used once, then discarded
                self.houses[p] = replace(house, tools=house.tools[:i] + house.tools[i + 1 :])
                self.tool_rounds[p] = self.tool_rounds[p][:i] + self.tool_rounds[p][i + 1 :]
                return
        raise AssertionError("tool not held")

    def _scaffold_id(self) -> str:
        return next(c.id for c in self.rules.tools if c.effect("scaffold") is not None)

    def _take_resource(self, p: int) -> None:
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
            self.pending_res = None
        elif res.kind == "tool":
            self.pending_res = None
            last = self.round >= self.rules.game.rounds  # TOOL-LAST
            if last:
                self.gone.append(res)
            elif self.rules.held(res.id).effect("scaffold") is not None:
                self.scaffold_pending = True
                self.scaffold_card = res
            else:
                self.houses[p] = replace(house, tools=house.tools + (res.id,))
                self.tool_rounds[p] = self.tool_rounds[p] + [self.round]
        if self.scaffold_pending and free_supported_cells(self.rules, self.houses[p]):
            self.phase = SCAFFOLD_BEFORE
        else:
            self.phase = PLACE

    def _after_placement(self, p: int) -> None:
        if self.scaffold_pending:
            if free_supported_cells(self.rules, self.houses[p]):
                self.phase = SCAFFOLD_AFTER
                return
            self.scaffold_pending = False
            self.gone.append(self.scaffold_card)
            self._note("scaffolding_discarded", player=p)
        res = self.pending_res
        if res is not None and res.kind == "furnishing":
            furn = self.rules.furnishing(res.id)
            if furn.outside:
                self.houses[p] = replace(self.houses[p], outside=self.houses[p].outside + (furn.id,))
                self.gone.append(res)
                self.pending_res = None
            elif self._token_cells(p, res.id):
                self.phase = TOKEN
                return
            else:
                self._note("furnishing_discarded", player=p, furnishing=res.id)
                self.gone.append(res)
                self.pending_res = None
        self._next_turn()

    def _check_car(self, p: int) -> None:
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
        self.phase = END
        self.end_queue = [(self.first + i) % self.n for i in range(self.n)]  # END-ORDER
        self._next_end_player()

    def _next_end_player(self) -> None:
        while self.end_queue:
            p = self.end_queue.pop(0)
            uses = helper_uses(self.rules, self.houses[p])
            self.end_left = {
                "supplier": list(uses.room_discard_swap),
                "handyman": list(uses.house_swap),
                "roofer": list(uses.roof_discard_take),
            }
            if any(self.end_left.values()):
                self.actor = p
                self.phase = END
                return
            self.houses[p] = resolve_tokens(self.rules, self.houses[p])
        self.phase = DONE
        self.actor = -1
        self._note("scores", scores=self.returns(), winners=self.winners())

    def _finish_end(self, p: int) -> None:
        self.houses[p] = resolve_tokens(self.rules, self.houses[p])
        self._next_end_player()

    # ---- serialisation ---------------------------------------------------
    def to_dict(self) -> dict:
        """Everything needed to continue the game exactly (the rules are referenced by hash)."""
        from dreamhome.house import house_to_json

        rules = self.rules
        rid = lambda code: rules.room_of_code(code).id if code is not None else None  # noqa: E731
        res = lambda r: r.to_dict() if r is not None else None  # noqa: E731
        return {
            "rules_hash": rules.content_hash,
            "players": self.n,
            "seed": self.seed,
            "first": self.first,
            "initial_first": self.initial_first,
            "round": self.round,
            "phase": self.phase,
            "actor": self.actor,
            "houses": [house_to_json(rules, h) for h in self.houses],
            "tool_rounds": [list(x) for x in self.tool_rounds],
            "room_deck": [rid(c) for c in self.room_deck],
            "res_deck": [res(r) for r in self.res_deck],
            "track_rooms": [rid(c) for c in self.track_rooms],
            "track_res": [res(r) for r in self.track_res],
            "room_discard": [rid(c) for c in self.room_discard],
            "roof_discard": [{"color": rules.roofs[c].id, "window": w} for c, w in self.roof_discard],
            "gone": [res(r) for r in self.gone],
            "car_awarded": self.car_awarded,
            "order": list(self.order),
            "turn_index": self.turn_index,
            "skip": sorted(self.skip),
            "took_zero": self.took_zero,
            "jack_queue": list(self.jack_queue),
            "pending_room": rid(self.pending_room),
            "pending_res": res(self.pending_res),
            "scaffold_pending": self.scaffold_pending,
            "scaffold_card": res(self.scaffold_card),
            "after_place": self.after_place,
            "end_queue": list(self.end_queue),
            "end_left": {k: list(v) for k, v in self.end_left.items()},
            "events": list(self.events),
        }

    @classmethod
    def from_dict(cls, rules: Ruleset, data: dict) -> GameState:
        from dreamhome.house import house_from_json

        if data.get("rules_hash") != rules.content_hash:
            raise DreamhomeError("this game state was saved under other rules (content hash differs)")
        code = lambda rid: rules.room(rid).code if rid is not None else None  # noqa: E731
        res = lambda d: Resource(d["kind"], d["id"], d.get("window", False)) if d is not None else None  # noqa: E731
        state = cls.__new__(cls)
        state.rules = rules
        state.n, state.seed, state.first, state.round = data["players"], data["seed"], data["first"], data["round"]
        state.initial_first = data["initial_first"]
        state.phase, state.actor = data["phase"], data["actor"]
        state.houses = [house_from_json(rules, h, "state") for h in data["houses"]]
        state.tool_rounds = [list(x) for x in data["tool_rounds"]]
        state.room_deck = [code(r) for r in data["room_deck"]]
        state.res_deck = [res(r) for r in data["res_deck"]]
        state.track_rooms = [code(r) for r in data["track_rooms"]]
        state.track_res = [res(r) for r in data["track_res"]]
        state.room_discard = [code(r) for r in data["room_discard"]]
        state.roof_discard = [(rules.roof(r["color"]).index, r["window"]) for r in data["roof_discard"]]
        state.gone = [res(r) for r in data["gone"]]
        state.car_awarded = data["car_awarded"]
        state.order, state.turn_index = list(data["order"]), data["turn_index"]
        state.skip, state.took_zero = set(data["skip"]), data["took_zero"]
        state.jack_queue = list(data["jack_queue"])
        state.pending_room, state.pending_res = code(data["pending_room"]), res(data["pending_res"])
        state.scaffold_pending, state.scaffold_card = data["scaffold_pending"], res(data["scaffold_card"])
        state.after_place, state.end_queue = data["after_place"], list(data["end_queue"])
        state.end_left = {k: list(v) for k, v in data["end_left"].items()}
        state.events = list(data["events"])
        return state

    # ---- views ---------------------------------------------------------
    def house_json(self, p: int) -> dict:
        from dreamhome.house import house_to_json

        return house_to_json(self.rules, self._house_with_piles(p))


__all__ = ["GameState", "IllegalAction", "Resource"]
