// One websocket to the table (docs/PROTOCOL.md): hello first, replies matched by id, the
// last version kept, and a reconnect by itself after a drop with what was missed.

export const PROTOCOL = 1;

// Close codes the server ends a connection with (server/protocol.py; a test keeps them equal).
export const CLOSE_REPLACED = 4001; // the seat was taken on another page: do not come back
export const CLOSE_PROTOCOL = 4002; // this page speaks a protocol the server does not
export const CLOSE_BEHIND = 4003; // too far behind reading: reconnect and catch up
export const CLOSE_UNKNOWN_TABLE = 4004; // no such table

export class Connection {
  constructor(table, { onMessage, onStatus, hello }) {
    this.table = table;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.hello = hello; // () => the hello's tokens, read at every (re)connect
    this.version = null;
    this.ws = null;
    this.tries = 0;
    this.nextId = 1;
    this.waiting = new Map();
    this.closedForGood = false;
    this.timer = null;
    this.everOpen = false;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/${encodeURIComponent(this.table)}`;
  }

  open() {
    clearTimeout(this.timer);
    this.status(this.everOpen ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      const hello = { type: "hello", protocol: PROTOCOL, ...this.hello() };
      if (this.version !== null) hello.last_version = this.version;
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (e) => {
      let m;
      try {
        m = JSON.parse(e.data);
      } catch {
        return;
      }
      if (m.type === "welcome") {
        this.tries = 0;
        this.everOpen = true;
        this.status("open");
      }
      if (typeof m.version === "number" && ["state", "update"].includes(m.type)) {
        this.version = m.version;
      }
      if (m.reply_to !== undefined && this.waiting.has(m.reply_to)) {
        const resolve = this.waiting.get(m.reply_to);
        this.waiting.delete(m.reply_to);
        resolve(m);
      }
      this.onMessage(m);
    });
    ws.addEventListener("close", (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const resolve of this.waiting.values()) resolve({ type: "error", code: "closed",
        message: "the connection dropped before the server answered" });
      this.waiting.clear();
      if (e.code === CLOSE_REPLACED) {
        this.closedForGood = true;
        this.status("replaced");
        return;
      }
      if (e.code === CLOSE_UNKNOWN_TABLE || e.code === CLOSE_PROTOCOL) {
        this.closedForGood = true;
        this.status(e.code === CLOSE_UNKNOWN_TABLE ? "no-table" : "protocol");
        return;
      }
      if (!this.closedForGood) this.retry();
    });
  }

  retry() {
    this.tries += 1;
    // A short delay growing to about 10 s between tries, as PROTOCOL.md asks.
    const delay = Math.min(10000, 300 * 2 ** Math.min(this.tries, 6)) * (0.8 + Math.random() * 0.4);
    this.status("waiting", Math.round(delay / 1000));
    this.timer = setTimeout(() => this.open(), delay);
  }

  status(state, seconds) {
    this.onStatus(state, { tries: this.tries, seconds });
  }

  get ready() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.ready) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  // A message whose answer carries reply_to: resolves with that answer.
  request(message) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      if (!this.send({ ...message, id })) {
        resolve({ type: "error", code: "offline", message: "not connected: reconnecting…" });
        return;
      }
      this.waiting.set(id, resolve);
    });
  }

  // Reconnect now (after a drop the page noticed, or the person asked).
  kick() {
    if (this.ws === null && !this.closedForGood) this.open();
  }

  // For tests and for "reconnect now": drop the socket as a network would.
  drop() {
    if (this.ws) this.ws.close();
  }
}
