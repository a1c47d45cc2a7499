"""Game records (`dreamhome.record/2`): write a game, replay it exactly, open a saved one to resume.

A record holds the rules in use (their full source with includes inlined, the
variants switched on and the content hash), the seed, the players and bots,
every event in order, the result, and a digest of all of it. Replaying
recompiles the rules from the record alone, checks every top-level field,
re-applies each decision, checks every event (decisions, forced steps, deals,
scores) and the final houses; the first event that differs is named.

`dreamhome.record/1` named the actions after the base game's cards
(`SupplierSwap`, `UseDrill`, …); such records still replay: their action types
are read as the record/2 names, and their texts (which named base-game cards)
are not compared.

Playing a game between bots, and resuming a saved one with its bots choosing again, is
`dreamhome.players.playing`'s: the bots sit above the rules of play, which never build one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import RECORD1_NOTES, RECORD1_TYPES, Action, action_from_dict
from dreamhome.game.state import GameState, IllegalAction, copy_events

FORMAT = "dreamhome.record/2"
FORMAT_V1 = "dreamhome.record/1"
READABLE_FORMATS = (FORMAT_V1, FORMAT)
RECORDS_DIR = "records"
"""Where a folder of games keeps their records (`whatif --records`, read by `dreamhome analyze`)."""
RECORD1_DISCARD_PLAYERS = (2, 3)  # ROUND-1 as record/1's engine read it (see `_start`)


@dataclass(frozen=True)
class GameResult:
    state: GameState
    bots: tuple[str, ...]
    names: tuple[str | None, ...] | None = None  # the persons' names per seat (the browser table's), if any

    def scores(self) -> list[int]:
        return self.state.returns()

    def winners(self) -> list[int]:
        return self.state.winners()

    def summary(self) -> dict[str, Any]:
        s = self.state
        return {
            "seed": s.seed,
            "players": s.n,
            "bots": list(self.bots),
            "scores": self.scores(),
            "winners": self.winners(),
            "houses": [s.house_json(p) for p in range(s.n)],
        }

    def record(self) -> dict[str, Any]:
        """The record as new data: changing it changes nothing of the game. A game saved before
        its end (a human seat's `save`) is marked `"finished": false`, its scores those so far:
        `replay` refuses it and `play --resume` continues it (`resume_record`)."""
        s = self.state
        rules = s.rules
        data: dict[str, Any] = {
            "format": FORMAT,
            "rules": {"source": rules.source, "variants": list(rules.variants_on), "hash": rules.content_hash},
            "seed": s.seed,
            "players": s.n,
            "first_player": _first_player(s),
            "bots": list(self.bots),
            "events": copy_events(s.events),
            **{k: v for k, v in self.summary().items() if k in ("scores", "winners", "houses")},
        }
        if self.names is not None:
            data["names"] = list(self.names)
        if not s.is_terminal():
            data["finished"] = False
        data["digest"] = record_digest(data)
        return data


def record_digest(data: dict[str, Any]) -> str:
    """sha256 of every field but the digest (canonical JSON): an edit of any field, the bots
    included (nothing else in a record could reveal them), makes the record refused."""
    body = {k: v for k, v in data.items() if k != "digest"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _first_player(state: GameState) -> int:
    return state.initial_first


@dataclass(frozen=True)
class Unfinished:
    """An unfinished record opened for resuming (`open_unfinished`): the state at its setup, its
    seat names and its events (record/1 names read as record/2's)."""

    state: GameState
    bots: tuple[str, ...]
    events: list[dict[str, Any]]


DecisionCheck = Callable[[GameState, Action, int], None]
"""Called before each recorded decision is applied when a record is resumed: the state before
it, the recorded action and its event's index; raises `DreamhomeError` to refuse it (the players' `resume_record`
has each bot choose again there)."""


def open_unfinished(data: Any, source: str = "record") -> Unfinished:
    """An unfinished record (`"finished": false`) checked field by field and set up from its seed;
    `replay_unfinished` then walks its decisions. A finished or record/1 game is refused."""
    header = _check_header(data, source)
    if header.v1:
        raise DreamhomeError(f"{source}: a record/1 game is finished; `dreamhome replay` it")
    if header.finished:
        raise DreamhomeError(f"{source}: the game is already finished; `dreamhome replay {source}` checks it")
    events = _readable_events(data["events"], False, source)
    return Unfinished(_start(data, source, False), header.bots, events)


def replay_unfinished(opened: Unfinished, data: dict[str, Any], source: str, check: DecisionCheck) -> None:
    """Re-apply the decisions of an unfinished record to `opened.state`, `check(state, action,
    index)` before each, every event checked as `replay_record` does; the record must not reach the end
    of its game, and its digest must match."""
    state, events = opened.state, opened.events
    for index, event in enumerate(events):
        if "action" not in event or event.get("forced") or len(state.events) > index:
            continue
        if state.is_terminal():
            raise DreamhomeError(f"{source}: event {index} comes after the end of the game")
        try:
            action = action_from_dict(event["action"])
        except (ValueError, TypeError) as exc:
            raise DreamhomeError(f"{source}: event {index} ({event.get('text', '?')}) is refused: {exc}") from None
        check(state, action, index)
        try:
            state.apply_action(action)
        except IllegalAction as exc:
            raise DreamhomeError(f"{source}: event {index} ({event.get('text', '?')}) is refused: {exc}") from None
        _compare(state.events, events, source, len(state.events), False)
    _compare(state.events, events, source, max(len(events), len(state.events)), False)
    if state.is_terminal():
        raise DreamhomeError(f"{source}: marked unfinished, but its game is over")
    if data.get("digest") != record_digest(data):
        raise DreamhomeError(f"{source}: the record's digest does not match its contents (edited?)")


def write_record(result: GameResult, path: str | Path) -> None:
    from dreamhome.fileio import write_atomic

    write_atomic(path, json.dumps(result.record(), indent=1, ensure_ascii=False) + "\n")


def load_record(path: str | Path, other: Callable[[Any, str], dict[str, Any] | None] | None = None) -> dict:
    """A record file (`-`: stdin), read through the size- and depth-capped reader of `fileio`.
    `other(data, source)`: the record of another kind of file (a table's game file,
    `dreamhome.web.store.table_record`), None if `data` is not one."""
    from dreamhome.fileio import display_name, read_json

    data = read_json(path, "record")
    converted = other(data, display_name(path)) if other is not None else None
    if converted is not None:
        return converted
    if not isinstance(data, dict) or data.get("format") not in READABLE_FORMATS:
        raise DreamhomeError(f"{display_name(path)}: not a game record ({' or '.join(READABLE_FORMATS)})")
    return data


def replay_record(data: Any, source: str = "record", on_step: Callable[[GameState], None] | None = None) -> GameResult:
    """Replay and verify a record; `on_step(state)` is called after the setup and after every
    decision (the viewer takes its snapshots there). Any flaw is one `DreamhomeError` line."""
    header = _check_header(data, source)
    if not header.finished:
        raise DreamhomeError(
            f"{source}: an unfinished game (saved by a human seat); continue it with `dreamhome play --resume {source}`"
        )
    events = _readable_events(data["events"], header.v1, source)
    state = _start(data, source, header.v1)
    if on_step is not None:
        on_step(state)
    for index, event in enumerate(events):
        if "action" not in event or event.get("forced"):
            continue
        if len(state.events) > index:
            continue  # already produced by the engine; compared below
        try:
            state.apply_action(action_from_dict(event["action"]))
        except (IllegalAction, ValueError, TypeError) as exc:
            raise DreamhomeError(f"{source}: event {index} ({event.get('text', '?')}) is refused: {exc}") from None
        _compare(state.events, events, source, len(state.events), header.v1)
        if on_step is not None:
            on_step(state)
    _compare(state.events, events, source, max(len(events), len(state.events)), header.v1)
    if not state.is_terminal():
        raise DreamhomeError(f"{source}: the record ends before the game does")
    result = GameResult(state, header.bots)
    _check_result(data, result, source)
    if not header.v1 and data.get("digest") != record_digest(data):  # last: the replay names what differs first
        raise DreamhomeError(f"{source}: the record's digest does not match its contents (edited?)")
    return result


@dataclass(frozen=True)
class _Header:
    v1: bool
    bots: tuple[str, ...]
    finished: bool


_REQUIRED = ("rules", "seed", "players", "first_player", "bots", "events", "scores", "winners", "houses")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_header(data: Any, source: str) -> _Header:
    """Every top-level field has its type (a seed of 7.0 is not 7); the digest matches."""
    if not isinstance(data, dict):
        raise DreamhomeError(f"{source}: a record is a JSON object, got {type(data).__name__}")
    if data.get("format") not in READABLE_FORMATS:
        raise DreamhomeError(f"{source}: not a game record ({' or '.join(READABLE_FORMATS)})")
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise DreamhomeError(f"{source}: incomplete record (no {', '.join(missing)})")
    spec = data["rules"]
    if not isinstance(spec, dict) or not isinstance(spec.get("source"), str) or not isinstance(spec.get("hash"), str):
        raise DreamhomeError(f"{source}: rules must be an object with a source and a hash")
    if not isinstance(spec.get("variants", []), list) or not all(isinstance(v, str) for v in spec.get("variants", [])):
        raise DreamhomeError(f"{source}: rules.variants must be a list of names")
    for key in ("seed", "players", "first_player"):
        if not _whole(data[key]):
            raise DreamhomeError(f"{source}: {key} must be a whole number, got {json.dumps(data[key])}")
    bots = data["bots"]
    if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots) or len(bots) != data["players"]:
        raise DreamhomeError(f"{source}: bots must name one bot per player ({data['players']})")
    if not isinstance(data["events"], list):
        raise DreamhomeError(f"{source}: events must be a list, got {type(data['events']).__name__}")
    for key in ("scores", "winners", "houses"):
        if not isinstance(data[key], list):
            raise DreamhomeError(f"{source}: {key} must be a list")
    names = data.get("names", [None] * data["players"])
    if not isinstance(names, list) or len(names) != data["players"] or not all(_name(n) for n in names):
        raise DreamhomeError(f"{source}: names must give each of the {data['players']} seats a name (text) or null")
    finished = data.get("finished", True)
    if not isinstance(finished, bool) or (finished is False and data["format"] == FORMAT_V1):
        raise DreamhomeError(f"{source}: finished must be true or false (record/2 only), got {json.dumps(finished)}")
    return _Header(data["format"] == FORMAT_V1, tuple(bots), finished)


def _name(value: Any) -> bool:
    """A seat's name in a record: null, or printable text of at most 100 characters."""
    return value is None or (isinstance(value, str) and 0 < len(value) <= 100 and value.isprintable())


def _readable_events(events: list[Any], v1: bool, source: str) -> list[dict[str, Any]]:
    """The events, each checked to be an object; a record/1 action type or note read as its
    record/2 name."""
    out = []
    for i, event in enumerate(events):
        if not isinstance(event, dict):
            raise DreamhomeError(f"{source}: events[{i}] must be an object, got {json.dumps(event)}")
        action = event.get("action")
        if "action" in event and not isinstance(action, dict):
            raise DreamhomeError(f"{source}: events[{i}].action must be an object")
        if v1 and isinstance(action, dict) and isinstance(action.get("type"), str) and action["type"] in RECORD1_TYPES:
            event = {**event, "action": {**action, "type": RECORD1_TYPES[action["type"]]}}
        if v1 and isinstance(event.get("event"), str) and event["event"] in RECORD1_NOTES:
            event = {**event, "event": RECORD1_NOTES[event["event"]]}
        out.append(event)
    return out


def _start(data: dict[str, Any], source: str, v1: bool) -> GameState:
    from dreamhome.dsl.compiler import compile_rules

    spec = data["rules"]
    # A record's source is self-contained (its includes were inlined when it was written), so
    # none is followed: a record cannot make replay read, or reveal, a file of this machine.
    rules = compile_rules(text=spec["source"], name=f"{source}#rules", variants=spec.get("variants", []), allow_includes=False)
    if rules.content_hash != spec["hash"]:
        raise DreamhomeError(f"{source}: the rules in the record do not match their content hash (tampered?)")
    if v1 and rules.game.discard_players is None:
        # record/1's engine applied ROUND-1's discard at these player counts whatever the rules
        # said; its rules files had no `discard` field to say it.
        rules = replace(rules, game=replace(rules.game, discard_players=RECORD1_DISCARD_PLAYERS))
    return GameState(rules, data["players"], data["seed"], data["first_player"])


def _check_result(data: dict[str, Any], result: GameResult, source: str) -> None:
    """The recorded result is the replay's: scores, winners and final houses."""
    if data["scores"] != result.scores():
        raise DreamhomeError(f"{source}: recorded scores {data['scores']} differ from the replay's {result.scores()}")
    if data["winners"] != result.winners():
        raise DreamhomeError(f"{source}: recorded winners {data['winners']} differ from the replay's {result.winners()}")
    if data["houses"] != result.summary()["houses"]:
        raise DreamhomeError(f"{source}: the recorded final houses differ from the replay's")


def _comparable(event: dict[str, Any] | None, v1: bool) -> dict[str, Any] | None:
    """record/1 decision texts named the base game's cards: they are not compared."""
    if v1 and event is not None and "action" in event:
        return {k: v for k, v in event.items() if k != "text"}
    return event


def _compare(produced: list[dict[str, Any]], recorded: list[dict[str, Any]], source: str, upto: int, v1: bool) -> None:
    for i in range(upto):
        mine = produced[i] if i < len(produced) else None
        theirs = recorded[i] if i < len(recorded) else None
        if _comparable(mine, v1) != _comparable(theirs, v1):
            what = (theirs or {}).get("text") or (theirs or {}).get("event") or "missing"
            raise DreamhomeError(f"{source}: event {i} ({what}) does not match the replay")
