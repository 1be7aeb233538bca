// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package handlers

import (
	"bytes"
	"html/template"
	"math/rand/v2"
	"strings"
	"testing"
)

// reviewEntriesTemplate is the logbook's markup as the review page's
// template drew it before EntriesHTML (views/pages/review.html).
const reviewEntriesTemplate = `{{if .Entries}}<ul class="logbook">
    {{range .Entries}}<li class="entry entry-{{.Class}}"><span class="what">{{.What}}</span> <time datetime="{{.When.Attr}}">{{.When.Text}}</time> <a href="/events/{{.ID}}">{{.Title}}</a>{{with .Span}} <span class="span">{{.}}</span>{{end}}{{with .Tag}} <a class="tag" href="{{tagHref .}}" aria-label="Events tagged {{.}}">#<bdi>{{.}}</bdi></a>{{end}}</li>
    {{end}}
  </ul>{{end}}`

// TestReviewEntriesAreTheTemplates: for 300 days of random entries (every
// kind, with and without a span and a tag, titles and tags of quotes,
// ampersands, pluses, angle brackets, NUL, Korean, bidi controls and
// invalid UTF-8), the logbook drawn by Go is byte for byte what the
// template drew.
func TestReviewEntriesAreTheTemplates(t *testing.T) {
	old := template.Must(template.New("old").Funcs(template.FuncMap{"tagHref": tagHref}).Parse(reviewEntriesTemplate))
	now := template.Must(template.New("now").Parse(`{{if .Entries}}<ul class="logbook">
    {{.EntriesHTML}}
  </ul>{{end}}`))
	pieces := []string{"a", "Standup", " ", "\"", "'", "&", "+", "<", ">", "\x00", "=", "`", "#", "%", "/", "?",
		"회의록", "정리", "\u202e", "\u2066", "\ufdd0", "🎉", "\xff", "\xe2\x80", "\t", "&amp;", "<script>"}
	rng := rand.New(rand.NewPCG(7, 11))
	word := func(n int) string {
		var s strings.Builder
		for range rng.IntN(n) {
			s.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return s.String()
	}
	kinds := []struct{ what, class string }{{"Done", "done"}, {"Log", "log"}, {"Calendar", "calendar"}, {"Cancelled", "cancelled"}}
	for d := range 300 {
		var day reviewDay
		for i := range rng.IntN(12) {
			k := kinds[rng.IntN(len(kinds))]
			e := reviewEntry{What: k.what, Class: k.class, ID: int64(d*100 + i + 1), Title: word(8),
				When: localTime{Text: "09:3" + word(1), Attr: "2026-11-23T09:30:00+09:00" + word(1)}}
			if rng.IntN(2) == 0 {
				e.Span = "1 h " + word(2)
			}
			if rng.IntN(2) == 0 {
				e.Tag = word(4)
			}
			day.Entries = append(day.Entries, e)
		}
		var want, got bytes.Buffer
		if err := old.Execute(&want, day); err != nil {
			t.Fatal(err)
		}
		if err := now.Execute(&got, day); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("day %d:\n got %q\nwant %q", d, got.String(), want.String())
		}
	}
}
