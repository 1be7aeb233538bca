// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app_test

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"events/app"
	"events/internal/dbtest"
	"events/models"
)

// search runs GET /api/events's listing with the query string raw, every
// page, and returns the titles found.
func searchTitles(t *testing.T, s *app.Service, raw string) []string {
	t.Helper()
	var titles []string
	cursor := ""
	for {
		v, err := url.ParseQuery(raw)
		if err != nil {
			t.Fatal(err)
		}
		if cursor != "" {
			v.Set("cursor", cursor)
		}
		q, err := models.ParseListQuery(models.ListEvents, v, seoul)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		page, err := s.List(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		for _, e := range page.Items {
			titles = append(titles, e.Title)
		}
		if page.NextCursor == nil {
			slices.Sort(titles)
			return titles
		}
		cursor = *page.NextCursor
	}
}

// searchCorpus creates the events every search test looks through.
func searchCorpus(t *testing.T, s *app.Service) {
	t.Helper()
	for _, body := range []string{
		`{"kind":"task","title":"주간 회의 준비","description":"안건 정리"}`,
		`{"kind":"task","title":"Weekly","description":"회의록 정리 Meeting notes"}`,
		`{"kind":"activity_log","title":"Standup MEETING","started_at":"2026-11-23T09:00:00+09:00","ended_at":"2026-11-23T09:15:00+09:00","project_tag":"work"}`,
		`{"kind":"calendar_event","title":"Dentist","description":"50% off the cleaning","start_at":"2026-11-24T10:00:00+09:00"}`,
		`{"kind":"task","title":"snake_case names","description":"back\\slash"}`,
		`{"kind":"task","title":"snakeXcase names","description":"5000 off"}`,
		`{"kind":"task","title":"Größe prüfen","description":""}`,
	} {
		create(t, s, body)
	}
}

// TestSearchWords: every word of q must occur, case-insensitively, in the
// title or the description; LIKE's wildcards in q are plain characters; q
// combines with the other filters and pages through its cursor.
func TestSearchWords(t *testing.T) {
	t.Parallel()
	s, _, _ := newService(t, time.Date(2026, 11, 23, 12, 0, 0, 0, seoul))
	searchCorpus(t, s)
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"q=회의", []string{"Weekly", "주간 회의 준비"}},
		{"q=" + url.QueryEscape("회의 준"), []string{"주간 회의 준비"}},     // both words, in the title
		{"q=" + url.QueryEscape("weekly 회의록"), []string{"Weekly"}}, // one in the title, one in the description
		{"q=" + url.QueryEscape("  의록   notes "), []string{"Weekly"}},
		{"q=meeting", []string{"Standup MEETING", "Weekly"}},
		{"q=MEETING&kind=activity_log", []string{"Standup MEETING"}},
		{"q=meeting&project_tag=work", []string{"Standup MEETING"}},
		{"q=" + url.QueryEscape("50%"), []string{"Dentist"}},                 // % is itself, not "anything"
		{"q=" + url.QueryEscape("snake_case"), []string{"snake_case names"}}, // _ is itself
		{"q=" + url.QueryEscape(`k\s`), []string{"snake_case names"}},
		{"q=" + url.QueryEscape("GRÖSSE"), nil}, // ß is not SS: lower() maps letters one to one
		{"q=" + url.QueryEscape("GRÖßE"), []string{"Größe prüfen"}},
		{"q=meeting%20dentist", nil},
		{"q=", []string{"Dentist", "Größe prüfen", "Standup MEETING", "Weekly", "snakeXcase names", "snake_case names", "주간 회의 준비"}},
		{"q=e&limit=1", []string{"Dentist", "Größe prüfen", "Standup MEETING", "Weekly", "snakeXcase names", "snake_case names"}},
	} {
		if got := searchTitles(t, s, c.q); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.q, got, c.want)
		}
	}
	// the cursor is bound to q
	q, err := models.ParseListQuery(models.ListEvents, url.Values{"q": {"e"}, "limit": {"1"}}, seoul)
	if err != nil {
		t.Fatal(err)
	}
	page, err := s.List(context.Background(), q)
	if err != nil || page.NextCursor == nil {
		t.Fatalf("first page: %v %v", page.NextCursor, err)
	}
	_, err = models.ParseListQuery(models.ListEvents, url.Values{"q": {"a"}, "limit": {"1"}, "cursor": {*page.NextCursor}}, seoul)
	var bad *models.BadRequestError
	if !errors.As(err, &bad) || bad.Field != "cursor" {
		t.Errorf("a cursor of q=e with q=a: %v, want a 400 on cursor", err)
	}
	// at most 200 characters, Korean ones counted as one each
	for n, ok := range map[int]bool{200: true, 201: false} {
		_, err := models.ParseListQuery(models.ListEvents, url.Values{"q": {strings.Repeat("회", n)}}, seoul)
		if (err == nil) != ok {
			t.Errorf("q of %d characters: %v", n, err)
		}
	}
}

// TestSearchInCDatabase: an embedded database made before its ctype was
// C.UTF-8 (initdb --locale=C) answers every search as one made now does;
// only its index does not narrow a Korean one.
func TestSearchInCDatabase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := dbtest.NewURL(t)
	db := openURL(t, dsn)
	var ctype string
	if err := db.QueryRowContext(ctx, "SELECT datctype FROM pg_database WHERE datname = current_database()").Scan(&ctype); err != nil {
		t.Fatal(err)
	}
	if ctype != "C.UTF-8" {
		t.Errorf("the test cluster's database has LC_CTYPE %q, want C.UTF-8 as the embedded default's", ctype)
	}
	cDB := otherCtypeDB(t, db, dsn, "C")
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, seoul)
	utf8Svc := app.NewService(db, seoul, func() time.Time { return now })
	cSvc := app.NewService(cDB, seoul, func() time.Time { return now })
	searchCorpus(t, utf8Svc)
	searchCorpus(t, cSvc)
	for _, q := range []string{"회의", "회의 준", "회의록", "weekly 회의록", "MEETING", "50%", "snake_case", "eting", "의"} {
		raw := "q=" + url.QueryEscape(q)
		want, got := searchTitles(t, utf8Svc, raw), searchTitles(t, cSvc, raw)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("%q: C database %q, C.UTF-8 database %q", q, got, want)
		}
	}
}

// otherCtypeDB makes and migrates a database beside db's with LC_CTYPE ctype.
func otherCtypeDB(t *testing.T, db *bun.DB, dsn, ctype string) *bun.DB {
	t.Helper()
	ctx := context.Background()
	var name string
	if err := db.QueryRowContext(ctx, "SELECT current_database()").Scan(&name); err != nil {
		t.Fatal(err)
	}
	other := name + "_ctype_" + strings.ToLower(strings.NewReplacer(".", "", "-", "").Replace(ctype))
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+other+" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE '"+ctype+"'"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+other+" WITH (FORCE)") })
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + other
	out := openURL(t, u.String())
	if err := app.Migrate(ctx, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSearchExplainRealistic: at a realistic size (30,000 events shaped
// like a year of use, then ANALYZE), the planner itself (no setting
// forces it) serves a three-character query of GET /api/events, English
// and Korean, from the trigram index, in the C.UTF-8 database the
// embedded default and the tests now make.
func TestSearchExplainRealistic(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, db, _ := newService(t, time.Date(2026, 11, 23, 12, 0, 0, 0, seoul))
	// A year of a person's days: standups, reviews, errands, in both
	// languages, with now and then something rarer.
	if _, err := db.ExecContext(ctx, `
INSERT INTO events (kind, status, title, description, started_at, ended_at, project_tag)
SELECT 'activity_log', 'done',
       (ARRAY['standup', 'code review', 'gym', '점심 식사', '장보기', '이메일 정리', 'write report', '산책', 'planning', '독서'])[1 + i % 10]
         || ' ' || (ARRAY['monday', 'tuesday', 'after lunch', '오전', '오후', 'week ' || (i % 52)])[1 + i % 6]
         || CASE WHEN i % 97 = 0 THEN ' deploy hotfix' WHEN i % 89 = 0 THEN ' 회의록 공유' ELSE '' END,
       CASE WHEN i % 3 = 0 THEN 'notes ' || md5(i::text) ELSE '' END,
       timestamptz '2025-11-23 09:00+09' + i * interval '17 minutes',
       timestamptz '2025-11-23 09:00+09' + i * interval '17 minutes' + interval '15 minutes',
       (ARRAY['work', 'home', 'health', NULL])[1 + i % 4]
FROM generate_series(1, 30000) i`); err != nil {
		t.Fatal(err)
	}
	// what autovacuum would have done by now: the statistics, and the GIN
	// index's own counts (its metapage), which only VACUUM brings up to date
	if _, err := db.ExecContext(ctx, "VACUUM ANALYZE events"); err != nil {
		t.Fatal(err)
	}
	for _, word := range []string{"dep", "회의록"} {
		q, err := models.ParseListQuery(models.ListEvents, url.Values{"q": {word}}, seoul)
		if err != nil {
			t.Fatal(err)
		}
		sql, args := app.ListSQL(s, q)
		top, plan := explain(t, ctx, db, sql, args...)
		n := top.find("Bitmap Index Scan")
		if n == nil || n.IndexName != "events_search_idx" {
			t.Errorf("q=%s is not served by events_search_idx:\n%s", word, plan)
			continue
		}
		// the index hands the recheck the matching rows, not the table
		var matching float64
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM events e WHERE strpos("+app.SearchExpr+", ?) > 0", word).Scan(&matching); err != nil {
			t.Fatal(err)
		}
		if n.ActualRows > 2*matching {
			t.Errorf("q=%s: the index hands %v of 30000 rows to the recheck for %v matching", word, n.ActualRows, matching)
		}
		page, err := s.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) < 100 {
			t.Errorf("q=%s found %d events, want a full page", word, len(page.Items))
		}
		t.Logf("q=%s: the index handed %v rows to the recheck", word, n.ActualRows)
	}
}
