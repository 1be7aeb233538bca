// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"bytes"
	"flag"
	"fmt"
	"html/template"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/template/html/v2"

	"events/app"
	"events/internal/dbtest"
	"events/internal/i18n"
	"events/models"
)

// The row template (views/partials/event_row, with partials/ops and
// partials/undo_note) is the one reference of a row's markup; lists draw
// their rows with Go (rowhtml.go) for speed. TestRowTemplateIsGoWriter
// draws the same view models both ways and compares them byte for byte;
// testdata/rows.html holds a few rows drawn by the template, so that a
// change of the markup shows in review (re-recorded with -update-rows).
var updateRows = flag.Bool("update-rows", false, "record testdata/rows.html from the row template")

const rowsGolden = "testdata/rows.html"

// corpusNow is the corpus's clock: Monday 23 November 2026, 14:30 in Seoul.
var corpusNow = time.Date(2026, 11, 23, 14, 30, 0, 0, time.FixedZone("KST", 9*3600)).UTC()

var corpusTitles = []string{
	"", "Write the report", "Fix <b>bold</b> & \"quotes\" 'single' a+b=c",
	"회의 준비하기: 분기 보고서", "invoice \u202egpj.exe", "مرحبا بالعالم عنوان", "NUL\x00in title",
	strings.Repeat("A very long title that goes on and on ", 12), "  spaces  around  ", "tab\tand\nnewline",
	"emoji 🎉 and ‮ mixed \u2066isolate\u2069", "<script>alert(1)</script>", "javascript:alert(1)", "%20 encoded %zz",
}

var corpusTags = []*string{nil, ptr("work"), ptr("home"), ptr("한국어"), ptr("a b+c&d"), ptr("x\"y'<z>"), ptr("프로젝트-1"), ptr("%2F/?#")}

var corpusMessages = []string{"", "", "", "This event changed elsewhere since this page drew it, so nothing was done; it is shown as it is now.", "A done event cannot be deferred <now> & \"then\""}
var corpusNotes = []string{"", "", "", "Read as: a task due tomorrow 09:00, high priority, #work", "읽음: 내일 오전 9시 <b>"}
var corpusUndo = []string{"", "", "Completed", "Cancelled", "Deferred until tomorrow 09:00", "Deferred until Mon 30 Nov, 09:00"}

func ptr[T any](v T) *T { return &v }

// corpusTimes sets one situation in time of an event of its kind, relative
// to the corpus's clock: i picks which.
func corpusTimes(e *models.Event, i int, loc *time.Location) {
	now := corpusNow
	day := models.DayStart(now, loc, 0)
	at := func(days int, h, m int) *time.Time {
		t := models.DayStart(now, loc, days).Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)
		return &t
	}
	dayOnly := func(days int) *time.Time {
		l := day.In(loc).AddDate(0, 0, days)
		t := models.EndOfDay(l.Year(), l.Month(), l.Day(), loc)
		return &t
	}
	switch e.Kind {
	case models.KindTask:
		switch i % 12 {
		case 1:
			e.DueAt = at(0, 17, 0)
		case 2:
			e.DueAt = dayOnly(0)
		case 3:
			e.DueAt = at(-1, 9, 0) // overdue when open
		case 4:
			e.DueAt = at(1, 9, 30)
		case 5:
			e.DueAt = at(3, 8, 0)
		case 6:
			e.DueAt = at(60, 8, 0) // next year
		case 7:
			e.StartAt = at(0, 16, 0)
		case 8:
			e.DueAt = at(0, 10, 0) // earlier today: past when open
		case 9:
			e.DueAt = dayOnly(-3)
		case 10:
			e.DueAt = at(-400, 12, 0)
		case 11:
			e.DueAt = dayOnly(5)
		}
	case models.KindCalendarEvent:
		switch i % 12 {
		case 0, 1:
			e.StartAt, e.EndAt = at(0, 15, 0), at(0, 16, 30)
		case 2:
			e.StartAt, e.EndAt = at(0, 23, 0), at(1, 1, 0) // over midnight
		case 3:
			e.StartAt, e.AllDay = at(0, 0, 0), true
		case 4:
			e.StartAt, e.EndAt, e.AllDay = at(1, 0, 0), at(4, 0, 0), true
		case 5:
			e.StartAt, e.EndAt = at(0, 9, 0), at(0, 10, 0) // past
		case 6:
			e.StartAt = at(0, 11, 0) // no end, past
		case 7:
			e.StartAt = at(2, 11, 0)
		case 8:
			e.StartAt, e.AllDay = at(-1, 0, 0), true
		case 9:
			e.StartAt, e.EndAt = at(-30, 9, 0), at(-29, 9, 0)
		case 10:
			e.StartAt, e.EndAt = at(200, 9, 0), at(200, 9, 45)
		case 11:
			e.StartAt, e.EndAt = at(0, 14, 0), at(0, 15, 0) // under way
		}
	case models.KindActivityLog:
		switch i % 12 {
		case 0, 1:
			e.StartedAt, e.EndedAt = at(0, 9, 0), at(0, 10, 15)
		case 2:
			e.StartedAt = at(0, 14, 29) // running, just started
		case 3:
			e.StartedAt = at(0, 12, 5) // running
		case 4:
			e.StartedAt = at(-1, 10, 0) // running since yesterday
		case 5:
			e.StartedAt, e.EndedAt = at(0, 11, 0), at(0, 11, 0) // zero length
		case 6:
			e.EndedAt = at(0, 8, 0)
		case 7:
			e.StartedAt, e.EndedAt = at(-1, 23, 0), at(0, 1, 30)
		case 8:
			e.StartedAt = at(0, 13, 0)
			t := e.StartedAt.Add(20 * time.Second) // under a minute
			e.EndedAt = &t
		case 9:
			e.StartedAt, e.EndedAt = at(-2, 9, 0), at(-2, 12, 0)
		case 10:
			e.StartedAt, e.EndedAt = at(0, 6, 0), at(0, 13, 59)
		case 11:
			e.StartedAt = at(0, 14, 31) // starts in the future
		}
	}
	if e.Status == models.StatusDeferred && i%3 != 2 {
		t := *at(i%4, 9, 0)
		e.DeferUntil = &t
	}
	if e.Status == models.StatusDone {
		e.CompletedAt = at(0, 12, 0)
	}
}

// rowCorpus is a few thousand rows of every kind, status, undo step and
// time situation, with titles, tags, priorities, messages, capture notes,
// undo notes and both targets spread over them.
func rowCorpus(loc *time.Location) []rowView {
	var out []rowView
	rng := rand.New(rand.NewPCG(16, 3))
	updated := corpusNow.Add(-time.Hour)
	add := func(i int, k models.Kind, s models.Status, undo *models.Status, pick func(n int) int) {
		e := models.Event{ID: int64(1000 + len(out)), Kind: k, Status: s, UndoStatus: undo,
			Title: corpusTitles[pick(len(corpusTitles))], ProjectTag: corpusTags[pick(len(corpusTags))],
			Priority: pick(4), CreatedAt: updated, UpdatedAt: updated.Add(time.Duration(len(out)) * 1234567 * time.Nanosecond)}
		// labels and a place on some rows: names with spaces, Hangul and
		// characters the writer escapes
		if n := pick(4); n > 0 {
			e.Labels = [][]string{{"회의"}, {"client acme", "a&b <c>"}, {"email", "독서", "x\"y"}}[n-1]
		}
		if pick(3) == 0 && k != models.KindActivityLog {
			place := [...]string{"3층 회의실", "Café \"Nord\" & <co>"}[pick(2)]
			e.Location = &place
		}
		target := targetSelf
		if pick(7) == 0 {
			target = targetDetail
		}
		fillOtherFields(&e, rng.IntN)
		r := corpusRow(e, i, loc, target, corpusMessages[pick(len(corpusMessages))])
		r.Note = corpusNotes[pick(len(corpusNotes))]
		r.UndoNote = corpusUndo[pick(len(corpusUndo))]
		r.markPast(corpusNow)
		out = append(out, r)
	}
	i := 0
	for _, k := range models.Kinds {
		for _, s := range models.Statuses {
			for _, undo := range []*models.Status{nil, ptr(models.StatusPlanned)} {
				for tc := 0; tc < 12; tc++ {
					n := i
					add(tc, k, s, undo, func(m int) int { n = n*7 + 3; return n % m })
					i++
				}
			}
		}
	}
	for j := 0; j < 1500; j++ {
		k := models.Kinds[rng.IntN(len(models.Kinds))]
		s := models.Statuses[rng.IntN(len(models.Statuses))]
		var undo *models.Status
		if rng.IntN(2) == 0 {
			undo = ptr(models.Statuses[rng.IntN(len(models.Statuses))])
		}
		add(rng.IntN(12), k, s, undo, rng.IntN)
	}
	return out
}

// rowOwnFields are the fields the corpus sets by its own rules: the kind,
// the status, the undo step, the flags' title, tag and priority, the
// times of its time situations, and the row's identity.
var rowOwnFields = map[string]bool{"id": true, "kind": true, "status": true, "reactivate_to": true,
	"title": true, "project_tag": true, "priority": true, "created_at": true, "updated_at": true}

// fillOtherFields gives every other field of the table that e's kind
// carries a value picked by pick (texts from the corpus's hostile, Korean
// and bidi titles), so that a field drawn by the template and not by Go,
// or the other way round, makes the two rows differ: a field added to the
// table is in the corpus without an edit here. Times are the time
// situations' (corpusTimes), and left alone.
func fillOtherFields(e *models.Event, pick func(n int) int) {
	for i := range models.EventFields {
		f := &models.EventFields[i]
		if rowOwnFields[f.Name] || !f.Stored() || !f.ForKind(e.Kind) || f.Type == models.TypeTime || pick(4) == 0 {
			continue // and a quarter of the rows keep the field empty
		}
		switch f.Type {
		case models.TypeText:
			v := corpusTitles[1+pick(len(corpusTitles)-1)]
			if f.Name == "zone" {
				v = "Asia/Seoul"
			}
			f.SetText(e, &v)
		case models.TypeEnum:
			v := f.Values[pick(len(f.Values))]
			f.SetText(e, &v)
		case models.TypeBool:
			if e.Kind != models.KindCalendarEvent || f.Name != "all_day" {
				f.SetBool(e, true)
			}
		case models.TypeInt:
			f.SetInt(e, int64(f.Min+pick(max(f.Max-f.Min, 1)+1)))
		case models.TypeLabels:
			f.SetLabels(e, []string{*corpusTags[1+pick(len(corpusTags)-1)], "회의"})
		}
	}
}

// corpusRow is e, placed in time by corpusTimes(i), as a row of a list at
// the corpus's clock whose buttons answer into target; the caller sets its
// notes, then marks it past (markPast) as a list does.
func corpusRow(e models.Event, i int, loc *time.Location, target, message string) rowView {
	corpusTimes(&e, i, loc)
	return newRow(&e, loc, models.DayStart(corpusNow, loc, 0), target, message)
}

// rowFlags are the parts a row may hold or not, besides its kind, status,
// undo step and time.
type rowFlags uint16

const (
	flagTitle    rowFlags = 1 << iota // a title, else "(untitled)"
	flagTag                           // a project tag
	flagPriority                      // a priority
	flagMessage                       // a message, such as why a change was refused
	flagNote                          // a capture note (a new row)
	flagUndoNote                      // the undo note after an operation
	flagDetail                        // its buttons answer into the detail section
	flagFix                           // a new log's move before the logs it overlaps
	allFlags     = 1<<iota - 1
)

var flagNames = []string{"title", "tag", "priority", "message", "note", "undo note", "detail target", "overlap fix"}

func (f rowFlags) String() string {
	var names []string
	for i, name := range flagNames {
		if f&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "no flag"
	}
	return strings.Join(names, ", ")
}

// flagRow is a row of kind k in status s, with an undo step or not, at the
// time situation i of its kind (corpusTimes), holding what flags say; n
// picks which title, tag, priority and texts among the corpus's (hostile,
// Korean, Arabic and bidi-control ones among them), and is its id.
func flagRow(n int, k models.Kind, s models.Status, undo bool, i int, flags rowFlags, loc *time.Location) rowView {
	at := corpusNow.Add(-time.Hour)
	e := models.Event{ID: int64(n), Kind: k, Status: s, CreatedAt: at, UpdatedAt: at.Add(time.Duration(n) * 7654321 * time.Nanosecond)}
	if undo {
		e.UndoStatus = ptr(models.StatusPlanned)
	}
	nonEmpty := func(list []string) string { // the corpus's lists start with ""
		var texts []string
		for _, t := range list {
			if t != "" {
				texts = append(texts, t)
			}
		}
		return texts[n%len(texts)]
	}
	fillOtherFields(&e, func(m int) int { return (n / 7) % m })
	if flags&flagTitle != 0 {
		e.Title = nonEmpty(corpusTitles)
	}
	if flags&flagTag != 0 {
		e.ProjectTag = corpusTags[1+n%(len(corpusTags)-1)]
	}
	if flags&flagPriority != 0 {
		e.Priority = 1 + n%3
	}
	target, message := targetSelf, ""
	if flags&flagDetail != 0 {
		target = targetDetail
	}
	if flags&flagMessage != 0 {
		message = nonEmpty(corpusMessages)
	}
	r := corpusRow(e, i, loc, target, message)
	if flags&flagNote != 0 {
		r.Note = nonEmpty(corpusNotes)
		r.Added = n%3 != 0 // a line's answer: a calendar entry's offers its undo
	}
	if flags&flagUndoNote != 0 {
		r.UndoNote = nonEmpty(corpusUndo)
	}
	if flags&flagFix != 0 {
		// an overlap mark: 1 to 5 logs (the fifth makes "and 2 more"),
		// titled from the corpus, with and without the move before them,
		// on a create's answer and on a row read
		o := &app.Overlapping{}
		for k := range 1 + n%5 {
			o.Overlaps = append(o.Overlaps, models.Overlap{ID: int64(k + 1), Title: corpusTitles[(n+k)%len(corpusTitles)], Seconds: int64(1 + (n*37+k)%9000)})
		}
		if n%3 != 0 {
			o.Before = &app.Span{Start: at.Add(-time.Duration(n%90) * time.Minute), End: at}
		}
		r.Overlaps, r.Added = o, n%2 == 0
	}
	r.markPast(corpusNow)
	return r
}

// flagRows are a row of every kind and status, with and without an undo
// step, for every combination of flags (3 × 7 × 2 × 128), their time
// situations taken in turn.
func flagRows(loc *time.Location) []rowView {
	var out []rowView
	n := 100000
	for _, k := range models.Kinds {
		for _, s := range models.Statuses {
			for _, undo := range []bool{false, true} {
				for f := rowFlags(0); f <= allFlags; f++ {
					out = append(out, flagRow(n, k, s, undo, n%12, f, loc))
					n++
				}
			}
		}
	}
	return out
}

// goldenRow is one row of testdata/rows.html and what it holds.
type goldenRow struct {
	about string
	row   rowView
}

// goldenRows are one row of each kind and status, as a list draws it, the
// one of an open task overdue and one untitled: each with a title, a tag
// and a priority, and in turn a message, a capture note or an undo note;
// done, cancelled and deferred rows have an undo step.
func goldenRows(loc *time.Location) []goldenRow {
	var out []goldenRow
	j := 0
	for _, k := range models.Kinds {
		for _, s := range models.Statuses {
			flags := flagTitle | flagTag | flagPriority | []rowFlags{0, flagMessage, flagNote, flagUndoNote}[j%4]
			if j == 1 {
				flags &^= flagTitle
			}
			if j%5 == 4 {
				flags |= flagDetail
			}
			undo := s == models.StatusDone || s == models.StatusCancelled || s == models.StatusDeferred
			i := (j*5 + 3) % 12
			r := flagRow(10+j, k, s, undo, i, flags, loc)
			step := "no undo step"
			if undo {
				step = "an undo step"
			}
			out = append(out, goldenRow{fmt.Sprintf("%s %s, %s, time situation %d: %s", k, s, step, i, flags), r})
			j++
		}
	}
	return out
}

// TestRowTemplateIsGoWriter: the Go writer draws every row, its buttons
// (the detail section's OpsHTML) and its undo note (UndoNoteHTML) byte for
// byte as the row template does (partials/event_row, partials/ops,
// partials/undo_note), over a row of every kind, status and undo step
// with every combination of flags, the 2,004 rows of the corpus (every
// time situation of each kind, hostile titles and tags) and the rows of
// testdata/rows.html.
func TestRowTemplateIsGoWriter(t *testing.T) {
	engine, loc := testEngine(t)
	rows := append(flagRows(loc), rowCorpus(loc)...)
	about := map[int64]string{}
	for _, g := range goldenRows(loc) {
		rows = append(rows, g.row)
		about[g.row.ID] = g.about
	}
	parts := []struct {
		name string
		draw func(r rowView) string
	}{
		{"partials/event_row", func(r rowView) string { return string(rowList{rows: []rowView{r}}.html()) }},
		{"partials/ops", func(r rowView) string { return string(r.OpsHTML()) }},
		{"partials/undo_note", func(r rowView) string { return string(r.UndoNoteHTML()) }},
	}
	bad := 0
	for _, r := range rows {
		for _, p := range parts {
			var b bytes.Buffer
			if err := engine.Render(&b, p.name, r); err != nil {
				t.Fatalf("%s of row %d: %v", p.name, r.ID, err)
			}
			want, got := b.String(), p.draw(r)
			if got == want {
				continue
			}
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s of row %d (%s %s, %s) differs from the template at byte %d:\n  go: %q\ntmpl: %q",
				p.name, r.ID, r.Kind, r.Status, about[r.ID], i, got[max(0, i-80):min(len(got), i+80)], want[max(0, i-80):min(len(want), i+80)])
			if bad++; bad == 10 {
				t.Fatal("and more")
			}
		}
	}
	t.Logf("%d view models drawn both ways (row, buttons, undo note)", len(rows))
}

// rowLines breaks a drawn row into lines for reading: before its blocks,
// its buttons and its empty button slots, and before its end.
var rowLines = strings.NewReplacer(`<div `, "\n  <div ", `<p `, "\n  <p ", `<button type="button" class="op `, "\n    <button type=\"button\" class=\"op ",
	`<details `, "\n    <details ", `<span class="op-slot">`, "\n    <span class=\"op-slot\">", `</li>`, "\n</li>")

// TestRowGolden: the rows of testdata/rows.html, one of each kind and
// status, are what the row template draws. A deliberate change of the
// row's markup re-records the file (go test ./handlers -run TestRowGolden
// -update-rows), and the change reads in its diff.
func TestRowGolden(t *testing.T) {
	engine, loc := testEngine(t)
	var b bytes.Buffer
	b.WriteString("<!-- One row of each kind and status as the row template draws it (views/partials/event_row.html), drawn at Mon 23 Nov 2026 14:30 in Asia/Seoul by TestRowGolden in rowhtml_internal_test.go and recorded with -update-rows. For reading, each row is broken into lines before its blocks and buttons: the row itself has no line breaks. -->\n")
	for _, g := range goldenRows(loc) {
		var row bytes.Buffer
		if err := engine.Render(&row, "partials/event_row", g.row); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "\n<!-- %s -->\n%s\n", g.about, rowLines.Replace(row.String()))
	}
	if *updateRows {
		if err := os.WriteFile(rowsGolden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(rowsGolden)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.SplitAfter(b.String(), "\n")
	lines := strings.SplitAfter(string(want), "\n")
	for i := range min(len(got), len(lines)) {
		if got[i] != lines[i] {
			t.Fatalf("%s:%d differs:\n got: %s\nwant: %s", rowsGolden, i+1, got[i], lines[i])
		}
	}
	if len(got) != len(lines) {
		t.Fatalf("%d lines drawn, %d recorded in %s", len(got), len(lines), rowsGolden)
	}
}

// TestRowETagWhereItWrites: a drawn row carries its event's validator
// (data-etag, which app.js sends as If-Match) exactly when it holds a
// control that posts a change of the event, a lifecycle button or the undo
// button, and then the validator is the event's current ETag.
func TestRowETagWhereItWrites(t *testing.T) {
	loc, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	var with, without int
	for _, r := range rowCorpus(loc) {
		h := string(rowList{rows: []rowView{r}}.html())
		posts := strings.Contains(h, "hx-post=") || strings.Contains(h, "data-defer-post=")
		tag := `data-etag="` + strings.ReplaceAll(app.ETag(*r.Event), `"`, "&#34;") + `"`
		switch {
		case posts && !strings.Contains(h, tag):
			t.Errorf("row %d posts a change but carries no %s: %s", r.ID, tag, h)
		case !posts && strings.Contains(h, "data-etag"):
			t.Errorf("row %d posts nothing but carries a validator: %s", r.ID, h)
		case posts:
			with++
		default:
			without++
		}
	}
	if with == 0 || without == 0 {
		t.Fatalf("the corpus drew %d rows with a write and %d without; want both", with, without)
	}
}

// BenchmarkRowCold draws list rows that were never drawn before: each op
// draws the whole corpus as a list shows it (no message, no undo note),
// into one piece of HTML as a list page does, and the figures are per row.
// html/template took about 90 µs and 512 allocations a row on the same
// corpus, and a hit of the row cache that hid it about 1.5 µs (README,
// Performance).
func BenchmarkRowCold(b *testing.B) {
	loc, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		b.Fatal(err)
	}
	rows := rowCorpus(loc)
	for i := range rows {
		rows[i].Message, rows[i].Note, rows[i].UndoNote, rows[i].Target = "", "", "", targetSelf
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu := dbtest.ProcessCPU()
	for b.Loop() {
		if h := (rowList{rows: rows, after: "\n"}).html(); len(h) < 300*len(rows) {
			b.Fatal(len(h))
		}
	}
	n := float64(b.N) * float64(len(rows))
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/row")
	b.ReportMetric(float64(dbtest.ProcessCPU()-cpu)/n, "cpu-ns/row")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/row")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/n, "B/row")
}

// testEngine is the service's templates, in Asia/Seoul.
func testEngine(t *testing.T) (*html.Engine, *time.Location) {
	t.Helper()
	static, err := embeddedAssets()
	if err != nil {
		t.Fatal(err)
	}
	loc, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	engine, err := newEngine(i18n.English, loc, static)
	if err != nil {
		t.Fatal(err)
	}
	return engine, loc
}

// TestListSplicedAsDrawnInPlace: the Today tab (its five sections) and a
// list tab, each over every event of the row corpus, are the same page
// whether their rows are drawn in place (into the template.HTML the
// template prints) or spliced in at their markers after the template
// (splice.go), as the answers do.
func TestListSplicedAsDrawnInPlace(t *testing.T) {
	engine, loc := testEngine(t)
	var events []models.Event
	for _, r := range rowCorpus(loc) {
		events = append(events, *r.Event)
	}
	today := models.DayStart(corpusNow, loc, 0)
	draw := func(slots *rowSlots) []byte {
		var b bytes.Buffer
		view := newTabbed(tabs[0], "", "/api/events/today?cursor=x")
		view.Sections = todaySectionsAt(slots, events, loc, today, corpusNow)
		if err := engine.Render(&b, "partials/tabbed", view); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n== a list tab\n")
		list := newTabbed(tabs[1], "", "/api/events/inbox?cursor=x")
		list.List.Rows = rowsAt(slots, events, loc, today, corpusNow)
		if err := engine.Render(&b, "partials/tabbed", list); err != nil {
			t.Fatal(err)
		}
		if slots == nil {
			return b.Bytes()
		}
		if len(slots.lists) != 6 {
			t.Fatalf("%d lists placed, want 6 (five sections and a list)", len(slots.lists))
		}
		out, err := slots.splice(nil, b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	want, got := string(draw(nil)), string(draw(&rowSlots{}))
	if n := strings.Count(want, `<li class="event-row"`); n != 2*len(events) {
		t.Fatalf("%d rows drawn in place, want %d (every event on each tab)", n, 2*len(events))
	}
	if got == want {
		return
	}
	i := 0
	for i < min(len(got), len(want)) && got[i] == want[i] {
		i++
	}
	t.Fatalf("the lists spliced differ at byte %d of %d (drawn in place %d):\n got: %q\nwant: %q", i, len(got), len(want),
		got[max(0, i-200):min(len(got), i+200)], want[max(0, i-200):min(len(want), i+200)])
}

// TestSpliceMarkerInText: a stored text that reads like a row marker is
// printed as text, escaped, and a marker that names no list is an error,
// not a page with a hole in it.
func TestSpliceMarkerInText(t *testing.T) {
	engine, loc := testEngine(t)
	marker := slotOpen + "0" + slotClose
	var slots rowSlots
	row := newRow(&models.Event{ID: 7, Kind: models.KindTask, Status: models.StatusPlanned, Title: marker}, loc, corpusNow, targetSelf, "")
	view := searchPage{chrome: chrome{Title: marker, Zone: "Asia/Seoul", Skip: skipToContent}, Q: marker, Searched: true, Count: 1,
		List: listView{Rows: slots.place([]rowView{row}, "", "\n")}}
	var b bytes.Buffer
	if err := engine.Render(&b, "pages/search", view); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), slotOpen); n != 1 {
		t.Fatalf("%d markers in the rendered page, want the one placed", n)
	}
	out, err := slots.splice(nil, b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	page := string(out)
	if strings.Contains(page, slotOpen) || !strings.Contains(page, `id="event-7"`) ||
		!strings.Contains(page, "&lt;!--rows 0--&gt;") {
		t.Fatalf("the page lost a row or printed a marker:\n%s", page)
	}
	if _, err := (&rowSlots{}).splice(nil, b.Bytes()); err == nil {
		t.Fatal("a marker naming no list was spliced")
	}
}

// TestAppendEscapedIsHTMLTemplates: for 20,000 random strings of quotes,
// ampersands, pluses, angle brackets, NUL, Korean, bidi controls,
// non-characters and invalid UTF-8, appendEscaped gives what html/template
// gives in text and in a quoted attribute value.
func TestAppendEscapedIsHTMLTemplates(t *testing.T) {
	tmpl := template.Must(template.New("t").Parse(`<p title="{{.}}" data-x="{{.}}" aria-label="a {{.}}">{{.}}</p>`))
	pieces := []string{"a", " ", "\"", "'", "&", "+", "<", ">", "\x00", "=", "`", "#", "%", "/", "?", ";",
		"회", "의", "\u202e", "\u2066", "\ufdd0", "\ufffe", "\uffff", "🎉", "\xff", "\xc0", "\xe2\x80", "\t", "\n", "&amp;"}
	rng := rand.New(rand.NewPCG(3, 16))
	for range 20000 {
		var s strings.Builder
		for range rng.IntN(12) {
			s.WriteString(pieces[rng.IntN(len(pieces))])
		}
		var want bytes.Buffer
		if err := tmpl.Execute(&want, s.String()); err != nil {
			t.Fatal(err)
		}
		e := string(appendEscaped(nil, s.String()))
		got := `<p title="` + e + `" data-x="` + e + `" aria-label="a ` + e + `">` + e + `</p>`
		if got != want.String() {
			t.Fatalf("%q:\n got %q\nwant %q", s.String(), got, want.String())
		}
	}
}
