// The replay page: a finished game of a table (/replay/TABLE?game=N) or a record file from
// this computer (/replay), step by step from one seat's view, and the review of that seat's
// turns (by the expert) and decisions (by the strong bot).  Every step is what the server computed with the engine (docs/PROTOCOL.md,
// "Replays"): this page draws it and decides nothing about the game.

import { h, fill } from "./dom.js";
import { cardClass, cardName, counts, face, mark, slotName, tokens } from "./cards.js";
import { tableKeys } from "./store.js";

const $ = (id) => document.getElementById(id);
const MAX_FILE = 1024 * 1024; // the server's limit too (server/replays.py)

const state = {
  table: null, // the table's id, or null for a file
  game: null,
  file: null, // the record file's text, sent again when the seat changes
  fileName: "",
  seat: 0,
  every: false,
  data: null, // the server's replay
  review: null, // the server's review, by step
  at: 0,
  timer: null,
};

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function card(token, extra = "") {
  return h("span", { class: `rp-card ${cardClass(token)} ${extra}`.trim(), title: cardName(token) },
    h("span", { class: "rp-face" }, face(token)),
    mark(token) ? h("span", { class: "rp-mark" }, mark(token)) : null);
}

function hand(text) {
  const list = tokens(counts(text));
  if (!list.length) return h("p", { class: "rp-empty" }, "no cards");
  return h("div", { class: "rp-cards", role: "list" }, list.map((t) => {
    const c = card(t);
    c.setAttribute("role", "listitem");
    return c;
  }));
}

function packetName(rules, packet) {
  const n = (rules.packets || [0, 0]).length;
  if (packet === 0) return "hand";
  return packet === n - 1 ? "foot" : "knee";
}

// ---------------------------------------------------------------------- loading
function query() {
  const q = new URLSearchParams(location.search);
  const parts = location.pathname.split("/").filter(Boolean);
  state.table = parts[0] === "replay" && parts[1] ? decodeURIComponent(parts[1]) : null;
  state.game = q.get("game");
  const seat = q.get("seat");
  if (seat !== null && /^\d+$/.test(seat)) state.seat = Number(seat);
  else if (state.table) {
    const mine = tableKeys(state.table).seat;
    if (Number.isInteger(mine)) state.seat = mine;
  }
  state.every = q.get("every") === "1";
  const step = q.get("step");
  state.at = step && /^\d+$/.test(step) ? Number(step) : 0;
}

function notice(text, bad = false) {
  const el = $("notice");
  el.textContent = text;
  el.hidden = !text;
  el.classList.toggle("bad", bad);
}

async function answer(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const message = body && body.error ? body.error.message : `the server answered ${response.status}`;
    const err = new Error(message);
    err.code = body && body.error ? body.error.code : "http";
    throw err;
  }
  return body;
}

function params(extra = {}) {
  const q = new URLSearchParams({ seat: String(state.seat), ...extra });
  if (state.game) q.set("game", state.game);
  return q.toString();
}

async function fetchSteps() {
  const every = state.every ? { every: "1" } : {};
  if (state.table) {
    const url = `/api/tables/${encodeURIComponent(state.table)}/replay?${params(every)}`;
    return answer(await fetch(url));
  }
  return answer(await fetch(`/api/replay?${params(every)}`, { method: "POST", body: state.file }));
}

async function fetchReview() {
  if (state.table) {
    return answer(await fetch(`/api/tables/${encodeURIComponent(state.table)}/review?${params()}`));
  }
  return answer(await fetch(`/api/replay/review?${params()}`, { method: "POST", body: state.file }));
}

async function load(keepStep = true) {
  stop();
  notice("Loading…");
  try {
    const data = await fetchSteps();
    data.teams = data.steps[0].view.teams.length;
    state.data = data;
    state.review = null;
    if (!keepStep) state.at = 0;
    state.at = Math.min(state.at, data.steps.length - 1);
    setup();
    notice("");
    $("game").hidden = false;
    show(state.at);
  } catch (err) {
    $("game").hidden = true;
    if (state.table) notice(`${err.message[0].toUpperCase()}${err.message.slice(1)}.`, true);
    else {
      notice("");
      $("open-error").textContent = err.message;
    }
  }
}

function setup() {
  const d = state.data;
  const where = d.source.table
    ? `table ${d.source.table}, game ${d.source.game}`
    : `file ${state.fileName}`;
  fill($("where"), `${where} · ${d.rules.name || ""}`,
    d.source.table ? [" · ", h("a", { href: `/t/${encodeURIComponent(d.source.table)}` }, "the table")] : null);
  document.title = `Replay: ${where} - handfoot`;
  fill($("seat"), d.names.map((name, s) =>
    h("option", { value: String(s), selected: s === d.seat }, `${name} (seat ${s}, team ${s % d.teams})`)));
  $("every").checked = d.every_hand;
  fill($("round"), d.rounds.map((r) => h("option", { value: String(r.step) }, `Round ${r.round}`)));
  $("slider").max = String(d.steps.length - 1);
  fill($("review-body"));
  $("review-button").hidden = false;
  $("review-button").textContent = `Review ${d.names[d.seat]}'s play`;
}

function remember() {
  const q = new URLSearchParams();
  if (state.game) q.set("game", state.game);
  else if (state.data && state.data.source.game) q.set("game", String(state.data.source.game));
  q.set("seat", String(state.seat));
  if (state.every) q.set("every", "1");
  q.set("step", String(state.at));
  history.replaceState(null, "", `${location.pathname}?${q}`);
}

// ---------------------------------------------------------------------- drawing
function meld(slot, m) {
  const [n, twos, jokers] = m;
  const parts = [];
  if (slot !== "wild" && n) parts.push(card(slot), h("span", { class: "rp-count" }, `×${n}`));
  if (twos) parts.push(card("2"), h("span", { class: "rp-count" }, `×${twos}`));
  if (jokers) parts.push(card("JK"), h("span", { class: "rp-count" }, `×${jokers}`));
  const total = (slot === "wild" ? 0 : n) + twos + jokers;
  return h("li", { class: "rp-meld", "aria-label": `${slotName(slot)}: ${plural(total, "card")}` }, parts);
}

function teamPanel(d, v, team) {
  const t = v.teams[team];
  const seats = d.names.filter((_, s) => s % d.teams === team);
  const melds = Object.entries(t.melds);
  return h("section", { class: `rp-team${team === v.seat % d.teams ? " mine" : ""}` },
    h("h3", {}, `Team ${team}: ${seats.join(" & ")}`,
      h("span", { class: "rp-total" }, ` ${v.totals[team].toLocaleString("en")} points`)),
    h("p", { class: "rp-fact" }, t.opened ? "opened" : `not opened (needs ${t.minimum})`),
    t.canastas.length
      ? h("ul", { class: "rp-canastas", "aria-label": "Canastas" }, t.canastas.map((c) =>
        h("li", { class: `rp-canasta ${c[4]}` }, card(c[0] === "wild" ? "JK" : c[0] === "B3" ? "B3" : c[0]),
          ` ${c[4]}`)))
      : null,
    melds.length
      ? h("ul", { class: "rp-melds", "aria-label": "Open melds" }, melds.map(([slot, m]) => meld(slot, m)))
      : h("p", { class: "rp-empty" }, "no open melds"));
}

function seatPanel(d, v, step, s) {
  const info = v.seats[s];
  const mine = s === v.seat;
  const shown = mine ? v.hand : step.hands ? step.hands[s] : null;
  const where = packetName(d.rules, info.packet);
  return h("section", { class: `rp-seat${mine ? " mine" : ""}${v.actor === s ? " acting" : ""}`, "data-seat": String(s) },
    h("h3", {}, d.names[s], mine ? h("span", { class: "rp-you" }, " (this view)") : null,
      v.actor === s && v.phase !== "game-over" ? h("span", { class: "rp-acting" }, " to play") : null),
    h("p", { class: "rp-fact" }, `${plural(info.hand_size, "card")} in ${where}`,
      info.packet_sizes.length ? ` · ${info.packet_sizes.length} packet${info.packet_sizes.length > 1 ? "s" : ""} to come` : "",
      info.red_threes ? ` · ${plural(info.red_threes, "red three")}` : ""),
    shown !== null ? hand(shown) : null);
}

function draw() {
  const d = state.data;
  const step = d.steps[state.at];
  const v = step.view;
  const teams = [...Array(d.teams).keys()];
  const pileSize = (v.pile || "").split(/\s+/).filter(Boolean).length;
  fill($("table"),
    h("div", { class: "rp-centre" },
      h("p", {}, h("strong", {}, `Round ${v.round} of ${v.rounds}`), ` · turn ${v.turns}`),
      h("p", {}, "Stock ", h("strong", {}, String(v.stock_size))),
      h("p", { class: "rp-pile" }, "Pile ", v.pile_top ? card(v.pile_top) : h("span", { class: "rp-empty" }, "empty"),
        ` ${plural(pileSize, "card")}`),
      v.phase === "game-over"
        ? h("p", { class: "rp-over" }, `Game over: ${d.winners && d.winners.length > 1 ? "a tie" : `team ${d.winners ? d.winners[0] : "?"} wins`}`)
        : null),
    h("div", { class: "rp-teams" }, teams.map((t) => teamPanel(d, v, t))),
    h("div", { class: "rp-seats" }, d.names.map((_, s) => seatPanel(d, v, step, s))));
  const who = step.by === null ? "the deal" : `${d.names[step.by]}: ${step.action}`;
  $("step").textContent = `Step ${state.at} of ${d.steps.length - 1} · ${who}`;
  fill($("log"), step.log.map((line) => h("li", {}, line)));
  $("slider").value = String(state.at);
  let round = 0;
  d.rounds.forEach((r, i) => { if (r.step <= state.at) round = i; });
  $("round").selectedIndex = round;
  $("back").disabled = $("first").disabled = state.at === 0;
  $("forward").disabled = $("last").disabled = state.at === d.steps.length - 1;
  drawDecision();
}

function show(at) {
  const d = state.data;
  state.at = Math.max(0, Math.min(at, d.steps.length - 1));
  draw();
  remember();
}

// ---------------------------------------------------------------------- review
function decisionBox(item, names, seat) {
  const by = state.review.moves_by;
  return h("div", { class: `rp-decision${item.differs ? " differs" : " agrees"}`, "data-step": String(item.step) },
    h("p", {}, h("strong", {}, `${names[seat]} played: `), item.played),
    item.differs
      ? [h("p", {}, h("strong", {}, `The ${by} bot: `), item.best),
        h("p", { class: "rp-says" }, item.says),
        h("p", { class: "rp-why" }, `Why: ${item.why}.`)]
      : h("p", {}, `The ${by} bot agrees.`));
}

function points(n) {
  return `${n.toLocaleString("en")} ${n === 1 ? "point" : "points"}`;
}

function turnBox(turn, names, seat) {
  const lost = turn.lost > 0;
  return h("div", { class: `rp-turn${lost ? " lost" : " agrees"}`, "data-step": String(turn.step) },
    h("h4", {}, `This turn (round ${turn.round}, steps ${turn.step}–${turn.last})`),
    h("p", {}, h("strong", {}, `${names[seat]} played: `), turn.played),
    turn.agrees
      ? h("p", {}, "The expert plays the same turn.")
      : [h("p", {}, h("strong", {}, "The expert: "), turn.best,
        turn.plan ? h("span", { class: "rp-plan" }, ` (${turn.plan})`) : null),
      h("p", { class: "rp-says" }, turn.says),
      h("p", { class: "rp-why" }, `Why: ${turn.why}.`),
      h("p", { class: "rp-lost" }, lost
        ? h("strong", {}, `Lost: ${points(turn.lost)}.`)
        : "The turn played scored at least as well as the expert's plan.")]);
}

function drawDecision() {
  const old = document.getElementById("here");
  if (old) old.remove();
  if (!state.review) return;
  const r = state.review;
  const d = state.data;
  const turn = r.turns.find((t) => t.step <= state.at && state.at <= t.last);
  const item = r.byStep.get(state.at);
  const boxes = [
    turn ? turnBox(turn, d.names, r.seat) : null,
    item ? decisionBox(item, d.names, r.seat) : null,
  ].filter(Boolean);
  $("review-here").append(h("div", { id: "here", class: "rp-here" },
    h("h3", {}, `Step ${state.at}`),
    boxes.length ? boxes : h("p", { class: "rp-fact" }, "No decision of this seat at this step.")));
}

function drawReview() {
  const r = state.review;
  const jump = (item, label) => h("button", { type: "button", class: "rp-jump", "data-step": String(item.step), onclick: () => { stop(); show(item.step); } }, label);
  const biggest = r.biggest.map((step) => r.turnByStep.get(step));
  const losing = r.turns.filter((t) => t.lost > 0);
  const cap = (text) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  fill($("review-body"),
    h("p", { class: "rp-fact" }, `${cap(r.compared_with)}: ${plural(r.turns.length, "turn")}, `,
      `${plural(r.turns_lost, "turn")} losing points (${points(r.lost)} in all)`,
      r.not_reviewed ? ` (${r.not_reviewed} not reviewed: no world fits the view)` : "", "."),
    r.stopped_at
      ? h("p", { class: "rp-fact", id: "review-stopped" }, `The review stops at step ${r.stopped_at}: it weighs at most ${r.most_turns} turns of a seat.`)
      : null,
    biggest.length
      ? [h("h3", {}, "Biggest differences"),
        h("ol", { class: "rp-biggest", id: "biggest" }, biggest.map((t) => h("li", {},
          jump(t, `Round ${t.round}, turn ${t.turn}`), ` lost ${points(t.lost)}: played ${t.played}; the expert: ${t.best}`)))]
      : h("p", {}, "No turn of this seat lost points against the expert's plans."),
    h("div", { id: "review-here" }),
    h("p", { class: "rp-note" }, `Points lost: how much more the expert's plan was worth than the turn played, both ${r.valued_by}.`),
    losing.length > BIGGEST_SHOWN
      ? h("details", { class: "rp-all" }, h("summary", {}, `All ${losing.length} turns that lost points`),
        h("ol", {}, losing.map((t) => h("li", {}, jump(t, `Round ${t.round}, turn ${t.turn}`),
          ` ${points(t.lost)}: ${t.played} → ${t.best}`))))
      : null,
    h("p", { class: "rp-fact rp-moves" }, `Single moves ${r.moves_compared_with}: ${plural(r.decisions.length, "decision")}, ${plural(r.differences, "difference")}`,
      r.not_compared ? ` (${r.not_compared} not compared: whole lay-downs)` : "", "."));
  drawDecision();
  markSlider();
}
const BIGGEST_SHOWN = 3;

function markSlider() {
  // The turns that lost points as ticks under the step slider (a datalist the browser draws).
  const r = state.review;
  let list = document.getElementById("diff-ticks");
  if (!list) {
    list = h("datalist", { id: "diff-ticks" });
    document.body.append(list);
    $("slider").setAttribute("list", "diff-ticks");
  }
  fill(list, r.turns.filter((t) => t.lost > 0).map((t) => h("option", { value: String(t.step) })));
}

async function review() {
  $("review-button").disabled = true;
  fill($("review-body"), h("p", {}, "Reviewing…"));
  try {
    const r = await fetchReview();
    r.byStep = new Map(r.decisions.map((x) => [x.step, x]));
    r.turnByStep = new Map(r.turns.map((t) => [t.step, t]));
    state.review = r;
    $("review-button").hidden = true;
    drawReview();
  } catch (err) {
    fill($("review-body"), h("p", { class: "rp-error" }, err.message));
  } finally {
    $("review-button").disabled = false;
  }
}

// ---------------------------------------------------------------------- playing
function stop() {
  if (state.timer !== null) clearInterval(state.timer);
  state.timer = null;
  $("play").textContent = "▶ Play";
  $("play").setAttribute("aria-label", "Play");
}

function play() {
  if (state.timer !== null) return stop();
  if (state.at >= state.data.steps.length - 1) show(0);
  $("play").textContent = "❚❚ Pause";
  $("play").setAttribute("aria-label", "Pause");
  state.timer = setInterval(() => {
    if (state.at >= state.data.steps.length - 1) return stop();
    show(state.at + 1);
  }, Number($("speed").value));
}

function wire() {
  $("first").addEventListener("click", () => { stop(); show(0); });
  $("back").addEventListener("click", () => { stop(); show(state.at - 1); });
  $("forward").addEventListener("click", () => { stop(); show(state.at + 1); });
  $("last").addEventListener("click", () => { stop(); show(state.data.steps.length - 1); });
  $("play").addEventListener("click", play);
  $("speed").addEventListener("change", () => { if (state.timer !== null) { stop(); play(); } });
  $("slider").addEventListener("input", () => { stop(); show(Number($("slider").value)); });
  $("round").addEventListener("change", () => { stop(); show(Number($("round").value)); });
  $("seat").addEventListener("change", () => { state.seat = Number($("seat").value); load(); });
  $("every").addEventListener("change", () => { state.every = $("every").checked; load(); });
  $("review-button").addEventListener("click", review);
  document.addEventListener("keydown", (e) => {
    if (!state.data || e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const keys = { ArrowLeft: () => show(state.at - 1), ArrowRight: () => show(state.at + 1),
      Home: () => show(0), End: () => show(state.data.steps.length - 1) };
    if (keys[e.key]) { stop(); keys[e.key](); e.preventDefault(); }
    else if (e.key === " " && tag !== "BUTTON") { play(); e.preventDefault(); }
  });
  $("file").addEventListener("change", async () => {
    const file = $("file").files[0];
    $("open-error").textContent = "";
    if (!file) return;
    if (file.size > MAX_FILE) {
      $("open-error").textContent = `${file.name} is over ${MAX_FILE / 1024} KiB; a game record is far smaller`;
      return;
    }
    state.file = await file.text();
    state.fileName = file.name;
    state.seat = 0;
    state.every = false;
    await load(false);
  });
}

query();
wire();
if (state.table) load();
else {
  $("open").hidden = false;
  notice("");
}
