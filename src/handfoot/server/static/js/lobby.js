// A table before its game starts: the invite link, the seats, the host's choices.

import { h, fill } from "./dom.js";
import { postJSON } from "./api.js";
import { rulesInWords } from "./rules_editor.js";
import * as store from "./store.js";
import { PACES, LIMITS, ON_LIMIT, paceWords } from "./pace.js";

// The host's pace controls: each change is sent at once, and the table message redraws them.
function paceControls(app, options) {
  const send = (changes) => app.conn.request({ type: "options", options: changes })
    .then((r) => { if (r.type === "error") app.say(r.message); });
  const select = (id, label, list, value, onchange, disabled = false) => h("div", { class: "field" },
    h("label", { for: id }, label),
    h("select", { id, disabled, onchange: (e) => onchange(e.target.value) },
      list.map(([v, words]) => h("option", { value: v, selected: v === value }, words))));
  const turnBased = options.pace === "turn-based";
  return h("div", { class: "lobby-pace-controls" },
    select("lobby-table-pace", "Pace", PACES, options.pace,
      (v) => send(v === "turn-based" ? { pace: v, turn_limit: "24h" } : { pace: v })),
    turnBased ? h("div", { class: "field-row" },
      select("lobby-turn-limit", "Time for each turn", LIMITS, options.turn_limit, (v) => send({ turn_limit: v })),
      select("lobby-on-limit", "When it passes", ON_LIMIT, options.on_limit, (v) => send({ on_limit: v }),
        options.turn_limit === "none")) : null);
}

let explainedFor = null;
let explained = null;

async function explainRules(rules, redraw) {
  const key = JSON.stringify(rules);
  if (explainedFor === key) return;
  explainedFor = key;
  try {
    explained = await postJSON("/api/rules/explain", { file: key, format: "json" });
  } catch {
    explained = null;
  }
  redraw();
}

async function copyLink(input, status) {
  const text = input.value;
  let done = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      done = true;
    }
  } catch {
    done = false;
  }
  if (!done) {
    // Pages on a home network are plain http, where the clipboard API is withheld.
    input.focus();
    input.select();
    try {
      done = document.execCommand("copy");
    } catch {
      done = false;
    }
  }
  status.textContent = done ? "Copied: send it to the people you play with." : "Select the link and copy it.";
}

export function renderLobby(root, app) {
  const g = app.game;
  const t = g.table;
  const mine = g.seat;
  const host = g.you.host;
  explainRules(t.rules, () => app.render());
  const invite = `${location.origin}/t/${t.table}`;
  const linkInput = h("input", { id: "invite", type: "text", readonly: true, value: invite, "aria-label": "Invite link" });
  const copyStatus = h("span", { class: "copied", role: "status", "aria-live": "polite" });
  // The lobby is redrawn whole on every table message (someone sits, the rules' words arrive):
  // a name being typed is carried over, not reset to the saved one.
  const typed = document.getElementById("join-name");
  const nameInput = h("input", { id: "join-name", type: "text", maxlength: "24", value: typed ? typed.value : store.playerName(), autocomplete: "nickname" });
  const joinStatus = h("p", { id: "join-status", role: "status", "aria-live": "polite" });

  async function sit(seat) {
    const name = nameInput.value.trim();
    if (!name) {
      joinStatus.textContent = "Write your name first: the other players see it.";
      nameInput.focus();
      return;
    }
    store.savePlayerName(name);
    const reply = await app.conn.request({ type: "join", seat, name });
    if (reply.type === "error") joinStatus.textContent = reply.message;
  }

  const seats = t.seats.map((s) => {
    const you = s.seat === mine;
    let who;
    if (s.occupant === "open") who = h("span", { class: "open" }, "open: a bot plays here unless someone sits");
    else who = h("strong", {}, s.name + (you ? " (you)" : ""));
    const conn = s.occupant === "person" ? h("span", { class: "badge" + (s.connected ? "" : " away") }, s.connected ? "here" : "away") : null;
    const level = host
      ? h("select", { "aria-label": `Bot level for seat ${s.seat + 1}`, onchange: (e) => {
        const levels = t.seats.map((x) => x.bot);
        levels[s.seat] = e.target.value;
        app.conn.request({ type: "options", bots: levels }).then((r) => { if (r.type === "error") app.say(r.message); });
      } }, app.bots.map((b) => h("option", { value: b, selected: b === s.bot }, `bot: ${b}`)))
      : h("span", { class: "level" }, `bot: ${s.bot}`);
    return h("li", { class: "lobby-seat" + (you ? " me" : "") },
      h("span", { class: "seat-no" }, `Seat ${s.seat + 1} · team ${"ABCDEF"[s.team]}`),
      who, conn, level,
      s.occupant === "open" && mine === null
        ? h("button", { type: "button", class: "primary", dataset: { sit: String(s.seat) }, onclick: () => sit(s.seat) }, "Sit here")
        : null);
  });

  const hostPart = host ? h("section", { class: "panel" },
    h("h3", {}, "You are the host"),
    paceControls(app, t.options),
    h("label", { class: "check" }, h("input", { type: "checkbox", id: "lobby-hints", checked: t.options.hints,
      onchange: (e) => app.conn.send({ type: "options", options: { hints: e.target.checked } }) }), "Players may ask for hints"),
    h("p", {}, t.options.pace === "turn-based"
      ? `Nobody's seat goes to a bot when they close the page; bots move every ${t.options.bot_pace} s.`
      : `A dropped player's seat waits ${t.options.seat_hold} s on their turn; bots move every ${t.options.bot_pace} s.`),
    h("button", { type: "button", class: "primary big", id: "start", onclick: async () => {
      const r = await app.conn.request({ type: "start" });
      if (r.type === "error") app.say(r.message);
    } }, "Start the game"),
    h("p", {}, "Bots take the seats still open.")) : h("p", { class: "notice" }, mine === null
    ? "Write your name and choose a seat." : "Waiting for the host to start the game.");

  fill(root, h("div", { class: "lobby" },
    h("section", { class: "panel" },
      h("h2", {}, t.name || "A table of Hand and Foot"),
      h("p", { class: "summary" }, explained ? `${explained.rules.source}. ${explained.summary}.` : t.rules.name),
      h("p", { class: "pace", id: "lobby-pace" }, paceWords(t.options)),
      explained && explained.house_rules.length ? h("p", {}, `House rules: ${explained.house_rules.map((k) => k.replaceAll("_", " ")).join(", ")}.`) : null,
      explained ? h("details", { class: "explain" }, h("summary", {}, "The rules in words"), rulesInWords(explained)) : null),
    h("section", { class: "panel invite" },
      h("h3", {}, "Invite people"),
      h("div", { class: "inline" }, linkInput,
        h("button", { type: "button", id: "copy-invite", onclick: () => copyLink(linkInput, copyStatus) }, "Copy link")),
      copyStatus,
      h("p", {}, "Whoever has this link can take an open seat or watch.")),
    h("section", { class: "panel" },
      h("h3", {}, "Seats"),
      mine === null ? h("div", { class: "field" }, h("label", { for: "join-name" }, "Your name"), nameInput) : null,
      h("ul", { class: "lobby-seats" }, seats),
      joinStatus,
      mine !== null ? h("button", { type: "button", onclick: () => app.conn.send({ type: "leave" }) }, "Leave this seat") : null,
      t.spectators ? h("p", {}, `${t.spectators} watching`) : null),
    hostPart));
}
