// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"events/app"
	"events/models"
)

// TestLabelsStoredFilteredSearched: labels go in with a create, come back
// from a listing in order, normalised ("@" dropped, repeats dropped), with
// a comma, a quote and a space in one; ?label= filters (every label given
// must be there); q finds a label's word; a PATCH of the labels writes no
// history row.
func TestLabelsStoredFilteredSearched(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _, _ := newService(t, time.Date(2026, 11, 23, 12, 0, 0, 0, seoul))
	a := create(t, s, `{"kind":"activity_log","title":"회의","started_at":"2026-11-23T01:00:00Z","ended_at":"2026-11-23T02:00:00Z","labels":["@회의","client-acme","회의","Acme, \"the\" site"]}`)
	want := []string{"회의", "client-acme", `Acme, "the" site`}
	if !slices.Equal(a.Labels, want) {
		t.Fatalf("created labels %q, want %q", a.Labels, want)
	}
	b := create(t, s, `{"kind":"task","title":"invoice","labels":["client-acme"]}`)
	create(t, s, `{"kind":"task","title":"no labels"}`)

	list := func(q url.Values) []int64 {
		t.Helper()
		lq, err := models.ParseListQuery(models.ListEvents, q, seoul)
		if err != nil {
			t.Fatal(err)
		}
		page, err := s.List(ctx, lq)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Items {
			if e.ID == a.ID && !slices.Equal(e.Labels, want) {
				t.Errorf("listed labels %q, want %q", e.Labels, want)
			}
		}
		got := ids(page.Items)
		slices.Sort(got)
		return got
	}
	if got := list(url.Values{"label": {"client-acme"}}); !slices.Equal(got, []int64{a.ID, b.ID}) {
		t.Errorf("label=client-acme: %v, want %v", got, []int64{a.ID, b.ID})
	}
	if got := list(url.Values{"label": {"@client-acme", "회의"}}); !slices.Equal(got, []int64{a.ID}) {
		t.Errorf("label=client-acme&label=회의: %v, want [%d]", got, a.ID)
	}
	if got := list(url.Values{"label": {`Acme, "the" site`}}); !slices.Equal(got, []int64{a.ID}) {
		t.Errorf("label with a comma and quotes: %v, want [%d]", got, a.ID)
	}
	if got := list(url.Values{"q": {"acme"}}); !slices.Equal(got, []int64{a.ID, b.ID}) {
		t.Errorf("q=acme (a label's word): %v, want %v", got, []int64{a.ID, b.ID})
	}

	before := len(history(t, s, b.ID))
	n, err := patch(s, b.ID, `{"labels":["billing","client-acme"]}`)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(n.Labels, []string{"billing", "client-acme"}) {
		t.Errorf("patched labels %q", n.Labels)
	}
	if after := len(history(t, s, b.ID)); after != before {
		t.Errorf("a PATCH of labels wrote %d history rows, want none", after-before)
	}
	if j, _ := json.Marshal(n); !strings.Contains(string(j), `"labels":["billing","client-acme"]`) {
		t.Errorf("JSON %s lacks the labels array", j)
	}
}

// TestLabelsRefused: more than 20 labels, a label over 64 characters, a
// control character, a label that is not a string, null.
func TestLabelsRefused(t *testing.T) {
	t.Parallel()
	s, _, _ := newService(t, time.Date(2026, 11, 23, 12, 0, 0, 0, seoul))
	many := make([]string, 21)
	for i := range many {
		many[i] = string(rune('a' + i))
	}
	manyJSON, _ := json.Marshal(many)
	long := make([]byte, 65)
	for i := range long {
		long[i] = 'x'
	}
	for _, body := range []string{
		`{"kind":"task","title":"t","labels":` + string(manyJSON) + `}`,
		`{"kind":"task","title":"t","labels":["` + string(long) + `"]}`,
		`{"kind":"task","title":"t","labels":["a\tb"]}`,
		`{"kind":"task","title":"t","labels":["a\u202eb"]}`,
		`{"kind":"task","title":"t","labels":[1]}`,
		`{"kind":"task","title":"t","labels":"a"}`,
		`{"kind":"task","title":"t","labels":null}`,
	} {
		if _, err := tryCreate(s, body); !isFieldError(err, "labels") {
			t.Errorf("%s: %v, want a refusal naming labels", body, err)
		}
	}
	for _, q := range []url.Values{{"label": {""}}, {"label": {string(long)}}} {
		if _, err := models.ParseListQuery(models.ListEvents, q, seoul); err == nil {
			t.Errorf("%v: accepted", q)
		}
	}
}

// TestLabelFilterUsesIndex: on a table of 20,000 events, ANALYZEd, the
// planner serves ?label= from events_labels_idx (GIN), not a scan.
func TestLabelFilterUsesIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, db, _ := newService(t, time.Date(2026, 11, 23, 12, 0, 0, 0, seoul))
	if _, err := db.ExecContext(ctx, `
INSERT INTO events (kind, status, title, description, started_at, ended_at, labels)
SELECT 'activity_log', 'done', 'log ' || i, '',
       timestamptz '2025-11-23 09:00+09' + i * interval '17 minutes',
       timestamptz '2025-11-23 09:00+09' + i * interval '17 minutes' + interval '15 minutes',
       CASE WHEN i % 500 = 0 THEN ARRAY['rare', 'work'] WHEN i % 2 = 0 THEN ARRAY['work'] ELSE '{}' END
FROM generate_series(1, 20000) i`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "VACUUM ANALYZE events"); err != nil {
		t.Fatal(err)
	}
	q, err := models.ParseListQuery(models.ListEvents, url.Values{"label": {"rare"}}, seoul)
	if err != nil {
		t.Fatal(err)
	}
	sql, args := app.ListSQL(s, q)
	top, plan := explain(t, ctx, db, sql, args...)
	if n := top.find("Bitmap Index Scan"); n == nil || n.IndexName != "events_labels_idx" {
		t.Errorf("label=rare is not served by events_labels_idx:\n%s", plan)
	}
	page, err := s.List(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 40 {
		t.Errorf("label=rare listed %d events, want 40", len(page.Items))
	}
}

// TestLocationStoredAndSearched: a task and a calendar entry keep a place
// (trimmed, empty is none), q finds its words, an activity log refuses one.
func TestLocationStoredAndSearched(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _, _ := newService(t, time.Date(2026, 11, 23, 12, 0, 0, 0, seoul))
	c := create(t, s, `{"kind":"calendar_event","title":"Dentist","start_at":"2026-11-24T06:00:00Z","location":"  서울 강남구 치과의원  "}`)
	if c.Location == nil || *c.Location != "서울 강남구 치과의원" {
		t.Fatalf("location %v", c.Location)
	}
	task := create(t, s, `{"kind":"task","title":"Pick up","location":""}`)
	if task.Location != nil {
		t.Errorf("an empty location is stored as %q, want none", *task.Location)
	}
	if _, err := tryCreate(s, `{"kind":"activity_log","title":"x","location":"office"}`); !isFieldError(err, "location") {
		t.Errorf("a log with a location: %v, want a refusal naming location", err)
	}
	long := strings.Repeat("가", 201)
	if _, err := tryCreate(s, `{"kind":"task","title":"x","location":"`+long+`"}`); !isFieldError(err, "location") {
		t.Errorf("a 201-character location: %v, want a refusal naming location", err)
	}
	lq, err := models.ParseListQuery(models.ListEvents, url.Values{"q": {"강남구"}}, seoul)
	if err != nil {
		t.Fatal(err)
	}
	page, err := s.List(ctx, lq)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(page.Items); !slices.Equal(got, []int64{c.ID}) || page.Items[0].Location == nil {
		t.Errorf("q=강남구: %v, want [%d] with its location", got, c.ID)
	}
	n, err := patch(s, task.ID, `{"location":"우체국"}`)
	if err != nil || n.Location == nil || *n.Location != "우체국" {
		t.Errorf("PATCH location: %v %v", n.Location, err)
	}
}

// TestCaptureTextLabels: a create's capture text gives the labels; an
// explicit labels field in the same body wins.
func TestCaptureTextLabels(t *testing.T) {
	t.Parallel()
	s, _, _ := newService(t, time.Date(2026, 11, 23, 12, 0, 0, 0, seoul))
	c := create(t, s, `{"kind":"activity_log","text":"회의 1시간 #work @회의 @client-acme"}`)
	if !slices.Equal(c.Labels, []string{"회의", "client-acme"}) || c.Title != "회의" || c.ProjectTag == nil || *c.ProjectTag != "work" {
		t.Errorf("captured %q #%v with labels %q", c.Title, c.ProjectTag, c.Labels)
	}
	d := create(t, s, `{"kind":"task","text":"invoice @billing","labels":["explicit"]}`)
	if !slices.Equal(d.Labels, []string{"explicit"}) {
		t.Errorf("explicit labels lost to the text's: %q", d.Labels)
	}
}

// TestStepAtItsOwnMoment: a complete or cancel with "at" puts
// completed_at (cancelled_at) and its history row at that moment, not at
// the write's; the summary counts the task done on that day; "at" ahead
// of now, or on reactivate, is refused.
func TestStepAtItsOwnMoment(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _, _ := newService(t, time.Date(2026, 12, 5, 12, 0, 0, 0, seoul))
	task := create(t, s, `{"kind":"task","title":"Send the report","source":"calendar","source_ref":"todo-report"}`)
	done := mustOperate(t, s, task.ID, models.OpComplete, `{"at":"2026-11-20T08:00:00Z"}`)
	at := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
	if done.CompletedAt == nil || !done.CompletedAt.Equal(at) {
		t.Errorf("completed_at %v, want %v", done.CompletedAt, at)
	}
	if !done.UpdatedAt.After(at) {
		t.Errorf("updated_at %v moved back with the step", done.UpdatedAt)
	}
	var step *models.History
	for _, h := range history(t, s, task.ID) {
		if h.ChangeKind == models.ChangeKind(models.OpComplete) {
			step = &h
		}
	}
	if step == nil || !step.OccurredAt.Equal(at) {
		t.Errorf("history's complete %+v, want it at %v", step, at)
	}
	from, to := time.Date(2026, 11, 20, 0, 0, 0, 0, seoul), time.Date(2026, 11, 21, 0, 0, 0, 0, seoul)
	sum, err := s.Summary(ctx, &from, &to, seoul)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Total.TasksCompleted != 1 {
		t.Errorf("the summary of 20 Nov counts %d tasks done, want 1", sum.Total.TasksCompleted)
	}
	entry := create(t, s, `{"kind":"calendar_event","title":"Team dinner","start_at":"2026-12-11T10:00:00Z"}`)
	if _, err := operate(s, entry.ID, models.OpCancel, `{"at":"2026-12-11T10:00:00Z"}`); !isFieldError(err, "at") {
		t.Errorf("a cancel at a moment ahead of now: %v, want a refusal naming at", err)
	}
	c := mustOperate(t, s, entry.ID, models.OpCancel, `{"at":"2026-12-01T00:00:00Z"}`)
	if c.CancelledAt == nil || !c.CancelledAt.Equal(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("cancelled_at %v", c.CancelledAt)
	}
	if _, err := operate(s, entry.ID, models.OpReactivate, `{"at":"2026-12-01T00:00:00Z"}`); !isFieldError(err, "at") {
		t.Errorf("reactivate with at: %v, want a refusal naming at", err)
	}
}

// TestNames: the projects and labels in use that begin with a prefix,
// case-insensitively, the most used first; a LIKE wildcard in the prefix
// is itself.
func TestNames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _, _ := newService(t, time.Date(2026, 11, 23, 12, 0, 0, 0, seoul))
	create(t, s, `{"kind":"task","title":"a","project_tag":"Acme website","labels":["회의","client-acme"]}`)
	create(t, s, `{"kind":"task","title":"b","project_tag":"Acme website","labels":["회의"]}`)
	create(t, s, `{"kind":"task","title":"c","project_tag":"acorn","labels":["100%"]}`)
	got, err := s.Names(ctx, "project", "ac", 10)
	if err != nil {
		t.Fatal(err)
	}
	if want := []app.Name{{Name: "Acme website", Events: 2}, {Name: "acorn", Events: 1}}; !slices.Equal(got, want) {
		t.Errorf("projects ac: %v, want %v", got, want)
	}
	got, _ = s.Names(ctx, "label", "", 10)
	if want := []app.Name{{Name: "회의", Events: 2}, {Name: "100%", Events: 1}, {Name: "client-acme", Events: 1}}; !slices.Equal(got, want) {
		t.Errorf("labels: %v, want %v", got, want)
	}
	if got, _ = s.Names(ctx, "label", "1%", 10); len(got) != 0 {
		t.Errorf("labels 1%%: %v, want none (%% is itself)", got)
	}
}

// TestNamesUsesTheUpdatedIndex: on a large table, the suggestions' query
// reads the most recently changed events through events_updated_idx (a
// backward index scan that stops after NamesRecent rows), never the whole
// table, and still finds a Hangul name by its first syllable.
func TestNamesUsesTheUpdatedIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, db, _ := newService(t, time.Date(2026, 11, 23, 12, 0, 0, 0, seoul))
	if _, err := db.ExecContext(ctx, `
INSERT INTO events (kind, status, title, description, project_tag, labels, created_at, updated_at)
SELECT 'task', 'planned', 'task ' || i, '',
       CASE WHEN i % 3 = 0 THEN '업무' WHEN i % 3 = 1 THEN 'Acme website' END,
       CASE WHEN i % 2 = 0 THEN ARRAY['회의', 'p' || (i % 97)] ELSE '{}' END,
       timestamptz '2025-01-01 00:00Z' + i * interval '1 minute',
       timestamptz '2025-01-01 00:00Z' + i * interval '1 minute'
FROM generate_series(1, 100000) i`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "VACUUM ANALYZE events"); err != nil {
		t.Fatal(err)
	}
	for _, of := range []string{"project", "label"} {
		sql, args := app.NamesSQL(of, "업", 10)
		top, plan := explain(t, ctx, db, sql, args...)
		scan := top.find("Index Scan Backward")
		if scan == nil {
			scan = top.find("Index Scan")
		}
		if scan == nil || scan.IndexName != "events_updated_idx" || scan.ActualRows > app.NamesRecent {
			t.Errorf("%s: the names are not read through events_updated_idx, at most %d rows:\n%s", of, app.NamesRecent, plan)
		}
		if top.find("Seq Scan") != nil {
			t.Errorf("%s: a sequential scan:\n%s", of, plan)
		}
	}
	got, err := s.Names(ctx, "project", "업", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Name != "업무" || got[0].Events < 1000 {
		t.Errorf("projects 업: %v", got)
	}
	if got, _ = s.Names(ctx, "label", "회", 10); len(got) != 1 || got[0].Name != "회의" {
		t.Errorf("labels 회: %v", got)
	}
}
