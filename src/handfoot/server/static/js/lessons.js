// The lessons page (/lessons): pick the rules, pick a lesson, read it, try it.  Every move is
// sent to the server with the moves before it; the engine replays them and answers with the
// seat's view, its refusal (with the rule's clause) or whether the goal is reached.  This page
// judges nothing itself: it only shows what it is told (docs/PROTOCOL.md, "Lessons").

import { h, fill, byId, announce, plural } from "./dom.js";
import { getJSON, postJSON } from "./api.js";
import { RANKS, WILDS, cardName, face, mark, cardClass, counts, tokens, slotName } from "./cards.js";
import * as store from "./store.js";
import { playWithBots } from "./seated.js";

const DONE_KEY = "handfoot.lessons.done";

function doneSet() {
  try {
    return new Set(JSON.parse(localStorage.getItem(DONE_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function markDone(key) {
  const done = doneSet();
  done.add(key);
  try {
    localStorage.setItem(DONE_KEY, JSON.stringify([...done]));
  } catch {
    /* private mode: the tick is for this visit only */
  }
}

// A card as a picture with words (the table's look: style.css's .card).
function card(token, extra = {}) {
  const { tag = "span", class: more = "", ...attrs } = extra;
  const word = mark(token);
  return h(tag, { class: `card ${cardClass(token)} ${more}`.trim(), ...attrs },
    h("span", { class: "face", "aria-hidden": "true" }, face(token)),
    word ? h("span", { class: "mark", "aria-hidden": "true" }, word) : null);
}

// The engine's lines about a move, as sentences.
function sentences(lines) {
  return lines.map((l) => l.charAt(0).toUpperCase() + l.slice(1) + (/[.!?]$/.test(l) ? "" : ".")).join(" ");
}

// An action's text as the buttons of this page name it ("lay K K K" is "Meld K K K").
function moveWords(text) {
  const [verb, ...rest] = text.split(" ");
  const cards = rest.join(" ");
  const words = { draw: "Draw", "take-pile": "Take the pile", lay: "Meld", discard: "Discard",
    ask: "Ask partner", knock: "Knock" };
  return `${words[verb] || verb}${cards ? ` ${cards}` : ""}`;
}

function meldCards(slot, naturals, twos, jokers) {
  const out = [];
  for (let i = 0; i < naturals; i++) out.push(slot);
  for (let i = 0; i < twos; i++) out.push("2");
  for (let i = 0; i < jokers; i++) out.push("JK");
  return out;
}

class LessonsPage {
  constructor(root) {
    this.root = root;
    const q = new URLSearchParams(location.search);
    this.rules = q.get("rules") || "hand-and-foot";
    this.lessonId = q.get("lesson");
    this.list = null;
    this.lesson = null;
    this.state = null; // the server's last answer
    this.picked = []; // indices into the hand's cards
    this.wildTarget = "";
    this.busy = false;
    this.shown = false; // "Show me a way" opened
    this.answers = 0; // answers shown so far (tests wait for the next one)
  }

  async start() {
    document.title = "Lessons - handfoot";
    try {
      await this.loadList();
    } catch (err) {
      fill(this.root, h("p", { class: "notice refusal" }, `The lessons did not load: ${err.message}`));
    }
  }

  async loadList() {
    this.list = await getJSON(`/api/lessons?rules=${encodeURIComponent(this.rules)}`);
    if (!this.list.lessons.some((l) => l.id === this.lessonId)) this.lessonId = this.list.lessons[0].id;
    await this.loadLesson();
  }

  async loadLesson() {
    this.lesson = await getJSON(`/api/lessons/${encodeURIComponent(this.lessonId)}?rules=${encodeURIComponent(this.rules)}`);
    this.state = this.lesson.start;
    this.picked = [];
    this.wildTarget = "";
    this.shown = false;
    const url = `/lessons?rules=${encodeURIComponent(this.rules)}&lesson=${encodeURIComponent(this.lessonId)}`;
    history.replaceState(null, "", url);
    document.title = `${this.lesson.title} - Lessons - handfoot`;
    this.render();
  }

  // ------------------------------------------------------------ playing
  async send(action) {
    if (this.busy) return;
    this.busy = true;
    const actions = [...this.state.actions, action];
    try {
      const out = await postJSON(`/api/lessons/${encodeURIComponent(this.lessonId)}`, { rules: this.rules, actions });
      this.state = out;
      this.answers += 1;
      if (out.status !== "refused") this.picked = [];
      if (out.status === "done") markDone(`${this.rules}/${this.lessonId}`);
      announce(this.feedbackText());
    } catch (err) {
      this.state = { ...this.state, status: "error", error: err.message };
      this.answers += 1;
    }
    this.busy = false;
    this.render();
    const fb = byId("lesson-feedback");
    if (fb && window.innerWidth < 700) fb.scrollIntoView({ block: "nearest" });
  }

  restart() {
    this.state = this.lesson.start;
    this.picked = [];
    this.answers += 1;
    this.render();
    announce("Started again.");
  }

  handTokens() {
    return tokens(counts(this.state.view.hand));
  }

  pickedTokens() {
    const hand = this.handTokens();
    return this.picked.map((i) => hand[i]);
  }

  // The lay-down the picked cards spell: one meld per rank; the wild cards join the one rank
  // picked, or the meld the person chose for them.  The engine checks it.
  layText() {
    const picked = this.pickedTokens();
    const ranks = RANKS.filter((r) => picked.includes(r));
    const wilds = picked.filter((t) => WILDS.includes(t));
    const others = picked.filter((t) => !RANKS.includes(t) && !WILDS.includes(t));
    const target = this.target();
    if (wilds.length && !target) return "";
    const parts = ranks.map((r) => {
      const cards = picked.filter((t) => t === r);
      return [...cards, ...(r === target ? wilds : [])].join(" ");
    });
    if (wilds.length && !ranks.includes(target)) parts.push(`${target}: ${wilds.join(" ")}`);
    if (others.length) parts.push(others.join(" ")); // threes: the engine says why not
    return parts.length ? `lay ${parts.join(", ")}` : "";
  }

  // Where the picked wild cards go: the person's choice while it is still offered; the one
  // rank picked; the meld of wild cards when nothing else is open; otherwise the person must
  // say ("" until they do), since the page does not guess what they mean.
  target() {
    const choices = this.wildChoices();
    if (choices.includes(this.wildTarget)) return this.wildTarget;
    const picked = this.pickedTokens();
    const ranks = RANKS.filter((r) => picked.includes(r));
    if (ranks.length === 1) return ranks[0];
    if (choices.length === 1) return choices[0];
    return "";
  }

  wildChoices() {
    const picked = this.pickedTokens();
    if (!picked.some((t) => WILDS.includes(t))) return [];
    const ranks = RANKS.filter((r) => picked.includes(r));
    const team = this.state.view.teams[this.state.view.seat % this.state.view.teams.length];
    const open = Object.keys(team.melds).filter((s) => !ranks.includes(s));
    const choices = [...ranks, ...open.filter((s) => s !== "wild"), "wild"];
    return [...new Set(choices)];
  }

  // ------------------------------------------------------------ drawing the page
  render() {
    const L = this.lesson;
    const done = doneSet();
    const presetSelect = h("select", { id: "lesson-rules", onchange: (e) => {
      this.rules = e.target.value;
      this.loadList().catch((err) => fill(this.root, h("p", { class: "refusal" }, err.message)));
    } }, this.list.presets.map((p) => h("option", { value: p, selected: p === this.rules }, p)));
    const nav = h("nav", { class: "lesson-list", "aria-label": "Lessons" },
      h("ol", {}, this.list.lessons.map((l) => h("li", {},
        h("a", {
          href: `/lessons?rules=${encodeURIComponent(this.rules)}&lesson=${l.id}`,
          "aria-current": l.id === this.lessonId ? "page" : null,
          dataset: { lesson: l.id },
          onclick: (e) => { e.preventDefault(); this.lessonId = l.id; this.loadLesson(); },
        }, l.title, done.has(`${this.rules}/${l.id}`) ? h("span", { class: "tick", "aria-label": " (done)" }, " ✓") : null)))));
    fill(this.root, h("div", { class: "lessons" },
      h("div", { class: "lesson-top" },
        h("div", { class: "field" }, h("label", { for: "lesson-rules" }, "Rules"), presetSelect),
        h("p", { class: "muted" }, `${plural(this.list.lessons.length, "lesson")} for these rules`,
          this.list.knee ? ", the knee included." : ".")),
      nav,
      h("article", { class: "lesson panel", id: "lesson", "aria-labelledby": "lesson-title" },
        h("h2", { id: "lesson-title" }, L.title),
        L.intro.map((s) => h("p", { class: "intro" }, s)),
        h("p", { class: "goal", id: "lesson-goal" }, h("strong", {}, "Goal: "), L.goal),
        this.feedback(),
        this.table(),
        this.controls(),
        h("details", { class: "lesson-rules", open: window.innerWidth >= 700 },
          h("summary", {}, "The rule book says"),
          L.clauses.map((c) => h("div", { class: "clause" },
            h("p", { class: "clause-title" }, `${c.number} ${c.title}`),
            c.sentences.length ? h("ul", {}, c.sentences.map((s) => h("li", {}, s))) : null)))),
      this.practice()));
  }

  feedbackText() {
    const s = this.state;
    if (s.status === "refused") {
      const r = s.refusal;
      return r.clause ? `Refused: ${r.reason} (rule ${r.clause}, ${r.title})` : `Refused: ${r.reason}`;
    }
    if (s.status === "missed") return s.missed;
    if (s.status === "done") return "Goal reached. Well played!";
    if (s.status === "error") return `The server did not answer: ${s.error}`;
    return s.said && s.said.length ? sentences(s.said) : "Your move.";
  }

  feedback() {
    const s = this.state;
    const kids = [h("p", { class: "feedback-text" }, this.feedbackText())];
    if (s.status === "refused" && s.refusal.rule && s.refusal.rule.length) {
      kids.push(h("ul", { class: "lesson-rule" }, s.refusal.rule.map((t) => h("li", {}, t))));
    }
    if (s.status === "refused" || s.status === "playing") {
      if (s.status === "refused" && s.said && s.said.length) kids.push(h("p", {}, sentences(s.said)));
    }
    if (s.status === "missed" || s.status === "done") {
      if (s.status === "done" && s.said && s.said.length) kids.unshift(h("p", { class: "said" }, sentences(s.said)));
      kids.push(h("div", { class: "lesson-buttons" },
        h("button", { type: "button", id: "lesson-retry", onclick: () => this.restart() }, s.status === "done" ? "Play it again" : "Try again"),
        s.status === "done" && this.lesson.next ? h("button", { type: "button", class: "primary", id: "lesson-next",
          onclick: () => { this.lessonId = this.lesson.next; this.loadLesson(); } }, "Next lesson") : null,
        // Every lesson ends with a real deal to practise on.
        s.status === "done" ? h("a", { href: "#practice-h", id: "lesson-practice" }, "Now practise against bots") : null));
    }
    if (s.scores) kids.push(h("pre", { class: "lesson-scores", "aria-label": "The round's score sheet" }, s.scores.join("\n")));
    return h("div", { class: `lesson-feedback is-${s.status}`, id: "lesson-feedback", role: "status", "aria-live": "polite", dataset: { answers: String(this.answers) } }, kids);
  }

  table() {
    const v = this.state.view;
    const teams = v.teams.length;
    const mine = v.teams[v.seat % teams];
    const me = v.seats[v.seat];
    const packet = this.lesson.packets[me.packet] || "hand";
    const top = v.pile_top;
    const pileSize = v.pile ? v.pile.split(" ").filter(Boolean).length : 0;
    const melds = Object.entries(mine.melds).map(([slot, [n, tw, jk]]) => h("li", { class: "lesson-meld" },
      h("span", { class: "lesson-meld-name" }, `${slotName(slot)}: ${plural(n + tw + jk, "card")}`),
      h("span", { class: "lesson-meld-cards" }, meldCards(slot, n, tw, jk).map((t) => card(t, { class: "mini" })))));
    const canastas = mine.canastas.map(([slot, n, tw, jk, kind]) => h("li", { class: "lesson-meld canasta" },
      h("span", { class: "lesson-meld-name" }, `★ ${kind} canasta of ${slotName(slot)}`),
      h("span", { class: "lesson-meld-cards" }, meldCards(slot, n, tw, jk).map((t) => card(t, { class: "mini" })))));
    const partner = v.seats.length > 2 && teams < v.seats.length ? v.seats[(v.seat + teams) % v.seats.length] : null;
    const hand = this.handTokens();
    return h("section", { class: "lesson-table", "aria-label": "The table" },
      h("div", { class: "lesson-piles" },
        h("div", { class: "lesson-stock" }, h("span", { class: "card back", "aria-hidden": "true" }),
          h("p", {}, h("strong", {}, "Stock"), ` ${plural(v.stock_size, "card")}`)),
        h("div", { class: "lesson-pile" }, top ? card(top) : h("span", { class: "card empty", "aria-hidden": "true" }),
          h("p", {}, h("strong", {}, "Pile"), ` ${plural(pileSize, "card")}`, top ? `, ${cardName(top)} on top` : ", empty"))),
      h("div", { class: "team-melds" },
        h("h3", {}, `Your team's melds`, mine.opened ? "" : ` (not opened: the minimum is ${v.minimum})`),
        melds.length || canastas.length ? h("ul", { class: "lesson-melds" }, canastas, melds) : h("p", { class: "muted" }, "None yet."),
        h("p", { class: "lesson-facts" },
          me.red_threes ? `Red threes you laid: ${me.red_threes}. ` : "",
          partner ? `Your partner holds ${plural(partner.hand_size, "card")} in their ${this.lesson.packets[partner.packet]}. ` : "",
          me.packet_sizes.length ? `Still face down for you: ${me.packet_sizes.map((n, i) => `${this.lesson.packets[me.packet + 1 + i]} (${n})`).join(", ")}.` : "")),
      h("div", { class: "lesson-hand" },
        h("h3", { id: "hand-h" }, `Your ${packet}: ${plural(hand.length, "card")}`),
        h("div", { class: "lesson-cards", role: "group", "aria-labelledby": "hand-h" },
          hand.map((t, i) => card(t, {
            tag: "button", type: "button", class: this.picked.includes(i) ? "picked" : "",
            "aria-pressed": this.picked.includes(i) ? "true" : "false",
            "aria-label": cardName(t), dataset: { card: t, i: String(i) },
            onclick: () => this.toggle(i),
          })))));
  }

  toggle(i) {
    const at = this.picked.indexOf(i);
    if (at >= 0) this.picked.splice(at, 1);
    else this.picked.push(i);
    this.render();
    const again = this.root.querySelector(`button.card[data-i="${i}"]`);
    if (again) again.focus({ preventScroll: true });
  }

  controls() {
    const s = this.state;
    const over = s.status === "done" || s.status === "missed" || !s.legal.length;
    const picked = this.pickedTokens();
    const lay = this.layText();
    const choices = this.wildChoices();
    const off = over || this.busy;
    const buttons = [
      h("button", { type: "button", id: "lesson-draw", disabled: off, onclick: () => this.send(s.legal.includes("stop") ? "stop" : "draw") }, "Draw"),
      h("button", { type: "button", id: "lesson-take", disabled: off, onclick: () => this.send("take-pile") }, "Take the pile"),
      h("button", { type: "button", id: "lesson-lay", disabled: off || !lay, onclick: () => this.send(lay) },
        !picked.length ? "Meld (pick cards)" : lay ? `Meld ${plural(picked.length, "card")}` : "Meld (say where the wild cards go)"),
      h("button", { type: "button", id: "lesson-discard", disabled: off || picked.length !== 1,
        onclick: () => this.send(`discard ${picked[0]}`) }, picked.length === 1 ? `Discard ${cardName(picked[0])}` : "Discard (pick one)"),
    ];
    if (this.lesson.asks) buttons.push(h("button", { type: "button", id: "lesson-ask", disabled: off, onclick: () => this.send("ask") }, "Ask partner"));
    if (s.legal.includes("knock")) buttons.push(h("button", { type: "button", id: "lesson-knock", disabled: off, onclick: () => this.send("knock") }, "Knock"));
    if (s.legal.includes("retract")) buttons.push(h("button", { type: "button", id: "lesson-retract", disabled: off, onclick: () => this.send("retract") }, "Take back"));
    buttons.push(h("button", { type: "button", id: "lesson-restart", class: "link", onclick: () => this.restart() }, "Start again"));
    buttons.push(h("button", { type: "button", id: "lesson-show", class: "link", "aria-expanded": this.shown ? "true" : "false",
      onclick: () => { this.shown = !this.shown; this.render(); } }, this.shown ? "Hide the way" : "Show me a way"));
    return h("div", { class: "lesson-controls" },
      choices.length > 1 ? h("label", { class: "wild-target" }, "Wild cards go on ",
        h("select", { id: "lesson-wild-target", onchange: (e) => { this.wildTarget = e.target.value; this.render(); } },
          this.target() ? null : h("option", { value: "", selected: true }, "choose a meld"),
          choices.map((c) => h("option", { value: c, selected: c === this.target() }, c === "wild" ? "a meld of wild cards" : `the ${slotName(c)}`)))) : null,
      lay ? h("p", { class: "muted", id: "lesson-move" }, `Move: ${lay}`) : null,
      h("div", { class: "lesson-buttons" }, buttons),
      this.shown ? h("div", { class: "lesson-way", id: "lesson-way" },
        h("p", {}, "One way to reach the goal, move by move:"),
        h("ol", {}, this.lesson.solution.map((a) => h("li", {}, moveWords(a))))) : null);
  }

  practice() {
    const status = h("p", { id: "practice-status", role: "status", "aria-live": "polite" });
    const go = async () => {
      status.textContent = "Setting the table…";
      const name = store.playerName() || "Learner";
      const body = { name: "Practice", rules: { preset: this.rules, set: { rounds: 1 } }, bots: "heuristic",
        options: { hints: true } };
      try {
        await playWithBots(body, name);
      } catch (err) {
        status.textContent = `The table was not made: ${err.message}`;
      }
    };
    return h("section", { class: "panel practice", "aria-labelledby": "practice-h" },
      h("h2", { id: "practice-h" }, "Practice"),
      h("p", {}, `A short deal against bots: one round of ${this.rules}, you in seat 1, bots in the other seats.`),
      h("div", { class: "lesson-buttons" },
        h("button", { type: "button", class: "primary", id: "practice", onclick: go }, "Practice one round against bots"),
        h("a", { href: `/?play=now&rules=${encodeURIComponent(this.rules)}`, id: "play-now" }, "Play now")),
      status);
  }
}

new LessonsPage(byId("main")).start();
