"""Placing by two clicks (issue 33): the view says, for each placement, whether it is face down
(the page's Face down control picks by it), and for each cell the card may not take face up, the
rule that refuses it in the page's language. Checked against the engine's own legal moves."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from dreamhome.game.actions import PlaceRoom, PlaceToken  # noqa: E402
from dreamhome.game.phases import Phase  # noqa: E402
from dreamhome.game.state import GameState  # noqa: E402
from dreamhome.i18n import text  # noqa: E402
from dreamhome.players.hints import Hint, OptionHint  # noqa: E402
from dreamhome.players.lookahead import MARGIN, SCORE  # noqa: E402
from dreamhome.players.roster import make_bot  # noqa: E402
from dreamhome.ruleset import Ruleset  # noqa: E402
from dreamhome.web.view import add_refusals, hint_view  # noqa: E402
from tests.helpers.rules import compiled  # noqa: E402
from tests.helpers.table import Table, replayed, table_client  # noqa: E402

RULE_IDS = ("PLACE-FIXED", "PLACE-A", "PLACE-B", "PLACE-C", "PLACE-CLOSED", "PLACE-MERGE", "TOOL-SCAFFOLDING")


def placing(tmp_path: Path, decisions: int) -> Table:
    """A game of one person and a bot, played until the person places a room card after
    `decisions` decisions at least."""
    table = Table.start(table_client(tmp_path), tmp_path, ["person", "greedy"], seed=9)
    table.play(decisions)
    for _ in range(40):
        if table.view(0)["phase"] == "place":
            return table
        table.play(1)
    raise AssertionError("no placement came")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_each_placement_says_its_face_and_each_refused_cell_its_rule(tmp_path: Path, lang: str) -> None:
    table = placing(tmp_path, 10)
    view = table.view(0, lang=lang)
    state, _ = replayed(table)
    legal = state.legal_actions()
    places = [a for a in view["legal"] if a["type"] == "PlaceRoom"]
    assert places and len(places) == len(legal)
    face_up = set()
    for entry in places:
        action = legal[entry["index"]]
        assert isinstance(action, PlaceRoom) and entry["face_down"] is action.face_down
        assert entry["cells"] == [action.cell]
        if not action.face_down:
            face_up.add(action.cell)
    cells = state.rules.board.cells
    assert set(view["refusals"]) == set(cells) - face_up  # every other cell says why
    face_down = {legal[e["index"]].cell for e in places if e["face_down"]}
    may_go_down = text("refusal.face_down_ok", lang, reason="")
    for cell, reason in view["refusals"].items():
        assert any(f"({rule})" in reason for rule in RULE_IDS), reason
        assert reason.endswith(may_go_down) == (cell in face_down), (cell, reason)
    assert face_down - face_up, "a cell face down only: the reason says Face down"
    english = table.view(0, lang="en")["refusals"]
    assert english.keys() == view["refusals"].keys()
    assert lang == "en" or all(english[c] != view["refusals"][c] for c in english)
    # The two clicks' placement: a face-up cell's face-up entry places the card face up there.
    entry = next(e for e in places if not e["face_down"])
    house = table.act(0, entry["index"])["houses"][0]
    cell = next(c for c in house["cells"] if c["cell"] == entry["cells"][0])
    assert cell["state"] == "card" and house["last_placed"] == entry["cells"][0]


def test_no_refusals_when_not_placing(tmp_path: Path) -> None:
    table = Table.start(table_client(tmp_path), tmp_path, ["person", "greedy"], seed=9)
    view = table.view(0)
    assert view["phase"] != "place" and view["refusals"] == {}
    assert all(a["face_down"] is None for a in view["legal"])  # a take has no face
    assert table.view(None)["refusals"] == {}


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_hint_says_what_reachable_means(lang: str) -> None:
    """Where the hint shows values of final score, it says what "reachable" means in the page's
    language (the terminal's words, `seat.hint_explain`); a discard's margins say their own."""
    state = GameState(compiled(), 3, 4)
    legal = state.legal_actions()

    def hint(measure: str) -> Hint:
        options = tuple(OptionHint(k, a, str(a), 10.0 + k, True, "", measure) for k, a in enumerate(legal))
        return Hint(state.current_player(), options, 0, 0.0)

    assert hint_view(state, hint(SCORE), lang)["explain"] == text("seat.hint_explain", lang)
    assert hint_view(state, hint(MARGIN), lang)["explain"] is None


def token_positions(rules: Ruleset, games: int) -> Iterator[GameState]:
    """Each position of games of greedy bots where a furnishing's token waits for its cell."""
    for seed in range(games):
        state = GameState(rules, 2, seed)
        bots = [make_bot("greedy", seed, p) for p in range(2)]
        while not state.is_terminal():
            if state.phase == Phase.TOKEN:
                yield state
            p = state.current_player()
            state.apply_action(bots[p].choose(state.observation(lookahead=False), state.legal_actions()))


def check_token_refusals(state: GameState) -> set[str]:
    """The refusals of a token position against the engine's cells for it; the rules said."""
    rules, furnishing = state.rules, state.pending_res
    assert furnishing is not None
    legal = {rules.board.cells[i] for i in state.token_cells(state.actor, furnishing.id)}
    view: dict[str, object] = {"legal": [0]}
    add_refusals(view, state, "en")
    refusals = view["refusals"]
    assert isinstance(refusals, dict) and set(refusals) == set(rules.board.cells) - legal
    printed = rules.room(str(rules.furnishing(furnishing.id).room)).code
    said = set()
    for cell, reason in refusals.items():
        rule = "FURN-ONE" if state.houses[state.actor].cells[rules.board.index[cell]] == printed else "FURN-TYPE"
        assert reason.endswith(f"({rule})"), (cell, reason)
        said.add(rule)
    return said


def test_a_refused_token_cell_says_its_rule() -> None:
    """FURN-TYPE, FURN-ONE: while a furnishing's token waits, each cell it may not go on says why:
    not a card of the printed type, else a room of that type that holds a token already (made so
    here by a token on one of its cards)."""
    seen: set[str] = set()
    for state in token_positions(compiled(), 6):
        seen |= check_token_refusals(state)
        cell = state.legal_actions()[0]
        assert isinstance(cell, PlaceToken)
        index = state.rules.board.index[cell.cell]
        furnished = state.clone()
        furnished.houses[state.actor] = state.houses[state.actor].with_token(index, 1)
        seen |= check_token_refusals(furnished)
    assert seen == {"FURN-ONE", "FURN-TYPE"}
