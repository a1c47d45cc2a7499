"""The game of Dream Home, 2–4 players, every rule of docs/rules.md (OpenSpiel-style API).

`GameState` owns the shuffled decks (a seeded RNG used once, at setup), the
track, the houses, held cards, discard piles, the first-player marker and the
phase (`Phase`). `legal_actions()` lists the real alternatives of the player
to act, one generator per phase (`legal.py`); `apply_action()` checks the action is one of
them (else `IllegalAction` naming the rule, the state unchanged), applies it
with the one handler of its type (`handlers.HANDLERS`), then runs the forced steps
(dealing, discards, single-option decisions, the award token, scoring) by
itself, recording each in `events`. `child(action)` is the same on a copy.

One class, no chain of mixins: the game's data is typed once here, its readings (the scores,
the winners, the cards a player may use now) are its public methods, and the steps that
change it are module functions taking it, each in its own module — a handler per action
(`handlers.py`) and the forced steps between decisions (`flow.py`) — which change the public
fields and call the public methods only.

Bots never see this object: `observation(player)` hands them what SEE-1 makes
public (no deck order), as a frozen value.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dreamhome.errors import DreamhomeError
from dreamhome.game import flow, held
from dreamhome.game.actions import LOOKAHEAD_ACTIONS, Action
from dreamhome.game.handlers import HANDLERS
from dreamhome.game.legal import LEGAL_BY_PHASE
from dreamhome.game.observation import Lookahead, Observation, with_piles
from dreamhome.game.phases import RULE_OF_ACTION, RULE_OF_PHASE, Phase
from dreamhome.game.state_io import copy_events, read_state, write_state
from dreamhome.game.values import MARKER_COLUMN, GameStateError, IllegalAction, Resource, rules_from_key, rules_key
from dreamhome.house import House
from dreamhome.ruleset import ROOM0, Ruleset
from dreamhome.scoring import score_total
from dreamhome.seeds import check_seed

_LISTS = tuple(
    "room_deck res_deck houses room_discard roof_discard gone events track_rooms track_res order jack_queue end_queue".split()
)
"""The fields `snapshot` copies one level deep (lists of immutable values: houses, cards, seats, event dicts)."""


class GameState:
    """One game: its data (typed in `__init__`, or read back by `from_dict`), its readings,
    and `apply_action`, which runs the handler of the action (`handlers.HANDLERS`) and the
    forced steps after it (`flow`)."""

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
        dealt, as `stack_deal` does for later rounds. A value of the wrong type is a
        `GameStateError` naming it (issue 21), never a TypeError from deep inside."""
        _check_setup(rules, players, seed, first_player)
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
        flow.start_round(self)
        self._settle()

    def current_player(self) -> int:
        return -1 if self.phase == Phase.DONE else self.actor

    def is_terminal(self) -> bool:
        return self.phase == Phase.DONE

    def stack_deal(self, rooms: Sequence[int], resources: Sequence[Resource]) -> None:
        """Put these cards on top of the decks, in this order, so the next deal (ROUND-2) is
        them: a caller that decides the deal itself (OpenSpiel's explicit chance nodes, a
        what-if with a fixed deal) chooses the cards, the deck keeps the rest. Each card must
        still be in its deck; the decks keep their contents, only the order changes."""
        self.room_deck = flow.on_top(self.room_deck, list(rooms), "room")
        self.res_deck = flow.on_top(self.res_deck, list(resources), "resource")
        self._mutations += 1

    def clone(self) -> GameState:
        """An independent copy: nothing of it, events included, is shared with this game."""
        twin = self.snapshot()
        twin.events = copy_events(self.events)
        return twin

    def child(self, action: Action) -> GameState:
        """A copy with `action` applied (and the forced steps after it); this state is unchanged
        (its events too: the child's new events go to the child's own list, `snapshot`)."""
        twin = self.snapshot()
        twin.apply_action(action)
        return twin

    def snapshot(self) -> GameState:
        """A copy to read or play on: its lists are its own, so neither game's moves change the
        other, but the event dicts are shared (the engine never changes one). For look-ahead
        children and a replay's positions, where `clone`'s deep copy of every event was a tenth
        of a review's time; a caller that edits events takes `clone`. Copied field by field, not by
        `copy.copy` (its pickling hooks were half a look-ahead house's time); the legal-action
        cache is kept, as it is keyed by the position."""
        twin = object.__new__(type(self))
        data = twin.__dict__
        data.update(self.__dict__)
        for name in _LISTS:
            data[name] = list(data[name])
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
        card = self.card_for(action)
        return action.text(self.rules.held(card).name) if card is not None else str(action)

    def observation(self, player: int | None = None, lookahead: bool = True) -> Observation:
        """What `player` (the actor by default) may see (SEE-1): no deck order, no state object.

        With `lookahead`, the actor's house after each of its legal actions that a bot cannot
        work out from public data alone (tools, scaffold, end-game helpers) is included (lazily)."""
        me = self.actor if player is None else player
        if player is not None and not (isinstance(player, int) and 0 <= player < self.n):
            raise DreamhomeError(f"SEE-1: no player {player!r} at this table (seats 0–{self.n - 1})")
        after: Mapping[Action, House] = {}
        if lookahead and me == self.actor and self.phase != Phase.DONE:
            after = self._lookahead(me)
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
            twin = self._unmoved(version).clone()
            twin.events = []
            rng.shuffle(twin.room_deck)
            rng.shuffle(twin.res_deck)
            return twin

        return sample

    def _lookahead(self, me: int) -> Lookahead:
        """`Observation.lookahead`: the actor's legal look-ahead actions, each house worked out by
        `_house_after` when first read, refused once the game moved on."""
        version, actions = self._mutations, [a for a in self.legal_actions() if isinstance(a, LOOKAHEAD_ACTIONS)]
        return Lookahead(actions, lambda action: self._unmoved(version)._house_after(action, me))

    def _unmoved(self, version: int) -> GameState:
        """This game, if no action or stacked deal changed it since `version` (an observation's lazy
        readings, `sample_state` and `lookahead`, are of the position it was made in)."""
        if self._mutations != version:
            raise GameStateError("the game has moved on since this observation was made")
        return self

    def _house_after(self, action: Action, player: int) -> House:
        """The player's house right after the handler of `action` (no forced steps after it)."""
        twin = self.snapshot()
        twin._apply(action)
        return twin.houses[player]

    def legal_actions(self) -> list[Action]:
        cached = self._legal
        if cached is not None and cached[0] == self._version():
            return list(cached[1])
        actions = LEGAL_BY_PHASE[self.phase](self, self.actor)
        self._legal = (self._version(), actions)
        return list(actions)

    def _version(self) -> tuple[Any, ...]:
        return (self._mutations, len(self.events), self.phase, self.actor)

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
        HANDLERS[type(action)](self, action, self.actor)

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to continue the game exactly (the rules are referenced by hash);
        the dict is the caller's own (nothing in it is shared with the game)."""
        return write_state(self)

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

    def house_json(self, p: int) -> dict[str, Any]:
        """A player's house as `dreamhome.house/1` JSON, both discard piles with it."""
        from dreamhome.house import house_to_json

        return house_to_json(self.rules, self.house_with_piles(p))

    # The readings of the game every part of it uses: the scores now, the winners, a cell's index.

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
        tied = self.top_scorers()
        if len(tied) > 1 and self.rules.options["tiebreak"] == "children":
            kids = {p: self.children(p) for p in tied}
            most = max(kids.values())
            tied = [p for p in tied if kids[p] == most]
        return tied

    def top_scorers(self) -> list[int]:
        """SCORE-WIN: the players with the most points, before any tie-break."""
        scores = self.returns()
        best = max(scores)
        return [p for p, s in enumerate(scores) if s == best]

    def children(self, player: int) -> int:
        """SCORE-WIN's tie-break: the children hidden on the player's face-up room cards."""
        return sum(self.rules.room_of_code(c).children for c in self.houses[player].cells if c >= ROOM0)

    def timing_now(self) -> str:
        """TOOL-TIMING: the timing of the phase's uses (round_start, before_take or end)."""
        return {Phase.ROUND_START: "round_start", Phase.END: "end"}.get(self.phase, "before_take")

    def cell_index(self, name: str) -> int:
        """A board cell's index in the ruleset's tables, by the cell's name."""
        return self.rules.board.index[name]

    def house_with_piles(self, player: int) -> House:
        """A player's house with both discard piles, as the end-game helpers see it (END-*)."""
        return with_piles(self.rules, self.houses[player], self.room_discard, self.roof_discard)

    def card_for(self, action: Action) -> str | None:
        """The helper or tool card the actor uses for `action`, if any (`held.card_for`)."""
        return held.card_for(self, action)

    def usable_cards(self, p: int, role: str, timing: str) -> list[tuple[str, int]]:
        """The player's cards that can play `role` at `timing` now (`held.usable_cards`)."""
        return held.usable_cards(self, p, role, timing)

    def token_cells(self, p: int, furn_id: str) -> list[int]:
        """The cells a furnishing token may go on in the player's house (`held.token_cells`)."""
        return held.token_cells(self, p, furn_id)


def _check_setup(rules: Any, players: Any, seed: Any, first_player: Any) -> None:
    """The constructor's values have the types a game needs (a bool is no number here)."""
    if not isinstance(rules, Ruleset):
        raise GameStateError(f"rules must be a compiled Ruleset, got {type(rules).__name__}")
    for name, value, optional in (("players", players, False), ("seed", seed, False), ("first_player", first_player, True)):
        if optional and value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise GameStateError(f"{name} must be a whole number, got {value!r}")
    check_seed(seed, error=GameStateError)  # from 0: random.Random(-k) deals as random.Random(k)


__all__ = ["MARKER_COLUMN", "GameState", "GameStateError", "IllegalAction", "Phase", "Resource", "rules_key"]
