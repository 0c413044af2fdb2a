// Motion that explains what just happened at the table: a card flies from the stock to whoever
// drew, from a hand to the pile, from the pile to whoever took it; a meld that grew pops, a
// canasta that closed turns over, a seat that picked up its next packet pulses, and the team
// that went out glows.  Only the DOM just drawn is moved, with the Web Animations API, and
// nothing waits for an animation: the next action is sent (and the next state drawn) at once.
// prefers-reduced-motion turns all of it off; sounds (sound.js) are off unless asked for.

import { play } from "./sound.js";

let before = null;
const reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };

function snapshot(g) {
  const v = g.view;
  return {
    game: g.table.game,
    round: v.round,
    results: v.results.length,
    stock: v.stock_size,
    pile: v.pile ? v.pile.split(" ").filter(Boolean).length : 0,
    top: v.pile_top,
    hands: v.seats.map((s) => s.hand_size),
    packets: v.seats.map((s) => s.packet),
    melds: v.teams.map((t) => Object.fromEntries(Object.entries(t.melds).map(([k, m]) => [k, m[0] + m[1] + m[2]]))),
    canastas: v.teams.map((t) => t.canastas.length),
    mine: g.myMove,
  };
}

// How long a move's animation lasts: a share of the bots' pace, a few hundred ms at most.
function duration(g) {
  const pace = Number(g.table.options.bot_pace) || 0;
  return Math.round(Math.max(140, Math.min(340, pace * 400)));
}

export function noticeChanges(root, g) {
  const now = snapshot(g);
  const was = before;
  before = now;
  if (!was || was.game !== now.game) return;
  if (now.mine && !was.mine) play("turn");
  if (now.results > was.results) {
    play("out");
    if (!reduced.matches) {
      for (const el of root.querySelectorAll(".team")) glow(el, 900);
    }
    return;
  }
  if (now.round !== was.round) return;
  const ms = duration(g);
  const motion = !reduced.matches;
  const seatOf = (changed) => now.hands.findIndex((n, i) => changed(n, was.hands[i]));
  // A draw: the stock shrank and a hand grew.
  if (now.stock < was.stock) {
    play("draw");
    const who = seatOf((n, o) => n > o);
    if (motion) fly(root.querySelector(".stock .card"), target(root, g, who), ms, true);
  }
  // A discard: the pile grew by one.
  if (now.pile === was.pile + 1 && now.top) {
    play("discard");
    const who = seatOf((n, o) => n < o);
    const top = root.querySelector(".pile .card");
    if (motion && top) fly(top, null, ms, false, target(root, g, who));
  } else if (now.pile < was.pile && now.stock === was.stock) {
    // The pile was taken.
    play("take");
    const who = seatOf((n, o) => n > o);
    if (motion) fly(root.querySelector(".pile .card") || root.querySelector(".pile"), target(root, g, who), ms * 1.3, false, null, was.top);
  }
  // Melds that grew or began, canastas that closed.
  now.melds.forEach((melds, team) => {
    for (const [slot, size] of Object.entries(melds)) {
      if (size !== (was.melds[team] || {})[slot]) {
        play("meld");
        if (motion) pop(root.querySelector(`.team-${team} .meld:not(.canasta)[data-slot="${slot}"]`), ms);
      }
    }
    if (now.canastas[team] > was.canastas[team]) {
      play("canasta");
      const newest = root.querySelector(`.team-${team} .meld.canasta[data-closed="${now.canastas[team] - 1}"]`);
      if (motion && newest) turnOver(newest, ms * 2);
    }
  });
  // A packet picked up (the foot, or the knee).
  now.packets.forEach((p, seat) => {
    if (p !== was.packets[seat]) {
      play("packet");
      if (motion) glow(root.querySelector(`.seat[data-seat="${seat}"]`), ms * 3);
    }
  });
}

// Where a seat's cards go: your own hand, or that seat's tile.
function target(root, g, seat) {
  if (seat < 0) return null;
  if (seat === g.seat) return root.querySelector(".hand-cards") || root.querySelector(".hand");
  return root.querySelector(`.seat[data-seat="${seat}"]`);
}

// A copy of ``from`` flies to ``to`` (or, with ``source``, from ``source`` to where ``from`` is).
function fly(from, to, ms, back = false, source = null) {
  if (!from) return;
  const start = (source || from).getBoundingClientRect();
  const end = (source ? from : to || from).getBoundingClientRect();
  if (!start.width || !end.width || (!to && !source)) return;
  const ghost = from.cloneNode(true);
  ghost.classList.add("flying");
  if (back) ghost.classList.add("back");
  ghost.removeAttribute("id");
  ghost.setAttribute("aria-hidden", "true");
  const w = from.getBoundingClientRect().width;
  const hgt = from.getBoundingClientRect().height;
  Object.assign(ghost.style, { left: "0px", top: "0px", width: `${w}px`, height: `${hgt}px` });
  document.body.append(ghost);
  const at = (r) => `translate(${r.left + r.width / 2 - w / 2}px, ${r.top + r.height / 2 - hgt / 2}px)`;
  const anim = ghost.animate(
    [{ transform: `${at(start)} scale(1)`, opacity: 1 }, { transform: `${at(end)} scale(0.8)`, opacity: 0.85 }],
    { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" });
  anim.onfinish = () => ghost.remove();
  anim.oncancel = () => ghost.remove();
}

function pop(el, ms) {
  if (!el) return;
  el.animate([{ transform: "scale(1.35)", backgroundColor: "#ffe58a" }, { transform: "scale(1)" }],
    { duration: ms * 1.5, easing: "ease-out" });
}

function turnOver(el, ms) {
  el.animate([{ transform: "rotateY(90deg) scale(1.2)", backgroundColor: "#ffe58a" }, { transform: "rotateY(0) scale(1)" }],
    { duration: ms, easing: "ease-out" });
}

function glow(el, ms) {
  if (!el) return;
  el.animate([{ boxShadow: "0 0 0 4px #f2c12e" }, { boxShadow: "0 0 0 0 rgba(242,193,46,0)" }],
    { duration: ms, easing: "ease-out" });
}
