// The Dream Home table: talks to the JSON API of `dreamhome serve`, draws what it answers.
// Every text from the server goes in through textContent; only the houses' SVG (made and
// escaped by dreamhome/render_svg.py) goes in as markup. Every word the page shows comes from
// the server in the chosen language: the labels (`texts`, the catalogue's table.* entries,
// from /api/options) and everything in a view; the choice is kept in localStorage.
"use strict";

const LANG_KEY = "dreamhome.lang";
let view = null;
let busy = false;
let lang = null; // null until /api/options answers: the server's --lang, or the stored choice
let texts = {};
let drawSeats = null;

// A label of the catalogue with its {placeholders} filled in (the key itself if it is missing).
function t(key, args) {
  let s = texts[key] !== undefined ? texts[key] : key;
  for (const [k, v] of Object.entries(args || {})) s = s.split("{" + k + "}").join(String(v));
  return s;
}

function withLang(path) {
  if (!lang || /[?&]lang=/.test(path)) return path;
  return path + (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(lang);
}

function storedLang() {
  try { return localStorage.getItem(LANG_KEY); } catch (e) { return null; }
}

// The page's labels in the language: /api/options answers them with the language list.
async function loadTexts(wanted) {
  const path = "/api/options" + (wanted ? "?lang=" + encodeURIComponent(wanted) : "");
  let options;
  try { options = await api("GET", path); } catch (e) { options = await api("GET", "/api/options"); }
  lang = options.lang;
  texts = options.texts;
  document.documentElement.setAttribute("lang", lang);
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.getAttribute("data-i18n"));
  const select = document.getElementById("lang");
  if (!select.options.length) {
    for (const l of options.languages) select.append(el("option", { value: l.code }, l.name));
  }
  select.value = lang;
  return options;
}

async function switchLang(wanted) {
  try { localStorage.setItem(LANG_KEY, wanted); } catch (e) { /* private mode: this page only */ }
  await run(async () => {
    await loadTexts(wanted);
    if (drawSeats) drawSeats();
    if (view) render(await api("GET", "/api/games/" + view.id));
  });
}

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(withLang(path), init);
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: "the server answered " + response.status }; }
  if (!response.ok) throw new Error((data && data.error) || ("the server answered " + response.status));
  return data;
}

function gameIdFromPath() {
  const m = location.pathname.match(/^\/games\/([A-Za-z0-9_-]{22})$/);
  return m ? m[1] : null;
}

// ---- start form -------------------------------------------------------------
async function setupStart(options) {
  const players = document.getElementById("players");
  const variant = document.getElementById("variant");
  for (const [name, title] of Object.entries(options.variants)) variant.append(el("option", { value: name }, name + " — " + title));
  // The player counts offered are the chosen variant's (SETUP-1), exactly those the server accepts.
  const drawPlayers = () => {
    const [low, high] = (options.variant_players || {})[variant.value] || options.players;
    const was = Number(players.value || 2);
    players.textContent = "";
    for (let n = low; n <= high; n++) players.append(el("option", { value: n }, String(n)));
    players.value = String(Math.min(Math.max(was, low), high));
  };
  drawPlayers();
  const seats = document.getElementById("bot-seats");
  drawSeats = () => {
    const chosen = Array.from(document.querySelectorAll("#bot-seats select")).map((s) => s.value);
    seats.textContent = "";
    for (let s = 1; s < Number(players.value); s++) {
      const select = el("select", { class: "bot", "data-seat": s });
      for (const b of options.bots) {
        const opt = el("option", { value: b }, b);
        if (b === (chosen[s - 1] || "greedy")) opt.selected = true;
        select.append(opt);
      }
      const label = el("label", {}, t("table.seat", { seat: s }) + " ");
      label.append(select);
      seats.append(label);
    }
  };
  players.addEventListener("change", drawSeats);
  variant.addEventListener("change", () => {
    drawPlayers();
    drawSeats();
  });
  drawSeats();
  document.getElementById("start-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {
      players: Number(players.value),
      bots: Array.from(document.querySelectorAll("#bot-seats select")).map((s) => s.value),
      variant: variant.value,
      seed: Number(document.getElementById("seed").value || 0),
    };
    await run(async () => {
      const v = await api("POST", "/api/games", body);
      history.pushState(null, "", "/games/" + v.id);
      render(v);
    });
  });
  document.getElementById("start").hidden = false;
}

async function run(work) {
  if (busy) return;
  busy = true;
  document.body.classList.add("busy");
  showError("");
  try { await work(); } catch (e) { showError(e.message); } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

// ---- deciding ---------------------------------------------------------------
function act(index) {
  return run(async () => {
    const v = await api("POST", "/api/games/" + view.id + "/act", { index, version: view.version });
    render(v);
  });
}

// A click on a board target: one matching action is applied, several are offered as buttons.
function choose(matches) {
  if (matches.length === 1) { act(matches[0].index); return; }
  const box = document.getElementById("choices");
  const buttons = document.getElementById("choice-buttons");
  buttons.textContent = "";
  for (const a of matches) {
    const b = el("button", { type: "button", class: "choice", "data-index": a.index }, a.text);
    b.addEventListener("click", () => act(a.index));
    buttons.append(b);
  }
  box.hidden = false;
}

async function showHints() {
  await run(async () => {
    const h = await api("GET", "/api/games/" + view.id + "/hint");
    const list = document.getElementById("hints");
    list.textContent = "";
    const bounds = h.options.map((o) => o.bound).filter((b) => b !== null);
    const lo = Math.min(...bounds), hi = Math.max(...bounds);
    for (const o of h.options) {
      const li = el("li", { "data-index": o.index });
      let cls = "bnone";
      if (o.bound !== null) cls = "b" + (hi === lo ? 4 : Math.round(4 * (o.bound - lo) / (hi - lo)));
      li.append(el("span", { class: "bound " + cls }, o.bound === null ? "?" : (o.proven ? "" : "≥") + o.bound));
      const b = el("button", { type: "button" }, o.text);
      b.addEventListener("click", () => act(o.index));
      li.append(b);
      if (h.pick !== null && o.index === h.pick) {
        li.classList.add("pick");
        li.append(el("span", { class: "pick-mark" }, " " + t("table.solver_pick")));
      }
      list.append(li);
    }
    list.hidden = false;
  });
}

// ---- drawing ----------------------------------------------------------------
function render(v) {
  view = v;
  document.getElementById("start").hidden = true;
  const table = document.getElementById("table");
  table.hidden = false;
  table.setAttribute("data-version", v.version);
  document.getElementById("choices").hidden = true;
  document.getElementById("hints").hidden = true;
  document.getElementById("round").textContent = v.round;
  document.getElementById("rounds").textContent = v.rounds;
  document.getElementById("phase").textContent = v.phase_text;
  const turn = v.terminal ? t("table.game_over") : v.your_turn ? t("table.your_turn") : t("table.to_act", { name: v.names[v.actor] });
  document.getElementById("turn").textContent = turn;
  document.getElementById("first").textContent = v.names[v.first] || "—";
  document.getElementById("status").textContent =
    t("table.status", { id: v.id, seed: v.seed }) + (v.variant ? " · " + t("table.status_variant", { variant: v.variant }) : "");

  // Track: each column a target if an action names it.
  const track = document.getElementById("track");
  track.textContent = "";
  for (const col of v.track) {
    const matches = v.legal.filter((a) => a.columns.includes(col.column));
    const box = el("button", { type: "button", class: "column", "data-column": col.column });
    box.append(el("span", { class: "label" }, t("table.column", { column: col.column })));
    box.append(el("span", { class: "room" }, col.room || "—"));
    box.append(el("span", { class: "res" }, col.resource || "—"));
    if (col.room === null && col.resource === null) box.classList.add("taken");
    if (matches.length) {
      box.classList.add("legal");
      box.addEventListener("click", () => choose(matches));
    } else {
      box.disabled = true;
    }
    track.append(box);
  }
  document.getElementById("piles").textContent =
    t("table.room_discard", { cards: v.room_discard.join(", ") || "—" }) + " · " +
    t("table.roof_discard", { cards: v.roof_discard.join(", ") || "—" });

  // Every legal action as a button (the fallback for anything the board does not draw).
  const actions = document.getElementById("actions");
  actions.textContent = "";
  for (const a of v.legal) {
    const b = el("button", { type: "button", class: "action", "data-index": a.index, "data-type": a.type }, a.text);
    b.addEventListener("click", () => act(a.index));
    actions.append(b);
  }
  if (!v.legal.length) actions.append(el("span", { class: "note" }, v.terminal ? t("table.over_note") : t("table.waiting")));
  document.getElementById("hint-button").hidden = !v.your_turn;

  // Log of the moves since the person's last decision.
  const log = document.getElementById("log");
  log.textContent = "";
  for (const line of v.log) log.append(el("li", {}, line));

  // Houses: the person's first, its legal cells highlighted and clickable.
  const houses = document.getElementById("houses");
  houses.textContent = "";
  const order = [v.seat].concat(v.houses.map((h) => h.seat).filter((s) => s !== v.seat));
  for (const seat of order) {
    const h = v.houses[seat];
    const box = el("div", { class: "house" + (seat === v.seat ? " mine" : ""), id: "house-" + seat, "data-score": h.score });
    box.innerHTML = h.svg;
    if (h.tools.length) box.append(el("p", { class: "held" }, t("table.tools", { cards: h.tools.join(", ") })));
    houses.append(box);
  }
  const mine = document.getElementById("house-" + v.seat);
  for (const cell of mine.querySelectorAll("[data-cell]")) {
    const name = cell.getAttribute("data-cell");
    const matches = v.legal.filter((a) => a.cells.includes(name));
    if (matches.length) {
      cell.classList.add("legal");
      cell.addEventListener("click", () => choose(matches));
    }
  }
  if (v.terminal) renderFinal(v);
  else document.getElementById("final").hidden = true;
}

function renderFinal(v) {
  const final = document.getElementById("final");
  final.hidden = false;
  const scores = document.getElementById("scores");
  scores.textContent = "";
  for (const s of v.scores) {
    const box = el("div", { class: "final-house", "data-seat": s.seat });
    const win = v.winners.includes(s.seat) ? " — " + t("table.winner") : "";
    box.append(el("h4", {}, s.name + ": "));
    box.querySelector("h4").append(el("span", { class: "total" }, String(s.total)));
    box.querySelector("h4").append(document.createTextNode(win));
    for (const line of s.lines) {
      box.append(el("div", { class: "scoreline" }, String(line.points).padStart(3) + "  " + line.part + " — " + line.text));
    }
    scores.append(box);
  }
  document.getElementById("replay-link").setAttribute("href", v.replay);
  const best = document.getElementById("best");
  best.textContent = t("table.computing");
  api("GET", v.final).then((f) => {
    best.textContent = "";
    for (const h of f.houses) {
      const box = el("div", { class: "best-house", "data-seat": h.seat });
      const line = t("table.best_line", { name: h.name, played: h.played, best: h.best });
      box.append(el("p", {}, line + (h.optimal ? " " + t("table.proven") : "")));
      const steps = el("ol");
      for (const a of h.actions) steps.append(el("li", {}, a));
      box.append(steps);
      const pic = el("div");
      pic.innerHTML = h.svg;
      box.append(pic);
      best.append(box);
    }
  }).catch((e) => { best.textContent = e.message; });
}

window.addEventListener("popstate", () => location.reload());
document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("hint-button").addEventListener("click", showHints);
  document.getElementById("lang").addEventListener("change", (ev) => switchLang(ev.target.value));
  const id = gameIdFromPath();
  run(async () => {
    const options = await loadTexts(storedLang());
    if (id) render(await api("GET", "/api/games/" + id));
    else await setupStart(options);
  });
});
