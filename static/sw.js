// sw.js: the service worker of the events pages (DESIGN.md, "The record
// line offline"). Served at /static/sw.js with Service-Worker-Allowed: /,
// registered with scope / by offline.js after the page has loaded.
//
// It keeps two things, and never an answer of the API:
// - the static files, by their content-hashed addresses (the page posts
//   the ones it links to; each is kept once, the current set only);
// - the shell: the last /events page drawn online, so that the record and
//   task lines open without a network (offline.js keeps what is typed
//   there until the network returns).
// Every other request goes to the network as if there were no worker; a
// page other than /events opened offline says that only the lines work.
"use strict";

var STATIC = "events-static-v1";
var SHELL = "events-shell-v1";
var SHELL_KEY = "/events";

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (evt) {
  evt.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== STATIC && n !== SHELL; }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function isStatic(url) { return url.origin === self.location.origin && url.pathname.indexOf("/static/") === 0; }

// A page answer worth keeping as the shell: a drawn page, not a redirect to
// the login or an error.
function keepable(resp) { return resp && resp.ok && !resp.redirected && resp.type === "basic" && resp.status === 200; }

// The page posts {assets: [urls], shell: "/events?..."}: the static files
// it links to are kept (and the ones of older versions dropped), and when
// the page was drawn before this worker controlled it, the page is fetched
// once more to be kept as the shell. The answer says when both are in.
self.addEventListener("message", function (evt) {
  var data = evt.data || {}, port = evt.ports && evt.ports[0];
  if (data.forget) { // a logout: the shell holds the owner's events
    evt.waitUntil(caches.delete(SHELL).then(function () { if (port) port.postMessage({ forgotten: true }); }));
    return;
  }
  var urls = (data.assets || []).map(function (u) { return new URL(u, self.location.href); }).filter(isStatic).map(function (u) { return u.href; });
  var work = caches.open(STATIC).then(function (cache) {
    return cache.keys().then(function (held) {
      var have = held.map(function (r) { return r.url; });
      var drop = have.filter(function (u) { return urls.indexOf(u) < 0; });
      var add = urls.filter(function (u) { return have.indexOf(u) < 0; });
      return Promise.all(drop.map(function (u) { return cache.delete(u); }).concat([cache.addAll(add)]));
    });
  });
  if (data.shell) {
    work = Promise.all([work, fetch(data.shell, { credentials: "same-origin", redirect: "follow" }).then(function (resp) {
      if (!keepable(resp)) return;
      return caches.open(SHELL).then(function (cache) { return cache.put(SHELL_KEY, resp); });
    })]);
  }
  evt.waitUntil(work.then(function () {
    if (port) port.postMessage({ ready: true });
  }, function (err) {
    if (port) port.postMessage({ ready: false, error: String(err) });
  }));
});

self.addEventListener("fetch", function (evt) {
  var req = evt.request, url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  if (isStatic(url)) {
    // a hashed address never changes: the kept copy, else the network
    evt.respondWith(caches.match(req, { cacheName: STATIC }).then(function (hit) { return hit || fetch(req); }));
    return;
  }
  if (req.mode !== "navigate") return; // the API and the fragments: always the network, never kept
  if (url.pathname === "/events") {
    evt.respondWith(fetch(req).then(function (resp) {
      if (keepable(resp)) {
        var copy = resp.clone();
        evt.waitUntil(caches.open(SHELL).then(function (cache) { return cache.put(SHELL_KEY, copy); }));
      }
      return resp;
    }, function () {
      return caches.match(SHELL_KEY, { cacheName: SHELL }).then(function (hit) { return hit || offlinePage(); });
    }));
    return;
  }
  evt.respondWith(fetch(req).catch(offlinePage));
});

// offlinePage answers a page other than /events opened without a network.
function offlinePage() {
  var html = '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline · events</title></head>' +
    '<body><main><h1>Offline</h1><p>Only the record and task lines work without a network; ' +
    'what you type there is sent when you are back.</p><p><a href="/events">Open the record line</a></p></main></body></html>';
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}
