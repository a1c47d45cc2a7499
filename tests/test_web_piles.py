"""The end game's discard piles in the view (issue 33, "the end game on the board"), without a
browser: `piles` holds every card of both discard piles, each kind once with its count, and each
legal action that takes a card from a pile (END-SUPPLIER, END-ROOFER) names that card by a key
the piles hold, and no other action names one; the words are the page's language."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from dreamhome.engine.endgame import ROOF_DISCARD_TAKE, ROOM_DISCARD_SWAP
from dreamhome.game.actions import END_ACTION_OF_ROLE
from tests.helpers.table import table_client
from tests.test_table_endgame_page import end_game_position

TAKES_FROM_A_PILE = {END_ACTION_OF_ROLE[ROOM_DISCARD_SWAP].__name__, END_ACTION_OF_ROLE[ROOF_DISCARD_TAKE].__name__}


def test_the_end_game_view_draws_both_piles_and_names_each_actions_pile_card(tmp_path: Path) -> None:
    game, key = end_game_position(tmp_path)
    c = table_client(tmp_path)
    headers = {"X-Seat": "0", "X-Seat-Key": key}
    view = c.get(f"/api/games/{game}", headers=headers).json()
    state = c.app.state.tables.store.get(game).state
    rules = state.rules
    piles = view["piles"]
    assert Counter({c["id"]: c["count"] for c in piles["room"]}) == Counter(rules.room_of_code(x).id for x in state.room_discard)
    roofs = Counter((rules.roofs[x].id, w) for x, w in state.roof_discard)
    assert Counter({(c["id"], c["window"]): c["count"] for c in piles["roof"]}) == roofs
    keys = {c["key"] for c in piles["room"] + piles["roof"]}
    assert len(keys) == len(piles["room"]) + len(piles["roof"])
    legal = state.legal_actions()
    taking = [a for a in view["legal"] if a["type"] in TAKES_FROM_A_PILE]
    assert taking and all(a["pile"] in keys for a in taking)
    assert all(a["pile"] is None for a in view["legal"] if a["type"] not in TAKES_FROM_A_PILE)
    for a in taking:  # the key names the card the engine's action takes
        action = legal[a["index"]].to_dict()
        assert a["pile"].split(":")[1] == action.get("room", action.get("color"))
    french = c.get(f"/api/games/{game}", headers=headers, params={"lang": "fr"}).json()["piles"]["room"]
    assert [p["text"] for p in french] == [rules.card_name(p["id"], "fr") for p in piles["room"]]
