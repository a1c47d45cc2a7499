"""The game of Dream Home, 2–4 players, every rule of docs/rules.md (OpenSpiel-style API).

`GameState` owns the shuffled decks (a seeded RNG used once, at setup), the
track, the houses, held cards, discard piles, the first-player marker and the
phase (`Phase`). `legal_actions()` lists the real alternatives of the player
to act, one generator per phase (`legal.py`); `apply_action()` checks the action is one of
them (else `IllegalAction` naming the rule, the state unchanged), applies it
with the one handler of its type (`_HANDLERS`), then runs the forced steps
(dealing, discards, single-option decisions, the award token, scoring) by
itself, recording each in `events`. `child(action)` is the same on a copy.

Bots never see this object: `observation(player)` hands them what SEE-1 makes
public (no deck order), as a frozen value.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from dreamhome.engine.endgame import (
    END_ROLES,
    HOUSE_SWAP,
    ROOF_DISCARD_TAKE,
    ROOM_DISCARD_SWAP,
    helper_uses,
    resolve_tokens,
    swap_in_house,
    swap_with_room_discard,
)
from dreamhome.engine.placement import (
    Placement,
    apply_placement,
    free_supported_cells,
)
from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import (
    Action,
    DeferScaffold,
    DiscardColumn,
    EndTurn,
    PassTool,
    PlaceRoom,
    PlaceScaffold,
    PlaceToken,
    SwapInHouse,
    SwapTrackRooms,
    SwapWithRoomDiscard,
    SwapWithTrack,
    TakeColumn,
    TakeFromRoofDiscard,
    TakeRoomAtRoundStart,
)
from dreamhome.game.legal import LEGAL_BY_PHASE
from dreamhome.game.observation import LOOKAHEAD_ACTIONS, Observation, with_piles
from dreamhome.game.phases import RULE_OF_ACTION, RULE_OF_PHASE, Phase
from dreamhome.game.roles import SCAFFOLD as SCAFFOLD_ROLE
from dreamhome.game.roles import (
    SWAP_TRACK_ROOMS,
    SWAP_WITH_TRACK,
    TAKE_ROOM_AT_ROUND_START,
    has_end_effect,
    has_role,
    timed_cards,
    timed_effect,
    tools_with_role,
)
from dreamhome.game.state_io import copy_events, read_state
from dreamhome.game.values import MARKER_COLUMN, GameStateError, IllegalAction, Resource, rules_from_key, rules_key
from dreamhome.house import House
from dreamhome.ruleset import EMPTY, ROOM0, SCAFFOLD, Effect, Ruleset
from dreamhome.scoring import final_score, rooms_of, score_total
from dreamhome.vocabulary import DURING_PLAY

_Card = TypeVar("_Card")


class GameState:
    """One game: its data, the phase, and the handlers of `_HANDLERS` that change them."""

    def __init__(
        self,
        rules: Ruleset,
        players: int,
        seed: int,
        first_player: int | None = None,
        *,
        first_deal: tuple[Sequence[int], Sequence[Resource]] | None = None,
    ):
        """A game of `players` under `rules`, its decks shuffled by `seed`. `first_deal`
        (room codes, resource cards) puts those cards on top of the decks before round 1 is
        dealt, as `stack_deal` does for later rounds."""
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
        self.tool_spent: list[list[int]] = [[] for _ in range(players)]  # uses spent of each held tool (TOOL-TIMING)
        self.helper_spent: list[list[int]] = [[] for _ in range(players)]  # uses spent of each helper during play
        self.room_discard: list[int] = []
        self.roof_discard: list[tuple[int, bool]] = []
        self.gone: list[Resource] = []  # resource cards that left the game (RES-TOOL, RES-FURN, ROUND-5)
        self.car_awarded = False
        self.round = 0
        self.phase = Phase.DONE
        self.actor = -1
        self.events: list[dict[str, Any]] = []
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
        self.after_place = Phase.TURN  # where a placement returns to: the turn, or the round-start window
        self.end_queue: list[int] = []
        self.end_left: dict[str, list[str]] = {}
        self._mutations = 0
        self._legal: tuple[tuple[Any, ...], list[Action]] | None = None
        self._scored: dict[int, tuple[House, int]] = {}
        if first_deal is not None:
            self.stack_deal(*first_deal)
        self._start_round()
        self._settle()

    # ---- OpenSpiel-style API -----------------------------------------
    def current_player(self) -> int:
        return -1 if self.phase == Phase.DONE else self.actor

    def is_terminal(self) -> bool:
        return self.phase == Phase.DONE

    def returns(self) -> list[int]:
        """SCORE-*: every house's score now (final once the game is over)."""
        known = self._scored  # id(house) → (house, its score); houses are immutable values
        out = []
        for house in self.houses:
            hit = known.get(id(house))
            if hit is None or hit[0] is not house:
                hit = known[id(house)] = (house, score_total(self.rules, house))
            out.append(hit[1])
        if len(known) > 4 * self.n:
            self._scored = {id(h): known[id(h)] for h in self.houses}
        return out

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

    def stack_deal(self, rooms: Sequence[int], resources: Sequence[Resource]) -> None:
        """Put these cards on top of the decks, in this order, so the next deal (ROUND-2) is
        them: a caller that decides the deal itself (OpenSpiel's explicit chance nodes, a
        what-if with a fixed deal) chooses the cards, the deck keeps the rest. Each card must
        still be in its deck; the decks keep their contents, only the order changes."""
        self.room_deck = _on_top(self.room_deck, list(rooms), "room")
        self.res_deck = _on_top(self.res_deck, list(resources), "resource")
        self._mutations += 1

    def clone(self) -> GameState:
        """An independent copy: nothing of it, events included, is shared with this game."""
        twin = self._fork()
        twin.events = copy_events(self.events)
        return twin

    def child(self, action: Action) -> GameState:
        """A copy with `action` applied (and the forced steps after it); this state is unchanged."""
        twin = self.clone()
        twin.apply_action(action)
        return twin

    def _fork(self) -> GameState:
        """A copy whose lists are its own; event dicts are shared (the engine never changes one)."""
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
        twin.tool_spent = [list(x) for x in self.tool_spent]
        twin.helper_spent = [list(x) for x in self.helper_spent]
        twin.skip = set(self.skip)
        twin.end_left = {k: list(v) for k, v in self.end_left.items()}
        twin._scored = dict(self._scored)
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        return self.clone()  # the rules are immutable and shared

    def __getstate__(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["rules"] = rules_key(self.rules)
        data["_legal"] = None
        data["_scored"] = {}
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        data = dict(data)
        data["rules"] = rules_from_key(data["rules"])
        self.__dict__.update(data)

    def action_text(self, action: Action) -> str:
        """The action as a player says it, with the name of the card it uses (if any)."""
        card = self._card_for(action)
        return action.text(self.rules.held(card).name) if card is not None else str(action)

    def _card_for(self, action: Action) -> str | None:
        """The id of the helper or tool card the actor uses for `action`, if it holds one."""
        helper = getattr(action, "helper", None)
        if isinstance(helper, str) and self.rules.has_held(helper):
            return helper
        if action.role == SCAFFOLD_ROLE:  # the scaffold card just taken (TOOL-SCAFFOLDING), not any of its kind
            return self.scaffold_card.id if self.scaffold_card is not None else self._scaffold_id()
        if action.role == TAKE_ROOM_AT_ROUND_START and 0 <= self.actor < self.n and self.phase == Phase.ROUND_START:
            taker = self.round_start_taker(self.actor)
            if taker is not None:
                return taker
        if action.role in (SWAP_WITH_TRACK, SWAP_TRACK_ROOMS, TAKE_ROOM_AT_ROUND_START) and 0 <= self.actor < self.n:
            usable = self.usable_cards(self.actor, action.role, self.timing_now())
            if usable:
                return self._held_id(self.actor, *usable[0])
            return next((c.id for c in tools_with_role(self.rules, action.role)), None)
        return None

    def timing_now(self) -> str:
        """TOOL-TIMING: the timing of the phase's uses (round_start, before_take or end)."""
        return {Phase.ROUND_START: "round_start", Phase.END: "end"}.get(self.phase, "before_take")

    def _held_id(self, p: int, kind: str, slot: int) -> str:
        house = self.houses[p]
        return house.tools[slot] if kind == "tool" else house.helpers[slot]

    def _ix(self, name: str) -> int:
        return self.rules.board.index[name]

    # ---- what bots may see (SEE-1) ---------------------------------------
    def house_with_piles(self, player: int) -> House:
        """A player's house with both discard piles, as the end-game helpers see it (END-*)."""
        return with_piles(self.rules, self.houses[player], self.room_discard, self.roof_discard)

    def observation(self, player: int | None = None, lookahead: bool = True) -> Observation:
        """What `player` (the actor by default) may see (SEE-1): no deck order, no state object.

        With `lookahead`, the actor's house after each of its legal actions that a bot cannot
        work out from public data alone (tools, scaffold, end-game helpers) is included."""
        me = self.actor if player is None else player
        if player is not None and not (isinstance(player, int) and 0 <= player < self.n):
            raise DreamhomeError(f"SEE-1: no player {player!r} at this table (seats 0–{self.n - 1})")
        after: dict[Action, House] = {}
        if lookahead and me == self.actor and self.phase != Phase.DONE:
            for action in self.legal_actions():
                if isinstance(action, LOOKAHEAD_ACTIONS):
                    after[action] = self._house_after(action, me)
        return Observation(
            rules=self.rules,
            me=me,
            actor=self.current_player(),
            phase=self.phase.value,
            round=self.round,
            first=self.first,
            houses=tuple(self.houses),
            tool_rounds=tuple(tuple(x) for x in self.tool_rounds),
            track_rooms=tuple(self.track_rooms),
            track_res=tuple(self.track_res),
            room_discard=tuple(self.room_discard),
            roof_discard=tuple(self.roof_discard),
            scores=tuple(self.returns()),
            lookahead=after,
            sampler=self._sampler(),
        )

    def _sampler(self) -> Callable[[random.Random], GameState]:
        """`Observation.sample_state`: this state as it is now, with both decks shuffled anew.
        The decks' contents are public (every card is seen when dealt), their order is not,
        so a sample holds nothing a player cannot know."""
        version = self._mutations

        def sample(rng: random.Random) -> GameState:
            if self._mutations != version:
                raise GameStateError("the game has moved on since this observation was made")
            twin = self.clone()
            twin.events = []
            rng.shuffle(twin.room_deck)
            rng.shuffle(twin.res_deck)
            return twin

        return sample

    def _house_after(self, action: Action, player: int) -> House:
        """The player's house right after the handler of `action` (no forced steps after it)."""
        twin = self._fork()
        twin._apply(action)
        return twin.houses[player]

    # ---- legal actions -------------------------------------------------
    def legal_actions(self) -> list[Action]:
        cached = self._legal
        if cached is not None and cached[0] == self._version():
            return list(cached[1])
        actions = LEGAL_BY_PHASE[self.phase](self, self.actor)
        self._legal = (self._version(), actions)
        return list(actions)

    def _version(self) -> tuple[Any, ...]:
        return (self._mutations, len(self.events), self.phase, self.actor)

    def usable_tools(self, p: int, role: str) -> list[str]:
        """RES-TOOL, TOOL-LAST: the player's tools playing `role`, usable this round."""
        house = self.houses[p]
        ids = {c.id for c in tools_with_role(self.rules, role)}
        return [t for t, r in zip(house.tools, self.tool_rounds[p]) if t in ids and r < self.rules.game.rounds]

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

    # ---- applying ------------------------------------------------------
    def apply_action(self, action: Action) -> None:
        """Apply a legal action and the forced steps after it; anything else raises
        `IllegalAction` naming the rule, and changes nothing."""
        if not isinstance(action, Action):
            raise IllegalAction(
                RULE_OF_PHASE[self.phase], f"{action!r} is not an action (phase {self.phase.value}, player {self.actor})"
            )
        if action not in self.legal_actions():
            rule = RULE_OF_ACTION.get(type(action), RULE_OF_PHASE[self.phase])
            raise IllegalAction(rule, f"{str(action)!r} is not legal now (phase {self.phase.value}, player {self.actor})")
        self._record(self.actor, action)
        self._apply(action)
        self._settle()

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

    def _note(self, kind: str, **data: Any) -> None:
        self.events.append({"round": self.round, "event": kind, **data})

    def _settle(self) -> None:
        """Apply single-option decisions by themselves (forced steps), recorded as such."""
        while self.phase != Phase.DONE:
            legal = self.legal_actions()
            if len(legal) != 1:
                return
            self._record(self.actor, legal[0], forced=True)
            self._apply(legal[0])

    def _apply(self, action: Action) -> None:
        self._mutations += 1  # invalidates the legal-action cache
        _HANDLERS[type(action)](self, action, self.actor)

    # ---- one handler per action type -----------------------------------
    def _on_discard_column(self, action: DiscardColumn, p: int) -> None:
        """ROUND-1: both cards of the column go to the discard piles."""
        self._discard_column(action.column)
        self._round_start_window()

    def _on_take_room_at_round_start(self, action: TakeRoomAtRoundStart, p: int) -> None:
        """TOOL-JACKHAMMER: the room card now, its resource discarded; with skip_turn, no turn this
        round (TOOL-TIMING)."""
        self._use(p, TAKE_ROOM_AT_ROUND_START, "round_start", self.round_start_taker(p))
        room = self.track_rooms[action.column]
        self.track_rooms[action.column] = None
        res = self.track_res[action.column]
        self.track_res[action.column] = None
        if res is not None:
            self._discard_resource(res)
        self.pending_room, self.pending_res = room, None
        self.after_place = Phase.ROUND_START
        self.phase = Phase.PLACE

    def _on_pass_tool(self, action: PassTool, p: int) -> None:
        self._next_round_start_tool()

    def _on_swap_with_track(self, action: SwapWithTrack, p: int) -> None:
        """TOOL-DRILL: the track's card takes the house card's space; the house card goes to the track."""
        self._use(p, SWAP_WITH_TRACK, self.timing_now())
        house = self.houses[p]
        cell = self._ix(action.cell)
        outgoing = house.cells[cell]
        incoming = self.track_rooms[action.column]
        assert incoming is not None
        emptied = house.place(cell, EMPTY)
        self.houses[p] = apply_placement(self.rules, emptied, incoming, Placement(cell, action.face_down))
        self.track_rooms[action.column] = outgoing  # its token is lost (TOOL-DRILL)
        self._check_award(p)

    def _on_swap_track_rooms(self, action: SwapTrackRooms, p: int) -> None:
        """TOOL-MIXER: two room cards of the track change places."""
        self._use(p, SWAP_TRACK_ROOMS, self.timing_now())
        t = self.track_rooms
        t[action.a], t[action.b] = t[action.b], t[action.a]

    def _on_take_column(self, action: TakeColumn, p: int) -> None:
        """ROUND-3, ROUND-4: both cards of the column; column 0 carries the first-player marker."""
        k = action.column
        self.pending_room, self.pending_res = self.track_rooms[k], self.track_res[k]
        self.track_rooms[k] = None
        self.track_res[k] = None
        if k == MARKER_COLUMN:
            self.took_zero = p  # ROUND-4 / ROUND-ORDER: leads the next round
        self.after_place = Phase.TURN
        self._take_resource(p)

    def _on_place_scaffold(self, action: PlaceScaffold, p: int) -> None:
        """TOOL-SCAFFOLDING: the scaffold on a free supported space."""
        self.houses[p] = self.houses[p].place(self._ix(action.cell), SCAFFOLD)
        self.scaffold_pending = False
        if self.pending_room is not None:
            self.phase = Phase.PLACE
        else:
            self._after_placement(p)

    def _on_defer_scaffold(self, action: DeferScaffold, p: int) -> None:
        self.phase = Phase.PLACE

    def _on_place_room(self, action: PlaceRoom, p: int) -> None:
        """PLACE-*: the card in hand into the house."""
        cell = self._ix(action.cell)
        if self.houses[p].cells[cell] == SCAFFOLD:  # PLACE-SCAFFOLD: the scaffold is discarded
            self.gone.append(Resource("tool", self._scaffold_id()))
        self.houses[p] = apply_placement(self.rules, self.houses[p], action.room, Placement(cell, action.face_down))
        self.pending_room = None
        self._check_award(p)
        self._after_placement(p)

    def _on_place_token(self, action: PlaceToken, p: int) -> None:
        """RES-FURN: the token stays, the card leaves the game."""
        self.houses[p] = self.houses[p].with_token(self._ix(action.cell), self.rules.furnishing(action.token).code)
        assert self.pending_res is not None
        self.gone.append(self.pending_res)
        self.pending_res = None
        self._next_turn()

    def _on_swap_with_room_discard(self, action: SwapWithRoomDiscard, p: int) -> None:
        """END-SUPPLIER: a card of the room discard pile for a card of the house."""
        rules = self.rules
        house = swap_with_room_discard(rules, self.house_with_piles(p), self._ix(action.cell), action.room, action.face_down)
        self.room_discard = [rules.room(r).code for r in house.discard_rooms]
        self.houses[p] = replace(house, discard_rooms=(), discard_roofs=())
        self._spend_helper(p, ROOM_DISCARD_SWAP, action.helper)

    def _on_swap_in_house(self, action: SwapInHouse, p: int) -> None:
        """END-HANDYMAN: two cards of the house change places, with their tokens."""
        self.houses[p] = swap_in_house(self.rules, self.houses[p], self._ix(action.a), self._ix(action.b))
        if self.phase != Phase.END:  # during play a room keeps its best token at once (END-HANDYMAN, TOOL-TIMING)
            self.houses[p] = resolve_tokens(self.rules, self.houses[p])
        self._spend_helper(p, HOUSE_SWAP, action.helper)

    def _on_take_from_roof_discard(self, action: TakeFromRoofDiscard, p: int) -> None:
        """END-ROOFER: a roof card of the roof discard pile to the player's roof pile."""
        roof = (self.rules.roof(action.color).index, action.window)
        self.roof_discard.remove(roof)
        self.houses[p] = replace(self.houses[p], roofs=self.houses[p].roofs + (roof,))
        self._spend_helper(p, ROOF_DISCARD_TAKE, action.helper)

    def _spend_helper(self, p: int, role: str, card: str) -> None:
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
            self._use(p, role, "before_take", card)

    def _on_end_turn(self, action: EndTurn, p: int) -> None:
        """END-ORDER, END-HANDYMAN: the player is done; a room keeps its best token."""
        self.houses[p] = resolve_tokens(self.rules, self.houses[p])
        self._next_end_player()

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
            rooms=[_room_id(self.rules, r) for r in self.track_rooms],
            resources=[r.to_dict() if r else None for r in self.track_res],
        )
        self.order = [(self.first + i) % self.n for i in range(self.n)]
        self.skip = set()
        self.took_zero = None
        if self.rules.game.discards_at_round_start(self.n) and self.rules.options["round_discard"] == "on":  # ROUND-1
            self.phase, self.actor = Phase.DISCARD, self.first  # ROUND-1, ROUND-ORDER
        else:
            self._round_start_window()

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

    def _round_start_window(self) -> None:
        """TOOL-JACKHAMMER, TOOL-TIMING: the holders of a round-start use, in turn order, before any turn."""
        self.jack_queue = [p for p in self.order if len(LEGAL_BY_PHASE[Phase.ROUND_START](self, p)) > 1]
        self._next_round_start_tool()

    def _next_round_start_tool(self) -> None:
        if self.jack_queue:
            self.actor = self.jack_queue.pop(0)
            self.phase = Phase.ROUND_START
            return
        self.turn_index = -1
        self._next_turn()

    def _next_turn(self) -> None:
        if self.after_place == Phase.ROUND_START and self.phase != Phase.TURN and self.pending_room is None:
            self.after_place = Phase.TURN
            self._next_round_start_tool()
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
            self._discard_column(k)
        if self.took_zero is not None:
            self.first = self.took_zero
        self._start_round()

    def _use(self, p: int, role: str, timing: str, card: str | None = None) -> Effect:
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

    def _scaffold_id(self) -> str:
        return tools_with_role(self.rules, SCAFFOLD_ROLE)[0].id

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

    def _after_placement(self, p: int) -> None:
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
        self._next_turn()

    def _check_award(self, p: int) -> None:
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
        self._next_end_player()

    def _next_end_player(self) -> None:
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

    # ---- serialisation ---------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Everything needed to continue the game exactly (the rules are referenced by hash);
        the dict is the caller's own (nothing in it is shared with the game)."""
        from dreamhome.house import house_to_json

        rules = self.rules
        return {
            "rules_hash": rules.content_hash,
            "players": self.n,
            "seed": self.seed,
            "first": self.first,
            "initial_first": self.initial_first,
            "round": self.round,
            "phase": self.phase.value,
            "actor": self.actor,
            "houses": [house_to_json(rules, h) for h in self.houses],
            "tool_rounds": [list(x) for x in self.tool_rounds],
            "tool_spent": [list(x) for x in self.tool_spent],
            "helper_spent": [list(x) for x in self.helper_spent],
            "room_deck": [_room_id(rules, c) for c in self.room_deck],
            "res_deck": [_res_dict(r) for r in self.res_deck],
            "track_rooms": [_room_id(rules, c) for c in self.track_rooms],
            "track_res": [_res_dict(r) for r in self.track_res],
            "room_discard": [_room_id(rules, c) for c in self.room_discard],
            "roof_discard": [{"color": rules.roofs[c].id, "window": w} for c, w in self.roof_discard],
            "gone": [_res_dict(r) for r in self.gone],
            "car_awarded": self.car_awarded,
            "order": list(self.order),
            "turn_index": self.turn_index,
            "skip": sorted(self.skip),
            "took_zero": self.took_zero,
            "jack_queue": list(self.jack_queue),
            "pending_room": _room_id(rules, self.pending_room),
            "pending_res": _res_dict(self.pending_res),
            "scaffold_pending": self.scaffold_pending,
            "scaffold_card": _res_dict(self.scaffold_card),
            "after_place": self.after_place.value,
            "end_queue": list(self.end_queue),
            "end_left": {k: list(v) for k, v in self.end_left.items()},
            "events": copy_events(self.events),
        }

    @classmethod
    def from_dict(cls, rules: Ruleset, data: Any) -> GameState:
        """The game saved by `to_dict`, every field checked (`GameStateError`, one line)."""

        state = cls.__new__(cls)
        state.__dict__.update(read_state(rules, data))
        state.rules = rules
        state._mutations = 0
        state._legal = None
        state._scored = {}
        return state

    # ---- views ---------------------------------------------------------
    def house_json(self, p: int) -> dict[str, Any]:
        from dreamhome.house import house_to_json

        return house_to_json(self.rules, self.house_with_piles(p))


def _on_top(deck: list[_Card], cards: list[_Card], kind: str) -> list[_Card]:
    """`deck` with `cards` moved to its end (the deck is dealt by `pop()`), first card last."""
    rest = list(deck)
    for card in cards:
        try:
            rest.remove(card)
        except ValueError:
            raise GameStateError(f"the {kind} deck holds no {card} to deal") from None
    return rest + cards[::-1]


def _room_id(rules: Ruleset, code: int | None) -> str | None:
    return rules.room_of_code(code).id if code is not None else None


def _res_dict(res: Resource | None) -> dict[str, Any] | None:
    return res.to_dict() if res is not None else None


_Handler = Callable[[GameState, Any, int], None]
_HANDLERS: dict[type[Action], _Handler] = {
    DiscardColumn: GameState._on_discard_column,
    TakeRoomAtRoundStart: GameState._on_take_room_at_round_start,
    PassTool: GameState._on_pass_tool,
    SwapWithTrack: GameState._on_swap_with_track,
    SwapTrackRooms: GameState._on_swap_track_rooms,
    TakeColumn: GameState._on_take_column,
    PlaceScaffold: GameState._on_place_scaffold,
    DeferScaffold: GameState._on_defer_scaffold,
    PlaceRoom: GameState._on_place_room,
    PlaceToken: GameState._on_place_token,
    SwapWithRoomDiscard: GameState._on_swap_with_room_discard,
    SwapInHouse: GameState._on_swap_in_house,
    TakeFromRoofDiscard: GameState._on_take_from_roof_discard,
    EndTurn: GameState._on_end_turn,
}

__all__ = ["GameState", "GameStateError", "IllegalAction", "Phase", "Resource"]
