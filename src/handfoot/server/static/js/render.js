// The table on screen, built from the game's last state: every part from the seat's view and
// what the server said about it.  Nothing here decides a rule.

import { h, fill, byId, plural } from "./dom.js";
import {
  RANKS, WILDS, THREES, cardName, cardNames, face, mark, cardClass, counts, total,
} from "./cards.js";
import { Game } from "./game.js";
import * as coach from "./coach.js";
import { holdText } from "./countdown.js";

export const PHASE_WORDS = {
  draw: "draw (s) or take the pile (p)",
  "pile-opening": "finish your opening from the pile (Enter) or take it back (r)",
  meld: "meld, then discard (d)",
  answer: "answer your partner (y / n)",
};

// A card as a picture with words: its face, and a word for wild cards and threes.
export function cardFace(token, extra = {}) {
  const { tag = "span", label, class: more = "", ...attrs } = extra;
  const word = mark(token);
  return h(tag, {
    class: `card ${cardClass(token)} ${more}`.trim(),
    ...(tag === "span" ? { "aria-hidden": label ? null : "true" } : {}),
    ...attrs,
    "aria-label": label || null,
  }, h("span", { class: "face", "aria-hidden": "true" }, face(token)),
  word ? h("span", { class: "mark", "aria-hidden": "true" }, word) : null);
}

export function seatLabel(g, seat) {
  if (seat === g.seat) return "You";
  const s = g.table.seats[seat];
  const name = s.name || `Seat ${seat + 1}`;
  if (g.seat === null) return name;
  return g.team(seat) === g.team(g.seat) ? `${name} (partner)` : name;
}

export function teamLetter(team) {
  return "ABCDEF"[team] || String(team + 1);
}

export function teamName(g, team) {
  const seats = g.table.seats.filter((s) => s.team === team)
    .map((s) => (s.seat === g.seat ? "you" : s.name || `seat ${s.seat + 1}`));
  const who = g.seat !== null && team === g.team(g.seat) ? "Your team" : `Team ${teamLetter(team)}`;
  return `${who} (${seats.join(", ")})`;
}

function packetName(g, index) {
  return (g.table.packet_names || [])[index] || `packet ${index + 1}`;
}

// ====================================================================== the top line
function turnLine(g) {
  const v = g.view;
  if (v.phase === "game-over") return h("p", { class: "turn over" }, h("strong", {}, "Game over"));
  const mine = g.myMove;
  let what;
  if (mine && v.phase === "answer") {
    what = h("strong", { class: "your-turn" }, `${seatLabel(g, v.turn)} asks you: may I go out?`);
  } else if (mine) {
    what = h("strong", { class: "your-turn" }, `▶ Your turn: ${PHASE_WORDS[v.phase] || v.phase}`);
  } else if (v.phase === "answer") {
    what = h("span", {}, `${seatLabel(g, v.turn)} asked ${seatLabel(g, v.actor)}: may I go out?`);
  } else if (v.actor === g.seat) {
    what = h("span", {}, "Your seat is being played by a bot until your next turn");
  } else {
    what = h("span", {}, `${seatLabel(g, v.actor)} to play…`);
  }
  let answer = null;
  if (v.turn === g.seat && v.asked === "yes") {
    answer = h("p", { class: "asked yes" }, h("strong", {}, "Your partner said yes: "),
      g.table.rules.permission_yes === "binding" ? "you must go out this turn." : "you may go out this turn.");
  } else if (v.turn === g.seat && v.asked === "no") {
    answer = h("p", { class: "asked no" }, h("strong", {}, "Your partner said no: "), "you may not go out this turn.");
  }
  return [h("p", { class: "turn" + (mine ? " mine" : "") }, what), answer];
}

function roundLine(g) {
  const v = g.view;
  const parts = [`Round ${v.round} of ${v.rounds}`, `turn ${v.turns}`];
  if (g.seat !== null) {
    const info = v.teams[g.team(g.seat)];
    parts.push(`minimum ${info.minimum}`);
    parts.push(info.opened ? "your team is down" : `your team is not down yet (needs ${info.minimum})`);
  }
  return h("p", { class: "round" }, parts.join(" · "));
}

// ====================================================================== seats
function seatItem(g, seat) {
  const v = g.view;
  const info = v.seats[seat];
  const t = g.table.seats[seat];
  const turn = v.actor === seat;
  const facts = [];
  const fact = (text, cls = "") => facts.push(h("span", { class: `fact ${cls}`.trim() }, text));
  fact(`${plural(info.hand_size, "card")} in ${seat === g.seat ? "your" : "their"} ${packetName(g, info.packet)}`, "count");
  const waiting = info.packet_sizes.map((n, i) => `${packetName(g, info.packet + 1 + i)} ${n}`);
  fact(waiting.length ? `waiting: ${waiting.join(", ")}` : "no packet waiting");
  if (info.red_threes) fact(`red threes laid: ${info.red_threes}`);
  if (info.knee_pending) fact("knee due");
  if (seat !== g.seat && info.known) {
    const known = counts(info.known);
    const text = Object.entries(known).map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(", ");
    if (text) fact(`holds from the pile: ${text}`);
  }
  const badges = [];
  if (t.occupant === "bot") badges.push(h("span", { class: "badge" }, `bot (${t.bot})`));
  if (t.occupant === "person" && t.driver === "bot") {
    badges.push(h("span", { class: "badge away" }, `away: a ${t.bot} bot plays for them`));
  } else if (t.occupant === "person" && !t.connected && seat !== g.seat) {
    // countdown.js redraws the seconds every second (data-hold-seat).
    badges.push(h("span", { class: "badge away", dataset: { holdSeat: String(seat) } }, holdText(t)));
  }
  return h("li", {
    class: "seat" + (turn ? " turn" : "") + (seat === g.seat ? " me" : ""),
    dataset: { seat: String(seat) },
  },
  h("p", { class: "seat-name" },
    turn ? h("span", { class: "marker" }, "▶ ") : null,
    h("strong", {}, seatLabel(g, seat)),
    h("span", { class: "team" }, ` · team ${teamLetter(g.team(seat))}`),
    turn ? h("span", { class: "sr-only" }, " (to play)") : null,
    badges),
  h("p", { class: "seat-facts" }, facts));
}

function seatsPanel(g) {
  const order = [];
  const n = g.view.seats.length;
  const first = g.seat === null ? 0 : g.seat;
  for (let i = 0; i < n; i++) order.push((first + i) % n);
  return h("section", { class: "panel seats", "aria-labelledby": "seats-h" },
    h("h2", { id: "seats-h", class: "sr-only" }, "Players"),
    h("ul", { class: "seat-list" }, order.map((s) => seatItem(g, s))));
}

// ====================================================================== stock and pile
function pilePanel(g) {
  const v = g.view;
  const pileSize = v.pile ? v.pile.split(" ").filter(Boolean).length : 0;
  const status = [];
  if (g.pile) {
    if (g.pile.open) {
      const mine = g.legal.some((a) => a.startsWith("take-pile"));
      status.push(h("p", { class: "pile-status open" }, h("strong", {}, mine ? "✓ You may take it" : "✓ Open to you"),
        g.pile.needs ? `: ${g.pile.needs}` : ""));
    } else if (pileSize) {
      status.push(h("p", { class: "pile-status closed" }, h("strong", {}, "✗ Closed to you"),
        `: ${g.pile.reason} `, h("span", { class: "rule" }, `(rule ${g.pile.clause}${g.pile.rule ? ", " + g.pile.rule : ""})`),
        " ", coach.whyButton(g.pile.clause, g.pile.rule)));
    }
  }
  const top = v.pile_top;
  return h("section", { class: "panel centre", "aria-labelledby": "centre-h" },
    h("h2", { id: "centre-h", class: "sr-only" }, "Stock and pile"),
    h("div", { class: "piles" },
      h("div", { class: "stock" },
        h("span", { class: "card back", "aria-hidden": "true" }, h("span", { class: "face" }, "")),
        h("p", {}, h("strong", {}, "Stock"), ` ${plural(v.stock_size, "card")}`)),
      h("div", { class: "pile" },
        top ? cardFace(top, { class: "top" }) : h("span", { class: "card empty", "aria-hidden": "true" }),
        h("p", {}, h("strong", {}, "Pile"), ` ${plural(pileSize, "card")}`,
          top ? `, ${cardName(top)} on top` : ", empty")),
      h("div", { class: "draw-buttons" },
        actionButton(g, "draw", g.has("stop") ? "End the round" : "Draw", "s",
          g.has("draw") || g.has("stop"), () => g.draw()),
        actionButton(g, "take", "Take the pile", "p", g.legal.some((a) => a.startsWith("take-pile")),
          () => g.takePile()))),
    status,
    coach.pileNote(g),
    v.set_aside ? h("p", {}, `Pennies set aside: ${v.set_aside}`) : null);
}

// ====================================================================== melds
function meldWords(slot, n, twos, jokers) {
  const wild = twos + jokers;
  const size = n + wild;
  const kind = slot === "wild" ? "wild" : wild ? "dirty" : "clean";
  const text = slot === "wild" ? plural(size, "wild card")
    : `${n} natural${n === 1 ? "" : "s"}` + (wild ? ` + ${wild} wild` : "");
  return { kind, size, text };
}

// A finished canasta in words: "clean canasta of Js", "wild canasta", "7s canasta".
function canastaWords(slot, kind) {
  if (slot === "wild") return "wild canasta";
  if (kind === "clean" || kind === "dirty") return `${kind} canasta of ${slot}s`;
  return `${kind} canasta`; // a rank canasta with its own bonus (7s, 5s in the knee game)
}

function teamPanel(g, team) {
  const v = g.view;
  const info = v.teams[team];
  const rules = g.table.rules;
  const items = [];
  for (const c of info.canastas) {
    const [slot, n, twos, jokers, kind] = c;
    const size = n + twos + jokers;
    items.push(h("li", { class: `meld canasta ${["clean", "dirty", "wild"].includes(kind) ? kind : "rank"}` },
      cardFace(slot === "wild" ? "JK" : slot),
      h("span", { class: "meld-text" },
        h("strong", {}, `★ ${canastaWords(slot, kind)}`), `: ${size} cards`,
        wilds(twos, jokers, slot))));
  }
  const order = [...RANKS, "wild"];
  for (const slot of order) {
    const m = info.melds[slot];
    if (!m) continue;
    const [n, twos, jokers] = m;
    const w = meldWords(slot, n, twos, jokers);
    const full = w.size >= rules.canasta_size;
    items.push(h("li", { class: `meld ${w.kind}` },
      cardFace(slot === "wild" ? "JK" : slot),
      h("span", { class: "meld-text" },
        h("strong", {}, `${slot === "wild" ? "Wild" : slot} ×${w.size}`),
        ` ${w.kind}${full ? " canasta (open)" : ""} · ${w.text}`,
        full ? "" : h("span", { class: "progress" }, ` · ${w.size}/${rules.canasta_size}`))));
  }
  const quota = Object.entries(rules.quota).filter(([, n]) => n > 0);
  const missing = g.quotaMissing[team] || {};
  const checklist = [];
  for (const [kind, count] of quota) {
    const lacking = missing[kind] || 0;
    for (let i = 0; i < count; i++) {
      const done = i < count - lacking;
      checklist.push(h("li", { class: done ? "done" : "todo" },
        h("span", { "aria-hidden": "true" }, done ? "☑ " : "☐ "),
        `${kind}`, h("span", { class: "sr-only" }, done ? " (made)" : " (still needed)")));
    }
  }
  const lack = Object.entries(missing).filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`).join(", ");
  const mine = g.seat !== null && team === g.team(g.seat);
  return h("section", { class: "panel team" + (mine ? " ours" : ""), "aria-labelledby": `team-${team}-h` },
    h("h2", { id: `team-${team}-h` }, teamName(g, team)),
    h("p", { class: "team-state" },
      info.opened ? h("strong", {}, "Down (opened)") : `Not down: needs ${info.minimum} to open`,
      " · ", lack ? `to go out still needs ${lack}` : "has its canastas to go out"),
    h("ul", { class: "quota", "aria-label": "canastas needed to go out" }, checklist),
    items.length ? h("ul", { class: "melds" }, items) : h("p", { class: "none" }, "No melds yet"));
}

function wilds(twos, jokers, slot) {
  if (slot === "wild" || !(twos + jokers)) return "";
  const parts = [];
  if (twos) parts.push(plural(twos, "two"));
  if (jokers) parts.push(plural(jokers, "joker"));
  return ` (${parts.join(", ")})`;
}

function meldsPanel(g) {
  const teams = [];
  const n = g.view.teams.length;
  const first = g.seat === null ? 0 : g.team(g.seat);
  for (let i = 0; i < n; i++) teams.push((first + i) % n);
  return h("div", { class: "teams" }, teams.map((t) => teamPanel(g, t)));
}

// ====================================================================== the hand
function groupsOf(g, sort) {
  const hand = g.hand;
  const ranks = RANKS.filter((t) => g.available(t) + (g.picked[t] || 0) > 0);
  if (sort === "rank-desc") ranks.reverse();
  if (sort === "count") {
    ranks.sort((a, b) => (hand[b] || 0) - (hand[a] || 0) || RANKS.indexOf(a) - RANKS.indexOf(b));
  }
  return [
    { name: "naturals", label: null, tokens: ranks },
    { name: "wild", label: "Wild cards", tokens: WILDS.filter((t) => g.available(t) + (g.picked[t] || 0) > 0) },
    { name: "threes", label: "Threes", tokens: THREES.filter((t) => g.available(t) + (g.picked[t] || 0) > 0) },
  ];
}

function handPanel(g, settings, onSort) {
  const v = g.view;
  if (g.seat === null) {
    return h("section", { class: "panel hand" }, h("p", {}, "You are watching: players' hands stay hidden."));
  }
  const info = v.seats[g.seat];
  const groups = groupsOf(g, settings.sort);
  const playable = coach.playable(g); // the coaching table marks what can be melded now
  const out = [];
  for (const grp of groups) {
    if (!grp.tokens.length) continue;
    const boxes = grp.tokens.map((t) => {
      const shown = g.available(t) + (g.picked[t] || 0);
      const picked = g.picked[t] || 0;
      const buttons = [];
      for (let i = 0; i < shown; i++) {
        const isPicked = i < picked;
        buttons.push(cardFace(t, {
          tag: "button",
          type: "button",
          class: "in-hand" + (isPicked ? " picked" : "") + (playable.has(t) ? " playable" : ""),
          "aria-pressed": isPicked ? "true" : "false",
          label: `${cardName(t)}, ${i + 1} of ${shown}${isPicked ? ", picked" : ""}${playable.has(t) ? ", can be melded now" : ""}`,
          dataset: { card: t, fid: `card-${t}-${i}` },
          onclick: () => onCard(g, t, isPicked),
        }));
      }
      return h("div", { class: `group ${grp.name}`, role: "group", "aria-label": `${cardNames(t, shown)}` },
        h("p", { class: "group-head", "aria-hidden": "true" }, shown > 1 ? `${face(t) === "Jo" ? "JK" : t} ×${shown}` : t),
        h("div", { class: "group-cards" }, buttons));
    });
    out.push(h("div", { class: `hand-part ${grp.name}` },
      grp.label ? h("h3", { class: "part-head" }, grp.label) : null, boxes));
  }
  const sortSelect = h("select", { id: "sort", "aria-label": "Sort the hand", onchange: (e) => onSort(e.target.value) },
    [["rank", "by rank, low first"], ["rank-desc", "by rank, high first"], ["count", "most cards first"]]
      .map(([value, text]) => h("option", { value, selected: settings.sort === value }, text)));
  const where = packetName(g, info.packet);
  const waiting = info.packet_sizes.map((n, i) => `${packetName(g, info.packet + 1 + i)} ${n}`);
  return h("section", { class: "panel hand", "aria-labelledby": "hand-h" },
    h("div", { class: "hand-head" },
      h("h2", { id: "hand-h" }, `Your ${where}: ${plural(total(g.hand), "card")}`),
      h("span", { class: "waiting" }, waiting.length ? `waiting: ${waiting.join(", ")}` : "no packet waiting"),
      h("label", { class: "sort" }, "Sort ", sortSelect)),
    out.length ? h("div", { class: "hand-cards" }, out) : h("p", {}, "No cards in hand."));
}

function onCard(g, token, isPicked) {
  if (g.mode === "discard") {
    g.mode = "";
    g.discard(token);
    return;
  }
  if (isPicked) g.unpick(token);
  else {
    const error = g.pick(token);
    if (error) g.hooks.say(error);
  }
  g.hooks.render();
}

// ====================================================================== staging
function stagePanel(g) {
  if (g.seat === null || !g.view || g.view.phase === "game-over") return null;
  const picked = g.pickedTokens();
  const parts = g.staged.map((p, index) => {
    const text = Game.partText(p);
    const cards = text.replace(/^[^:]*:\s*/, "").split(" ");
    return h("li", { class: "staged-part" },
      h("span", { class: "mini-cards", "aria-hidden": "true" }, cards.map((t) => cardFace(t, { class: "mini" }))),
      h("span", { class: "sr-only" }, `${p.slot === "wild" ? "wild meld" : p.slot + "s"}: ${text}`),
      h("button", { type: "button", class: "small", "aria-label": `Put back ${text}`, onclick: () => { g.unstage(index); g.hooks.render(); } }, "Put back"));
  });
  const check = g.check;
  let verdict = null;
  if (g.refusal) {
    verdict = h("p", { class: "refusal", role: "alert" }, h("strong", {}, "✗ Refused: "),
      g.refusal.reason, " ", h("span", { class: "rule" }, `(rule ${g.refusal.clause}${g.refusal.rule ? ", " + g.refusal.rule : ""})`),
      " ", coach.whyButton(g.refusal.clause, g.refusal.rule));
  } else if (check && g.staged.length) {
    const points = check.points !== null && check.points !== undefined ? `${check.points} points` : "";
    const opening = check.opening ? ` · opening ${check.opening.laid} of ${check.opening.minimum}` : "";
    verdict = check.ok
      ? h("p", { class: "check ok" }, h("strong", {}, "✓ Ready to lay down"), ` · ${points}${opening}`)
      : h("p", { class: "check no" }, h("strong", {}, "✗ Not yet: "), check.reason,
        check.clause ? h("span", { class: "rule" }, ` (rule ${check.clause})`) : "", points ? ` · ${points}${opening}` : "",
        " ", coach.whyButton(check.clause, check.rule));
  }
  let targets = null;
  if (g.mode === "target") {
    targets = h("div", { class: "targets", role: "group", "aria-label": "Put the wild cards on" },
      h("span", {}, "Put the wild cards on: "),
      g.wildTargets().map((slot) => h("button", {
        type: "button", class: "target", dataset: { target: slot },
        onclick: () => { const e = g.stage(slot); g.hooks.say(e || "Staged."); g.hooks.render(); },
      }, slot === "wild" ? "a meld of wild cards" : `the ${slot}s`)));
  }
  return h("section", { class: "panel stage", "aria-labelledby": "stage-h" },
    h("h2", { id: "stage-h", class: "sr-only" }, "Picked and staged cards"),
    h("p", { class: "picked" }, h("strong", {}, "Picked: "), picked.length ? picked.join(" ") : "—"),
    targets,
    parts.length ? h("div", {}, h("strong", {}, "To lay down:"), h("ul", { class: "staged" }, parts)) : null,
    verdict);
}

// ====================================================================== actions
export function actionButton(g, id, text, key, enabled, run) {
  // "Ask to go out|Ask": the part after | is what a narrow screen shows.
  const [long, short] = text.split("|");
  const label = short ? [h("span", { class: "long" }, long), h("span", { class: "short", "aria-hidden": "true" }, short)] : long;
  return h("button", {
    type: "button", id: `act-${id}`, class: "act", disabled: !enabled, "aria-keyshortcuts": key || null,
    dataset: { fid: `act-${id}` },
    onclick: () => run(),
    "aria-label": short ? long : null,
  }, label, key ? h("kbd", { "aria-hidden": "true" }, key === "Enter" ? "↵" : key) : null);
}

function actionBar(g) {
  if (g.seat === null) return null;
  if (g.view.phase === "game-over") {
    // The final table (and the host's Rematch) stays reachable after its dialog is closed.
    return h("nav", { class: "actions", "aria-label": "Your moves" },
      actionButton(g, "final", "The final table", null, true, () => g.hooks.showFinal()));
  }
  if (g.myMove && g.view.phase === "answer") {
    return h("nav", { class: "actions answering", "aria-label": "Your moves" }, coach.answerBar(g));
  }
  const anyPicked = g.pickedTokens().length > 0;
  const melding = g.view.phase === "meld" || g.view.phase === "pile-opening";
  const buttons = [
    actionButton(g, "meld", "Meld", "m", g.myMove && melding && anyPicked, () => g.meld()),
    actionButton(g, "lay", "Lay down", "Enter", g.myMove && melding && (g.staged.length > 0 || anyPicked), () => g.layDown()),
    actionButton(g, "discard", "Discard", "d", g.myMove && g.hasPrefix("discard"), () => g.discard()),
    coach.moveApplies(g, "knock") ? actionButton(g, "knock", "Knock", "n", g.has("knock"), () => g.knockOrNo()) : null,
    coach.moveApplies(g, "ask") ? actionButton(g, "ask", "Ask to go out|Ask", "g", g.has("ask"), () => g.ask()) : null,
    g.has("retract") ? actionButton(g, "retract", "Take back opening|Take back", "r", true, () => g.retract()) : null,
    actionButton(g, "undo", "Undo", "u", g.canUndo, () => g.undo()),
    g.table.options.hints ? actionButton(g, "hint", "Hint", "h", g.myMove, () => g.hint()) : null,
    actionButton(g, "clear", "Clear", "Esc", anyPicked || g.staged.length > 0 || g.mode !== "", () => { g.clear(); g.hooks.say(""); g.hooks.render(); }),
  ];
  return h("nav", { class: "actions", "aria-label": "Your moves" }, buttons);
}

// ====================================================================== scores and log
function scoresPanel(g) {
  const v = g.view;
  const n = v.teams.length;
  const head = h("tr", {}, h("th", { scope: "col" }, "Round"),
    [...Array(n).keys()].map((t) => h("th", { scope: "col" }, g.seat !== null && t === g.team(g.seat) ? "Us" : `Team ${teamLetter(t)}`)));
  const rows = v.results.map((r) => h("tr", {},
    h("th", { scope: "row" }, h("button", { type: "button", class: "link", onclick: () => g.hooks.showResult(r.round - 1) }, `${r.round}`)),
    r.teams.map((t) => h("td", {}, String(t.total)))));
  const totals = h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"), v.totals.map((x) => h("td", {}, h("strong", {}, String(x)))));
  return h("section", { class: "panel scores", "aria-labelledby": "scores-h" },
    h("h2", { id: "scores-h" }, "Scores"),
    coach.runningScore(g),
    h("table", {}, h("thead", {}, head), h("tbody", {}, rows, totals)));
}

export function renderGame(root, g, settings, handlers) {
  if (!g.view) return;
  const message = g.message ? h("p", { class: "message", id: "message" }, g.message) : h("p", { class: "message empty", id: "message" });
  let main = root.querySelector(".game");
  if (!main) {
    main = h("div", { class: "game" },
      h("div", { class: "status", id: "status" }),
      h("div", { class: "board" },
        h("div", { class: "play-area", id: "play-area" }),
        h("aside", { class: "side", id: "side" },
          h("div", { id: "scores" }),
          h("section", { class: "panel log", "aria-labelledby": "log-h" },
            h("h2", { id: "log-h" }, "Log"),
            h("ol", { class: "log-lines", id: "log", "aria-live": "polite", "aria-relevant": "additions", tabindex: "0", "aria-label": "The log, newest last" })),
          h("div", { id: "chat" }))));
    fill(root, main);
  }
  fill(byId("status"), roundLine(g), turnLine(g), message);
  fill(byId("play-area"),
    seatsPanel(g),
    pilePanel(g),
    handPanel(g, settings, handlers.onSort),
    stagePanel(g),
    coach.coachPanel(g),
    actionBar(g),
    meldsPanel(g));
  fill(byId("scores"), scoresPanel(g));
  renderLog(g);
  handlers.renderChat(byId("chat"));
}

// The log grows by appending, so a screen reader reads only the new lines.
function renderLog(g) {
  const ol = byId("log");
  const shown = Number(ol.dataset.total || 0);
  if (ol.dataset.epoch !== String(g.logEpoch) || g.logTotal < shown) {
    ol.replaceChildren(...g.log.slice(-200).map((line) => h("li", {}, line)));
  } else if (g.logTotal > shown) {
    const fresh = g.log.slice(-Math.min(g.logTotal - shown, g.log.length));
    for (const line of fresh) ol.append(h("li", {}, line));
  }
  ol.dataset.epoch = String(g.logEpoch);
  ol.dataset.total = String(g.logTotal);
  while (ol.children.length > 200) ol.firstElementChild.remove();
  ol.scrollTop = ol.scrollHeight;
}
