"""Dream Home as an OpenSpiel Python game: `pyspiel.load_game("python_dream_home", {...})`.

The game is the project's own `GameState` under a thin layer that speaks OpenSpiel:
- actions are integers of a fixed space (`ActionSpace`), texts from `GameState.action_text`;
- the deals are explicit chance nodes: the first player, then each card of each round's deal,
  one node per card, with the probability of its kind in what the deck still holds (ROUND-2,
  SETUP-1). The layer decides each deal and puts the cards on top of the game's decks
  (`GameState.stack_deal`), so the game never shuffles behind OpenSpiel's back;
- what a player sees (SEE-1): every house, the track, both discard piles, the round and who
  acts are public in Dream Home, and the deck's order is not in the state at all (it is
  chance still to come). So every player's observation is the same public state, told from
  their seat, and the information state is the public history; `resample_from_infostate` has
  nothing hidden to redraw and returns a copy. The game type still says imperfect
  information, as OpenSpiel's information-set algorithms require, and docs/openspiel.md says why;
- returns are the final scores (`returns=score`, the default) or a share of a win
  (`returns=win`: the winners of SCORE-WIN share 1).

Game parameters: `players` (default 4), `variant` (names, comma-separated), `rules` (a rules
file; the packaged base rules by default), `returns`. Each is checked (`ValueError`, one line):
a parameter is input, and `rules` names a file read under the input size cap.

A state saves as data, never as a pickle: `state.serialize()` gives `dreamhome.openspiel-state/1`
JSON (the game's parameters and the history of actions), and `game.deserialize_state(text)`
replays it, every action checked against what the state offers (docs/openspiel.md).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import pyspiel

from dreamhome.dsl.compiler import compile_rules
from dreamhome.errors import DreamhomeError
from dreamhome.fileio import max_input_bytes, parse_json, printable
from dreamhome.game.phases import Phase
from dreamhome.game.state import GameState, Resource
from dreamhome.openspiel.action_space import ActionSpace
from dreamhome.ruleset import ROOM0, Ruleset

SHORT_NAME = "python_dream_home"
_DEFAULTS: dict[str, Any] = {"players": 4, "variant": "", "rules": "", "returns": "score"}
_RETURNS = ("score", "win")
STATE_FORMAT = "dreamhome.openspiel-state/1"
"""The `format` of a serialised state (`DreamHomeState.serialize`)."""

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Dream Home (dreamhome)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=16,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULTS,
)


@lru_cache(maxsize=16)
def _rules(path: str, variants: tuple[str, ...]) -> Ruleset:
    # The compiler reads a rules file once, a regular file only and under the input size cap
    # (`rules=/dev/zero` was once read until memory ran out; dsl.compiler.read_rules_text).
    return compile_rules(path or None, variants)


def _params(params: dict[str, Any] | None) -> dict[str, Any]:
    """The game's parameters with the defaults, each of its type and range (`ValueError`)."""
    if params is not None and not isinstance(params, dict):
        raise ValueError(f"game parameters must be a dict, got {type(params).__name__}")
    given = dict(params or {})
    unknown = sorted(str(k) for k in given if k not in _DEFAULTS)
    if unknown:
        raise ValueError(f"unknown game parameter {printable(unknown[0])!r}; parameters: {', '.join(_DEFAULTS)}")
    p = {**_DEFAULTS, **given}
    for name, default in _DEFAULTS.items():
        value = p[name]
        if isinstance(default, int) and (not isinstance(value, int) or isinstance(value, bool)):
            raise ValueError(f"{name} must be a whole number, got {printable(repr(value))[:60]}")
        if isinstance(default, str) and not isinstance(value, str):
            raise ValueError(f"{name} must be a string, got {printable(repr(value))[:60]}")
    if p["returns"] not in _RETURNS:
        raise ValueError(f"returns must be one of {', '.join(_RETURNS)}, got {printable(p['returns'])[:60]!r}")
    if "\x00" in p["rules"] or "\x00" in p["variant"]:
        raise ValueError("rules and variant may not hold a NUL character")
    return p


def resource_kinds(rules: Ruleset) -> tuple[Resource, ...]:
    """Every distinct resource card of the rules, in a fixed order (the chance outcomes of a
    resource deal): a roof colour with and without its window, then furnishing, helper and
    tool cards."""
    kinds: list[Resource] = []
    for roof in rules.roofs:
        if roof.windows:
            kinds.append(Resource("roof", roof.id, True))
        if roof.count > roof.windows:
            kinds.append(Resource("roof", roof.id, False))
    kinds += [Resource("furnishing", f.id) for f in rules.furnishings if f.is_card and f.count]
    kinds += [Resource(c.kind, c.id) for c in (*rules.helpers, *rules.tools) if c.count]
    return tuple(kinds)


def _deck(rules: Ruleset) -> tuple[Counter[int], Counter[Resource]]:
    rooms = Counter({r.code: r.count for r in rules.rooms if r.count})
    res: Counter[Resource] = Counter()
    for roof in rules.roofs:
        res[Resource("roof", roof.id, True)] += roof.windows
        res[Resource("roof", roof.id, False)] += roof.count - roof.windows
    res.update({Resource("furnishing", f.id): f.count for f in rules.furnishings if f.is_card})
    res.update({Resource(c.kind, c.id): c.count for c in (*rules.helpers, *rules.tools)})
    return rooms, +res


_BY_HASH: dict[str, Ruleset] = {}


class Setup:
    """What a game's states share: the rules, the action space, the resource kinds and the
    full deck. States hold its key, not the object, so copying a state copies a tuple."""

    def __init__(self, rules_hash: str, players: int, win_returns: bool):
        self.rules = _BY_HASH[rules_hash]
        self.players = players
        self.win_returns = win_returns
        self.space = ActionSpace(self.rules)
        self.res_kinds = resource_kinds(self.rules)
        self.res_index = {r: i for i, r in enumerate(self.res_kinds)}
        self.deck = _deck(self.rules)


@lru_cache(maxsize=64)
def setup(rules_hash: str, players: int, win_returns: bool) -> Setup:
    return Setup(rules_hash, players, win_returns)


class DreamHomeGame(pyspiel.Game):
    """The game under one ruleset and player count (OpenSpiel's `Game`)."""

    def __init__(self, params: dict[str, Any] | None = None, ruleset: Ruleset | None = None):
        """The game of `params`; `ruleset`, when given, is used instead of compiling the
        `rules` and `variant` parameters (a bot plays the game it is seated at)."""
        p = _params(params)
        variants = tuple(v.strip() for v in p["variant"].split(",") if v.strip())
        if ruleset is not None:
            rules = ruleset
        else:
            try:
                rules = _rules(p["rules"], variants)
            except DreamhomeError as exc:  # a RulesError lists every error, a line each: the first, and how many more
                lines = str(exc).splitlines() or [type(exc).__name__]
                more = f" (and {len(lines) - 1} more)" if len(lines) > 1 else ""
                named = f"rules={printable(p['rules'])!r}: " if p["rules"] else ""
                raise ValueError(named + lines[0] + more) from None
        _BY_HASH.setdefault(rules.content_hash, rules)
        players = p["players"]
        g = rules.game
        if not g.min_players <= players <= g.max_players:
            raise ValueError(f"players must be {g.min_players}–{g.max_players} under these rules, got {players}")
        self.key = (rules.content_hash, players, p["returns"] == "win")
        s = setup(*self.key)
        self.rules, self.players, self.win_returns = rules, players, s.win_returns
        held = [*self.rules.helpers, *self.rules.tools]
        tools = sum(c.count for c in self.rules.tools)
        end_uses = sum(c.count * sum(e.uses for e in c.effects) for c in held)
        # A bound, not an estimate: every decision a round can hold, for every player, plus the end game.
        length = g.rounds * (1 + self.players * (6 + 2 * tools)) + self.players * (end_uses + 1)
        chance = 1 + g.rounds * (g.deal_rooms + g.deal_resources)
        info = pyspiel.GameInfo(
            num_distinct_actions=s.space.size,
            max_chance_outcomes=max(self.players, len(self.rules.rooms), len(s.res_kinds)),
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0 if self.win_returns else float(_score_bound(self.rules)),
            utility_sum=None,
            max_game_length=length + chance,
        )
        super().__init__(GAME_TYPE, info, p)

    def new_initial_state(self) -> DreamHomeState:
        return DreamHomeState(self)

    def deserialize_state(self, text: str) -> DreamHomeState:
        """The state `DreamHomeState.serialize` wrote, for this game (`ValueError`, one line).

        The text is data (never unpickled): its format and parameters must be this game's, and
        its actions are replayed one by one, each one the state offers at that point."""
        if not isinstance(text, str):
            raise ValueError(f"a serialised state is text, got {type(text).__name__}")
        if len(text) > max_input_bytes():
            raise ValueError(f"serialised state: larger than {max_input_bytes()} bytes")
        try:
            data = parse_json(text, "serialised state")
        except DreamhomeError as exc:
            raise ValueError(str(exc)) from None
        if not isinstance(data, dict) or set(data) != {"format", "game", "rules_hash", "start", "history"}:
            raise ValueError("serialised state: expected an object with format, game, rules_hash, start and history")
        if data["format"] != STATE_FORMAT:
            raise ValueError(f"serialised state: format must be {STATE_FORMAT}, got {printable(repr(data['format']))[:60]}")
        if data["game"] != self.get_parameters() or data["rules_hash"] != self.rules.content_hash:
            raise ValueError("serialised state: it was saved from another game (its parameters or rules differ)")
        history = data["history"]
        if not isinstance(history, list) or not all(isinstance(a, int) and not isinstance(a, bool) for a in history):
            raise ValueError("serialised state: history must be a list of whole numbers")
        if data["start"] is None:
            state = self.new_initial_state()
        else:
            try:
                start = GameState.from_dict(self.rules, data["start"])
            except DreamhomeError as exc:
                raise ValueError(f"serialised state: start: {exc}") from None
            state = DreamHomeState.from_game_state(self, start)
        for k, action in enumerate(history):
            if state.is_terminal() or action not in state.legal_actions():
                raise ValueError(f"serialised state: history[{k}]: action {action} is not offered there")
            state.apply_action(action)
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return Observer(setup(*self.key), perfect_recall=bool(iig_obs_type is not None and iig_obs_type.perfect_recall))


def _score_bound(rules: Ruleset) -> int:
    """A score no house can pass (OpenSpiel's `max_utility`), loose on purpose: every space at
    the best room's points, the best annex bonus and the best token, every helper's extra
    points everywhere, every bonus, every roof card at every roof award."""
    extra = sum(c.count * sum(v or 0 for e in c.effects for _, v in e.args) for c in rules.helpers)
    per_cell = max((max(r.points) for r in rules.rooms), default=0)
    per_cell += max((r.bonus[0] for r in rules.rooms if r.bonus), default=0)
    per_cell += max((f.points for f in rules.furnishings), default=0) + extra
    s = rules.roof_scoring
    roofs = sum(r.count for r in rules.roofs) * (s.uniform + s.mixed + s.window)
    bonuses = sum(b.points for b in rules.bonuses) * (1 + extra)
    return rules.board.size * per_cell + roofs + bonuses + sum(f.points for f in rules.furnishings)


@dataclass(frozen=True)
class _Start:
    """The game state a continued state began from (`from_game_state`), kept for `serialize`.
    Shared, never copied: OpenSpiel deep-copies a state's attributes at every clone."""

    state: GameState

    def __deepcopy__(self, memo: dict[int, Any]) -> _Start:
        return self


def game_space(game: DreamHomeGame) -> ActionSpace:
    """The action numbers of `game` (a bot's choice goes back to OpenSpiel as one of them)."""
    return setup(*game.key).space


class DreamHomeState(pyspiel.State):
    """One game in progress (OpenSpiel's `State`), over a `GameState` once the first deal is made."""

    def __init__(self, game: DreamHomeGame):
        super().__init__(game)
        self._key = game.key
        self.game_state: GameState | None = None
        self._first: int | None = None
        self._deal_rooms: list[int] = []
        self._deal_res: list[Resource] = []
        self._pending: int | None = None
        deck = setup(*game.key).deck
        self._rooms_left, self._res_left = Counter(deck[0]), Counter(deck[1])
        self._history_text: list[str] = []
        self._start: _Start | None = None

    @classmethod
    def from_game_state(cls, game: DreamHomeGame, state: GameState) -> DreamHomeState:
        """An OpenSpiel state continuing `state` (a game under `game`'s rules and players),
        with the next deals as chance nodes drawn from what its decks hold. The history
        before it is not known: the information state starts here."""
        if state.rules.content_hash != game.rules.content_hash or state.n != game.players:
            raise ValueError("the game state is not one of this game's rules and players")
        twin = cls(game)
        twin._first = state.first
        twin.game_state = state.clone()
        twin._rooms_left = Counter(state.room_deck)
        twin._res_left = Counter(state.res_deck)
        twin._history_text = [f"continued at round {state.round}"]
        twin._start = _Start(state.clone())
        return twin

    def serialize(self) -> str:
        """The state as `dreamhome.openspiel-state/1` JSON: the game's parameters, the game state
        a continued state began from (`GameState.to_dict`, else null) and every action since.
        `DreamHomeGame.deserialize_state` reads it back. (OpenSpiel's C++ side keeps its own
        pickled form for `pyspiel.serialize_game_and_state`: for strings made by this process.)"""
        data = {
            "format": STATE_FORMAT,
            "game": self.get_game().get_parameters(),
            "rules_hash": self._g.rules.content_hash,
            "start": self._start.state.to_dict() if self._start is not None else None,
            "history": [int(a) for a in self.history()],
        }
        return json.dumps(data, separators=(",", ":"))

    @property
    def _g(self) -> Setup:
        return setup(*self._key)

    # ---- chance --------------------------------------------------------------
    def _dealing(self) -> str | None:
        """What the next chance node deals: "first", "room", "resource", or None."""
        if self._first is None:
            return "first"
        if self.game_state is not None and self._pending is None:
            return None
        g = self._g.rules.game
        if len(self._deal_rooms) < g.deal_rooms:
            return "room"
        return "resource"

    def current_player(self) -> int:
        if self._dealing() is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.game_state is not None
        if self.game_state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.game_state.current_player()

    def deck_left(self) -> tuple[Counter[int], Counter[Resource]]:
        """The cards still to be dealt, room codes and resources counted (the chance nodes draw
        from them; what the observation tensor shows every player: the counts, not the order)."""
        return Counter(self._rooms_left), Counter(self._res_left)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealing = self._dealing()
        if dealing == "first":
            return [(p, 1.0 / self._g.players) for p in range(self._g.players)]
        if dealing == "room":
            total = sum(self._rooms_left.values())
            return sorted((code - ROOM0, n / total) for code, n in self._rooms_left.items() if n)
        total = sum(self._res_left.values())
        return sorted((self._g.res_index[r], n / total) for r, n in self._res_left.items() if n)

    def _apply_chance(self, outcome: int) -> None:
        if not any(outcome == offered for offered, _ in self.chance_outcomes()):  # before anything changes
            raise ValueError(f"chance outcome {outcome} is not offered here ({self._dealing()})")
        dealing = self._dealing()
        rules = self._g.rules
        if dealing == "first":
            self._first = outcome
            self._history_text.append(f"first player {outcome}")
        elif dealing == "room":
            code = ROOM0 + outcome
            self._rooms_left[code] -= 1
            self._deal_rooms.append(code)
            self._history_text.append(f"deal {rules.room_of_code(code).id}")
        else:
            res = self._g.res_kinds[outcome]
            self._res_left[res] -= 1
            self._deal_res.append(res)
            self._history_text.append(f"deal {res.text()}")
        g = rules.game
        if dealing != "first" and len(self._deal_rooms) == g.deal_rooms and len(self._deal_res) == g.deal_resources:
            self._finish_deal()

    def _finish_deal(self) -> None:
        deal = (self._deal_rooms, self._deal_res)
        if self.game_state is None:
            assert self._first is not None
            self.game_state = GameState(self._g.rules, self._g.players, 0, self._first, first_deal=deal)
        else:
            assert self._pending is not None
            self.game_state.stack_deal(*deal)
            self.game_state.apply_action(self._g.space.action(self._pending))
            self._pending = None
        self._deal_rooms, self._deal_res = [], []

    # ---- players -------------------------------------------------------------
    def _legal_actions(self, player: int) -> list[int]:
        assert self.game_state is not None and player == self.game_state.current_player()
        return sorted(self._g.space.number(a) for a in self.game_state.legal_actions())

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._apply_chance(action)
            return
        assert self.game_state is not None
        move = self._g.space.action(action)
        self._history_text.append(f"p{self.game_state.current_player()} {self.game_state.action_text(move)}")
        after = self.game_state.child(move)
        if self.game_state.round < after.round <= self._g.rules.game.rounds:
            self._pending = action  # the move ends a round: the next deal comes first (ROUND-2)
        else:
            self.game_state = after

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            dealing = self._dealing()
            if dealing == "first":
                return f"first player {action}"
            # A number no card has (never offered) is said so, not an IndexError (nor, negative, another card).
            if dealing == "room":
                rooms = self._g.rules.rooms
                return f"deal {rooms[action].id}" if 0 <= action < len(rooms) else f"no room card {action}"
            kinds = self._g.res_kinds
            return f"deal {kinds[action].text()}" if 0 <= action < len(kinds) else f"no resource card {action}"
        move = self._g.space.action(action)
        return self.game_state.action_text(move) if self.game_state is not None else str(move)

    def is_terminal(self) -> bool:
        return self.game_state is not None and self._pending is None and self.game_state.is_terminal()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._g.players
        assert self.game_state is not None
        if self._g.win_returns:
            winners = self.game_state.winners()
            return [1.0 / len(winners) if p in winners else 0.0 for p in range(self._g.players)]
        return [float(s) for s in self.game_state.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> DreamHomeState:
        """Nothing a player cannot see is in the state (the deck's order is chance still to
        come), so every state consistent with a player's information is this one."""
        return self.clone()

    def public_text(self) -> str:
        """The public state: round, phase, who acts, the track, every house and both piles."""
        gs = self.game_state
        if gs is None:
            return "setup: " + " ".join(self._history_text)
        rules = self._g.rules
        obs = gs.observation(lookahead=False)
        lines = [f"round {obs.round}/{rules.game.rounds} phase {obs.phase} actor {obs.actor} first {obs.first}"]
        track = []
        for room, res in obs.track:
            track.append(f"{rules.room_of_code(room).id if room is not None else '-'}+{res.text() if res else '-'}")
        lines.append("track " + " | ".join(track))
        for p, house in enumerate(obs.houses):
            cells = " ".join(_cell_text(rules, c) for c in house.cells)
            roofs = ",".join(f"{rules.roofs[i].id}{'*' if w else ''}" for i, w in house.roofs)
            lines.append(
                f"p{p} score {obs.scores[p]} cells {cells} roofs {roofs or '-'} helpers {','.join(house.helpers) or '-'}"
                f" tools {','.join(house.tools) or '-'} outside {','.join(house.outside) or '-'}"
            )
        lines.append("room discard " + (",".join(rules.room_of_code(c).id for c in obs.room_discard) or "-"))
        lines.append("roof discard " + (",".join(f"{rules.roofs[i].id}{'*' if w else ''}" for i, w in obs.roof_discard) or "-"))
        if self._pending is not None:
            lines.append("dealing")
        return "\n".join(lines)

    def history_text(self) -> list[str]:
        return list(self._history_text)

    def __str__(self) -> str:
        return self.public_text()


def _cell_text(rules: Ruleset, code: int) -> str:
    if code >= ROOM0:
        return rules.room_of_code(code).id
    return {0: ".", 1: "#", 2: "_"}.get(code, "?")


class Observer:
    """OpenSpiel's observer: a flat tensor (with named views) and a string, from one seat.

    Both the observation and the information state are the public state (see the module's
    docstring): the seat, who acts, the phase and round, every house cell by cell, held
    cards, the track, both discard piles and what the deck still holds — the last one is
    the public history's summary, so the tensor needs no history."""

    def __init__(self, game: Setup, perfect_recall: bool = False):
        rules = game.rules
        self._g = game
        self._recall = perfect_recall
        n, cells = game.players, rules.board.size
        kinds = 3 + len(rules.rooms)  # empty, scaffold, face down, each room
        held = len(rules.helpers) + len(rules.tools)
        cols = rules.game.deal_rooms
        pieces = [
            ("me", n),
            ("actor", n),
            ("phase", len(Phase)),
            ("round", 1),
            ("cells", n * cells * kinds),
            ("tokens", n * cells),
            ("roofs", n * len(rules.roofs) * 2),
            ("held", n * held),
            ("track_rooms", cols * (1 + len(rules.rooms))),
            ("track_resources", cols * (1 + len(game.res_kinds))),
            ("room_discard", len(rules.rooms)),
            ("roof_discard", len(rules.roofs) * 2),
            ("deck_rooms", len(rules.rooms)),
            ("deck_resources", len(game.res_kinds)),
        ]
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[at : at + size]
            at += size
        self._kinds, self._held = kinds, [c.id for c in (*rules.helpers, *rules.tools)]

    def set_from(self, state: DreamHomeState, player: int) -> None:
        self.tensor.fill(0)
        g, rules, d = self._g, self._g.rules, self.dict
        d["me"][player] = 1
        rooms_left, res_left = state.deck_left()
        for code, count in rooms_left.items():
            d["deck_rooms"][code - ROOM0] = count
        for res, count in res_left.items():
            d["deck_resources"][g.res_index[res]] = count
        gs = state.game_state
        if gs is None:
            return
        obs = gs.observation(lookahead=False)
        if obs.actor >= 0:
            d["actor"][obs.actor] = 1
        d["phase"][list(Phase).index(Phase(obs.phase))] = 1
        d["round"][0] = obs.round / rules.game.rounds
        cells, roofs = rules.board.size, len(rules.roofs)
        for p, house in enumerate(obs.houses):
            for c, code in enumerate(house.cells):
                d["cells"][(p * cells + c) * self._kinds + code] = 1
                d["tokens"][p * cells + c] = 1 if house.tokens[c] else 0
            for i, window in house.roofs:
                d["roofs"][(p * roofs + i) * 2 + window] += 1
            for ident in (*house.helpers, *house.tools):
                d["held"][p * len(self._held) + self._held.index(ident)] += 1
        for k, (room, resource) in enumerate(obs.track):
            d["track_rooms"][k * (1 + len(rules.rooms)) + (0 if room is None else 1 + room - ROOM0)] = 1
            d["track_resources"][k * (1 + len(g.res_kinds)) + (0 if resource is None else 1 + g.res_index[resource])] = 1
        for code in obs.room_discard:
            d["room_discard"][code - ROOM0] += 1
        for i, window in obs.roof_discard:
            d["roof_discard"][i * 2 + window] += 1

    def string_from(self, state: DreamHomeState, player: int) -> str:
        """The observation: the public state from `player`'s seat. The information state
        (perfect recall): the public history, every deal and every decision, in order."""
        if self._recall:
            return f"seat {player}\n" + "\n".join(state.history_text())
        return f"seat {player}\n{state.public_text()}"


pyspiel.register_game(GAME_TYPE, DreamHomeGame)
