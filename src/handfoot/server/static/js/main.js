// The page: "/" starts a table, "/t/TABLE" (the invite link) joins and plays it.

import { h, fill, byId, announce } from "./dom.js";
import { getJSON } from "./api.js";
import { Connection } from "./net.js";
import { Game } from "./game.js";
import { renderGame, PHASE_WORDS, paceTurnText } from "./render.js";
import { renderLobby } from "./lobby.js";
import { homePage } from "./home.js";
import { installKeys } from "./keys.js";
import * as dialogs from "./dialogs.js";
import * as store from "./store.js";
import * as countdown from "./countdown.js";
import * as notify from "./notify.js";

let settings = store.settings();

function applySettings() {
  const root = document.documentElement;
  root.classList.toggle("four-colour", !!settings.fourColour);
  root.classList.toggle("contrast", !!settings.contrast);
  root.classList.toggle("large", !!settings.large);
}

function decode(text) {
  // Chat arrives with & < > " ' escaped as entities (PROTOCOL.md); shown as text here.
  return new DOMParser().parseFromString(`<p>${text}</p>`, "text/html").body.textContent;
}

const CONN_WORDS = {
  connecting: "Connecting…",
  open: "● Connected",
  reconnecting: "Reconnecting…",
  replaced: "This seat was opened in another tab or window: play there, or reload to take it back here.",
  "no-table": "There is no such table on this server.",
  protocol: "This page is older than the server: reload it.",
};

class TablePage {
  constructor(tableId) {
    this.tableId = tableId;
    this.root = byId("main");
    this.bots = ["beginner", "casual", "strong", "expert"];
    this.keys = store.tableKeys(tableId);
    this.missed = null;
    this.resultsSeen = null;
    this.finalShown = false;
    this.wasMine = false;
    this.askShown = false;
    this.paceAsked = null; // the bots' pace this page last asked the server for, until answered
    this.conn = new Connection(tableId, {
      onMessage: (m) => this.onMessage(m),
      onStatus: (state, info) => this.onStatus(state, info),
      hello: () => {
        const out = {};
        const keys = store.tableKeys(this.tableId);
        if (keys.seat_token) out.seat_token = keys.seat_token;
        if (keys.host_token) out.host_token = keys.host_token;
        return out;
      },
    });
    countdown.watchSeats(() => (this.game.table ? this.game.table.seats : []),
      (short) => (this.game.table && this.game.table.turn && this.game.view ? paceTurnText(this.game, short) : ""));
    this.game = new Game(this.conn, {
      render: () => this.render(),
      say: (text) => this.say(text),
      refused: (r) => this.refused(r),
      showResult: (i) => dialogs.showResult(this.game, i),
      showFinal: () => {
        this.finalShown = false;
        this.maybeFinal();
      },
    });
    this.notify = notify.watch(tableId, () => this.game, (text) => this.say(text));
  }

  start() {
    getJSON("/api/info").then((info) => { this.bots = info.bots; }).catch(() => {});
    this.conn.open();
    window.addEventListener("online", () => this.conn.kick());
    // For tests and for people: the connection can be dropped and comes back by itself.
    window.handfoot = { drop: () => this.conn.drop(), game: this.game };
  }

  // ---------------------------------------------------------------- messages
  onMessage(m) {
    const g = this.game;
    switch (m.type) {
      case "welcome":
        g.you = m.you;
        if (m.you.seat !== null) store.saveTableKeys(this.tableId, { seat: m.you.seat });
        break;
      case "joined":
        g.you = { ...g.you, seat: m.seat };
        store.saveTableKeys(this.tableId, { seat_token: m.seat_token, seat: m.seat, pending: null });
        break;
      case "table":
        if (m.options.bot_pace === this.paceAsked) this.paceAsked = null;
        if (g.table && g.table.game !== m.game) {
          this.resultsSeen = null;
          this.finalShown = false;
        }
        g.onTable(m);
        countdown.noteTable();
        if (m.status === "lobby" && g.seat === null) this.joinPending();
        if (m.status === "lobby" && g.seat !== null) this.startPending();
        if (g.seat !== null && !m.seats[g.seat].name) g.you = { ...g.you, seat: null };
        document.title = `${m.name || "Hand and Foot"} - handfoot`;
        break;
      case "catch_up":
        this.missed = m.entries.flatMap((e) => e.log);
        break;
      case "state":
        g.onState(m);
        if (this.resultsSeen === null) this.resultsSeen = m.view.results.length;
        break;
      case "update":
        g.onUpdate(m);
        break;
      case "chat":
        g.chat.push({ name: decode(m.name), text: decode(m.text) });
        if (g.chat.length > 100) g.chat.shift();
        break;
      case "error":
        this.paceAsked = null; // a refused change leaves the table's pace as it was
        if (m.code === "bad_token") {
          // The seat's token no longer works (the seat was given up): sit again.
          store.forgetSeat(this.tableId);
          this.say("This browser's seat at the table was given up; choose a seat again.");
          this.conn.drop();
          return;
        }
        if (m.reply_to === undefined) this.say(m.message);
        break;
      default:
        break;
    }
    if (["table", "state", "update", "chat", "welcome", "joined"].includes(m.type)) this.render();
    this.notify.update(); // the tab's title and icon while it is your turn (notify.js)
    if (m.type === "state" || m.type === "update") this.afterChange();
  }

  joinPending() {
    const pending = store.tableKeys(this.tableId).pending;
    const t = this.game.table;
    if (!pending || this.joining) return;
    const seat = t.seats[pending.seat];
    if (!seat || seat.occupant !== "open") return;
    this.joining = true;
    this.conn.request({ type: "join", seat: pending.seat, name: pending.name }).then((r) => {
      this.joining = false;
      if (r.type === "error") this.say(r.message);
      // "Play now": the table starts as soon as its host is seated.
      store.saveTableKeys(this.tableId, { pending: null, autostart: !!pending.start && r.type !== "error" });
      if (r.type !== "error") this.startPending();
    });
  }

  startPending() {
    const keys = store.tableKeys(this.tableId);
    const g = this.game;
    if (!keys.autostart || !g.you.host || g.seat === null || this.starting) return;
    this.starting = true;
    store.saveTableKeys(this.tableId, { autostart: false });
    this.conn.request({ type: "start" }).then((r) => {
      this.starting = false;
      if (r.type === "error") this.say(r.message);
    });
  }

  onStatus(state, info) {
    const el = byId("conn");
    let text = CONN_WORDS[state] || state;
    if (state === "waiting") text = `Connection lost: trying again in ${info.seconds} s`;
    el.className = `conn ${state}`;
    fill(el, text, state === "waiting" ? h("button", { type: "button", class: "small", onclick: () => this.conn.open() }, "Reconnect now") : null);
    if (state === "open" && this.everDropped) {
      this.say("Reconnected.");
    }
    if (state === "waiting" || state === "reconnecting") this.everDropped = true;
  }

  // ---------------------------------------------------------------- after every change
  afterChange() {
    const g = this.game;
    const v = g.view;
    if (!v) return;
    const mine = g.myMove;
    if (mine && !this.wasMine) {
      announce(v.phase === "answer" ? "Your partner asks: may I go out?"
        : `Your turn: ${PHASE_WORDS[v.phase] || v.phase}.`);
    } else if (!mine && this.wasMine) {
      announce("");
    }
    this.wasMine = mine;
    if (mine && v.phase === "answer") {
      if (!this.askShown) {
        this.askShown = true;
        // Closed unanswered (Esc, the back gesture): the action bar keeps the question, and
        // the keyboard goes to its Yes.
        dialogs.showAsk(g, () => {
          if (g.myMove && g.view.phase === "answer") byId("act-yes")?.focus();
        });
      }
    } else {
      this.askShown = false;
      dialogs.closeDialog("ask-dialog");
    }
    if (this.resultsSeen !== null && v.results.length > this.resultsSeen) {
      const index = v.results.length - 1;
      this.resultsSeen = v.results.length;
      dialogs.showResult(g, index, () => this.maybeFinal());
    } else {
      this.maybeFinal();
    }
  }

  maybeFinal() {
    const g = this.game;
    if (g.view.phase !== "game-over" || this.finalShown || document.querySelector("dialog[open]")) return;
    this.finalShown = true;
    dialogs.showFinal(g, {
      host: g.you.host,
      rematch: () => this.conn.request({ type: "rematch" }).then((r) => { if (r.type === "error") this.say(r.message); }),
      record: `/api/tables/${this.tableId}/record?game=${g.table.game}`,
    });
  }

  say(text) {
    this.game.message = text;
    if (!text.startsWith("Refused")) this.game.lastRefusal = null;
    const el = byId("message");
    if (el) {
      el.textContent = text;
      el.className = text ? "message" : "message empty";
    }
    if (text) announce(text);
  }

  refused(r) {
    const g = this.game;
    if (r.action.startsWith("lay")) {
      g.refusal = r;
      this.say("");
      this.render();
      announce(`Refused: ${r.reason}`);
    } else {
      this.say(`Refused: ${r.reason} (rule ${r.clause}${r.rule ? ", " + r.rule : ""}).`);
      // The coach's line keeps it with a "Why?" that opens the rule's text.
      g.lastRefusal = { version: this.conn.version, clause: r.clause, rule: r.rule, reason: r.reason };
      this.render();
    }
  }

  pace(step) {
    const g = this.game;
    if (!g.you.host) {
      this.say("Only the host sets the bots' pace.");
      return;
    }
    // Presses in quick succession count from the pace last asked for, not from the table's
    // until the server has answered the one before (two "+" make two steps).
    const from = this.paceAsked ?? g.table.options.bot_pace;
    const pace = Math.max(0, Math.min(10, Math.round((from + step) * 10) / 10));
    this.paceAsked = pace;
    this.conn.send({ type: "options", options: { bot_pace: pace } });
    this.say(`Bots move every ${pace} s.`);
  }

  // ---------------------------------------------------------------- drawing
  render() {
    const g = this.game;
    if (!g.table) return;
    fill(byId("where"), g.table.name || "A table", g.seat !== null ? ` · you: ${g.table.seats[g.seat].name}` : " · watching");
    if (g.table.status === "lobby" || !g.view) {
      this.root.querySelector(".game")?.remove();
      renderLobby(this.root, this);
      return;
    }
    if (this.root.querySelector(".lobby")) {
      // The game begins: from the top of the page, not where the lobby's button was.
      this.root.replaceChildren();
      window.scrollTo(0, 0);
    }
    renderGame(this.root, g, settings, {
      onSort: (sort) => { settings = { ...settings, sort }; store.saveSettings(settings); this.render(); },
      renderChat: (el) => this.renderChat(el),
    });
    this.renderMissed();
  }

  renderMissed() {
    if (!this.missed) return;
    const lines = this.missed;
    this.missed = null;
    const status = byId("status");
    const box = h("details", { class: "missed", open: true },
      h("summary", {}, `While you were away: ${lines.length} line${lines.length === 1 ? "" : "s"} of the log`),
      h("ol", { tabindex: "0", "aria-label": "What you missed" }, lines.map((l) => h("li", {}, l))),
      h("button", { type: "button", class: "small", onclick: (e) => e.target.closest("details").remove() }, "Dismiss"));
    status.after(box);
    announce(`Reconnected: you missed ${lines.length} lines of the log.`);
  }

  renderChat(el) {
    const g = this.game;
    if (el.dataset.built !== "1") {
      const input = h("input", { id: "chat-input", type: "text", maxlength: "200", "aria-label": "Say something to the table", autocomplete: "off" });
      const form = h("form", { class: "chat-form", onsubmit: async (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        const r = await this.conn.request({ type: "chat", text });
        if (r.type === "error") this.say(r.message);
        else input.value = "";
      } }, input, h("button", { type: "submit" }, "Say"));
      fill(el, h("section", { class: "panel chat", "aria-labelledby": "chat-h" },
        h("h2", { id: "chat-h" }, "Chat"),
        h("ul", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", tabindex: "0", "aria-label": "Chat lines" }),
        g.seat !== null ? form : h("p", {}, "Players chat here.")));
      el.dataset.built = "1";
    }
    const ul = byId("chat-lines");
    while (ul.children.length < g.chat.length) {
      const c = g.chat[ul.children.length];
      ul.append(h("li", {}, h("strong", {}, `${c.name}: `), c.text));
    }
  }

  showHelp() {
    dialogs.showHelp();
  }
}

function boot() {
  applySettings();
  // The table's status line sits just under the bar, whatever height the bar has.
  const bar = byId("bar");
  const measure = () => document.documentElement.style.setProperty("--bar-h", `${bar.offsetHeight}px`);
  measure();
  if (window.ResizeObserver) new ResizeObserver(measure).observe(bar);
  byId("loading")?.remove();
  let app = null;
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)\/?$/);
  byId("help-button").addEventListener("click", () => dialogs.showHelp());
  byId("settings-button").addEventListener("click", () => dialogs.showSettings(() => settings, (s) => {
    settings = s;
    store.saveSettings(s);
    applySettings();
  }));
  if (match) {
    app = new TablePage(match[1]);
    app.start();
  } else {
    homePage(byId("main")).catch((err) => fill(byId("main"), h("p", { class: "notice" }, `The page could not load: ${err.message}`)));
  }
  installKeys({
    get game() { return app ? app.game : null; },
    showHelp: () => dialogs.showHelp(),
    pace: (step) => app && app.pace(step),
  });
}

boot();
