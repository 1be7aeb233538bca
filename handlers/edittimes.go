// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"events/models"
)

// Editing times cannot silently break a record (issue 55, point 7;
// DESIGN.md, "Editing times"). The time fields of the detail page and of
// the new-event page show and take 24-hour times ("2026-11-29 13:04"), not
// the browser's 12-hour datetime-local field, and read the capture words
// ("14:00", "오후 2시", "tomorrow 9:00") with the one capture grammar
// (models.ParseTimeWords). A detail save that makes a span longer than a
// day, or moves it by more than 30 days, is answered with the new length
// or place and a second button, and changes nothing until that button
// sends the confirmation back.

// confirmTimesField is the detail form's hidden field that confirms the
// times it names (timesToken); the API never sees it.
const confirmTimesField = "confirm_times"

// The bounds past which a change of times needs a second click.
const (
	confirmLength = 24 * time.Hour
	confirmMove   = 30 * 24 * time.Hour
)

// timesConfirm is what the detail form asks before it saves times that
// change a span that much.
type timesConfirm struct {
	Token string // the times confirmed, sent back in confirmTimesField
	Text  string // the new length or place, in words
}

// time24Layout is how the detail's time fields show a time.
const time24Layout = "2006-01-02 15:04"

// time24Fields turns the form's datetime-local fields into text fields of
// 24-hour times, each value written as time24Layout in loc when it reads
// as a time, and says under each what it takes.
func time24Fields(f *formView, loc *time.Location) {
	for i := range f.Fields {
		ff := &f.Fields[i]
		if ff.Type == "date" { // a day (dateOnly): a 24-hour field again when its clock comes back
			ff.Time24 = true
			continue
		}
		if ff.Type != "datetime-local" {
			continue
		}
		ff.Type, ff.Time24 = "text", true
		if t, _, msg := models.ParseTime(ff.Value, loc); msg == "" && ff.Value != "" {
			ff.Value = t.In(loc).Format(time24Layout)
		}
		if ff.Hint == "" && ff.Error == "" {
			ff.Hint = "field_hint_time24"
		}
	}
}

// editTimes reads a detail form's save before the PATCH decodes it: each
// time field's capture words become the time they name, and a change that
// needs confirming, unconfirmed, is answered with the confirmation (done
// true), nothing changed. Anything it cannot read is left to the PATCH,
// which refuses it as it always has.
func (h *Handlers) editTimes(c *fiber.Ctx, id int64) (done bool, err error) {
	if !fragment(c) || targetOf(c) != toDetail || mediaType(c) != "application/x-www-form-urlencoded" {
		return false, nil
	}
	form, err := url.ParseQuery(string(c.Body()))
	if err != nil {
		return false, nil
	}
	e, err := h.svc.Get(c.UserContext(), id)
	if err != nil {
		return false, nil
	}
	loc, now := h.svc.Zone(), h.svc.Now()
	rewritten := timeWords(form, func(f *models.Field) time.Time {
		if t := f.Time(&e); t != nil {
			return *t
		}
		return time.Time{}
	}, now, loc)
	confirmed := form.Get(confirmTimesField)
	if form.Has(confirmTimesField) {
		form.Del(confirmTimesField)
		rewritten = true
	}
	if ask := h.timesToConfirm(c, e, form, now); ask != nil && ask.Token != confirmed {
		d := h.detail(c, e, form, nil, "", "")
		d.Confirm = ask
		return true, h.page(c, "partials/detail", d)
	}
	if rewritten {
		c.Request().SetBody([]byte(form.Encode()))
	}
	return false, nil
}

// newFormTimes reads the time fields of a new-event form's create before
// the create decodes it, as editTimes does the detail's: capture words
// become the time they name, a clock time without a day today's. A new
// span asks no confirmation: nothing stored is stretched or moved.
func (h *Handlers) newFormTimes(c *fiber.Ctx) {
	if !fragment(c) || targetOf(c) != toNewForm || mediaType(c) != "application/x-www-form-urlencoded" {
		return
	}
	form, err := url.ParseQuery(string(c.Body()))
	if err != nil {
		return // the create refuses it
	}
	if timeWords(form, func(*models.Field) time.Time { return time.Time{} }, h.svc.Now(), h.svc.Zone()) {
		c.Request().SetBody([]byte(form.Encode()))
	}
}

// timeWords rewrites each time field of form that holds words rather
// than a time ("14:00", "오후 2시", "tomorrow 9:00") into the time they
// name (models.ParseTimeWords), a clock time without a day on the date of
// dayOf(field) (today for the zero time); words it cannot read are left
// for the decoder to refuse. It says whether it rewrote any.
func timeWords(form url.Values, dayOf func(*models.Field) time.Time, now time.Time, loc *time.Location) bool {
	rewritten := false
	for i := range models.EventFields {
		f := &models.EventFields[i]
		name := f.Form()
		if f.Type != models.TypeTime || !form.Has(name) {
			continue
		}
		v := strings.TrimSpace(form.Get(name))
		if v == "" {
			continue
		}
		if _, _, msg := models.ParseTime(v, loc); msg == "" {
			continue
		}
		if t, ok := models.ParseTimeWords(v, dayOf(f), now, loc); ok {
			form.Set(name, models.FormatTime(t))
			rewritten = true
		}
	}
	return rewritten
}

// timesToConfirm is the confirmation a save of form over e needs, nil
// when none: the span it leaves is longer than confirmLength and its
// length changed, or its start moves by more than confirmMove.
func (h *Handlers) timesToConfirm(c *fiber.Ctx, e models.Event, form url.Values, now time.Time) *timesConfirm {
	in, err := models.DecodeForm(form, models.PatchFields, h.svc.Zone())
	if err != nil {
		return nil // the PATCH refuses it
	}
	n, _, _, err := models.ApplyPatch(e, in, now, h.svc.Zone())
	if err != nil {
		return nil
	}
	oldStart, oldEnd := spanOf(&e)
	newStart, newEnd := spanOf(&n)
	if newStart == nil {
		return nil
	}
	lang, loc := h.lang(c), h.svc.Zone()
	var says []string
	if newEnd != nil {
		length := models.Seconds(*newStart, *newEnd)
		was := int64(-1)
		if oldStart != nil && oldEnd != nil {
			was = models.Seconds(*oldStart, *oldEnd)
		}
		if length > int64(confirmLength/time.Second) && length != was {
			if was < 0 {
				says = append(says, lang.T("confirm_times_length_new", "New", lang.Elapsed(length)))
			} else {
				says = append(says, lang.T("confirm_times_length", "New", lang.Elapsed(length), "Old", lang.Elapsed(was)))
			}
		}
	}
	if oldStart != nil {
		moved := models.Seconds(*oldStart, *newStart)
		if moved < 0 {
			moved = -moved
		}
		if moved > int64(confirmMove/time.Second) {
			when := showTimeIn(lang, newStart, loc)
			says = append(says, lang.T("confirm_times_moved", "Days", strconv.FormatInt(moved/86400, 10), "When", when.Text))
		}
	}
	if len(says) == 0 {
		return nil
	}
	token := models.FormatTime(*newStart)
	if newEnd != nil {
		token += "/" + models.FormatTime(*newEnd)
	}
	return &timesConfirm{Token: token, Text: strings.Join(says, " ") + " " + lang.T("confirm_times_again")}
}

// spanOf is the span of e that a save may stretch or move: a log's start
// and end, a calendar entry's, a task's due time (no end).
func spanOf(e *models.Event) (start, end *time.Time) {
	switch e.Kind {
	case models.KindActivityLog:
		return e.StartedAt, e.EndedAt
	case models.KindCalendarEvent:
		return e.StartAt, e.EndAt
	}
	return e.DueAt, nil
}
