// The installable app, on every page: the manifest and icons are linked here (one line in
// each page loads this module), the service worker (/sw.js) is registered, and a clear line
// says "Offline: reconnecting…" while the server cannot be reached.
//
// Whether the server can be reached is asked of the server itself (GET /api/info, never
// answered from the cache): when the page opens, when the browser says the network came or
// went, when the page is shown again, when the table's connection line reports a drop, and
// every half minute while the page is visible.  While offline it asks again, sooner at first.

const OFFLINE_TEXT = "Offline: reconnecting…";
const EVERY = 30000;
const BACKOFF = [1000, 2000, 4000, 8000, 15000];

function head(tag, attrs) {
  const selector = `${tag}[${attrs.rel ? `rel="${attrs.rel}"` : `name="${attrs.name}"`}]`;
  let el = document.head.querySelector(selector);
  if (!el) {
    el = document.createElement(tag);
    document.head.append(el);
  } else if (attrs.rel === "icon" && el.getAttribute("href") !== "data:,") {
    return; // a page that chose its own icon keeps it
  }
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
}

function linkApp() {
  head("link", { rel: "manifest", href: "/manifest.webmanifest" });
  head("meta", { name: "theme-color", content: "#1f5f8b" });
  head("meta", { name: "apple-mobile-web-app-title", content: "handfoot" });
  head("link", { rel: "apple-touch-icon", href: "/static/icons/apple-touch-icon.png" });
  head("link", { rel: "icon", href: "/static/icons/icon-192.png" });
}

// ---------------------------------------------------------------------- offline line
let banner = null;
let offline = false;
let retry = 0;
let timer = null;

function line() {
  if (banner) return banner;
  banner = document.createElement("p");
  banner.id = "offline";
  banner.className = "pwa-offline";
  banner.setAttribute("role", "status");
  banner.setAttribute("aria-live", "assertive");
  banner.textContent = OFFLINE_TEXT;
  // Styled from here (CSSOM, which the page's content security policy allows) so the line
  // looks the same on every page whatever its style sheet.
  Object.assign(banner.style, {
    position: "fixed", left: "0", right: "0", bottom: "0", zIndex: "1000", margin: "0",
    padding: "0.6rem 1rem calc(0.6rem + env(safe-area-inset-bottom))", background: "#a3261b",
    color: "#fff", fontWeight: "700", textAlign: "center", font: "700 1rem system-ui, sans-serif",
  });
  banner.hidden = true;
  document.body.append(banner);
  return banner;
}

function setOffline(now) {
  if (now === offline) return;
  offline = now;
  line().hidden = !now;
  document.documentElement.classList.toggle("offline", now);
  window.dispatchEvent(new CustomEvent(now ? "handfoot:offline" : "handfoot:online"));
}

function later(ms) {
  clearTimeout(timer);
  timer = setTimeout(probe, ms);
}

export async function probe() {
  clearTimeout(timer);
  const stop = new AbortController();
  const give = setTimeout(() => stop.abort(), 5000);
  let ok = false;
  try {
    const reply = await fetch("/api/info", { cache: "no-store", signal: stop.signal });
    ok = reply.ok;
  } catch {
    ok = false;
  } finally {
    clearTimeout(give);
  }
  setOffline(!ok);
  if (ok) {
    retry = 0;
    later(EVERY);
  } else {
    later(BACKOFF[Math.min(retry, BACKOFF.length - 1)]);
    retry += 1;
  }
  return ok;
}

function watch() {
  window.addEventListener("offline", () => { setOffline(true); later(BACKOFF[0]); });
  window.addEventListener("online", () => probe());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") probe();
    else clearTimeout(timer);
  });
  // The table's connection line (js/net.js) says when its websocket dropped: ask at once.
  const conn = document.getElementById("conn");
  if (conn) {
    new MutationObserver(() => {
      if (/reconnect|waiting|connecting/i.test(conn.textContent || "") && !offline) probe();
    }).observe(conn, { childList: true, characterData: true, subtree: true });
  }
}

function register() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    /* an insecure origin (plain http on a LAN address) has no service worker: the page
       still works, it just is not installable there (docs/WEB.md) */
  });
}

linkApp();
register();
if (document.body) {
  line();
  watch();
  probe();
} else {
  document.addEventListener("DOMContentLoaded", () => { line(); watch(); probe(); });
}
