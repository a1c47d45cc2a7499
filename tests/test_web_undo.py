"""Undo before the turn passes, names and rematch at the browser table (issue 33).

Each undo is checked against the page as it was before the decision (the same track, houses and
choices: nothing of the decision is left), against the game file (the undone decision is in no
stored event), and against the terminal seat, which follows the same rule (`dreamhome.game.undo`).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from rich.console import Console  # noqa: E402

from dreamhome.errors import DreamhomeError  # noqa: E402
from dreamhome.game.record import replay_record  # noqa: E402
from dreamhome.game.state import GameState  # noqa: E402
from dreamhome.game.undo import dealt_since, undo_mark  # noqa: E402
from dreamhome.players.playing import bot_turn  # noqa: E402
from dreamhome.players.roster import make_bot  # noqa: E402
from dreamhome.terminal.seat import HumanGame, Menu  # noqa: E402
from dreamhome.web.store import rules_for  # noqa: E402
from tests.helpers.schemas import validator  # noqa: E402
from tests.helpers.seats import Seat, play_to_end, start_seats, table_client  # noqa: E402
from tests.helpers.table import key_of  # noqa: E402

ONE_PERSON = {"seats": ["person", "greedy"], "seed": 5}
"""Seed 5: the bot leads round 1, so the person's first page offers takes (its undo: nothing yet)."""
TWO_PEOPLE = {"seats": ["person", "person"], "seed": 5}


def board(view: dict[str, Any]) -> dict[str, Any]:
    """What a position is: the track, the houses, the piles, whose turn, the choices offered."""
    keep = ("track", "houses", "room_discard", "roof_discard", "round", "phase", "to_move")
    return {**{k: view[k] for k in keep}, "legal": [a["text"] for a in view["legal"]]}


def stored(folder: Path, game: str) -> dict[str, Any]:
    return json.loads((folder / f"{game}.json").read_text(encoding="utf-8"))


def decisions(events: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    return [(e["player"], e["action"]) for e in events if "action" in e and not e.get("forced")]


def one_line(answer: Any) -> str:
    message = answer.json()["error"]
    assert isinstance(message, str) and "\n" not in message and "Traceback" not in message
    return message


def test_the_rule_counts_decisions_only() -> None:
    """A forced step or a note of the rules neither passes the turn nor stops an undo; another
    player's decision does, and so does a deal, which showed cards of the decks (SEE-1)
    (`dreamhome.game.undo.undo_mark`, on events written by hand)."""
    take = {"type": "TakeColumn", "column": 2}
    events = [
        {"round": 1, "player": 1, "action": take, "text": "take column 2"},
        {"round": 1, "player": 0, "action": take, "text": "take column 2"},
        {"round": 1, "player": 1, "action": take, "text": "place", "forced": True},
        {"round": 1, "event": "furnishing_discarded", "player": 0, "furnishing": "x"},
    ]
    assert undo_mark(events, 0) == 1 and not dealt_since(events, 0)
    assert undo_mark(events, 1) is None
    assert undo_mark(events[:1], 0) is None and undo_mark([], 0) is None
    assert undo_mark([*events, {"round": 2, "player": 1, "action": take, "text": ""}], 0) is None
    dealt = [*events, {"round": 2, "event": "deal", "rooms": [], "resources": []}]
    assert undo_mark(dealt, 0) is None and dealt_since(dealt, 0) and not dealt_since(dealt, 1)


def test_a_record_with_bad_names_is_refused_in_one_line() -> None:
    with pytest.raises(DreamhomeError, match="names must give each of the 2 seats"):
        replay_record(
            {
                "format": "dreamhome.record/2",
                "rules": {"source": "", "hash": ""},
                "seed": 1,
                "players": 2,
                "first_player": 0,
                "bots": ["person", "greedy"],
                "events": [],
                "scores": [],
                "winners": [],
                "houses": [],
                "names": ["Ann\u202e", None],
            },
            "bad",
        )


def test_a_take_undone_then_another_column_taken(tmp_path: Path) -> None:
    c = table_client(tmp_path)
    game, seats = start_seats(c, ONE_PERSON)
    me = seats[0]
    before = me.view
    assert before["your_turn"] and before["undo"] is False  # the bot decided last: nothing of ours to take back
    takes = [a for a in before["legal"] if a["type"] == "TakeColumn"]
    first, second = takes[0], takes[1]
    taken = me.act(first["index"])
    assert taken["undo"] is True and taken["legal"][0]["type"] != "TakeColumn"
    undone = me.undo()
    assert board(undone) == board(before)  # the page as before the take: the column back on the track
    assert undone["version"] > taken["version"] > before["version"]
    assert undone["undo"] is False
    me.act(second["index"])
    events = stored(tmp_path, game)["state"]["events"]
    mine = [a for p, a in decisions(events) if p == 0]
    assert mine[0] == {"type": "TakeColumn", "column": second["columns"][0]}
    assert {"type": "TakeColumn", "column": first["columns"][0]} not in [a for _, a in decisions(events)]


def test_undo_is_refused_once_a_bot_has_moved(tmp_path: Path) -> None:
    c = table_client(tmp_path)
    game, seats = start_seats(c, ONE_PERSON)
    me = seats[0]
    for _ in range(40):  # until a decision of ours ends our turn and the bot moves after it
        me.act(0)
        last = decisions(stored(tmp_path, game)["state"]["events"])[-1]
        if last[0] == 1:
            break
    assert last[0] == 1, "the bot never moved after a decision of the person"
    assert me.view["undo"] is False
    answer = me.post("undo", version=me.view["version"])
    assert answer.status_code == 409 and "another player has acted" in one_line(answer)
    assert me.look()["version"] == me.view["version"]


def test_undo_is_refused_once_another_person_has_acted(tmp_path: Path) -> None:
    c = table_client(tmp_path)
    _, seats = start_seats(c, TWO_PEOPLE)
    first = seats[seats[0].view["to_move"]]
    other = seats[1 - first.seat]
    while first.view["to_move"] == first.seat:
        first.act(0)
    assert first.look()["undo"] is True  # the turn ended, but nobody has acted since: still ours
    assert other.look()["undo"] is False
    other.act(0)
    assert first.look()["undo"] is False
    answer = first.post("undo", version=first.view["version"])
    assert answer.status_code == 409 and "another player has acted" in one_line(answer)


def test_undo_with_a_wrong_key_a_stale_page_or_a_bad_body_is_one_line(tmp_path: Path) -> None:
    c = table_client(tmp_path)
    _, seats = start_seats(c, ONE_PERSON)
    me = seats[0]
    seen = me.view["version"]
    me.act(0)
    now = me.look()
    wrong = c.post(f"/api/games/{me.game}/undo", json={"seat": 0, "key": "A" * 22, "version": now["version"]})
    assert wrong.status_code == 403 and "seat key" in one_line(wrong)
    stale = me.post("undo", version=seen)
    assert stale.status_code == 409 and "out of date" in one_line(stale)
    for body in ({"version": "1"}, {"version": now["version"], "index": 0}, {"version": None}):
        bad = me.post("undo", **body)
        assert bad.status_code == 400, bad.text
        one_line(bad)
    assert me.look() == now  # none of them changed the game


def test_an_undone_take_stays_undone_after_a_restart_and_undo_works_after_one(tmp_path: Path) -> None:
    c = table_client(tmp_path)
    game, seats = start_seats(c, ONE_PERSON)
    me = seats[0]
    me.act(0)
    undone = me.undo()
    assert stored(tmp_path, game)["undone"] == 1
    again = Seat(table_client(tmp_path), game, 0, me.key)  # a new server over the same folder
    assert board(again.view) == board(undone) and again.view["version"] == undone["version"]
    again.act(0)
    placed_before = again.view
    restarted = Seat(table_client(tmp_path), game, 0, me.key)
    assert restarted.view["undo"] is True
    back = restarted.undo()  # the rule reads the stored events: nothing kept in memory is needed
    assert board(back) == board(undone) and back["version"] > placed_before["version"]


def test_the_other_pages_see_the_undo(tmp_path: Path) -> None:
    c = table_client(tmp_path)
    game, seats = start_seats(c, {"seats": ["person", "person", "greedy"], "seed": 5})
    told: list[dict[str, Any]] = []
    hub = c.app.state.live  # type: ignore[attr-defined]
    publish = hub.publish
    hub.publish = lambda game_id, message: (told.append(message), publish(game_id, message))
    mover = seats[seats[0].view["to_move"]] if seats[0].view["to_move"] in seats else None
    assert mover is not None, "seed 5 leads with a person"
    watcher = seats[1 - mover.seat]
    watch_before = c.get(f"/api/games/{game}").json()
    watcher_before = watcher.look()
    mover.act(0)
    assert c.get(f"/api/games/{game}").json()["version"] == mover.view["version"]  # drawn, and kept for the next page
    undone = mover.undo()
    assert told[-1] == {"version": undone["version"], "to_move": mover.seat, "over": False}
    watch_after = c.get(f"/api/games/{game}").json()
    assert watch_after["version"] == undone["version"]
    assert {k: v for k, v in board(watch_after).items() if k != "legal"} == {
        k: v for k, v in board(watch_before).items() if k != "legal"
    }
    assert board(watcher.look()) == board(watcher_before)


SEED_PLACE = 14
"""Seed 14, a person and a greedy bot, the person choosing option (3k + 1) mod n at its k-th
decision: its 24th is a placement after which it still decides (a furnishing's token), no bot
moving and nothing dealt in between (found by playing the game: `choose`)."""


def choose(k: int, options: int) -> int:
    return (3 * k + 1) % options


def before_the_placement() -> tuple[GameState, Any]:
    """The game of `SEED_PLACE` up to the person's placement (its 23 decisions before made), and the bot."""
    state, bot = GameState(rules_for(""), 2, SEED_PLACE), make_bot("greedy", SEED_PLACE, 1)
    k = 0
    while k < 23 or state.current_player() != 0:
        if state.current_player() == 0:
            state.apply_action(state.legal_actions()[choose(k, len(state.legal_actions()))])
            k += 1
        else:
            state.apply_action(bot_turn(state, bot))
    return state, bot


def at_the_terminal(state: GameState, bot: Any, lines: list[str]) -> tuple[HumanGame, str]:
    """The game `state` (a person at seat 0, `bot` at seat 1) at the terminal seat, fed `lines`
    until `quit`: the seat and what it printed."""
    out = io.StringIO()
    read = iter(lines)
    seat = HumanGame(state, ("human", "greedy"), (None, bot), Console(file=out, width=160), read=lambda prompt: next(read))
    assert seat.run().how == "quit"
    return seat, out.getvalue()


def test_a_placement_is_taken_back_alike_at_the_terminal_and_at_the_table(tmp_path: Path) -> None:
    """A placement after which the person still decides (no bot has moved, nothing was dealt):
    the terminal and the table each take it back, and leave the same game."""
    state, bot = before_the_placement()
    before = json.loads(json.dumps(state.to_dict()))
    legal = state.legal_actions()
    placement = legal[choose(23, len(legal))]
    assert type(placement).__name__ == "PlaceRoom"
    number = Menu.of(legal).main.index(legal.index(placement)) + 1
    seat, said = at_the_terminal(state, bot, [str(number), "undo", "quit"])
    assert "took back: place" in said and "nothing to undo" not in said
    assert json.loads(json.dumps(seat.state.to_dict())) == before
    c = table_client(tmp_path)
    game, seats = start_seats(c, {"seats": ["person", "greedy"], "seed": SEED_PLACE})
    me, k = seats[0], 0
    while k < 24:
        if not me.view["your_turn"]:
            me.look()
            continue
        me.act(choose(k, len(me.view["legal"])))
        k += 1
    assert me.view["undo"] is True and me.view["your_turn"] is True
    me.undo()
    assert stored(tmp_path, game)["state"] == before


def test_a_decision_a_deal_followed_is_not_taken_back(tmp_path: Path) -> None:
    """Seed 5: the person's first placement ends round 1 and round 2 is dealt at once, the person
    leading it: no other player has moved, but the new track has been seen (SEE-1)."""
    c = table_client(tmp_path)
    _, seats = start_seats(c, ONE_PERSON)
    me = seats[0]
    me.act(0)
    assert me.view["undo"] is True  # the take, before the placement: nothing dealt yet
    placed = me.act(0)
    assert placed["your_turn"] and placed["undo"] is False
    answer = me.post("undo", version=placed["version"])
    assert answer.status_code == 409 and "dealt" in one_line(answer)
    state, bot = GameState(rules_for(""), 2, 5), make_bot("greedy", 5, 1)
    _, said = at_the_terminal(state, bot, ["1", "1", "undo", "quit"])  # the same take and placement
    assert "cards were dealt after your last decision" in said


def test_the_terminal_refuses_once_the_bot_has_moved() -> None:
    state, bot = GameState(rules_for(""), 2, 5), make_bot("greedy", 5, 1)
    _, said = at_the_terminal(state, bot, ["1", "1", "1", "1", "1", "undo", "quit"])  # …; discard, take, place: the bot
    bot_moved = said.rindex("greedy")
    assert "nothing to undo: no decision of yours since another player acted" in said[bot_moved:]


# ---------------------------------------------------------------- names and rematch


@pytest.mark.parametrize(
    "names",
    [
        ["A" * 25, None],
        ["Ann\nBob", None],
        ["\u202eevil", None],
        ["\x00", None],
        [7, None],
        ["Ann", "Bob"],  # a name on the bot's seat
        ["Ann", None, None],
        "Ann",
        ["   ", None],
    ],
)
def test_bad_names_are_refused_in_one_line(tmp_path: Path, names: Any) -> None:
    c = table_client(tmp_path)
    answer = c.post("/api/games", json={**ONE_PERSON, "names": names})
    assert answer.status_code == 400
    one_line(answer)
    same = c.post("/api/games", json={**TWO_PEOPLE, "names": ["Ann", " Ann "]})
    assert same.status_code == 400 and "another seat" in one_line(same)


def finish(c: Any, game: str) -> None:
    """Play the game to its end in the server's own memory (the first option at every person's
    decision, the bots their own), then store it: a finished game without a request per move."""
    tables = c.app.state.tables
    held = tables.store.get(game)
    with held.lock:
        play_to_end(held)
        tables.store.save(held)


NAMED = {"seats": ["person", "person", "random"], "seed": 3, "names": ["<b>Ann</b>", "Bob"]}


def test_names_show_on_the_pages_in_the_log_the_record_and_the_replay(tmp_path: Path) -> None:
    c = table_client(tmp_path)
    game, seats = start_seats(c, NAMED)
    assert seats[0].view["names"][:2] == ["<b>Ann</b> (you)", "Bob"]
    assert seats[1].view["names"][:2] == ["<b>Ann</b>", "Bob (you)"]
    assert c.get(f"/api/games/{game}").json()["names"][:2] == ["<b>Ann</b>", "Bob"]
    mover = seats[seats[0].view["to_move"]]  # seed 3: a person leads
    mover.act(0)
    other = seats[1 - mover.seat].look()  # its log: every event since its own last decision (none yet)
    said = "<b>Ann</b>" if mover.seat == 0 else "Bob"
    assert any(line.startswith(f"round 1: {said}: ") for line in other["log"])
    (line,) = [g for g in c.get("/api/games").json()["games"] if g["game"] == game]
    assert [s.get("name") for s in line["seats"]] == ["<b>Ann</b>", "Bob", None]  # the front page's list
    finish(c, game)
    record = c.get(f"/api/games/{game}/record").json()
    assert record["names"] == ["<b>Ann</b>", "Bob", None] and record["bots"] == ["person", "person", "random"]
    validator("record.schema.json").validate(record)
    replay_record(record, "named")  # the digest covers the names
    page = c.get(f"/games/{game}/replay").text
    assert "<b>Ann" not in page and "\\u003cb\\u003eAnn" in page  # in the page's data, never as markup
    edited = {**record, "names": ["Eve", "Bob", None]}
    with pytest.raises(Exception, match="digest"):
        replay_record(edited, "edited")


def test_rematch_gives_each_person_its_own_seat_in_one_new_game(tmp_path: Path) -> None:
    c = table_client(tmp_path)
    game, seats = start_seats(c, NAMED)
    early = seats[0].post("rematch")
    assert early.status_code == 409 and "over" in one_line(early)
    finish(c, game)
    over = seats[0].look()
    ann = seats[0].post("rematch")
    assert ann.status_code == 200, ann.text
    made = ann.json()
    new = made["game"]
    seat, ann_key = key_of(made["url"])
    assert seat == 0 and made["watch"].endswith(f"/games/{new}")
    again = seats[0].look()
    assert again["rematch"] == new and again["version"] > over["version"]  # every page is told
    bob = seats[1].post("rematch").json()
    assert bob["game"] == new and key_of(bob["url"])[0] == 1
    bob_key = key_of(bob["url"])[1]
    assert seats[0].post("rematch").json()["url"] == made["url"]  # asked again: the same link
    assert len({ann_key, bob_key, seats[0].key, seats[1].key}) == 4
    ann_new, bob_new = Seat(c, new, 0, ann_key), Seat(c, new, 1, bob_key)
    assert ann_new.view["names"][:2] == ["<b>Ann</b> (you)", "Bob"] and bob_new.view["you"] == 1
    assert c.get(f"/api/games/{new}", headers={"X-Seat": "1", "X-Seat-Key": ann_key}).status_code == 403
    watcher = c.post(f"/api/games/{game}/rematch", json={"seat": 1, "key": ann_key})
    assert watcher.status_code == 403  # a new key is no key of the old game
    old, fresh = stored(tmp_path, game), stored(tmp_path, new)
    assert old["rematch"] == new
    assert {k: v for k, v in fresh["settings"].items() if k != "seed"} == {
        k: v for k, v in old["settings"].items() if k != "seed"
    }
    assert fresh["settings"]["seed"] != old["settings"]["seed"]


def test_a_rematch_edited_to_name_another_game_gives_no_key_to_it(tmp_path: Path) -> None:
    c = table_client(tmp_path)
    game, seats = start_seats(c, NAMED)
    other, _ = start_seats(c, {"seats": ["person", "person", "random"], "seed": 4})  # no names: no rematch of it
    finish(c, game)
    keys_before = stored(tmp_path, other)["keys"]
    data = stored(tmp_path, game)
    (tmp_path / f"{game}.json").write_text(json.dumps({**data, "rematch": other}), encoding="utf-8")
    fresh = table_client(tmp_path)  # a server that reads the edited file
    answer = fresh.post(f"/api/games/{game}/rematch", json={"seat": 0, "key": seats[0].key})
    assert answer.status_code == 409 and "does not match" in one_line(answer)
    assert stored(tmp_path, other)["keys"] == keys_before


def test_the_review_page_names_the_persons() -> None:
    """The review's page (its chart's legend, its summary) calls a seat by the name the record
    gives, escaped: a review without decisions to judge stands in for a computed one (its page
    is drawn the same way, in a fraction of a second)."""
    from dreamhome.game.record import GameResult
    from dreamhome.players.playing import play_game
    from dreamhome.render.review_page import review_html
    from dreamhome.review.game import GameReview
    from dreamhome.review.summary import player_reviews
    from dreamhome.review.walk import Walk

    played = play_game(rules_for(""), 2, ["random", "random"], 3)
    result = GameResult(played.state, ("person", "random"), ("<i>Ann</i>", None))
    walk = Walk(result, (), ())
    page = review_html(GameReview("named", 0.0, walk, tuple(player_reviews(walk)), result.record()), "en")
    legend = page[page.index("<svg") : page.index("</svg>")]
    assert "0 &lt;i&gt;Ann&lt;/i&gt;" in legend and "0 person" not in legend
    summary = page[page.index('<ul id="review-summary">') : page.index("</ul>", page.index('<ul id="review-summary">'))]
    assert "&lt;i&gt;Ann&lt;/i&gt;" in summary and "<i>Ann" not in page
