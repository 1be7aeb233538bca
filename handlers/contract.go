// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import "encoding/json"

// The page contract: the names the handlers, the templates and app.js must
// agree on, declared once here. The templates read them through the
// functions of contractFuncs ({{idDetail}}); app.js reads them from the
// page's <meta name="page-contract">, written by {{pageContract}}.
const (
	idDetail      = "detail"              // the detail section of /events/{id}
	idNewForm     = "new-form"            // the form of /events/new
	idFlash       = "flash"               // the page's message area: failures no part of the page shows
	idList        = "list"                // the rows of the open tab
	idQuickRecord = "quick-record"        // the one-line record form of /events
	idQuickTitle  = "quick-title"         // its input
	idQuickError  = "quick-error"         // where its refusal is shown
	idTaskCapture = "task-capture"        // the one-line task form of /events (capture text)
	idTaskText    = "task-text"           // its input
	idTaskError   = "task-error"          // where its refusal is shown
	idHistory     = "history"             // the history of /events/{id}
	idDeferMenu   = "defer-menu-template" // the <template> of the rows' defer menu (partials/defer_menu)

	// pathNames is the address of the names in use (names.go), which the
	// record and task lines ask for their suggestions.
	pathNames = "/api/events/names"

	// selRecords is where the quick-record line inserts its row (at the
	// top): Today's Done & logged list, the one list of the other tabs.
	selRecords = "[data-records]"
	// selTasks is where the task capture line inserts its task (at the
	// top): Today's To do list, the one list of the other tabs.
	selTasks = "[data-tasks]"

	// triggerChanged is sent (HX-Trigger) when an event changed; the
	// history of the detail page reloads on it.
	triggerChanged = "event-changed"
)

// deferPreset is one quick choice of the defer menu. app.js resolves it to
// a time when it is clicked, in the page's zone: Hours from now, else the
// clock time At on the date Days ahead, or on the next Weekday (0 is
// Sunday; a week ahead on that day).
type deferPreset struct {
	Key     string
	Label   string // the id of its words in the catalogue
	Hours   int
	Days    int
	Weekday int // -1: none
	At      string
}

var deferPresets = []deferPreset{
	{Key: "3h", Label: "defer_in_3_hours", Hours: 3, Weekday: -1},
	{Key: "tomorrow", Label: "defer_tomorrow_9", Days: 1, Weekday: -1, At: "09:00"},
	{Key: "monday", Label: "defer_next_monday_9", Weekday: 1, At: "09:00"},
}

// contract is what app.js needs of the contract.
var contract = func() string {
	b, err := json.Marshal(map[string]string{
		"flash": idFlash, "quickRecord": idQuickRecord, "quickTitle": idQuickTitle, "quickError": idQuickError,
		"records":     selRecords,
		"taskCapture": idTaskCapture, "taskText": idTaskText, "taskError": idTaskError,
		"deferMenu": idDeferMenu, "names": pathNames,
	})
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// contractFuncs hand the contract to the templates.
var contractFuncs = map[string]any{
	"idDetail":       func() string { return idDetail },
	"idNewForm":      func() string { return idNewForm },
	"idFlash":        func() string { return idFlash },
	"idList":         func() string { return idList },
	"idNotice":       func() string { return idNotice },
	"idQuickRecord":  func() string { return idQuickRecord },
	"idQuickTitle":   func() string { return idQuickTitle },
	"idQuickError":   func() string { return idQuickError },
	"idHistory":      func() string { return idHistory },
	"selRecords":     func() string { return selRecords },
	"selTasks":       func() string { return selTasks },
	"idTaskCapture":  func() string { return idTaskCapture },
	"idTaskText":     func() string { return idTaskText },
	"idTaskError":    func() string { return idTaskError },
	"triggerChanged": func() string { return triggerChanged },
	"pageContract":   func() string { return contract },
	"idDeferMenu":    func() string { return idDeferMenu },
	"deferPresets":   func() []deferPreset { return deferPresets },
}
