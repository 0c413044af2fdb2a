// The person's side of a game: what the server last said (view, legal actions, the pile, the
// log) and what the person is putting together (picked cards, staged melds).  Every move is
// sent as the text of an action and judged by the engine on the server; this module only
// composes the text and shows the answer.

import { counts, isWild, ALL } from "./cards.js";
import { announce } from "./dom.js";
import { announcePick } from "./coach.js";

export class Game {
  constructor(conn, hooks) {
    this.conn = conn;
    this.hooks = hooks; // {render, say, refused}
    this.table = null;
    this.you = { seat: null, host: false, name: "" };
    this.view = null;
    this.legal = [];
    this.canUndo = false;
    this.pile = null;
    this.quotaMissing = [];
    this.log = [];
    this.logEpoch = 0; // a new state replaces the log: the page redraws it whole
    this.logTotal = 0; // lines added since
    this.chat = [];
    this.picked = {};
    this.staged = []; // [{slot, n, twos, jokers}]
    this.mode = ""; // "discard" or "target" while waiting for a card key
    this.message = ""; // the last word to the person (a hint, a refusal, a prompt)
    this.refusal = null; // the engine's refusal of the last lay-down: {clause, rule, reason}
    this.check = null; // the engine's answer about the staged lay-down
    this.busy = false;
    this.checkTimer = null;
    this.tablePoints = []; // each team's points on the table this round (the server's scoring)
    this.hintShown = null; // {version, action, text}: the last hint, while the table stands
    this.lastRefusal = null; // {version, clause, rule, reason}: for the coach's "Why?"
  }

  // A table with hints on: the coach marks cards, shows the meter and plays hints.
  get coaching() {
    return !!(this.table && this.table.options.hints && this.seat !== null);
  }

  // ------------------------------------------------------------------ reading
  get seat() {
    return this.you.seat;
  }

  get playing() {
    return this.view !== null && this.table && this.table.status !== "lobby";
  }

  get myMove() {
    return this.legal.length > 0;
  }

  get hand() {
    return counts(this.view && this.view.hand);
  }

  has(action) {
    return this.legal.includes(action);
  }

  hasPrefix(prefix) {
    return this.legal.some((a) => a.startsWith(prefix));
  }

  team(seat) {
    return this.table.seats[seat].team;
  }

  get teams() {
    return this.view ? this.view.teams.length : 0;
  }

  // Cards of this kind still in hand: not picked, not staged.
  available(token) {
    let used = this.picked[token] || 0;
    for (const p of this.staged) {
      if (token === "2") used += p.twos;
      else if (token === "JK") used += p.jokers;
      else if (p.slot === token) used += p.n;
    }
    return (this.hand[token] || 0) - used;
  }

  pickedTokens() {
    const out = [];
    for (const t of ALL) for (let i = 0; i < (this.picked[t] || 0); i++) out.push(t);
    return out;
  }

  // ------------------------------------------------------------------ from the server
  onTable(m) {
    this.table = m;
  }

  onState(m) {
    this.view = m.view;
    this.legal = m.legal || [];
    this.canUndo = !!m.can_undo;
    this.pile = m.pile || null;
    this.quotaMissing = m.quota_missing || [];
    this.tablePoints = m.table_points || [];
    this.log = [...(m.log || [])];
    this.logEpoch += 1;
    this.logTotal = this.log.length;
    if (!this.staged.length) this.restoreStaged();
    this.keepWhatFits();
  }

  onUpdate(m) {
    const before = this.view;
    this.view = m.view;
    this.legal = m.legal || [];
    this.canUndo = !!m.can_undo;
    this.pile = m.pile || null;
    this.quotaMissing = m.quota_missing || [];
    this.tablePoints = m.table_points || [];
    this.log.push(...(m.log || []));
    this.logTotal += (m.log || []).length;
    if (this.log.length > 400) this.log.splice(0, this.log.length - 400);
    const turnOver = (m.events || []).some((e) => ["turn", "round_end", "deal"].includes(e.name));
    if (turnOver || m.action === "undo" || !this.myMove) {
      this.picked = {};
      if (turnOver || !this.myMove) this.staged = [];
      this.mode = "";
    }
    if (m.seat === this.seat && m.action.startsWith("lay")) {
      this.staged = [];
      this.refusal = null;
    }
    this.keepWhatFits();
    return before;
  }

  // Picked and staged cards must still be in hand (an undo, a reconnect, a bot's move).
  keepWhatFits() {
    const hand = this.hand;
    for (const t of Object.keys(this.picked)) {
      if ((this.picked[t] || 0) > (hand[t] || 0)) this.picked[t] = hand[t] || 0;
    }
    for (const t of ALL) {
      if (this.available(t) < 0) {
        this.staged = [];
        this.picked = {};
        break;
      }
    }
    this.scheduleCheck();
  }

  // ------------------------------------------------------------------ picking and staging
  pick(token) {
    if (this.available(token) <= 0) return `you hold no more ${token === "JK" ? "jokers" : token + "s"}`;
    this.picked[token] = (this.picked[token] || 0) + 1;
    announce(announcePick(token, this)); // a card picked by key is heard, not only seen
    return null;
  }

  unpick(token) {
    if (token === undefined) {
      const picked = this.pickedTokens();
      token = picked[picked.length - 1];
    }
    if (token && this.picked[token]) this.picked[token] -= 1;
  }

  clear() {
    if (this.mode) this.mode = "";
    else if (Object.values(this.picked).some((n) => n)) this.picked = {};
    else {
      this.staged = [];
      this.refusal = null;
    }
    this.scheduleCheck();
  }

  pickedWildOnly() {
    const picked = this.pickedTokens();
    return picked.length > 0 && picked.every(isWild);
  }

  // Targets for wild cards picked alone: the team's open melds and the staged ones, and the
  // meld of wild cards.
  wildTargets() {
    const slots = new Set();
    const info = this.view.teams[this.team(this.seat)];
    for (const slot of Object.keys(info.melds)) slots.add(slot);
    for (const p of this.staged) slots.add(p.slot);
    const order = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "wild"];
    slots.add("wild");
    return order.filter((s) => slots.has(s));
  }

  // Move the picked cards into the staged lay-down: a new meld or cards onto a meld of their
  // rank (the engine decides which when it checks).  Wild cards alone need a meld named.
  stage(slot) {
    const picked = this.pickedTokens();
    if (!picked.length) return "pick cards first: click them, or press their keys (4-9, 0, j q k a, 2, w)";
    const ranks = [...new Set(picked.filter((t) => !isWild(t)))];
    if (ranks.length > 1) return "one rank per meld: stage each rank on its own";
    if (ranks.length) {
      if (slot !== undefined && slot !== ranks[0]) return "those cards do not go on that meld";
      slot = ranks[0];
    }
    if (slot === undefined) return "name the meld for the wild cards";
    const part = { slot, n: 0, twos: 0, jokers: 0 };
    for (const t of picked) {
      if (t === "2") part.twos += 1;
      else if (t === "JK") part.jokers += 1;
      else part.n += 1;
    }
    this.addStaged(part);
    this.picked = {};
    this.mode = "";
    this.refusal = null;
    this.scheduleCheck();
    return null;
  }

  // Staged cards of a rank go into the last staged meld of that rank until it holds a
  // canasta's worth (with the team's open meld of the rank, for the first one); the rest begin
  // another staged meld of the rank.  That only groups the cards: the engine decides whether a
  // later group starts a new meld (the canasta before it closed) or adds to the same one
  // (a canasta that keeps growing), and refuses what no rule allows (5.1, 5.6).
  addStaged(part) {
    const size = this.table.rules.canasta_size;
    const mine = this.staged.filter((p) => p.slot === part.slot);
    const open = this.view.teams[this.team(this.seat)].melds[part.slot];
    const openCards = open ? open[0] + open[1] + open[2] : 0;
    let last = mine[mine.length - 1];
    if (!last) {
      last = { slot: part.slot, n: 0, twos: 0, jokers: 0 };
      this.staged.push(last);
    }
    // A meld already past a canasta's size keeps taking cards where the rules let it grow.
    const grows = openCards >= size;
    let room = grows ? Infinity : size - Game.partSize(last) - (mine.length <= 1 ? openCards : 0);
    for (const key of ["n", "twos", "jokers"]) {
      for (let i = 0; i < part[key]; i++) {
        if (room <= 0) {
          last = { slot: part.slot, n: 0, twos: 0, jokers: 0 };
          this.staged.push(last);
          room = size;
        }
        last[key] += 1;
        room -= 1;
      }
    }
  }

  static partSize(p) {
    return p.n + p.twos + p.jokers;
  }

  // Put back one staged meld, by its place in the lay-down.
  unstage(index) {
    this.staged = this.staged.filter((_, i) => i !== index);
    this.refusal = null;
    this.scheduleCheck();
  }

  static partText(p) {
    const cards = [];
    if (p.slot !== "wild") for (let i = 0; i < p.n; i++) cards.push(p.slot);
    for (let i = 0; i < p.twos; i++) cards.push("2");
    for (let i = 0; i < p.jokers; i++) cards.push("JK");
    return (p.n ? "" : `${p.slot}: `) + cards.join(" ");
  }

  layText() {
    return this.staged.length ? "lay " + this.staged.map(Game.partText).join(", ") : null;
  }

  // Ask the engine about the staged lay-down (nothing is applied): its points and whether it
  // would be taken now, shown beside the cards.
  scheduleCheck() {
    clearTimeout(this.checkTimer);
    this.saveStaged();
    const text = this.layText();
    if (!text || this.seat === null || !this.playing) {
      this.check = null;
      return;
    }
    this.checkTimer = setTimeout(async () => {
      const answer = await this.conn.request({ type: "check", action: text });
      if (this.layText() !== text) return;
      this.check = answer.type === "checked" ? answer
        : { ok: false, reason: answer.message, clause: "", rule: "", points: null };
      this.hooks.render();
    }, 120);
  }

  // The staged melds outlive a reload or a reconnect within this turn (the browser's session
  // storage, this tab only): keyed by the table, and kept only for the same game, round, turn
  // and seat; keepWhatFits drops them if the hand no longer holds them.
  stagedKey() {
    return this.table ? `handfoot.staged.${this.table.table}` : null;
  }

  stagedStamp() {
    const v = this.view;
    return v ? `${this.table.game}/${v.round}/${v.turns}/${this.seat}` : "";
  }

  saveStaged() {
    const key = this.stagedKey();
    if (!key || !this.view || this.seat === null) return;
    try {
      if (this.staged.length) sessionStorage.setItem(key, JSON.stringify({ at: this.stagedStamp(), staged: this.staged }));
      else sessionStorage.removeItem(key);
    } catch {
      /* storage withheld: the staged melds last for this page only */
    }
  }

  restoreStaged() {
    const key = this.stagedKey();
    if (!key || this.seat === null || !this.view) return;
    try {
      const kept = JSON.parse(sessionStorage.getItem(key) || "null");
      if (kept && kept.at === this.stagedStamp() && Array.isArray(kept.staged) && this.myMove) {
        this.staged = kept.staged.map((p) => ({ slot: String(p.slot), n: p.n | 0, twos: p.twos | 0, jokers: p.jokers | 0 }));
      }
    } catch {
      /* nothing kept */
    }
  }

  // ------------------------------------------------------------------ acting
  async act(action) {
    if (this.busy) return null;
    this.busy = true;
    try {
      const reply = await this.conn.request({ type: "act", version: this.conn.version, action });
      if (reply.type === "update") {
        if (this.message) this.hooks.say("");
      } else if (reply.type === "refused") {
        this.hooks.refused(reply);
      } else if (reply.type === "error") {
        if (reply.code === "stale") this.conn.send({ type: "sync", last_version: this.conn.version });
        this.hooks.say(reply.message);
      }
      return reply;
    } finally {
      this.busy = false;
      this.hooks.render();
    }
  }

  draw() {
    if (this.has("draw")) return this.act("draw");
    if (this.has("stop")) return this.act("stop");
    return this.notNow("draw");
  }

  takePile() {
    // House rules may add the top card alone onto a meld and picking the pile up (4.7, 4.8).
    const takes = this.legal.filter((a) => a.startsWith("take-pile") || a === "pick-up-pile");
    if (!takes.length) {
      if (this.pile && !this.pile.open) {
        this.hooks.say(`The pile is closed to you: ${this.pile.reason} (rule ${this.pile.clause}).`);
        return null;
      }
      return this.notNow("take the pile");
    }
    const withWild = takes.find((a) => (a.endsWith(" 2") && this.picked["2"])
      || (a.endsWith(" JK") && this.picked.JK));
    const plain = takes.find((a) => a === "take-pile");
    return this.act(withWild || plain || takes[0]);
  }

  layDown() {
    if (Object.values(this.picked).some((n) => n)) {
      if (this.pickedWildOnly()) return this.startTarget();
      const error = this.stage();
      if (error) {
        this.hooks.say(error);
        return null;
      }
    }
    const text = this.layText();
    if (!text) {
      this.hooks.say("Nothing staged: pick cards, then Meld (m).");
      return null;
    }
    return this.act(text);
  }

  startTarget() {
    this.mode = "target";
    this.hooks.say("Wild cards onto which meld? Choose it, or press its rank key (w: the meld of wild cards).");
    this.hooks.render();
    return null;
  }

  meld() {
    if (this.pickedWildOnly()) return this.startTarget();
    const error = this.stage();
    this.hooks.say(error || "Staged. Pick more, or Lay down (Enter).");
    this.hooks.render();
    return null;
  }

  discard(token) {
    if (token !== undefined) return this.act(`discard ${token}`);
    if (this.staged.length) {
      this.hooks.say("You have melds staged: Lay down (Enter) or Clear (Esc) first.");
      return null;
    }
    const picked = this.pickedTokens();
    if (picked.length === 1) return this.act(`discard ${picked[0]}`);
    this.mode = "discard";
    this.hooks.say("Discard which card? Click it or press its key (Esc cancels).");
    this.hooks.render();
    return null;
  }

  knockOrNo() {
    if (this.view && this.view.phase === "answer") return this.answer(false);
    if (this.has("knock")) return this.act("knock");
    return this.notNow("knock");
  }

  answer(yes) {
    return this.act(yes ? "answer yes" : "answer no");
  }

  book() {
    if (this.has("book B3")) return this.act("book B3");
    return this.notNow("meld a book of black threes");
  }

  ask() {
    if (this.has("ask")) return this.act("ask");
    return this.notNow('ask "may I go out?"');
  }

  retract() {
    if (this.has("retract")) return this.act("retract");
    return this.notNow("take back an opening");
  }

  notNow(what) {
    if (!this.playing || this.seat === null) this.hooks.say("You are watching this table.");
    else if (!this.myMove) this.hooks.say(`Not your move: wait for your turn to ${what}.`);
    else this.hooks.say(`You cannot ${what} now.`);
    return null;
  }

  async undo() {
    if (!this.canUndo) {
      this.hooks.say("Nothing to undo since you last learned something new.");
      return null;
    }
    const reply = await this.conn.request({ type: "undo", version: this.conn.version });
    if (reply.type === "error") this.hooks.say(reply.message);
    else this.hooks.say("Undone.");
    this.hooks.render();
    return reply;
  }

  async hint() {
    if (!this.table.options.hints) {
      this.hooks.say("This table gives no hints (the host may turn them on).");
      return null;
    }
    const reply = await this.conn.request({ type: "hint" });
    if (reply.type === "hint") {
      this.hintShown = { version: this.conn.version, action: reply.action, text: reply.text };
      this.hooks.say(`Hint: ${reply.text}.`);
    } else {
      this.hooks.say(reply.message);
    }
    this.hooks.render();
    return reply;
  }

  // Play the hint as the server gave it: a whole step the engine takes as it stands (a
  // lay-down replaces whatever was staged).
  playHint() {
    const hint = this.hintShown;
    if (!hint || !hint.action || hint.version !== this.conn.version) return this.hint();
    this.hintShown = null;
    if (hint.action.startsWith("lay ")) {
      this.picked = {};
      this.staged = [];
      this.mode = "";
    }
    return this.act(hint.action);
  }
}
