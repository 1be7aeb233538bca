// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

// Command walkthrough is what a new client developer would write with a
// client generated from the served docs/openapi.json by oapi-codegen:
// TestGeneratedClientWalkThrough generates the client beside this file
// (client.gen.go, through a build overlay: it is never committed) and runs
// this against the real server, whose address is the one argument. It
// prints one line a step and exits 1 at the first step that goes wrong.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"
)

var ctx = context.Background()

func must(step string, ok bool, format string, args ...any) {
	if !ok {
		fmt.Printf("FAIL %s: %s\n", step, fmt.Sprintf(format, args...))
		os.Exit(1)
	}
	fmt.Printf("ok   %s\n", step)
}

func check(step string, err error) {
	if err != nil {
		fmt.Printf("FAIL %s: %v\n", step, err)
		os.Exit(1)
	}
}

func ptr[T any](v T) *T { return &v }

func at(s string) *time.Time {
	t, err := time.Parse(time.RFC3339, s)
	check("a time of the walk-through", err)
	return &t
}

func main() {
	c, err := NewClientWithResponses(os.Args[1])
	check("the client", err)

	// Create one event of each kind, each through its own typed body.
	var task, cal, log EventCreate
	check("a task's body", task.FromTaskCreate(TaskCreate{Kind: TaskCreateKindTask, Title: ptr("Send the report"),
		DueAt: at("2026-11-25T17:00:00+09:00"), Priority: ptr(2), ProjectTag: ptr("work")}))
	check("a calendar entry's body", cal.FromCalendarEventCreate(CalendarEventCreate{Kind: CalendarEventCreateKindCalendarEvent,
		Title: ptr("Team meeting"), StartAt: at("2026-11-25T10:00:00Z"), EndAt: at("2026-11-25T11:00:00Z"),
		Status: ptr(CalendarEventCreateStatusTentative)}))
	check("a log's body", log.FromActivityLogCreate(ActivityLogCreate{Kind: ActivityLogCreateKindActivityLog,
		Title: ptr("Code review"), StartedAt: at("2026-11-22T01:00:00Z"), EndedAt: at("2026-11-22T02:00:00Z"),
		Overlap: ptr(Allow)}))
	ids := map[string]int64{}
	for _, b := range []struct {
		name string
		body EventCreate
	}{{"task", task}, {"calendar_event", cal}, {"activity_log", log}} {
		r, err := c.CreateEventWithResponse(ctx, &CreateEventParams{}, b.body)
		check("create an event of kind "+b.name, err)
		must("create an event of kind "+b.name, r.StatusCode() == http.StatusCreated && r.JSON201 != nil && string(r.JSON201.Kind) == b.name,
			"%d %s", r.StatusCode(), r.Body)
		ids[b.name] = r.JSON201.Id
	}
	kor, err := c.CreateEventWithResponse(ctx, &CreateEventParams{}, mustBody(TaskCreate{Kind: TaskCreateKindTask, Title: ptr("회의 준비"),
		Description: ptr("자료를 정리한다")}))
	check("create a task in Korean", err)
	must("create a task in Korean", kor.JSON201 != nil, "%d %s", kor.StatusCode(), kor.Body)

	// A retried create with an Idempotency-Key: one event, the same answer.
	retried := mustBody(TaskCreate{Kind: TaskCreateKindTask, Title: ptr("Once only")})
	key := &CreateEventParams{IdempotencyKey: ptr("walk-through-1")}
	first, err := c.CreateEventWithResponse(ctx, key, retried)
	check("a create with an Idempotency-Key", err)
	again, err := c.CreateEventWithResponse(ctx, key, retried)
	check("the same create again", err)
	must("a retried create answers the first", first.JSON201 != nil && again.JSON201 != nil && first.JSON201.Id == again.JSON201.Id &&
		again.HTTPResponse.Header.Get("Idempotent-Replayed") == "true" && first.HTTPResponse.Header.Get("Idempotent-Replayed") == "",
		"first %d %s, again %d %s", first.StatusCode(), first.Body, again.StatusCode(), again.Body)

	// Page through a filtered listing, one task a page.
	seen := map[int64]bool{}
	params := &ListEventsParams{Kind: &Kind{"task"}, Status: &Status{"planned"}, Limit: ptr(1)}
	for pages := 0; ; pages++ {
		r, err := c.ListEventsWithResponse(ctx, params)
		check("a page of tasks", err)
		must(fmt.Sprintf("page %d of the planned tasks", pages+1), r.JSON200 != nil && len(r.JSON200.Items) <= 1, "%d %s", r.StatusCode(), r.Body)
		for _, e := range r.JSON200.Items {
			must("a listed event matches the filter", e.Kind == EventKindTask && e.Status == EventStatusPlanned && !seen[e.Id], "%+v", e)
			seen[e.Id] = true
		}
		if r.JSON200.NextCursor == nil {
			break
		}
		params.Cursor = r.JSON200.NextCursor
	}
	must("the pages hold the three planned tasks", len(seen) == 3, "%v", seen)

	// Search in Korean.
	found, err := c.ListEventsWithResponse(ctx, &ListEventsParams{Q: ptr("회의")})
	check("a search in Korean", err)
	must("a search in Korean finds the task", found.JSON200 != nil && len(found.JSON200.Items) == 1 && found.JSON200.Items[0].Title == "회의 준비",
		"%d %s", found.StatusCode(), found.Body)

	// Every lifecycle operation, each read back as a typed event.
	id := ids["task"]
	done, err := c.CompleteEventWithResponse(ctx, id, &CompleteEventParams{}, CompleteEventJSONRequestBody{})
	check("complete", err)
	must("complete", done.JSON200 != nil && done.JSON200.Status == EventStatusDone && done.JSON200.CompletedAt != nil, "%d %s", done.StatusCode(), done.Body)
	back, err := c.ReactivateEventWithResponse(ctx, id, &ReactivateEventParams{}, ReactivateEventJSONRequestBody{})
	check("reactivate", err)
	must("reactivate", back.JSON200 != nil && back.JSON200.Status == EventStatusPlanned, "%d %s", back.StatusCode(), back.Body)
	deferred, err := c.DeferEventWithResponse(ctx, id, &DeferEventParams{}, DeferEventJSONRequestBody{DeferUntil: *at("2026-12-01T09:00:00+09:00")})
	check("defer", err)
	must("defer", deferred.JSON200 != nil && deferred.JSON200.Status == EventStatusDeferred && deferred.JSON200.DeferUntil != nil,
		"%d %s", deferred.StatusCode(), deferred.Body)
	cancelled, err := c.CancelEventWithResponse(ctx, ids["calendar_event"], &CancelEventParams{}, CancelEventJSONRequestBody{})
	check("cancel", err)
	must("cancel", cancelled.JSON200 != nil && cancelled.JSON200.Status == EventStatusCancelled, "%d %s", cancelled.StatusCode(), cancelled.Body)
	twice, err := c.CancelEventWithResponse(ctx, ids["calendar_event"], &CancelEventParams{}, CancelEventJSONRequestBody{})
	check("cancel twice", err)
	must("cancel twice is a typed 409", twice.ApplicationproblemJSON409 != nil && twice.ApplicationproblemJSON409.Type == "/problems/illegal-transition",
		"%d %s", twice.StatusCode(), twice.Body)

	// The history of the task: create, complete, reactivate, defer.
	h, err := c.GetEventHistoryWithResponse(ctx, id, &GetEventHistoryParams{})
	check("history", err)
	var steps []string
	if h.JSON200 != nil {
		for _, s := range h.JSON200.Items {
			steps = append(steps, string(s.ChangeKind))
		}
	}
	must("history lists every step", fmt.Sprint(steps) == "[create complete reactivate defer]", "%v: %d %s", steps, h.StatusCode(), h.Body)

	// PATCH with the current ETag, then with the stale one: 412, typed.
	cur, err := c.GetEventWithResponse(ctx, ids["activity_log"], &GetEventParams{})
	check("read the log", err)
	etag := cur.HTTPResponse.Header.Get("ETag")
	must("read the log with its ETag", cur.JSON200 != nil && etag != "", "%d %s", cur.StatusCode(), cur.Body)
	p, err := c.UpdateEventWithResponse(ctx, ids["activity_log"], &UpdateEventParams{IfMatch: &etag}, UpdateEventJSONRequestBody{Title: ptr("Code review, part 1")})
	check("PATCH with the current ETag", err)
	must("PATCH with the current ETag", p.JSON200 != nil && p.JSON200.Title == "Code review, part 1", "%d %s", p.StatusCode(), p.Body)
	stale, err := c.UpdateEventWithResponse(ctx, ids["activity_log"], &UpdateEventParams{IfMatch: &etag}, UpdateEventJSONRequestBody{Title: ptr("Lost update")})
	check("PATCH with a stale ETag", err)
	must("PATCH with a stale ETag is a typed 412", stale.StatusCode() == http.StatusPreconditionFailed && stale.ApplicationproblemJSON412 != nil &&
		stale.ApplicationproblemJSON412.Type == "/problems/stale-precondition" && stale.HTTPResponse.Header.Get("ETag") != etag,
		"%d %s", stale.StatusCode(), stale.Body)

	// Export as NDJSON: every event, one a line, the Korean title intact.
	ex, err := c.ExportEventsWithResponse(ctx, &ExportEventsParams{Format: ptr(Ndjson)})
	check("export", err)
	lines, korean := 0, false
	sc := bufio.NewScanner(bytes.NewReader(ex.Body))
	for sc.Scan() {
		var e Event
		check("an exported line", json.Unmarshal(sc.Bytes(), &e))
		lines++
		korean = korean || e.Title == "회의 준비"
	}
	must("export lists every event", ex.StatusCode() == http.StatusOK && lines == 5 && korean, "%d, %d lines", ex.StatusCode(), lines)
	fmt.Println("walk-through: ok")
}

func mustBody(t TaskCreate) EventCreate {
	var b EventCreate
	check("a task's body", b.FromTaskCreate(t))
	return b
}
