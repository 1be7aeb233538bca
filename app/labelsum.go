// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"slices"
	"sort"
	"strings"
)

// LabelSeconds is one label's logged time: the union of the spans of the
// logs that carry it (DESIGN.md, Summary: like `timew summary` per tag).
// Labels overlap, so they do not add up to the logged time.
type LabelSeconds struct {
	Label   string `json:"label"`
	Seconds int64  `json:"seconds"`
}

// LabelDay answers each label's time in the parts of one day: inside a
// label its parts' spans are a union (two overlapping logs count once),
// in whole seconds; seconds descending, then label. A label whose union
// is 0 is left out.
func LabelDay(parts []LogPart) []LabelSeconds {
	spans := map[string][][2]int64{}
	for _, p := range parts {
		if p.End <= p.Start {
			continue
		}
		for _, l := range p.Labels {
			spans[l] = append(spans[l], [2]int64{p.Start, p.End})
		}
	}
	out := make([]LabelSeconds, 0, len(spans))
	for l, s := range spans {
		if n := unionSeconds(s); n > 0 {
			out = append(out, LabelSeconds{Label: l, Seconds: n})
		}
	}
	sortLabels(out)
	return out
}

// unionSeconds is the length of the union of spans (start, end).
func unionSeconds(spans [][2]int64) int64 {
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var total, end int64
	started := false
	for _, s := range spans {
		switch {
		case !started || s[0] >= end:
			total += s[1] - s[0]
			end, started = s[1], true
		case s[1] > end:
			total += s[1] - end
			end = s[1]
		}
	}
	return total
}

// addLabels adds a day's label times into the window's.
func addLabels(window map[string]int64, day []LabelSeconds) {
	for _, l := range day {
		window[l.Label] += l.Seconds
	}
}

// windowLabels is the window's label times: the sum of its days' unions
// (the days do not overlap), in LabelDay's order.
func windowLabels(window map[string]int64) []LabelSeconds {
	out := make([]LabelSeconds, 0, len(window))
	for l, n := range window {
		out = append(out, LabelSeconds{Label: l, Seconds: n})
	}
	sortLabels(out)
	return out
}

func sortLabels(l []LabelSeconds) {
	slices.SortFunc(l, func(a, b LabelSeconds) int {
		if a.Seconds != b.Seconds {
			if a.Seconds > b.Seconds {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Label, b.Label)
	})
}
