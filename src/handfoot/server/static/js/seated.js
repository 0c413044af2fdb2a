// Making a table with bots and sitting this person at seat 1 of it, started at once: what
// "Play now" on the home page and a lesson's practice deal both do.  The table's page does the
// sitting and the starting (main.js, the "pending" join), from the keys kept here.

import { postJSON } from "./api.js";
import * as store from "./store.js";

// body: the table as POST /api/tables takes it; name: the person's name at the table.  Goes
// to the table's page, or throws the server's refusal (its message says why).
export async function playWithBots(body, name) {
  const host = store.hostToken();
  const made = await postJSON("/api/tables", host ? { ...body, host_token: host } : body);
  store.saveHostToken(made.host_token);
  store.saveTableKeys(made.table, { host_token: made.host_token, pending: { seat: 0, name, start: true } });
  location.assign(`/t/${made.table}`);
}
