// queue.js: the waiting lines of the record and task lines (DESIGN.md,
// "The record line offline"), loaded by offline.js only when needed: when
// the browser goes offline, when a line's request fails for the network,
// or when lines wait from an earlier visit. A kept line is stored in
// IndexedDB with its Idempotency-Key and the instant it was typed, drawn at
// the top of its list marked "waiting to send", and sent when the network
// returns: in the order typed, one at a time, each with its key, so the
// server stores each once; a line kept offline carries typed_at, which
// the server takes as now. A refusal is shown on its item until it is dismissed or
// put back in its line. A banner says that nothing else works offline.
(function () {
  "use strict";

  var meta = document.querySelector('meta[name="page-contract"]');
  var ids = meta ? JSON.parse(meta.content) : {};
  // The page's CSRF token; the shell kept offline has none (it must not
  // outlive the session), so one is fetched with a page when lines are
  // sent. A page that answers with the login (the session ended) drops
  // the lines: they belong to the session.
  function token() {
    var m = document.querySelector('meta[name="csrf-token"]');
    if (m) return Promise.resolve(m.content);
    return fetch("/events?tab=inbox", { credentials: "same-origin" }).then(function (resp) {
      if (resp.status === 401 || resp.redirected && new URL(resp.url).pathname === "/login") {
        if (window.eventsForget) window.eventsForget();
        return null;
      }
      return resp.text().then(function (html) {
        var x = /<meta name="csrf-token" content="([^"]*)">/.exec(html);
        if (!x) return "";
        m = document.createElement("meta");
        m.name = "csrf-token";
        m.content = x[1];
        document.head.appendChild(m);
        return m.content;
      });
    });
  }
  var words = {};
  try { words = JSON.parse(document.querySelector('meta[name="page-words"]').content); } catch (e) { /* none */ }
  // say is the page's words for name (the catalogue's js_ ids), a
  // {{.Time}} filled with time
  function say(name, time) { return String(words[name] || "").replace("{{.Time}}", time || ""); }
  var BANNER = say("offline_banner");

  // ---- the store: one object store, items in the order typed ----
  var dbp = null;
  function db() {
    if (!dbp) {
      dbp = new Promise(function (resolve, reject) {
        var open = indexedDB.open("events-offline", 1);
        open.onupgradeneeded = function () { open.result.createObjectStore("lines", { keyPath: "id", autoIncrement: true }); };
        open.onsuccess = function () { resolve(open.result); };
        open.onerror = function () { reject(open.error); };
      });
    }
    return dbp;
  }
  function tx(mode, fn) {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var t = d.transaction("lines", mode), out;
        out = fn(t.objectStore("lines"));
        t.oncomplete = function () { resolve(out && "result" in out ? out.result : undefined); };
        t.onerror = function () { reject(t.error); };
      });
    });
  }
  function all() { return tx("readonly", function (s) { return s.getAll(); }); }
  function put(item) { return tx("readwrite", function (s) { return s.put(item); }); }
  function remove(id) { return tx("readwrite", function (s) { return s.delete(id); }); }

  // keep stores a line offline.js caught (see capture there) and draws it
  // as waiting; the line is cleared for the next one.
  function keep(item) {
    item.state = "waiting";
    return put(item).then(function (id) {
      item.id = id;
      draw(item);
      var form = document.getElementById(item.form), input = form && form.querySelector('input[name="text"]');
      if (input && input.value.trim() === item.text) { input.value = ""; input.focus(); }
      var err = form && form.querySelector('[aria-live="assertive"]');
      if (err) err.replaceChildren();
      if (item.sent) {
        var box = document.getElementById(ids.flash);
        if (box) box.replaceChildren(); // the banner and the item say it
      }
      banner(true);
      if (navigator.onLine) retry(2000); // it failed for the network: again soon
    });
  }

  // ---- the waiting items, at the top of their lists ----
  function listOf(formId) {
    var form = document.getElementById(formId);
    var sel = form && form.getAttribute("hx-target");
    return sel ? document.querySelector(sel) : null;
  }
  function itemEl(id) { return document.getElementById("queued-" + id); }
  var clock = new Intl.DateTimeFormat("en-GB", { timeZone: document.body.dataset.timezone || "UTC", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  function draw(item) {
    var list = listOf(item.form), li = itemEl(item.id);
    if (!list) return;
    if (!li) {
      li = document.createElement("li");
      li.id = "queued-" + item.id;
      li.className = "queued";
      list.prepend(li); // the newest on top, as the rows the lines add
    }
    li.dataset.state = item.state;
    var title = document.createElement("span");
    title.className = "row-title";
    title.textContent = item.text || say("queue_empty");
    var what = document.createElement("p");
    what.className = "row-meta";
    var mark = document.createElement("span");
    mark.className = "queue-state";
    mark.textContent = say(item.state === "refused" ? "queue_refused" : "queue_waiting");
    var at = document.createElement("time");
    at.dateTime = item.typedAt;
    at.textContent = say("queue_typed", clock.format(new Date(item.typedAt)));
    what.append(mark, " · ", at);
    li.replaceChildren(title, what);
    if (item.state === "refused") {
      var why = document.createElement("div");
      why.className = "queue-problem";
      why.innerHTML = item.problem || ""; // the server's own problem fragment
      var again = button(say("queue_edit"), function () {
        var form = document.getElementById(item.form), input = form && form.querySelector('input[name="text"]');
        if (input) { input.value = item.text; input.focus(); input.dispatchEvent(new Event("input", { bubbles: true })); }
        dismiss(item);
      });
      var drop = button(say("queue_dismiss"), function () { dismiss(item); });
      var ops = document.createElement("div");
      ops.className = "ops";
      ops.append(again, drop);
      li.append(why, ops);
    }
  }
  function button(text, onclick) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.addEventListener("click", onclick);
    return b;
  }
  function dismiss(item) {
    remove(item.id).then(function () { var li = itemEl(item.id); if (li) li.remove(); });
  }

  // ---- sending, in order, one at a time (and one tab at a time) ----
  var flushing = false, later = 0;
  function retry(ms) {
    clearTimeout(later);
    later = setTimeout(flush, ms);
  }
  function flush() {
    if (flushing || !navigator.onLine) return;
    flushing = true;
    var run = function () { return all().then(sendNext); };
    var done = function () { flushing = false; };
    (navigator.locks ? navigator.locks.request("events-offline-lines", run) : run()).then(done, done);
  }
  // sendNext sends the first waiting item; it stops at the first that
  // cannot be sent now (no network, a busy or unavailable server, a
  // login needed), so none overtakes another.
  function sendNext(items) {
    var item = items.filter(function (i) { return i.state === "waiting"; })[0];
    if (!item) { banner(!navigator.onLine); return null; }
    var headers = { "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true", "HX-Current-URL": location.href, "Idempotency-Key": item.key };
    return token().then(function (csrf) {
      if (csrf === null) { // the session ended: the lines were dropped
        document.querySelectorAll("li.queued").forEach(function (li) { li.remove(); });
        return false;
      }
      if (csrf) headers["X-CSRF-Token"] = csrf;
      return fetch("/api/events", { method: "POST", headers: headers, body: new URLSearchParams(item.fields), credentials: "same-origin" }).then(function (resp) {
        return resp.text().then(function (html) { return settleItem(item, resp, html); });
      });
    }).then(null, function () { // no network after all: again a little later
      banner(true);
      retry(5000);
      return false;
    }).then(function (goOn) {
      return goOn ? all().then(sendNext) : null;
    });
  }
  function settleItem(item, resp, html) {
    var s = resp.status;
    if (s < 300) return remove(item.id).then(function () { placeRow(item, html); return true; });
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    if (s >= 500 || s === 429 || s === 409 && /still being processed/.test(html) || s === 401 || s === 403) {
      var li = itemEl(item.id), m = li && li.querySelector(".queue-state");
      if (m) m.textContent = say(s === 401 || s === 403 ? "queue_log_in" : "queue_busy");
      retry(30000);
      return false;
    }
    item.state = "refused";
    item.problem = tpl.innerHTML;
    return put(item).then(function () { draw(item); return true; });
  }
  // placeRow puts the stored row where the waiting item was.
  function placeRow(item, html) {
    var li = itemEl(item.id);
    if (!li) return;
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    var row = tpl.content.querySelector("li.event-row");
    if (!row || document.getElementById(row.id)) { li.remove(); return; }
    li.replaceWith(row);
    if (window.htmx) htmx.process(row);
  }

  // ---- the banner: what works without a network ----
  function banner(on) {
    var b = document.getElementById("offline-banner");
    if (!on) { if (b) b.hidden = true; return; }
    if (!b) {
      b = document.createElement("p");
      b.id = "offline-banner";
      b.className = "offline-banner";
      b.setAttribute("role", "status");
      b.textContent = BANNER;
      var at = document.querySelector(".content") || document.body;
      at.prepend(b);
    }
    b.hidden = false;
  }
  window.addEventListener("offline", function () { banner(true); });
  window.addEventListener("online", function () { banner(false); flush(); });
  document.addEventListener("htmx:after:request", function (evt) {
    var ctx = evt.detail.ctx;
    if (ctx && ctx.response && navigator.onLine) banner(false);
  });

  // ---- at load: draw what waits, and send it if the network is here ----
  function start() {
    if (!navigator.onLine) banner(true);
    if (!window.indexedDB || !document.getElementById(ids.quickRecord)) return;
    all().then(function (items) { items.forEach(draw); flush(); });
  }
  window.eventsQueue = { keep: keep, banner: banner };
  start();
})();
