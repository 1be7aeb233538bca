// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/template/html/v2"

	"events/models"
)

// TestRowShowsWhatTheTableSays: every field of the table says how a list
// row shows it (models.RowPart), and both writers of the row hold to it.
// A field the table puts on the row changes what the row template draws
// and what the Go writer draws, for some row of the base set below; a
// field the table leaves off changes neither. Each failure names the file
// to edit.
func TestRowShowsWhatTheTableSays(t *testing.T) {
	engine, loc := testEngine(t)
	base := rowFieldBase(loc)
	for i := range models.EventFields {
		f := &models.EventFields[i]
		if f.Row == models.RowUndeclared {
			t.Errorf("%s: models/fields.go does not say whether a list row shows it: give its line .onRow(), .rowText(label) or .offRow()", f.Name)
			continue
		}
		if f.Type == models.TypeDate {
			if f.Row != models.RowOff {
				t.Errorf("%s is computed from the times (models/fields.go): a row shows those, so say .offRow()", f.Name)
			}
			continue
		}
		if f.Row == models.RowText && f.Type != models.TypeText {
			t.Errorf("%s: models/fields.go says .rowText, which draws a text, of a field that is no text", f.Name)
			continue
		}
		tmpl, goWriter := rowChanges(t, engine, loc, base, f)
		shown := f.Row != models.RowOff
		switch {
		case shown && !tmpl:
			t.Errorf("%s: models/fields.go says a list row shows it, but the row template views/partials/event_row.html does not draw it (changing it changes no row)", f.Name)
		case !shown && tmpl:
			t.Errorf("%s: models/fields.go says a list row does not show it (.offRow()), but the row template views/partials/event_row.html draws it", f.Name)
		}
		switch {
		case shown && !goWriter:
			t.Errorf("%s: models/fields.go says a list row shows it, but the row's Go writer handlers/rowhtml.go (appendRow) does not draw it (changing it changes no row)", f.Name)
		case !shown && goWriter:
			t.Errorf("%s: models/fields.go says a list row does not show it (.offRow()), but the row's Go writer handlers/rowhtml.go (appendRow) draws it", f.Name)
		}
	}
}

// rowFieldBase are the events the row test changes a field of: every
// kind, status and time situation (corpusTimes), with and without an undo
// step, every field the kind carries filled in (fillOtherFields), a
// title, a tag and a priority.
func rowFieldBase(loc *time.Location) []models.Event {
	var out []models.Event
	at := corpusNow.Add(-time.Hour)
	for _, k := range models.Kinds {
		for _, s := range models.Statuses {
			for _, undo := range []*models.Status{nil, ptr(models.StatusPlanned)} {
				for i := 0; i < 12; i++ {
					e := models.Event{ID: int64(500 + len(out)), Kind: k, Status: s, UndoStatus: undo,
						Title: "회의 준비 <b>", ProjectTag: ptr("work"), Priority: 2, CreatedAt: at, UpdatedAt: at}
					fillOtherFields(&e, func(n int) int { return 1 % n })
					corpusTimes(&e, i, loc)
					out = append(out, e)
				}
			}
		}
	}
	return out
}

// rowChanges reports whether changing f (rowFieldChange) changes the row
// the template draws, and the row the Go writer draws, for some event of
// base. The event is changed in place and put back, so that a field whose
// value lives outside Event (models.AddThrowAwayField) is changed too.
func rowChanges(t *testing.T, engine *html.Engine, loc *time.Location, base []models.Event, f *models.Field) (tmpl, goWriter bool) {
	t.Helper()
	today := models.DayStart(corpusNow, loc, 0)
	draw := func(e *models.Event) (string, string) {
		r := newRow(e, loc, today, targetSelf, "")
		r.markPast(corpusNow)
		var b bytes.Buffer
		if err := engine.Render(&b, "partials/event_row", r); err != nil {
			t.Fatalf("the row template, %s changed: %v", f.Name, err)
		}
		return b.String(), string(rowList{rows: []rowView{r}}.html())
	}
	for i := range base {
		e := &base[i]
		if !f.ForKind(e.Kind) {
			continue
		}
		tmplBefore, goBefore := draw(e)
		undo := rowFieldChange(f, e)
		tmplAfter, goAfter := draw(e)
		undo()
		tmpl = tmpl || tmplAfter != tmplBefore
		goWriter = goWriter || goAfter != goBefore
		if tmpl && goWriter {
			return
		}
	}
	return
}

// rowFieldChange gives e another value of f and returns what puts the old
// one back: another text, enum value, whole number within the field's
// bounds or set of labels; a time a day and some minutes later (or one
// where there was none); the other truth value.
func rowFieldChange(f *models.Field, e *models.Event) (undo func()) {
	switch f.Type {
	case models.TypeText, models.TypeEnum:
		old, ok := f.Text(e)
		v := "바뀐 text & <changed>"
		if f.Type == models.TypeEnum {
			v = f.Values[0]
			if old == v {
				v = f.Values[1]
			}
		}
		f.SetText(e, &v)
		return func() {
			if !ok {
				f.SetText(e, nil)
				return
			}
			f.SetText(e, &old)
		}
	case models.TypeTime:
		old := f.Time(e)
		v := corpusNow.Add(26 * time.Hour)
		if old != nil {
			v = old.Add(25*time.Hour + 7*time.Minute)
		}
		f.SetTime(e, &v)
		return func() { f.SetTime(e, old) }
	case models.TypeBool:
		old := f.Bool(e)
		f.SetBool(e, !old)
		return func() { f.SetBool(e, old) }
	case models.TypeInt:
		old := f.Int(e)
		v := old + 1
		if f.Max > f.Min {
			v = int64(f.Min)
			if old == v {
				v = int64(f.Max)
			}
		}
		f.SetInt(e, v)
		return func() { f.SetInt(e, old) }
	case models.TypeLabels:
		old := f.Labels(e)
		f.SetLabels(e, []string{"바뀐", "changed"})
		return func() { f.SetLabels(e, old) }
	}
	panic("rowFieldChange: a field of type " + f.Name)
}

// TestThrowAwayFieldReachesTheRow: the recipe for a field a list row shows
// as a text (docs/contributing.md, Adding a field) holds. A throw-away
// field added as one line of the table (models.AddThrowAwayField, which
// says .rowText) is drawn, escaped, after its label on the row of a task
// and of a calendar entry (the kinds that carry it: validation keeps it
// off a log), by the row template and the Go writer alike, with no edit
// of either writer.
func TestThrowAwayFieldReachesTheRow(t *testing.T) {
	remove := models.AddThrowAwayField("scratch_place", "Scratch place", models.KindTask, models.KindCalendarEvent)
	t.Cleanup(remove)
	engine, loc := testEngine(t)
	var f *models.Field
	for i := range models.EventFields {
		if models.EventFields[i].Name == "scratch_place" {
			f = &models.EventFields[i]
		}
	}
	if f == nil || f.Row != models.RowText {
		t.Fatalf("the throw-away field is not in the table as a text of the row: %+v", f)
	}
	if tmpl, goWriter := rowChanges(t, engine, loc, rowFieldBase(loc), f); !tmpl || !goWriter {
		t.Errorf("changing the throw-away field changes the template's row: %v, the Go writer's: %v; want both", tmpl, goWriter)
	}
	const want = `<span class="scratch_place"><span class="visually-hidden">Place: </span>3층 &lt;회의실&gt;</span>`
	for i, k := range f.Kinds {
		e := models.Event{ID: int64(70 + i), Kind: k, Status: models.StatusPlanned, Title: "t", CreatedAt: corpusNow, UpdatedAt: corpusNow}
		v := "3층 <회의실>"
		f.SetText(&e, &v)
		r := corpusRow(e, 1, loc, targetSelf, "")
		var b bytes.Buffer
		if err := engine.Render(&b, "partials/event_row", r); err != nil {
			t.Fatal(err)
		}
		tmpl, goWriter := b.String(), string(rowList{rows: []rowView{r}}.html())
		if tmpl != goWriter {
			t.Errorf("%s: the Go writer's row differs from the template's:\n  go: %s\ntmpl: %s", k, goWriter, tmpl)
		}
		if !strings.Contains(tmpl, want) {
			t.Errorf("%s: the row lacks %s:\n%s", k, want, tmpl)
		}
	}
}
