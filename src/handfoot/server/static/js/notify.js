// "Your turn" for people who are not looking at the table:
//   - while it is your turn, the tab's title starts with "Your turn" and its icon gets a red dot;
//   - when your turn begins while the page is hidden, a notification (the Notification API),
//     for a person who turned "Notify me" on;
//   - "Notify me" also subscribes this browser to Web Push (the service worker shows the push),
//     so a phone is told even when the app is closed: the server pushes when your turn begins
//     and you are not connected (docs/WEB.md, docs/PROTOCOL.md "Push").
// Permission is asked only from the "Notify me" button's click (browsers refuse, or hold it
// against the site, when a page asks unprompted).

import { h, byId } from "./dom.js";
import { getJSON, postJSON } from "./api.js";
import * as store from "./store.js";

const TURN_ICON = "/static/icons/turn.svg";
const MARKS = { turn: "▶ Your turn · ", answer: "▶ May I go out? · " };
const READY_WAIT = 5000; // ms to wait for the service worker before giving up on push

function stripMark(title) {
  for (const mark of Object.values(MARKS)) if (title.startsWith(mark)) return title.slice(mark.length);
  return title;
}

function icon() {
  let el = document.head.querySelector("link[rel='icon']");
  if (!el) {
    el = document.createElement("link");
    el.rel = "icon";
    document.head.append(el);
  }
  return el;
}

function canNotify() {
  return "Notification" in window;
}

function b64ToBytes(text) {
  const pad = "=".repeat((4 - (text.length % 4)) % 4);
  const raw = atob((text + pad).replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

function bytesToB64(buffer) {
  const bytes = new Uint8Array(buffer);
  let raw = "";
  for (const b of bytes) raw += String.fromCharCode(b);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function worker() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) return null;
  // ``ready`` never settles when no worker is registered (a private window, a refused
  // registration): wait a few seconds, then do without.
  const late = new Promise((resolve) => setTimeout(resolve, READY_WAIT, null));
  return Promise.race([navigator.serviceWorker.ready, late]);
}

// This browser's push subscription for the server's key (made if need be), or an error's words.
async function pushSubscription() {
  const reg = await worker();
  if (!reg) return { error: "this browser has no push service here (on iPhone and iPad, add the app to the Home Screen first)" };
  const { key } = await getJSON("/api/push/key");
  let sub = await reg.pushManager.getSubscription();
  if (sub && sub.options && sub.options.applicationServerKey &&
      bytesToB64(sub.options.applicationServerKey) !== key) {
    await sub.unsubscribe(); // made for another key (the server's key was replaced)
    sub = null;
  }
  if (!sub) {
    try {
      sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: b64ToBytes(key) });
    } catch (err) {
      return { error: `the browser's push service refused (${err.message || err.name})` };
    }
  }
  return { sub };
}

export function watch(tableId, game, say) {
  let wasMine = false;
  let shown = null; // the notification shown for this turn
  let normalIcon = null;
  const buttons = new Set(); // the bar's button, and the one in an open Settings dialog
  let pushOn = false; // this seat's push subscription was taken by the server this visit

  function seatToken() {
    return store.tableKeys(tableId).seat_token || null;
  }

  async function subscribe(quiet) {
    const token = seatToken();
    if (!token) {
      if (!quiet) say("Notifications are on: take a seat, and you will be told when it is your turn.");
      return false;
    }
    let found;
    try {
      found = await pushSubscription();
    } catch (err) {
      found = { error: err.message };
    }
    if (found.error) {
      if (!quiet) say(`Notifications are on while this page is open; ${found.error}.`);
      return false;
    }
    try {
      await postJSON("/api/push/subscribe", { table: tableId, seat_token: token, subscription: found.sub.toJSON() });
    } catch (err) {
      if (!quiet) say(`Notifications are on while this page is open; the server did not take the push subscription: ${err.message}.`);
      return false;
    }
    if (!quiet) say("Notifications are on: you are told when it is your turn, even with this page closed.");
    pushOn = true;
    // A page opened afresh says where it stands (an earlier page may have left "away" behind).
    postJSON("/api/push/away", { table: tableId, seat_token: token, away: !!document.hidden }).catch(() => null);
    return true;
  }

  async function unsubscribe() {
    const token = seatToken();
    const reg = await worker().catch(() => null);
    const sub = reg ? await reg.pushManager.getSubscription().catch(() => null) : null;
    if (token) {
      await postJSON("/api/push/unsubscribe", { table: tableId, seat_token: token, endpoint: sub ? sub.endpoint : null }).catch(() => null);
    }
    // The browser's subscription goes too: other tables' copies fail at the push service,
    // and the server then removes them.
    if (sub) await sub.unsubscribe().catch(() => null);
  }

  function paint() {
    const on = store.notifyWanted() && canNotify() && Notification.permission === "granted";
    for (const button of buttons) {
      if (!button.isConnected) {
        buttons.delete(button);
        continue;
      }
      button.textContent = on ? "Notifying" : "Notify me";
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.title = on ? "You are told when it is your turn. Click to stop." : "Be told when it is your turn, even when this page is hidden or closed.";
    }
  }

  async function toggle() {
    if (!canNotify()) {
      say("This browser cannot show notifications here (on iPhone and iPad: Share, Add to Home Screen, then open the app from there).");
      return;
    }
    if (store.notifyWanted() && Notification.permission === "granted") {
      store.saveNotifyWanted(false);
      paint();
      pushOn = false;
      await unsubscribe();
      say("Notifications are off. The tab's title still shows when it is your turn.");
      return;
    }
    const answer = await Notification.requestPermission();
    if (answer !== "granted") {
      store.saveNotifyWanted(false);
      paint();
      say("Notifications are blocked for this site: allow them in the browser's site settings, then try again.");
      return;
    }
    store.saveNotifyWanted(true);
    paint();
    await subscribe(false);
  }

  // A wide screen has room in the bar; a phone's bar is full, so there the toggle is in the
  // Settings dialog (added to it when it opens: dialogs.js need not know of it).
  const narrow = window.matchMedia("(max-width: 600px)");
  function addButton() {
    const bar = document.querySelector(".bar-buttons");
    const old = byId("notify-button");
    if (narrow.matches) {
      if (old) old.remove();
    } else if (bar && !old) {
      const button = h("button", { type: "button", id: "notify-button", onclick: () => toggle() }, "Notify me");
      buttons.add(button);
      bar.prepend(button);
    }
    paint();
  }
  narrow.addEventListener("change", addButton);
  byId("settings-button")?.addEventListener("click", () => {
    const body = document.querySelector("#settings-dialog .dialog-body");
    if (!body || byId("notify-setting")) return;
    const button = h("button", { type: "button", id: "notify-setting", onclick: () => toggle() }, "Notify me");
    buttons.add(button);
    body.append(h("p", { class: "notify-setting" }, button, " when it is your turn, even with this page hidden or closed."));
    paint();
  });

  function tell(answer) {
    if (!store.notifyWanted() || !canNotify() || Notification.permission !== "granted") return;
    if (pushOn) return; // the server pushes to a hidden page (away, below): one notification
    const g = game();
    const where = (g.table && g.table.name) || "your table";
    const title = answer ? "Your partner asks: may I go out?" : "Your turn";
    const options = { body: answer ? `${where}: answer yes or no.` : `${where}: it is your turn to play.`,
      tag: `handfoot-${tableId}`, icon: "/static/icons/icon-192.png" };
    try {
      shown = new Notification(title, options);
      shown.onclick = () => { window.focus(); shown.close(); };
    } catch {
      // Android's browsers show notifications only through the service worker.
      worker().then((reg) => reg && reg.showNotification(title, { ...options, data: { url: location.pathname } })).catch(() => null);
    }
  }

  function update() {
    const g = game();
    if (!g || !g.table) return;
    const mine = !!(g.view && g.myMove && g.view.phase !== "game-over");
    const answer = mine && g.view.phase === "answer";
    const base = stripMark(document.title);
    const title = mine ? MARKS[answer ? "answer" : "turn"] + base : base;
    if (document.title !== title) document.title = title;
    const link = icon();
    if (mine && link.getAttribute("href") !== TURN_ICON) {
      normalIcon = link.getAttribute("href");
      link.setAttribute("href", TURN_ICON);
    } else if (!mine && link.getAttribute("href") === TURN_ICON) {
      link.setAttribute("href", normalIcon || "/static/icons/icon-192.png");
    }
    if (mine && !wasMine && document.hidden) tell(answer);
    if (!mine && shown) {
      shown.close();
      shown = null;
    }
    wasMine = mine;
  }

  let subscribedOnce = false;
  function seated() {
    // Turned on at another table before: this seat is subscribed as soon as it has a token.
    if (subscribedOnce || !seatToken() || !store.notifyWanted()) return;
    if (!canNotify() || Notification.permission !== "granted") return;
    subscribedOnce = true;
    subscribe(true);
  }

  document.addEventListener("visibilitychange", () => {
    // A phone freezes a hidden page, whose connection may stay open: the server is told, and
    // pushes as if the person had gone.  A beacon still leaves as the page is put away.
    const token = seatToken();
    if (pushOn && token && navigator.sendBeacon) {
      navigator.sendBeacon("/api/push/away", JSON.stringify({ table: tableId, seat_token: token, away: document.hidden }));
    }
    if (!document.hidden && shown) {
      shown.close();
      shown = null;
    }
  });
  addButton();
  return {
    update() {
      update();
      seated();
    },
  };
}
