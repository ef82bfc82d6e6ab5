"use strict";
// The page keeps no game logic of its own: every answer comes from the engine's JSON API. It
// keeps what a class needs between questions: the game's text (in this browser and in the
// link), the settings, and the game being played.
const $ = (id) => document.getElementById(id);
const source = $("source");
let about = { timeout: 30, default_timeout: 10, urls: [], qr: null };
let gameInfo = null;   // the last check's answer: the name, partizan, misère

function text(tag, content, cls) {
  const el = document.createElement(tag);
  if (content !== undefined) el.textContent = content;
  if (cls) el.className = cls;
  return el;
}

// Words between backticks, as the engine's diagnostics write code, shown as code.
function withCode(tag, words, cls) {
  const el = text(tag, undefined, cls);
  String(words).split("`").forEach((part, i) => el.append(i % 2 ? text("code", part) : document.createTextNode(part)));
  return el;
}

// The parameters' values, as `--set` gives them: `k=5; S=[1,2,5]` (a number, or a list of
// them). Words that are not one are sent as text, and the engine says what is wrong.
function settings() {
  const out = {};
  for (const part of $("settings").value.split(/\s*;\s*|\s+(?=[A-Za-z_][A-Za-z0-9_]*\s*=)/)) {
    const eq = part.indexOf("=");
    if (eq < 1) continue;
    const value = part.slice(eq + 1).trim();
    try { out[part.slice(0, eq).trim()] = JSON.parse(value); } catch (e) { out[part.slice(0, eq).trim()] = value; }
  }
  return out;
}

function timeLimit() {
  const t = Number($("time-limit").value);
  return Number.isFinite(t) && t > 0 ? Math.min(t, about.timeout) : about.default_timeout;
}

// ---- asking the engine ---------------------------------------------------------------------
let running = null;   // the streamed question in progress: its AbortController

function cancelRunning() {
  if (running) running.abort();
}

function showProgress(line) {
  const bar = $("progress-bar");
  if (line.total > 0) { bar.max = line.total; bar.value = Math.min(line.done, line.total); }
  else bar.removeAttribute("value");
  $("progress-text").textContent = line.stage + ": " + line.done.toLocaleString("en") +
    (line.total > 0 ? " of " + line.total.toLocaleString("en") : "") + " (" + line.seconds + " s)";
}

// One question: the game's text, the time limit and the question's arguments in one JSON
// object. A streamed question shows the engine's progress and can be cancelled.
async function ask(verb, body, options) {
  const stream = options && options.stream;
  const payload = Object.assign({ source: source.value, settings: settings(), timeout: timeLimit() }, body || {});
  if (stream) payload.stream = true;
  const init = { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload) };
  if (!stream) {
    const response = await fetch("/api/" + verb, init);
    if (payload.format === "csv" && response.ok) return { ok: true, status: 200, data: await response.text() };
    let data;
    try { data = await response.json(); } catch (e) { data = { diagnostics: [{ message: "the server's answer was not JSON (" + response.status + ")" }] }; }
    return { ok: response.ok, status: response.status, data };
  }
  cancelRunning();
  const controller = new AbortController();
  running = controller;
  init.signal = controller.signal;
  $("progress").hidden = false;
  $("progress-bar").removeAttribute("value");
  $("progress-text").textContent = "computing…";
  try {
    const response = await fetch("/api/" + verb, init);
    const type = response.headers.get("Content-Type") || "";
    if (!type.startsWith("application/x-ndjson")) {
      let data;
      try { data = await response.json(); } catch (e) { data = { diagnostics: [{ message: "the server's answer was not JSON (" + response.status + ")" }] }; }
      return { ok: response.ok, status: response.status, data };
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffered = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffered += decoder.decode(value, { stream: true });
      let newline;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = JSON.parse(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (line.progress) showProgress(line.progress);
        else return { ok: line.status === 200, status: line.status, data: line.body };
      }
      if (done) return { ok: false, status: 0, data: { diagnostics: [{ message: "the answer was cut off" }] } };
    }
  } catch (e) {
    if (controller.signal.aborted) return { ok: false, cancelled: true, data: { diagnostics: [{ message: "Cancelled: the question was stopped before it finished." }] } };
    return { ok: false, status: 0, data: { diagnostics: [{ message: "no answer from the server: " + e.message }] } };
  } finally {
    if (running === controller) { running = null; $("progress").hidden = true; }
  }
}
$("cancel").addEventListener("click", cancelRunning);

// A diagnostic as the command line shows it: the message, the line with the span marked, the
// label and the help.
function showDiagnostics(target, data, text_of_source) {
  target.replaceChildren();
  for (const d of data.diagnostics || []) {
    const box = text("div", undefined, "diagnostic");
    if (d.code) box.append(text("div", d.code, "code"));
    box.append(withCode("div", d.message, "message"));
    const lines = d.source === "game" ? text_of_source : null;
    for (const label of d.labels || []) {
      if (lines !== null && lines !== undefined) {
        const all = lines.split("\n");
        const line = all[label.line - 1] ?? "";
        const chars = Array.from(line);
        const from = label.column - 1;
        const to = label.end_line === label.line ? Math.max(label.end_column - 1, from + 1) : chars.length;
        const pre = text("pre");
        pre.append(text("span", label.line + " │ " + chars.slice(0, from).join("")));
        pre.append(text("mark", chars.slice(from, to).join("") || " "));
        pre.append(text("span", chars.slice(to).join("")));
        box.append(pre);
      }
      if (label.text) box.append(withCode("div", "line " + label.line + ", column " + label.column + ": " + label.text, "label"));
    }
    if (d.help) box.append(withCode("div", "help: " + d.help, "help"));
    target.append(box);
  }
}

function showFailure(target, result) {
  const data = result.data || {};
  target.replaceChildren();
  const box = text("div");
  showDiagnostics(box, data, source.value);
  // What a student can do here, where the engine's help names the command line's options.
  if (data.kind === "timeout" || data.kind === "refused") {
    // The engine's help speaks of the command line's flags (--timeout SECONDS): the page's
    // own advice below stands for it.
    for (const help of box.querySelectorAll(".help")) if (/--[a-z]/.test(help.textContent)) help.remove();
    const most = about.timeout;
    box.append(text("p", timeLimit() < most
      ? "On this page: raise the time limit at the top (this server allows up to " + most + " s), or ask a smaller question."
      : "On this page: this is the server's longest time limit (" + most + " s); ask a smaller question, or use the command line.", "page-help"));
  }
  target.append(box);
}

// ---- the link and this browser keep the game ---------------------------------------------------
// The game's text, the tab and the settings live in the link's #fragment (nothing goes to the
// server), so a link on the board opens the same page on every phone; this browser also keeps
// the text across a reload.
const KEPT = ["settings", "table-upto", "plot-upto", "explain-position", "solve-position", "play-start", "play-side", "play-strength", "quotient-upto", "thermograph-positions", "time-limit"];
function encodeText(t) {
  const bytes = new TextEncoder().encode(t);
  let binary = "";
  bytes.forEach((b) => { binary += String.fromCharCode(b); });
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function decodeText(b64) {
  const binary = atob(b64.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
function currentTab() {
  const t = document.querySelector('nav.tabs button[aria-selected="true"]');
  return t ? t.dataset.panel : "table";
}
function link() {
  const params = new URLSearchParams();
  params.set("game", encodeText(source.value));
  params.set("tab", currentTab());
  for (const id of KEPT) params.set(id, $(id).value);
  if (!$("play-values").checked) params.set("values", "off");
  return location.origin + location.pathname + "#" + params.toString();
}
let keepTimer = null;
function keep() {
  clearTimeout(keepTimer);
  keepTimer = setTimeout(() => {
    history.replaceState(null, "", link());
    try { localStorage.setItem("takeaway.source", source.value); } catch (e) { /* private browsing */ }
  }, 150);
}
function restore() {
  const params = new URLSearchParams(location.hash.slice(1));
  let restored = false;
  if (params.has("game")) {
    try { source.value = decodeText(params.get("game")); restored = true; } catch (e) { /* a damaged link: the default game */ }
  }
  if (!restored) {
    try { const kept = localStorage.getItem("takeaway.source"); if (kept) source.value = kept; } catch (e) { /* none kept */ }
  }
  for (const id of KEPT) if (params.has(id)) $(id).value = params.get(id);
  if (params.get("values") === "off") $("play-values").checked = false;
  const tab = params.get("tab") || "table";
  showTab(tab);
  // A shared link opens with its answer drawn: every phone in a class sees the table or the
  // plot, not an empty panel until someone presses the button.
  if (restored && ["table", "plot", "thermograph", "quotient"].includes(tab)) $(tab + "-go").click();
}
for (const id of KEPT) $(id).addEventListener("change", keep);
$("settings").addEventListener("input", () => { clearTimeout(checkTimer); checkTimer = setTimeout(check, 250); keep(); });
$("play-values").addEventListener("change", () => { $("play-moves").classList.toggle("coloured", $("play-values").checked); $("play-legend").hidden = !$("play-values").checked; keep(); if (game) render(); });

// ---- live check --------------------------------------------------------------------------
let checkNumber = 0;
let checkTimer = null;
async function check() {
  const mine = ++checkNumber;
  const { ok, data } = await ask("check");
  if (mine !== checkNumber) return;
  const status = $("status");
  if (ok) {
    gameInfo = data;
    status.textContent = "✓ " + data.game + ": the game checks";
    status.className = "ok";
    $("game-name").textContent = data.game;
    $("diagnostics").replaceChildren();
    $("play-side-label").hidden = !data.partizan;
    // A game whose rules read the previous move (`last`) asks for it; comments do not count.
    $("play-last-label").hidden = !source.value.split("\n").some((l) => /\blast\b/.test(l.replace(/#.*/, "")));
  } else {
    gameInfo = null;
    const n = (data.diagnostics || []).length;
    status.textContent = n === 1 ? "1 problem" : n + " problems";
    status.className = "bad";
    // The header names no game while the text is not one.
    $("game-name").textContent = "";
    showDiagnostics($("diagnostics"), data, source.value);
  }
}
source.addEventListener("input", () => {
  // Typed over, the text is no longer the bundled game the menu shows.
  const chosen = $("games").selectedOptions[0];
  if (chosen && chosen.dataset.source !== source.value) $("games").value = "";
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, 250);
  keep();
});

// ---- the bundled games -------------------------------------------------------------------
async function loadGames() {
  const response = await fetch("/api/games");
  const { games } = await response.json();
  const menu = $("games");
  for (const g of games) {
    const option = text("option", g.name + " (" + g.file + ")");
    option.value = g.file;
    option.dataset.source = g.source;
    menu.append(option);
    if (g.source === source.value) menu.value = g.file;
  }
  menu.addEventListener("change", () => {
    const chosen = menu.selectedOptions[0];
    if (!chosen || !chosen.dataset.source) return;
    source.value = chosen.dataset.source;
    resetPlay();
    check();
    keep();
  });
}

// ---- tabs --------------------------------------------------------------------------------
function showTab(name) {
  if (!document.querySelector('nav.tabs button[data-panel="' + name + '"]')) name = "table";
  for (const t of document.querySelectorAll("nav.tabs button")) t.setAttribute("aria-selected", t.dataset.panel === name ? "true" : "false");
  for (const p of document.querySelectorAll(".panel")) p.classList.toggle("shown", p.id === "panel-" + name);
  if (name === "atlas") showAtlas();
  // The value history is drawn to its box's width, which a hidden panel does not have.
  if (name === "play" && game && game.history.length) drawHistory();
}
// A phone turned, a window narrowed: the value history redrawn to its new width.
let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => { if (game && game.history.length && currentTab() === "play") drawHistory(); }, 150);
});
for (const tab of document.querySelectorAll("nav.tabs button")) {
  tab.addEventListener("click", () => { showTab(tab.dataset.panel); keep(); });
}

// ---- downloads -----------------------------------------------------------------------------
function download(name, type, content) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = text("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
function fileName(ext) {
  const name = (gameInfo && gameInfo.game) || "game";
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") + ext;
}
$("download-game").addEventListener("click", () => download(fileName(".game"), "text/plain", source.value));
$("table-csv").addEventListener("click", async () => {
  const out = $("table-out");
  const result = await ask("table", { upto: Number($("table-upto").value), format: "csv" });
  if (!result.ok) return showFailure(out, result);
  download(fileName(".csv"), "text/csv", result.data);
});
let lastSvg = null;
$("plot-svg").addEventListener("click", () => { if (lastSvg) download(fileName(".svg"), "image/svg+xml", lastSvg); });

// ---- the table -----------------------------------------------------------------------------
function periodLine(period) {
  if (!period || typeof period !== "object") return null;
  if (period.outcomes) {
    return "outcomes repeat with period " + period.period + " from n = " + period.preperiod + (period.behaviour ? " (" + period.behaviour + ")" : "");
  }
  const what = period.of === "outcome" ? "outcomes" : "Grundy values";
  const saltus = period.saltus ? ", growing by " + period.saltus + " each period" : "";
  const proof = period.proven ? "proven" + (period.theorem ? " by " + period.theorem : "") : "apparent, checked to " + period.checked_to;
  return what + ": period " + period.period + " from n = " + period.preperiod + saltus + " (" + proof + ")";
}

// Past this many rows a table shows only the rows in view (the rest are made as it scrolls),
// so that 100,000 rows do not freeze a phone.
const WHOLE_ROWS = 1000;
const ROW_PX = 31;

function oneColumnTable(d) {
  const partizan = Array.isArray(d.rows);
  const count = partizan ? d.rows.length : d.outcomes.length;
  const row = (i) => partizan ? d.rows[i] : { n: i, outcome: d.outcomes[i], grundy: d.grundy[i] };
  const heat = partizan && d.rows.some((r) => r.mean !== undefined);
  const columns = ["n", "outcome"].concat(heat ? ["mean", "temperature"] : [], [partizan ? "value" : "Grundy"]);
  if (d.misere_grundy) columns.push("G⁻", "genus");
  const head = () => {
    const tr = text("tr");
    for (const c of columns) tr.append(text("th", c));
    return tr;
  };
  const line = (i) => {
    const r = row(i);
    const tr = text("tr");
    if (r.outcome === "P") tr.className = "p";
    tr.append(text("td", String(r.n)), text("td", r.outcome));
    if (heat) tr.append(text("td", r.mean ?? ""), text("td", r.temperature ?? ""));
    tr.append(text("td", partizan ? r.value : (r.grundy === null ? "–" : String(r.grundy))));
    if (d.misere_grundy) tr.append(text("td", d.misere_grundy[i] === null ? "–" : String(d.misere_grundy[i])), text("td", d.genus[i] ?? ""));
    return tr;
  };
  const table = text("table", undefined, "values");
  table.append(head());
  if (count <= WHOLE_ROWS) {
    for (let i = 0; i < count; i++) table.append(line(i));
    return table;
  }
  // The rows in view, between two spacers as tall as the rows above and below them.
  const scroller = text("div", undefined, "vscroll");
  scroller.tabIndex = 0;
  scroller.setAttribute("role", "region");
  scroller.setAttribute("aria-label", "the table, " + count + " rows: scroll to see them");
  table.dataset.rows = String(count);
  scroller.append(table);
  let shown = [-1, -1];
  const draw = () => {
    const first = Math.max(0, Math.floor(scroller.scrollTop / ROW_PX) - 20);
    const last = Math.min(count, first + Math.ceil(scroller.clientHeight / ROW_PX) + 40);
    if (first === shown[0] && last === shown[1]) return;
    shown = [first, last];
    const above = text("tr"); above.style.height = first * ROW_PX + "px"; above.setAttribute("aria-hidden", "true");
    const below = text("tr"); below.style.height = (count - last) * ROW_PX + "px"; below.setAttribute("aria-hidden", "true");
    const rows = [head(), above];
    for (let i = first; i < last; i++) rows.push(line(i));
    rows.push(below);
    table.replaceChildren(...rows);
  };
  scroller.addEventListener("scroll", () => requestAnimationFrame(draw));
  requestAnimationFrame(draw);
  return scroller;
}

function gridTable(d) {
  const first = d.board ? 1 : 0;
  const table = text("table", undefined, "values");
  const head = text("tr");
  head.append(text("th", d.board ? "rows × columns" : "piles"));
  (d.outcomes[0] || []).forEach((_, j) => head.append(text("th", String(j + first))));
  table.append(head);
  d.outcomes.forEach((row, i) => {
    const tr = text("tr");
    tr.append(text("th", String(i + first)));
    row.forEach((o, j) => {
      const g = d.grundy && d.grundy[i] ? d.grundy[i][j] : null;
      const td = text("td", g === null || g === undefined ? o : String(g));
      td.title = o;
      if (o === "P") td.className = "p";
      tr.append(td);
    });
    table.append(tr);
  });
  return table;
}

async function showTable() {
  const out = $("table-out");
  out.replaceChildren(text("p", "computing…", "note"));
  const result = await ask("table", { upto: Number($("table-upto").value) }, { stream: true });
  if (!result.ok) return showFailure(out, result);
  const data = result.data;
  out.replaceChildren();
  out.append(text("p", data.game + (data.misere ? " (misère play)" : ""), "note"));
  if (Array.isArray(data.positions)) {
    const { data: t } = await ask("table", { upto: Number($("table-upto").value), format: "text" });
    out.append(text("pre", t.text));
    return;
  }
  const grid = Array.isArray(data.outcomes) && Array.isArray(data.outcomes[0]);
  out.append(grid ? gridTable(data) : oneColumnTable(data));
  const ps = data.p_positions || (data.rows || []).filter((r) => r.outcome === "P").map((r) => r.n);
  const listed = ps.slice(0, 200).map((p) => Array.isArray(p) ? "(" + p.join(", ") + ")" : p).join(", ");
  out.append(text("p", "P-positions: " + listed + (ps.length > 200 ? ", … (" + ps.length + " in all)" : ""), "note"));
  const period = periodLine(data.period);
  if (period) out.append(text("p", period, "note period"));
  if (data.pattern) out.append(text("p", "pattern: the P-positions are " + data.pattern, "note"));
}
$("table-go").addEventListener("click", showTable);

// ---- plot, explain, solve, quotient ------------------------------------------------------------
function showSvg(out, svgText) {
  // The SVG is the engine's own rendering (names in it are escaped there), as `takeaway plot` writes it.
  const svg = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
  svg.setAttribute("role", "img");
  const title = svg.querySelector("text");
  if (title) svg.setAttribute("aria-label", title.textContent);
  out.replaceChildren(document.importNode(svg, true));
  // On a narrow screen the picture keeps its size and scrolls: said where it would be cut.
  out.prepend(text("p", "← the picture scrolls sideways →", "note scroll-hint"));
}

$("plot-go").addEventListener("click", async () => {
  const out = $("plot-out");
  out.replaceChildren(text("p", "drawing…", "note"));
  $("plot-svg").disabled = true;
  const result = await ask("plot", { upto: Number($("plot-upto").value) }, { stream: true });
  if (!result.ok) return showFailure(out, result);
  lastSvg = result.data.svg;
  $("plot-svg").disabled = false;
  showSvg(out, result.data.svg);
});

$("thermograph-go").addEventListener("click", async () => {
  const out = $("thermograph-out");
  out.replaceChildren(text("p", "drawing…", "note"));
  $("thermograph-heat").textContent = "";
  const positions = $("thermograph-positions").value.split(",").map((p) => p.trim()).filter((p) => p !== "");
  const result = await ask("plot", { thermograph: positions }, { stream: true });
  if (!result.ok) return showFailure(out, result);
  showSvg(out, result.data.svg);
  $("thermograph-heat").textContent = result.data.thermographs
    .map((t) => t.position.join(" ") + ": mean " + t.mean + ", temperature " + t.temperature)
    .join("\n");
});

function textQuestion(verb, button, input, output) {
  $(button).addEventListener("click", async () => {
    const out = $(output);
    out.textContent = "…";
    const body = { format: "text" };
    if (verb !== "quotient") body.position = $(input).value;
    else if ($(input).value !== "") body.upto = Number($(input).value);
    const result = await ask(verb, body, { stream: true });
    if (!result.ok) return showFailure(out, result);
    out.textContent = result.data.text;
  });
}
textQuestion("explain", "explain-go", "explain-position", "explain-out");
textQuestion("solve", "solve-go", "solve-position", "solve-out");
textQuestion("quotient", "quotient-go", "quotient-upto", "quotient-out");

// ---- play against the computer -------------------------------------------------------------
// The server keeps nothing: the page keeps the position, the log, the value history, the slips,
// and a stack of the states before each of the player's moves for undo.
let game = null;

function resetPlay() {
  game = null;
  $("play-board").hidden = true;
  $("play-error").replaceChildren();
  $("play-swap").disabled = true;
}

function score() {
  try { return JSON.parse(localStorage.getItem("takeaway.score")) || { you: 0, computer: 0 }; } catch (e) { return { you: 0, computer: 0 }; }
}
function showScore() {
  const s = score();
  $("scorecard").textContent = "Scorecard: you " + s.you + ", computer " + s.computer;
}
function count(winner) {
  const s = score();
  s[winner === "you" ? "you" : "computer"] += 1;
  try { localStorage.setItem("takeaway.score", JSON.stringify(s)); } catch (e) { /* not kept */ }
  showScore();
}
$("score-reset").addEventListener("click", () => { try { localStorage.removeItem("takeaway.score"); } catch (e) { /* none */ } showScore(); });

const SAYS = { win: "you win", lose: "you lose", draw: "a draw", unknown: "not known" };
function figures(m, forYou) {
  const parts = [];
  const result = m.result || m.for_you;
  if (result) parts.push(forYou ? SAYS[result] : result === "win" ? "wins" : result === "lose" ? "loses" : result);
  if (m.remoteness !== null && m.remoteness !== undefined) parts.push("remoteness " + m.remoteness);
  if (m.value !== null && m.value !== undefined) parts.push(game && game.partizan ? "value " + m.value : "G = " + m.value);
  return parts.join(" · ");
}

// A number written by the engine (`3`, `-1/2`) as a number, for the chart.
function numeric(v) {
  if (v === null || v === undefined) return null;
  const [a, b] = String(v).split("/");
  const x = Number(a) / (b === undefined ? 1 : Number(b));
  return Number.isFinite(x) ? x : null;
}

// The value history: one point per position played, its colour what it meant for the player
// (green a win, red a loss), its height the remoteness (for a partizan game the mean value), its
// label the Grundy value (or the temperature); the move where the win slipped ringed.
function drawHistory() {
  const h = game.history;
  const NS = "http://www.w3.org/2000/svg";
  const el = (tag, attrs, content) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (content !== undefined) e.textContent = content;
    return e;
  };
  const partizan = game.partizan;
  const heights = h.map((p) => partizan ? numeric(p.mean) : p.remoteness);
  const known = heights.filter((y) => y !== null && y !== undefined);
  const top = known.length ? Math.max(...known, 1) : 1;
  const bottom = known.length ? Math.min(...known, 0) : 0;
  // As wide as the box it is drawn in (a phone's is narrower), so that its text stays at its
  // size: 16 px in a 640-unit picture shrunk to a phone's 350 px was 9 px.
  const W = Math.round(Math.max(360, Math.min(640, $("play-history").clientWidth || 640))), H = 330, left = 70, right = 30, topPad = 44, base = 240;
  const x = (i) => left + (h.length <= 1 ? 0 : i * (W - left - right) / (h.length - 1));
  const y = (v) => base - ((v ?? bottom) - bottom) * (base - topPad) / (top - bottom || 1);
  const colour = { win: "#1b7f3b", lose: "#b3261e", draw: "#b58900", unknown: "#6b7280" };
  const svg = el("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "font-size": "16", "font-family": "system-ui, sans-serif" });
  svg.append(el("title", {}, "Value history: " + h.map((p, i) => "position " + (p.position.join(" ") || "0") + " " + SAYS[p.for_you]).join("; ")));
  svg.append(el("line", { x1: left, y1: base, x2: W - right, y2: base, stroke: "#888" }));
  svg.append(el("line", { x1: left, y1: topPad, x2: left, y2: base, stroke: "#888" }));
  svg.append(el("text", { x: left - 8, y: y(top) + 5, "text-anchor": "end" }, String(top)));
  svg.append(el("text", { x: left - 8, y: base + 5, "text-anchor": "end" }, String(bottom)));
  // Misère partizan positions have no values (and so no mean): then only the colours say.
  const axis = known.length ? (partizan ? "mean" : "remoteness") : "(no values)";
  svg.append(el("text", { x: 16, y: (base + topPad) / 2, transform: "rotate(-90 16 " + (base + topPad) / 2 + ")", "text-anchor": "middle" }, axis));
  svg.append(el("text", { x: (W + left) / 2, y: H - 42, "text-anchor": "middle" }, "moves played →"));
  // What the numbers above the dots are.
  if (known.length) svg.append(el("text", { x: 4, y: H - 10 }, partizan ? "above a dot: its temperature" : "above a dot: its Grundy value"));
  $("play-legend-axes").textContent = partizan
    ? "(height: the mean value; above a dot: the temperature, what moving first is worth)"
    : "(height: remoteness, the moves left with best play; above a dot: its Grundy value)";
  const points = h.map((p, i) => x(i) + "," + y(heights[i])).join(" ");
  svg.append(el("polyline", { points, fill: "none", stroke: "#888", "stroke-width": "2" }));
  h.forEach((p, i) => {
    const cx = x(i), cy = y(heights[i]);
    const dot = el("circle", { cx, cy, r: 8, fill: colour[p.for_you] || "#888", "data-for-you": p.for_you });
    dot.append(el("title", {}, "position " + (p.position.join(" ") || "0") + ": " + SAYS[p.for_you] + (p.to_move ? ", " + (p.to_move === "you" ? "you" : "the computer") + " to move" : "")));
    svg.append(dot);
    // A partizan position's label is its temperature where it is hot (0 or more): a number's
    // negative temperature says nothing a student needs, and "t -1" read as a code.
    const hot = p.temperature !== undefined && p.temperature !== null && numeric(p.temperature) >= 0;
    const label = partizan ? (hot ? String(p.temperature) : "") : (p.value ?? "");
    if (label !== "" && h.length <= 24) svg.append(el("text", { x: cx, y: cy - 14, "text-anchor": "middle" }, label));
    svg.append(el("text", { x: cx, y: base + 22, "text-anchor": "middle" }, String(i)));
  });
  if (game.slipAt !== null) {
    const cx = x(game.slipAt), cy = y(heights[game.slipAt]);
    svg.append(el("circle", { cx, cy, r: 14, fill: "none", stroke: "#b3261e", "stroke-width": "3", class: "slip" }));
    svg.append(el("text", { x: cx + 18, y: cy - 20, fill: "#b3261e", "font-weight": "700" }, "win slipped"));
  }
  $("play-history").replaceChildren(svg);
}

function render() {
  $("play-board").hidden = false;
  $("play-swap").disabled = false;
  $("play-position").textContent = game.position.join(" ") || "(empty)";
  $("play-turn").textContent = game.over ? "" : "your move" + (game.partizan ? " (you are " + game.side + ")" : "");
  const moves = $("play-moves");
  moves.replaceChildren();
  moves.classList.toggle("coloured", $("play-values").checked);
  $("play-legend").hidden = !$("play-values").checked;
  for (const m of game.moves) {
    const b = text("button", undefined, "move " + m.result);
    b.append(text("span", m.move + " → " + (m.to.join(" ") || "0")));
    if ($("play-values").checked) b.append(text("span", figures(m, true), "figures"));
    b.addEventListener("click", () => move(m));
    moves.append(b);
  }
  const log = $("play-log");
  log.replaceChildren(...game.log.map((l) => text("li", l.text, l.slip ? "slip" : undefined)));
  drawHistory();
  const result = $("play-result");
  $("play-hint").disabled = game.over;
  $("play-undo").disabled = game.undo.length === 0;
  if (!game.over) { result.textContent = ""; result.className = ""; return; }
  if (game.winner === "you") {
    result.textContent = "You won!";
    result.className = "won";
  } else {
    const slip = game.slips[0];
    result.textContent = "The computer won. " + (slip
      ? "The win slipped at your move " + slip.number + ": you played " + slip.played + "; " + slip.better + " would have kept the " + slip.kept + "."
      : (game.startedLost ? "The start was a P-position: against best play no first move wins." : "You had no winning move at any turn."));
    result.className = "lost";
  }
}

function playSettings() {
  const body = { strength: Number($("play-strength").value), seed: game ? game.seed + game.history.length : 1 };
  if (gameInfo && gameInfo.partizan) body.side = $("play-side").value;
  return body;
}

async function step(body) {
  $("play-error").replaceChildren();
  $("play-hint-out").textContent = "";
  const result = await ask("play", Object.assign(playSettings(), body));
  if (!result.ok) { showFailure($("play-error"), result); return null; }
  return result.data;
}

function logComputer(data) {
  if (data.computer) game.log.push({ text: "Computer: " + data.computer.move + " → " + (data.computer.to.join(" ") || "0") });
}

function finished(data) {
  Object.assign(game, { position: data.position, last: data.last, moves: data.moves, over: data.over, winner: data.winner });
  if (data.over && !game.counted) { game.counted = true; count(data.winner); }
}

async function start(computerFirst) {
  const position = $("play-start").value;
  const body = { position };
  if ($("play-last").value !== "" && !$("play-last-label").hidden) body.last = Number($("play-last").value);
  if (computerFirst) body.computer = true;
  game = null;
  const seed = 1 + Math.floor(Math.random() * 1e9);
  const data = await step(Object.assign(body, { seed }));
  if (!data) return;
  game = { position: data.position, last: data.last, moves: data.moves, over: data.over, winner: data.winner, log: [], slips: [], undo: [],
           moveNumber: 0, history: data.positions.slice(), slipAt: null, seed, computerFirst, partizan: !!data.side, side: data.side,
           counted: false, startedLost: !computerFirst && data.positions[0].for_you === "lose" };
  logComputer(data);
  finished(data);
  render();
  // On a phone the board sits below the editor, the tabs and the game's settings (1,000 px
  // down): a started game brings its position and moves into view.
  if (window.innerWidth <= 900) $("play-board").scrollIntoView({ block: "start" });
}

async function move(m) {
  const before = { position: game.position, last: game.last, moves: game.moves, over: game.over, winner: game.winner, log: game.log.slice(),
                   slips: game.slips.slice(), moveNumber: game.moveNumber, history: game.history.slice(), slipAt: game.slipAt, counted: game.counted };
  const body = { position: game.position.join(" "), to: m.to.join(" ") };
  if (game.last !== undefined && game.last !== null) body.last = game.last;
  const data = await step(body);
  if (!data) return;
  game.undo.push(before);
  game.moveNumber += 1;
  const slipped = data.you.slip && game.slips.length === 0;
  game.log.push({ text: "Your move " + game.moveNumber + ": " + data.you.move + " → " + (data.you.to.join(" ") || "0"), slip: slipped });
  if (slipped) {
    game.slips.push(Object.assign({ number: game.moveNumber }, data.you.slip));
    game.slipAt = game.history.length;
  }
  game.history.push(...data.positions.slice(1));
  logComputer(data);
  finished(data);
  render();
}

$("play-you-first").addEventListener("click", () => start(false));
$("play-computer-first").addEventListener("click", () => start(true));
$("play-swap").addEventListener("click", () => {
  if (!game) return;
  if (game.partizan) {
    $("play-side").value = game.side === "Left" ? "Right" : "Left";
    start(game.computerFirst);
  } else start(!game.computerFirst);
});
$("play-undo").addEventListener("click", () => {
  if (!game) return;
  const before = game.undo.pop();
  if (!before) return;
  Object.assign(game, before);
  render();
});
$("play-hint").addEventListener("click", async () => {
  if (!game || game.over) return;
  const body = { position: game.position.join(" "), hint: true };
  if (game.last !== undefined && game.last !== null) body.last = game.last;
  const data = await step(body);
  if (!data) return;
  const h = data.hint;
  const advice = h.kind === "win" ? "Hint: " + h.move + (game.partizan ? " (from there the computer, moving first, loses)" : " (it leaves a P-position)")
    : h.kind === "draw" ? "Hint: " + h.move + " keeps the draw"
    : h.kind === "temperature" ? "Too large to search; by temperature: " + h.move + " (the hottest pile's best move: advice, not a proof)"
    : h.move ? (game.partizan ? "Every move loses against best play: " + h.move + " is one of them."
                              : "Every move loses against best play (a P-position): " + h.move + " keeps the game going longest.")
    : "Every move loses against best play: this is a P-position.";
  const hottest = h.hottest ? " The hottest pile is the pile of " + h.hottest.pile + " (temperature "
    + h.hottest.temperature + "): moving there first is worth the most." : "";
  $("play-hint-out").textContent = advice + hottest;
});

// ---- the atlas of octal games -------------------------------------------------------------
let atlas = null;
const ATLAS_SHOWN = 200;
async function loadAtlas() {
  if (atlas) return atlas;
  const response = await fetch("/api/atlas");
  atlas = await response.json();
  return atlas;
}
function atlasCell(column, row) {
  const v = row[atlas.columns.indexOf(column)];
  return v === null || v === undefined ? "" : String(v);
}
async function showAtlas() {
  const data = await loadAtlas();
  const words = $("atlas-search").value.trim().toLowerCase().split(/\s+/).filter((w) => w !== "");
  const status = $("atlas-status").value;
  const matches = data.rows.filter((row) => {
    if (status && atlasCell("status", row) !== status) return false;
    return words.every((w) => atlasCell("game", row).startsWith(w) || atlasCell("status", row) === w || atlasCell("method", row) === w);
  });
  $("atlas-count").textContent = matches.length + " of " + data.rows.length + " codes" + (matches.length > ATLAS_SHOWN ? " (the first " + ATLAS_SHOWN + " shown: type more of a code)" : "");
  const table = text("table", undefined, "values");
  const head = text("tr");
  const shown = ["game", "status", "preperiod", "period", "values_computed", "largest_value", "rare_values", "last_rare", "same_values_as"];
  const names = { game: "code", values_computed: "values", largest_value: "largest", rare_values: "rare", last_rare: "last rare", same_values_as: "same values as" };
  for (const c of shown) head.append(text("th", names[c] || c));
  table.append(head);
  for (const row of matches.slice(0, ATLAS_SHOWN)) {
    const tr = text("tr");
    for (const c of shown) {
      const td = text("td");
      if (c === "game") {
        const b = text("button", atlasCell(c, row), "quiet atlas-code");
        b.addEventListener("click", () => openCode(atlasCell(c, row)));
        td.append(b);
      } else td.textContent = atlasCell(c, row);
      tr.append(td);
    }
    table.append(tr);
  }
  $("atlas-out").replaceChildren(table);
}
// A code of the atlas opens as a game: its text in the editor, its table and its plot.
async function openCode(code) {
  source.value = 'game "' + code + '"\npiles\nmove: octal ' + code + "\n";
  $("games").value = "";
  resetPlay();
  check();
  $("table-upto").value = 100;
  $("plot-upto").value = 200;
  showTab("table");
  keep();
  await showTable();
  $("plot-go").click();
}
$("atlas-search").addEventListener("input", showAtlas);
$("atlas-status").addEventListener("change", showAtlas);

// ---- sharing: the link, and on a network the address and its QR code ----------------------------
$("share").addEventListener("click", () => {
  $("share-link").value = link();
  const network = $("share-network");
  network.replaceChildren();
  if (about.urls.length) {
    network.append(text("p", "On this network, a class types this address (or scans the code):"));
    network.append(text("p", about.urls.join("  or  "), "network-address"));
    if (about.qr) {
      const qr = new DOMParser().parseFromString(about.qr, "image/svg+xml").documentElement;
      qr.setAttribute("role", "img");
      qr.setAttribute("aria-label", "QR code of " + about.urls[0]);
      const box = text("div");
      box.id = "share-qr";
      box.append(document.importNode(qr, true));
      network.append(box);
    }
  } else {
    network.append(text("p", "Only this machine can open the page: start it with takeaway serve --host 0.0.0.0 to share it with a classroom.", "note"));
  }
  $("share-panel").showModal();
});
$("share-copy").addEventListener("click", async () => {
  $("share-link").select();
  try { await navigator.clipboard.writeText($("share-link").value); $("share-copy").textContent = "Copied"; }
  catch (e) { document.execCommand("copy"); $("share-copy").textContent = "Copied"; }
  setTimeout(() => { $("share-copy").textContent = "Copy the link"; }, 1500);
});
$("share-close").addEventListener("click", () => $("share-panel").close());

// ---- keyboard ------------------------------------------------------------------------------
$("help-open").addEventListener("click", () => $("help").showModal());
$("help-close").addEventListener("click", () => $("help").close());
// Enter in a field asks its question, as its button does.
for (const input of document.querySelectorAll("input[data-go]")) {
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); $(input.dataset.go).click(); }
  });
}
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && running) { cancelRunning(); return; }
  const typing = e.target.closest && e.target.closest("input, textarea, select, [contenteditable]");
  if (typing || e.ctrlKey || e.metaKey || e.altKey || document.querySelector("dialog[open]")) return;
  const tabs = [...document.querySelectorAll("nav.tabs button")];
  if (e.key >= "1" && e.key <= String(tabs.length)) { tabs[Number(e.key) - 1].click(); tabs[Number(e.key) - 1].focus(); }
  else if (e.key === "?") $("help").showModal();
  else if (e.key === "h" && game && !game.over) $("play-hint").click();
  else if (e.key === "u" && game) $("play-undo").click();
  else if (e.key === "v") { $("play-values").checked = !$("play-values").checked; $("play-values").dispatchEvent(new Event("change")); }
  else return;
  e.preventDefault();
});

// ---- start ---------------------------------------------------------------------------------
async function loadAbout() {
  try {
    const response = await fetch("/api/about");
    about = await response.json();
  } catch (e) { /* the defaults */ }
  $("time-limit").max = String(about.timeout);
  $("time-most").textContent = " (≤ " + about.timeout + ")";
  const shared = new URLSearchParams(location.hash.slice(1));
  if (!shared.has("time-limit")) $("time-limit").value = String(about.default_timeout);
  // The fields start at the engine's defaults (the page's own values are for a page offline).
  for (const [id, value] of Object.entries(about.defaults || {})) if (!shared.has(id)) $(id).value = String(value);
}
// Past the server's limit the field says the limit (left empty, a question has the default).
$("time-limit").addEventListener("change", () => {
  if (Number($("time-limit").value) > about.timeout) $("time-limit").value = String(about.timeout);
});

restore();
showScore();
loadAbout();
loadGames();
check();
