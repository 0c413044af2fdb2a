// The coaching table and the answers nothing may lose: the partner's question in the action
// bar, "Why?" beside every refusal, the opening meter, the hint as a step to play, the cards
// that can be played now, what the pile would bring, and the table points so far.
//
// Nothing here decides a rule: every fact comes from the server (the legal actions, the
// engine's check of the staged cards, the pile's status, the hint, the table points, the rule
// texts); this module only shows them.

import { h, plural } from "./dom.js";
import { cardName, counts, ALL } from "./cards.js";
import { showRule } from "./dialogs.js";

function letter(team) {
  return "ABCDEF"[team] || String(team + 1);
}

// ---------------------------------------------------------------- the partner's question
// Shown in the action bar while the person is to answer, whatever happened to the dialog
// (Esc, Android's back gesture, a reload): the table waits on this answer.
export function answerBar(g) {
  const v = g.view;
  const asker = g.table.seats[v.turn].name || `Seat ${v.turn + 1}`;
  const binding = g.table.rules.permission_yes === "binding";
  return [
    h("p", { class: "answer-prompt", id: "answer-prompt" },
      h("strong", {}, `${asker} asks you: may I go out?`),
      binding ? " A yes means they must go out this turn." : ""),
    h("button", { type: "button", id: "act-yes", class: "act primary", "aria-keyshortcuts": "y",
      "aria-describedby": "answer-prompt", dataset: { fid: "act-yes" }, onclick: () => g.answer(true) },
    "Yes", h("kbd", { "aria-hidden": "true" }, "y")),
    h("button", { type: "button", id: "act-no", class: "act", "aria-keyshortcuts": "n",
      "aria-describedby": "answer-prompt", dataset: { fid: "act-no" }, onclick: () => g.answer(false) },
    "No", h("kbd", { "aria-hidden": "true" }, "n")),
  ];
}

// Whether a move's button belongs on the bar: the rules can offer it (the server says which,
// in the table message's "moves"), or the engine offers it now.
export function moveApplies(g, move) {
  const moves = g.table.moves;
  return !Array.isArray(moves) || moves.includes(move) || g.legal.some((a) => a === move || a.startsWith(`${move} `));
}

// ---------------------------------------------------------------- "Why?"
export function whyButton(clause, title = "") {
  if (!clause) return null;
  return h("button", {
    type: "button", class: "why small", dataset: { clause },
    "aria-label": `Why? Rule ${clause}${title ? ", " + title : ""}`, "aria-haspopup": "dialog",
    onclick: () => showRule(clause),
  }, "Why?");
}

// ---------------------------------------------------------------- marking cards
// The cards that can be played now: those in a meld step the engine lists as legal, and any
// card at all when the engine offers a discard of it (then it is marked "discard" only).
export function playable(g) {
  const out = new Set();
  if (!g.coaching) return out;
  for (const a of g.legal) {
    if (a.startsWith("meld ") || a.startsWith("add ")) {
      const rest = a.slice(a.indexOf(" ") + 1);
      const cards = rest.includes(":") ? rest.slice(rest.indexOf(":") + 1) : rest;
      for (const t of cards.trim().split(/\s+/)) if (ALL.includes(t)) out.add(t);
    } else if (a === "book B3") {
      out.add("B3");
    }
  }
  return out;
}

// ---------------------------------------------------------------- the pile
// What taking it would bring (the whole table saw every discard, so the view lists them).
// Whether the person may take it, and why not, is the pile's status line (render.js), with
// its "Why?".
export function pileNote(g) {
  if (!g.coaching || !g.pile || g.seat === null) return null;
  const cards = (g.view.pile || "").split(" ").filter(Boolean);
  if (!cards.length) return null;
  const c = counts(g.view.pile);
  const words = ALL.filter((t) => c[t]).map((t) => (c[t] > 1 ? `${t} ×${c[t]}` : t)).join(", ");
  return h("p", { class: "pile-coach", id: "pile-coach" },
    `Taking it would bring you ${plural(cards.length, "card")}: ${words}.`);
}

// ---------------------------------------------------------------- the coach's panel
function meter(g) {
  const v = g.view;
  const team = v.teams[g.team(g.seat)];
  if (team.opened) return null;
  const check = g.check;
  const laid = check && check.opening ? check.opening.laid : (v.staged || 0);
  const minimum = check && check.opening ? check.opening.minimum : team.minimum;
  const max = Math.max(minimum, 1);
  return h("div", { class: "opening-meter" },
    h("label", { for: "opening-meter" }, `Opening: ${laid} of ${minimum} points staged`),
    h("meter", { id: "opening-meter", min: "0", max: String(max), low: String(Math.max(0, max - 0.5)), high: String(max), optimum: String(max), value: String(Math.min(laid, max)) }),
    laid >= minimum && g.staged.length ? h("span", { class: "meter-ok" }, " ✓ enough to open") : null);
}

function hintLine(g) {
  const hint = g.hintShown;
  if (!hint || hint.version !== g.conn.version) return null;
  return h("p", { class: "hint-line", id: "hint-line" }, h("strong", {}, "Hint: "), hint.text,
    hint.action ? [" ", h("button", { type: "button", class: "small primary", id: "play-hint", onclick: () => g.playHint() }, "Play it")] : null);
}

function refusalLine(g) {
  const r = g.lastRefusal;
  if (!r || r.version !== g.conn.version) return null;
  return h("p", { class: "refusal-line", id: "refusal-line" }, h("strong", {}, "✗ Refused: "), r.reason,
    ` (rule ${r.clause}${r.rule ? ", " + r.rule : ""}) `, whyButton(r.clause, r.rule));
}

export function coachPanel(g) {
  if (g.seat === null || !g.view || g.view.phase === "game-over") return null;
  const parts = [refusalLine(g)];
  if (g.coaching) parts.unshift(meter(g), hintLine(g));
  if (!parts.some(Boolean)) return null;
  return h("section", { class: "panel coach", "aria-labelledby": "coach-h" },
    h("h2", { id: "coach-h", class: "sr-only" }, "Coach"), parts);
}

// ---------------------------------------------------------------- the table points so far
export function runningScore(g) {
  const points = g.tablePoints;
  if (!points || !points.length || g.view.phase === "game-over") return null;
  const mine = g.seat !== null ? g.team(g.seat) : null;
  const parts = points.map((p, t) => `${t === mine ? "Us" : `Team ${letter(t)}`} ${p}`);
  return h("p", { class: "running-score", id: "running-score" },
    h("strong", {}, `Round ${g.view.round} so far, on the table: `), parts.join(" · "));
}

export function announcePick(token, g) {
  const n = g.picked[token] || 0;
  return `${cardName(token)} picked${n > 1 ? ` (${n})` : ""}; ${g.pickedTokens().length} picked in all`;
}
