// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"fmt"
	"time"

	"events/internal/i18n"
	"events/models"
)

// historyView is the history timeline of one event, a page of it at a
// time: More is the address of the next page, "" at its end.
type historyView struct {
	ID    int64 // the event's
	Items []models.History
	Loc   *time.Location
	More  string
	L     *i18n.Lang // the page's language (set by page); nil is English
}

type historyRow struct {
	models.History
	At      localTime
	Summary string
	loc     *time.Location
	l       *i18n.Lang
}

// Rows are the history rows with their times in the page's zone; a
// change's summary is change_ and its kind in the catalogue.
func (v historyView) Rows() []historyRow {
	l := v.L
	if l == nil {
		l = i18n.English
	}
	rows := make([]historyRow, len(v.Items))
	for i, h := range v.Items {
		rows[i] = historyRow{History: h, At: *showTimeIn(l, &h.OccurredAt, v.Loc), Summary: l.T("change_" + string(h.ChangeKind)), loc: v.Loc, l: l}
	}
	return rows
}

// ActorName is who caused a history row in the page's words (actor_ and
// the actor: the pages, the API, an import), else the actor as stored.
func (r historyRow) ActorName() string {
	if id := "actor_" + string(r.Actor); r.l.Has(id) {
		return r.l.T(id)
	}
	return string(r.Actor)
}

// Transition is the status change of a history row: "planned → done", or
// the status alone when it did not change.
func (r historyRow) Transition() string {
	if r.StatusBefore == nil || *r.StatusBefore == r.StatusAfter {
		return statusLabel(r.l, r.StatusAfter)
	}
	return statusLabel(r.l, *r.StatusBefore) + " → " + statusLabel(r.l, r.StatusAfter)
}

// Changes are the fields a history row changed, old and new, in the page's zone.
func (r historyRow) Changes() []string {
	var out []string
	for _, f := range models.EventFields {
		if f.Label == "" || (f.Type != models.TypeTime && f.Type != models.TypeBool) {
			continue // the page shows the changes of times
		}
		c, ok := r.History.Changes[f.Name]
		if !ok {
			continue
		}
		out = append(out, fieldLabelIn(r.l, f.Name)+": "+changeValue(r.l, c.Old, r.loc)+" → "+changeValue(r.l, c.New, r.loc))
	}
	return out
}

// changeValue shows one side of a change in l: a time in the page's zone,
// a flag, or "none".
func changeValue(l *i18n.Lang, v any, loc *time.Location) string {
	switch v := v.(type) {
	case nil:
		return l.T("value_none")
	case bool:
		if v {
			return l.T("value_yes")
		}
		return l.T("value_no")
	case string:
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return showTimeIn(l, &t, loc).Text
		}
		return v
	}
	return fmt.Sprint(v)
}
