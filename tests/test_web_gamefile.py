"""A table game apart from its stored form (issue 33): `web.gamefile` writes a `tablegame.Game`
as its file's JSON and reads it back as the same game — its settings, names, keys, state,
version, undos, rematch and end houses — and the text written again is the same, byte for byte."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from dreamhome.house import house_to_json
from dreamhome.web.errors import DamagedGameError
from dreamhome.web.gamefile import FORMAT, game_json, game_text, read_game
from dreamhome.web.settings import Settings
from dreamhome.web.store import GameStore
from dreamhome.web.tablegame import Game, new_bots
from tests.helpers.seats import play_to_end


def played(settings: Settings, decisions: int | None) -> Game:
    """A game of `settings` in memory, `decisions` of the person's (the k-th legal option, k
    varying) with the bots' between them, or to its end (None)."""
    from dreamhome.game.state import GameState
    from dreamhome.web.settings import rules_for

    game = Game(
        "A" * 22,
        settings,
        ("0" * 64, *(None,) * (settings.players - 1)),
        GameState(rules_for(settings.variant), settings.players, settings.seed),
        new_bots(settings),
    )
    if decisions is None:
        play_to_end(game)
        return game
    for k in range(decisions):
        while game.bot_to_move():
            game.bot_step()
        legal = game.state.legal_actions()
        game.state.apply_action(legal[(3 * k + 1) % len(legal)])
        game.note_end()
    return game


def same_game(a: Game, b: Game) -> None:
    assert (a.id, a.settings, a.keys, a.version, a.undone, a.rematch) == (
        b.id,
        b.settings,
        b.keys,
        b.version,
        b.undone,
        b.rematch,
    )
    assert a.state.to_dict() == b.state.to_dict()
    assert (a.end_houses is None) == (b.end_houses is None)
    assert a.best == b.best


@pytest.mark.parametrize(
    ("settings", "decisions"),
    [
        (Settings(("person", "greedy"), "", 7), 0),
        (Settings(("person", "random", "random"), "", 11, names=("Zoé", None, None)), 9),
        (Settings(("person", "random"), "", 3), None),
    ],
)
def test_a_game_written_and_read_back_is_the_same_game(settings: Settings, decisions: int | None) -> None:
    game = played(settings, decisions)
    text = game_text(game)
    data = json.loads(text)
    assert data["format"] == FORMAT and data == game_json(game)
    again = read_game(game.id, data, "test")
    same_game(again, game)
    assert game_text(again) == text  # written again: the same bytes
    assert again.bots is None  # a game read back resumes its bots when they next move


def test_the_undone_events_and_the_rematch_are_kept_only_when_they_hold_something() -> None:
    game = played(Settings(("person", "random"), "", 5), 2)
    assert {"undone", "rematch"}.isdisjoint(game_json(game))
    game.undone, game.rematch = 3, "B" * 22
    again = read_game(game.id, json.loads(game_text(game)), "test")
    same_game(again, game)
    assert again.version == game.version == len(game.state.events) + 2 * 3 + 1


def test_a_finished_game_keeps_its_end_houses(tmp_path: Path) -> None:
    game = played(Settings(("person", "random"), "", 3), None)
    assert game.end_houses is not None
    again = read_game(game.id, json.loads(game_text(game)), "test")
    rules = game.rules
    assert [house_to_json(rules, h) for h in again.end_houses or []] == [house_to_json(rules, h) for h in game.end_houses]
    store = GameStore(tmp_path)  # the store writes exactly this form
    stored = replace(game, id="C" * 22)
    store.save(stored)
    assert (tmp_path / f"{'C' * 22}.json").read_text(encoding="utf-8") == game_text(stored)


@pytest.mark.parametrize("field", ["keys", "state", "settings", "best"])
def test_a_file_with_a_part_missing_or_edited_is_damaged(field: str) -> None:
    game = played(Settings(("person", "random"), "", 5), 3)
    data = game_json(game)
    with pytest.raises(DamagedGameError):
        read_game(game.id, {k: v for k, v in data.items() if k != field}, "test")
    edited = json.loads(json.dumps(data))
    edited[field] = {
        "keys": ["1" * 64, "2" * 64],
        "state": {**data["state"], "seed": 1},
        "settings": {**data["settings"], "seed": 99},
        "best": [{}],
    }[field]
    with pytest.raises(DamagedGameError):
        read_game(game.id, edited, "test")
