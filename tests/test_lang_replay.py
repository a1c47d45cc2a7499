"""The replay page in the page's language (issue 22, item 6): the cards by their names in that
language, the log said in words (decisions by their action, notes by their catalogue entry),
never an action's JSON."""

from __future__ import annotations

import json
import re

import pytest

from dreamhome.dsl.compiler import compile_rules
from dreamhome.game.record import GameResult
from dreamhome.game.state import GameState
from dreamhome.players.playing import play_game
from dreamhome.render.replay_page import replay_html
from dreamhome.ruleset import Ruleset

RULES = compile_rules(variants=["kids"])


@pytest.fixture(scope="module")
def record() -> dict:
    result = play_game(RULES, 2, ["greedy", "random"], 11)
    return GameResult(result.state, ("greedy", "random")).record()


def _game(html: str) -> dict:
    data = re.search(r'<script id="game" type="application/json">(.*?)</script>', html, re.S)
    assert data is not None
    return json.loads(data.group(1))


def _names(rules: Ruleset, lang: str) -> set[str]:
    groups = (rules.rooms, rules.furnishings, rules.helpers, rules.tools)
    return {rules.card_name(c.id, lang) for g in groups for c in g}


@pytest.mark.parametrize("lang", ["en", "ru", "fr", "hu"])
def test_the_log_is_words_never_json(record: dict, lang: str) -> None:
    html = replay_html(record, "game", lang)
    game = _game(html)
    assert f'<html lang="{lang}">' in html
    assert game["events"] and len(game["events"]) == len(record["events"])
    for line in game["events"]:
        assert "{" not in line and "}" not in line and '"' not in line.replace("«", "").replace("»", ""), line
    outside_data = html.replace(re.search(r'<script id="game".*?</script>', html, re.S).group(0), "")
    assert '{"' not in outside_data


@pytest.mark.parametrize("lang", ["ru", "fr", "hu"])
def test_cards_are_named_in_the_page_language(record: dict, lang: str) -> None:
    game = _game(replay_html(record, "game", lang))
    names, english = _names(RULES, lang), _names(RULES, "en") - _names(RULES, lang)
    shown = set()
    for step in game["steps"]:
        shown |= {c["room"] for c in step["track"] if c["room"] not in ("", "—")}
        for house in step["houses"]:
            shown |= {c["name"] for c in house["cells"] if c["kind"] not in ("empty", "down")}
            shown |= {c["token"] for c in house["cells"] if c.get("token")}
            shown |= set(house["helpers"]) | set(house["tools"])
    assert shown and shown <= names, shown - names
    deals = [line for line in game["events"] if any(n in line for n in names)]
    assert deals  # the log names the cards too
    assert not [line for line in game["events"] if any(re.search(rf"\b{re.escape(n)}\b", line) for n in english)]


def test_the_page_words_are_in_its_language(record: dict) -> None:
    html = replay_html(record, "game", "ru")
    game = _game(html)
    assert game["t"]["replay.next"] == "вперёд" and '<button id="next">вперёд</button>' in html
    assert game["t"]["replay.round_of"] == "раунд {round} из {rounds}"
    assert game["events"][0].startswith("раунд 1: ")


@pytest.fixture(scope="module")
def three_player_game() -> GameState:
    """A seeded 3-player game of the base rules with an end game, played once for the four
    languages' cases (its solver seat is the case's cost)."""
    return play_game(compile_rules(), 3, ["greedy", "solver", "greedy"], 4).state


@pytest.mark.xdist_group("test_lang_replay_end_game")  # one worker plays the fixture's game
@pytest.mark.parametrize("lang", ["en", "fr", "ru", "hu"])
def test_the_end_game_is_never_a_round_past_the_last(three_player_game: GameState, lang: str) -> None:
    """Issue 22 ("no 'round 13 of 12'"): END-ORDER's decisions and the final scores, which the
    engine counts in the round after the last, are said "end game"; every other event by its round."""
    from dreamhome import i18n
    from dreamhome.render.event_text import event_text

    state = three_player_game
    last = state.rules.game.rounds
    end = i18n.text("event.when.end", lang)
    said = [(e, event_text(state, e, "x", lang)) for e in state.events]
    assert any(e["round"] > last for e, _ in said)  # the game has an end game to say
    for e, line in said:
        if e["round"] > last:
            assert line.startswith(end), line
        else:
            assert line.startswith(i18n.text("event.when.round", lang, round=e["round"])), line
        assert i18n.text("event.when.round", lang, round=last + 1) not in line
