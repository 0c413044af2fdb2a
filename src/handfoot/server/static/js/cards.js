// Card tokens as the protocol writes them ("K", "10", "JK", "R3"), their names for screen
// readers, and the order a hand is shown in.  Which cards are wild and that threes are never
// melded are fixed in every rule set (docs/RULES.md 1.2 and 1.3); everything else a rule
// decides is asked of the server.

export const RANKS = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
export const WILDS = ["2", "JK"];
export const THREES = ["R3", "B3"];
export const ALL = [...RANKS, ...WILDS, ...THREES];

const NAMES = {
  "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight", "9": "nine", "10": "ten",
  J: "jack", Q: "queen", K: "king", A: "ace", "2": "two", JK: "joker",
  R3: "red three", B3: "black three",
};
const PLURALS = { six: "sixes" };

export function cardName(token) {
  return NAMES[token] || token;
}

export function cardNames(token, n) {
  const name = cardName(token);
  if (n === 1) return `one ${name}`;
  return `${n} ${PLURALS[name] || name + "s"}`;
}

// What is printed on the card's face.
export function face(token) {
  if (token === "JK") return "Jo";
  if (token === "R3" || token === "B3") return "3";
  return token;
}

// A word under the face, so no card is told apart by colour alone.
export function mark(token) {
  if (token === "2" || token === "JK") return "wild";
  if (token === "R3") return "red";
  if (token === "B3") return "black";
  return "";
}

export function cardClass(token) {
  if (token === "2" || token === "JK") return "wild";
  if (token === "R3") return "red3";
  if (token === "B3") return "black3";
  return "natural";
}

export function isWild(token) {
  return token === "2" || token === "JK";
}

export function isThree(token) {
  return token === "R3" || token === "B3";
}

// "K K 2 JK" -> {K: 2, "2": 1, JK: 1}
export function counts(text) {
  const out = {};
  for (const t of (text || "").split(/\s+/)) {
    if (t) out[t] = (out[t] || 0) + 1;
  }
  return out;
}

export function total(c) {
  return Object.values(c).reduce((a, b) => a + b, 0);
}

export function tokens(c) {
  const out = [];
  for (const t of ALL) for (let i = 0; i < (c[t] || 0); i++) out.push(t);
  return out;
}

// A meld slot's name: a rank, or "wild".
export function slotName(slot) {
  return slot === "wild" ? "wild cards" : cardName(slot) + "s";
}

// The keys of the terminal game (docs/PLAY.md): the card each stands for.
export const CARD_KEYS = {
  "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9", "0": "10", t: "10",
  j: "J", q: "Q", k: "K", a: "A", "2": "2", w: "JK", x: "JK", "3": "3",
};

// ---------------------------------------------------------------------- display suits
// The game counts kinds only: the wire says "K", never which king (docs/PROTOCOL.md), and
// only the threes' colours matter to a rule.  The page still draws a suit on every card so the
// table looks like cards, choosing it deterministically from the card and its position: the
// n-th king of a hand, of a meld or on the pile always gets the same suit for the same state,
// neighbouring copies differ, red threes are hearts or diamonds and black threes spades or
// clubs.  The suit carries no information and is never read back.
export const SUITS = ["S", "H", "C", "D"];
export const SUIT_SIGN = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

export function displaySuit(token, index = 0) {
  if (token === "JK") return null;
  if (token === "R3") return index % 2 ? "D" : "H";
  if (token === "B3") return index % 2 ? "C" : "S";
  const order = [...RANKS, "2"].indexOf(token);
  return SUITS[(Math.max(order, 0) + index) % 4];
}

// What the corner of a card shows as its rank.
export function cornerRank(token) {
  if (token === "JK") return "J\u200bK";
  if (token === "R3" || token === "B3") return "3";
  return token;
}
