"""The whole log of a game ("Moves"), every event in order, each take or discard naming its cards.

Why a module: the engine records a decision by its fields ("take column 3"), and once the column
is gone nobody can tell what was taken (issue 33). The cards are known from the events alone:
each deal names the track's cards (ROUND-2) and the decisions after it say which column was
taken, discarded or changed. So the log follows the track through the events and says, for a
decision that takes or discards a column, the cards that lay in it then.

Why from the events alone (SEE-1): the log reads no deck, no seed and no state but the events
every seat saw and the rules, so nothing the table hides can reach it, and every seat's log is
the same but for how the seats are named. A column whose cards the events cannot tell (a tool
swapped a house card in, TOOL-DRILL) is said as the engine says it, by its number.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dreamhome.game.actions import action_from_dict
from dreamhome.game.state import GameState
from dreamhome.game.values import MARKER_COLUMN, Resource
from dreamhome.i18n import DEFAULT_LANG, text
from dreamhome.render.action_text import describe, resource_text
from dreamhome.render.event_text import event_text, when_text
from dreamhome.ruleset import Ruleset

UNKNOWN = "?"
"""A track slot whose card the events do not tell (a house card a tool swapped in, TOOL-DRILL)."""

TAKES = ("TakeColumn", "DiscardColumn", "TakeRoomAtRoundStart")
"""The actions that take a column's cards off the track: the log names those cards."""

PLACES = ("PlaceRoom", "PlaceScaffold", "SwapWithTrack", "SwapWithRoomDiscard")
"""The actions that put a card on a space of the actor's house (the card just placed)."""


@dataclass(frozen=True)
class Slot:
    """A track column as it lay just before a decision took it: its room card's id and its
    resource card (None: no card; `UNKNOWN`: a card the events do not tell)."""

    room: str | None
    resource: Resource | None


@dataclass(frozen=True)
class Move:
    """One line of the log: the event's index in `state.events`, its player (None for a note of
    the engine), its kind ("decision", "forced" or "note") and its text."""

    index: int
    player: int | None
    kind: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "seat": self.player, "kind": self.kind, "text": self.text}


def _resource(value: object) -> Resource | None:
    if isinstance(value, Mapping) and isinstance(value.get("id"), str):
        return Resource(str(value.get("kind", "")), value["id"], bool(value.get("window", False)))
    return None


class _Track:
    """The track followed through the events (the cards each column holds)."""

    def __init__(self) -> None:
        self.rooms: list[str | None] = []
        self.res: list[Resource | None] = []

    def deal(self, event: Mapping[str, Any]) -> None:
        rooms, res = event.get("rooms"), event.get("resources")
        self.rooms = [r if isinstance(r, str) else None for r in rooms] if isinstance(rooms, list) else []
        self.res = [_resource(r) for r in res] if isinstance(res, list) else []

    def _known(self, column: object) -> bool:
        return type(column) is int and 0 <= column < len(self.rooms)

    def take(self, kind: str, column: object) -> Slot | None:
        """The column's cards as they lay, then off the track (None: not known)."""
        if not self._known(column):
            return None
        assert isinstance(column, int)
        room = self.rooms[column]
        res = self.res[column] if column < len(self.res) else None
        self.rooms[column] = None
        if column < len(self.res):
            self.res[column] = None
        if kind == "TakeRoomAtRoundStart":
            res = None  # its resource is discarded (TOOL-JACKHAMMER), not taken
        if room == UNKNOWN or (room is None and res is None):
            return None
        return Slot(room, res)

    def change(self, kind: str, action: Mapping[str, Any]) -> None:
        """A decision that changes the track without taking a column (TOOL-MIXER, TOOL-DRILL)."""
        a, b = action.get("a"), action.get("b")
        if kind == "SwapTrackRooms" and self._known(a) and self._known(b):
            assert isinstance(a, int) and isinstance(b, int)
            self.rooms[a], self.rooms[b] = self.rooms[b], self.rooms[a]
        elif kind == "SwapWithTrack" and self._known(action.get("column")):
            self.rooms[int(action["column"])] = UNKNOWN


def follow(events: Sequence[Mapping[str, Any]]) -> Iterator[tuple[int, Mapping[str, Any], Slot | None]]:
    """Each event with its index and, for a decision that takes or discards a column, the
    column's cards as they lay just before it (from the deals and decisions before it)."""
    track = _Track()
    for index, event in enumerate(events):
        slot = None
        if event.get("event") == "deal":
            track.deal(event)
        action = event.get("action")
        if "text" in event and isinstance(action, Mapping):
            kind = str(action.get("type", ""))
            if kind in TAKES:
                slot = track.take(kind, action.get("column"))
            else:
                track.change(kind, action)
        yield index, event, slot


def slot_text(rules: Ruleset, slot: Slot, column: object, kind: str, lang: str = DEFAULT_LANG) -> str:
    """A column's cards in `lang`: "<room> + <roof>", with the first-player marker that
    column 0 carries when taken (ROUND-4)."""
    names = [rules.card_name(slot.room, lang)] if slot.room else []
    if slot.resource is not None:
        names.append(resource_text(rules, slot.resource, lang))
    elif kind == "TakeColumn" and column == MARKER_COLUMN:
        names.append(text("log.marker", lang))
    return " + ".join(names)


def _decision_text(state: GameState, event: Mapping[str, Any], slot: Slot | None, lang: str) -> str:
    """A decision's action in `lang`, the cards it took named."""
    fields = event.get("action")
    try:
        action = action_from_dict(fields)
    except (ValueError, TypeError, KeyError):
        return str(event.get("text", ""))
    said = describe(state, action, lang)
    if slot is None or not isinstance(fields, Mapping):
        return said
    cards = slot_text(state.rules, slot, fields.get("column"), str(fields.get("type")), lang)
    return text("log.cards", lang, action=said, cards=cards) if cards else said


def _line(state: GameState, event: Mapping[str, Any], slot: Slot | None, who: str, lang: str) -> str:
    """One event as a line of the log in `lang`."""
    if "text" not in event:
        return event_text(state, dict(event), who, lang)
    kind = "forced" if event.get("forced") else "decision"
    action = _decision_text(state, event, slot, lang)
    return text(f"event.{kind}", lang, when=when_text(state, event.get("round"), lang), who=who, action=action)


class _Lines:
    """The lines lately said, by what they say (the rules, the language, the name, the event and
    its column): a log is asked again at every position by every seat, and a line once said
    never changes, so each is formatted once (a whole four-player game took 30 ms each time)."""

    KEPT = 50_000

    def __init__(self) -> None:
        self._lines: OrderedDict[tuple[Any, ...], str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, state: GameState, event: Mapping[str, Any], slot: Slot | None, who: str, lang: str) -> str:
        decision = "text" in event
        said = (
            (event.get("round"), event["text"], event.get("forced"))
            if decision
            else json.dumps(event, sort_keys=True, default=str)
        )
        key = (state.rules.content_hash, lang, who, said, slot)  # a decision's engine text names its action whole
        with self._lock:
            line = self._lines.get(key)
            if line is not None:
                self._lines.move_to_end(key)
                return line
        line = _line(state, event, slot, who, lang)
        with self._lock:
            self._lines[key] = line
            while len(self._lines) > self.KEPT:
                self._lines.popitem(last=False)
        return line


_LINES = _Lines()


def move_log(state: GameState, names: Sequence[str], lang: str = DEFAULT_LANG) -> list[Move]:
    """Every event of `state` as a line of the log in `lang`, its player named by `names`."""
    moves = []
    for index, event, slot in follow(state.events):
        player = event.get("player")
        seat = player if type(player) is int and 0 <= player < len(names) else None
        who = names[seat] if seat is not None else str(player)
        kind = "note" if "text" not in event else "forced" if event.get("forced") else "decision"
        moves.append(Move(index, seat, kind, _LINES.get(state, event, slot, who, lang)))
    return moves


def last_placed(events: Sequence[Mapping[str, Any]], players: int) -> list[str | None]:
    """Each player's space that got a card last (the card just placed), None before any."""
    last: list[str | None] = [None] * players
    for event in events:
        action, player = event.get("action"), event.get("player")
        if "text" in event and isinstance(action, Mapping) and action.get("type") in PLACES:
            cell = action.get("cell")
            if type(player) is int and 0 <= player < players and isinstance(cell, str):
                last[player] = cell
    return last


__all__ = ["Move", "Slot", "follow", "last_placed", "move_log", "slot_text"]
