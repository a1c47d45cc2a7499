"""A table game's stored form: the JSON of its file, written (`game_json`, `game_text`) and read
back (`read_game`), every part checked. The one module that knows that form (issue 33): the game
in memory is `tablegame.Game`, and where the files lie is `store`'s.

A game file holds the settings (each seat a person or a bot, the variant, the seed, the names),
each person seat's key as a SHA-256 digest (the secret itself is shown once, in the seat's link,
and never stored), `GameState.to_dict()` (every event so far, the decks included: the file stays
on the server), once the game is over the end-game comparison of `best_final_score`, and — only
when they hold something — the events taken back by undos and the id of the rematch. A file of
the first format (`dreamhome.webgame/1`: one person, at `seat`) loads with no key at any seat:
its game can be watched and replayed, never acted on.

Why a file is replayed when it is read (`_check_replay`): the file is the server's, but anybody
with access to the folder can edit it. The saved state must be the replay of its own events
from its seed, so no edited field (a card moved, a score raised) survives; a file that does not
replay, or whose fields have the wrong types, is a `DamagedGameError` (a 4xx answer).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import action_from_dict
from dreamhome.game.state import GameState
from dreamhome.house import house_from_json, house_to_json
from dreamhome.ruleset import Ruleset
from dreamhome.web.errors import DamagedGameError, RequestError
from dreamhome.web.settings import PERSON, Settings, rules_for
from dreamhome.web.tablegame import GAME_ID, Game

FORMAT = "dreamhome.webgame/2"
OLD_FORMAT = "dreamhome.webgame/1"
"""The first format: one person at `settings.seat`, no keys; loaded watch-only."""
DIGEST = re.compile(r"[0-9a-f]{64}")
OPTIONAL_FIELDS = {"undone", "rematch"}
"""Fields of a game file written only when they hold something: the events taken back by undos
(`Game.undone`) and the id of the rematch (`Game.rematch`); a file without them is as before."""


def game_json(game: Game) -> dict[str, Any]:
    """The JSON of `game`'s file (`FORMAT`): what `read_game` reads back as the same game."""
    s = game.settings
    rules = game.rules
    return {
        "format": FORMAT,
        "settings": {
            "seats": list(s.seats),
            "variant": s.variant,
            "seed": s.seed,
            **({"names": list(s.names)} if s.names else {}),
        },
        "keys": list(game.keys),
        "state": game.state.to_dict(),
        "end_houses": None if game.end_houses is None else [house_to_json(rules, h) for h in game.end_houses],
        "best": game.best,
        **({"undone": game.undone} if game.undone else {}),
        **({"rematch": game.rematch} if game.rematch else {}),
    }


def game_text(game: Game) -> str:
    """`game_json(game)` as the file's text (compact, UTF-8 as is)."""
    return json.dumps(game_json(game), ensure_ascii=False, separators=(",", ":"))


def read_game(game_id: str, data: Any, source: str) -> Game:
    """A game from its file's JSON (`source` names it in messages), every part checked;
    `DamagedGameError` (one line) for any flaw."""
    try:
        return _read_game(game_id, data, source)
    except DamagedGameError:
        raise
    except DreamhomeError as exc:
        raise DamagedGameError(f"{source}: the saved game is damaged: {exc}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError, RecursionError) as exc:
        raise DamagedGameError(f"{source}: the saved game is damaged ({type(exc).__name__})") from None


def table_record(data: Any, source: str) -> dict[str, Any] | None:
    """The `dreamhome.record/2` of a finished table game from its file's JSON as it lies in the
    data folder, checked as the server checks it (`read_game`); None if `data` is no table game
    file (`FORMAT`, `OLD_FORMAT`); `DamagedGameError` (one line) for a damaged file or a game
    not over (its record would be an unfinished one, which only a terminal seat's save makes).
    `dreamhome replay` and `analyze` read a table's game file through it (`record.load_record`)."""
    if not (isinstance(data, dict) and data.get("format") in (FORMAT, OLD_FORMAT)):
        return None
    game = read_game("-", data, source)
    if not game.state.is_terminal():
        raise DamagedGameError(f"{source}: the table's game is not over yet; its record is made when it ends")
    return game.record()


def _whole(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _read_settings(data: Any) -> Settings:
    """The settings as saved, checked as strictly as a start request's (`Settings.parse`, with
    every field present and the variant written out)."""
    if not isinstance(data, dict) or not {"seats", "variant", "seed"} <= set(data) <= {"seats", "variant", "seed", "names"}:
        raise ValueError("settings")
    if not isinstance(data["variant"], str):
        raise ValueError("unknown variant")
    try:
        return Settings.parse(data, stored=True)
    except RequestError as exc:
        raise ValueError(str(exc)) from None


def _read_old_settings(data: Any) -> Settings:
    """The settings of a first-format file (`OLD_FORMAT`): one person at `seat`, the bots in
    the other seats in order."""
    if not isinstance(data, dict) or set(data) != {"players", "bots", "variant", "seed", "seat"}:
        raise ValueError("settings")
    if not isinstance(data["variant"], str):
        raise ValueError("unknown variant")
    try:
        settings = Settings.parse({k: v for k, v in data.items() if k != "seat"}, stored=True)
    except RequestError as exc:
        raise ValueError(str(exc)) from None
    if not _whole(data["seat"], 0, settings.players - 1):
        raise ValueError("seat")
    bots = list(settings.seats[1:])
    bots.insert(data["seat"], PERSON)
    return replace(settings, seats=tuple(bots))


def _read_keys(keys: Any, settings: Settings) -> tuple[str | None, ...]:
    """Each person's seat a SHA-256 digest (or none: a seat of a first-format game, watch-only),
    each bot's seat none: any other shape is damage (a key given to a bot's seat, a key that
    is no digest)."""
    if not isinstance(keys, list) or len(keys) != settings.players:
        raise ValueError("keys")
    for p, key in enumerate(keys):
        person = settings.seats[p] == PERSON
        if key is not None and not (person and isinstance(key, str) and DIGEST.fullmatch(key)):
            raise ValueError(f"seat {p}'s key")
    return tuple(keys)


def _read_game(game_id: str, data: Any, source: str) -> Game:
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, OLD_FORMAT):
        raise DamagedGameError(f"{source}: not a {FORMAT} file")
    old = data["format"] == OLD_FORMAT
    fields = {"format", "settings", "state", "end_houses", "best"} | (set() if old else {"keys"})
    if not fields <= set(data) <= fields | (set() if old else OPTIONAL_FIELDS):
        raise DamagedGameError(f"{source}: the saved game is damaged (expected {', '.join(sorted(fields))})")
    try:
        if old:  # the first format's person has no key: the game is watched, never acted on
            settings = _read_old_settings(data["settings"])
            keys: tuple[str | None, ...] = (None,) * settings.players
        else:
            settings = _read_settings(data["settings"])
            keys = _read_keys(data["keys"], settings)
    except ValueError as exc:
        raise DamagedGameError(f"{source}: the saved settings are damaged ({exc})") from None
    rules = rules_for(settings.variant)
    saved = data["state"]
    if not isinstance(saved, dict) or saved.get("rules_hash") != rules.content_hash:
        raise DamagedGameError(f"{source}: saved under other rules than this version's")
    state = GameState.from_dict(rules, saved)
    if state.n != settings.players or state.seed != settings.seed:
        raise DamagedGameError(f"{source}: the saved state does not match its settings")
    _check_replay(source, state, saved)
    ends = data["end_houses"]
    if ends is not None and (not isinstance(ends, list) or len(ends) != state.n):
        raise DamagedGameError(f"{source}: the saved end houses are damaged")
    end_houses = None if ends is None else [house_from_json(rules, h, f"{source}") for h in ends]
    best = data["best"]
    if best is not None:
        _check_best(source, rules, best, state.n)
    undone, rematch = data.get("undone", 0), data.get("rematch")
    if not _whole(undone, 1 if "undone" in data else 0, 10**9) or not (rematch is None or _game_id(rematch)):
        raise DamagedGameError(f"{source}: the saved undo count or rematch is damaged")
    return Game(game_id, settings, keys, state, None, end_houses, best, undone=undone, rematch=rematch)


def _game_id(value: Any) -> bool:
    return isinstance(value, str) and GAME_ID.fullmatch(value) is not None


def _check_replay(source: str, state: GameState, saved: dict[str, Any]) -> None:
    """The saved state must be the replay of its own decisions from its seed and first player
    (SETUP-*, ROUND-*): an edited field, event or deck makes the file refused."""
    fresh = GameState(state.rules, state.n, state.seed, state.initial_first)
    for index, event in enumerate(state.events):
        if len(fresh.events) > index or "action" not in event or event.get("forced"):
            continue
        try:
            fresh.apply_action(action_from_dict(event["action"]))
        except (DreamhomeError, ValueError, TypeError, KeyError) as exc:
            raise DamagedGameError(f"{source}: the saved event {index} does not replay ({str(exc)[:120]})") from None
    if json.loads(json.dumps(fresh.to_dict())) != saved:
        raise DamagedGameError(f"{source}: the saved state is not the replay of its events (edited?)")


def _check_best(source: str, rules: Ruleset, best: Any, n: int) -> None:
    """The end-game comparison as `view.final_view` wrote it: one entry per seat, each field typed."""
    ok = isinstance(best, list) and len(best) == n
    for p, b in enumerate(best if ok else []):
        ok = ok and isinstance(b, dict) and b.get("seat") == p
        ok = ok and all(type(b.get(k)) is int for k in ("total", "start")) and type(b.get("optimal")) is bool
        ok = ok and isinstance(b.get("actions"), list) and all(isinstance(a, str) for a in b["actions"])
        ok = ok and (b.get("plan") is None or _plan_ok(b["plan"], len(b["actions"])))
        if ok:
            house_from_json(rules, b.get("house"), f"{source}")
    if not ok:
        raise DamagedGameError(f"{source}: the saved end-game comparison is damaged")


def _plan_ok(plan: Any, steps: int) -> bool:
    """The best house's steps as actions (`view.final_view`): one per step, each an action the
    game reads and its scores before and after."""
    if not isinstance(plan, list) or len(plan) != steps:
        return False
    for step in plan:
        if not isinstance(step, dict) or not all(type(step.get(k)) is int for k in ("before", "after")):
            return False
        try:
            action_from_dict(step.get("action"))
        except (DreamhomeError, ValueError, TypeError, KeyError):
            return False
    return True


__all__ = ["FORMAT", "OLD_FORMAT", "OPTIONAL_FIELDS", "game_json", "game_text", "read_game", "table_record"]
