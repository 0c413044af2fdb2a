// What the browser keeps: settings, and each table's seat token and host token.  The seat
// token is the only proof that a seat is yours, so it lives in this browser only.

const PREFIX = "handfoot.";

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    /* private mode or full storage: the page still works for this visit */
  }
}

export const DEFAULT_SETTINGS = { fourColour: false, contrast: false, sort: "rank", large: false };

export function settings() {
  return { ...DEFAULT_SETTINGS, ...read("settings", {}) };
}

export function saveSettings(s) {
  write("settings", s);
}

export function tableKeys(table) {
  return read(`table.${table}`, {});
}

export function saveTableKeys(table, keys) {
  write(`table.${table}`, { ...tableKeys(table), ...keys });
}

export function forgetSeat(table) {
  const keys = tableKeys(table);
  delete keys.seat_token;
  delete keys.seat;
  write(`table.${table}`, keys);
}

export function hostToken() {
  return read("host_token", null);
}

export function saveHostToken(token) {
  write("host_token", token);
}

export function playerName() {
  return read("name", "");
}

export function savePlayerName(name) {
  write("name", name);
}

// The rules of the last table this browser set (as POST /api/tables takes them): "Play now"
// and the full setup start from them.
export function lastRules() {
  const rules = read("last_rules", null);
  return rules && typeof rules === "object" && typeof rules.preset === "string" ? rules : null;
}

export function saveLastRules(rules) {
  write("last_rules", rules);
}

// Whether the person asked to be told of their turn ("Notify me"): this browser, every table.
export function notifyWanted() {
  return read("notify", false) === true;
}

export function saveNotifyWanted(on) {
  write("notify", on ? true : null);
}

// Every table this browser holds a seat token for (the "My tables" page asks the server about
// them, sending the tokens in a POST body).
export function seatTokens() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(`${PREFIX}table.`)) continue;
      const table = key.slice(PREFIX.length + "table.".length);
      const keys = tableKeys(table);
      if (typeof keys.seat_token === "string") out.push({ table, seat_token: keys.seat_token });
    }
  } catch {
    /* storage not readable: no tables */
  }
  return out;
}
