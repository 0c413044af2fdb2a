// A table's pace in words (live, or turn-based with a limit on each turn), and whose turn it
// is at a turn-based table, since when: the setup form, the lobby, the table and "My tables"
// all say it with these words.  The server sends the seconds waited and left with each table
// message; the page counts on from when that message arrived (countdown.js), so no clock needs
// to agree with the server's.

export const PACES = [
  ["live", "Live: everyone plays now"],
  ["turn-based", "Turn-based: play across days"],
];

export const LIMITS = [
  ["none", "No limit"],
  ["1h", "1 hour"],
  ["12h", "12 hours"],
  ["24h", "24 hours"],
  ["3d", "3 days"],
];

export const ON_LIMIT = [
  ["bot", "a bot plays that turn"],
  ["wait", "the game waits"],
];

const LIMIT_WORDS = Object.fromEntries(LIMITS);

// "Turn-based · 24 hours a turn · then a bot plays"
export function paceWords(options) {
  if (!options || options.pace !== "turn-based") return "Live";
  const limit = options.turn_limit || "none";
  if (limit === "none") return "Turn-based · no limit on a turn";
  const then = options.on_limit === "wait" ? "then the game waits" : "then a bot plays";
  return `Turn-based · ${LIMIT_WORDS[limit]} a turn · ${then}`;
}

// "3 days", "5 h", "12 min", "under a minute"
export function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return "under a minute";
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const hrs = Math.round(m / 60);
  if (hrs < 48) return `${hrs} h`;
  return `${Math.round(hrs / 24)} days`;
}

// "Tue 14:02" in the reader's own time zone (a family across time zones each sees their own).
export function when(iso) {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  return new Date(t).toLocaleString(undefined, { weekday: "short", hour: "2-digit", minute: "2-digit" });
}

// The turn line of a turn-based table: whose turn since when, and what its limit does.
// ``elapsed``: seconds since the table message came; ``name``: a seat's name ("you" for yours).
// ``short``: a small phone's line, in about half the words ("Ann's turn · 2 days · bot in 3 h").
export function turnWords(table, elapsed, name, short = false) {
  const turn = table.turn;
  if (!turn) return "";
  const who = name(turn.seat);
  const yours = who === "you";
  const whose = yours ? "Your turn" : `${who}'s turn`;
  const waited = duration(turn.waited + elapsed);
  const since = short ? `${whose} · ${waited}` : `${whose} since ${when(turn.since)} (${waited})`;
  const wait = table.options.on_limit === "wait";
  if (turn.by_bot) return short ? `${since} · past limit: bot plays`
    : `${since} · the limit passed: ${yours ? "your" : "the seat's"} bot plays this turn`;
  if (turn.waiting) return short ? `${since} · past limit: waits`
    : `${since} · the limit passed: the game waits for ${yours ? "you" : who}`;
  if (turn.left === null || turn.left === undefined) return since;
  const left = turn.left - elapsed;
  if (left <= 0) return `${since} · ${short ? "" : "the "}limit has passed`;
  const then = short ? (wait ? "limit" : "bot") : wait ? "the limit passes" : "a bot plays";
  return `${since} · ${then} in ${duration(left)}`;
}
