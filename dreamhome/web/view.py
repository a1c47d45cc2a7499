"""What the page shows, as JSON: built from the person's observation only (SEE-1).

Why each legal action carries its click targets (`cells`, `columns`): the page highlights
and wires exactly those, and any action the board does not draw as a target still appears
in the generic list of buttons (its `text` is `GameState.action_text`), so an action type
added to the engine is playable in the page without a change here.
"""

from __future__ import annotations

from typing import Any

from dreamhome.game.hints import Hint
from dreamhome.game.state import Resource
from dreamhome.render_svg import house_svg
from dreamhome.ruleset import Ruleset
from dreamhome.scoring import score_house
from dreamhome.web.store import PERSON, Game

BEST_DETERMINISTIC_TIME = 2.0
"""CP-SAT work for `optimize`'s best final house (deterministic units: the same answer on
any machine, as the solver bot uses)."""


def _resource_name(rules: Ruleset, res: Resource | None) -> str | None:
    """A resource card as the rules file names it (its name, not its id)."""
    if res is None:
        return None
    if res.kind == "roof":
        return f"{rules.roof(res.id).name} roof" + (" with window" if res.window else "")
    if res.kind == "furnishing":
        return rules.furnishing(res.id).name
    return rules.held(res.id).name


def _targets(fields: dict[str, Any]) -> tuple[list[str], list[int]]:
    """The cells and track columns an action names (its click targets on the board)."""
    cells = [v for k in ("cell", "a", "b") if isinstance(v := fields.get(k), str)]
    columns = [v for k in ("column", "a", "b") if type(v := fields.get(k)) is int]
    return cells, columns


def _event_text(event: dict[str, Any], names: list[str]) -> str:
    if "text" in event:
        who = names[event["player"]] if 0 <= event["player"] < len(names) else f"player {event['player']}"
        return f"round {event['round']}: {who}: {event['text']}" + (" (forced)" if event.get("forced") else "")
    detail = ", ".join(
        f"{k} {v}"
        for k, v in event.items()
        if k not in ("round", "event") and isinstance(v, (str, int)) and not isinstance(v, bool)
    )
    return f"round {event['round']}: {event['event'].replace('_', ' ')}" + (f" ({detail})" if detail else "")


def seat_label(game: Game, seat: int) -> str:
    name = game.settings.seat_names()[seat]
    return "you" if name == PERSON else f"{name} bot (seat {seat})"


def game_view(game: Game, since: int | None = None) -> dict[str, Any]:
    """The table as the person sees it; `since`: the first event of the log (default: the
    events after the person's last decision, so the bots' moves show step by step)."""
    state = game.state
    rules = state.rules
    me = game.settings.seat
    obs = state.observation(me, lookahead=False)
    names = [seat_label(game, p) for p in range(state.n)]
    events = state.events
    if since is None:
        since = 0
        for k in range(len(events) - 1, -1, -1):
            e = events[k]
            if e.get("player") == me and "text" in e and not e.get("forced"):
                since = k + 1
                break
    legal = []
    if game.person_to_act():
        for index, action in enumerate(state.legal_actions()):
            fields = action.to_dict()
            cells, columns = _targets(fields)
            legal.append(
                {"index": index, "type": fields["type"], "text": state.action_text(action), "cells": cells, "columns": columns}
            )
    track = [
        {
            "column": k,
            "room": rules.room_of_code(code).name if code is not None else None,
            "resource": _resource_name(rules, res),
        }
        for k, (code, res) in enumerate(zip(obs.track_rooms, obs.track_res))
    ]
    houses = []
    for p, house in enumerate(obs.houses):
        houses.append(
            {
                "seat": p,
                "name": names[p],
                "score": obs.scores[p],
                "svg": house_svg(rules, house, names[p]),
                "helpers": [rules.held(h).name for h in house.helpers],
                "tools": [rules.held(t).name for t in house.tools],
            }
        )
    view: dict[str, Any] = {
        "id": game.id,
        "seat": me,
        "players": state.n,
        "names": names,
        "variant": game.settings.variant,
        "seed": game.settings.seed,
        "round": min(obs.round, rules.game.rounds),  # the engine counts one past the last round when it ends
        "rounds": rules.game.rounds,
        "phase": obs.phase,
        "actor": obs.actor,
        "first": obs.first,
        "your_turn": game.person_to_act(),
        "terminal": state.is_terminal(),
        "version": len(events),
        "track": track,
        "room_discard": [rules.room_of_code(c).name for c in obs.room_discard],
        "roof_discard": [f"{rules.roofs[c].name} roof" + (" with window" if w else "") for c, w in obs.roof_discard],
        "houses": houses,
        "legal": legal,
        "log": [_event_text(e, names) for e in events[since:]],
    }
    if state.is_terminal():
        view["scores"] = [
            {
                "seat": p,
                "name": names[p],
                "total": score.total,
                "lines": [{"points": ln.points, "text": ln.text} for ln in score.lines],
            }
            for p, score in ((p, score_house(rules, h)) for p, h in enumerate(state.houses))
        ]
        view["winners"] = state.winners()
        view["replay"] = f"/games/{game.id}/replay"
        view["final"] = f"/api/games/{game.id}/final"
    return view


def final_view(game: Game) -> dict[str, Any]:
    """SCORE-*, END-*: each house as played beside `optimize`'s best final house from the same
    house as the end game began (computed once, kept in the game file)."""
    from dreamhome.house import house_to_json
    from dreamhome.solver.optimize import best_final_score

    state = game.state
    rules = state.rules
    if game.best is None:
        starts = game.end_houses or [state.house_with_piles(p) for p in range(state.n)]
        best = []
        for p, house in enumerate(starts):
            result = best_final_score(rules, house, deterministic_time=BEST_DETERMINISTIC_TIME, source=f"house {p}")
            best.append(
                {
                    "seat": p,
                    "total": result.total,
                    "optimal": result.optimal,
                    "start": result.start,
                    "actions": [s.explain(rules) for s in result.steps],
                    "house": house_to_json(rules, result.house),
                }
            )
        game.best = best
    from dreamhome.house import house_from_json

    names = [seat_label(game, p) for p in range(state.n)]
    out = []
    for p, b in enumerate(game.best):
        best_house = house_from_json(rules, b["house"], "best house")
        out.append(
            {
                "seat": p,
                "name": names[p],
                "played": state.returns()[p],
                "best": b["total"],
                "optimal": b["optimal"],
                "actions": b["actions"],
                "svg": house_svg(rules, best_house, f"{names[p]}: best final house"),
            }
        )
    return {"houses": out}


def hint_view(game: Game, hint: Hint) -> dict[str, Any]:
    """The hint as JSON: each option's bound and proof, and the solver's pick (dreamhome.game.hints)."""
    return {
        "options": [{"index": o.index, "text": o.text, "bound": o.bound, "proven": o.proven} for o in hint.options],
        "pick": hint.bot_choice,
        "version": len(game.state.events),
    }
