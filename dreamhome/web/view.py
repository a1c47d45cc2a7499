"""What the page shows, as JSON: built from the person's observation only (SEE-1).

Why each legal action carries its click targets (`cells`, `columns`): the page highlights
and wires exactly those, and any action the board does not draw as a target still appears
in the generic list of buttons (its `text` is `action_text.describe`, which falls back to the
engine's `GameState.action_text`), so an action type added to the engine is playable in the
page without a change here.

Every text is in the language `lang` the page asks for (`dreamhome.i18n.LANGUAGES`): card
names by `Ruleset.card_name`, actions by `action_text.describe`, score lines by
`score_text.line_text`, labels by the catalogue. The
game itself (its file, its record, its replay) stays in the engine's English.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from dreamhome.engine.placement import Placement, placement_refusal
from dreamhome.game.actions import Action, action_from_dict
from dreamhome.game.phases import Phase
from dreamhome.game.roles import has_role
from dreamhome.game.state import GameState
from dreamhome.game.undo import undo_mark
from dreamhome.house import House
from dreamhome.i18n import DEFAULT_LANG, LANGUAGES, floor_name, has_text, keys, language_name, text
from dreamhome.players.hints import Hint, bound_text
from dreamhome.players.lookahead import SCORE, end_action
from dreamhome.players.roster import LEVELS, MENU_BOTS
from dreamhome.render.action_text import describe, resource_text, roof_text, room_text
from dreamhome.render.card_text import all_card_texts
from dreamhome.render.hint_text import reason_text
from dreamhome.render.house_svg import house_svg
from dreamhome.render.how_to_play import how_to_play, phase_reasons
from dreamhome.render.move_log import last_placed, move_log
from dreamhome.render.result_text import result_line
from dreamhome.render.score_text import line_text
from dreamhome.ruleset import EMPTY, FACE_DOWN, SCAFFOLD, Ruleset
from dreamhome.scoring import score_house
from dreamhome.variant_menu import variant_menu
from dreamhome.web.piles import pile_cards, pile_key
from dreamhome.web.store import PERSON, Game, players_range, rules_for, variant_catalogue

SVGS_KEPT = 512
"""Houses' drawings held at most (`drawn_house`), the least recently used dropped first."""
_svgs: OrderedDict[tuple[str, House, str, str], str] = OrderedDict()
_svgs_lock = threading.Lock()
BEST_DETERMINISTIC_TIME = 2.0
"""CP-SAT work for `optimize`'s best final house (deterministic units: the same answer on
any machine, as the solver bot uses)."""


def drawn_house(rules: Ruleset, house: House, title: str, lang: str) -> str:
    """`house_svg(rules, house, title, lang)`, drawn once per house as it stands and kept
    (`SVGS_KEPT`). Why: a house changes at most once a decision, and every view drew every
    house anew (half of a view's time, issue 33); the drawing depends only on these four (a
    house is a frozen value, the rules named by their content), so the same arguments give the
    same text. Rules without a content hash are drawn every time."""
    if not rules.content_hash:
        return house_svg(rules, house, title, lang)
    key = (rules.content_hash, house, title, lang)
    with _svgs_lock:
        kept = _svgs.get(key)
        if kept is not None:
            _svgs.move_to_end(key)
            return kept
    svg = house_svg(rules, house, title, lang)
    with _svgs_lock:
        _svgs[key] = svg
        while len(_svgs) > SVGS_KEPT:
            _svgs.popitem(last=False)
    return svg


def _targets(fields: dict[str, Any]) -> tuple[list[str], list[int]]:
    """The cells and track columns an action names (its click targets on the board)."""
    cells = [v for k in ("cell", "a", "b") if isinstance(v := fields.get(k), str)]
    columns = [v for k in ("column", "a", "b") if type(v := fields.get(k)) is int]
    return cells, columns


def page_texts(lang: str = DEFAULT_LANG) -> dict[str, str]:
    """The page's own labels in `lang`: every `table.*` and `phase.*` entry of the catalogue
    (the page draws nothing of its own but these)."""
    return {key: text(key, lang) for key in keys() if key.startswith(("table.", "phase."))}


def add_moves(view: dict[str, Any], state: GameState, names: list[str], since: int, lang: str) -> None:
    """The whole log ("Moves", issue 33): `moves`, every event of the game in order, each take or
    discard naming its cards (dreamhome.render.move_log, from the public events alone: SEE-1);
    `latest`, the index in `moves` of the latest decision (highlighted); `log_since`, the first
    move after the seat's last decision (what happened since, shown as new); and `log`, the texts
    from `log_since` on (the log as pages before the whole log read it)."""
    moves = move_log(state, names, lang)
    view["moves"] = [m.to_json() for m in moves]
    decisions = [k for k, m in enumerate(moves) if m.kind != "note"]
    view["latest"] = decisions[-1] if decisions else None
    view["log_since"] = since
    view["log"] = [m.text for m in moves[since:]]


def add_refusals(view: dict[str, Any], state: GameState, lang: str) -> None:
    """`refusals`: while the seat places its room card (PLACE-*) or a furnishing's token
    (FURN-*), each space of its house that may not take it, with the rule that refuses it in
    `lang`: a click on a refused cell says why (issue 33). Empty on any other decision."""
    view["refusals"] = {}
    if not view["legal"]:
        return
    if state.phase == Phase.PLACE and state.pending_room is not None:
        view["refusals"] = _place_refusals(state, state.pending_room, lang)
    elif state.phase == Phase.TOKEN and state.pending_res is not None:
        view["refusals"] = _token_refusals(state, state.pending_res.id, lang)


def _place_refusals(state: GameState, code: int, lang: str) -> dict[str, str]:
    """Each space the room card may not take face up, and whether it may go there face down
    (`engine.placement.placement_refusal`, the test `legal_placements` makes)."""
    rules = state.rules
    house, room = state.houses[state.actor], rules.room_of_code(code)
    card = rules.card_name(room.id, lang)
    refusals = {}
    for i, cell in enumerate(rules.board.cells):
        rule = placement_refusal(rules, house, code, Placement(i, False))
        if rule is None:
            continue
        reason = text(f"refusal.{rule}", lang, cell=cell, card=card, max=len(room.points))
        if placement_refusal(rules, house, code, Placement(i, True)) is None:
            reason = text("refusal.face_down_ok", lang, reason=reason)
        refusals[cell] = reason
    return refusals


def _token_refusals(state: GameState, furnishing: str, lang: str) -> dict[str, str]:
    """Each space the furnishing's token may not go on (`token_cells`, the engine's list, is
    where it may): not a face-up card of the printed type (FURN-TYPE), else its room holds a
    token already (FURN-ONE)."""
    rules = state.rules
    printed = rules.furnishing(furnishing).room
    if printed is None:
        return {}
    house, code = state.houses[state.actor], rules.room(printed).code
    allowed = set(state.token_cells(state.actor, furnishing))
    token, room = rules.card_name(furnishing, lang), rules.card_name(printed, lang)
    return {
        cell: text("refusal.FURN-TYPE" if house.cells[i] != code else "refusal.FURN-ONE", lang, token=token, room=room)
        for i, cell in enumerate(rules.board.cells)
        if i not in allowed
    }


def seat_label(game: Game, seat: int, lang: str = DEFAULT_LANG, you: int | None = None) -> str:
    """A seat as the page of seat `you` names it (None: a watch page): "you" (with the name
    given, if any), a person by the name given at the start or else by seat, or the bot and its
    seat. A name is the person's own text: each page writes it as text, never as markup."""
    name = game.settings.seats[seat]
    given = game.settings.name_of(seat)
    if seat == you:
        return text("table.you_named", lang, name=given) if given else text("table.you", lang)
    if name == PERSON:
        return given if given else text("table.person_seat", lang, seat=seat)
    bot = text(f"table.level_short.{name}", lang) if name in LEVELS else name  # a level in the page's language
    return text("table.bot_seat", lang, bot=bot, seat=seat)


def _since_last_decision(events: list[dict[str, Any]], seats: set[int]) -> int:
    """The first event after the last decision of one of `seats` (0 if none)."""
    for k in range(len(events) - 1, -1, -1):
        e = events[k]
        if e.get("player") in seats and "text" in e and not e.get("forced"):
            return k + 1
    return 0


def _legal_view(state: GameState, lang: str) -> list[dict[str, Any]]:
    """The legal actions of the seat to move as the page offers them: each with its text in
    `lang`, its click targets, and its face (None: an action without one)."""
    legal = []
    for index, action in enumerate(state.legal_actions()):
        fields = action.to_dict()
        cells, columns = _targets(fields)
        legal.append(
            {
                "index": index,
                "type": fields["type"],
                "text": describe(state, action, lang),
                "cells": cells,
                "columns": columns,
                # face up or down (None: no such choice), which the page's Face down control picks
                "face_down": fields["face_down"] if isinstance(fields.get("face_down"), bool) else None,
                "pile": pile_key(action),  # the discard pile's card it takes (END-SUPPLIER, END-ROOFER), a click target
            }
        )
    return legal


def game_view(game: Game, you: int | None = None, since: int | None = None, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """The table as seat `you` sees it (None: the watch view, everything public and no legal
    actions), in `lang`; `since`: the first event of the log (default: the events after the
    seat's last decision, or any person's for a watch page, so the bots' moves show step by step)."""
    state = game.state
    rules = state.rules
    persons = set(game.settings.persons())
    obs = state.observation(0 if you is None else you, lookahead=False)
    names = [seat_label(game, p, lang, you) for p in range(state.n)]
    events = state.events
    if since is None:
        since = _since_last_decision(events, persons if you is None else {you})
    since = max(0, min(since, len(events)))
    to_move = game.to_move()
    mine = you is not None and to_move == you
    legal = _legal_view(state, lang) if mine else []
    track = [
        {
            "column": k,
            "room": room_text(rules, code, lang) if code is not None else None,
            "resource": resource_text(rules, res, lang) if res is not None else None,
        }
        for k, (code, res) in enumerate(zip(obs.track_rooms, obs.track_res))
    ]
    houses = []
    placed = last_placed(events, state.n)
    for p, house in enumerate(obs.houses):
        houses.append(
            {
                "seat": p,
                "name": names[p],
                "score": obs.scores[p],
                "svg": drawn_house(rules, house, names[p], lang),
                "helpers": [rules.card_name(h, lang) for h in house.helpers],
                "tools": [rules.card_name(t, lang) for t in house.tools],
                "last_placed": placed[p],  # the space that got this player's latest card (marked on the page)
            }
        )
    view: dict[str, Any] = {
        "id": game.id,
        "lang": lang,
        "you": you,
        "seat": you,
        "players": state.n,
        "names": names,
        "seats": [{"seat": p, "kind": kind, "name": names[p]} for p, kind in enumerate(game.settings.seats)],
        "variant": game.settings.variant,  # no seed: it decides the decks' order (SEE-1); the record holds it at the end
        "round": min(obs.round, rules.game.rounds),  # the engine counts one past the last round when it ends
        "rounds": rules.game.rounds,
        "phase": obs.phase,
        "phase_text": text(f"phase.{obs.phase}", lang) if has_text(f"phase.{obs.phase}") else obs.phase,
        "actor": obs.actor,
        "first": obs.first,
        "to_move": to_move,
        "over": state.is_terminal(),
        "your_turn": mine,
        "terminal": state.is_terminal(),
        "version": game.version,  # grows at every stored change, an undo included
        "undo": you is not None and not state.is_terminal() and undo_mark(events, you) is not None,  # dreamhome.game.undo
        "track": track,
        "room_discard": [room_text(rules, c, lang) for c in obs.room_discard],
        "roof_discard": [roof_text(rules, rules.roofs[c].id, w, lang) for c, w in obs.roof_discard],
        "piles": pile_cards(rules, obs.room_discard, obs.roof_discard, lang),  # drawn as cards in the end game
        "houses": houses,
        "legal": legal,
    }
    add_moves(view, state, names, since, lang)
    add_refusals(view, state, lang)
    add_card_fields(view, state, obs.houses)
    if state.is_terminal():
        view["scores"] = [
            {
                "seat": p,
                "name": names[p],
                "total": score.total,
                "lines": [
                    {"points": ln.points, "part": _part_label(ln.part, lang), "text": line_text(rules, ln, lang)}
                    for ln in score.lines
                ],
            }
            for p, score in ((p, score_house(rules, h)) for p, h in enumerate(state.houses))
        ]
        view["winners"] = state.winners()
        view["result"] = result_line(state, names, lang)  # SCORE-WIN, the tie-break said
        view["replay"] = f"/games/{game.id}/replay"
        view["review"] = f"/games/{game.id}/review"
        view["final"] = f"/api/games/{game.id}/final"
        view["record"] = f"/api/games/{game.id}/record"
        view["rematch"] = game.rematch  # the rematch's id once someone started it (web.rematch)
    return view


def _part_label(part: str, lang: str) -> str:
    """A score line's part (SCORE-*) as the catalogue names it (`score.part.*`), else as the scorer spells it."""
    key = f"score.part.{part}"
    return text(key, lang) if has_text(key) else part.replace("_", " ")


def final_view(game: Game, lang: str = DEFAULT_LANG) -> dict[str, Any]:
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
                    "plan": [  # the same steps as the game's actions: each page says them in its language
                        {"action": end_action(rules, s.action).to_dict(), "before": s.before, "after": s.after}
                        for s in result.steps
                    ],
                    "house": house_to_json(rules, result.house),
                }
            )
        game.best = best
    from dreamhome.house import house_from_json

    names = [seat_label(game, p, lang) for p in range(state.n)]  # the final comparison is public: no "you"
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
                "actions": _plan_texts(state, b, lang),
                "svg": house_svg(rules, best_house, text("table.best_house", lang, name=names[p]), lang),
            }
        )
    return {"houses": out}


def _plan_texts(state: GameState, best: dict[str, Any], lang: str) -> list[str]:
    """The best final house's steps in `lang`, each the game's action as the log says it and the
    score before and after it; a game file from before the steps were kept as actions (`plan`)
    keeps its English lines."""
    plan = best.get("plan")
    if not isinstance(plan, list):
        return list(best["actions"])
    return [
        text(
            "table.plan_step",
            lang,
            action=describe(state, action_from_dict(s["action"]), lang),
            before=s["before"],
            after=s["after"],
        )
        for s in plan
    ]


def hint_view(state: GameState, hint: Hint, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """The hint for the position `state` as JSON: each option's bound and proof, and the solver's
    pick (dreamhome.players.hints) with its value (`pick_value`, proven or not: `pick_proven`; shown
    "≥N" when not, as the terminal shows it) and its one-line reason in `lang`; each option's text
    in `lang` as the legal actions' list shows it. `measure` says what the values are: final
    scores (lookahead.SCORE) or, for the discard, margins over the others' mean (MARGIN, which
    the page shows signed and says so)."""
    return {
        "options": [
            {
                "index": o.index,
                "text": describe(state, o.action, lang),
                "bound": o.bound,
                "proven": o.proven,
                "measure": o.measure,
            }
            for o in hint.options
        ],
        "measure": hint.options[0].measure if hint.options else SCORE,
        "pick": hint.bot_choice,
        "pick_value": hint.pick_value,
        "pick_proven": hint.pick_proven,
        "pick_text": bound_text(hint.pick_value, hint.pick_proven) if hint.bot_choice is not None else None,
        "reason": reason_text(state, hint.reason, lang) if hint.reason else None,
        # what "reachable" means, said where the values are shown (issue 33); margins say their own
        "explain": text("seat.hint_explain", lang) if all(o.measure == SCORE for o in hint.options) else None,
        "version": len(state.events),
    }


# ---- what the page draws (issue 22, items 2 and 3): cards by id, so each explains itself ------


def _cell_fields(rules: Ruleset, house: House, i: int) -> dict[str, Any]:
    """One space of a house as the page draws it: its state and, for a card, its room and token."""
    code = house.cells[i]
    state = {EMPTY: "empty", SCAFFOLD: "scaffold", FACE_DOWN: "face_down"}.get(code, "card")
    token = house.tokens[i]
    return {
        "cell": rules.board.cells[i],
        "state": state,
        "room": rules.room_of_code(code).id if state == "card" else None,
        "token": rules.furnishings[token - 1].id if token else None,
    }


def _face_up(rules: Ruleset, house: House, cell: str) -> bool:
    """Whether `cell` of `house` holds a face-up room card (an empty room is no room, PLACE-EMPTY)."""
    return house.cells[rules.board.index[cell]] not in (EMPTY, SCAFFOLD, FACE_DOWN)


def _action_card(state: GameState, action: Action) -> str | None:
    """The helper or tool card the actor clicks to make `action` (RES-TOOL, END-ORDER): the card
    it names, else the first card it holds whose effect plays the action's role (tools first, as
    TOOL-TIMING uses them), else a tool of that role (the scaffold just taken); None for a plain move."""
    named = getattr(action, "helper", None)
    if isinstance(named, str):
        return named
    if action.role is None:
        return None
    rules = state.rules
    house = state.houses[state.actor] if 0 <= state.actor < state.n else None
    held = (*house.tools, *house.helpers) if house is not None else ()
    for ident in held:
        if rules.has_held(ident) and has_role(rules.held(ident), action.role):
            return ident
    cards = [c.id for c in rules.helpers + rules.tools if has_role(c, action.role)]
    return cards[0] if cards else None


def add_card_fields(view: dict[str, Any], state: GameState, houses: tuple[House, ...]) -> None:
    """The ids the page needs to draw cards as cards and explain each (`/api/rules` has the
    explanations): each track card's id, each house's spaces, roofs and held cards, and the card
    a legal action is made with."""
    rules = state.rules
    for column, (code, res) in zip(view["track"], zip(state.track_rooms, state.track_res)):
        column["room_id"] = rules.room_of_code(code).id if code is not None else None
        column["resource_card"] = None if res is None else {"kind": res.kind, "id": res.id, "window": res.window}
    for entry, house in zip(view["houses"], houses):
        entry["cells"] = [_cell_fields(rules, house, i) for i in range(rules.board.size)]
        entry["roofs"] = [{"id": rules.roofs[c].id, "window": w} for c, w in house.roofs]
        entry["helper_ids"] = list(house.helpers)
        entry["tool_ids"] = list(house.tools)
        entry["outside_ids"] = list(house.outside)
        entry["rooms"] = [  # SCORE-ROOMS: each room of face-up cards, its cells and points (one shape, its score)
            {"cells": list(line.cells), "points": line.points}
            for line in score_house(rules, house).lines
            if line.part == "rooms" and line.cells and all(_face_up(rules, house, c) for c in line.cells)
        ]
    room, res = state.pending_room, state.pending_res  # the column just taken (ROUND-3), public on the track
    view["pending"] = {
        "room": rules.room_of_code(room).id if room is not None else None,
        "resource": None if res is None else {"kind": res.kind, "id": res.id, "window": res.window},
    }
    legal = state.legal_actions() if view["legal"] else []
    for entry in view["legal"]:
        entry["card"] = _action_card(state, legal[entry["index"]])


def rules_view(rules: Ruleset, players: int, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """`GET /api/rules`: the board's shape, every card explained, "How to play" and each phase's
    reason, for the rules a table plays (a variant's table explains that variant)."""
    board = rules.board
    return {
        "board": {
            "floors": [
                {"name": f.name, "label": floor_name(f.name, lang), "kind": f.kind, "columns": list(f.columns)}
                for f in board.floors
            ],
            "roof_pile": None if board.roof_pile is None else {"under": board.roof_pile[0], "columns": list(board.roof_pile[1])},
        },
        "cards": {ident: card.to_json() for ident, card in all_card_texts(rules, lang).items()},
        "how_to_play": [section.to_json() for section in how_to_play(rules, lang)],
        "phases": phase_reasons(rules, players, lang),
    }


@lru_cache(maxsize=64)
def options_view(chosen: str, default_lang: str) -> bytes:
    """`GET /api/options`'s answer (JSON) in `chosen`, the server's language `default_lang`:
    every ruleset's players range (compiled once, `rulesets.RULESETS`), the bots, the variants'
    questions (VAR-*), the languages and the page's labels. Kept: none of it changes while the
    server runs, and the start page asks for it at every load and language switch."""
    import json

    rules = rules_for("")
    body = {
        "players": [rules.game.min_players, rules.game.max_players],
        "variant_players": {name: list(players_range(name)) for name in ("", *variant_catalogue())},
        "bots": list(MENU_BOTS),  # each bot once; the API still takes every name of BOT_NAMES
        "variants": {choice.name: choice.text for choice in variant_menu(rules, chosen)},
        "lang": chosen,
        "default_lang": default_lang,
        "languages": [{"code": code, "name": language_name(code)} for code in LANGUAGES],
        "texts": page_texts(chosen),
    }
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
