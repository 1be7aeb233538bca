// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"net/http"
	"slices"
	"testing"
)

// TestArrayParametersTakeBothForms: the document declares kind, status and
// source as arrays, whose OpenAPI default is repeated keys (what
// openapi-fetch sends); the comma form is taken too, and the two mixed.
// The old server answered 400 kind: repeated.
func TestArrayParametersTakeBothForms(t *testing.T) {
	s := newServer(t)
	task := s.create(`{"kind":"task","title":"t","due_at":"2026-11-23T10:00:00+09:00"}`)
	meeting := s.create(`{"kind":"calendar_event","title":"m","start_at":"2026-11-23T11:00:00+09:00"}`)
	s.create(`{"kind":"activity_log","title":"l","started_at":"2026-11-23T09:00:00+09:00","ended_at":"2026-11-23T09:30:00+09:00"}`)
	mail := s.create(`{"kind":"task","title":"mail","source":"email","source_ref":"m-1"}`)
	chat := s.create(`{"kind":"task","title":"chat","source":"chat","source_ref":"c-1"}`)
	s.op(task.ID, "complete", "")
	want := []int64{task.ID, meeting.ID, mail.ID, chat.ID}
	for _, query := range []string{
		"kind=task&kind=calendar_event",
		"kind=task,calendar_event",
		"kind=calendar_event&kind=task,task",
	} {
		if got := ids(s.get("/api/events?" + query).page(t).Items); !slices.Equal(got, want) {
			t.Errorf("?%s: %v, want %v", query, got, want)
		}
	}
	for _, query := range []string{"status=done&status=planned&kind=task", "status=done,planned&kind=task"} {
		if got := ids(s.get("/api/events?" + query).page(t).Items); !slices.Equal(got, []int64{task.ID, mail.ID, chat.ID}) {
			t.Errorf("?%s: %v", query, got)
		}
	}
	for _, query := range []string{"source=email&source=chat", "source=chat,email"} {
		if got := ids(s.get("/api/events?" + query).page(t).Items); !slices.Equal(got, []int64{mail.ID, chat.ID}) {
			t.Errorf("?%s: %v", query, got)
		}
	}
	// a page at a time, the cursor bound to the repeated form
	first := s.get("/api/events?kind=task&kind=calendar_event&limit=2").page(t)
	second := s.get("/api/events?kind=task&kind=calendar_event&limit=2&cursor=" + *first.NextCursor).page(t)
	if got := append(ids(first.Items), ids(second.Items)...); !slices.Equal(got, want) {
		t.Errorf("paged: %v, want %v", got, want)
	}
	// the export takes them as well
	if res := s.get("/api/events/export?format=csv&kind=task&kind=calendar_event"); res.Status != http.StatusOK {
		t.Errorf("export with repeated kind: %s", res)
	}
	// a bad value in either form is still refused, and a parameter of one
	// value still once
	s.get("/api/events?kind=task&kind=meeting").problem(t, http.StatusBadRequest, "kind")
	s.get("/api/events?kind=task,meeting").problem(t, http.StatusBadRequest, "kind")
	s.get("/api/events?tz=UTC&tz=Asia/Seoul").problem(t, http.StatusBadRequest, "tz")
}
