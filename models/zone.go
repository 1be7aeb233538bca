// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package models

import (
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// An event's dates (DESIGN.md, "Fields and JSON"): the zone its all-day
// span and day-only due were fixed in is stored with it (zone), so that a
// client can show them as dates without knowing the service's zone, and
// so that they keep their dates when EVENTS_TIMEZONE changes. Todoist's
// floating dates are the model: start_date and end_date (inclusive) of an
// all-day entry, due_date of a task due on a day without a clock time,
// each read in the event's zone and null where it does not apply.

// ZoneName is the name a zone is stored under: its IANA name.
func ZoneName(loc *time.Location) *string {
	name := loc.String()
	return &name
}

// TimeZone is the zone e's all-day span and day-only due were fixed in
// (the zone field, loaded); nil when it is not known (a row stored before
// zones were, until the service's start fills it in). It is not called
// Location: that is a field's natural name.
func (e *Event) TimeZone() *time.Location {
	if e.Zone == nil {
		return nil
	}
	return zoneNamed(*e.Zone)
}

// StartDate is the first local date of an all-day entry, as the wall
// clock of its start in its zone; false for any other event.
func (e *Event) StartDate() (time.Time, bool) {
	if e.Kind != KindCalendarEvent || !e.AllDay || e.StartAt == nil {
		return time.Time{}, false
	}
	loc := e.TimeZone()
	if loc == nil {
		return time.Time{}, false
	}
	return e.StartAt.In(loc), true
}

// EndDate is the last local date of an all-day entry, inclusive: the date
// just before its end, the (exclusive) midnight after its last day.
func (e *Event) EndDate() (time.Time, bool) {
	start, ok := e.StartDate()
	if !ok || e.EndAt == nil || !e.EndAt.After(*e.StartAt) {
		return start, ok
	}
	return e.EndAt.Add(-time.Microsecond).In(start.Location()), true
}

// DueDate is the local date of a task due on a day without a clock time
// (DueDayOnly in its zone); false for any other event.
func (e *Event) DueDate() (time.Time, bool) {
	if e.Kind != KindTask || e.DueAt == nil {
		return time.Time{}, false
	}
	loc := e.TimeZone()
	if loc == nil {
		return time.Time{}, false
	}
	if !DueDayOnly(*e.DueAt, loc) {
		return time.Time{}, false
	}
	return e.DueAt.In(loc), true
}

// AppendDate appends t's wall date as YYYY-MM-DD.
func AppendDate(b []byte, t time.Time) []byte {
	y, m, d := t.Date()
	if y < 0 || y > 9999 {
		return t.AppendFormat(b, time.DateOnly)
	}
	b = append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+int(m)/10), byte('0'+int(m)%10), '-', byte('0'+d/10), byte('0'+d%10))
	return b
}

// zones are the locations of the zone names events carry, loaded once
// each: time.LoadLocation reads the zone's file every time, and a listing
// writes the dates of every row. Read without a lock (the map is never
// changed once stored; a new name stores a copy).
var zones struct {
	m  atomic.Pointer[map[string]*time.Location]
	mu sync.Mutex // held while a copy is made
}

// maxZones bounds the names remembered; the service writes one zone or a
// few, so more means names that are not zones.
const maxZones = 512

// zoneNamed is the location of a stored zone name, nil when the name is
// not a zone this system knows.
func zoneNamed(name string) *time.Location {
	if m := zones.m.Load(); m != nil {
		if loc, ok := (*m)[name]; ok {
			return loc
		}
	}
	loc, err := LoadZone(name)
	if err != nil {
		loc = nil
	}
	zones.mu.Lock()
	defer zones.mu.Unlock()
	var old map[string]*time.Location
	if m := zones.m.Load(); m != nil {
		old = *m
	}
	if len(old) < maxZones {
		n := make(map[string]*time.Location, len(old)+1)
		for k, v := range old {
			n[k] = v
		}
		n[strings.Clone(name)] = loc
		zones.m.Store(&n)
	}
	return loc
}
