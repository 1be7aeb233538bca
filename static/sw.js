// sw.js: the service worker of the events pages (DESIGN.md, "The record
// line offline"). Served at /static/sw.js, registered with the scope
// /events by offline.js after the page has loaded: it answers the events
// pages (and the static files they load), never the rest of the origin.
//
// It keeps two things, and never an answer of the API:
// - the static files, by their content-hashed addresses (the page posts
//   the ones it links to; each is kept once, the current set only);
// - the shell: the last /events page drawn online with its lists and its
//   CSRF token taken out, so that the record and task lines open without
//   a network (offline.js keeps what is typed there until the network
//   returns, and queue.js fetches a fresh token to send it).
// The shell and the lines waiting in IndexedDB are dropped whenever the
// server answers 401 or sends a page to the login, and at a logout: they
// belong to the session.
// Every other request goes to the network as if there were no worker; a
// page under /events other than /events opened offline says that only the
// lines work.
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

// strip takes out of a page what must not outlive its session: the lists
// (between the page's private-begin and private-end markers; an empty list
// stands there for the lines' waiting items), the CSRF token of its meta
// tag and of the logout form.
var EMPTY_LIST = '<ul class="events" data-records data-tasks aria-live="polite"></ul>';
function strip(html) {
  return html.replace(/<template id="private-begin"><\/template>[\s\S]*?<template id="private-end"><\/template>/g, EMPTY_LIST)
    .replace(/<meta name="csrf-token"[^>]*>/g, "")
    .replace(/(name="_csrf" value=")[^"]*"/g, '$1"');
}

// keepShell keeps a drawn /events page as the shell, without what strip
// takes out.
function keepShell(resp) {
  return resp.text().then(function (html) {
    var headers = new Headers(resp.headers);
    headers.delete("Content-Length");
    headers.delete("ETag");
    return caches.open(SHELL).then(function (cache) {
      return cache.put(SHELL_KEY, new Response(strip(html), { status: 200, headers: headers }));
    });
  });
}

// ended reports an answer that says the session is over: 401, or a page
// that went to the login.
function ended(resp) {
  return resp && (resp.status === 401 || resp.redirected && new URL(resp.url).pathname === "/login");
}

// forget drops the shell and the lines waiting in IndexedDB.
function forget() {
  var lines = new Promise(function (done) {
    if (!self.indexedDB) return done();
    var open = indexedDB.open("events-offline", 1);
    open.onupgradeneeded = function () { open.result.createObjectStore("lines", { keyPath: "id", autoIncrement: true }); };
    open.onsuccess = function () {
      var d = open.result, t = d.transaction("lines", "readwrite");
      t.objectStore("lines").clear();
      t.oncomplete = t.onerror = t.onabort = function () { d.close(); done(); };
    };
    open.onerror = function () { done(); };
  });
  return Promise.all([caches.delete(SHELL), lines]);
}

// The page posts {assets: [urls], shell: "/events?..."}: the static files
// it links to are kept (and the ones of older versions dropped), and when
// the page was drawn before this worker controlled it, the page is fetched
// once more to be kept as the shell. The answer says when both are in.
self.addEventListener("message", function (evt) {
  var data = evt.data || {}, port = evt.ports && evt.ports[0];
  if (data.forget) { // a logout, or a 401 to a request of the page
    evt.waitUntil(forget().then(function () { if (port) port.postMessage({ forgotten: true }); }));
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
      if (ended(resp)) return forget();
      if (!keepable(resp)) return;
      return keepShell(resp);
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
      if (ended(resp)) {
        evt.waitUntil(forget());
      } else if (keepable(resp)) {
        evt.waitUntil(keepShell(resp.clone()));
      }
      return resp;
    }, function () {
      return caches.match(SHELL_KEY, { cacheName: SHELL }).then(function (hit) { return hit || offlinePage(); });
    }));
    return;
  }
  evt.respondWith(fetch(req).then(function (resp) {
    if (ended(resp)) evt.waitUntil(forget());
    return resp;
  }, offlinePage));
});

// offlinePage answers a page other than /events opened without a network.
function offlinePage() {
  var html = '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline · events</title></head>' +
    '<body><main><h1>Offline</h1><p>Only the record and task lines work without a network; ' +
    'what you type there is sent when you are back.</p><p><a href="/events">Open the record line</a></p></main></body></html>';
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}
