// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"fmt"
	"time"

	"events/models"
)

// historyView is the history timeline of one event, a page of it at a
// time: More is the address of the next page, "" at its end.
type historyView struct {
	ID    int64 // the event's
	Items []models.History
	Loc   *time.Location
	More  string
}

type historyRow struct {
	models.History
	At      localTime
	Summary string
	loc     *time.Location
}

var changeLabels = map[models.ChangeKind]string{
	models.ChangeCreate:     "Created",
	models.ChangeComplete:   "Completed",
	models.ChangeCancel:     "Cancelled",
	models.ChangeDefer:      "Deferred",
	models.ChangeReactivate: "Reactivated",
	models.ChangeReschedule: "Rescheduled",
}

// Rows are the history rows with their times in the page's zone.
func (v historyView) Rows() []historyRow {
	rows := make([]historyRow, len(v.Items))
	for i, h := range v.Items {
		rows[i] = historyRow{History: h, At: *showTime(&h.OccurredAt, v.Loc), Summary: changeLabels[h.ChangeKind], loc: v.Loc}
		if rows[i].Summary == "" {
			rows[i].Summary = string(h.ChangeKind)
		}
	}
	return rows
}

// Transition is the status change of a history row: "planned → done", or
// the status alone when it did not change.
func (r historyRow) Transition() string {
	if r.StatusBefore == nil || *r.StatusBefore == r.StatusAfter {
		return statusLabel(r.StatusAfter)
	}
	return statusLabel(*r.StatusBefore) + " → " + statusLabel(r.StatusAfter)
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
		out = append(out, f.Label+": "+changeValue(c.Old, r.loc)+" → "+changeValue(c.New, r.loc))
	}
	return out
}

// changeValue shows one side of a change: a time in the page's zone, a
// flag, or "none".
func changeValue(v any, loc *time.Location) string {
	switch v := v.(type) {
	case nil:
		return "none"
	case bool:
		if v {
			return "yes"
		}
		return "no"
	case string:
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return showTime(&t, loc).Text
		}
		return v
	}
	return fmt.Sprint(v)
}
