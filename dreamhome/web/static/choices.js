// The table's choices (issue 33, "the end game on the board"): an action is built up click by
// click on the board — the card it is made with (a held tool or helper), then its targets: a
// track column, a cell of the house (two for a swap), a card of a discard pile, and Face down
// where both faces are allowed — and made as soon as the clicks so far leave one action. The
// partial selection (`sel`) is said above the list and can be cancelled (Cancel, Escape, or a
// click on a chosen target again). "Your choices" lists the actions that fit the selection, and
// never more than MAX_CHOICES buttons: beyond that they are grouped by the next thing to pick
// (the card, a cell, a pile's card, a column), each group a button that picks it.
//
// The hint works on the server for seconds in the end game: while it works its button is
// disabled and says so, and the board stays live (a click meanwhile is made, and the hint, now
// for an earlier position, is dropped). A click while the page is still sending the last one is
// refused with a word (`run` in table.js).
//
// Loaded before table.js (both deferred); the functions of each are called by the other only
// once the page is drawn.
"use strict";

const MAX_CHOICES = 40;
const FACETS = ["card", "cells", "pile", "columns"]; // the order a long list is grouped in
let sel = null; // {card, cells: [], columns: [], pile}: the selection so far, null for none
let faceDown = false; // the Face down control, for the next target click
let listPage = 0; // the page of a list no grouping makes short enough
let thinking = null; // {controller, version}: the hint being worked on
let sayTimer = null;

function emptySel() { return { card: null, cells: [], columns: [], pile: null }; }

function isEmptySel(s) { return !s || (s.card === null && !s.cells.length && !s.columns.length && s.pile === null); }

// A new position (a new version of the game): the selection, Face down and the hint at work are for the old one.
function newPosition() {
  sel = null;
  faceDown = false;
  listPage = 0;
  if (thinking) thinking.controller.abort();
}

function fits(a, s) {
  if (!s) return true;
  if (s.card !== null && a.card !== s.card) return false;
  if (s.pile !== null && a.pile !== s.pile) return false;
  return s.cells.every((c) => a.cells.includes(c)) && s.columns.every((c) => a.columns.includes(c));
}

// The choices "Your choices" lists: every legal action that fits the selection.
function fitting() { return view ? view.legal.filter((a) => fits(a, sel)) : []; }

// The actions the board offers for selection `s`: those of the card chosen, or without a card
// chosen those made with no card held (a held card's uses start with a click on the card; a
// card being placed, as the scaffolding just taken (TOOL-SCAFFOLDING, PLACE-SCAFFOLD), is in no
// hand to click: its targets are on the board at once).
function boardOf(s) {
  if (!view) return [];
  return view.legal.filter((a) => fits(a, s) && (s && s.card !== null ? true : !a.card || !inHand(a.card)));
}

// Whether card `id` is among the tools and helpers of this page's house (a click on it chooses it).
function inHand(id) {
  const h = view && view.houses[houseSeat()];
  return Boolean(h) && (h.tool_ids || []).concat(h.helper_ids || []).includes(id);
}

// The cards this seat's legal actions are made with that no hand holds: being placed (the
// scaffolding just taken), shown with the room card under "Being placed".
function placedCards() {
  if (!view || !view.your_turn) return [];
  return Array.from(new Set(view.legal.map((a) => a.card).filter((id) => id && !inHand(id))));
}

// Of actions that may go either face, those of the face the Face down control says (face up
// unless pressed), when `pool` offers both.
function bothFaces(pool) {
  const faced = pool.filter((a) => typeof a.face_down === "boolean");
  return faced.some((a) => a.face_down) && faced.some((a) => !a.face_down);
}

function faced(actions, pool) {
  if (!bothFaces(pool || actions)) return actions;
  return actions.filter((a) => typeof a.face_down !== "boolean" || a.face_down === faceDown);
}

// The actions whose targets the board draws now.
function targets() { return faced(boardOf(sel)); }

function toggled(list, value) { return list.includes(value) ? list.filter((v) => v !== value) : list.concat([value]); }

// A click on a card, a cell, a column or a pile's card (on the board, or a group of the list):
// added to the selection (taken out if it was in it); made at once when it leaves one action.
function pick(kind, value, node, group) {
  if (!view || !view.your_turn) return;
  const base = sel || emptySel();
  let next;
  let added = true;
  if (kind === "card") {
    added = false; // a card's click never acts: its uses are its targets
    next = base.card === value && !group ? null : { ...emptySel(), card: value };
  } else {
    next = { card: base.card, cells: base.cells, columns: base.columns, pile: base.pile };
    if (kind === "cell") { added = !base.cells.includes(value); next.cells = toggled(base.cells, value); }
    if (kind === "column") { added = !base.columns.includes(value); next.columns = toggled(base.columns, value); }
    if (kind === "pile") { added = base.pile !== value; next.pile = added ? value : null; }
    const cards = new Set((group || []).map((a) => a.card));
    if (group && next.card === null && cards.size === 1 && !cards.has(null)) next.card = [...cards][0];
  }
  if (isEmptySel(next)) next = null;
  const left = faced(group ? view.legal.filter((a) => fits(a, next)) : boardOf(next), boardOf(next));
  if (added && left.length === 1) { act(left[0].index); return; }
  sel = next;
  listPage = 0;
  drawChoices();
  refocus(kind, value, node, group);
}

// After a pick that left several actions: the same target again (keyboard users go on from
// it), or the first choice of the list when the board offers nothing more to pick.
function refocus(kind, value, node, group) {
  const more = targets().some((a) => a.cells.some((c) => !sel || !sel.cells.includes(c)) ||
    a.columns.some((c) => !sel || !sel.columns.includes(c)) || (a.pile && (!sel || sel.pile !== a.pile)));
  const selector = {
    card: '#my-house .held-card[data-card="' + value + '"]',
    cell: '#my-house .cell[data-cell="' + value + '"]',
    column: '#track .column[data-column="' + value + '"]',
    pile: '#piles-box .pile-card[data-pile="' + value + '"]',
  }[kind];
  const again = node && !group && (kind === "card" || more) ? document.querySelector(selector) : null;
  const first = byId("choices").querySelector("button.choice");
  const target = again || first;
  if (target) { target.focus(); hideTip(); } // its explanation would hide the next targets
}

function cancelSelection() {
  if (!sel) return;
  sel = null;
  listPage = 0;
  drawChoices();
  const back = document.querySelector("#my-house .held-card.legal") || byId("choices").querySelector("button.choice");
  if (back) back.focus();
}

// What the selection holds so far, in words (the card · a column · cells · the pile's card).
function selectionWords() {
  if (!sel) return "";
  const words = [];
  if (sel.card) words.push(cardName(sel.card));
  for (const c of sel.columns) words.push(t("table.column", { column: c }));
  words.push(...sel.cells);
  if (sel.pile) words.push(pileText(sel.pile));
  return words.join(" · ");
}

function cardName(id) { return rules && rules.cards[id] ? rules.cards[id].name : id; }

function pileText(key) {
  const piles = (view && view.piles) || { room: [], roof: [] };
  const card = piles.room.concat(piles.roof).find((c) => c.key === key);
  return card ? card.text : key;
}

// ---- the list: the fitting choices, grouped when there are more than MAX_CHOICES ----------------
function facetValues(a, facet) {
  if (facet === "card") return a.card ? [a.card] : [];
  if (facet === "pile") return a.pile ? [a.pile] : [];
  const chosen = sel ? (facet === "cells" ? sel.cells : sel.columns) : [];
  return a[facet].filter((v) => !chosen.includes(v));
}

// The list's entries by the first facet that splits `actions` into at most MAX_CHOICES: a group
// of several actions per value (a button that picks the value), an action alone as itself.
// Null when no facet does (the list then goes by pages).
function grouped(actions) {
  for (const facet of FACETS) {
    const groups = new Map();
    const loose = [];
    for (const a of actions) {
      const values = facetValues(a, facet);
      if (!values.length) loose.push(a);
      for (const v of values) { if (!groups.has(v)) groups.set(v, []); groups.get(v).push(a); }
    }
    if (groups.size < 2 && !(groups.size === 1 && loose.length)) continue; // nothing to narrow by
    const entries = [];
    const seen = new Set();
    const alone = (a) => { if (!seen.has(a.index)) { seen.add(a.index); entries.push({ action: a }); } };
    for (const [value, acts] of groups) {
      if (acts.length === 1) alone(acts[0]); else entries.push({ facet, value, actions: acts });
    }
    loose.forEach(alone);
    if (entries.length <= MAX_CHOICES) return entries;
  }
  return null;
}

function groupLabel(entry) {
  const what = entry.facet === "card" ? cardName(entry.value)
    : entry.facet === "pile" ? pileText(entry.value)
    : entry.facet === "columns" ? t("table.column", { column: entry.value }) : entry.value;
  return t("table.group", { what, count: entry.actions.length });
}

function drawChoiceList() {
  const list = byId("choices");
  list.textContent = "";
  const shown = fitting();
  let entries = shown.length <= MAX_CHOICES ? shown.map((a) => ({ action: a })) : grouped(shown);
  let more = null;
  if (entries === null) { // pages of MAX_CHOICES - 1 and a button to the next
    const size = MAX_CHOICES - 1;
    const pages = Math.ceil(shown.length / size);
    listPage = listPage % pages;
    entries = shown.slice(listPage * size, (listPage + 1) * size).map((a) => ({ action: a }));
    more = t("table.more_choices", { from: listPage * size + 1, to: listPage * size + entries.length, count: shown.length });
  }
  const picks = hint ? new Map(hint.options.map((o) => [o.index, o])) : null;
  for (const entry of entries) list.append(choiceItem(entry, picks));
  if (more) {
    const li = el("li", { class: "more" });
    const b = el("button", { type: "button", class: "choice more" }, more);
    b.addEventListener("click", () => { listPage += 1; drawChoices(); const f = byId("choices").querySelector("button.choice"); if (f) f.focus(); });
    li.append(b);
    list.append(li);
  }
  const note = byId("choices-note");
  note.hidden = shown.length <= MAX_CHOICES;
  note.textContent = note.hidden ? "" : t("table.choices_grouped", { count: shown.length });
}

function choiceItem(entry, picks) {
  const a = entry.action;
  const li = el("li", a ? { "data-index": a.index } : { class: "group", "data-facet": entry.facet });
  let b;
  if (a) {
    b = el("button", { type: "button", class: "choice action", "data-index": a.index, "data-type": a.type }, a.text);
    b.addEventListener("click", () => act(a.index));
  } else {
    const kind = { card: "card", cells: "cell", pile: "pile", columns: "column" }[entry.facet];
    b = el("button", { type: "button", class: "choice group", "data-facet": entry.facet, "data-value": entry.value }, groupLabel(entry));
    b.addEventListener("click", () => pick(kind, entry.value, null, entry.actions));
  }
  li.append(b);
  if (picks) {
    const acts = a ? [a] : entry.actions;
    let best = null; // a group shows its best option's value
    for (const x of acts) {
      const o = picks.get(x.index);
      if (o && (best === null || (o.bound !== null && (best.bound === null || o.bound > best.bound)))) best = o;
    }
    if (best) li.append(el("span", { class: "bound" + (best.proven ? "" : " unproven") }, boundText(best)));
    if (acts.some((x) => x.index === hint.pick)) li.classList.add("pick");
  }
  return li;
}

function boundText(o) {
  if (o.bound === null || o.bound === undefined) return "?";
  // a margin over the others' mean (the discard) is signed: +2 ahead of them, −2 behind
  const signed = o.measure === "margin" ? (o.bound > 0 ? "+" : o.bound < 0 ? "−" : "") + Math.abs(o.bound) : String(o.bound);
  return (o.proven ? "" : "≥") + signed;
}

// ---- everything the choices decide: the list, the board's targets, the piles, Face down, the hint
function drawChoices() {
  const watching = mySeat() === null;
  byId("watching").hidden = !watching;
  byId("hint-button").hidden = !view.your_turn;
  drawChoiceList();
  byId("filter-note").hidden = !sel;
  byId("chosen").textContent = sel ? t("table.chosen", { what: selectionWords() }) : "";
  const none = byId("no-choices");
  none.hidden = view.legal.length > 0 || watching;
  none.textContent = view.terminal ? t("table.over_note") : t("table.no_choices");
  const pickBox = byId("hint-pick");
  pickBox.textContent = "";
  if (hint && hint.pick !== null && hint.pick !== undefined) {
    const o = hint.options.find((x) => x.index === hint.pick);
    const value = o ? boundText(o) : hint.pick_text || "?"; // the pick's own value, signed as its option's
    const choice = o && o.text ? o.text : "?"; // the pick named as its choice in the list says it
    pickBox.append(el("span", { class: "pick-mark" }, t("table.pick_value", { choice, value })));
    if (hint.measure === "margin") pickBox.append(el("span", { class: "measure" }, " " + t("table.margin_note")));
    if (hint.reason) pickBox.append(el("span", { class: "reason" }, " " + t("table.pick_reason", { reason: hint.reason })));
  }
  // the board shows the targets of the selection (a held card's, once it is clicked)
  drawTrack(view);
  drawHouse(byId("my-house"), view, view.houses[houseSeat()], mySeat() !== null);
  drawPiles(view);
  drawPlaceTools();
  drawThinking();
  markHintPick();
}

// ---- the discard piles, drawn as cards in the end game (END-SUPPLIER, END-ROOFER) -------------
function drawPiles(v) {
  const endgame = v.phase === "end" || Boolean(v.terminal);
  byId("piles-box").hidden = !endgame || !v.piles;
  byId("track-box").hidden = endgame && Boolean(v.piles);
  if (!endgame || !v.piles) return;
  const shown = mySeat() === null ? [] : targets();
  for (const kind of ["room", "roof"]) {
    const list = byId(kind + "-pile");
    list.textContent = "";
    for (const c of v.piles[kind]) list.append(pileCard(c, shown));
    if (!v.piles[kind].length) list.append(el("li", { class: "note" }, "—"));
  }
}

function pileCard(c, shown) {
  const li = el("li");
  const chosen = Boolean(sel) && sel.pile === c.key;
  const usable = chosen || shown.some((a) => a.pile === c.key);
  const b = el("button", { type: "button", class: "pile-card", "data-pile": c.key, "data-card": c.id });
  b.append(el("span", { class: "sr-only" }, t("table.pile_card", { card: c.text, count: c.count }) + " — "));
  b.append(cardFace(c.id, c.window ? "▣" : ""));
  b.append(el("span", { class: "count", "aria-hidden": "true" }, "×" + c.count));
  if (usable) {
    b.classList.add("legal");
    if (chosen) b.classList.add("chosen");
    b.setAttribute("aria-pressed", String(chosen));
    b.addEventListener("click", () => pick("pile", c.key, b));
  } else {
    b.setAttribute("aria-disabled", "true");
    b.tabIndex = -1;
  }
  explains(b, c.id);
  li.append(b);
  return li;
}

// ---- Face down: before the click that makes a placement (or a swap from the pile) -------------
function drawPlaceTools() {
  const pool = view.your_turn ? boardOf(sel) : [];
  const offered = bothFaces(pool);
  if (!offered) faceDown = false;
  byId("place-tools").hidden = !offered;
  byId("face-down").setAttribute("aria-pressed", String(faceDown));
  const note = byId("face-down-note");
  const key = view.phase === "end" ? "table.face_down_note_end" : "table.face_down_note";
  note.setAttribute("data-i18n", key);
  note.textContent = t(key);
  note.hidden = !faceDown;
  byId("refusal").textContent = "";
}

function toggleFaceDown() {
  faceDown = !faceDown;
  drawChoices(); // the targets a click makes, for the face now chosen
  byId("face-down").focus();
}

// A cell the placement may not take says why (the engine's rule, `refusals` in the view).
function refusable(node, name) {
  const reason = view && view.refusals ? view.refusals[name] : null;
  if (!reason) return;
  node.classList.add("refused");
  node.title = reason;
  node.addEventListener("click", () => { byId("refusal").textContent = view.refusals[name] || ""; }); // a live region
}

// ---- the hint: its pick framed on the board, its work shown while it lasts ---------------------
function markHintPick() {
  const explain = byId("hint-explain");
  explain.textContent = hint && hint.explain ? hint.explain : "";
  explain.hidden = !explain.textContent;
  const toggle = byId("face-down"); // drawn once: its mark of an earlier hint goes first
  toggle.classList.remove("hint-pick");
  for (const said of toggle.querySelectorAll(".hint-said")) said.remove();
  if (!hint || hint.pick === null || hint.pick === undefined) return;
  const a = view.legal.find((x) => x.index === hint.pick);
  if (!a) return;
  const nodes = a.columns.map((c) => document.querySelector('#track .column[data-column="' + c + '"]'))
    .concat(a.cells.map((c) => document.querySelector('#my-house .cell[data-cell="' + c + '"]')))
    .concat(a.card ? [document.querySelector('#my-house .held-card[data-card="' + a.card + '"]')] : [])
    .concat(a.pile ? [document.querySelector('#piles-box .pile-card[data-pile="' + a.pile + '"]')] : [])
    .concat(a.face_down ? [toggle] : []);
  for (const node of nodes) {
    if (!node) continue;
    node.classList.add("hint-pick");
    node.append(el("span", { class: "sr-only hint-said" }, " — " + t("table.hint_here")));
  }
}

function drawThinking() {
  const button = byId("hint-button");
  button.disabled = Boolean(thinking);
  button.setAttribute("aria-busy", String(Boolean(thinking)));
  const status = byId("hint-status");
  status.textContent = thinking ? t("table.thinking") : "";
  status.classList.toggle("thinking", Boolean(thinking));
}

async function askHint() {
  if (!view) return;
  if (thinking) { say(t("table.hint_wait")); return; }
  const asked = view.version;
  const controller = new AbortController();
  thinking = { controller, version: asked };
  drawThinking();
  showError("");
  const body = seat ? { seat: seat.seat, key: seat.key } : {};
  try {
    let h;
    try {
      h = await api("POST", "/api/games/" + view.id + "/hint", body, controller.signal);
    } catch (e) {
      if (e.status !== 405) throw e;
      h = await api("GET", "/api/games/" + view.id + "/hint", undefined, controller.signal); // an older server
    }
    if (view && view.version === asked) { thinking = null; hint = h; drawChoices(); }
  } catch (e) {
    if (e.name !== "AbortError") showError(e.message);
  } finally {
    if (thinking && thinking.controller === controller) thinking = null;
    drawThinking();
  }
}

// A short word in the status line (a live region), gone after a few seconds.
function say(message) {
  const box = byId("status");
  box.textContent = message;
  clearTimeout(sayTimer);
  sayTimer = setTimeout(() => { box.textContent = ""; }, 4000);
}
