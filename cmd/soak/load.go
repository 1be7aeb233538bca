// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"events/app"
)

// The lifecycle walk each task of the load takes, over and over: every
// operation is allowed from the state the one before leaves, so none is
// ever refused and each one writes.
var walk = []string{"complete", "reactivate", "defer", "reactivate", "cancel", "reactivate"}

// load is the mixed load and what it was told: per request of ten, three
// creates (quick records and tasks), two lifecycle operations on tasks it
// created (one operation in flight per task), and five reads (the four
// listings, the /events page with a session).
type load struct {
	base, token, cookie string

	mu      sync.Mutex
	n       int
	ready   []task         // tasks whose next operation may be sent
	created map[int64]int  // acknowledged creates: id -> acknowledged operations since
	codes   map[string]int // "POST create 201" -> count
	errs    map[string]int // what went wrong, by kind
	sent    map[string]int // requests sent by kind
	flight  map[int64]int  // tasks with an operation in flight -> its step
	lost    map[int64]bool // tasks whose operation got no answer: done or not, unknown
	opsOK   int
}

type task struct {
	id   int64
	step int // index in walk of its next operation
}

func newLoad(base, token, cookie string) *load {
	return &load{base: base, token: token, cookie: cookie, created: map[int64]int{},
		codes: map[string]int{}, errs: map[string]int{}, sent: map[string]int{}, flight: map[int64]int{}, lost: map[int64]bool{}}
}

var reads = []string{"today", "inbox", "activity", "upcoming", "page"}

// next is the request number n of the mix.
func (l *load) next(t *vegeta.Target) {
	l.mu.Lock()
	n := l.n
	l.n++
	var op *task
	if n%10 >= 3 && n%10 < 5 && len(l.ready) > 0 {
		op = &l.ready[0]
		l.ready = l.ready[1:]
		l.flight[op.id] = op.step
	}
	l.mu.Unlock()

	t.Header = http.Header{"Authorization": {"Bearer " + l.token}}
	switch {
	case n%10 < 3:
		t.Method, t.URL = "POST", l.base+"/api/events"
		t.Header.Set("Content-Type", "application/json")
		if n%2 == 0 {
			t.Body = []byte(`{"kind":"activity_log","title":"soak record ` + strconv.Itoa(n) + `"}`)
		} else {
			t.Body = []byte(`{"kind":"task","title":"soak task ` + strconv.Itoa(n) + `","priority":1}`)
		}
	case op != nil:
		name := walk[op.step]
		t.Method, t.URL = "POST", l.base+"/api/events/"+strconv.FormatInt(op.id, 10)+"/"+name
		if name == "defer" {
			t.Header.Set("Content-Type", "application/json")
			t.Body = []byte(`{"defer_until":"` + time.Now().Add(24*time.Hour).UTC().Format(time.RFC3339) + `"}`)
		}
	default:
		now := time.Now().UTC()
		switch reads[n%len(reads)] {
		case "today":
			t.Method, t.URL = "GET", l.base+"/api/events/today"
		case "inbox":
			t.Method, t.URL = "GET", l.base+"/api/events/inbox"
		case "activity":
			t.Method, t.URL = "GET", l.base+"/api/events/activity"
		case "upcoming":
			t.Method, t.URL = "GET", l.base+"/api/events?"+url.Values{
				"from": {now.Format(time.RFC3339)}, "to": {now.AddDate(0, 0, 14).Format(time.RFC3339)},
				"status": {"planned,tentative,in_progress,waiting,deferred,done"}}.Encode()
		case "page":
			t.Method, t.URL = "GET", l.base+"/events"
			t.Header = http.Header{"Cookie": {l.cookie}}
		}
	}
}

func (l *load) targeter() vegeta.Targeter {
	return func(t *vegeta.Target) error {
		*t = vegeta.Target{}
		l.next(t)
		return nil
	}
}

// kind names a request for the counts: "create", "complete", "read /api/events/today", ...
func kind(method, rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return method + " ?"
	}
	switch {
	case method == "POST" && u.Path == "/api/events":
		return "create"
	case method == "POST":
		return u.Path[strings.LastIndex(u.Path, "/")+1:]
	}
	return "read " + u.Path
}

// record takes one answer: an acknowledged create joins the walk if it is
// a task; an acknowledged operation moves its task on.
func (l *load) record(r *vegeta.Result) {
	k := kind(r.Method, r.URL)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sent[k]++
	l.codes[k+" "+strconv.Itoa(int(r.Code))]++
	if r.Error != "" || r.Code < 200 || r.Code > 299 {
		why := r.Error
		if why == "" {
			why = strconv.Itoa(int(r.Code)) + " " + strings.TrimSpace(string(r.Body))
			if len(why) > 200 {
				why = why[:200]
			}
		}
		l.errs[k+": "+why]++
		if k != "create" && !strings.HasPrefix(k, "read ") {
			// an operation without an answer: its task leaves the walk, since
			// whether it was done is unknown
			id, _ := idOf(r.URL)
			delete(l.flight, id)
			l.lost[id] = true
		}
		return
	}
	switch {
	case k == "create":
		id, err := idOf(r.Headers.Get("Location"))
		if err != nil {
			l.errs["create: no Location"]++
			return
		}
		l.created[id] = 0
		if strings.Contains(string(r.Body), `"kind":"task"`) {
			l.ready = append(l.ready, task{id: id})
		}
	case !strings.HasPrefix(k, "read "):
		id, _ := idOf(r.URL)
		step := l.flight[id]
		delete(l.flight, id)
		l.created[id]++
		l.opsOK++
		l.ready = append(l.ready, task{id: id, step: (step + 1) % len(walk)})
	}
}

// idOf reads the event id of an /api/events/{id}[/op] address.
func idOf(raw string) (int64, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return 0, err
	}
	parts := strings.Split(strings.TrimPrefix(u.Path, "/api/events/"), "/")
	return strconv.ParseInt(parts[0], 10, 64)
}

// warmUp sends one request of each kind before the starting level is taken.
func (l *load) warmUp(c *http.Client) error {
	for i := 0; i < 10; i++ {
		var t vegeta.Target
		l.next(&t)
		req, err := t.Request()
		if err != nil {
			return err
		}
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		body := make([]byte, 4096)
		n, _ := resp.Body.Read(body)
		resp.Body.Close()
		if resp.StatusCode > 299 {
			return fmt.Errorf("warm-up %s %s: %s %s", t.Method, t.URL, resp.Status, body[:n])
		}
		l.record(&vegeta.Result{Method: t.Method, URL: t.URL, Code: uint16(resp.StatusCode), Headers: resp.Header, Body: body[:n]})
	}
	return nil
}

// dbCheck is what the database holds against what was acknowledged.
type dbCheck struct {
	events, history          int
	missing, extra           int // acknowledged creates not stored; stored events never acknowledged
	opMismatch, statusBroken int // events whose operations in history differ from those acknowledged; events whose status is not their last history row's
}

func (l *load) check(ctx context.Context, dsn string) (dbCheck, error) {
	var c dbCheck
	db, err := app.OpenDB(dsn, time.Minute)
	if err != nil {
		return c, err
	}
	defer db.Close()
	if err := db.QueryRowContext(ctx, "SELECT (SELECT count(*) FROM events), (SELECT count(*) FROM event_history)").Scan(&c.events, &c.history); err != nil {
		return c, err
	}
	rows, err := db.QueryContext(ctx, `
		SELECT e.id, count(h.id) FILTER (WHERE h.change_kind <> 'create'),
		       e.status = (SELECT h2.status_after FROM event_history h2 WHERE h2.event_id = e.id ORDER BY h2.id DESC LIMIT 1)
		FROM events e LEFT JOIN event_history h ON h.event_id = e.id
		GROUP BY e.id`)
	if err != nil {
		return c, err
	}
	defer rows.Close()
	l.mu.Lock()
	defer l.mu.Unlock()
	seen := map[int64]bool{}
	for rows.Next() {
		var id int64
		var ops int
		var consistent bool
		if err := rows.Scan(&id, &ops, &consistent); err != nil {
			return c, err
		}
		seen[id] = true
		acked, ok := l.created[id]
		switch {
		case !ok:
			c.extra++
		case ops != acked && !(l.lost[id] && ops == acked+1):
			c.opMismatch++
		}
		if !consistent {
			c.statusBroken++
		}
	}
	for id := range l.created {
		if !seen[id] {
			c.missing++
		}
	}
	return c, rows.Err()
}
