// app.js: the little behaviour of the events pages that htmx does not give.
// No inline script anywhere: the pages' content security policy allows only
// scripts from this origin.

// The words the page's language gives its scripts (partials/head_links):
// say is the words for name, their {{.Name}} placeholders filled from args
// (the catalogue's js_ ids, handlers/templates.go). Both parts below use it.
var pageWords = {};
try { pageWords = JSON.parse(document.querySelector('meta[name="page-words"]').content); } catch (e) { /* none */ }
function say(name, args) {
  return String(pageWords[name] || "").replace(/\{\{\.(\w+)\}\}/g, function (_, k) { return args && args[k] != null ? args[k] : ""; });
}

(function () {
  "use strict";

  // The page's time zone: times are shown and read in it, whatever the
  // browser's own zone.
  function zone() {
    return document.body.dataset.timezone || "UTC";
  }

  // today is the page zone's current date and weekday (0 is Sunday).
  function today() {
    var parts = new Intl.DateTimeFormat("en-US", {
      timeZone: zone(), year: "numeric", month: "2-digit", day: "2-digit", weekday: "short"
    }).formatToParts(new Date());
    var get = function (type) { return parts.find(function (p) { return p.type === type; }).value; };
    return {
      y: +get("year"), m: +get("month"), d: +get("day"),
      weekday: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(get("weekday"))
    };
  }

  // The names the server and this script share (handlers/contract.go),
  // from the page.
  var meta = document.querySelector('meta[name="page-contract"]');
  var ids = meta ? JSON.parse(meta.content) : {};

  // at is the clock time hhmm on the date days after today, as a
  // datetime-local value the server reads in the page's zone.
  function at(days, hhmm) {
    var t = today();
    return new Date(Date.UTC(t.y, t.m - 1, t.d + days)).toISOString().slice(0, 10) + "T" + hhmm;
  }

  // preset resolves a defer preset button, as the page describes it, to a
  // time when it is clicked: hours from now, or a clock time some days
  // ahead or on the next given weekday (a week ahead on that day itself).
  function preset(d) {
    if (d.presetHours) return new Date(Date.now() + d.presetHours * 3600 * 1000).toISOString();
    if (d.presetWeekday !== undefined) {
      return at((7 + +d.presetWeekday - today().weekday) % 7 || 7, d.presetAt);
    }
    if (d.presetDays) return at(+d.presetDays, d.presetAt);
    return null;
  }

  // The one-line forms of /events: the quick record and the task capture.
  // Each sends its line as text (capture text, read by the server).
  var lines = [
    { form: ids.quickRecord, input: ids.quickTitle, error: ids.quickError, key: null },
    { form: ids.taskCapture, input: ids.taskText, error: ids.taskError, key: null }
  ];
  function lineOf(id, field) {
    for (var i = 0; i < lines.length; i++) if (lines[i][field] === id) return lines[i];
    return null;
  }

  // Retries (Idempotency-Key): each line has a key of its own. Sending the
  // same line again (Enter pressed twice, or again after an answer that
  // never came) sends the same key, so the server records it once; a
  // changed line, or the next one after a record, gets a new key.
  function newKey() {
    var bytes = crypto.getRandomValues(new Uint8Array(16)); // no secure context needed, unlike randomUUID
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  document.addEventListener("input", function (evt) {
    var line = evt.target && lineOf(evt.target.id, "input");
    if (line) line.key = null;
  });

  // Every request of a logged-in page carries the session's CSRF token.
  // (read at each request: the shell kept offline gets its token later)
  document.addEventListener("htmx:config:request", function (evt) {
    var ctx = evt.detail.ctx, source = ctx.sourceElement;
    var csrf = document.querySelector('meta[name="csrf-token"]');
    if (csrf) ctx.request.headers["X-CSRF-Token"] = csrf.content;
    var line = lineOf(source.id, "form");
    if (line) {
      if (!(document.getElementById(line.input).value || "").trim()) {
        evt.preventDefault(); // an empty line records nothing
        return;
      }
      line.key = line.key || newKey();
      ctx.request.headers["Idempotency-Key"] = line.key;
    }
    // A write from inside a drawn event (its row, or the detail section)
    // carries the validator it was drawn with, so a stale tab's click or
    // save is refused (412) instead of overwriting a newer change.
    var drawn = source.closest && source.closest("[data-etag]");
    if (drawn && ctx.request.method !== "GET") ctx.request.headers["If-Match"] = drawn.dataset.etag;
    var until = source.dataset && source.dataset.preset && preset(source.dataset);
    if (until) {
      ctx.request.body.set("defer_until", until);
    }
  });

  // After a line is recorded: the row is in the list; clear the line and
  // keep the focus for the next one. After a refusal the text stays for
  // fixing.
  document.addEventListener("htmx:after:swap", function (evt) {
    var ctx = evt.detail.ctx;
    var line = ctx.sourceElement && lineOf(ctx.sourceElement.id, "form");
    if (!line) return;
    var input = document.getElementById(line.input);
    if (ctx.response && ctx.response.status < 400) {
      input.value = "";
      line.key = null; // recorded: the next line is another record
      document.getElementById(line.error).replaceChildren();
    }
    input.focus();
  });

  // A swapped row or tab list replaces the element that had the focus; put
  // the focus back on its counterpart, so the keyboard keeps its place.
  var refocus = null;
  document.addEventListener("htmx:before:swap", function (evt) {
    var active = document.activeElement, ctx = evt.detail.ctx;
    var target = ctx.target instanceof Element ? ctx.target : null;
    if (!active || !target || !target.id || !target.contains(active)) { refocus = null; return; }
    refocus = { id: target.id, selector: focusSelector(active) };
  });
  document.addEventListener("htmx:after:process", function (evt) {
    if (!refocus || !(evt.target instanceof Element) || evt.target.id !== refocus.id) return;
    var el = (refocus.selector && evt.target.querySelector(refocus.selector)) ||
      evt.target.querySelector("[aria-selected=true], button, a, input");
    refocus = null;
    if (el) el.focus();
  });

  function focusSelector(el) {
    if (el.id) return "#" + CSS.escape(el.id);
    if (el.dataset.op) return '[data-op="' + el.dataset.op + '"]';
    if (el.getAttribute("role") === "tab") return "[aria-selected=true]";
    return null;
  }

  // A request that got no answer (the server or the network is down) says
  // so in the page's message area; the next answer clears it. A 5xx answer
  // is put there by the server itself.
  function flash(text) {
    var box = document.getElementById(ids.flash);
    if (!box) return;
    if (!text) { box.replaceChildren(); return; }
    var p = document.createElement("p");
    p.className = "problem";
    p.textContent = text;
    box.replaceChildren(p);
  }
  document.addEventListener("htmx:error", function (evt) {
    var ctx = evt.detail.ctx;
    if (ctx && ctx.response) return; // an answer came; it was shown where it belongs
    flash(say("no_answer"));
  });
  document.addEventListener("htmx:after:request", function (evt) {
    var ctx = evt.detail.ctx;
    if (ctx && ctx.response && ctx.response.status < 500) flash("");
  });

  // A quick record lands at the top of the list that takes records (Today:
  // Done & logged; elsewhere the tab's one list), marked as just recorded,
  // so it is seen even on a tab where logs do not otherwise belong; a
  // started one then moves into Now (settle).
  document.addEventListener("htmx:after:swap", function (evt) {
    var ctx = evt.detail.ctx;
    if (!ctx.sourceElement || ctx.sourceElement.id !== ids.quickRecord) return;
    if (!ctx.response || ctx.response.status >= 400) return;
    var list = document.querySelector(ids.records);
    var row = list && list.querySelector("li.event-row");
    if (row && !row.classList.contains("just-recorded")) {
      row.classList.add("just-recorded");
      var meta = row.querySelector(".row-meta");
      // a started log says "just started" by itself (its elapsed time)
      if (meta && row.dataset.status !== "in_progress") {
        var mark = document.createElement("span");
        mark.className = "recorded";
        mark.textContent = say("just_recorded");
        meta.prepend(mark);
      }
    }
    settle();
  });

  // Timers (DESIGN.md, "Running logs and overlaps"). Start, beside Record,
  // sends the line as a running log; Shift+Enter in the line is Start.
  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "Enter" || !evt.shiftKey || evt.isComposing) return;
    if (!evt.target || evt.target.id !== ids.quickTitle) return;
    var form = document.getElementById(ids.quickRecord);
    var start = form && form.querySelector("[data-start]");
    if (!start) return;
    evt.preventDefault();
    form.requestSubmit(start);
  });

  // Start with an empty line says what to type (the line itself records
  // nothing when empty: htmx:config:request above stops the request).
  document.addEventListener("submit", function (evt) {
    var start = evt.submitter;
    if (!evt.target || evt.target.id !== ids.quickRecord || !start || !start.hasAttribute("data-start")) return;
    var input = document.getElementById(ids.quickTitle);
    if (!input || (input.value || "").trim()) return;
    var box = document.getElementById(ids.quickError);
    if (box) {
      var p = document.createElement("p");
      p.className = "empty-line";
      p.textContent = start.dataset.empty;
      box.replaceChildren(p);
    }
    input.focus();
  }, true);

  // On Today a running log's row belongs in Now and a finished one in Done
  // & logged: after a Start, a Stop, or a log a Start stopped (its row
  // replaced where it was), a row in the wrong one moves to the top of the
  // right one, keeping the focus it held.
  function settle() {
    var now = document.querySelector('[data-section="now"] ul.events');
    var done = document.querySelector(ids.records);
    if (!now || !done || now === done) return;
    var active = document.activeElement;
    done.querySelectorAll('li.event-row[data-kind="activity_log"][data-status="in_progress"]').forEach(function (r) {
      now.prepend(r);
    });
    Array.prototype.slice.call(now.querySelectorAll('li.event-row:not([data-status="in_progress"])')).reverse().forEach(function (r) {
      done.prepend(r);
    });
    if (active && active !== document.activeElement && active.isConnected) active.focus();
  }
  // Stop replaces its row (or the detail section): the focus, which was on
  // the button, goes to the row, now saying when it stopped.
  var stopped = null;
  document.addEventListener("htmx:before:swap", function (evt) {
    var ctx = evt.detail.ctx, src = ctx.sourceElement;
    stopped = src && src.matches && src.matches("button.op-stop") && ctx.target instanceof Element ? ctx.target.id : null;
  });
  document.addEventListener("htmx:after:swap", function () {
    settle();
    var el = stopped && document.getElementById(stopped);
    stopped = null;
    if (!el) return;
    el.tabIndex = -1;
    el.focus();
  });

  // Forms show a date the browser's way; under each date field the same
  // time reads as the lists write it ("Mon 23 Nov, 17:00", "11월 23일 (월) 17:00").
  function readOut(input) {
    var out = input.parentNode.querySelector(".as-read");
    if (!out) {
      out = document.createElement("p");
      out.className = "as-read";
      out.setAttribute("aria-hidden", "true"); // the field itself is read out
      input.insertAdjacentElement("afterend", out);
    }
    out.textContent = asRead(input.value);
    out.hidden = !out.textContent;
  }
  // asRead is a date input's day ("Sun 29 Nov") or a datetime-local
  // input's day and time ("Sun 29 Nov, 17:00"), as the lists write them
  // in the page's language.
  function asRead(v) {
    if (!isWall(v)) return "";
    var d = wall(v), y = d.getUTCFullYear(); // the page zone's wall time, read as UTC to keep it as typed
    var s = say(y !== today().y ? "date_year" : "date", {
      Weekday: (pageWords.weekdays || [])[d.getUTCDay()], Day: d.getUTCDate(), Month: (pageWords.months || [])[d.getUTCMonth()], Year: y
    });
    return v.length === 10 ? s : s + (pageWords.clock_sep || " ") + v.slice(11, 16);
  }
  var timeInputs = '.field input[type="datetime-local"], .field input[type="date"], .field input[data-time24]';
  function readAll(root) {
    (root.querySelectorAll ? root : document).querySelectorAll(timeInputs).forEach(readOut);
  }
  document.addEventListener("input", function (evt) {
    if (evt.target && evt.target.matches && evt.target.matches(timeInputs)) readOut(evt.target);
  });

  // The forms' times (issue 47). A calendar entry's end starts one hour
  // after its start and moves with it, keeping its length, until the
  // person edits the end; All day turns both into date inputs (the end is
  // the last day), and a task's "No clock time" turns Due into one.
  // The detail page's time fields are text fields of 24-hour times
  // ("2026-11-29 14:00", data-time24; issue 55) that also take words the
  // server reads: only a value in that form is read here.
  function isWall(v) { return /^\d{4}-\d\d-\d\d([T ]\d\d:\d\d)?$/.test(v || ""); }
  function wall(v) { return new Date((v.length === 10 ? v + "T00:00" : v.replace(" ", "T")) + ":00Z"); } // a wall time as UTC
  function wallValue(d, day, input) {
    var v = d.toISOString().slice(0, day ? 10 : 16);
    return input && input.dataset.time24 ? v.replace("T", " ") : v;
  }
  function setKind(input, day, clock) {
    if (!input || (input.type === "date") === day) return;
    var v = input.value;
    input.type = day ? "date" : input.dataset.time24 ? "text" : "datetime-local";
    input.value = !v ? "" : day ? v.slice(0, 10) : v.slice(0, 10) + (input.dataset.time24 ? " " : "T") + clock;
    readOut(input);
  }
  function calendarFields(form) {
    return form && form.querySelector("#f-start_at") && form.querySelector("#f-end_at") && form.querySelector("#f-all_day") ?
      { start: form.querySelector("#f-start_at"), end: form.querySelector("#f-end_at"), allDay: form.querySelector("#f-all_day") } : null;
  }
  document.addEventListener("focusin", function (evt) { // the start before a change
    var f = evt.target.id === "f-start_at" && calendarFields(evt.target.form);
    if (f) f.start.dataset.was = f.start.value;
  });
  document.addEventListener("input", function (evt) {
    var el = evt.target, f = el && el.form && calendarFields(el.form);
    if (!f) return;
    if (el === f.end) { if (evt.isTrusted) f.end.dataset.edited = "true"; return; }
    if (el !== f.start) return;
    var was = f.start.dataset.was || "", now = f.start.value;
    f.start.dataset.was = now;
    if (!now || f.end.dataset.edited || !isWall(now)) return;
    var day = f.start.type === "date";
    if (!f.end.value || !was || !isWall(was) || !isWall(f.end.value)) {
      f.end.value = day ? now : wallValue(new Date(wall(now).getTime() + 3600 * 1000), false, f.end);
    } else { // keep the entry's length
      f.end.value = wallValue(new Date(wall(f.end.value).getTime() + wall(now).getTime() - wall(was).getTime()), day, f.end);
    }
    readOut(f.end);
  });
  document.addEventListener("change", function (evt) {
    var el = evt.target, f = el && el.form && calendarFields(el.form);
    if (f && el === f.allDay) {
      setKind(f.start, el.checked, "09:00");
      setKind(f.end, el.checked, "10:00");
      f.start.dataset.was = f.start.value;
      return;
    }
    var due = el && el.dataset && el.dataset.dayOnly && document.getElementById(el.dataset.dayOnly);
    if (due) setKind(due, el.checked, "09:00");
  });
  document.addEventListener("htmx:after:process", function (evt) { if (evt.target instanceof Element) readAll(evt.target); });
  document.addEventListener("DOMContentLoaded", function () { readAll(document); });

  // A row's defer menu is drawn once in the page (a <template>, the
  // contract's deferMenu); the first time a row's <details class="defer">
  // opens, a copy goes in, its presets and its form pointed at the row's
  // defer. A click on the summary fills it before the menu shows; the
  // toggle event catches a menu opened otherwise.
  var deferCount = 0;
  function fillDefer(d) {
    var tpl = ids.deferMenu && document.getElementById(ids.deferMenu);
    if (!tpl || d.querySelector(".defer-menu")) return;
    var menu = tpl.content.firstElementChild.cloneNode(true);
    menu.querySelectorAll(".defer-preset, form").forEach(function (el) {
      el.setAttribute("hx-post", d.dataset.deferPost);
      el.setAttribute("hx-target", d.dataset.deferTarget);
    });
    var input = menu.querySelector(".defer-custom input"), label = menu.querySelector(".defer-custom label");
    input.id = label.htmlFor = "defer-until-" + (++deferCount);
    var move = menu.querySelector(".defer-move");
    if (move && d.dataset.deferDue) { // a task with a due time: offer to move it too
      move.hidden = false;
      move.querySelector(".defer-due").textContent = say("currently_due", { Due: asRead(dueValue(new Date(d.dataset.deferDue))) });
    }
    d.appendChild(menu);
    htmx.process(menu);
  }

  // dueValue is a due time as the due field shows it: a day alone when it
  // has no clock time (models.DueDayOnly), else a day and time.
  function dueValue(due) {
    var v = local(due, true);
    return v.slice(11) === "23:59:59" && due.getUTCMilliseconds() === 999 ? v.slice(0, 10) : v.slice(0, 16);
  }

  // local is a time as a datetime-local value of the page's zone.
  var wallParts = new Intl.DateTimeFormat("en-CA", {
    timeZone: zone(), year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23"
  });
  function local(t, seconds) {
    var p = {};
    wallParts.formatToParts(t).forEach(function (x) { p[x.type] = x.value; });
    return p.year + "-" + p.month + "-" + p.day + "T" + p.hour + ":" + p.minute + (seconds ? ":" + p.second : "");
  }

  // Defer that moves the plan (issue 47). With "and move the due date"
  // ticked, a defer past the task's due time is followed by a PATCH of the
  // due date (two history rows): the due moves to the day it comes back,
  // at its own clock time (a day without a clock time stays one), or to
  // the defer's time when that clock time is earlier. The row then says
  // both and offers one Undo, of the move; after it, one Undo of the defer.
  var moving = null;
  function movedDue(due, until) { // until: a datetime-local value of the page's zone
    var wasDue = local(due, true);
    if (wasDue.slice(0, 16) >= until) return null; // due after the defer: nothing to move
    if (dueValue(due).length === 10) return until.slice(0, 10); // a day, no clock time
    var at = until.slice(0, 10) + "T" + wasDue.slice(11, 16);
    return at < until ? until : at;
  }
  document.addEventListener("htmx:config:request", function (evt) {
    var source = evt.detail.ctx.sourceElement, d = source.closest && source.closest("details.defer");
    if (moved && source.matches && source.matches("form.due-move")) moved.ctx = evt.detail.ctx;
    if (!d || !d.dataset.deferDue || !d.querySelector("[data-defer-move]:checked")) return;
    var until = evt.detail.ctx.request.body.get("defer_until") || "";
    if (/Z$/.test(until)) until = local(new Date(until)); // a preset of hours from now
    var due = movedDue(new Date(d.dataset.deferDue), until.slice(0, 16));
    var host = d.closest("li.event-row, [data-etag]");
    moving = due && host ? { ctx: evt.detail.ctx, host: host.id, target: d.dataset.deferTarget, post: d.dataset.deferPost, old: d.dataset.deferDue, due: due } : null;
  });
  // patchDue sends a form PATCH of the due time from inside host, so it
  // carries the host's validator and lands where the host's buttons do.
  function patchDue(host, m, value) {
    var form = document.createElement("form");
    form.hidden = true;
    form.className = "due-move";
    form.setAttribute("hx-patch", m.post.replace(/\/defer$/, ""));
    form.setAttribute("hx-target", m.target);
    form.setAttribute("hx-swap", "outerHTML");
    var input = document.createElement("input");
    input.type = "hidden";
    input.name = "due_at";
    input.value = value;
    form.appendChild(input);
    host.appendChild(form);
    htmx.process(form);
    form.requestSubmit();
  }
  // moveNote puts the row's one undo note in place of what the PATCH
  // answer says ("Saved."), its Undo in the reactivate button's slot.
  function moveNote(host, text, undo) {
    host.querySelectorAll(".undo-note, p.message, .form-message").forEach(function (el) { el.remove(); });
    var note = document.createElement("p");
    note.className = "undo-note";
    note.setAttribute("role", "status");
    var span = document.createElement("span");
    span.textContent = text;
    note.append(span, " · ", undo);
    var ops = host.querySelector(".ops");
    if (ops) ops.insertAdjacentElement("afterend", note); else host.appendChild(note);
    var re = host.querySelector('.ops button.op[data-op="reactivate"]');
    if (re) { var slot = document.createElement("span"); slot.className = "op-slot"; re.replaceWith(slot); }
    htmx.process(note);
    undo.focus();
  }
  function undoButton() {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "undo";
    b.setAttribute("data-undo", "");
    b.textContent = say("undo");
    return b;
  }
  var moved = null; // the move waiting for its PATCH's answer
  document.addEventListener("htmx:after:swap", function (evt) {
    var ctx = evt.detail.ctx, ok = ctx.response && ctx.response.status < 300;
    // (htmx points ctx.sourceElement at the swapped-in element by then:
    // the request is known by its ctx)
    if (moving && ctx === moving.ctx) { // the defer's answer
      var m = moving, host = document.getElementById(m.host);
      moving = null;
      if (!ok) return; // refused: nothing to move
      var said = host && host.querySelector(".undo-note span");
      if (!host || host.dataset.status !== "deferred") return;
      m.deferred = said ? said.textContent : say("deferred");
      moved = m;
      patchDue(host, m, m.due);
      return;
    }
    if (!moved || ctx !== moved.ctx) return;
    var was = moved, el = document.getElementById(was.host);
    moved = null;
    if (!el || !ok) return;
    var undo = undoButton();
    if (!was.back) { // the move: its Undo moves the due back
      var when = el.querySelector(".row-meta time:not(.until)"), pre = pageWords.due_prefix || ""; // the row's own words ("due tomorrow 17:00")
      var due = when ? when.textContent : asRead(was.due);
      if (pre && due.indexOf(pre) === 0) due = due.slice(pre.length);
      moveNote(el, say("due_moved", { Deferred: was.deferred, Due: due }), undo);
      undo.addEventListener("click", function () {
        moved = { host: was.host, target: was.target, post: was.post, deferred: was.deferred, back: true };
        patchDue(document.getElementById(was.host), was, was.old);
      });
    } else { // the move undone: the next Undo is the defer's
      undo.setAttribute("hx-post", was.post.replace(/\/defer$/, "/reactivate"));
      undo.setAttribute("hx-target", was.target);
      undo.setAttribute("hx-swap", "outerHTML");
      moveNote(el, say("due_moved_back", { Deferred: was.deferred.charAt(0).toLowerCase() + was.deferred.slice(1) }), undo);
    }
  });
  document.addEventListener("click", function (evt) {
    var s = evt.target.closest && evt.target.closest("details.defer > summary");
    if (s) fillDefer(s.parentElement);
  }, true);
  document.addEventListener("toggle", function (evt) {
    var d = evt.target;
    if (d.matches && d.matches("details.defer") && d.open) fillDefer(d);
  }, true);

  // A finished defer menu closes when the row it belongs to is redrawn; an
  // open one closes on Escape.
  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "Escape") return;
    var open = evt.target.closest && evt.target.closest("details[open]");
    if (open) {
      open.open = false;
      open.querySelector("summary").focus();
    }
  });
})();

// keys15 (issue 15): keyboard shortcuts, the tabs' arrow keys (WAI-ARIA
// tabs pattern), the current row of j/k, and the focus on the undo message
// a row is drawn with after Complete, Cancel or Defer. Shortcuts never fire
// while typing in a field or with Ctrl, Alt or Meta held.
(function () {
  "use strict";

  var meta = document.querySelector('meta[name="page-contract"]');
  var ids = meta ? JSON.parse(meta.content) : {};

  // The shortcuts, as the help lists them: the keys, and the name of their
  // words (say).
  var shortcuts = [
    ["/", "key_record"], ["s", "key_search"], ["t", "key_task"],
    ["g t", "key_today"], ["g i", "key_inbox"], ["g u", "key_upcoming"], ["g a", "key_activity"], ["g r", "key_review"],
    ["j k", "key_rows"], ["x", "key_complete"], ["d", "key_defer"], ["c", "key_cancel"], ["u", "key_undo"],
    ["← →", "key_tabs"], ["Home End", "key_tab_ends"], ["↑ ↓", "key_choices"], ["?", "key_help"], ["Esc", "key_escape"]
  ];
  var goTabs = { t: "today", i: "inbox", u: "upcoming", a: "activity" };

  function typing(el) {
    return el instanceof Element &&
      (el.isContentEditable || !!el.closest("input, textarea, select, [contenteditable]:not([contenteditable=false])"));
  }

  // ---- rows: the current one is marked and remembered by its id ----
  var currentId = null;
  function rows() { return Array.prototype.slice.call(document.querySelectorAll("li.event-row")); }
  function currentRow() {
    var a = document.activeElement;
    var r = a && a.closest && a.closest("li.event-row");
    return r || (currentId && document.getElementById(currentId)) || null;
  }
  function mark(r) {
    document.querySelectorAll("li.event-row[data-current]").forEach(function (x) {
      if (x !== r) x.removeAttribute("data-current");
    });
    if (!r) return;
    r.setAttribute("data-current", "");
    currentId = r.id;
  }
  function focusRow(r) {
    if (!r) return;
    mark(r);
    r.tabIndex = -1;
    r.focus();
    r.scrollIntoView({ block: "nearest" });
  }
  function move(step) {
    var all = rows(), r = currentRow(), i = all.indexOf(r);
    if (!all.length) return;
    i = i < 0 ? (step > 0 ? 0 : all.length - 1) : Math.min(all.length - 1, Math.max(0, i + step));
    focusRow(all[i]);
  }
  document.addEventListener("focusin", function (evt) {
    var r = evt.target.closest && evt.target.closest("li.event-row");
    if (r) mark(r);
  });
  function press(sel) {
    var r = currentRow(), b = r && r.querySelector(sel);
    if (b) b.click();
    return !!b;
  }
  function openDefer() {
    var r = currentRow(), d = r && r.querySelector("details.defer");
    if (!d) return;
    if (!d.open) d.querySelector("summary").click(); // opens it, its menu filled
    var first = d.querySelector(".defer-preset") || d.querySelector("input, button");
    if (first) first.focus();
  }

  // A redrawn row takes the focus where the keyboard expects it: its undo
  // button after Complete, Cancel or Defer; after an undo, its first
  // lifecycle button; the row itself when a shortcut acted on it.
  var swapped = null;
  document.addEventListener("htmx:before:swap", function (evt) {
    var target = evt.detail.ctx.target, active = document.activeElement;
    swapped = null;
    if (!(target instanceof Element) || !target.matches("li.event-row, [data-etag]")) return;
    if (!target.contains(active)) return;
    swapped = { id: target.id, row: active === target, undo: !!(active && active.matches("[data-undo]")) };
  });
  document.addEventListener("htmx:after:process", function (evt) {
    var el = evt.target;
    if (!(el instanceof Element) || !el.id) return;
    if (el.id === currentId) mark(el);
    if (!swapped || el.id !== swapped.id) return;
    var was = swapped;
    swapped = null;
    var undo = el.querySelector("[data-undo]");
    if (undo) { undo.focus(); return; }
    if (was.row) { focusRow(el); return; }
    if (was.undo) {
      var first = el.querySelector("button.op, details.defer > summary");
      if (first) first.focus(); else focusRow(el);
    }
  });

  // ---- tabs: roving tabindex, arrows move and activate ----
  function rove() {
    document.querySelectorAll('[role="tablist"]').forEach(function (list) {
      var tabs = list.querySelectorAll('[role="tab"]');
      var sel = list.querySelector('[role="tab"][aria-selected="true"]') || tabs[0];
      tabs.forEach(function (t) { t.tabIndex = t === sel ? 0 : -1; });
    });
  }
  rove();
  document.addEventListener("htmx:after:process", rove);
  function tabKey(evt) {
    var tab = evt.target, list = tab.closest('[role="tablist"]');
    if (!list) return false;
    var tabs = Array.prototype.slice.call(list.querySelectorAll('[role="tab"]'));
    var i = tabs.indexOf(tab), n = tabs.length, next;
    switch (evt.key) {
      case "ArrowRight": next = tabs[(i + 1) % n]; break;
      case "ArrowLeft": next = tabs[(i - 1 + n) % n]; break;
      case "Home": next = tabs[0]; break;
      case "End": next = tabs[n - 1]; break;
      default: return false;
    }
    evt.preventDefault();
    goTab(next);
    return true;
  }
  function goTab(tab) {
    if (!tab) return;
    tab.focus();
    if (tab.getAttribute("aria-selected") !== "true") tab.click();
  }

  // ---- the help: a modal dialog, Escape or its button closes it ----
  var opener = null;
  function help() {
    var d = document.getElementById("keys-help");
    if (!d) {
      d = document.createElement("dialog");
      d.id = "keys-help";
      d.className = "keys-help";
      d.setAttribute("aria-labelledby", "keys-help-title");
      var h = document.createElement("h2");
      h.id = "keys-help-title";
      h.textContent = say("keys_title");
      var note = document.createElement("p");
      note.className = "hint";
      note.textContent = say("keys_note");
      var table = document.createElement("table");
      var body = document.createElement("tbody");
      shortcuts.forEach(function (s) {
        var tr = document.createElement("tr"), th = document.createElement("th"), td = document.createElement("td");
        th.scope = "row";
        s[0].split(" ").forEach(function (k, j) {
          if (j) th.appendChild(document.createTextNode(" "));
          var kbd = document.createElement("kbd");
          kbd.textContent = k;
          th.appendChild(kbd);
        });
        td.textContent = say(s[1]);
        tr.append(th, td);
        body.appendChild(tr);
      });
      table.appendChild(body);
      var close = document.createElement("button");
      close.type = "button";
      close.className = "keys-close";
      close.textContent = say("keys_close");
      close.addEventListener("click", function () { d.close(); });
      d.append(h, note, table, close);
      d.addEventListener("close", function () {
        if (opener && opener.isConnected) opener.focus();
        opener = null;
      });
      document.body.appendChild(d);
    }
    if (d.open) return;
    opener = document.activeElement;
    d.showModal();
  }

  // ---- the defer menu: arrow keys move between its choices ----
  // (not inside its date-and-time field, whose arrows change the value)
  function menuKey(evt) {
    var menu = evt.target.closest && evt.target.closest(".defer-menu");
    if (!menu || evt.target.matches('input[type="datetime-local"]')) return false;
    var items = Array.prototype.slice.call(menu.querySelectorAll(".defer-move:not([hidden]) input, .defer-preset, .defer-custom input, .defer-custom button"));
    var i = items.indexOf(evt.target), next;
    switch (evt.key) {
      case "ArrowDown": next = items[Math.min(items.length - 1, i + 1)]; break;
      case "ArrowUp": next = items[Math.max(0, i - 1)]; break;
      case "Home": next = items[0]; break;
      case "End": next = items[items.length - 1]; break;
      default: return false;
    }
    evt.preventDefault();
    if (next) next.focus();
    return true;
  }

  // ---- switching tabs: the new tab's rows start with no current row ----
  document.addEventListener("htmx:after:swap", function (evt) {
    var target = evt.detail.ctx.target;
    if (!(target instanceof Element) || !target.querySelector('[role="tablist"]')) return;
    currentId = null;
    mark(null);
  });

  // ---- the foot's "? for shortcuts" opens the help ----
  document.addEventListener("click", function (evt) {
    var b = evt.target.closest && evt.target.closest("[data-keys-help]");
    if (b) { evt.preventDefault(); help(); }
  });

  // ---- the keys ----
  var gAt = 0; // when g was pressed: the next key within 1.5 s picks a page
  document.addEventListener("keydown", function (evt) {
    if (evt.defaultPrevented || evt.ctrlKey || evt.metaKey || evt.altKey || evt.isComposing) return;
    var target = evt.target;
    if (target instanceof Element && target.getAttribute("role") === "tab" && tabKey(evt)) return;
    if (menuKey(evt)) return;
    var key = evt.key, g = gAt && Date.now() - gAt < 1500;
    gAt = 0; // a g is followed by the very next key, or not at all
    // Esc leaves a field, its text kept (a search field would clear it).
    if (key === "Escape" && typing(target) && !document.querySelector("dialog[open]")) {
      evt.preventDefault();
      target.blur();
      return;
    }
    if (typing(target) || document.querySelector("dialog[open]")) return;
    if (g) {
      if (goTabs[key]) {
        var tab = document.getElementById("tab-" + goTabs[key]);
        if (tab) goTab(tab); else location.assign("/events?tab=" + goTabs[key]);
      } else if (key === "r") {
        location.assign("/events/review");
      } else {
        return;
      }
      evt.preventDefault();
      return;
    }
    var done = true;
    switch (key) {
      case "/": {
        var q = ids.quickTitle && document.getElementById(ids.quickTitle);
        if (q) q.focus(); else done = false;
        break;
      }
      case "s": {
        var search = document.querySelector('form[role="search"] input[type="search"]');
        if (search) search.focus(); else done = false;
        break;
      }
      case "t": {
        var task = ids.taskText && document.getElementById(ids.taskText);
        if (task) task.focus(); else done = false;
        break;
      }
      case "g": gAt = Date.now(); break;
      case "j": move(1); break;
      case "k": move(-1); break;
      case "x": done = press('button.op[data-op="complete"]'); break;
      case "c": done = press('button.op[data-op="cancel"]'); break;
      case "u": done = press('[data-undo], button.op[data-op="reactivate"]'); break;
      case "d": openDefer(); break;
      case "?": help(); break;
      default: done = false;
    }
    if (done) evt.preventDefault();
  });

  // The skip link of /events leads into the quick-record line: follow it
  // with the focus, not only the scroll.
  document.addEventListener("click", function (evt) {
    var a = evt.target.closest && evt.target.closest("a.skip[href^='#']");
    var to = a && document.getElementById(a.getAttribute("href").slice(1));
    if (to && to.matches("input, textarea, select, button")) {
      evt.preventDefault();
      to.focus();
    }
  });
})();

// names56 (issue 56): the record and task lines offer the projects in use
// after # and the labels after @ as one types: a list the server draws
// (GET /api/events/names as an htmx fragment), announced as the ARIA
// combobox pattern. ↑/↓ choose, Enter or Tab take (Tab the first when none
// is chosen; Enter with none chosen sends the line as typed), Esc closes;
// a click or a tap takes one. A name with spaces goes in as #"Acme website",
// the form the capture text reads back.
(function () {
  "use strict";

  var meta = document.querySelector('meta[name="page-contract"]');
  var ids = meta ? JSON.parse(meta.content) : {};
  if (!ids.names) return;

  // the combobox input of el (the line's input itself), and its list
  function comboOf(el) {
    return el instanceof HTMLInputElement && el.getAttribute("role") === "combobox" ? el : null;
  }
  function listOf(input) {
    return document.getElementById(input.getAttribute("aria-controls"));
  }

  // token is the #name or @name being typed before the caret: its marker,
  // what is typed of the name (inside an opened quote, spaces too), and
  // where the word starts; null when the caret is in no such word.
  function token(input) {
    if (input.selectionStart !== input.selectionEnd) return null;
    var end = input.selectionStart, before = input.value.slice(0, end);
    var m = /(^|\s)([#@])"([^"]*)$/.exec(before) || /(^|\s)([#@])([^\s"]*)$/.exec(before);
    if (!m) return null;
    return { marker: m[2], prefix: m[3].trim(), start: m.index + m[1].length, end: end };
  }

  function close(input) {
    var list = listOf(input);
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    if (list) {
      list.hidden = true;
      list.replaceChildren();
    }
  }

  function options(list) {
    return list.querySelectorAll('[role="option"]');
  }

  // choose marks option i as the active one (-1: none).
  function choose(input, list, i) {
    var opts = options(list);
    for (var k = 0; k < opts.length; k++) opts[k].setAttribute("aria-selected", k === i ? "true" : "false");
    if (i < 0) {
      input.removeAttribute("aria-activedescendant");
      return;
    }
    input.setAttribute("aria-activedescendant", opts[i].id);
    opts[i].scrollIntoView({ block: "nearest" });
  }

  function activeIndex(list) {
    var opts = options(list);
    for (var k = 0; k < opts.length; k++) if (opts[k].getAttribute("aria-selected") === "true") return k;
    return -1;
  }

  // take puts the option's name in place of the word being typed, as the
  // capture text reads it, followed by a space.
  function take(input, opt) {
    var t = token(input);
    if (!t || !opt) return;
    var name = opt.dataset.name;
    var word = t.marker + (/[\s"]/.test(name) ? '"' + name + '"' : name) + " ";
    var v = input.value;
    var rest = v.slice(t.end).replace(/^[^\s]*\s*/, ""); // the rest of the word typed into
    input.value = v.slice(0, t.start) + word + rest;
    var caret = t.start + word.length;
    input.setSelectionRange(caret, caret);
    close(input);
    input.dispatchEvent(new Event("input", { bubbles: true })); // a changed line: a new Idempotency-Key
    input.focus();
  }

  // suggest asks the server for the names that begin with what is typed.
  var timer = 0, asked = 0, pending = null;
  function suggest(input) {
    var t = token(input);
    if (!t) {
      close(input);
      return;
    }
    var list = listOf(input);
    var n = ++asked;
    if (pending) pending.abort();
    pending = typeof AbortController === "function" ? new AbortController() : null;
    var url = ids.names + "?of=" + (t.marker === "#" ? "project" : "label") + "&limit=8&prefix=" + encodeURIComponent(t.prefix);
    fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin", signal: pending && pending.signal })
      .then(function (r) { return r.ok ? r.text() : ""; })
      .then(function (html) {
        // a later keystroke asked again, or the line was sent or left meanwhile
        var now = token(input);
        if (n !== asked || document.activeElement !== input || !now || now.marker !== t.marker || now.prefix !== t.prefix) return;
        list.innerHTML = html; // drawn and escaped by the server's templates
        var opts = options(list);
        if (!opts.length) {
          close(input);
          return;
        }
        for (var k = 0; k < opts.length; k++) opts[k].id = list.id + "-" + k;
        list.hidden = false;
        input.setAttribute("aria-expanded", "true");
        choose(input, list, -1);
      })
      .catch(function () { if (n === asked) close(input); }); // offline or aborted: no list
  }

  document.addEventListener("input", function (evt) {
    var input = comboOf(evt.target);
    if (!input) return;
    clearTimeout(timer);
    timer = setTimeout(function () { suggest(input); }, 80);
  });

  // The keys of an open list, before every other handler of the page (the
  // line's Enter, the page's Esc).
  document.addEventListener("keydown", function (evt) {
    var input = comboOf(evt.target);
    if (!input || evt.isComposing || evt.ctrlKey || evt.metaKey || evt.altKey) return;
    var list = listOf(input);
    if (!list) return;
    if (list.hidden) {
      if (evt.key === "ArrowDown" && token(input)) {
        evt.preventDefault();
        suggest(input);
      }
      return;
    }
    var opts = options(list), i = activeIndex(list);
    switch (evt.key) {
      case "ArrowDown": choose(input, list, (i + 1) % opts.length); break;
      case "ArrowUp": choose(input, list, i <= 0 ? opts.length - 1 : i - 1); break;
      case "Enter":
        if (i < 0 || evt.shiftKey) {
          close(input); // the line is sent as typed
          return;
        }
        take(input, opts[i]);
        break;
      case "Tab":
        if (evt.shiftKey) {
          close(input);
          return;
        }
        take(input, opts[Math.max(i, 0)]);
        break;
      case "Escape": close(input); break;
      default: return;
    }
    evt.preventDefault();
    evt.stopPropagation();
  }, true);

  // A click or a tap takes an option; pressing it keeps the focus in the line.
  document.addEventListener("mousedown", function (evt) {
    if (evt.target.closest && evt.target.closest(".names")) evt.preventDefault();
  });
  document.addEventListener("click", function (evt) {
    var opt = evt.target.closest && evt.target.closest('.names [role="option"]');
    if (!opt) return;
    var input = document.querySelector('[aria-controls="' + opt.parentElement.id + '"]');
    if (input) take(input, opt);
  });

  // Leaving the line, or sending it, closes its list.
  document.addEventListener("focusout", function (evt) {
    var input = comboOf(evt.target);
    if (input) close(input);
  });
  document.addEventListener("submit", function (evt) {
    var input = evt.target.querySelector && evt.target.querySelector('input[role="combobox"]');
    if (!input) return;
    asked++; // an answer still on its way opens nothing
    clearTimeout(timer);
    close(input);
  }, true);
})();
