// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package main

// Issue 56, "Typing a project or label back", in a real browser: the record
// line offers the projects in use after # and the labels after @ as one
// types (an ARIA combobox over a list the server draws); ↑/↓ choose,
// Enter and Tab take, Esc closes; a name with spaces goes in quoted, as
// the capture text reads it back; the task line on a phone takes a tap;
// axe-core finds nothing serious with the list open, at 1280 and 390 px.
//
//	go test -run TestBrowserNames ./cmd/events

import (
	"context"
	"slices"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

func TestBrowserNames(t *testing.T) {
	runBrowserSuite(t, []browserCase{
		{"TypeBack", testNamesTypeBack},
	})
}

// namesState is the combobox of a line and its list, as the page has them.
const namesState = `((sel) => {
	const input = document.querySelector(sel), list = document.getElementById(input.getAttribute('aria-controls'));
	const opts = [...list.querySelectorAll('[role=option]')];
	const active = input.getAttribute('aria-activedescendant');
	return {
		role: input.getAttribute('role'), expanded: input.getAttribute('aria-expanded'),
		listRole: list.getAttribute('role'), shown: !list.hidden && list.offsetParent !== null,
		names: opts.map(o => o.dataset.name), selected: opts.filter(o => o.getAttribute('aria-selected') === 'true').map(o => o.dataset.name),
		active: active ? (document.getElementById(active)?.dataset.name ?? '(no such option)') : '',
		value: input.value, focused: document.activeElement === input,
	};
})`

type namesView struct {
	Role     string   `json:"role"`
	Expanded string   `json:"expanded"`
	ListRole string   `json:"listRole"`
	Shown    bool     `json:"shown"`
	Names    []string `json:"names"`
	Selected []string `json:"selected"`
	Active   string   `json:"active"`
	Value    string   `json:"value"`
	Focused  bool     `json:"focused"`
}

func (p *tab) names(sel string) namesView {
	p.t.Helper()
	return eval[namesView](p, namesState+"("+jsString(sel)+")")
}

// listFor is true when the line sel shows its list drawn for what is
// typed of the name, prefix: each key asks anew after a pause, so on a
// slow machine the list of a shorter word ("#" for "#ac") can be open
// before the answer for the whole word comes.
func listFor(sel, prefix string) string {
	return `(() => {
		const input = document.querySelector(` + jsString(sel) + `), list = document.getElementById(input.getAttribute('aria-controls'));
		return input.getAttribute('aria-expanded') === 'true' &&
			[...list.querySelectorAll('[role=option]')].every(o => o.dataset.name.toLowerCase().startsWith(` + jsString(prefix) + `));
	})()`
}

// tap touches the middle of the element sel, as a finger does.
func (p *tab) tap(sel string) {
	p.t.Helper()
	type box struct{ X, Y float64 }
	b := eval[box](p, `(() => { const r = document.querySelector(`+jsString(sel)+`).getBoundingClientRect(); return {X: r.x + r.width / 2, Y: r.y + r.height / 2}; })()`)
	p.do("tap "+sel, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: b.X, Y: b.Y}}}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}})
		return err
	}))
}

func testNamesTypeBack(t *testing.T, b *browser) {
	s := startWeb(t)
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "site", "project_tag": "Acme website", "labels": []string{"client acme", "회의"}})
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "site 2", "project_tag": "Acme website", "labels": []string{"회의"}})
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "tree", "project_tag": "acorn"})
	createEvent(t, s.base, map[string]any{"kind": "task", "title": "일", "project_tag": "업무"})
	p := b.newTab(t, s.base)
	p.open("/events")
	const line = "#quick-title"
	p.waitFor("the record line", `document.querySelector('`+line+`')`)
	if v := p.names(line); v.Role != "combobox" || v.Expanded != "false" || v.ListRole != "listbox" || v.Shown {
		t.Fatalf("before typing: %+v, want a closed combobox over a listbox", v)
	}

	// #ac: the two projects, the most used first; ↓ ↓ ↑ move the choice
	p.click(line)
	p.keys("writing #ac")
	p.waitFor("the projects after #ac", listFor(line, "ac"))
	v := p.names(line)
	if !slices.Equal(v.Names, []string{"Acme website", "acorn"}) || !v.Shown || v.Active != "" {
		t.Fatalf("after #ac: %+v, want Acme website and acorn shown, none chosen", v)
	}
	p.audit("the record line with its list open, 1280 px")
	p.press(kb.ArrowDown + kb.ArrowDown + kb.ArrowUp)
	if v = p.names(line); v.Active != "Acme website" || !slices.Equal(v.Selected, []string{"Acme website"}) {
		t.Fatalf("after ↓↓↑: %+v, want Acme website chosen", v)
	}
	// Enter takes it, quoted (it has a space), and sends nothing
	mark := p.requestCount()
	p.press("\r")
	if v = p.names(line); v.Value != `writing #"Acme website" ` || v.Expanded != "false" || v.Shown || !v.Focused {
		t.Fatalf("after Enter: %+v, want the name taken, the list closed, the focus kept", v)
	}
	if got := apiPaths(p.requestsSince(mark)); slices.Contains(got, "POST /api/events") {
		t.Fatalf("Enter on a chosen name sent the line: %v", got)
	}

	// @: the labels; Tab takes the chosen one
	p.keys("@")
	p.waitFor("the labels after @", `document.querySelector('`+line+`').getAttribute('aria-expanded') === 'true'`)
	if v = p.names(line); !slices.Equal(v.Names, []string{"회의", "client acme"}) {
		t.Fatalf("after @: %+v, want 회의 then client acme", v)
	}
	p.press(kb.ArrowDown + kb.ArrowDown + "\t")
	if v = p.names(line); v.Value != `writing #"Acme website" @"client acme" ` || v.Expanded != "false" || !v.Focused {
		t.Fatalf("after Tab: %+v", v)
	}

	// @회 (Hangul): 회의; Esc closes the list and keeps the text and the focus
	p.keys("@회")
	p.waitFor("회의 after @회", listFor(line, "회"))
	if v = p.names(line); !slices.Equal(v.Names, []string{"회의"}) {
		t.Fatalf("after @회: %+v", v)
	}
	p.press(kb.Escape)
	if v = p.names(line); v.Expanded != "false" || v.Shown || v.Value != `writing #"Acme website" @"client acme" @회` || !v.Focused {
		t.Fatalf("after Esc: %+v, want the list closed, the text and the focus kept", v)
	}
	// the line, sent, is read back with the whole project and both labels
	p.keys("의 30m")
	p.press("\r")
	p.waitFor("the record", `[...document.querySelectorAll('li.event-row a.title')].some(a => a.textContent.trim() === 'writing')`)
	var got *apiEvent
	for _, e := range listAll(t, s.base) {
		if e.Title == "writing" {
			got = &e
		}
	}
	if got == nil || got.ProjectTag == nil || *got.ProjectTag != "Acme website" || !slices.Equal(got.Labels, []string{"client acme", "회의"}) {
		t.Fatalf("the record: %+v, want project Acme website and labels client acme, 회의", got)
	}
	p.screenshot("names-record-desktop.png", 1280, false)

	// the task line on a phone: # offers every project; a tap takes one
	p.open("/events")
	p.do("phone viewport", chromedp.EmulateViewport(390, 780, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	const task = "#task-text"
	p.waitFor("the task line", `document.querySelector('`+task+`')`)
	p.tap(task)
	p.keys("pay rent #")
	p.waitFor("the projects after #", `document.querySelector('`+task+`').getAttribute('aria-expanded') === 'true'`)
	if v = p.names(task); !slices.Equal(v.Names, []string{"Acme website", "acorn", "업무"}) || !v.Shown {
		t.Fatalf("the task line after #: %+v", v)
	}
	if wide := eval[bool](p, `document.documentElement.scrollWidth > document.documentElement.clientWidth`); wide {
		t.Errorf("the open list scrolls the page sideways at 390 px")
	}
	p.audit("the task line with its list open, 390 px")
	p.screenshot("names-task-phone.png", 390, true)
	p.do("phone viewport", chromedp.EmulateViewport(390, 780, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	p.tap(`#task-text-names [role=option][data-name="업무"]`)
	if v = p.names(task); v.Value != "pay rent #업무 " || v.Expanded != "false" {
		t.Fatalf("after a tap on 업무: %+v", v)
	}
}
