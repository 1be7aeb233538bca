// offline.js (DESIGN.md, "The record line offline"): the part each page
// needs; queue.js and offline.css load only when a line must wait.
(function () {
  "use strict";
  var me = document.currentScript.dataset;
  var meta = document.querySelector('meta[name="page-contract"]');
  var ids = meta ? JSON.parse(meta.content) : {};
  var hasLines = !!document.getElementById(ids.quickRecord);
  var sw = navigator.serviceWorker, drawnByWorker = !!(sw && sw.controller);

  var loading = null;
  function load(el) {
    return new Promise(function (ok, fail) {
      el.onload = ok;
      el.onerror = function () { el.remove(); fail(); };
      document.head.appendChild(el);
    });
  }
  function queue() { // loads queue.js and offline.css once
    if (!loading) {
      var css = document.createElement("link"), js = document.createElement("script");
      css.rel = "stylesheet";
      css.href = me.queueCss;
      js.src = me.queue;
      loading = Promise.all([load(css), load(js)]).then(function () { return window.eventsQueue; });
      loading.catch(function () { loading = null; });
    }
    return loading;
  }
  function banner() { queue().then(function (q) { q.banner(true); }, function () {}); }

  window.addEventListener("load", function () {
    if (!sw) return;
    // the worker answers the events pages only: one an earlier version
    // registered for the whole origin goes
    (sw.getRegistrations ? sw.getRegistrations() : Promise.resolve([])).then(function (regs) {
      regs.forEach(function (r) { if (new URL(r.scope).pathname === "/") r.unregister(); });
    }).catch(function () {});
    sw.register("/static/sw.js", { scope: "/events" }).then(function () {
      return sw.ready;
    }).then(function (reg) {
      var assets = [me.queue, me.queueCss], ch = new MessageChannel();
      document.querySelectorAll('link[href^="/static/"], script[src^="/static/"]').forEach(function (el) {
        assets.push(el.getAttribute("href") || el.getAttribute("src"));
      });
      ch.port1.onmessage = function (evt) {
        if (evt.data.ready) document.documentElement.dataset.offlineReady = "true";
      };
      // a page drawn without the worker: kept as the shell
      var shell = drawnByWorker || !hasLines ? null : location.pathname + location.search;
      reg.active.postMessage({ assets: assets, shell: shell }, [ch.port2]);
    }).catch(function () {});
  });
  // a logout, or a request answered 401 (the session ended elsewhere),
  // forgets the shell and the lines waiting: they belong to the session
  function forget() {
    if (sw && sw.controller) sw.controller.postMessage({ forget: true });
    if (!window.indexedDB) return;
    var open = indexedDB.open("events-offline", 1);
    open.onupgradeneeded = function () { open.result.createObjectStore("lines", { keyPath: "id", autoIncrement: true }); };
    open.onsuccess = function () {
      var d = open.result, t = d.transaction("lines", "readwrite");
      t.objectStore("lines").clear();
      t.oncomplete = t.onerror = function () { d.close(); };
    };
  }
  window.eventsForget = forget;
  document.addEventListener("submit", function (evt) {
    if (evt.target.matches("form.logout")) forget();
  }, true);
  document.addEventListener("htmx:after:request", function (evt) {
    var ctx = evt.detail.ctx;
    if (ctx && ctx.response && ctx.response.status === 401) forget();
  });

  // A line sent offline, or failed for the network, goes to queue.js with
  // its key and body; offline, with typed_at (its first Enter); a request
  // that left (sent) is resent as it was, so the server answers the stored
  // one if it arrived.
  var typed = {};
  function line(ctx) {
    var f = ctx.sourceElement, key = ctx.request.headers["Idempotency-Key"];
    if (!f || (f.id !== ids.quickRecord && f.id !== ids.taskCapture) || !key) return null;
    typed[key] = typed[key] || new Date().toISOString();
    return f;
  }
  function keep(f, ctx, sent) {
    var key = ctx.request.headers["Idempotency-Key"], fields = [];
    ctx.request.body.forEach(function (v, k) { fields.push([k, String(v)]); });
    if (!sent) fields.push(["typed_at", typed[key]]);
    var item = { form: f.id, key: key, typedAt: typed[key], fields: fields, text: f.querySelector('input[name="text"]').value.trim(), sent: sent };
    // (queue.js not loadable: the line stays typed, app.js's message says so)
    queue().then(function (q) { q.keep(item); }, function () {});
  }
  document.addEventListener("htmx:config:request", function (evt) {
    var ctx = evt.detail.ctx, f = !evt.defaultPrevented && line(ctx);
    if (!f || navigator.onLine) return;
    evt.preventDefault(); // no network: kept, not sent
    keep(f, ctx, false);
  });
  document.addEventListener("htmx:error", function (evt) {
    var ctx = evt.detail.ctx;
    if (!ctx || ctx.response) return; // an answer came: not the network
    var f = line(ctx);
    if (f) keep(f, ctx, true); else banner();
  });
  window.addEventListener("offline", banner);

  // offline, or lines waiting from an earlier visit: queue.js
  if (!navigator.onLine) { banner(); return; }
  if (!hasLines || !window.indexedDB) return;
  var open = indexedDB.open("events-offline", 1);
  open.onupgradeneeded = function () { open.result.createObjectStore("lines", { keyPath: "id", autoIncrement: true }); };
  open.onsuccess = function () {
    var d = open.result, n = d.transaction("lines").objectStore("lines").count();
    n.onsuccess = function () { d.close(); if (n.result) queue().catch(function () {}); };
  };
})();
