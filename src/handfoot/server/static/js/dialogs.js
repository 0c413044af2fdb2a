// Dialogs: the keys, the settings, "may I go out?", a round's breakdown and the final table.
// Native <dialog>: focus stays inside while it is open and Esc closes it.

import { h, byId } from "./dom.js";
import { HELP } from "./keys.js";
import { teamName, seatLabel } from "./render.js";
import { getJSON } from "./api.js";

function dialog(id, title, body, buttons, { alert = false, onClose = null } = {}) {
  const old = byId(id);
  if (old) {
    if (old.open) old.close();
    old.remove();
  }
  const d = h("dialog", {
    id, class: "dialog", role: alert ? "alertdialog" : null, "aria-labelledby": `${id}-title`,
  },
  h("h2", { id: `${id}-title` }, title),
  h("div", { class: "dialog-body" }, body),
  h("div", { class: "dialog-buttons" }, buttons));
  d.addEventListener("close", () => {
    d.remove();
    if (onClose) onClose();
  });
  document.body.append(d);
  d.showModal();
  return d;
}

function closeButton(text = "Close") {
  return h("button", { type: "button", class: "primary", onclick: (e) => e.target.closest("dialog").close() }, text);
}

export function showHelp() {
  return dialog("help-dialog", "Keys", [
    h("p", {}, "The same keys as the terminal game (handfoot play). Cards can also be clicked or tapped: pick them, then Meld, Lay down or Discard."),
    h("table", { class: "keys" }, h("tbody", {}, HELP.map(([k, what]) =>
      h("tr", {}, h("th", { scope: "row" }, h("kbd", {}, k)), h("td", {}, what))))),
  ], [closeButton()]);
}

export function showSettings(current, save) {
  const check = (key, text, hint) => h("label", { class: "check" },
    h("input", { type: "checkbox", id: `setting-${key}`, checked: !!current()[key], onchange: (e) => save({ ...current(), [key]: e.target.checked }) }),
    h("span", {}, text, hint ? h("small", {}, ` ${hint}`) : null));
  return dialog("settings-dialog", "Settings", [
    h("p", {}, "Kept in this browser."),
    check("fourColour", "Four-colour deck", "(wild cards blue, red threes red, black threes green, the rest black; every card also says what it is in words)"),
    check("contrast", "High contrast", "(black and white, thicker outlines)"),
    check("large", "Larger cards and text"),
  ], [closeButton("Done")]);
}

export function showAsk(g, onClose = null) {
  const v = g.view;
  const asker = g.table.seats[v.turn].name || `Seat ${v.turn + 1}`;
  const binding = g.table.rules.permission_yes === "binding";
  return dialog("ask-dialog", `${asker} asks: may I go out?`, [
    h("p", {}, binding
      ? `If you say yes, ${asker} must go out this turn. If you say no, ${asker} may not go out this turn.`
      : `If you say yes, ${asker} may go out this turn. If you say no, ${asker} may not.`),
    h("p", {}, "Keys: y for yes, n for no."),
  ], [
    h("button", { type: "button", class: "primary", id: "answer-yes", onclick: async (e) => { const d = e.target.closest("dialog"); await g.answer(true); if (d.open) d.close(); } }, "Yes"),
    h("button", { type: "button", id: "answer-no", onclick: async (e) => { const d = e.target.closest("dialog"); await g.answer(false); if (d.open) d.close(); } }, "No"),
  ], { alert: true, onClose });
}

// A rule's text from docs/RULES.md, as the server serves it (GET /api/rules/clause/N): the
// "Why?" beside a refusal.  The text is Markdown; it is shown as plain paragraphs and lists.
function ruleBody(text) {
  const out = [];
  let list = null;
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split("\n");
    for (const line of lines) {
      const plain = line.replace(/`([^`]*)`/g, "$1").replace(/\*\*?([^*]+)\*\*?/g, "$1")
        .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1");
      if (/^\s*- /.test(line)) {
        if (!list) {
          list = h("ul", {});
          out.push(list);
        }
        list.append(h("li", {}, plain.replace(/^\s*- /, "")));
      } else if (list && /^\s+\S/.test(line)) {
        list.lastChild.append(` ${plain.trim()}`);
      } else {
        list = null;
        const last = out[out.length - 1];
        if (last && last.tagName === "P" && last.dataset.open === "1") last.append(` ${plain.trim()}`);
        else out.push(h("p", { dataset: { open: "1" } }, plain.trim()));
      }
    }
    list = null;
    for (const p of out) if (p.dataset) delete p.dataset.open;
  }
  return out;
}

export async function showRule(clause) {
  let found;
  try {
    found = await getJSON(`/api/rules/clause/${encodeURIComponent(clause)}`);
  } catch (err) {
    found = { clause, title: "", text: `The rule's text could not be fetched: ${err.message}` };
  }
  return dialog("rule-dialog", `Rule ${found.clause}${found.title ? ": " + found.title : ""}`,
    [h("div", { class: "rule-text" }, ruleBody(found.text)),
      h("p", { class: "rule-source" }, "From the rules of this game (docs/RULES.md).")],
    [closeButton()]);
}

export function closeDialog(id) {
  const d = byId(id);
  if (d && d.open) d.close();
}

function endingWords(g, r) {
  if (r.ended_by === "went_out") return `${seatLabel(g, r.went_out)} went out`;
  if (r.ended_by === "stock_out") return "the stock ran out";
  return "the turn cap was reached";
}

function breakdown(g, r, upTo) {
  const running = g.view.teams.map(() => 0);
  for (const res of g.view.results.slice(0, upTo + 1)) res.teams.forEach((t, i) => { running[i] += t.total; });
  return r.teams.map((team, i) => h("section", { class: "breakdown" },
    h("h3", {}, teamName(g, i)),
    h("table", {}, h("tbody", {},
      team.lines.map(([label, points]) => h("tr", {}, h("th", { scope: "row" }, label), h("td", {}, String(points)))),
      h("tr", { class: "total" }, h("th", { scope: "row" }, "Round total"), h("td", {}, h("strong", {}, String(team.total)))),
      h("tr", { class: "total" }, h("th", { scope: "row" }, "Game total"), h("td", {}, h("strong", {}, String(running[i]))))))));
}

export function showResult(g, index, onClose) {
  const r = g.view.results[index];
  if (!r) return null;
  const last = g.view.phase === "game-over" && index === g.view.results.length - 1;
  return dialog("result-dialog", `Round ${r.round} over`, [
    h("p", {}, `${endingWords(g, r)[0].toUpperCase()}${endingWords(g, r).slice(1)} after ${r.turns} turns.`),
    h("div", { class: "breakdowns" }, breakdown(g, r, index)),
  ], [closeButton(last ? "See the final table" : "Continue")], { onClose });
}

export function showFinal(g, { host, rematch, record }) {
  const v = g.view;
  // The server names the winners (the engine's scoring): the page counts no points itself.
  const winners = v.winners;
  const best = v.totals[winners[0]];
  const mine = g.seat !== null ? g.team(g.seat) : null;
  let verdict;
  if (winners.length > 1) verdict = `A tie at ${best} points.`;
  else if (winners[0] === mine) verdict = `Your team wins with ${best} points!`;
  else verdict = `${teamName(g, winners[0])} wins with ${best} points.`;
  const n = v.teams.length;
  return dialog("final-dialog", "The game is over", [
    h("p", { class: "verdict" }, h("strong", {}, verdict)),
    h("p", { id: "final-winners" }, `${winners.length > 1 ? "Winners" : "Winner"}: ${winners.map((t) => teamName(g, t)).join(" and ")}.`),
    h("table", { class: "final" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Round"),
        [...Array(n).keys()].map((t) => h("th", { scope: "col" }, t === mine ? "Your team" : `Team ${"ABCDEF"[t]}`)))),
      h("tbody", {},
        v.results.map((r) => h("tr", {}, h("th", { scope: "row" }, String(r.round)), r.teams.map((t) => h("td", {}, String(t.total))))),
        h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"), v.totals.map((t) => h("td", {}, h("strong", {}, String(t))))))),
    h("details", { class: "final-rounds" }, h("summary", {}, "Each round's breakdown"),
      v.results.map((r, i) => h("section", {}, h("h3", {}, `Round ${r.round}: ${endingWords(g, r)}`),
        h("div", { class: "breakdowns" }, breakdown(g, r, i))))),
    h("p", {}, h("a", { href: `/replay/${encodeURIComponent(g.table.table)}?game=${g.table.game}`, id: "final-replay" }, "Watch this game again"),
      " step by step, or ", h("a", { href: record, download: "" }, "download its record"), " (for handfoot replay). ",
      h("a", { href: "/mine" }, "My tables"), "."),
  ], [
    host ? h("button", { type: "button", class: "primary", onclick: (e) => { e.target.closest("dialog").close(); rematch(); } }, "Rematch") : null,
    closeButton(host ? "Close" : "Close"),
  ]);
}
