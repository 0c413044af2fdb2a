// The table on screen, built from the game's last state: every part from the seat's view and
// what the server said about it.  Nothing here decides a rule.

import { h, fill, byId, plural } from "./dom.js";
import {
  RANKS, WILDS, THREES, cardName, cardNames, face, mark, cardClass, counts, total,
  displaySuit, cornerRank, SUIT_SIGN,
} from "./cards.js";
import { Game } from "./game.js";
import * as coach from "./coach.js";
import { holdText, sinceTable } from "./countdown.js";
import { paceWords, turnWords } from "./pace.js";
import { fitHand, installTable, needsStacks, placeSeatPanel, seatOpen, toggleSeat } from "./layout.js";
import { noticeChanges } from "./anim.js";

export const PHASE_WORDS = {
  draw: "draw (s) or take the pile (p)",
  "pile-opening": "finish your opening from the pile (Enter) or take it back (r)",
  meld: "meld, then discard (d)",
  answer: "answer your partner (y / n)",
};

// A card as a picture with words: drawn by the page (rank and a display suit in two corners,
// a big pip, a word for wild cards and threes), never an image.  ``index`` picks the display
// suit (cards.js: displaySuit).  The drawing sits in .cf so a card in the hand can be a
// narrow slot (the part not covered by the next card) while its face keeps its full size.
// ``badge``: drawn on the face too (a stack's count).
export function cardFace(token, extra = {}, badge = null) {
  const { tag = "span", label, class: more = "", index = 0, ...attrs } = extra;
  const suit = displaySuit(token, index);
  const word = mark(token);
  const sign = suit ? SUIT_SIGN[suit] : "★";
  const rank = cornerRank(token);
  const corner = (where) => h("span", { class: `ix ${where}` },
    h("span", { class: "r" + (token === "JK" ? " jk" : "") }, rank),
    h("span", { class: "s" }, sign),
    token === "2" ? h("span", { class: "w" }, "★") : null);
  return h(tag, {
    class: `card ${cardClass(token)} suit-${suit || "none"} ${more}`.trim(),
    ...(tag === "span" ? { "aria-hidden": label ? null : "true" } : {}),
    ...attrs,
    "aria-label": label || null,
    dataset: { ...(attrs.dataset || {}), face: token },
  }, h("span", { class: "cf", "aria-hidden": "true" },
    corner("tl"),
    h("span", { class: "pip" }, token === "JK" ? "★" : sign),
    word ? h("span", { class: "mark" }, word) : null,
    corner("br"),
    badge));
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
  const [who, members] = teamWords(g, team);
  return `${who} ${members}`;
}

function teamWords(g, team) {
  const seats = g.table.seats.filter((s) => s.team === team)
    .map((s) => (s.seat === g.seat ? "you" : s.name || `seat ${s.seat + 1}`));
  const who = g.seat !== null && team === g.team(g.seat) ? "Your team" : `Team ${teamLetter(team)}`;
  return [who, `(${seats.join(", ")})`];
}

function packetName(g, index) {
  return (g.table.packet_names || [])[index] || `packet ${index + 1}`;
}

// ====================================================================== the top line
// "draw (s) or take the pile (p)": the keys in parentheses are left out on a touch screen.
function withKeys(text) {
  return text.split(/( \([^)]+\))/).map((part) => (/^ \(/.test(part) ? h("span", { class: "keyhint" }, part) : part));
}

function turnLine(g) {
  const v = g.view;
  if (v.phase === "game-over") return h("p", { class: "turn over" }, h("strong", {}, "Game over"));
  const mine = g.myMove;
  let what;
  if (mine && v.phase === "answer") {
    what = h("strong", { class: "your-turn" }, `${seatLabel(g, v.turn)} asks you: may I go out?`);
  } else if (mine) {
    what = h("strong", { class: "your-turn" }, "▶ Your turn: ", withKeys(PHASE_WORDS[v.phase] || v.phase));
  } else if (v.phase === "answer") {
    what = h("span", {}, `${seatLabel(g, v.turn)} asked ${seatLabel(g, v.actor)}: may I go out?`);
  } else if (v.actor === g.seat) {
    what = h("span", {}, "Your seat is being played by a bot until your next turn");
  } else if (g.table.turn && g.table.turn.waiting) {
    what = h("span", {}, `Waiting for ${seatLabel(g, v.actor)}…`);
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
  return [h("p", { class: "turn" + (mine ? " mine" : "") }, what), answer, paceLine(g)];
}

// A turn-based table: its pace, and whose turn since when (countdown.js redraws the times).
function paceLine(g) {
  const t = g.table;
  if (!t || !t.options || t.options.pace !== "turn-based") return null;
  return h("p", { class: "pace-line" + (t.turn && t.turn.waiting ? " waiting" : ""), id: "pace-line" },
    h("span", { class: "pace-words" }, paceWords(t.options)),
    t.turn ? h("span", { class: "pace-turn" },
      h("span", { class: "long", dataset: { paceTurn: "long" } }, paceTurnText(g)),
      h("span", { class: "short", dataset: { paceTurn: "short" }, "aria-hidden": "true" }, paceTurnText(g, true)))
      : null);
}

// ``short``: the small phone's line (the long one stays for screen readers).
export function paceTurnText(g, short = false) {
  return turnWords(g.table, sinceTable(), (seat) => (seat === g.seat ? "you" : seatLabel(g, seat)), short);
}

// One short line: the round, the turn, the opening minimum and the game's score so far.
function roundLine(g) {
  const v = g.view;
  const parts = [h("span", {}, `Round ${v.round}`, h("span", { class: "of" }, ` of ${v.rounds}`)), h("span", {}, `turn ${v.turns}`)];
  if (g.seat !== null) {
    const info = v.teams[g.team(g.seat)];
    parts.push(h("span", { class: "opening" }, info.opened ? "your team is down" : `to open: ${info.minimum}`));
  }
  const n = v.teams.length;
  const first = g.seat === null ? 0 : g.team(g.seat);
  const score = [];
  for (let i = 0; i < n; i++) {
    const t = (first + i) % n;
    const who = g.seat !== null && t === first ? "Us" : `Team ${teamLetter(t)}`;
    score.push(h("span", { class: "score-chip" + (g.seat !== null && t === first ? " ours" : "") },
      `${who} `, h("strong", {}, String(v.totals[t]))));
  }
  return h("p", { class: "round" }, parts, h("span", { class: "score", "aria-label": "Game score" }, score));
}

// ====================================================================== seats
// A seat as a small tile: name, whose turn, bot or away, cards held and the packets waiting.
// The cards another seat holds are only ever a count (and what it took from the pile).
function seatItem(g, seat) {
  const v = g.view;
  const info = v.seats[seat];
  const t = g.table.seats[seat];
  const turn = v.actor === seat;
  const facts = [];
  const fact = (text, cls = "") => facts.push(h("span", { class: `fact ${cls}`.trim() }, text));
  fact(`${plural(info.hand_size, "card")} in ${packetName(g, info.packet)}`, "count");
  const waiting = info.packet_sizes.map((n, i) => `${packetName(g, info.packet + 1 + i)} ${n}`);
  fact(waiting.length ? `then ${waiting.join(", ")}` : "last packet", waiting.length ? "" : "last");
  if (info.red_threes) fact(`red 3s: ${info.red_threes}`);
  if (info.knee_pending) fact("knee due");
  if (seat !== g.seat && info.known) {
    const known = counts(info.known);
    const text = Object.entries(known).map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(", ");
    if (text) fact(`holds from the pile: ${text}`);
  }
  const badges = [];
  if (t.occupant === "bot") badges.push(h("span", { class: "badge" }, "bot"));
  if (t.occupant === "person" && t.driver === "bot") {
    badges.push(h("span", { class: "badge away" }, `away: a ${t.bot} bot plays for them`));
  } else if (t.occupant === "person" && !t.connected && seat !== g.seat) {
    // countdown.js redraws the seconds every second (data-hold-seat).
    badges.push(h("span", { class: "badge away", dataset: { holdSeat: String(seat) } }, holdText(t)));
  }
  // The tile is a button: a tap (or Enter) opens a small panel under it with everything the
  // tile may have cut short (the whole name, every fact), as a tooltip does for a mouse.
  const open = seatOpen(seat);
  const full = facts.map((f) => f.textContent);
  return h("li", {
    class: "seat" + (turn ? " turn" : "") + (seat === g.seat ? " me" : "") + (open ? " open" : "")
      + ` team-${g.team(seat)}` + (g.seat !== null && g.team(seat) === g.team(g.seat) ? " ours" : ""),
    dataset: { seat: String(seat) },
  },
  h("button", {
    type: "button", class: "seat-tile", title: full.join(" · "),
    "aria-expanded": open ? "true" : "false", "aria-controls": open ? `seat-more-${seat}` : null,
    dataset: { fid: `seat-${seat}` },
    onclick: () => toggleSeat(seat, g),
  },
  h("span", { class: "seat-name" },
    turn ? h("span", { class: "marker", "aria-hidden": "true" }, "▶ ") : null,
    h("strong", {}, seatLabel(g, seat)),
    h("span", { class: "team" }, ` · ${teamLetter(g.team(seat))}`),
    turn ? h("span", { class: "sr-only" }, " (to play)") : null,
    badges),
  h("span", { class: "seat-facts" }, facts)),
  open ? h("div", { class: "seat-more", id: `seat-more-${seat}` },
    h("p", {}, h("strong", {}, seatLabel(g, seat)), ` · team ${teamLetter(g.team(seat))}`,
      t.occupant === "bot" ? " · bot" : ""),
    h("ul", {}, full.map((text) => h("li", {}, text)))) : null);
}

function seatsPanel(g) {
  const order = [];
  const n = g.view.seats.length;
  const first = g.seat === null ? 0 : g.seat;
  for (let i = 0; i < n; i++) order.push((first + i) % n);
  return h("section", { class: "panel seats", "aria-labelledby": "seats-h" },
    h("h2", { id: "seats-h", class: "sr-only" }, "Players"),
    h("ul", { class: "seat-list" + (n > 4 ? " six" : "") }, order.map((s) => seatItem(g, s))));
}

// ====================================================================== stock and pile
// The stock (a card back with its count), the pile (its top card, its size) and its state in
// a few words; why it is closed is one tap away.
function pilePanel(g) {
  const v = g.view;
  const pileSize = v.pile ? v.pile.split(" ").filter(Boolean).length : 0;
  let status = null;
  if (g.pile) {
    if (g.pile.open) {
      const mine = g.legal.some((a) => a.startsWith("take-pile"));
      const head = mine ? "✓ You may take it" : "✓ Open to you";
      status = g.pile.needs
        ? h("details", { class: "pile-status open" }, h("summary", {}, h("strong", {}, head)), h("p", {}, g.pile.needs))
        : h("p", { class: "pile-status open" }, h("strong", {}, head));
    } else if (pileSize) {
      status = h("details", { class: "pile-status closed" },
        h("summary", {}, h("strong", {}, "✗ Closed", h("span", { class: "long" }, " to you"))),
        h("p", {}, `${g.pile.reason} `, h("span", { class: "rule" }, `(rule ${g.pile.clause}${g.pile.rule ? ", " + g.pile.rule : ""})`),
          " ", coach.whyButton(g.pile.clause, g.pile.rule)));
    }
  }
  const top = v.pile_top;
  return h("section", { class: "panel centre", "aria-labelledby": "centre-h" },
    h("h2", { id: "centre-h", class: "sr-only" }, "Stock and pile"),
    h("div", { class: "piles" },
      h("div", { class: "stock" },
        h("span", { class: "card back", "aria-hidden": "true" }, h("span", { class: "cf" }, h("span", { class: "count" }, String(v.stock_size)))),
        h("p", {}, h("strong", {}, "Stock"), h("span", { class: "n" }, ` ${plural(v.stock_size, "card")}`))),
      h("div", { class: "pile" + (pileSize > 1 ? " stacked" : "") },
        top ? cardFace(top, { class: "top", index: pileSize }) : h("span", { class: "card empty", "aria-hidden": "true" }),
        h("div", { class: "pile-words" },
          h("p", {}, h("strong", {}, "Pile"), h("span", { class: "n" }, ` ${plural(pileSize, "card")}`),
            top ? h("span", { class: "sr-only" }, `, ${cardName(top)} on top`) : ", empty"),
          status,
          coach.pileNote(g))),
      h("div", { class: "draw-buttons" },
        actionButton(g, "draw", g.has("stop") ? "End the round" : "Draw", "s",
          g.has("draw") || g.has("stop"), () => g.draw()),
        actionButton(g, "take", "Take the pile|Take", "p", g.legal.some((a) => a.startsWith("take-pile")),
          () => g.takePile()))),
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

// A team's table, compact enough for a phone: each meld a chip (its rank, how many cards, how
// many of them wild, a dashed edge when dirty), each closed canasta one stacked card, and in
// one line whether the team is down and which canastas it still lacks to go out.
function teamPanel(g, team) {
  const v = g.view;
  const info = v.teams[team];
  const rules = g.table.rules;
  // Closed canastas, grouped by kind so a team with many still takes a line or two: one
  // stacked card per canasta, its rank in the corner, the kind written once.
  const kinds = new Map();
  info.canastas.forEach((c, i) => {
    const kind = c[4];
    if (!kinds.has(kind)) kinds.set(kind, []);
    kinds.get(kind).push([...c, i]);
  });
  const closed = [...kinds].map(([kind, list]) => {
    const cls = ["clean", "dirty", "wild"].includes(kind) ? kind : "rank";
    return h("span", { class: `canasta-group ${cls}` },
      h("span", { class: "meld-kind", "aria-hidden": "true" }, `★ ${kind}${list.length > 1 ? ` ×${list.length}` : ""}`),
      list.map(([slot, n, twos, jokers, , i]) => h("span", { class: `meld canasta ${cls}`, dataset: { slot, closed: String(i) } },
        cardFace(slot === "wild" ? "JK" : slot, { class: "mini" }),
        h("span", { class: "sr-only" }, `${canastaWords(slot, kind)}: ${n + twos + jokers} cards${wilds(twos, jokers, slot)}`))));
  });
  const items = [];
  const order = [...RANKS, "wild"];
  for (const slot of order) {
    const m = info.melds[slot];
    if (!m) continue;
    const [n, twos, jokers] = m;
    const w = meldWords(slot, n, twos, jokers);
    const full = w.size >= rules.canasta_size;
    const wild = twos + jokers;
    items.push(h("li", { class: `meld ${w.kind}${full ? " full" : ""}`, dataset: { slot } },
      cardFace(slot === "wild" ? "JK" : slot, { class: "mini" }),
      h("span", { class: "meld-n", "aria-hidden": "true" }, String(w.size)),
      slot !== "wild" && wild ? h("span", { class: "meld-wild", "aria-hidden": "true" }, `${wild}★`) : null,
      h("span", { class: "sr-only" },
        `${slot === "wild" ? "Wild cards" : slot + "s"}: ${w.size}, ${w.kind}${full ? ", a canasta still open" : ""}, ${w.text}`)));
  }
  const quota = Object.entries(rules.quota).filter(([, n]) => n > 0);
  const missing = g.quotaMissing[team] || {};
  const checklist = [];
  for (const [kind, count] of quota) {
    const lacking = missing[kind] || 0;
    for (let i = 0; i < count; i++) {
      const done = i < count - lacking;
      checklist.push(h("li", { class: done ? "done" : "todo" },
        h("span", { "aria-hidden": "true" }, done ? "☑" : "☐"),
        `${kind}`, h("span", { class: "sr-only" }, done ? " (made)" : " (still needed)")));
    }
  }
  const mine = g.seat !== null && team === g.team(g.seat);
  // Focusable: on a short phone a team's melds scroll within its box, and a box that scrolls
  // must be reachable from the keyboard too.
  return h("section", { class: `panel team team-${team}` + (mine ? " ours" : ""), "aria-labelledby": `team-${team}-h`, tabindex: "0" },
    h("div", { class: "team-head" },
      h("h2", { id: `team-${team}-h` }, teamWords(g, team)[0], " ", h("span", { class: "members" }, teamWords(g, team)[1])),
      h("span", { class: "team-state" + (info.opened ? " down" : "") },
        info.opened ? "down" : `not down (${info.minimum})`),
      h("ul", { class: "quota", "aria-label": "canastas needed to go out" }, checklist)),
    closed.length ? h("p", { class: "canastas" }, h("span", { class: "sr-only" }, "Closed canastas: "), closed) : null,
    items.length ? h("ul", { class: "melds", "aria-label": "open melds" }, items)
      : closed.length ? null : h("p", { class: "none" }, "No melds yet"));
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

// The whole hand in one strip of overlapping cards (layout.js decides how much each card shows
// and whether a second row is needed), naturals first, then wild cards, then threes.  A hand
// too big for the screen at a finger's width a card (layout.js: needsStacks) shows each kind
// once, as a stack with its count ("K ×3"): a tap picks one card of it, and the picked cards
// of a kind rise as a stack of their own, where a tap puts one back.
function handPanel(g, settings, onSort, stacked = false) {
  const v = g.view;
  if (g.seat === null) {
    return h("section", { class: "panel hand", "aria-label": "Hands (hidden)" }, h("p", {}, "You are watching: players' hands stay hidden."));
  }
  const info = v.seats[g.seat];
  const groups = groupsOf(g, settings.sort);
  const playable = coach.playable(g); // the coaching table marks what can be melded now
  const buttons = [];
  let seen = 0;
  for (const grp of groups) {
    for (const t of grp.tokens) {
      const shown = g.available(t) + (g.picked[t] || 0);
      const picked = g.picked[t] || 0;
      const can = playable.has(t) ? ", can be melded now" : "";
      const part = seen && grp.name !== "naturals" && grp.tokens[0] === t ? " part" : "";
      if (stacked) {
        // At most two stacks of a kind: the picked cards, then the rest.
        const stacks = [[picked, true], [shown - picked, false]].filter(([n]) => n > 0);
        stacks.forEach(([n, isPicked], i) => {
          buttons.push(cardFace(t, {
            tag: "button",
            type: "button",
            index: isPicked ? 0 : picked,
            class: "in-hand stack" + (n > 1 ? " many" : "") + (isPicked ? " picked" : "") + (playable.has(t) ? " playable" : "") + (i === 0 ? " first" + part : ""),
            "aria-pressed": isPicked ? "true" : "false",
            label: `${cardNames(t, n)}${isPicked ? ", picked" : ""}${can}`,
            dataset: { card: t, count: String(n), fid: `card-${t}-${isPicked ? "picked" : "rest"}` },
            onclick: () => onCard(g, t, isPicked),
          }, n > 1 ? h("span", { class: "count-badge", "aria-hidden": "true" }, `×${n}`) : null));
        });
        seen += shown;
        continue;
      }
      for (let i = 0; i < shown; i++) {
        const isPicked = i < picked;
        buttons.push(cardFace(t, {
          tag: "button",
          type: "button",
          index: i,
          class: "in-hand" + (isPicked ? " picked" : "") + (playable.has(t) ? " playable" : "") + (i === 0 ? " first" + part : ""),
          "aria-pressed": isPicked ? "true" : "false",
          label: `${cardName(t)}, ${i + 1} of ${shown}${isPicked ? ", picked" : ""}${can}`,
          dataset: { card: t, fid: `card-${t}-${i}` },
          onclick: () => onCard(g, t, isPicked),
        }));
        seen += 1;
      }
    }
  }
  const sortSelect = h("select", { id: "sort", "aria-label": "Sort the hand", onchange: (e) => onSort(e.target.value) },
    [["rank", "low first"], ["rank-desc", "high first"], ["count", "most first"]]
      .map(([value, text]) => h("option", { value, selected: settings.sort === value }, text)));
  const where = packetName(g, info.packet);
  const waiting = info.packet_sizes.map((n, i) => `${packetName(g, info.packet + 1 + i)} ${n}`);
  return h("section", { class: "panel hand", "aria-labelledby": "hand-h" },
    h("div", { class: "hand-head" },
      h("h2", { id: "hand-h" }, `Your ${where}: ${plural(total(g.hand), "card")}`),
      h("span", { class: "waiting" }, waiting.length ? `then ${waiting.join(", ")}` : "last packet"),
      h("label", { class: "sort" }, h("span", { class: "sort-word" }, "Sort"), sortSelect)),
    buttons.length ? h("div", {
      class: "hand-cards" + (stacked ? " stacked" : ""), role: "group",
      "aria-label": stacked ? "Your cards, equal cards stacked" : "Your cards",
      dataset: { total: String(seen) },
    }, buttons) : h("p", {}, "No cards in hand."));
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
  // Nothing picked, staged or said: the panel keeps its place for screen readers but takes no
  // room on the screen (a phone has none to spare).
  const idle = !picked.length && !parts.length && !verdict && !targets;
  return h("section", { class: "panel stage" + (idle ? " idle" : ""), "aria-labelledby": "stage-h" },
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

let handStacked = false;

// The hand drawn as it was is kept, not drawn again: a card replaced between a finger's press
// and its lift loses the tap (the engine's answer about a staged meld, a partner's message, any
// redraw while the person picks cards).  Its buttons' handlers read only the game and the card.
function sameHand(hand) {
  const old = byId("play-area").querySelector(":scope > .hand");
  const drawn = hand.outerHTML;
  if (old && old.dataset.drawn === drawn) return old;
  hand.dataset.drawn = drawn;
  return hand;
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
    installTable(main, () => g);
  }
  fill(byId("status"), roundLine(g), turnLine(g), message);
  const area = () => fill(byId("play-area"),
    seatsPanel(g),
    pilePanel(g),
    sameHand(handPanel(g, settings, handlers.onSort, handStacked)),
    stagePanel(g),
    coach.coachPanel(g),
    actionBar(g),
    meldsPanel(g));
  area();
  fill(byId("scores"), scoresPanel(g));
  let cards = main.querySelector(".hand-cards");
  // One card a button while they fit at a finger's width; stacks of equal cards past that.
  // The choice is kept, so a hand is drawn twice only when it crosses the line.
  if (cards && needsStacks(cards) !== handStacked) {
    handStacked = !handStacked;
    area();
    cards = main.querySelector(".hand-cards");
  }
  if (cards) fitHand(cards);
  placeSeatPanel(main);
  noticeChanges(main, g);
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
