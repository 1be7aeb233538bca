package handlers

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"html/template"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/template/html/v2"

	"events/app"
	"events/internal/dbtest"
	"events/models"
)

// The rows of a list are drawn by Go (rowhtml.go), not by html/template;
// the golden file testdata/rows.golden.gz holds what the templates drew
// for the corpus below before that change (recorded with -update-rows by
// the template code), so the two are proven byte for byte the same.
var updateRows = flag.Bool("update-rows", false, "record testdata/rows.golden.gz from the current row drawing")

const rowsGolden = "testdata/rows.golden.gz"

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
		corpusTimes(&e, i, loc)
		target := targetSelf
		if pick(7) == 0 {
			target = targetDetail
		}
		r := newRow(&e, loc, models.DayStart(corpusNow, loc, 0), target, corpusMessages[pick(len(corpusMessages))])
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

// corpusHTML draws each row of the corpus alone, then its lifecycle
// buttons and its undo note as the detail section draws them.
func corpusHTML(t testing.TB, draw func(io.Writer, string, rowView) error) []string {
	loc, err := time.LoadLocation("Asia/Seoul")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rowCorpus(loc) {
		for _, part := range []string{"partials/event_row", "partials/ops", "partials/undo_note"} {
			var b bytes.Buffer
			if err := draw(&b, part, r); err != nil {
				t.Fatalf("%s of row %d: %v", part, r.ID, err)
			}
			out = append(out, fmt.Sprintf("== %s %d\n%s\n", part, r.ID, b.String()))
		}
	}
	return out
}

// drawPart draws one part of a row as the pages draw it.
func drawPart(w io.Writer, part string, r rowView) error {
	var h template.HTML
	switch part {
	case "partials/event_row":
		h = rowList{rows: []rowView{r}}.html()
	case "partials/ops":
		h = r.OpsHTML()
	case "partials/undo_note":
		h = r.UndoNoteHTML()
	default:
		return fmt.Errorf("no part %s", part)
	}
	_, err := io.WriteString(w, string(h))
	return err
}

// golden returns what the gzipped file path recorded; with -update-rows it
// records got there first (the code of the moment is then the reference).
func golden(t *testing.T, path string, got []byte) []byte {
	t.Helper()
	if *updateRows {
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		z.Write(got)
		z.Close()
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return got
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	want, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// TestRowHTMLGolden: every row of the corpus, its buttons and its undo note
// are drawn byte for byte as the templates drew them.
func TestRowHTMLGolden(t *testing.T) {
	got := corpusHTML(t, drawPart)
	want := golden(t, rowsGolden, []byte(strings.Join(got, "")))
	parts := strings.SplitAfter(string(want), "\n== ")
	joined := strings.Join(got, "")
	if joined == string(want) {
		return
	}
	gotParts := strings.SplitAfter(joined, "\n== ")
	for i := range min(len(parts), len(gotParts)) {
		if parts[i] != gotParts[i] {
			t.Fatalf("part %d differs:\n got: %s\nwant: %s", i, gotParts[i], parts[i])
		}
	}
	t.Fatalf("%d parts drawn, %d recorded", len(gotParts), len(parts))
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

const listsGolden = "testdata/lists.golden.gz"

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
	engine, err := newEngine(loc, static)
	if err != nil {
		t.Fatal(err)
	}
	return engine, loc
}

// TestListHTMLGolden: the Today tab (its five sections) and a list tab,
// each over every event of the row corpus, are drawn byte for byte as
// before rows were joined in Go (testdata/lists.golden.gz, recorded with
// -update-rows from the code of that time).
func TestListHTMLGolden(t *testing.T) {
	engine, loc := testEngine(t)
	var events []models.Event
	for _, r := range rowCorpus(loc) {
		events = append(events, *r.Event)
	}
	today := models.DayStart(corpusNow, loc, 0)
	// draw renders the two tabs, their rows drawn in place (slots nil) or
	// spliced in after the template (splice.go), as the answers do.
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
	inPlace := draw(nil)
	want := golden(t, listsGolden, inPlace)
	for _, how := range []struct {
		name string
		got  []byte
	}{{"drawn in place", inPlace}, {"spliced", draw(&rowSlots{})}} {
		got := string(how.got)
		if got == string(want) {
			continue
		}
		i := 0
		for i < min(len(got), len(want)) && got[i] == want[i] {
			i++
		}
		t.Fatalf("the lists %s differ at byte %d of %d (want %d):\n got: %q\nwant: %q", how.name, i, len(got), len(want),
			got[max(0, i-200):min(len(got), i+200)], want[max(0, i-200):min(len(want), i+200)])
	}
}

// TestSpliceMarkerInText: a stored text that reads like a row marker is
// printed as text, escaped, and a marker that names no list is an error,
// not a page with a hole in it.
func TestSpliceMarkerInText(t *testing.T) {
	engine, loc := testEngine(t)
	marker := slotOpen + "0" + slotClose
	var slots rowSlots
	row := newRow(&models.Event{ID: 7, Kind: models.KindTask, Status: models.StatusPlanned, Title: marker}, loc, corpusNow, targetSelf, "")
	view := searchPage{chrome: chrome{Title: marker, Zone: "Asia/Seoul"}, Q: marker, Searched: true, Count: 1,
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
