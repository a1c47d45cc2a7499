"""Reading a saved game state (`GameState.to_dict`) with every field checked.

A saved state comes from a file, so it is input: each field is checked for its
type, its range (seats, rounds, phases) and its card ids, and the first problem
is one line naming the field (`GameStateError`), never a KeyError or TypeError.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from dreamhome.engine.endgame import END_ROLES
from dreamhome.errors import DreamhomeError
from dreamhome.game.phases import Phase
from dreamhome.game.values import GameStateError, Resource
from dreamhome.house import House, house_from_json, house_to_json
from dreamhome.ruleset import Ruleset
from dreamhome.vocabulary import MAX_USES

if TYPE_CHECKING:
    from dreamhome.game.state import GameState

T = TypeVar("T")
RESOURCE_KINDS = ("roof", "furnishing", "helper", "tool")


def _fail(field: str, message: str) -> DreamhomeError:
    return GameStateError(f"game state: {field}: {message}")


def _int(field: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """An int (not a bool, not a float) within [low, high]."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(field, f"expected a whole number, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise _fail(field, f"{value} is out of range {low}..{high}")
    return value


def _bool(field: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _fail(field, f"expected true or false, got {value!r}")
    return value


def _list(field: str, value: Any, item: Callable[[str, Any], T]) -> list[T]:
    if not isinstance(value, list):
        raise _fail(field, f"expected a list, got {type(value).__name__}")
    return [item(f"{field}[{i}]", v) for i, v in enumerate(value)]


def _optional(item: Callable[[str, Any], T]) -> Callable[[str, Any], T | None]:
    return lambda field, value: None if value is None else item(field, value)


class _Reader:
    """Field readers bound to the rules and the number of players."""

    def __init__(self, rules: Ruleset, data: dict[str, Any]):
        self.rules = rules
        self.data = data
        self.n = 0

    def get(self, field: str) -> Any:
        if field not in self.data:
            raise _fail(field, "missing")
        return self.data[field]

    def seat(self, field: str, value: Any) -> int:
        return _int(field, value, 0, self.n - 1)

    def room(self, field: str, value: Any) -> int:
        if not isinstance(value, str) or not self.rules.has_room(value):
            raise _fail(field, f"unknown room card {value!r}")
        return self.rules.room(value).code

    def resource(self, field: str, value: Any) -> Any:
        if not isinstance(value, dict) or set(value) - {"kind", "id", "window"}:
            raise _fail(field, f"expected a resource card {{kind, id, window}}, got {value!r}")
        kind, ident = value.get("kind"), value.get("id")
        known = {
            "roof": self.rules.has_roof,
            "furnishing": self.rules.has_furnishing,
            "helper": lambda i: self.rules.has_held(i, "helper"),
            "tool": lambda i: self.rules.has_held(i, "tool"),
        }
        if not isinstance(kind, str) or kind not in known or not isinstance(ident, str) or not known[kind](ident):
            raise _fail(field, f"unknown resource card {kind!r} {ident!r}")
        return Resource(kind, ident, _bool(field + ".window", value.get("window", False)))

    def roof(self, field: str, value: Any) -> tuple[int, bool]:
        if not isinstance(value, dict) or not isinstance(value.get("color"), str) or not self.rules.has_roof(value["color"]):
            raise _fail(field, f"unknown roof card {value!r}")
        return (self.rules.roof(value["color"]).index, _bool(field + ".window", value.get("window")))

    def house(self, field: str, value: Any) -> House:
        house = house_from_json(self.rules, value, f"game state: {field}")
        return house

    def held(self, field: str, value: Any) -> str:
        if not isinstance(value, str) or not self.rules.has_held(value):  # a tool may act at the end (TOOL-TIMING)
            raise _fail(field, f"unknown helper or tool card {value!r}")
        return value


def _counts(field: str, value: Any) -> list[int]:
    return _list(field, value, lambda f, x: _int(f, x, 0, MAX_USES))


def read_state(rules: Ruleset, data: Any) -> dict[str, Any]:
    """The attributes of a `GameState` from its `to_dict` form, every field checked."""
    if not isinstance(data, dict):
        raise _fail("state", f"expected an object, got {type(data).__name__}")
    if data.get("rules_hash") != rules.content_hash:
        raise _fail("rules_hash", "this game state was saved under other rules (content hash differs)")
    r = _Reader(rules, data)
    g = rules.game
    n = r.n = _int("players", r.get("players"), g.min_players, g.max_players)
    phases = {p.value: p for p in Phase}
    phase = r.get("phase")
    if not isinstance(phase, str) or phase not in phases:
        raise _fail("phase", f"unknown phase {phase!r}; phases: {', '.join(phases)}")
    after = r.get("after_place")
    if not isinstance(after, str) or after not in (Phase.TURN.value, Phase.ROUND_START.value):
        raise _fail("after_place", f"unknown value {after!r}")
    actor = _int("actor", r.get("actor"), -1, n - 1)
    if (actor == -1) != (phases[phase] == Phase.DONE):
        raise _fail("actor", f"{actor} cannot act in phase {phase}")
    end_left = r.get("end_left")
    if not isinstance(end_left, dict) or set(end_left) - set(END_ROLES):
        raise _fail("end_left", f"expected an object with keys among {', '.join(END_ROLES)}")
    events = r.get("events")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise _fail("events", "expected a list of objects")
    tool_rounds = _list("tool_rounds", r.get("tool_rounds"), lambda f, v: _list(f, v, lambda f2, x: _int(f2, x, 0, g.rounds)))
    houses = _list("houses", r.get("houses"), r.house)
    if len(houses) != n or len(tool_rounds) != n:
        raise _fail("houses", f"expected one house and one tool list per player ({n})")
    spent = {  # TOOL-TIMING; absent from states saved before uses were counted: nothing spent
        name: _list(name, data.get(name, [[0] * len(getattr(h, kind)) for h in houses]), _counts)
        for name, kind in (("tool_spent", "tools"), ("helper_spent", "helpers"))
    }
    for p, house in enumerate(houses):
        if len(spent["tool_spent"]) != n or len(spent["tool_spent"][p]) != len(house.tools):
            raise _fail("tool_spent", f"one count per tool held, per player ({n})")
        if len(spent["helper_spent"]) != n or len(spent["helper_spent"][p]) > len(house.helpers):
            raise _fail("helper_spent", f"at most one count per helper held, per player ({n})")
    fields = {
        "n": n,
        "seed": _int("seed", r.get("seed")),
        "first": r.seat("first", r.get("first")),
        "initial_first": r.seat("initial_first", r.get("initial_first")),
        "round": _int("round", r.get("round"), 0, g.rounds + 1),
        "phase": phases[phase],
        "actor": actor,
        "houses": houses,
        "tool_rounds": tool_rounds,
        **spent,
        "room_deck": _list("room_deck", r.get("room_deck"), r.room),
        "res_deck": _list("res_deck", r.get("res_deck"), r.resource),
        "track_rooms": _list("track_rooms", r.get("track_rooms"), _optional(r.room)),
        "track_res": _list("track_res", r.get("track_res"), _optional(r.resource)),
        "room_discard": _list("room_discard", r.get("room_discard"), r.room),
        "roof_discard": _list("roof_discard", r.get("roof_discard"), r.roof),
        "gone": _list("gone", r.get("gone"), r.resource),
        "car_awarded": _bool("car_awarded", r.get("car_awarded")),
        "order": _list("order", r.get("order"), r.seat),
        "turn_index": _int("turn_index", r.get("turn_index"), -1, n),
        "skip": set(_list("skip", r.get("skip"), r.seat)),
        "took_zero": _optional(r.seat)("took_zero", r.get("took_zero")),
        "jack_queue": _list("jack_queue", r.get("jack_queue"), r.seat),
        "pending_room": _optional(r.room)("pending_room", r.get("pending_room")),
        "pending_res": _optional(r.resource)("pending_res", r.get("pending_res")),
        "scaffold_pending": _bool("scaffold_pending", r.get("scaffold_pending")),
        "scaffold_card": _optional(r.resource)("scaffold_card", r.get("scaffold_card")),
        "after_place": phases[after],
        "end_queue": _list("end_queue", r.get("end_queue"), r.seat),
        "end_left": _end_left(phases[phase], {k: _list(f"end_left.{k}", v, r.held) for k, v in end_left.items()}),
        "events": copy_events(events),
    }
    _check_phase(fields, houses, tool_rounds)
    return fields


def _end_left(phase: Phase, read: dict[str, list[str]]) -> dict[str, list[str]]:
    """The end-game uses left by role (END-ORDER); in phase end a role the saved state does not
    name has none left (a state saved before the role existed had no card for it)."""
    if phase != Phase.END:
        return read
    return {role: read.get(role, []) for role in END_ROLES}


def _check_phase(fields: dict[str, Any], houses: list[House], tool_rounds: list[list[int]]) -> None:
    """What the phase needs is there: a card in hand to place, a furnishing for its token,
    the end-game uses of the player to act; one round per tool held (TOOL-LAST)."""
    phase = fields["phase"]
    if phase == Phase.PLACE and fields["pending_room"] is None:
        raise _fail("pending_room", "phase place needs a room card in hand")
    pending = fields["pending_res"]
    if phase == Phase.TOKEN and (pending is None or pending.kind != "furnishing"):
        raise _fail("pending_res", "phase token needs a furnishing card in hand")
    if fields["track_rooms"] and len(fields["track_res"]) != len(fields["track_rooms"]):
        raise _fail("track_res", "one resource slot per track column")
    for p, (house, rounds) in enumerate(zip(houses, tool_rounds)):
        if len(house.tools) != len(rounds):
            raise _fail(f"tool_rounds[{p}]", f"one round per tool held ({len(house.tools)})")


def copy_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events as data of their own: a caller may change them without touching the game."""
    return copy.deepcopy(events)


def write_state(state: GameState) -> dict[str, Any]:
    """Everything needed to continue the game exactly (the rules are referenced by hash);
    the dict is the caller's own (nothing in it is shared with the game)."""
    rules = state.rules
    return {
        "rules_hash": rules.content_hash,
        "players": state.n,
        "seed": state.seed,
        "first": state.first,
        "initial_first": state.initial_first,
        "round": state.round,
        "phase": state.phase.value,
        "actor": state.actor,
        "houses": [house_to_json(rules, h) for h in state.houses],
        "tool_rounds": [list(x) for x in state.tool_rounds],
        "tool_spent": [list(x) for x in state.tool_spent],
        "helper_spent": [list(x) for x in state.helper_spent],
        "room_deck": [_room_id(rules, c) for c in state.room_deck],
        "res_deck": [_res_dict(r) for r in state.res_deck],
        "track_rooms": [_room_id(rules, c) for c in state.track_rooms],
        "track_res": [_res_dict(r) for r in state.track_res],
        "room_discard": [_room_id(rules, c) for c in state.room_discard],
        "roof_discard": [{"color": rules.roofs[c].id, "window": w} for c, w in state.roof_discard],
        "gone": [_res_dict(r) for r in state.gone],
        "car_awarded": state.car_awarded,
        "order": list(state.order),
        "turn_index": state.turn_index,
        "skip": sorted(state.skip),
        "took_zero": state.took_zero,
        "jack_queue": list(state.jack_queue),
        "pending_room": _room_id(rules, state.pending_room),
        "pending_res": _res_dict(state.pending_res),
        "scaffold_pending": state.scaffold_pending,
        "scaffold_card": _res_dict(state.scaffold_card),
        "after_place": state.after_place.value,
        "end_queue": list(state.end_queue),
        "end_left": {k: list(v) for k, v in state.end_left.items()},
        "events": copy_events(state.events),
    }


def _room_id(rules: Ruleset, code: int | None) -> str | None:
    return rules.room_of_code(code).id if code is not None else None


def _res_dict(res: Resource | None) -> dict[str, Any] | None:
    return res.to_dict() if res is not None else None
