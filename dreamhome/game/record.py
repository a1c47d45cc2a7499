"""Game records (`dreamhome.record/1`): play a game between bots, write it, replay it exactly.

A record holds the rules in use (their full source with includes inlined, the
variants switched on and the content hash), the seed, the players and bots,
and every event in order. Replaying recompiles the rules from the record
alone, re-applies each decision, checks every event (decisions, forced steps,
deals, scores) and the final houses; the first event that differs is named.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import action_from_dict
from dreamhome.game.bots import Observation, make_bot
from dreamhome.game.state import GameState, IllegalAction
from dreamhome.ruleset import Ruleset

FORMAT = "dreamhome.record/1"


@dataclass(frozen=True)
class GameResult:
    state: GameState
    bots: tuple[str, ...]

    def scores(self) -> list[int]:
        return self.state.returns()

    def winners(self) -> list[int]:
        return self.state.winners()

    def summary(self) -> dict:
        s = self.state
        return {
            "seed": s.seed,
            "players": s.n,
            "bots": list(self.bots),
            "scores": self.scores(),
            "winners": self.winners(),
            "houses": [s.house_json(p) for p in range(s.n)],
        }

    def record(self) -> dict:
        s = self.state
        rules = s.rules
        return {
            "format": FORMAT,
            "rules": {"source": rules.source, "variants": list(rules.variants_on), "hash": rules.content_hash},
            "seed": s.seed,
            "players": s.n,
            "first_player": _first_player(s),
            "bots": list(self.bots),
            "events": s.events,
            **{k: v for k, v in self.summary().items() if k in ("scores", "winners", "houses")},
        }


def _first_player(state: GameState) -> int:
    return state.initial_first


def play_game(rules: Ruleset, players: int, bots: list[str], seed: int, first_player: int | None = None) -> GameResult:
    if len(bots) != players:
        raise DreamhomeError(f"--bots names {len(bots)} bot(s) for {players} players; give one per seat")
    seats = [make_bot(name, seed, i) for i, name in enumerate(bots)]
    state = GameState(rules, players, seed, first_player)
    while not state.is_terminal():
        p = state.current_player()
        state.apply_action(seats[p].choose(Observation(state), state.legal_actions()))
    return GameResult(state, tuple(bots))


def write_record(result: GameResult, path: str | Path) -> None:
    from dreamhome.fileio import write_atomic

    write_atomic(path, json.dumps(result.record(), indent=1, ensure_ascii=False) + "\n")


def load_record(path: str | Path) -> dict:
    """A record file (`-`: stdin), read through the size- and depth-capped reader of `fileio`."""
    from dreamhome.fileio import display_name, read_json

    data = read_json(path, "record")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DreamhomeError(f"{display_name(path)}: not a {FORMAT} game record")
    return data


def replay_record(data: dict, source: str = "record", on_step=None) -> GameResult:
    """Replay and verify a record; `on_step(state)` is called after the setup and after every
    decision (the viewer takes its snapshots there)."""
    from dreamhome.dsl.compiler import compile_rules

    try:
        spec = data["rules"]
        rules = compile_rules(text=spec["source"], name=f"{source}#rules", variants=spec.get("variants", []))
        if rules.content_hash != spec.get("hash"):
            raise DreamhomeError(f"{source}: the rules in the record do not match their content hash (tampered?)")
        state = GameState(rules, data["players"], data["seed"], data.get("first_player"))
        events = data["events"]
        bots = tuple(data.get("bots", []))
    except (KeyError, TypeError) as exc:
        raise DreamhomeError(f"{source}: incomplete record ({exc})") from None
    if on_step is not None:
        on_step(state)
    for index, event in enumerate(events):
        if "action" not in event or event.get("forced"):
            continue
        if len(state.events) > index:
            continue  # already produced by the engine; compared below
        try:
            action = action_from_dict(event["action"])
            state.apply_action(action)
        except (IllegalAction, ValueError, TypeError) as exc:
            raise DreamhomeError(f"{source}: event {index} ({event.get('text', '?')}) is refused: {exc}") from None
        _compare(state.events, events, source, upto=len(state.events))
        if on_step is not None:
            on_step(state)
    _compare(state.events, events, source, upto=max(len(events), len(state.events)))
    if not state.is_terminal():
        raise DreamhomeError(f"{source}: the record ends before the game does")
    result = GameResult(state, bots)
    if data.get("scores") is not None and data["scores"] != result.scores():
        raise DreamhomeError(f"{source}: recorded scores {data['scores']} differ from the replay's {result.scores()}")
    if data.get("houses") is not None and data["houses"] != result.summary()["houses"]:
        raise DreamhomeError(f"{source}: the recorded final houses differ from the replay's")
    return result


def _compare(produced: list, recorded: list, source: str, upto: int) -> None:
    for i in range(upto):
        mine = produced[i] if i < len(produced) else None
        theirs = recorded[i] if i < len(recorded) else None
        if mine != theirs:
            what = (theirs or {}).get("text") or (theirs or {}).get("event") or "missing"
            raise DreamhomeError(f"{source}: event {i} ({what}) does not match the replay")
