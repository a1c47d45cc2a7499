// The Dream Home table: talks to the JSON API of `dreamhome serve` (docs/table.md), draws what it
// answers. Every text from the server goes in through textContent; only the best house's SVG
// (made and escaped by dreamhome/render/house_svg.py) goes in as markup. Every word the page
// shows comes from the server in the chosen language: the labels (`texts`, the catalogue's
// table.* entries, from /api/options), the cards' explanations and "How to play" (/api/rules,
// made from the ruleset the game plays), and everything in a view.
//
// Seats: a seat's link is /games/ID#seat=N&key=SECRET. The secret stays in the fragment (never
// sent in a URL) and goes to the server only in the X-Seat-Key header or a JSON body; a page
// opened without one is a watch page. Live: the page listens to /api/games/ID/events
// (Server-Sent Events) and fetches the view again when its version changes.
"use strict";

const LANG_KEY = "dreamhome.lang";
const SEATS_KEY = "dreamhome.seats"; // {gameId: [{seat, url}], ...}: the links this browser made
let view = null;
let busy = false;
let lang = null;
let texts = {};
let options = null;
let rules = null; // /api/rules for the game's variant and players, in `lang`
let rulesKey = "";
let seat = null; // {seat, key} of this page, null on a watch page
let hint = null; // the last hint, for the version it was asked at
let stream = null;
let refetching = false;
let redrawFront = null;

// ---- small tools --------------------------------------------------------------
function t(key, args) {
  let s = texts[key] !== undefined ? texts[key] : key;
  for (const [k, v] of Object.entries(args || {})) s = s.split("{" + k + "}").join(String(v));
  return s;
}

// An empty space's label ("basement/3"): on a phone it may wrap only after its "/", never inside
// a word, so "basement/" and "3" stay whole (issue 33, item 10).
function cellLabel(text) {
  const node = el("span", { class: "face c-empty" });
  text.split("/").forEach((part, i, parts) => {
    node.append(part + (i < parts.length - 1 ? "/" : ""));
    if (i < parts.length - 1) node.append(document.createElement("wbr"));
  });
  return node;
}

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "style") { // through the CSSOM: the CSP refuses style attributes
      for (const rule of String(v).split(";")) {
        const [name, value] = rule.split(":");
        if (name && value) node.style.setProperty(name.trim(), value.trim());
      }
    } else node.setAttribute(k, v === true ? "" : v);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

function byId(id) { return document.getElementById(id); }

function withLang(path) {
  if (!lang || /[?&]lang=/.test(path)) return path;
  return path + (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(lang);
}

function stored(key, fallback) {
  try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch (e) { return fallback; }
}

function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode: this page only */ }
}

function showError(message) {
  const box = byId("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function api(method, path, body, signal) {
  const init = { method, headers: {}, signal };
  if (seat && method === "GET") {
    init.headers["X-Seat"] = String(seat.seat);
    init.headers["X-Seat-Key"] = seat.key;
  }
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await reach(withLang(path), init);
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: "the server answered " + response.status }; }
  if (!response.ok) {
    const err = new Error((data && data.error) || ("the server answered " + response.status));
    err.status = response.status;
    throw err;
  }
  return data;
}

// fetch, its network failure ("Failed to fetch": the server is gone) said in the page's language.
async function reach(url, init) {
  try { return await fetch(url, init); } catch (e) { if (e.name === "AbortError") throw e; throw new Error(texts["table.unreachable"] !== undefined ? t("table.unreachable") : e.message); }
}

async function run(work) {
  if (busy) { say(t("table.still_sending")); return; } // a click while the last one is on its way: said, not lost silently
  busy = true;
  document.body.classList.add("busy");
  showError("");
  try { await work(); } catch (e) { showError(e.message); } finally {
    busy = false;
    document.body.classList.remove("busy");
    maybeRefresh();
  }
}

// ---- language -------------------------------------------------------------------
async function loadTexts(wanted) {
  const path = "/api/options" + (wanted ? "?lang=" + encodeURIComponent(wanted) : "");
  try { options = await api("GET", path); } catch (e) { options = await api("GET", "/api/options"); }
  lang = options.lang;
  texts = options.texts;
  document.documentElement.setAttribute("lang", lang);
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.getAttribute("data-i18n"));
  // The regions' names follow the page's language ("Track", "Your house", … in English).
  byId("track-box").setAttribute("aria-label", t("table.track"));
  byId("piles-box").setAttribute("aria-label", t("table.discard_piles"));
  byId("house-box").setAttribute("aria-label", t("table.your_house"));
  byId("choices-box").setAttribute("aria-label", t("table.your_choices"));
  byId("final").setAttribute("aria-label", t("table.final_scores"));
  byId("scoreboard").setAttribute("aria-label", t("table.scoreboard"));
  byId("lang").setAttribute("aria-label", t("table.language"));  // its visible label is hidden on a phone
  const select = byId("lang");
  if (!select.options.length) {
    for (const l of options.languages) select.append(el("option", { value: l.code }, l.name));
  }
  select.value = lang;
}

async function switchLang(wanted) {
  try { localStorage.setItem(LANG_KEY, wanted); } catch (e) { /* private mode: this page only */ }
  await run(async () => {
    await loadTexts(wanted);
    if (redrawFront) redrawFront();
    if (view) await refresh();
  });
}

// ---- the rules at hand -------------------------------------------------------------
async function loadRules(variant, players) {
  const key = [variant, players, lang].join("|");
  if (rules && key === rulesKey) return rules;
  rules = await api("GET", "/api/rules?variant=" + encodeURIComponent(variant || "") + "&players=" + players);
  rulesKey = key;
  drawHowTo();
  return rules;
}

function drawHowTo() {
  const body = byId("howto-body");
  body.textContent = "";
  if (!rules) return;
  for (const section of rules.how_to_play) {
    body.append(el("h3", {}, section.title));
    for (const p of section.paragraphs) body.append(el("p", {}, p));
  }
}

function toggleHowTo(open) {
  const box = byId("howto");
  box.hidden = open === undefined ? !box.hidden : !open;
  byId("howto-button").setAttribute("aria-expanded", String(!box.hidden));
  if (!box.hidden) {  // opened at its top: the close button is focused without scrolling to it
    byId("howto-close").focus({ preventScroll: true });
    box.scrollTop = 0;
  }
}

// The explanation of a card, shown beside `anchor` (hover, keyboard focus or a tap on "i").
let tipFor = null;
function showTip(anchor, cardId) {
  const card = rules && rules.cards[cardId];
  if (!card) return;
  const tip = byId("tip");
  tip.textContent = "";
  tip.append(el("strong", {}, card.name + (card.category_text ? " · " + card.category_text : "")));
  const list = el("ul");
  for (const line of card.lines) list.append(el("li", {}, line));
  tip.append(list);
  tip.hidden = false;
  const r = anchor.getBoundingClientRect();
  const width = Math.min(320, window.innerWidth - 16);
  tip.style.width = width + "px";
  tip.style.left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + window.innerWidth - width - 8)) + "px";
  tip.style.top = (r.bottom + window.scrollY + 6) + "px";
  if (tipFor && tipFor !== anchor) tipFor.removeAttribute("aria-describedby");
  anchor.setAttribute("aria-describedby", "tip");
  tipFor = anchor;
}

function hideTip() {
  byId("tip").hidden = true;
  if (tipFor) tipFor.removeAttribute("aria-describedby");
  tipFor = null;
}

// A card as a card: its colour, its name, its points. `cardId` names it in /api/rules.
function cardFace(cardId, extra) {
  const card = rules && rules.cards[cardId];
  const face = el("span", { class: "face " + (card ? "k-" + card.kind + " c-" + (card.category || "none") : "") });
  if (card) face.style.setProperty("--card", card.colour);
  if (card && card.kind === "roof") face.append(el("span", { class: "roof-shape", "aria-hidden": "true" }));
  face.append(el("span", { class: "name" }, card ? card.name : cardId));
  if (card && card.points.length) face.append(el("span", { class: "pts" }, card.points.join("/")));
  if (extra) {
    const note = el("span", { class: "extra" });
    const [mark, ...rest] = extra.split(" ");
    note.append(el("span", { class: "mark" }, mark));
    if (rest.length) note.append(el("span", { class: "extra-name" }, " " + rest.join(" "))); // a token's name (hidden on a phone)
    face.append(note);
  }
  return face;
}

// Hover and focus explain the card; the "i" button explains it on a tap or Enter.
function explains(node, cardId) {
  node.setAttribute("data-card", cardId);
  node.addEventListener("mouseenter", () => showTip(node, cardId));
  node.addEventListener("mouseleave", hideTip);
  node.addEventListener("focus", () => showTip(node, cardId));
  node.addEventListener("blur", hideTip);
}

function infoButton(cardId) {
  const card = rules && rules.cards[cardId];
  const name = card ? card.name : cardId;
  const b = el("button", { type: "button", class: "info", "aria-label": t("table.card_about", { name }), "data-card": cardId }, "i");
  b.addEventListener("click", (ev) => {
    ev.stopPropagation();
    if (tipFor === b) hideTip(); else showTip(b, cardId);
  });
  b.addEventListener("blur", hideTip);
  return b;
}

// ---- the front page -------------------------------------------------------------
function seatLinks() { return stored(SEATS_KEY, {}); }

async function setupFront() {
  byId("front").hidden = false;
  const players = byId("players");
  const variant = byId("variant");
  for (const [name, title] of Object.entries(options.variants)) variant.append(el("option", { value: name }, name + " — " + title));
  const drawPlayers = () => {
    const [low, high] = (options.variant_players || {})[variant.value] || options.players;
    const was = Number(players.value || 3);
    players.textContent = "";
    for (let n = low; n <= high; n++) players.append(el("option", { value: n }, String(n)));
    players.value = String(Math.min(Math.max(was, low), high));
  };
  const seats = byId("seats");
  const drawSeats = () => {
    const chosen = Array.from(seats.querySelectorAll("select")).map((s) => s.value);
    seats.textContent = "";
    for (let s = 0; s < Number(players.value); s++) {
      const select = el("select", { class: "seat-kind", "data-seat": s, id: "seat-" + s });
      const kinds = ["person"].concat(options.bots);
      const want = chosen[s] || (s === 0 ? "person" : "easy"); // a bot seat starts at the newcomer's level
      for (const b of kinds) {
        const key = b === "person" ? "table.person" : "table.level." + b; // a level has a label; other bots go by name
        const opt = el("option", { value: b }, texts[key] !== undefined ? t(key) : b);
        if (b === want) opt.selected = true;
        select.append(opt);
      }
      const label = el("label", { for: "seat-" + s }, t("table.seat", { seat: s }) + " ");
      const wrap = el("span", { class: "seat-choice" });
      wrap.append(label, select);
      nameField(wrap, select, s);
      seats.append(wrap);
    }
  };
  redrawFront = () => { drawSeats(); drawGames(); };
  drawPlayers();
  drawSeats();
  players.addEventListener("change", drawSeats);
  variant.addEventListener("change", () => { drawPlayers(); drawSeats(); });
  byId("start-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const body = {
      seats: Array.from(seats.querySelectorAll("select")).map((s) => s.value),
      variant: variant.value,
      lang,
    };
    const names = seatNames(seats);
    if (names.some((n) => n !== null)) body.names = names;
    const seed = byId("seed").value.trim(); // none: the server draws one nobody knows (SEE-1)
    if (seed !== "") body.seed = Number(seed);
    run(async () => {
      const made = await api("POST", "/api/games", body);
      const links = seatLinks();
      links[made.game] = made.seats.map((s) => ({ seat: s.seat, url: s.url }));
      links[made.game].watch = made.watch;
      store(SEATS_KEY, links);
      drawLinks(byId("link-list"), made.seats, made.watch, true);
      byId("links").hidden = false;
      byId("links").scrollIntoView({ block: "nearest" });
      await drawGames();
    });
  });
  await drawGames();
}

// A person's seat may carry a name (shown to every page, in the log and the record); a bot's
// seat has none: the field is there only while the seat is a person's.
function nameField(wrap, select, s) {
  const input = el("input", { type: "text", class: "seat-name", id: "seat-name-" + s, maxlength: "24", autocomplete: "off",
    "aria-label": t("table.seat_name", { seat: s }), placeholder: t("table.your_name") });
  const shown = () => { input.hidden = select.value !== "person"; };
  select.addEventListener("change", shown);
  shown();
  wrap.append(input);
}

function seatNames(seats) {
  return Array.from(seats.querySelectorAll("select")).map((select, s) => {
    const input = byId("seat-name-" + s);
    const name = input && select.value === "person" ? input.value.trim() : "";
    return name || null;
  });
}

function copyButton(text) {
  const b = el("button", { type: "button", class: "copy" }, t("table.copy"));
  b.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(text); b.textContent = t("table.copied"); } catch (e) { /* no clipboard: the link is shown */ }
  });
  return b;
}

function drawLinks(list, seats, watch, open) {
  list.textContent = "";
  seats.forEach((s, k) => {
    const li = el("li", { "data-seat": s.seat });
    li.append(el("span", { class: "who" }, t("table.seat_link", { seat: s.seat }) + ": "));
    li.append(el("input", { type: "text", readonly: true, value: s.url, "aria-label": t("table.seat_link", { seat: s.seat }), class: "link" }));
    li.append(copyButton(s.url));
    if (open && k === 0) li.append(el("a", { href: s.url, class: "open-seat" }, t("table.open")));
    list.append(li);
  });
  if (watch) {
    const li = el("li", { class: "watch" });
    li.append(el("span", { class: "who" }, t("table.watch_link") + ": "));
    li.append(el("input", { type: "text", readonly: true, value: watch, "aria-label": t("table.watch_link"), class: "link" }));
    li.append(copyButton(watch));
    list.append(li);
  }
}

// A seat of the front page's list as people know it: its person's name, else "Seat N".
function seatWord(g, seat) {
  const s = g.seats[seat];
  return s && s.name ? s.name : t("table.seat_link", { seat });
}

async function drawGames() {
  const body = byId("games").querySelector("tbody");
  let listing = { games: [] };
  try { listing = await api("GET", "/api/games"); } catch (e) { /* an older server lists no games */ }
  body.textContent = "";
  for (const g of listing.games) {
    const tr = el("tr", { "data-game": g.game });
    const kinds = g.seats.map((s) => s.name || (s.kind === "person" ? t("table.person") : s.kind)).join(", ");
    tr.append(el("td", {}, kinds + (g.variant ? " · " + g.variant : "")));
    const state = g.over ? t("table.game_over") : t("table.round_of", { round: g.round, rounds: g.rounds }) +
      (g.to_move !== null && g.to_move !== undefined ? " · " + t("table.to_move", { name: seatWord(g, g.to_move) }) : "");
    tr.append(el("td", {}, state));
    const cell = el("td");
    cell.append(el("a", { href: g.watch }, t("table.watch")));
    tr.append(cell);
    body.append(tr);
  }
  byId("no-games").hidden = listing.games.length > 0;
  const mine = byId("my-seats");
  mine.textContent = "";
  for (const [game, links] of Object.entries(seatLinks())) {
    for (const s of links) {
      const li = el("li");
      li.append(el("a", { href: s.url }, game.slice(0, 8) + " · " + t("table.seat_link", { seat: s.seat })));
      mine.append(li);
    }
  }
  byId("my-seats-title").hidden = !mine.children.length;
}

// ---- the game page ---------------------------------------------------------------
function gameIdFromPath() {
  const m = location.pathname.match(/^\/games\/([A-Za-z0-9_-]{22})$/);
  return m ? m[1] : null;
}

function seatFromFragment() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const n = params.get("seat"), key = params.get("key");
  if (n === null || key === null || !/^\d+$/.test(n)) return null;
  return { seat: Number(n), key };
}

async function refresh() {
  const v = await api("GET", "/api/games/" + view.id);
  await draw(v);
}

// A new version announced by the stream: fetch the view once, however many messages come,
// and again after it if a newer one came meanwhile (or while the page was busy acting).
let latest = -1;
function maybeRefresh() {
  if (!view || busy || refetching || latest <= view.version) return;
  refetching = true;
  refresh().catch((e) => showError(e.message)).finally(() => { refetching = false; maybeRefresh(); });
}

function listen(id) {
  if (typeof EventSource === "undefined") return;
  stream = new EventSource("/api/games/" + id + "/events");
  const live = byId("live");
  live.hidden = false;
  stream.onopen = () => { live.textContent = "● " + t("table.live_on"); live.className = "on"; };
  stream.onerror = () => { live.textContent = "○ " + t("table.live_off"); live.className = "off"; };
  stream.onmessage = (ev) => {
    let data = null;
    try { data = JSON.parse(ev.data); } catch (e) { return; }
    if (typeof data.version === "number") latest = Math.max(latest, data.version);
    maybeRefresh();
  };
}

function act(index) {
  return run(async () => {
    const body = { index, version: view.version };
    if (seat) { body.seat = seat.seat; body.key = seat.key; }
    const v = await api("POST", "/api/games/" + view.id + "/act", body);
    sel = null;
    await draw(v);
  });
}

// Undo (issue 33): the seat's latest decision taken back while no other player has acted since;
// the button is enabled exactly when the server says so (`undo` in the view).
function drawUndo(v) {
  const box = byId("undo-box");
  const button = byId("undo-button");
  box.hidden = mySeat() === null || !seat || v.terminal;
  button.disabled = !v.undo;
  button.title = t("table.undo_title");
}

function undoLast() {
  if (!view || !view.undo || !seat) return;
  return run(async () => {
    const v = await api("POST", "/api/games/" + view.id + "/undo", { seat: seat.seat, key: seat.key, version: view.version });
    sel = null;
    await draw(v);
  });
}

// A discard is no take: its columns and its choices are marked as such (table.css), and the
// column says "Discard" to a screen reader and on the card.
function markDiscard(box, matches) {
  if (!matches.length || !matches.every((a) => a.type === "DiscardColumn")) return;
  box.classList.add("discard");
  const num = box.querySelector(".colnum");
  if (num) num.append(" ", el("span", { class: "discard-mark" }, t("table.discard_column")));
}

// The end screen's Rematch: the same seats, names and variant, a new seed; each person gets
// the link of their own seat in it (by the key of their seat here), a watch page none.
function drawRematch(v) {
  const box = byId("rematch-box");
  const playing = Boolean(seat) && mySeat() !== null;
  box.hidden = !playing && !v.rematch;
  const button = byId("rematch-button");
  button.hidden = !playing;
  button.textContent = t(v.rematch ? "table.rematch_join" : "table.rematch");
  const note = byId("rematch-note");
  note.textContent = v.rematch ? t("table.rematch_started") + " " : "";
  if (v.rematch && !playing) note.append(el("a", { href: "/games/" + v.rematch }, t("table.rematch_watch"))); // a watch page: its watch link
}

function rematch() {
  if (!view || !seat) return;
  return run(async () => {
    const made = await api("POST", "/api/games/" + view.id + "/rematch", { seat: seat.seat, key: seat.key });
    const links = seatLinks();
    links[made.game] = [{ seat: made.seat, url: made.url }];
    links[made.game].watch = made.watch;
    store(SEATS_KEY, links);
    location.assign(made.url);
  });
}

async function draw(v) {
  if (!view || view.version !== v.version) newPosition(); // the old selection, Face down and hint mean nothing now
  view = v;
  byId("front").hidden = true;
  byId("table").hidden = false;
  byId("info").hidden = false;
  byId("scoreboard").hidden = false;
  byId("table").setAttribute("data-version", v.version);
  if (hint && hint.version !== v.version) hint = null;
  await loadRules(v.variant, v.players);
  hideTip();
  byId("round").textContent = v.round;
  byId("rounds").textContent = v.rounds;
  byId("phase").textContent = v.phase_text;
  const turn = v.terminal ? t("table.game_over") : v.your_turn ? t("table.your_turn") : t("table.to_act", { name: v.names[v.actor] });
  byId("turn").textContent = turn;
  byId("why").textContent = v.terminal ? "" : (rules.phases[v.phase] || "");
  // A watch page shows the first seat's house in the place of yours, named as that seat's.
  const houseName = mySeat() === null ? t("table.house_of", { name: v.names[0] }) : t("table.your_house");
  const houseTitle = byId("house-title");
  houseTitle.textContent = houseName;
  if (mySeat() === null) houseTitle.removeAttribute("data-i18n"); else houseTitle.setAttribute("data-i18n", "table.your_house");
  byId("house-box").setAttribute("aria-label", houseName);
  drawScoreboard(v);
  drawOthers(v);
  drawChoices();
  drawMoves(v);
  drawTitle(v);
  drawShare();
  drawUndo(v);
  if (v.terminal) drawFinal(v); else byId("final").hidden = true;
}

// The tab's title says when it is your turn (seen from another tab), and the game's state.
function drawTitle(v) {
  const title = document.querySelector("title");
  if (title) title.removeAttribute("data-i18n"); // said here on a game's page, not by the labels' pass
  const mark = v.terminal ? t("table.game_over") : v.your_turn ? "● " + t("table.your_turn") : null;
  document.title = (mark ? mark + " — " : "") + t("table.title");
}

// ---- the whole log ("Moves"): every event of the game, the latest decision highlighted ----------
// New lines are appended to the lines already shown (a screen reader's live region then says only
// them); a log that changed otherwise (another language, a move taken back) is drawn anew.
function drawMoves(v) {
  const log = byId("log");
  const moves = v.moves || (v.log || []).map((text) => ({ text, kind: "note", seat: null })); // an older server
  const shown = Array.from(log.children);
  const keeps = shown.length <= moves.length && shown.every((li, k) => li.getAttribute("data-text") === moves[k].text);
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
  if (!keeps) log.textContent = "";
  moves.slice(keeps ? shown.length : 0).forEach((m) => {
    const li = el("li", { class: "move " + m.kind, "data-text": m.text, "data-seat": m.seat }, m.text);
    log.append(li);
  });
  const since = v.log_since === undefined ? moves.length : v.log_since;
  Array.from(log.children).forEach((li, k) => {
    li.classList.toggle("new", k >= since && li.classList.contains("decision"));
    const latest = k === v.latest;
    li.classList.toggle("latest", latest);
    if (latest) li.setAttribute("aria-current", "true"); else li.removeAttribute("aria-current");
  });
  if (!keeps || atEnd || shown.length < moves.length) log.scrollTop = log.scrollHeight;
}

function mySeat() {
  if (!view) return null;
  if (view.you !== undefined) return view.you;
  return seat ? seat.seat : view.seat; // an older server: the one person's seat
}

function houseSeat() { const me = mySeat(); return me === null || me === undefined ? 0 : me; }

function drawScoreboard(v) {
  const board = byId("scoreboard");
  board.textContent = "";
  for (const h of v.houses) {
    const li = el("li", { class: "score" + (h.seat === mySeat() ? " me" : "") + (!v.terminal && h.seat === v.actor ? " moving" : ""), "data-seat": h.seat });
    if (h.seat === v.first) {
      li.append(el("span", { class: "marker", title: t("table.first_marker"), "aria-hidden": "true" }, "①"));
      li.append(el("span", { class: "sr-only" }, t("table.first_marker") + ": "));
    }
    li.append(el("span", { class: "who" }, v.names[h.seat]));
    li.append(el("span", { class: "points" }, String(h.score)));
    board.append(li);
  }
}

function drawTrack(v) {
  const track = byId("track");
  track.textContent = "";
  const shown = targets();
  for (const col of v.track) {
    const matches = shown.filter((a) => a.columns.includes(col.column));
    const chosen = Boolean(sel) && sel.columns.includes(col.column);
    const li = el("li", { class: "column-slot" });
    const res = col.resource_card;
    const label = t("table.column", { column: col.column }) + ": " + (col.room || "—") + " · " +
      (col.column === 0 && !res ? t("table.first_marker") : (col.resource || "—"));
    const box = el("button", { type: "button", class: "column", "data-column": col.column });
    box.append(el("span", { class: "sr-only" }, label + " — "));
    const top = el("span", { class: "slot-res" });
    if (res) top.append(cardFace(res.id, res.window ? "▣" : ""));
    else if (col.column === 0 && col.room_id) top.append(el("span", { class: "face marker-card" }, "① " + t("table.first_marker")));
    else top.append(el("span", { class: "face gone" }, "—"));
    const bottom = el("span", { class: "slot-room" });
    if (col.room_id) bottom.append(cardFace(col.room_id)); else bottom.append(el("span", { class: "face gone" }, "—"));
    box.append(el("span", { class: "colnum" }, String(col.column)), top, bottom);
    if (!col.room_id && !res) box.classList.add("taken");
    if (matches.length || chosen) {
      box.classList.add("legal");
      if (chosen) { box.classList.add("chosen"); box.setAttribute("aria-pressed", "true"); }
      box.addEventListener("click", () => pick("column", col.column, box));
    } else {
      box.setAttribute("aria-disabled", "true");
      box.tabIndex = -1;
    }
    markDiscard(box, matches);
    li.append(box);
    const infos = el("span", { class: "infos" });
    if (res) { explains(top, res.id); infos.append(infoButton(res.id)); }
    if (col.room_id) { explains(bottom, col.room_id); infos.append(infoButton(col.room_id)); }
    li.append(infos);
    track.append(li);
  }
  byId("piles").textContent =
    t("table.room_discard", { cards: v.room_discard.join(", ") || "—" }) + " · " +
    t("table.roof_discard", { cards: v.roof_discard.join(", ") || "—" });
}

// A house as a grid of spaces, floor by floor, laid on the rules' columns; `mine`: clickable.
function drawHouse(box, v, h, mine) {
  box.textContent = "";
  if (!h || !h.cells) return;
  const floors = rules.board.floors;
  const columns = Array.from(new Set(floors.flatMap((f) => f.columns))).sort((a, b) => a - b);
  const grid = el("div", { class: "house-grid", id: mine ? "house-" + h.seat : null, "data-seat": h.seat });
  grid.style.setProperty("--cols", columns.length);
  const shown = mine ? targets() : [];
  let k = 0;
  floors.forEach((floor, fi) => {
    grid.append(el("span", { class: "floor-name", style: "grid-row:" + (fi + 1) }, floor.label || floor.name));
    for (const c of floor.columns) {
      const cell = h.cells[k++];
      const row = "grid-row:" + (fi + 1) + ";grid-column:" + (columns.indexOf(c) + 2);
      const matches = shown.filter((a) => a.cells.includes(cell.cell));
      const chosen = mine && Boolean(sel) && sel.cells.includes(cell.cell);
      const tag = mine ? "button" : "span";
      const label = describeCell(cell);
      const node = el(tag, { class: "cell s-" + cell.state, "data-cell": cell.cell, style: row, title: mine ? null : label });
      if (mine) {
        node.type = "button";
        if (cell.state !== "empty") node.append(el("span", { class: "sr-only" }, label + " — "));
      }
      if (cell.state === "card") node.append(cardFace(cell.room, cell.token ? "● " + rules.cards[cell.token].name : ""));
      else if (cell.state === "face_down") node.append(el("span", { class: "face c-down" }, t("table.empty_room")));
      else if (cell.state === "scaffold") node.append(el("span", { class: "face c-scaffold" }, "▦"));
      else node.append(cellLabel(mine ? cell.cell : ""));
      if (cell.state === "card" && rules.cards[cell.room]) explains(node, cell.room);
      if (mine) {
        if (matches.length || chosen) {
          node.classList.add("legal");
          if (chosen) { node.classList.add("chosen"); node.setAttribute("aria-pressed", "true"); }
          node.addEventListener("click", () => pick("cell", cell.cell, node));
        } else {
          node.setAttribute("aria-disabled", "true");
          node.tabIndex = -1;
          refusable(node, cell.cell);
        }
      }
      grid.append(node);
    }
  });
  // Each room as one shape (its cards joined) with its score on its last card (SCORE-ROOMS).
  for (const room of h.rooms || []) {
    room.cells.forEach((name, k) => {
      const node = grid.querySelector('[data-cell="' + name + '"]');
      if (!node) return;
      if (room.cells.length > 1) node.classList.add(k === 0 ? "room-first" : k === room.cells.length - 1 ? "room-last" : "room-mid");
      if (k === room.cells.length - 1) node.append(el("span", { class: "room-score", "aria-hidden": "true" }, "+" + room.points));
    });
  }
  if (!mine) markPlaced(grid, h);
  // The roof pile sits under the floor the rules say, on its columns.
  const pile = rules.board.roof_pile;
  if (pile && h.roofs) {
    const fi = floors.findIndex((f) => f.name === pile.under) + 1;
    const first = columns.indexOf(pile.columns[0]) + 2;
    const roofs = el("span", { class: "roof-pile", style: "grid-row:" + (fi + 1) + ";grid-column:" + first + " / span " + pile.columns.length });
    roofs.append(el("span", { class: "pile-label" }, t("table.roofs", { count: h.roofs.length })));
    for (const r of h.roofs) {
      const roof = el("span", { class: "roof", "data-card": r.id });
      roof.style.setProperty("--card", rules.cards[r.id] ? rules.cards[r.id].colour : "#999");
      if (r.window) roof.classList.add("window");
      explains(roof, r.id);
      roofs.append(roof);
    }
    grid.append(roofs);
  }
  box.append(grid);
  // What the house holds: the cards of the column just taken (being placed), tools and
  // helpers (a click uses one), furnishings outside.
  const held = el("div", { class: "held" });
  const pending = v.pending && h.seat === v.actor && !v.terminal ? [v.pending.room, v.pending.resource && v.pending.resource.id].filter((x) => x) : [];
  if (mine) for (const id of placedCards()) if (!pending.includes(id)) pending.push(id); // the scaffolding to place
  if (pending.length) {
    held.append(el("span", { class: "held-label" }, t("table.pending") + ":"));
    for (const id of pending) {
      const s = el("span", { class: "held-card pending", tabindex: "0" });
      s.append(cardFace(id));
      explains(s, id);
      held.append(s);
    }
  }
  const cards = (h.tool_ids || []).concat(h.helper_ids || []).concat(h.outside_ids || []);
  if (cards.length) held.append(el("span", { class: "held-label" }, t("table.held") + ":"));
  for (const id of cards) {
    const usable = mine && view.legal.some((a) => a.card === id);
    if (mine) {
      const name = rules.cards[id] ? rules.cards[id].name : id;
      // Named by what it shows (its name and points), "Use …" said before it when it can act: an
      // aria-label of the name alone would hide the points a sighted user reads (WCAG 2.5.3).
      const b = el("button", { type: "button", class: "held-card" + (usable ? " legal" : "") + (sel && sel.card === id ? " chosen" : ""), "data-card": id, "aria-pressed": sel && sel.card === id ? "true" : "false" });
      if (usable) b.append(el("span", { class: "sr-only" }, t("table.use_card", { card: name }) + " — "));
      b.append(cardFace(id));
      if (usable) b.addEventListener("click", () => pick("card", id, b));
      else { b.setAttribute("aria-disabled", "true"); }
      explains(b, id);
      held.append(b);
    } else {
      const s = el("span", { class: "held-card" });
      s.append(cardFace(id));
      explains(s, id);
      held.append(s);
    }
  }
  box.append(held);
}

// The card a player placed last, marked on their house (and said to a screen reader).
function markPlaced(grid, h) {
  if (!h.last_placed) return;
  const node = grid.querySelector('[data-cell="' + h.last_placed + '"]');
  if (!node || node.classList.contains("s-empty")) return;
  node.classList.add("just-placed");
  node.append(el("span", { class: "placed-mark", "aria-hidden": "true" }, "★"));
  node.append(el("span", { class: "sr-only" }, " — " + t("table.just_placed")));
  if (node.title) node.title += " — " + t("table.just_placed");
}

function describeCell(cell) {
  if (cell.state === "card") {
    const name = rules.cards[cell.room] ? rules.cards[cell.room].name : cell.room;
    const token = cell.token && rules.cards[cell.token] ? " + " + rules.cards[cell.token].name : "";
    return t("table.cell", { cell: cell.cell, card: name + token });
  }
  if (cell.state === "face_down") return t("table.cell", { cell: cell.cell, card: t("table.empty_room") });
  if (cell.state === "scaffold") return t("table.cell", { cell: cell.cell, card: "▦" });
  return t("table.empty_cell", { cell: cell.cell });
}

function drawOthers(v) {
  const box = byId("others");
  box.textContent = "";
  const me = houseSeat();
  for (const h of v.houses) {
    if (h.seat === me) continue;
    const wrap = el("section", { class: "other", "data-seat": h.seat, "aria-label": t("table.house_of", { name: v.names[h.seat] }) });
    const title = el("h3", {}, v.names[h.seat] + " · " + h.score);
    if (h.seat === v.first) title.prepend(el("span", { class: "marker", title: t("table.first_marker") }, "① "));
    wrap.append(title);
    const inner = el("div", { class: "mini" });
    drawHouse(inner, v, h, false);
    wrap.append(inner);
    box.append(wrap);
  }
}

function drawShare() {
  const links = view ? seatLinks()[view.id] : null;
  const share = byId("share");
  share.hidden = !links;
  if (links) drawLinks(byId("share-list"), links, links.watch, false);
}

function drawFinal(v) {
  const final = byId("final");
  final.hidden = false;
  byId("winner").textContent = "★ " + v.result; // the server's sentence: the winner, or the tie and its tie-break (SCORE-WIN)
  const scores = byId("scores");
  scores.textContent = "";
  byId("best").removeAttribute("data-game");
  // One table of every house side by side, part by part (SCORE-TOTAL), then optimize's best;
  // each house's lines (as `dreamhome score` prints them) under it, one table each.
  const parts = [];
  for (const s of v.scores) for (const line of s.lines) if (!parts.includes(line.part)) parts.push(line.part);
  const table = el("table", { class: "breakdown summary" });
  const head = el("tr");
  head.append(el("th", { scope: "col" }, t("table.what")));
  for (const s of v.scores) head.append(el("th", { scope: "col", class: v.winners.includes(s.seat) ? "won" : null, "data-seat": s.seat }, (v.winners.includes(s.seat) ? "★ " : "") + s.name));
  table.append(head);
  for (const part of parts) {
    const tr = el("tr");
    tr.append(el("th", { scope: "row" }, part));
    for (const s of v.scores) tr.append(el("td", { class: "num" }, String(s.lines.filter((l) => l.part === part).reduce((a, l) => a + l.points, 0))));
    table.append(tr);
  }
  const total = el("tr", { class: "total-row" });
  total.append(el("th", { scope: "row" }, t("table.total")));
  for (const s of v.scores) total.append(el("td", { class: "num total", "data-seat": s.seat }, String(s.total)));
  table.append(total);
  const bestRow = el("tr", { class: "best-row" });
  bestRow.append(el("th", { scope: "row" }, t("table.best_short")));
  for (const s of v.scores) bestRow.append(el("td", { class: "num best", "data-seat": s.seat }, "…"));
  table.append(bestRow);
  scores.append(table);
  const lines = el("div", { class: "lines" });
  for (const s of v.scores) {
    const box = el("details", { "data-seat": s.seat });
    box.append(el("summary", {}, s.name + ": " + s.total));
    const detail = el("table", { class: "breakdown" });
    const dh = el("tr");
    dh.append(el("th", { scope: "col" }, t("table.what")), el("th", { scope: "col" }, t("table.points")));
    detail.append(dh);
    for (const line of s.lines) {
      const tr = el("tr");
      tr.append(el("td", {}, line.part + " — " + line.text), el("td", { class: "num" }, String(line.points)));
      detail.append(tr);
    }
    box.append(detail);
    lines.append(box);
  }
  scores.append(lines);
  byId("replay-link").setAttribute("href", withLang(v.replay));
  byId("review-link").setAttribute("href", withLang(v.review));
  byId("record-link").setAttribute("href", v.record);
  drawRematch(v);
  const box = byId("best");
  if (box.getAttribute("data-game") === v.id) return;
  box.setAttribute("data-game", v.id);
  box.textContent = t("table.computing");
  api("GET", v.final).then((f) => {
    box.textContent = "";
    box.append(el("p", { class: "note" }, t("table.best_note"))); // what "best reachable" means, where it is shown
    for (const h of f.houses) {
      const item = el("div", { class: "best-house", "data-seat": h.seat });
      const line = t("table.best_line", { name: h.name, played: h.played, best: h.best });
      const cell = scores.querySelector('td.best[data-seat="' + h.seat + '"]'); // optimize's best beside the one played
      if (cell) cell.textContent = (h.optimal ? "" : "≥") + h.best;
      item.append(el("p", {}, line + (h.optimal ? " " + t("table.proven") : "")));
      const steps = el("ol");
      for (const a of h.actions) steps.append(el("li", {}, a));
      item.append(steps);
      const pic = el("div", { class: "svg", tabindex: "0" }); // focusable: on a phone it scrolls (table.css)
      pic.innerHTML = h.svg;
      const svg = pic.querySelector("svg");
      if (svg) { svg.setAttribute("role", "img"); svg.setAttribute("aria-label", t("table.best_house", { name: h.name })); }
      item.append(pic);
      box.append(item);
    }
  }).catch((e) => { box.textContent = e.message; });
}

// ---- start ---------------------------------------------------------------------------
document.addEventListener("DOMContentLoaded", () => {
  byId("hint-button").addEventListener("click", askHint);
  byId("undo-button").addEventListener("click", undoLast);
  byId("rematch-button").addEventListener("click", rematch);
  byId("lang").addEventListener("change", (ev) => switchLang(ev.target.value));
  byId("howto-button").addEventListener("click", () => toggleHowTo());
  byId("howto-close").addEventListener("click", () => { toggleHowTo(false); byId("howto-button").focus(); });
  byId("cancel").addEventListener("click", cancelSelection);
  byId("face-down").addEventListener("click", toggleFaceDown);
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "Escape") return;
    hideTip();
    if (!byId("howto").hidden) { toggleHowTo(false); byId("howto-button").focus(); } else if (sel) cancelSelection();
  });
  document.addEventListener("click", (ev) => { if (tipFor && !ev.target.closest(".info")) hideTip(); });
  const id = gameIdFromPath();
  seat = seatFromFragment();
  run(async () => {
    let wanted = null;
    try { wanted = localStorage.getItem(LANG_KEY); } catch (e) { /* private mode */ }
    await loadTexts(wanted);
    if (id) {
      const v = await api("GET", "/api/games/" + id);
      await draw(v);
      listen(id);
    } else {
      await loadRules("", options.players[0]);
      await setupFront();
    }
  });
});
window.addEventListener("hashchange", () => location.reload());
