// The installed app's service worker, served as /sw.js (its scope is the whole site).  It
// keeps the page's own files so the app opens at once, even when the server cannot be
// reached; the page then says so (js/pwa.js).  Game state is never kept here: /api and /ws
// pass straight to the network, so nothing stale is ever shown as if it were current.
//
// Pages and files are fetched from the network first (a new version is seen at once, as
// without the app); the cached copy answers only when the network fails or is slow.
// The server fills in the two lines below: a hash of the files (a new hash is a new worker,
// which refreshes the cache) and the list of files.
const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `handfoot-${VERSION}`;
const SLOW = 4000; // ms before a cached copy answers a network that does not

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // One by one: a file that fails must not keep the others out.
    await Promise.all(FILES.map((url) => cache.add(new Request(url, { cache: "no-cache" })).catch(() => null)));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("handfoot-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

function mine(url) {
  if (url.origin !== self.location.origin) return false;
  const p = url.pathname;
  if (p.startsWith("/api/") || p.startsWith("/ws/") || p === "/sw.js") return false;
  return p === "/" || p === "/replay" || p === "/mine" || p === "/manifest.webmanifest" ||
    p.startsWith("/static/") || p.startsWith("/t/") || p.startsWith("/replay/");
}

// The page a navigation falls back to: every table's page is the same file, and so is
// every replay's.
function shell(url) {
  if (url.pathname.startsWith("/t/")) return "/";
  if (url.pathname.startsWith("/replay/")) return "/replay";
  return url.pathname;
}

async function fromCache(request, url) {
  const cache = await caches.open(CACHE);
  return (await cache.match(request, { ignoreSearch: true })) ||
    (await cache.match(shell(url)));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (!mine(url)) return;
  event.respondWith((async () => {
    const network = fetch(request).then(async (response) => {
      if (response.ok && (url.pathname.startsWith("/static/") || url.pathname === "/" ||
          url.pathname === "/replay" || url.pathname === "/mine" ||
          url.pathname === "/manifest.webmanifest")) {
        const cache = await caches.open(CACHE);
        await cache.put(request, response.clone());
      }
      return response;
    });
    network.catch(() => null); // answered from the cache below; not an unhandled failure
    const slow = new Promise((resolve) => setTimeout(resolve, SLOW, null));
    try {
      const first = await Promise.race([network, slow]);
      if (first) return first;
      const cached = await fromCache(request, url);
      return cached || await network;
    } catch (err) {
      const cached = await fromCache(request, url);
      if (cached) return cached;
      throw err;
    }
  })());
});

// Web Push (js/notify.js, server/push.py): the server tells a person who is away that it is
// their turn.  The message is the server's JSON {title, body, url, tag}; one tag per table, so
// a newer turn replaces the last one's notification instead of piling up.
self.addEventListener("push", (event) => {
  let msg = {};
  try {
    msg = event.data ? event.data.json() : {};
  } catch {
    msg = { body: event.data ? event.data.text() : "" };
  }
  const url = typeof msg.url === "string" && msg.url.startsWith("/") ? msg.url : "/mine";
  event.waitUntil(self.registration.showNotification(msg.title || "handfoot", {
    body: msg.body || "It is your turn.", tag: msg.tag || "handfoot", renotify: true,
    icon: "/static/icons/icon-192.png", badge: "/static/icons/icon-192.png", data: { url },
  }));
});

// A click on the notification brings the table forward: its open window if there is one,
// else a new one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/mine",
    self.location.origin).href;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const same = open.find((c) => c.url === url) || open.find((c) => new URL(c.url).pathname === new URL(url).pathname);
    if (same) return same.focus();
    return self.clients.openWindow(url);
  })());
});
