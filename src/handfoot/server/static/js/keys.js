// The keys of `handfoot play` (docs/PLAY.md, src/handfoot/tui/app.py), for the same moves.

import { CARD_KEYS } from "./cards.js";

export const HELP = [
  ["s", "draw from the stock (when the stock is empty: end the round)"],
  ["p", "take the pile (with a 2 or joker picked: take it with that wild card, where the rules allow; under house rules also the top card onto your meld, or the pile picked up)"],
  ["4–9, 0 or t", "pick a card: 0 or t is a 10"],
  ["j q k a", "pick a jack, queen, king, ace"],
  ["2, w or x, 3", "pick a 2, a joker, a three"],
  ["Backspace", "put the last picked card back"],
  ["m", "stage the picked cards: a new meld, or onto your meld of that rank (wild cards alone: then a rank key, or w for the meld of wild cards)"],
  ["Enter", "lay down everything staged, checked by the engine as one lay-down"],
  ["d + card", "discard that card (or d with one card picked)"],
  ["n", "knock: end the turn without a discard, where the rules say so"],
  ["g", "ask your partner \"may I go out?\""],
  ["b", "meld a book of black threes from the foot (where house rules allow)"],
  ["y / n", "answer your partner"],
  ["r", "take back a short opening"],
  ["u", "undo your last meld this turn (until you learn something new)"],
  ["h", "hint: what the strongest bot the table allows would do (when the table allows hints)"],
  ["Esc", "clear the picked cards, then the staged melds"],
  ["+ / -", "the host: bots faster / slower"],
  ["?", "this list"],
  ["Tab", "move between the cards and buttons; Enter or Space presses the one in focus"],
];

function typing(target) {
  if (!target || !target.tagName) return false;
  const tag = target.tagName.toLowerCase();
  return tag === "input" || tag === "textarea" || tag === "select" || target.isContentEditable;
}

export function installKeys(app) {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    if (typing(e.target)) return;
    const key = e.key;
    const g = app.game;
    if (key === "?") {
      e.preventDefault();
      app.showHelp();
      return;
    }
    const dialog = document.querySelector("dialog[open]");
    if (dialog) {
      // Inside a dialog only its own keys: y / n answer the partner; Esc closes (the browser).
      if (dialog.id === "ask-dialog" && (key === "y" || key === "n")) {
        e.preventDefault();
        g.answer(key === "y");
      }
      return;
    }
    if (!g || !g.view || g.seat === null) return;
    // Enter and Space on a focused button press that button, as everywhere on the web.
    const onControl = e.target && ["button", "a", "summary"].includes(e.target.tagName.toLowerCase());
    if ((key === "Enter" || key === " ") && onControl) return;
    const lower = key.length === 1 ? key.toLowerCase() : key;
    const run = {
      s: () => g.draw(),
      p: () => g.takePile(),
      m: () => g.meld(),
      Enter: () => g.layDown(),
      d: () => g.discard(),
      n: () => g.knockOrNo(),
      y: () => (g.view.phase === "answer" ? g.answer(true) : g.notNow("answer")),
      g: () => g.ask(),
      b: () => g.book(),
      r: () => g.retract(),
      u: () => g.undo(),
      h: () => g.hint(),
      Escape: () => { g.clear(); g.hooks.say(""); g.hooks.render(); },
      Backspace: () => { g.mode = ""; g.unpick(); g.hooks.render(); },
      "+": () => app.pace(-0.2),
      "=": () => app.pace(-0.2),
      "-": () => app.pace(0.2),
      f: () => g.hooks.say("The table keeps its own pace here: the host sets it (+ / -)."),
    };
    if (g.mode && CARD_KEYS[lower] !== undefined) {
      e.preventDefault();
      cardKey(g, CARD_KEYS[lower]);
      return;
    }
    if (run[lower] && !(lower === "d" && g.mode) && !(lower === "n" && g.mode)) {
      e.preventDefault();
      run[lower]();
      return;
    }
    if (CARD_KEYS[lower] !== undefined) {
      e.preventDefault();
      cardKey(g, CARD_KEYS[lower]);
    }
  });
}

function cardKey(g, token) {
  if (token === "3") token = g.available("B3") > 0 || (g.mode === "discard" && g.hand.B3) ? "B3" : "R3";
  const mode = g.mode;
  g.mode = "";
  if (mode === "discard") {
    g.discard(token);
    return;
  }
  if (mode === "target") {
    const slot = token === "2" || token === "JK" ? "wild" : token;
    const error = g.stage(slot);
    g.hooks.say(error || "Staged. Pick more, or Lay down (Enter).");
    g.hooks.render();
    return;
  }
  const error = g.pick(token);
  g.hooks.say(error || "");
  g.hooks.render();
}
