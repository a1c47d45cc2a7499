"""The whole log and the readable houses (issue 33): every decision of the game in order, each
take or discard naming its cards, kept across turns; nothing hidden in any seat's log; each
house with the space its player filled last.

The references are independent of the log's own walk through the events: the engine replays the
stored game from its seed, and the track it holds just before each decision says which cards a
take or a discard moved; each house before and after a decision says which space got a card.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from dreamhome.game.actions import action_from_dict  # noqa: E402
from dreamhome.game.state import GameState, Resource  # noqa: E402
from dreamhome.render.move_log import Slot, follow  # noqa: E402
from dreamhome.ruleset import EMPTY, Ruleset  # noqa: E402
from dreamhome.web.store import rules_for  # noqa: E402
from tests.helpers.table import Table, replayed, table_client  # noqa: E402

SEATS = ["person", "person", "greedy"]


def english_card(rules: Ruleset, res: Resource) -> str:
    """A resource card as the English log says it (the catalogue's words, written out here)."""
    name = rules.card_name(res.id, "en")
    if res.kind == "roof":
        return f"{name.lower()} roof" + (" with window" if res.window else "")
    return name if res.kind == "furnishing" else f"{name} ({res.kind})"


def expected_cards(before: GameState, action: dict[str, Any]) -> str:
    """The cards of the column a take or discard moves, from the engine's track just before it."""
    rules, column = before.rules, action["column"]
    room, res = before.track_rooms[column], before.track_res[column]
    names = [rules.card_name(rules.room_of_code(room).id, "en")] if room is not None else []
    if res is not None:
        names.append(english_card(rules, res))
    elif action["type"] == "TakeColumn" and column == 0:
        names.append("first-player marker")
    return " + ".join(names)


@pytest.fixture
def table(tmp_path: Path) -> Table:
    game = Table.start(table_client(tmp_path), tmp_path, SEATS, seed=5)
    game.play(14)
    return game


def test_the_log_holds_every_decision_in_order_naming_the_cards(table: Table) -> None:
    view = table.view(0)
    state, before = replayed(table)
    moves = view["moves"]
    assert [m["index"] for m in moves] == list(range(len(state.events))), "every event, in order"
    assert view["version"] == len(moves)
    named = 0
    for move, event, prior in zip(moves, state.events, before):
        assert move["seat"] == event.get("player")
        assert move["kind"] == ("note" if "text" not in event else "forced" if event.get("forced") else "decision")
        if prior is None or event["action"]["type"] not in ("TakeColumn", "DiscardColumn"):
            continue
        cards = expected_cards(prior, event["action"])
        assert f"column {event['action']['column']} ({cards})" in move["text"], (move["text"], cards)
        named += 1
    assert named >= 8  # takes and discards of both people and the bot
    decisions = [k for k, m in enumerate(moves) if m["kind"] != "note"]
    assert view["latest"] == decisions[-1]
    # Kept across turns: the log after a later decision starts with the whole log of before.
    seat = view["to_move"]
    table.act(seat, 0)
    later = table.view(0)
    assert later["moves"][: len(moves)] == moves and len(later["moves"]) > len(moves)
    # Your own name is "you": the seat's decisions say so.
    mine = [m["text"] for m in moves if m["seat"] == 0 and m["kind"] == "decision"]
    assert mine and all(": you: " in line for line in mine)


@pytest.mark.parametrize("lang", ["fr", "hu", "ru"])
def test_the_log_names_the_cards_in_the_pages_language(table: Table, lang: str) -> None:
    state, before = replayed(table)
    moves = table.view(1, lang=lang)["moves"]
    rules = state.rules
    translated = 0
    for move, event, prior in zip(moves, state.events, before):
        if prior is not None and event["action"]["type"] == "TakeColumn":
            room = prior.track_rooms[event["action"]["column"]]
            assert room is not None
            name = rules.card_name(rules.room_of_code(room).id, lang)
            assert name in move["text"], (lang, move["text"])
            translated += name != rules.card_name(rules.room_of_code(room).id, "en")
    assert translated >= 2  # not the English names by chance


def test_no_seats_log_holds_more_than_the_watch_pages(table: Table) -> None:
    """SEE-1: everything in the log is public, so each seat's log is the watch page's log but for
    how the seat itself is named; and no line says the next deal (the hidden deck's top)."""
    watch = table.view(None)["moves"]
    for seat in (0, 1):
        view = table.view(seat)
        own = view["names"][seat]
        public = table.view(None)["names"][seat]
        assert [(m["index"], m["seat"], m["kind"]) for m in view["moves"]] == [(m["index"], m["seat"], m["kind"]) for m in watch]
        for mine, theirs in zip(view["moves"], watch):
            said = mine["text"].replace(f": {own}: ", f": {public}: ", 1) if mine["seat"] == seat else mine["text"]
            assert said == theirs["text"]
    stored = table.stored()  # the deck as the server keeps it, dealt from its end
    deck = list(reversed(stored["state"]["room_deck"]))
    rules = rules_for("")
    next_deal = ", ".join(rules.card_name(room, "en") for room in deck[: rules.game.deal_rooms])
    text = " ".join(m["text"] for m in watch)
    assert next_deal not in text
    assert str(stored["settings"]["seed"]) not in text


def test_each_house_marks_the_space_filled_last(table: Table) -> None:
    state, before = replayed(table)
    expected: list[str | None] = [None] * state.n
    for event, prior in zip(state.events, before):
        if prior is None:
            continue
        after = prior.clone()
        after.apply_action(action_from_dict(event["action"]))
        p = event["player"]
        filled = [
            prior.rules.board.cells[i]
            for i, (a, b) in enumerate(zip(prior.houses[p].cells, after.houses[p].cells))
            if a != b and b != EMPTY
        ]
        if filled and event["action"]["type"] != "PlaceToken":
            expected[p] = filled[-1]
    view = table.view(None)
    assert [h["last_placed"] for h in view["houses"]] == expected
    assert all(cell is not None for cell in expected)
    for h in view["houses"]:  # the held cards the page names: every house's, on every page
        house = state.houses[h["seat"]]
        assert h["helper_ids"] == list(house.helpers) and h["tool_ids"] == list(house.tools)


def test_a_column_the_events_cannot_tell_is_said_by_its_number() -> None:
    """TOOL-DRILL puts a house card on the track: a later take of that column names no card the
    events do not show; TOOL-MIXER's swap moves the room cards it names."""
    deal = {
        "event": "deal",
        "rooms": ["a", "b", "c"],
        "resources": [None, {"kind": "roof", "id": "red", "window": True}, {"kind": "furnishing", "id": "f", "window": False}],
    }
    events = [
        deal,
        {"player": 0, "text": "", "action": {"type": "SwapTrackRooms", "a": 1, "b": 2}},
        {"player": 0, "text": "", "action": {"type": "TakeColumn", "column": 1}},
        {"player": 1, "text": "", "action": {"type": "SwapWithTrack", "cell": "x", "column": 2, "face_down": False}},
        {"player": 1, "text": "", "action": {"type": "TakeColumn", "column": 2}},
        {"player": 1, "text": "", "action": {"type": "TakeRoomAtRoundStart", "column": 0}},
        {"player": 1, "text": "", "action": {"type": "TakeColumn", "column": 0}},
    ]
    slots = [slot for _, _, slot in follow(events)]
    assert slots[2] == Slot("c", Resource("roof", "red", True))
    assert slots[4] is None  # the drill's card: not told
    assert slots[5] == Slot("a", None)  # the jackhammer's room; its resource is discarded
    assert slots[6] is None  # gone already
