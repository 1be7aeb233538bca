// Copyright 2026 The events authors.
// SPDX-License-Identifier: Apache-2.0

package app

import (
	"cmp"
	"math/big"
	"slices"
	"sort"
)

// The logged time of a day and each project's share of it (DESIGN.md,
// Summary), in whole seconds that add up exactly:
//
//   - the day's logged time is the length of the union of its logs' parts;
//   - inside one project its logs' parts are a union: two overlapping #work
//     logs count once;
//   - a stretch of time that logs of k different projects cover is shared
//     equally: each of them gets 1/k of it;
//   - each project's exact share (a fraction of a second at most off a whole
//     second per stretch) is cut down to the whole second, and the seconds
//     that leaves over go one each to the projects with the largest
//     fractions cut off; equal fractions go in tag order (byte order, logs
//     without a project last). The largest remainder method: no share is
//     off its exact value by a second or more, and the shares add up to the
//     day's logged time.
//
// The week's projects are the sums of its days', so they add up to the
// week's logged time too.

// LogPart is one log's part of one local day, its bounds in whole epoch
// seconds (cut down to the second), and its project tag (nil for none).
type LogPart struct {
	Tag        *string
	Start, End int64
}

// ShareDay answers the logged seconds of the parts of one day and each
// project's share of them, seconds descending then tag (none last); a
// project whose share is 0 is left out.
func ShareDay(parts []LogPart) (int64, []ProjectSeconds) {
	type edge struct {
		at  int64
		tag int // index into tags
		in  int // +1 a part starts, -1 it ends
	}
	var (
		tags  []*string
		keys  = map[string]int{}
		edges = make([]edge, 0, 2*len(parts))
	)
	for _, p := range parts {
		if p.End <= p.Start {
			continue // a point spans no time
		}
		k := tagKey(p.Tag)
		i, ok := keys[k]
		if !ok {
			i = len(tags)
			keys[k] = i
			tags = append(tags, p.Tag)
		}
		edges = append(edges, edge{p.Start, i, 1}, edge{p.End, i, -1})
	}
	if len(edges) == 0 {
		return 0, []ProjectSeconds{}
	}
	// tag order: the order that breaks ties, and the order of the sweep's
	// open tags
	order := make([]int, len(tags))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return compareTags(tags[a], tags[b]) })
	rank := make([]int, len(tags))
	for r, i := range order {
		rank[i] = r
	}
	slices.SortFunc(edges, func(a, b edge) int { return cmp.Compare(a.at, b.at) })

	// bySharers[t][k]: the seconds tag t covered together with k-1 other
	// tags; its exact share is the sum over k of bySharers[t][k]/k
	bySharers := make([]map[int64]int64, len(tags))
	for i := range bySharers {
		bySharers[i] = map[int64]int64{}
	}
	open := make([]int, len(tags)) // parts of each tag open at the sweep's time
	var (
		openTags int64 // tags with a part open
		total    int64
		last     int64
	)
	for _, e := range edges {
		if span := e.at - last; span > 0 && openTags > 0 {
			total += span
			for t, n := range open {
				if n > 0 {
					bySharers[t][openTags] += span
				}
			}
		}
		last = e.at
		if e.in > 0 && open[e.tag] == 0 {
			openTags++
		}
		open[e.tag] += e.in
		if e.in < 0 && open[e.tag] == 0 {
			openTags--
		}
	}

	// each tag's whole seconds and the fraction cut off
	type share struct {
		tag   int
		whole int64
		frac  *big.Rat
	}
	shares := make([]share, len(tags))
	var given int64
	for t := range tags {
		s := share{tag: t, frac: new(big.Rat)}
		for k, secs := range bySharers[t] {
			s.whole += secs / k
			s.frac.Add(s.frac, big.NewRat(secs%k, k))
		}
		// the fractions of several k may add up past a second
		q := new(big.Int).Quo(s.frac.Num(), s.frac.Denom())
		s.whole += q.Int64()
		s.frac.Sub(s.frac, new(big.Rat).SetInt(q))
		shares[t] = s
		given += s.whole
	}
	// the seconds left over: one each to the largest fractions, ties in tag order
	byFrac := slices.Clone(shares)
	sort.SliceStable(byFrac, func(i, j int) bool {
		if c := byFrac[i].frac.Cmp(byFrac[j].frac); c != 0 {
			return c > 0
		}
		return rank[byFrac[i].tag] < rank[byFrac[j].tag]
	})
	for i := int64(0); i < total-given && i < int64(len(byFrac)); i++ {
		shares[byFrac[i].tag].whole++
	}

	out := make([]ProjectSeconds, 0, len(tags))
	for _, s := range shares {
		if s.whole > 0 {
			out = append(out, ProjectSeconds{ProjectTag: tags[s.tag], Seconds: s.whole})
		}
	}
	sortProjects(out)
	return total, out
}

// tagKey tells project tags apart, none included.
func tagKey(tag *string) string {
	if tag == nil {
		return "\x00"
	}
	return "#" + *tag
}

// compareTags orders tags by their bytes, none last.
func compareTags(a, b *string) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	return cmp.Compare(*a, *b)
}

// sortProjects orders projects as the summary lists them: seconds
// descending, then tag (none last).
func sortProjects(ps []ProjectSeconds) {
	slices.SortFunc(ps, func(a, b ProjectSeconds) int {
		if c := cmp.Compare(b.Seconds, a.Seconds); c != 0 {
			return c
		}
		return compareTags(a.ProjectTag, b.ProjectTag)
	})
}
