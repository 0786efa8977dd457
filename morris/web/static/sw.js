// The companion's service worker: it keeps the page shell (the two pages, their scripts, style,
// manifest and icons) so that the page opens from the home screen while the board is away and
// says "the board is not reachable". Network first: whatever the board serves is what is shown
// and kept; the kept copy only when the board does not answer. The game itself (/api/...) is
// never kept: a stale state would be a lie.
"use strict";

const CACHE = "morris-shell-2";
const SHELL = [
  "/",
  "/review",
  "/static/style.css",
  "/static/strings.js",
  "/static/shell.js",
  "/static/app.js",
  "/static/setup.js",
  "/static/remote.js",
  "/static/puzzle.js",
  "/static/speech.js",
  "/static/review.js",
  "/manifest.webmanifest",
  "/icons/icon.svg",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  // Only the shell itself: no query (a ?token= link must reach the board; the review's ?game=
  // is the page's own), nothing of /api.
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if ((url.search && url.pathname !== "/review") || !SHELL.includes(url.pathname)) return;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
        }
        return response;
      })
      .catch(() => caches.match(url.pathname).then((kept) => kept || Response.error())),
  );
});
