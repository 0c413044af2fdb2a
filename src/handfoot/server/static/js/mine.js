// "My tables" (/mine): every table this browser holds a seat token for, whose turn it is at
// each and when the last move was (your turn first), and the player's history.  The tokens go
// to the server in a POST body (POST /api/mine); the server answers per table only what that
// seat may know, and computes the history with the engine: nothing is scored here.

import { h, fill, byId } from "./dom.js";
import { postJSON } from "./api.js";
import * as store from "./store.js";
import { paceWords, when } from "./pace.js";

const STATUS = { lobby: "In the lobby: waiting to start", over: "Game over" };
const EVERY = 30000; // ms between refreshes while the page is shown

function ago(iso) {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return "";
  const s = Math.max(0, Math.round((Date.now() - then) / 1000));
  if (s < 60) return "just now";
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const hrs = Math.round(m / 60);
  if (hrs < 48) return `${hrs} h ago`;
  return `${Math.round(hrs / 24)} days ago`;
}

function turnWords(t) {
  if (t.status !== "playing") return STATUS[t.status] || t.status;
  if (t.turn === null) return "Playing";
  const since = t.since ? ` since ${when(t.since)}` : "";
  if (t.your_turn) return t.asked ? `Your partner asks you: may I go out?${since}` : `Your turn${since}`;
  return `${t.turn_name || `Seat ${t.turn + 1}`}'s turn${since}`;
}

// A turn-based table: its pace, and when the turn's limit passes (or that it has).
function paceLine(t) {
  if (!t.pace || t.pace.pace !== "turn-based") return null;
  let limit = "";
  if (t.waiting) limit = " · the limit passed: the game waits";
  else if (t.deadline && t.status === "playing") limit = ` · ${t.pace.on_limit === "wait" ? "limit" : "a bot plays"} ${when(t.deadline)}`;
  return h("span", { class: "mn-pace" }, paceWords(t.pace), limit);
}

function row(t) {
  const classes = ["mn-table", t.status, t.your_turn ? "your-turn" : "", t.waiting ? "waiting" : ""].join(" ").trim();
  return h("li", { class: classes, dataset: { table: t.table } },
    h("a", { class: "mn-name-link", href: t.url }, t.name || "A table"),
    h("span", { class: "mn-when" }, t.last_move ? h("time", { datetime: t.last_move, title: t.last_move }, ago(t.last_move)) : null),
    h("span", { class: "mn-turn" }, turnWords(t)),
    paceLine(t),
    h("span", { class: "mn-facts" }, `You: ${t.seat_name || `seat ${t.seat + 1}`} · ${t.rules}${t.game ? ` · game ${t.game}` : ""}`,
      t.status === "over" && t.game ? [" · ", h("a", { href: `/replay/${encodeURIComponent(t.table)}?game=${t.game}` }, "replay")] : null));
}

function pct(share) {
  return share === null ? "–" : `${Math.round(share * 100)}%`;
}

function history(lines) {
  const el = byId("history");
  if (!lines.length) {
    fill(el, h("p", { class: "mn-note" }, "No finished games yet at this browser's tables."));
    return;
  }
  const me = store.playerName();
  const sorted = [...lines].sort((a, b) => (b.name === me) - (a.name === me));
  // Each cell names its column (data-label): a phone shows every line as a small card.
  const cell = (label, text, attrs = {}) => h("td", { ...attrs, "data-label": label }, text);
  fill(el, h("p", { class: "mn-note" }, "Per name and rule set. Round score and canastas are the name's team's."),
    h("table", { class: "mn-history", id: "history-table" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, "Name"), h("th", { scope: "col" }, "Rules"),
        h("th", { scope: "col" }, "Games"), h("th", { scope: "col" }, "Won"),
        h("th", { scope: "col" }, "Avg round"), h("th", { scope: "col" }, "Canastas"),
        h("th", { scope: "col" }, "Went out"))),
      h("tbody", {}, sorted.map((l) => h("tr", { class: l.name === me ? "me" : null },
        cell("Name", l.name || "(no name)"), cell("Rules", l.rules),
        cell("Games", String(l.games)), cell("Won", String(l.won)),
        cell("Avg round", l.average_round === null ? "–" : String(l.average_round)),
        cell("Canastas", String(l.canastas)),
        cell("Went out", `${l.went_out} of ${l.rounds} rounds (${pct(l.went_out_share)})`))))));
}

function gone(unknown) {
  const el = byId("gone");
  if (!unknown.length) {
    fill(el);
    return;
  }
  fill(el, h("p", { class: "mn-gone" },
    `${unknown.length} table${unknown.length === 1 ? "" : "s"} this browser knew ${unknown.length === 1 ? "is" : "are"} gone, or ${unknown.length === 1 ? "its" : "their"} seat was given up. `,
    h("button", { type: "button", id: "forget", onclick: () => {
      for (const table of unknown) store.forgetSeat(table);
      load();
    } }, "Forget them")));
}

let loading = false;
async function load() {
  if (loading) return;
  loading = true;
  const status = byId("status");
  const seats = store.seatTokens();
  try {
    if (!seats.length) {
      fill(byId("tables"));
      status.textContent = "This browser has no seat at any table yet. Start one, or open an invite link.";
      history([]);
      gone([]);
      return;
    }
    const answer = await postJSON("/api/mine", { seats });
    const mine = answer.tables.filter((t) => t.your_turn).length;
    status.textContent = mine ? `Your turn at ${mine} table${mine === 1 ? "" : "s"}.` : "";
    document.title = mine ? `(${mine}) My tables - handfoot` : "My tables - handfoot";
    fill(byId("tables"), answer.tables.map(row));
    gone(answer.unknown);
    history(answer.history);
  } catch (err) {
    status.textContent = `The tables could not be fetched: ${err.message}`;
  } finally {
    loading = false;
  }
}

function boot() {
  const input = byId("my-name");
  input.value = store.playerName();
  byId("name-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = input.value.trim();
    store.savePlayerName(name);
    byId("status").textContent = name ? `New tables start with the name ${name}.` : "";
    load();
  });
  byId("refresh").addEventListener("click", () => load());
  document.addEventListener("visibilitychange", () => { if (!document.hidden) load(); });
  setInterval(() => { if (!document.hidden) load(); }, EVERY);
  load();
}

boot();
