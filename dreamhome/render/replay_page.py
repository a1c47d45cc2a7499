"""A game record as one self-contained HTML page that steps through the game.

No network and no CDN: the page holds its CSS, its JavaScript and the game as
JSON snapshots (one per decision, made by replaying and verifying the record).
Controls: previous/next, jump to a round, play/pause; the page shows the round,
whose turn it is, the first-player marker, the track, every house with its
held cards and score so far, the discard piles and the event log with the
current event highlighted. `#step=N` opens a step; `#clicks=next,next,prev`
clicks the buttons after loading (used by the browser tests).

Every string a record brings (bot names, card names, texts) is data: the game
JSON is embedded with `<`, `>`, `&`, U+2028/9 escaped, the script escapes what
it writes into the page, and a Content-Security-Policy allows only the page's
own script (by its hash), so a hostile name can neither break nor run anything.
"""

from __future__ import annotations

import base64
import hashlib
import json
from html import escape
from typing import Any

from dreamhome.game.record import replay_record
from dreamhome.game.roles import SCAFFOLD as SCAFFOLD_ROLE
from dreamhome.game.roles import tools_with_role
from dreamhome.game.state import GameState
from dreamhome.i18n import DEFAULT_LANG, check_lang, text
from dreamhome.render.action_text import resource_text, room_text
from dreamhome.render.event_text import event_text
from dreamhome.ruleset import EMPTY, FACE_DOWN, SCAFFOLD, Ruleset
from dreamhome.scoring import score_total


def _scaffold_name(rules: Ruleset, lang: str) -> str:
    """TOOL-SCAFFOLDING: the name the rules file gives the scaffold tool, in `lang`."""
    cards = tools_with_role(rules, SCAFFOLD_ROLE)
    return rules.card_name(cards[0].id, lang) if cards else "scaffold"


def _snapshot(state: GameState, lang: str) -> dict:
    """What one step shows, every card by its name in `lang` (never an id or a JSON fragment)."""
    rules = state.rules
    scaffold = _scaffold_name(rules, lang)
    empty_room = text("grid.empty_room", lang)
    houses = []
    for house in state.houses:
        cells = []
        for i, code in enumerate(house.cells):
            if code == EMPTY:
                cells.append({"cell": rules.board.cells[i], "kind": "empty"})
            elif code == SCAFFOLD:
                cells.append({"cell": rules.board.cells[i], "kind": "scaffold", "name": scaffold})
            elif code == FACE_DOWN:
                cells.append({"cell": rules.board.cells[i], "kind": "down", "name": empty_room})
            else:
                room = rules.room_of_code(code)
                token = rules.card_name(rules.furnishings[house.tokens[i] - 1].id, lang) if house.tokens[i] else ""
                cells.append(
                    {"cell": rules.board.cells[i], "kind": room.category, "name": rules.card_name(room.id, lang), "token": token}
                )
        houses.append(
            {
                "cells": cells,
                "score": score_total(rules, house),
                "roofs": [rules.card_name(rules.roofs[c].id, lang).lower() + ("*" if w else "") for c, w in house.roofs],
                "helpers": [rules.card_name(h, lang) for h in house.helpers],
                "tools": [rules.card_name(t, lang) for t in house.tools],
                "outside": [rules.card_name(f, lang) for f in house.outside],
            }
        )
    track = []
    for slot, res in zip(state.track_rooms, state.track_res):
        slot_name = room_text(rules, slot, lang) if slot is not None else ""
        track.append({"room": slot_name, "resource": resource_text(rules, res, lang) if res is not None else ""})
    return {
        "round": state.round if state.round <= rules.game.rounds else rules.game.rounds,
        "phase": state.phase.value,
        "player": state.current_player(),
        "first": state.first,
        "track": track,
        "houses": houses,
        "events": len(state.events),
        "room_discard": len(state.room_discard),
        "roof_discard": len(state.roof_discard),
    }


LABELS = (
    "replay.previous",
    "replay.next",
    "replay.play",
    "replay.pause",
    "replay.round_of",
    "replay.round",
    "replay.player",
    "replay.game_over",
    "replay.first",
    "replay.discards",
    "replay.step",
    "replay.column",
    "replay.marker",
    "replay.score",
    "held.roofs",
    "held.helpers",
    "held.tools",
    "held.outside",
    "held.none",
)
"""The catalogue entries the page's script writes (`G.t`), in the page's language."""


SCRIPT = """const G = JSON.parse(document.getElementById('game').textContent);
const T = G.t;
let step = 0, timer = null;
const el = id => document.getElementById(id);
function esc(s) { return String(s).replace(/[&<>"']/g, c => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'})[c]); }
function fmt(key, args) { return T[key].replace(/\\{(\\w+)\\}/g, (m, k) => String(args[k])); }
function show(n) {
  step = Math.max(0, Math.min(G.steps.length - 1, n));
  const s = G.steps[step];
  const who = s.player < 0 ? T['replay.game_over'] : fmt('replay.player', {seat: s.player, bot: G.bots[s.player]});
  el('status').innerHTML = '<span id="round-now" data-round="' + s.round + '">' + esc(fmt('replay.round_of', {round: s.round, rounds: G.rounds})) +
    '</span> · <span id="player-now" data-player="' + s.player + '">' + esc(who) + '</span> · ' + esc(fmt('replay.first', {seat: s.first})) +
    ' · ' + esc(fmt('replay.discards', {rooms: s.room_discard, roofs: s.roof_discard}));
  el('stepinfo').textContent = fmt('replay.step', {step: step, last: G.steps.length - 1});
  el('track').innerHTML = s.track.map((c, k) => '<div class="col"><b>' + esc(fmt('replay.column', {column: k})) + '</b><br>' + esc(c.room || '—') +
    '<br><i>' + esc(c.resource || (k === 0 ? T['replay.marker'] : '—')) + '</i></div>').join('');
  const list = (key, xs) => esc(T[key]) + ': ' + esc(xs.join(', ') || T['held.none']);
  el('houses').innerHTML = s.houses.map((h, p) => '<div class="house' + (p === s.player ? ' current' : '') +
    '" data-seat="' + p + '"><b>' + esc(fmt('replay.player', {seat: p, bot: G.bots[p]})) + '</b> ' + esc(T['replay.score']) +
    ' <span class="score">' + h.score +
    '</span><div class="grid">' + h.cells.map(c => '<div class="cell ' + esc(c.kind) + '" style="grid-column:' + (G.col[c.cell] + 1) +
    ';grid-row:' + (G.row[c.cell] + 1) + '" title="' + esc(c.cell) + '">' + esc(c.name || '') +
    (c.token ? '<span class="token">' + esc(c.token) + '</span>' : '') + '</div>').join('') + '</div>' +
    '<div>' + list('held.roofs', h.roofs) + '<br>' + list('held.helpers', h.helpers) +
    '<br>' + list('held.tools', h.tools) + (h.outside.length ? '<br>' + list('held.outside', h.outside) : '') +
    '</div></div>').join('');
  el('log').innerHTML = G.events.map((e, i) => '<div class="' + (i < s.events && i >= (step ? G.steps[step - 1].events : 0) ? 'now' : '') +
    '">' + i + '. ' + esc(e) + '</div>').join('');
  const log = el('log'), now = log.querySelector('.now'); if (now) log.scrollTop += now.getBoundingClientRect().top - log.getBoundingClientRect().top - log.clientHeight / 2;
  el('round').value = String(s.round);
}
el('prev').textContent = T['replay.previous'];
el('next').textContent = T['replay.next'];
el('play').textContent = T['replay.play'];
el('prev').onclick = () => show(step - 1);
el('next').onclick = () => show(step + 1);
el('play').onclick = () => { if (timer) { clearInterval(timer); timer = null; el('play').textContent = T['replay.play']; }
  else { timer = setInterval(() => { if (step >= G.steps.length - 1) el('play').click(); else show(step + 1); }, 700);
  el('play').textContent = T['replay.pause']; } };
for (let r = 1; r <= G.rounds; r++) { const o = document.createElement('option'); o.value = String(r); o.textContent = fmt('replay.round', {round: r}); el('round').appendChild(o); }
el('round').onchange = () => show(G.steps.findIndex(s => s.round === Number(el('round').value)));
const params = new URLSearchParams(location.hash.slice(1));
show(Number(params.get('step') || 0));
for (const c of (params.get('clicks') || '').split(',').filter(Boolean)) el(c).click();
"""

PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: sans-serif; margin: 16px; color: #222; }}
@media (max-width: 600px) {{ body {{ margin: 8px; }} }}
#bar button, #bar select {{ font-size: 14px; margin-right: 6px; }}
#status {{ margin: 10px 0; font-size: 15px; }}
.track {{ display: flex; gap: 6px; margin-bottom: 12px; }}
.col {{ border: 1px solid #999; border-radius: 6px; padding: 6px; width: 150px; min-width: 0; font-size: 12px; overflow-wrap: break-word; }}
.houses {{ display: flex; flex-wrap: wrap; gap: 18px; }}
.house {{ border: 2px solid #bbb; border-radius: 8px; padding: 8px; min-width: 0; max-width: 100%; box-sizing: border-box; }}
.house.current {{ border-color: #2b7bb9; }}
/* a space is 92 px wide where there is room, narrower on a phone: a house fits the page's width */
.grid {{ display: grid; grid-template-columns: repeat({columns}, minmax(0, 92px)); gap: 4px; }}
.cell {{ height: 48px; border-radius: 5px; font-size: 11px; padding: 3px; box-sizing: border-box; min-width: 0; overflow: hidden; overflow-wrap: break-word; }}
@media (max-width: 600px) {{ .track {{ gap: 3px; }} .col {{ padding: 3px; font-size: 11px; }} .cell {{ font-size: 10px; padding: 2px; }} }}
.empty {{ border: 1px dashed #ccc; }} .normal {{ background: #d7ecd0; }} .annex {{ background: #eadcf3; }}
.basement {{ background: #f6e6bd; }} .down {{ background: #d5d5d5; }} .scaffold {{ background: #f9d2cf; }}
.token {{ color: #2b7bb9; display: block; }}
#log {{ max-height: 260px; overflow: auto; font-size: 12px; border: 1px solid #ddd; padding: 6px; margin-top: 12px; }}
#log .now {{ background: #ffe98a; }}
</style></head><body>
<h2>{title}</h2>{extra}
<div id="bar"><button id="prev">{previous}</button><button id="next">{next}</button>
<button id="play">{play}</button><select id="round" aria-label="{round_menu}"></select> <span id="stepinfo"></span></div>
<div id="status"></div><div class="track" id="track"></div><div class="houses" id="houses"></div>
<div id="log" tabindex="0" role="region" aria-label="{log}"></div>
<script id="game" type="application/json">{data}</script>
<script>{script}</script></body></html>
"""


def replay_html(
    data: dict,
    source: str = "record",
    lang: str = DEFAULT_LANG,
    annotations: dict[int, str] | None = None,
    extra_html: str = "",
) -> str:
    """The record `data` as one page in `lang` (`dreamhome.i18n.LANGUAGES`): the cards by their
    names in that language, the log's lines said by `event_text` (never an action as JSON).
    `annotations` (event index → text) is appended to those events of the log, and `extra_html`
    (trusted markup: no script, the CSP allows none) goes under the title; the game review's
    page (review_page.py) adds its marks and chart through them."""
    lang = check_lang(lang)
    snapshots: list[dict] = []
    events: list[str] = []
    holder: dict = {}

    def on_step(state: GameState) -> None:
        # The new lines of the log are said from the state they were played in (the card a
        # tool or helper action uses is the one its player held then).
        said_from = holder.get("before", state)
        names = _player_names(holder.get("bots", ()), state.n, lang)
        for event in state.events[len(events) :]:
            player = event.get("player")
            who = names[player] if isinstance(player, int) and 0 <= player < len(names) else ""
            events.append(event_text(said_from, event, who, lang))
        snapshots.append(_snapshot(state, lang))
        holder["state"] = state
        holder["before"] = state.clone()

    holder["bots"] = seat_names(data)
    result = replay_record(data, source, on_step=on_step)
    state = holder["state"]
    rules = state.rules
    for index, note in (annotations or {}).items():
        if 0 <= index < len(events):
            events[index] += f" — {note}"
    columns = sorted({c for fl in rules.board.floors for c in fl.columns})
    game = {
        "bots": list(holder["bots"]) or ["?"] * state.n,
        "rounds": rules.game.rounds,
        "steps": snapshots,
        "events": events,
        "col": {name: columns.index(rules.board.cell_column[i]) for i, name in enumerate(rules.board.cells)},
        "row": {name: rules.board.cell_floor[i] for i, name in enumerate(rules.board.cells)},
        "t": {key: text(key, lang) for key in LABELS},
    }
    names = seat_names(data)
    seats = ", ".join(f"{names[p] if p < len(names) else '?'} {score}" for p, score in enumerate(result.scores()))
    title = text("replay.title", lang, seats=seats, seed=state.seed)  # who played and scored what, as people name a game
    buttons = {name: escape(text(f"replay.{name}", lang)) for name in ("previous", "next", "play", "round_menu", "log")}
    return PAGE.format(
        title=escape(title),
        csp=escape(CSP),
        columns=len(columns),
        data=script_json(game),
        script=SCRIPT,
        lang=lang,
        extra=extra_html,
        **buttons,
    )


def seat_names(data: Any) -> tuple[str, ...]:
    """Each seat as the page names it: the person's name the record gives (`names`, the browser
    table's), else the seat's bot (or `person`, `human`). Text only: the page escapes it."""
    bots = data.get("bots") if isinstance(data, dict) else None
    names = data.get("names") if isinstance(data, dict) else None
    seats = [str(b) for b in bots] if isinstance(bots, list) else []
    given = names if isinstance(names, list) and len(names) == len(seats) else [None] * len(seats)
    return tuple(str(n) if isinstance(n, str) and n else b for b, n in zip(seats, given))


def _player_names(bots: tuple[str, ...], n: int, lang: str) -> list[str]:
    """Each seat as the log names it: "player 0 (greedy)" in `lang`."""
    return [text("replay.player", lang, seat=p, bot=bots[p] if p < len(bots) else "?") for p in range(n)]


# Characters that could end the script element, start an HTML comment or a character
# reference, or end a JavaScript line, written as JSON escapes (the value is unchanged).
_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def script_json(value: object) -> str:
    """JSON safe to embed in a <script> element: no string in it (a bot named `<!--<script>`,
    a card named `</script>`) can end the element or change how the page parses."""
    text = json.dumps(value, ensure_ascii=False)
    return "".join(_JSON_ESCAPES.get(c, c) for c in text)


def script_hash(script: str) -> str:
    """The CSP source that allows exactly this inline script (sha256 of its text, base64)."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii") + "'"


# Nothing from the network; inline styles (the grid positions) but no script except the page's own.
CSP = f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src {script_hash(SCRIPT)}"
